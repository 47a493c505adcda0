#!/usr/bin/env bash
# lanelab dependency step: checks for every tool the build, tests and reports need and installs
# what is missing (as root, from Debian's packages). Without root it prints the exact command and
# exits 3 (the environment lacks something). Writes the stamp file given as $1 on success.
set -u
stamp=${1:-build/.deps-ok}
LLVM=/usr/lib/llvm-22
missing=()
need() { # need PACKAGE TEST...
  local pkg=$1; shift
  if ! "$@" >/dev/null 2>&1; then missing+=("$pkg"); fi
}
need gcc            command -v gcc
need make           command -v make
need libcriterion-dev test -f /usr/include/criterion/criterion.h
need gnuplot-nox    command -v gnuplot
# pkg-config: the example project (examples/ci-project) finds the installed lanelab with it.
need pkgconf        command -v pkg-config
need clang-22       test -x $LLVM/bin/clang
need lld-22         test -x $LLVM/bin/ld.lld
need llvm-22        test -x $LLVM/bin/llvm-mc -a -x $LLVM/bin/llvm-objdump
need llvm-22-dev    test -f $LLVM/include/llvm-c/Disassembler.h
# libFuzzer and sanitizer runtimes for `make fuzz`.
need libclang-rt-22-dev test -f $LLVM/lib/clang/22/lib/linux/libclang_rt.fuzzer-x86_64.a
# Headless Chromium renders the HTML reports in the browser test (tests/test_reports.c).
need chromium       command -v chromium
# rocPRIM's block and warp primitives run through lanelab's HIP headers in the tests
# (tests/test_hip.c). The package also installs Debian's HIP 5.2 headers in /usr/include/hip,
# which lanelab's own hip/include shadows name for name (docs/hip-subset.md, "Header names").
need librocprim-dev test -f /usr/include/rocprim/rocprim.hpp
# ROCm's device math library (ocml, ROCm 5.2.3): the device math functions lanelab's HIP headers do not
# compute themselves (acos, atan2, fmod, double sin, ...; isa/cc.c, docs/hip-subset.md).
need rocm-device-libs test -f /usr/lib/x86_64-linux-gnu/amdgcn/bitcode/ocml.bc
# Optional extras requested by the environment (LANELAB_EXTRA_PKGS="chromium ...").
for p in ${LANELAB_EXTRA_PKGS:-}; do need "$p" dpkg -s "$p"; done
if [ ${#missing[@]} -eq 0 ]; then
  mkdir -p "$(dirname "$stamp")" && touch "$stamp"; exit 0
fi
cmd="apt-get update && apt-get install -y ${missing[*]}"
if [ "$(id -u)" = 0 ]; then
  echo "lanelab deps: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  if apt-get update >&2 && apt-get install -y "${missing[@]}" >&2; then
    mkdir -p "$(dirname "$stamp")" && touch "$stamp"; exit 0
  fi
  echo "lanelab deps: installing failed; run as root: $cmd" >&2
  exit 3
fi
echo "lanelab deps: missing ${missing[*]}; run as root: $cmd" >&2
exit 3
