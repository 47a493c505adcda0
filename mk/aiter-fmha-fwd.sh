#!/usr/bin/env bash
# AMD's own fmha v3 forward kernels (ROCm/aiter, head_dim 128, bf16, plain and causal) run end to
# end on lanelab's emulator against lanelab's oracle, under the default and the strict memory model
# (issue 25: a memory-model rule is not done until it has run on AMD's own code objects).
#
# aiter is a test subject, never part of lanelab: this script takes the location of a checkout,
# runs the code objects aiter ships (hsa/gfx942/fmha_v3_fwd/MI300/fwd_hd128_bf16_rtne.co and
# fwd_hd128_bf16_causal_rtne.co, hsa/gfx950/fmha_v3_fwd/fwd_hd128_bf16.co and
# fwd_hd128_bf16_causal.co) and copies or builds nothing of it. Outputs go to a scratch directory.
#
# Usage: mk/aiter-fmha-fwd.sh AITER_DIR [--arch gfx942|gfx950|all] [--seq N] [--heads H]
#                             [--out DIR] [--lanelab BIN] [--keep]
#   --seq N     seqlen_q = seqlen_k, a multiple of 256 (default 512: two query tiles, so the causal
#               kernels' pairing of a head tile with a tail tile in one workgroup runs)
#   --heads H   query heads = key/value heads, batch 1 (default 2)
#   --out DIR   scratch directory (default: a fresh one under ${TMPDIR:-/tmp}, removed unless --keep)
# Prints, per kernel, arch and memory model: the shape, the warnings, and the max abs error of O
# (bf16, against the oracle's f32 O) and of LSE (against the oracle's LSE converted to aiter's
# convention). Exit 0 when every run completes with no warning, no fault and O and LSE within
# bf16 tolerance (atol 1e-2, rtol 1e-2, docs/oracle.md); 1 if any does not; 2 bad usage; 3 a tool
# or a code object is missing.
#
# The launch, as aiter's host code makes it (csrc/include/mha_fwd.h struct fmha_fwd_v3_args: every
# field in its own 16-byte slot, pointers 8 bytes + 8 padding, 32-bit values 4 + 12, the first 512
# bytes being the kernel's kernarg segment as its metadata states; csrc/cpp_itfs/mha_fwd.cu
# init_fmha_fwd_v3_args, get_grid_dim, and block 512 for head_dim 128; ts_qo 256 from
# hsa/*/fmha_v3_fwd/fmha_fwd.csv):
#   slot 0 O, 1 Q, 2 K, 3 V, 4 LSE (pointers); 5 scale (float, 1/sqrt(128)); 6 seqlen_q;
#   7 Q row stride in bytes; 8 ts_qo * Q row stride; 9 Q head stride; 10 Q batch stride; 11 GQA
#   group; 12-14 K row/head/batch strides; 15 tune option (5; 3 for a causal mask when the head
#   count is not a multiple of 8); 16 has_lse (1); 17 seqlen_k; 18-19 head dims (128); 20 query
#   heads; 21-23 V strides; 24-26 O strides (bf16); 27-28 seq pointers (0, batch mode); 29 LSE head
#   stride in bytes; 30-31 padded seq pointers (0).
#   grid: (ceil(seq / 256), heads, 1) plain, ((ceil(seq / 256) + 1) / 2, heads, 1) causal.
# Layouts: Q, K, V and O are [seq, heads, 128] bf16 (BSHD with batch 1), the oracle's NHD. aiter's
# LSE is the natural log, [batch, heads, seq] float32 (csrc/py_itfs_cu/asm_mha_fwd.cu: "lse:
# (batch_size, nheads, seqlen_q)"); the oracle's is base 2, [seq, heads]: compared as
# ln(2) * oracle LSE, transposed.
set -u
usage() { echo "usage: mk/aiter-fmha-fwd.sh AITER_DIR [--arch gfx942|gfx950|all] [--seq N] [--heads H] [--out DIR] [--lanelab BIN] [--keep]" >&2; exit 2; }
[ $# -ge 1 ] || usage
aiter=$1; shift
arch=all; seq=512; heads=2; out=; keep=0
lanelab=$(cd "$(dirname "$0")/.." && pwd)/build/lanelab
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) arch=${2:-}; shift 2 ;;
    --seq) seq=${2:-}; shift 2 ;;
    --heads) heads=${2:-}; shift 2 ;;
    --out) out=${2:-}; shift 2 ;;
    --lanelab) lanelab=${2:-}; shift 2 ;;
    --keep) keep=1; shift ;;
    *) echo "aiter-fmha-fwd: unknown argument '$1'" >&2; usage ;;
  esac
