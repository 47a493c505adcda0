#!/usr/bin/env bash
# Scores the human-style mutants of kernels/mutants.txt (lines tagged `human`, issue 30): each is
# the real source built with -DLANELAB_MUTANT_<NAME>=1 (all head_dims) into OUT/<name>/<arch>/
# kernels/ beside the correct build's other code objects, then the prod stage runs on it with the
# quick matrix and with the make-test random sample (verify/prod.h PROD_TEST_SAMPLE_N/SEED). A
# mutant is caught when the stage fails (oracle mismatch, fault, racecheck/initcheck finding or
# phase census). Prints one line per mutant and arch and the scores: quick alone, quick + sample.
# usage: mk/score-human-mutants.sh BUILD OUT [ARCH...]   (run from the repository root; BUILD
# must hold a full build: make kernels and the libraries)
set -u
if [ $# -lt 2 ]; then echo "usage: mk/score-human-mutants.sh BUILD OUT [ARCH...]" >&2; exit 2; fi
[ -d kernels/prod ] || { echo "run from the repository root (no kernels/prod here)" >&2; exit 2; }
build=$1; out=$2; shift 2
arches=${*:-gfx942 gfx950}
n=$(sed -n 's/^#define PROD_TEST_SAMPLE_N \([0-9]*\).*/\1/p' verify/prod.h)
seed=$(sed -n 's/^#define PROD_TEST_SAMPLE_SEED \([0-9]*\).*/\1/p' verify/prod.h)
[ -n "$n" ] && [ -n "$seed" ] || { echo "verify/prod.h: no PROD_TEST_SAMPLE_N/SEED" >&2; exit 2; }
mkdir -p "$out" || exit 2
libs=""
for m in api verify hip reports isa runtime emu oracle lanes util; do libs="$libs $build/lib/lib$m.a"; done
gcc -O2 -std=gnu11 -I. -o "$out/score-human-mutants" mk/score-human-mutants.c $libs \
  -L/usr/lib/llvm-22/lib -Wl,-rpath,/usr/lib/llvm-22/lib -lLLVM -lstdc++ -lm -lpthread -ldl || exit 3
total=0; quick=0; both=0
for arch in $arches; do
  tc="$build/toolchain-$arch.mk"
  [ -f "$tc" ] || { echo "$tc missing: run make" >&2; exit 3; }
  cc=$(sed -n "s/^DEVCC_$arch := //p" "$tc"); flags=$(sed -n "s/^DEVFLAGS_$arch := //p" "$tc")
  while read -r name src tag _; do
    [ "$tag" = human ] || continue
    dir="$out/$name/$arch/kernels"
    rm -rf "$out/$name/$arch"; mkdir -p "$dir"
    for co in "$build/$arch/kernels/"*.co; do ln -s "$(cd "$(dirname "$co")" && pwd)/$(basename "$co")" "$dir/"; done
    up=$(echo "$name" | tr a-z A-Z)
    # shellcheck disable=SC2086
    if ! EXTRA="-DLANELAB_MUTANT=$name -DLANELAB_MUTANT_$up=1" bash mk/kernel.sh "$arch" "$src" "$dir" "$cc" $flags \
         > "$out/$name/$arch/build.log" 2>&1; then
      echo "$arch $name: does not compile (stillborn, not scored; $out/$name/$arch/build.log)"; continue
    fi
    stem=$(basename "$src" .hip)
    if cmp -s "$dir/$stem.co" "$build/$arch/kernels/$stem.co"; then echo "$arch $name: identical code object (not scored)"; continue; fi
    total=$((total + 1))
    q=$("$out/score-human-mutants" "$out/$name" "$arch" quick 0); qrc=$?
    if [ $qrc -eq 1 ]; then quick=$((quick + 1)); both=$((both + 1)); echo "$arch $name: caught by quick ($q)"; continue; fi
    r=$("$out/score-human-mutants" "$out/$name" "$arch" "random:$n" "$seed"); rrc=$?
    if [ $rrc -eq 1 ]; then both=$((both + 1)); echo "$arch $name: escaped quick, caught by the sample ($r)"
    else echo "$arch $name: ESCAPED (quick: $q; sample: $r)"; fi
  done < kernels/mutants.txt
done
echo "human-style mutants: $total scored; quick alone caught $quick/$total; quick + random:$n --seed $seed caught $both/$total"
[ "$both" -eq "$total" ]
