#!/usr/bin/env bash
# Builds one HIP kernel source for one arch: OUTDIR/NAME.co plus its disassembly OUTDIR/NAME.s.
# A source may restrict its arches with a line `// lanelab-arch: gfx950 [gfx942]` and give the
# reason with `// lanelab-why: ...`; for any other arch it writes OUTDIR/NAME.skip holding the
# reason, and says so. Extra compiler flags (for example -DLANELAB_MUTANT=x) come from $EXTRA.
# Either way it writes OUTDIR/NAME.src, the absolute path of the source: a code object whose
# NAME.src names a file that no longer exists is stale, and the census and budgets ignore it
# (isa_co_is_stale); mk/prune-stale.sh removes such outputs.
# usage: mk/kernel.sh ARCH SRC OUTDIR DEVCC DEVFLAGS...
set -u
arch=$1; src=$2; outdir=$3; cc=$4; shift 4
name=$(basename "$src" .hip)
mkdir -p "$outdir"
printf '%s\n' "$(cd "$(dirname "$src")" && pwd)/$(basename "$src")" > "$outdir/.$name.src.tmp" && mv "$outdir/.$name.src.tmp" "$outdir/$name.src"
arches=$(sed -n 's@^// lanelab-arch:[[:space:]]*@@p' "$src" | head -n 1)
if [ -n "$arches" ] && ! printf ' %s ' $arches | grep -q " $arch "; then
  why=$(sed -n 's@^// lanelab-why:[[:space:]]*@@p' "$src" | head -n 1)
  echo "skip $name for $arch: built only for $arches${why:+ ($why)}" | tee "$outdir/$name.skip" >&2
  rm -f "$outdir/$name.co" "$outdir/$name.s"
  exit 0
fi
rm -f "$outdir/$name.skip"
tmp="$outdir/.$name.co.tmp"
"$cc" "$@" -O3 -std=c++17 -Ikernels/include ${EXTRA:-} -o "$tmp" "$src" || { rm -f "$tmp"; exit 1; }
/usr/lib/llvm-22/bin/llvm-objdump -d --no-show-raw-insn --mcpu="$arch" "$tmp" > "$outdir/.$name.s.tmp" \
  || { rm -f "$tmp" "$outdir/.$name.s.tmp"; exit 1; }
mv "$outdir/.$name.s.tmp" "$outdir/$name.s"
mv "$tmp" "$outdir/$name.co"
