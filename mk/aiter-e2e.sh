#!/usr/bin/env bash
# End-to-end runs of AMD's aiter kernels on lanelab's emulator against references written in
# mk/aiter-e2e.c (issue 28): launches rebuilt from aiter's host code, outputs compared with the
# references, one line per run with its max error. Nothing of aiter is copied: the code objects
# are run where they are.
# usage: mk/aiter-e2e.sh AITER_DIR [CASE...]   CASE: topksoftmax | gemm | pa | bwd | all (default: all)
# environment: LANELAB (default build/lanelab of this repository), WORK (scratch directory,
#   default build/aiter-e2e).
# exit: 0 every run matched, 1 a run failed or mismatched, 2 bad usage, 3 a tool or object missing.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
aiter=${1:-}
if [ -z "$aiter" ] || [ ! -d "$aiter/hsa" ]; then
  echo "usage: mk/aiter-e2e.sh AITER_DIR [CASE...]: AITER_DIR must hold aiter's hsa/ (got '$aiter')" >&2
  exit 2
fi
shift
[ $# -gt 0 ] || set -- all
lanelab=${LANELAB:-$root/build/lanelab}
work=${WORK:-$root/build/aiter-e2e}
if [ ! -x "$lanelab" ]; then echo "aiter-e2e: $lanelab not found: run make" >&2; exit 3; fi
command -v gcc >/dev/null || { echo "aiter-e2e: gcc not found" >&2; exit 3; }
mkdir -p "$work" || exit 2
bin=$work/aiter-e2e
if [ ! -x "$bin" ] || [ "$root/mk/aiter-e2e.c" -nt "$bin" ]; then
  gcc -O2 -std=gnu11 -Wall -Wextra -o "$bin" "$root/mk/aiter-e2e.c" -lm || exit 3
fi
exec "$bin" "$lanelab" "$aiter" "$work" "$@"