done
case "$arch" in gfx942|gfx950) archs=$arch ;; all) archs="gfx942 gfx950" ;; *) echo "aiter-fmha-fwd: --arch '$arch': gfx942, gfx950 or all" >&2; exit 2 ;; esac
if ! [[ "$seq" =~ ^[0-9]+$ ]] || [ "$seq" -lt 256 ] || [ $((seq % 256)) -ne 0 ] || [ "$seq" -gt 16384 ]; then
  echo "aiter-fmha-fwd: --seq '$seq': a multiple of 256 in 256..16384" >&2; exit 2
fi
if ! [[ "$heads" =~ ^[0-9]+$ ]] || [ "$heads" -lt 1 ] || [ "$heads" -gt 64 ]; then
  echo "aiter-fmha-fwd: --heads '$heads': 1..64" >&2; exit 2
fi
[ -d "$aiter/hsa" ] || { echo "aiter-fmha-fwd: '$aiter' is not an aiter checkout (no hsa/ folder)" >&2; exit 2; }
[ -x "$lanelab" ] || { echo "aiter-fmha-fwd: no lanelab binary at $lanelab (make, or --lanelab BIN)" >&2; exit 3; }
for t in od awk; do command -v $t >/dev/null || { echo "aiter-fmha-fwd: '$t' not found" >&2; exit 3; }; done
if [ -z "$out" ]; then
  out=$(mktemp -d "${TMPDIR:-/tmp}/aiter-fmha-fwd.XXXXXX") || exit 3
  [ $keep -eq 1 ] || trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out" || exit 3

D=128 TS=256
rowb=$((heads * D * 2))      # bytes per token row of Q, K, V, O
# ---- inputs and the reference: lanelab's oracle (bf16 q, k, v from a seed; O in f32; LSE base 2)
for causal in false true; do
  d=$out/ref_$causal
  mkdir -p "$d"
  cat > "$d/spec.json" <<EOF
{"kind": "single", "dtype": "bf16", "num_qo_heads": $heads, "num_kv_heads": $heads, "head_dim": $D,
 "qo_indptr": [0, $seq], "kv_indptr": [0, $seq], "causal": $causal, "seed": 2025, "path": "fast",
 "comment": "aiter fmha v3 fwd harness (mk/aiter-fmha-fwd.sh)"}
EOF
  "$lanelab" -q oracle attention --spec "$d/spec.json" --out "$d" >/dev/null || { echo "aiter-fmha-fwd: the oracle failed" >&2; exit 1; }
done

# ---- the kernarg blob: 512 bytes, 32-bit values at their slots (pointers: --buf at run time)
kernarg() { # FILE CAUSAL
  local opt=5
  [ "$2" = true ] && [ $((heads % 8)) -ne 0 ] && opt=3
  local -a v=()
  v[5]=0x3db504f3                                   # 1/sqrt(128) as float bits (0.0883883476)
  v[6]=$seq; v[7]=$rowb; v[8]=$((TS * rowb)); v[9]=$((D * 2)); v[10]=$((seq * rowb)); v[11]=1
  v[12]=$rowb; v[13]=$((D * 2)); v[14]=$((seq * rowb)); v[15]=$opt; v[16]=1; v[17]=$seq
  v[18]=$D; v[19]=$D; v[20]=$heads
  v[21]=$rowb; v[22]=$((D * 2)); v[23]=$((seq * rowb)); v[24]=$rowb; v[25]=$((D * 2)); v[26]=$((seq * rowb))
  v[29]=$((seq * 4))
  local s esc i x
  : > "$1"
  for ((s = 0; s < 32; s++)); do
    x=$(( ${v[$s]:-0} ))
    esc=
    for i in 0 1 2 3; do esc+=$(printf '\\%03o' $(( (x >> (8 * i)) & 255 ))); done
    printf "$esc" >> "$1"
    head -c 12 /dev/zero >> "$1"
  done
}

