#!/usr/bin/env bash
# mk/upstream-compile.sh — compiles upstream kernel libraries' sources, unedited, against lanelab's
# HIP headers for gfx942 and gfx950 and prints one Markdown table row per file: whether it
# compiles for each arch and the first error that stopped it (issue 27: "measure against the
# upstream sources themselves"). The upstream trees are test subjects: they are never copied
# into lanelab, and nothing here keeps what it compiles (objects go to a temporary folder that
# is removed).
#
#   mk/upstream-compile.sh [options] LIB=DIR...
#     LIB=DIR       flashinfer=ROCm/flashinfer checkout, aiter=ROCm/aiter checkout,
#                   ck=ROCm/composable_kernel checkout, vllm=a folder holding vLLM's csrc/
#     --arch A      gfx942 or gfx950 (repeatable; default both)
#     --jobs N      compiles at once (default 2)
#     --device-only compile the device side only (--cuda-device-only), for measuring the device
#                   vocabulary while the host side is incomplete; the table says so
#     -I DIR        an extra include folder, searched FIRST (e.g. a stand-in for PyTorch's
#                   headers, which are not HIP: the table names every such folder)
#     --cxx-include DIR  a C++ standard library header folder used INSTEAD of the system's
#                   (-nostdinc++ -isystem DIR; repeatable, in order), e.g. libstdc++ 11's c++/11 and
#                   x86_64-linux-gnu/c++/11 from an unpacked libstdc++-11-dev (`apt-get download
#                   libstdc++-11-dev && dpkg -x` it): the library ROCm's Ubuntu 22.04 images build
#                   with. The table names them.
#     --out FILE    also write the table to FILE
#     --only REGEX  only the files whose label (the table's "file" column) matches REGEX (an
#                   extended regular expression), e.g. to split a long run across invocations
#
# What each library contributes:
#   flashinfer  every header of include/flashinfer/attention/generic/, each in its own
#               translation unit (`#include <flashinfer/attention/generic/X.cuh>`), -I include
#   aiter       csrc/kernels/*.cu but the gfx1250-only ones, -I csrc/include and, when present,
#               -I 3rdparty/composable_kernel/include; with the defines its build passes
#               (aiter/jit/core.py) and PyTorch's extension build adds (-DUSE_ROCM=1)
#   ck          include/ck_tile/core.hpp and each include/ck_tile/ops/*.hpp, one per unit, -I include
#   vllm        every .cu under csrc/, -I csrc, with the flags vLLM's ROCm build passes (the
#               tree should hold the files vLLM builds for ROCm: its CMakeLists.txt HIP lists)
# The compiler is `lanelab hipcc -c` when the lanelab binary has that command, else Debian's
# clang-22 with lanelab's headers (-x hip -nogpuinc -nogpulib -I hip/include), host and device.
# Exit status: 0 when the table was produced (whatever it says), 2 bad usage, 3 no compiler.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
lanelab=${LANELAB:-$here/build/lanelab}
clang=${LANELAB_LLVM_BIN:-/usr/lib/llvm-22/bin}/clang++

