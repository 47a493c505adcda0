#!/usr/bin/env bash
# Removes build outputs whose source is gone, so that build/ only holds what the current sources
# produce: BUILD/<arch>/kernels/NAME.{co,s,skip,src,built} when no kernels/{micro,prod,bench}/NAME.hip
# exists, and BUILD/<arch>/mutants/NAME/ when kernels/mutants.txt no longer lists NAME (or the
# outputs in it of a source the mutant no longer uses). Says what it removes. Run from the
# repository root by `make kernels` / `make mutants`.
# usage: mk/prune-stale.sh BUILD
set -u
build=$1
shopt -s nullglob
for kd in "$build"/gfx*/kernels; do
  for f in "$kd"/*.co "$kd"/*.s "$kd"/*.skip "$kd"/*.src "$kd"/*.built; do
    b=$(basename "$f"); name=${b%.*}
    [ -f "kernels/micro/$name.hip" ] || [ -f "kernels/prod/$name.hip" ] || [ -f "kernels/bench/$name.hip" ] && continue
    echo "removing $f: its source kernels/*/$name.hip is gone"
    rm -f "$f"
  done
done
for md in "$build"/gfx*/mutants; do
  for m in "$md"/*/; do
    m=${m%/}; name=$(basename "$m")
    # A mutant may be built from several sources (one line per source in kernels/mutants.txt).
    srcs=$(awk -v n="$name" '!/^#/ && NF >= 2 && $1 == n {print $2}' kernels/mutants.txt 2>/dev/null)
    if [ -z "$srcs" ]; then
      echo "removing $m/: mutant $name is no longer in kernels/mutants.txt"
      rm -rf "$m"
      continue
    fi
    for f in "$m"/*; do
      b=$(basename "$f"); keepit=0
      for src in $srcs; do [ "${b%.*}" = "$(basename "$src" .hip)" ] && keepit=1; done
      [ $keepit = 1 ] && continue
      echo "removing $f: mutant $name is built from" $srcs
      rm -rf "$f"
    done
  done
done
exit 0
