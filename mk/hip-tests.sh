#!/bin/bash
# mk/hip-tests.sh — AMD's HIP conformance tests (ROCm/hip-tests, catch/unit) built with `lanelab
# hipcc` and run on the emulator, as docs/hip-runtime.md "AMD's hip-tests" reports them. The tests
# are a test subject, never part of lanelab: give the location of a checkout (or of the snapshot's
# files); nothing is copied into this repository.
#
#   mk/hip-tests.sh HIP_TESTS_DIR [--work DIR] [--arch gfx942|gfx950] [--timeout S] [--only REGEX]
#                   [--cflag FLAG]... [DIR...]
#
# For each unit folder (default: the ones docs/hip-runtime.md lists) every source that is a test
# (not a compile-fail "negative" kernel, not a program with its own main) is compiled alone; the
# ones that compile are linked with the suite's Catch2 main into WORK/bin/FOLDER; the code objects
# the folder's CMake builds beside its tests (`hipcc --genco`, loaded with hipModuleLoad) are built
# with `lanelab hipcc --genco` into WORK/run/FOLDER; every test case then runs in its own process
# there (LANELAB_ARCH, a timeout). --only keeps the sources whose file name matches an extended
# regular expression (the folder's shared sources are always built); --cflag adds a flag to every
# compile (-mprintf-kind=hostcall: ROCm's default printf; give it its own --work, objects are kept),
# before the options the folder's CMake gives a source of its own. Test cases AMD itself disables on gfx942
# Linux (catch/hipTestMain/config/config_amd_linux, preprocessed for gfx942) are counted apart.
# Prints one line per folder and a total: sources compiled / failed, cases passed / failed /
# disabled by AMD; WORK/log/FOLDER.cerr names each source's first compile error, WORK/log/FOLDER.res
# each case's result and first failure line. The math folder's host side needs Boost's headers, as its
# CMake does (find_package(Boost); Debian: apt-get install -y libboost-dev); lanelab itself does not.
set -u
usage() { echo "usage: mk/hip-tests.sh HIP_TESTS_DIR [--work DIR] [--arch gfx942|gfx950] [--timeout S] [--only REGEX] [--cflag FLAG]... [DIR...]" >&2; exit 2; }
[ $# -ge 1 ] || usage
SRC=$1; shift
C=$SRC/catch
[ -d "$C/unit" ] && [ -d "$C/include" ] || { echo "hip-tests.sh: $SRC: no catch/unit and catch/include (a ROCm/hip-tests checkout?)" >&2; exit 2; }
WORK=${TMPDIR:-/tmp}/lanelab-hip-tests; ARCH=gfx942; TMO=120; ONLY=; DIRS=(); XFLAGS=()
while [ $# -gt 0 ]; do
  case $1 in --work|--arch|--timeout|--only|--cflag) [ $# -ge 2 ] || usage;; esac
  case $1 in
    --work) WORK=$2; shift 2;;
    --arch) ARCH=$2; shift 2;;
    --timeout) TMO=$2; shift 2;;
    --only) ONLY=$2; shift 2;;
    --cflag) XFLAGS+=("$2"); shift 2;;
    -*) usage;;
    *) DIRS+=("$1"); shift;;
  esac