# Worker: compile job N for ARCH (called by the main run through xargs).
if [ "${1:-}" = --worker ]; then
  n=$2 arch=$3 tmp=$UC_TMP
  IFS=$'\t' read -r lib label src flags < <(sed -n "${n}p" "$tmp/jobs")
  mapfile -t inc < "$tmp/extra-includes"
  incf=(); for d in "${inc[@]}"; do [ -n "$d" ] && incf+=(-I "$d"); done
  mapfile -t cxx < "$tmp/cxx-includes"
  [ -n "${cxx[0]:-}" ] && incf+=(-nostdinc++)
  for d in "${cxx[@]}"; do [ -n "$d" ] && incf+=(-isystem "$d"); done
  log=$tmp/$n-$arch.log o=$tmp/$n-$arch.o
  # shellcheck disable=SC2086
  if [ "${UC_COMPILER#lanelab hipcc}" != "$UC_COMPILER" ]; then
    timeout 900 "$lanelab" hipcc -c --offload-arch="$arch" "${incf[@]}" $flags "$src" -o "$o" > "$log" 2>&1
  else
    dev=(); [ "$UC_DEVICE_ONLY" = 1 ] && dev=(--cuda-device-only)
    timeout 900 "$clang" -x hip --offload-arch="$arch" "${dev[@]}" -nogpuinc -nogpulib -O1 "${incf[@]}" $flags \
      -I "$here/hip/include" -include "$UC_PRELUDE" -c "$src" -o "$o" > "$log" 2>&1
  fi
  rc=$?
  rm -f "$o"
  first=$(grep -m1 -E '(fatal )?error:' "$log" | sed -e "s|$tmp/[^:]*|<unit>|" -e 's/|/\\|/g' | cut -c1-240)
  [ $rc = 124 ] && first="timed out after 900 s"
  [ $rc != 0 ] && [ -z "$first" ] && first="exit $rc: $(tail -1 "$log" | cut -c1-200)"
  printf '%s\t%s\t%s\t%s\t%s\n' "$lib" "$label" "$arch" "$rc" "$first" > "$tmp/$n-$arch.res"
  exit 0
fi

arches=() jobs=2 device_only=0 extra=() cxxinc=() out="" libs=() only=""
usage() { echo "usage: mk/upstream-compile.sh [--arch A]... [--jobs N] [--device-only] [-I DIR]... [--cxx-include DIR]... [--out FILE] [--only REGEX] LIB=DIR..." >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --arch) [ $# -ge 2 ] || usage; case $2 in gfx942|gfx950) arches+=("$2");; *) echo "upstream-compile: unknown arch '$2' (gfx942, gfx950)" >&2; exit 2;; esac; shift 2;;
    --jobs) [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || { echo "upstream-compile: --jobs takes a positive integer" >&2; exit 2; }; jobs=$2; shift 2;;
    --device-only) device_only=1; shift;;
    -I) [ $# -ge 2 ] && [ -d "$2" ] || { echo "upstream-compile: -I needs an existing folder (got '${2:-}')" >&2; exit 2; }; extra+=("$(cd "$2" && pwd)"); shift 2;;
    --cxx-include) [ $# -ge 2 ] && [ -d "$2" ] || { echo "upstream-compile: --cxx-include needs an existing folder (got '${2:-}')" >&2; exit 2; }; cxxinc+=("$(cd "$2" && pwd)"); shift 2;;
    --out) [ $# -ge 2 ] || usage; out=$2; shift 2;;
    --only) [ $# -ge 2 ] || usage; only=$2; shift 2
      echo x | grep -Eq -- "$only" 2>/dev/null; [ $? -le 1 ] || { echo "upstream-compile: --only: not an extended regular expression: '$only'" >&2; exit 2; };;
    flashinfer=*|aiter=*|ck=*|vllm=*) d=${1#*=}; [ -d "$d" ] || { echo "upstream-compile: ${1%%=*}: no folder '$d'" >&2; exit 2; }; libs+=("${1%%=*}=$(cd "$d" && pwd)"); shift;;
    -h|--help) usage;;
    *) echo "upstream-compile: unknown argument '$1'" >&2; usage;;
  esac
