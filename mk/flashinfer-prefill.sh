#!/usr/bin/env bash
# mk/flashinfer-prefill.sh — runs ROCm/flashinfer's own single-request prefill kernel (from the
# checkout named on the command line) on lanelab's emulated gfx942 and gfx950 through lanelab's
# HIP runtime, and compares O and LSE with lanelab's oracle (issue 27, item 4). Local only: CI has
# no FlashInfer checkout. The driver (mk/flashinfer-prefill.hip) is lanelab's own code; FlashInfer's
# headers are read from the checkout and nothing of it is kept (the build and the data live in a
# temporary folder that is removed).
#
#   mk/flashinfer-prefill.sh FLASHINFER_DIR [--arch gfx942|gfx950]... [--qo N] [--kv N]
#
# For f16 and bf16, head_dim 64 and 128, causal and not (4 query heads over 2 KV heads, qo_len and
# kv_len different so the causal mask's bottom-right alignment shows), it writes a seeded oracle
# spec, runs `lanelab oracle attention`, and runs the driver under `lanelab exec --arch A`, which
# prints each shape's max errors. Exit 0 when every shape on every arch is within FlashInfer's
# tolerance, 1 when one is not, 2 on bad usage, 3 when something is missing.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
lanelab=${LANELAB:-$here/build/lanelab}
fi_dir="" arches=() qo=80 kv=144
while [ $# -gt 0 ]; do
  case $1 in
    --arch) case ${2:-} in gfx942|gfx950) arches+=("$2");; *) echo "flashinfer-prefill: unknown arch '${2:-}'" >&2; exit 2;; esac; shift 2;;
    --qo|--kv) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || { echo "flashinfer-prefill: $1 takes a positive integer" >&2; exit 2; }
      [ "$1" = --qo ] && qo=$2 || kv=$2; shift 2;;
    -*) echo "flashinfer-prefill: unknown option '$1'" >&2; exit 2;;
    *) [ -z "$fi_dir" ] || { echo "flashinfer-prefill: one FlashInfer folder, got '$fi_dir' and '$1'" >&2; exit 2; }; fi_dir=$1; shift;;
  esac
done
[ -n "$fi_dir" ] || { echo "usage: mk/flashinfer-prefill.sh FLASHINFER_DIR [--arch A]... [--qo N] [--kv N]" >&2; exit 2; }
[ -f "$fi_dir/include/flashinfer/attention/generic/prefill.cuh" ] || { echo "flashinfer-prefill: $fi_dir has no include/flashinfer/attention/generic/prefill.cuh" >&2; exit 2; }
[ ${#arches[@]} -gt 0 ] || arches=(gfx942 gfx950)
[ -x "$lanelab" ] || { echo "flashinfer-prefill: no $lanelab (run make)" >&2; exit 3; }
tmp=$(mktemp -d /tmp/lanelab-flashinfer-XXXXXX) || exit 3
trap 'rm -rf "$tmp"' EXIT
echo "building the driver against $fi_dir ..." >&2
"$lanelab" hipcc -O3 -std=c++17 -I "$fi_dir/include" "$here/mk/flashinfer-prefill.hip" -o "$tmp/driver" || { echo "flashinfer-prefill: the driver did not build" >&2; exit 3; }
status=0
for dtype in f16 bf16; do
  for dim in 64 128; do
    for mask in none causal; do
      d=$tmp/$dtype-$dim-$mask
      mkdir -p "$d"
      causal=$([ $mask = causal ] && echo true || echo false)
      cat > "$d/spec.json" <<SPEC
{"kind": "single", "dtype": "$dtype", "num_qo_heads": 4, "num_kv_heads": 2, "head_dim": $dim,
 "qo_indptr": [0, $qo], "kv_indptr": [0, $kv], "causal": $causal, "seed": $((dim + qo + kv)),
 "comment": "flashinfer-prefill.sh"}
SPEC
      "$lanelab" -q oracle attention --spec "$d/spec.json" --out "$d" >&2 || { echo "flashinfer-prefill: the oracle failed for $d" >&2; exit 3; }
      for a in "${arches[@]}"; do
        out=$("$lanelab" -q exec --arch "$a" -- "$tmp/driver" "$d" "$dtype" "$dim" "$mask" "$qo" "$kv" 4 2 2>&1)
        rc=$?
        echo "$a: $out"
        [ $rc = 0 ] || status=1
      done
    done
  done
done
exit $status