done
case $ARCH in gfx942|gfx950) ;; *) echo "hip-tests.sh: --arch $ARCH: gfx942 or gfx950" >&2; exit 2;; esac
[ ${#DIRS[@]} -gt 0 ] || DIRS=(stream event device errorHandling executionControl kernel occupancy warp syncthreads printf
  callback context streamperthread launchBounds threadfence synchronization vector_types complex assertion clock
  cooperativeGrps atomics memory graph deviceLib math)
HERE=$(cd "$(dirname "$0")/.." && pwd)
LL=$HERE/build/lanelab
[ -x "$LL" ] || { echo "hip-tests.sh: $LL missing: run make" >&2; exit 3; }
mkdir -p "$WORK/obj" "$WORK/bin" "$WORK/log"
FLAGS=(-I "$C/include" -I "$C/external/Catch2" -I "$C/external/picojson" -I "$C/kernels" -std=c++17 --offload-arch=$ARCH
       -DKERNELS_PATH=\"$C/kernels/\" ${XFLAGS[@]+"${XFLAGS[@]}"})
# the suite's own main and context
for f in main hip_test_context hip_test_features; do
  [ -f "$WORK/obj/$f.o" ] || "$LL" hipcc -c "$C/hipTestMain/$f.cc" -o "$WORK/obj/$f.o" "${FLAGS[@]}" > "$WORK/log/$f.err" 2>&1 ||
    { echo "hip-tests.sh: the suite's $f.cc does not compile (WORK/log/$f.err)" >&2; exit 1; }
done
# the suite's shared kernels (catch/kernels: an object library every test program links)
KOBJ=()
for k in "$C"/kernels/*.cpp; do
  [ -f "$k" ] || continue
  o=$WORK/obj/kernels-$(basename "${k%.cpp}").o
  [ -f "$o" ] || "$LL" hipcc -c "$k" -o "$o" -x hip "${FLAGS[@]}" > "$WORK/log/kernels.err" 2>&1 ||
    { echo "hip-tests.sh: the suite's $(basename "$k") does not compile (WORK/log/kernels.err)" >&2; exit 1; }
  KOBJ+=("$o")
done
# AMD's own list of the cases it disables on this arch's Linux
DIS=$WORK/log/amd-disabled-$ARCH.txt
cpp -P -D$ARCH -D__DATE__=x -D__TIME__=y -DGITHASH=z "$C/hipTestMain/config/config_amd_linux" 2>/dev/null |
  grep -o '"[A-Za-z_][^"]*"' | tr -d '"' | sort -u > "$DIS"
T_SRC=0; T_FAIL=0; T_PASS=0; T_CFAIL=0; T_DIS=0
for D in "${DIRS[@]}"; do
  U=$C/unit/$D
  [ -d "$U" ] || { echo "$D: no such folder"; continue; }
  mkdir -p "$WORK/obj/$D"
  common=$(grep -o 'COMMON_SHARED_SRC [^)]*' "$U/CMakeLists.txt" 2>/dev/null | head -1 | grep -o '[A-Za-z0-9_./]*\.cc' | tr '\n' ' ')
  # the compile-fail kernels the folder's CMake lists apart (file(GLOB NEGATIVE_TEST_SRC ...)), whatever their name
  negsrc=$(sed -n '/NEGATIVE_TEST_SRC/,/)/p' "$U/CMakeLists.txt" 2>/dev/null | grep -o '[A-Za-z0-9_./]*\.cc' | tr '\n' ' ')
  files=()
  for f in "$U"/*.cc; do
    b=$(basename "$f")
    case $b in *negative*|*compiler_error*|*static_assert_kernels*|*_exe.cc|*Exe.cc) continue;; esac
    grep -q "int main" "$f" && continue
    case $b in *_old.cc) [ -f "$U/${b%_old.cc}.cc" ] && continue;; esac # the older form of a test beside it: one of the two
    case " $common " in *" $b "*) continue;; esac
    case " $negsrc " in *" $b "*) continue;; esac
    [ -z "$ONLY" ] || echo "$b" | grep -qE -- "$ONLY" || continue
    files+=("$b")
  done
  : > "$WORK/log/$D.cerr"
  objs=()
  for b in "${files[@]}" $common; do
    o=$WORK/obj/$D/${b%.cc}.o
    # a source's own options from its folder's CMake (set_source_files_properties(B PROPERTIES
    # COMPILE_OPTIONS "..."): printf's NonHost sources are built -mprintf-kind=buffered), after FLAGS
    # (not those of an NVIDIA-only block: --expt-relaxed-constexpr is nvcc's)
    own=$(sed '/if(HIP_PLATFORM MATCHES "nvidia")/,/endif()/d' "$U/CMakeLists.txt" 2>/dev/null |
          grep -o "set_source_files_properties($b PROPERTIES COMPILE_OPTIONS \"[^\"]*\"" |
          head -1 | sed 's/.*COMPILE_OPTIONS "//; s/"$//')
    if [ ! -f "$o" ] && ! "$LL" hipcc -c "$U/$b" -o "$o" "${FLAGS[@]}" $own -I "$U" > "$WORK/obj/$D/${b%.cc}.err" 2>&1; then
      rm -f "$o"
      case " $common " in *" $b "*) ;; *) echo "$b: $(grep -m1 error "$WORK/obj/$D/${b%.cc}.err")" >> "$WORK/log/$D.cerr";; esac
    fi
    [ -f "$o" ] && objs+=("$o")
  done
  nsrc=${#files[@]}; ncf=$(wc -l < "$WORK/log/$D.cerr")
  # the code objects its CMake builds with --genco, under the names the tests load them by
  mkdir -p "$WORK/run/$D"
  tr '\n' ' ' < "$U/CMakeLists.txt" | grep -o -- '--genco[^)]*' | while read -r cmd; do
    gsrc=$(echo "$cmd" | grep -o '\${CMAKE_CURRENT_SOURCE_DIR}/[A-Za-z0-9_.]*' | head -1 | sed 's|.*}/||')
    gout=$(echo "$cmd" | grep -o -- '-o  *[^ ]*' | head -1 | sed 's|.*/||')
    [ -n "$gsrc" ] && [ -n "$gout" ] && [ -f "$U/$gsrc" ] || continue
    [ -f "$WORK/run/$D/$gout" ] || "$LL" hipcc --genco "$U/$gsrc" -o "$WORK/run/$D/$gout" "${FLAGS[@]}" -I "$U" \
      > "$WORK/log/$D-$gout.err" 2>&1 || echo "$gout ($gsrc, --genco): $(grep -m1 error "$WORK/log/$D-$gout.err")" >> "$WORK/log/$D.cerr"
  done
  # the programs its CMake builds beside the tests (add_executable(NAME EXCLUDE_FROM_ALL SRC.cc)),
  # which cases run by name from their folder (hip_test_process.hh SpawnProc: printf's *_exe)
  tr '\n' ' ' < "$U/CMakeLists.txt" | grep -o 'add_executable([A-Za-z0-9_]* EXCLUDE_FROM_ALL [A-Za-z0-9_]*\.cc)' |
  while read -r cmd; do
    set -- $cmd
    xname=${1#add_executable(}; xsrc=${3%)}
    [ -f "$U/$xsrc" ] || continue
    [ -f "$WORK/run/$D/$xname" ] || "$LL" hipcc "$U/$xsrc" -o "$WORK/run/$D/$xname" "${FLAGS[@]}" -I "$U" \
      > "$WORK/log/$D-$xname.err" 2>&1 || echo "$xname ($xsrc): $(grep -m1 error "$WORK/log/$D-$xname.err")" >> "$WORK/log/$D.cerr"
  done
  : > "$WORK/log/$D.res"
  if [ ${#objs[@]} -gt 0 ] && "$LL" hipcc "${objs[@]}" "${KOBJ[@]}" "$WORK/obj/main.o" "$WORK/obj/hip_test_context.o" \
       "$WORK/obj/hip_test_features.o" -o "$WORK/bin/$D" -pthread > "$WORK/log/$D.link" 2>&1; then
    "$WORK/bin/$D" --list-test-names-only 2>/dev/null | grep -v -e '^$' -e 'test cases' | while IFS= read -r t; do
      if grep -qxF "$t" "$DIS"; then echo "DISABLED $t"; continue; fi
      out=$(cd "$WORK/run/$D" && LANELAB_ARCH=$ARCH timeout "$TMO" "$WORK/bin/$D" "$t" 2>&1); rc=$?
      if [ $rc -eq 0 ]; then echo "PASS $t"
      else echo "FAIL($rc) $t :: $(echo "$out" | grep -m1 -E 'lanelab: |FAILED|with expansion' | cut -c1-200)"; fi
    done > "$WORK/log/$D.res"
  elif [ ${#objs[@]} -gt 0 ]; then
    echo "$D: the link failed (WORK/log/$D.link)"
  fi
  np=$(grep -c '^PASS' "$WORK/log/$D.res"); nf=$(grep -c '^FAIL' "$WORK/log/$D.res"); nd=$(grep -c '^DISABLED' "$WORK/log/$D.res")
  printf '%-18s sources %3d compiled, %3d did not; cases %4d passed, %3d failed, %3d disabled by AMD on %s\n' \
    "$D" $((nsrc - ncf)) "$ncf" "$np" "$nf" "$nd" "$ARCH"
  T_SRC=$((T_SRC + nsrc)); T_CFAIL=$((T_CFAIL + ncf)); T_PASS=$((T_PASS + np)); T_FAIL=$((T_FAIL + nf)); T_DIS=$((T_DIS + nd))
done
printf '%-18s sources %3d compiled, %3d did not; cases %4d passed, %3d failed, %3d disabled by AMD on %s\n' \
  total $((T_SRC - T_CFAIL)) "$T_CFAIL" "$T_PASS" "$T_FAIL" "$T_DIS" "$ARCH"