done
[ ${#libs[@]} -gt 0 ] || usage
[ ${#arches[@]} -gt 0 ] || arches=(gfx942 gfx950)

if [ -x "$lanelab" ] && "$lanelab" help hipcc >/dev/null 2>&1 && [ $device_only = 0 ]; then
  compiler="lanelab hipcc -c"
elif [ -x "$clang" ]; then
  # What hipcc's clang puts in front of every HIP unit (its runtime wrapper) is lanelab's prelude
  # when the tree has one, else hip_runtime.h itself.
  prelude=hip/hip_runtime.h
  [ -f "$here/hip/include/hip/lanelab_hip_prelude.h" ] && prelude=hip/lanelab_hip_prelude.h
  compiler="clang-22 with lanelab's headers ($([ $device_only = 1 ] && echo "device side only" || echo "host and device"), -include $prelude)"
else
  echo "upstream-compile: no compiler: neither '$lanelab hipcc' nor $clang (apt-get install -y clang-22 lld-22)" >&2
  exit 3
fi

tmp=$(mktemp -d /tmp/lanelab-upstream-XXXXXX) || exit 3
trap 'rm -rf "$tmp"' EXIT

# One job per line: LIB<TAB>LABEL<TAB>SOURCE<TAB>FLAGS...
jobsfile=$tmp/jobs notes=()
: > "$jobsfile"
for spec in "${libs[@]}"; do
  lib=${spec%%=*} dir=${spec#*=}
  case $lib in
    flashinfer)
      [ -d "$dir/include/flashinfer/attention/generic" ] || { echo "upstream-compile: $dir has no include/flashinfer/attention/generic" >&2; exit 2; }
      for h in "$dir"/include/flashinfer/attention/generic/*.cuh; do
        b=$(basename "$h"); tu=$tmp/fi-$b.hip
        printf '#include <flashinfer/attention/generic/%s>\n' "$b" > "$tu"
        printf 'flashinfer\tattention/generic/%s\t%s\t-std=c++17 -I %s\n' "$b" "$tu" "$dir/include" >> "$jobsfile"
      done;;
    aiter)
      [ -d "$dir/csrc/kernels" ] || { echo "upstream-compile: $dir has no csrc/kernels" >&2; exit 2; }
      # with its composable_kernel submodule checked out, as aiter builds by default (ENABLE_CK=1);
      # without it, aiter's own no-CK configuration (ENABLE_CK=0, csrc/include/ck_tile_shim.h)
      ck="-DENABLE_CK=0"
      [ -d "$dir/3rdparty/composable_kernel/include" ] && ck="-DENABLE_CK=1 -I $dir/3rdparty/composable_kernel/include"
      notes+=("aiter: $( [ "$ck" = -DENABLE_CK=0 ] && echo "no 3rdparty/composable_kernel checkout, so ENABLE_CK=0 (aiter's ck_tile_shim.h)" || echo "ENABLE_CK=1 with its composable_kernel submodule")")
      for f in "$dir"/csrc/kernels/*.cu; do
        case $(basename "$f") in *gfx1250*) continue;; esac
        printf 'aiter\tcsrc/kernels/%s\t%s\t-std=c++20 -DUSE_ROCM=1 -D__HIP_PLATFORM_AMD__=1 -D__HIP_PLATFORM_HCC__=1 -DLEGACY_HIPBLAS_DIRECT -DUSE_PROF_API=1 -DENABLE_ROPE_POSITIONS_INT32=0 -I %s %s\n' \
          "$(basename "$f")" "$f" "$dir/csrc/include" "$ck" >> "$jobsfile"
      done;;
    ck)
      [ -d "$dir/include/ck_tile" ] || { echo "upstream-compile: $dir has no include/ck_tile" >&2; exit 2; }
      for h in "$dir"/include/ck_tile/core.hpp "$dir"/include/ck_tile/ops/*.hpp; do
        rel=${h#"$dir"/include/}; tu=$tmp/ck-$(echo "$rel" | tr / -).hip
        printf '#include <%s>\n' "$rel" > "$tu"
        printf 'ck\t%s\t%s\t-std=c++17 -I %s\n' "$rel" "$tu" "$dir/include" >> "$jobsfile"
      done;;
    vllm)
      [ -d "$dir/csrc" ] || { echo "upstream-compile: $dir has no csrc" >&2; exit 2; }
      # the flags vLLM's ROCm build adds (CMakeLists.txt: CMAKE_HIP_STANDARD 20;
      # cmake/utils.cmake get_torch_gpu_compiler_flags for HIP). vLLM's build also runs
      # cmake/hipify.py over csrc/ first (CUDA names to HIP ones); these are the sources as
      # they are, so a CUDA name (cuda_runtime.h, cudaGetDevice) stops them here
      notes+=("vllm: the sources unhipified (vLLM's ROCm build runs cmake/hipify.py on them first), with vLLM's HIP flags -std=c++20 -DUSE_ROCM -DENABLE_FP8 -U__HIP_NO_HALF_CONVERSIONS__ -U__HIP_NO_HALF_OPERATORS__")
      while IFS= read -r f; do
        printf 'vllm\t%s\t%s\t-std=c++20 -DUSE_ROCM -DENABLE_FP8 -U__HIP_NO_HALF_CONVERSIONS__ -U__HIP_NO_HALF_OPERATORS__ -I %s\n' "${f#"$dir"/}" "$f" "$dir/csrc" >> "$jobsfile"
      done < <(find "$dir/csrc" -name '*.cu' | sort);;
  esac
done

# --only: keep the jobs whose label matches
if [ -n "$only" ]; then
  awk -F'\t' -v re="$only" '$2 ~ re' "$jobsfile" > "$jobsfile.only" && mv "$jobsfile.only" "$jobsfile"
  [ -s "$jobsfile" ] || { echo "upstream-compile: --only '$only' matches no file" >&2; exit 2; }
  notes+=("only the files matching /$only/")
fi

# Compile each job for each arch, --jobs at once: this script run as a worker on one (job, arch),
# writing LIB LABEL ARCH rc first-error to $tmp/N-ARCH.res.
printf '%s\n' "${extra[@]}" > "$tmp/extra-includes"
printf '%s\n' "${cxxinc[@]}" > "$tmp/cxx-includes"
njobs=$(wc -l < "$jobsfile")
for n in $(seq 1 "$njobs"); do for a in "${arches[@]}"; do echo "$n $a"; done; done |
  UC_TMP=$tmp UC_DEVICE_ONLY=$device_only UC_COMPILER="$compiler" UC_PRELUDE="${prelude:-}" xargs -P "$jobs" -n 2 "$0" --worker

table=$tmp/table.md
{
  echo "Compiler: $compiler; arches: ${arches[*]}."
  [ ${#extra[@]} -gt 0 ] && echo "Searched first (not HIP; measurement only): ${extra[*]}."
  [ ${#cxxinc[@]} -gt 0 ] && echo "C++ standard library headers instead of the system's: ${cxxinc[*]}."
  for note in "${notes[@]}"; do echo "$note."; done
  echo
  printf '| library | file |'; for a in "${arches[@]}"; do printf ' %s |' "$a"; done; echo ' first blocker |'
  printf '|---|---|'; for a in "${arches[@]}"; do printf '%s' '---|'; done; echo '---|'
  for n in $(seq 1 "$njobs"); do
    IFS=$'\t' read -r lib label _ < <(sed -n "${n}p" "$jobsfile")
    row="| $lib | $label |" blocker=""
    for a in "${arches[@]}"; do
      IFS=$'\t' read -r _ _ _ rc first < "$tmp/$n-$a.res"
      [ "$rc" = 0 ] && row+=" yes |" || row+=" no |"
      [ -z "$blocker" ] && [ "$rc" != 0 ] && blocker="$first"
    done
    echo "$row ${blocker:-—} |"
  done
  echo
  for spec in "${libs[@]}"; do
    lib=${spec%%=*}
    for a in "${arches[@]}"; do
      total=$(awk -F'\t' -v l="$lib" '$1 == l' "$jobsfile" | wc -l)
      ok=$(cat "$tmp"/*-"$a".res 2>/dev/null | awk -F'\t' -v l="$lib" '$1 == l && $4 == 0' | wc -l)
      echo "$lib, $a: $ok of $total compile."
    done
  done
} > "$table"
cat "$table"
if [ -n "$out" ]; then cp "$table" "$out.tmp.$$" && mv -f "$out.tmp.$$" "$out" || { echo "upstream-compile: cannot write $out" >&2; exit 2; }; fi
exit 0