# bf16 [N] (u16 bits) and f32 [N] -> max |a - b|; LSE: aiter [H][S] natural log vs oracle [S][H] log2
maxerr_o() { # GOT_BF16 REF_F32
  paste <(od -An -v -tu2 -w2 "$1") <(od -An -v -tf4 -w4 "$2") | awk '
    function bf(u,  s, e, m) { s = u >= 32768 ? -1 : 1; e = int(u / 128) % 256; m = u % 128
      if (e == 255) return (m ? "nan" : s * -log(0))
      return e == 0 ? s * m * 2^-133 : s * (1 + m / 128) * 2^(e - 127) }
    { g = bf($1); d = g - $2; if (d < 0) d = -d; if (d > mx) mx = d
      tol = 1e-2 + 1e-2 * ($2 < 0 ? -$2 : $2); if (!(d <= tol)) bad++ }
    END { printf "%.3g %d\n", mx, bad }'
}
maxerr_lse() { # GOT_F32 [H][S] natural, REF_F32 [S][H] base 2
  awk -v H="$heads" -v S="$seq" '
    NR == FNR { for (i = 1; i <= NF; i++) ref[n++] = $i; next }
    { for (i = 1; i <= NF; i++) { h = int(m / S); s = m % S; m++
        r = ref[s * H + h] * log(2); d = $i - r; if (d < 0) d = -d; if (d > mx) mx = d
        tol = 1e-2 + 1e-2 * (r < 0 ? -r : r); if (!(d <= tol)) bad++ } }
    END { printf "%.3g %d\n", mx, bad }' <(od -An -v -tf4 "$2") <(od -An -v -tf4 "$1")
}

fail=0
printf '%-7s %-46s %-7s %-22s %-9s %-9s %-9s %s\n' arch kernel model shape warnings "O maxabs" "LSE maxabs" verdict
for a in $archs; do
  if [ $a = gfx942 ]; then
    kernels="MI300/fwd_hd128_bf16_rtne.co:_ZN5aiter24fmha_fwd_hd128_bf16_rtneE:false
             MI300/fwd_hd128_bf16_causal_rtne.co:_ZN5aiter31fmha_fwd_hd128_bf16_causal_rtneE:true"
  else
    kernels="fwd_hd128_bf16.co:_ZN5aiter19fmha_fwd_hd128_bf16E:false
             fwd_hd128_bf16_causal.co:_ZN5aiter26fmha_fwd_hd128_bf16_causalE:true"
  fi
  for k in $kernels; do
    co=$aiter/hsa/$a/fmha_v3_fwd/${k%%:*}; rest=${k#*:}; sym=${rest%%:*}; causal=${rest#*:}
    [ -f "$co" ] || { echo "aiter-fmha-fwd: $co not found" >&2; exit 3; }
    ref=$out/ref_$causal
    ntiles=$(( (seq + TS - 1) / TS )); gx=$ntiles
    [ "$causal" = true ] && gx=$(( (ntiles + 1) / 2 ))
    ka=$out/kernarg_$causal.bin
    kernarg "$ka" "$causal"
    for model in default strict; do
      tag=${a}_${causal}_$model
      flags=; [ $model = strict ] && flags=--strict-memory
      rm -f "$out/o_$tag.bin" "$out/lse_$tag.bin"
      "$lanelab" run "$co" "$sym" --backend emu --grid "$gx,$heads,1" --block 512 --kernarg "$ka" \
        --buf "O@0:out:$((seq * rowb)):$out/o_$tag.bin" --buf "Q@16:in:$ref/q.bin" \
        --buf "K@32:in:$ref/k.bin" --buf "V@48:in:$ref/v.bin" \
        --buf "LSE@64:out:$((heads * seq * 4)):$out/lse_$tag.bin" $flags > "$out/run_$tag.log" 2>&1
      rc=$?
      nwarn=$(grep -c '^lanelab: warning: ' "$out/run_$tag.log")
      oerr=- lerr=- verdict=ok
      if [ $rc -ne 0 ]; then
        verdict="FAIL (exit $rc: $(grep -m1 -E '^lanelab: [^:]+: gfx9[0-9]+ kernel ' "$out/run_$tag.log" | sed 's/^lanelab: \([^:]*\):.*/\1/'))"
      else
        read -r oerr obad < <(maxerr_o "$out/o_$tag.bin" "$ref/o.bin")
        read -r lerr lbad < <(maxerr_lse "$out/lse_$tag.bin" "$ref/lse.bin")
        if [ "$obad" -ne 0 ] || [ "$lbad" -ne 0 ]; then verdict="FAIL ($obad O, $lbad LSE over tolerance)"
        elif [ "$nwarn" -ne 0 ]; then verdict="FAIL ($nwarn warning PCs; O and LSE within tolerance)"; fi
      fi
      [ "$verdict" = ok ] || fail=1
      printf '%-7s %-46s %-7s %-22s %-9s %-9s %-9s %s\n' $a "$sym" $model "b1 h$heads s$seq d128" "$nwarn" "$oerr" "$lerr" "$verdict"
      [ "$verdict" = ok ] || grep -E '^lanelab: ' "$out/run_$tag.log" | grep -v 'backend emu' | head -n 5 | sed 's/^/    /'
    done
  done
done
[ $keep -eq 1 ] && echo "outputs kept in $out"
exit $fail
