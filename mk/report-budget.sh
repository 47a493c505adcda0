#!/usr/bin/env bash
# Size budget of a verify report tree (issue #17: a full `verify --arch all` report under 8 MB).
# Usage: report-budget.sh REPORTS_DIR BUDGET_BYTES
# Sums the regular files under REPORTS_DIR; exit 1 naming the five biggest if the sum exceeds
# the budget, 2 on bad usage. mk/run-tests.sh runs it on the quick verify it has just made:
# measured 7,637,472 bytes in 386 files on 2026-12-01 (full shapes: 7,678,443), budget 7,900,000.
set -u
dir=${1:-}; budget=${2:-}
if [ -z "$dir" ] || [ ! -d "$dir" ] || ! [[ "$budget" =~ ^[0-9]+$ ]]; then
  echo "usage: report-budget.sh REPORTS_DIR BUDGET_BYTES (got '$dir' '$budget')" >&2
  exit 2
fi
bytes=$(find "$dir" -type f -printf '%s\n' | awk '{s += $1} END {print s + 0}')
files=$(find "$dir" -type f | wc -l)
echo "report tree $dir: $bytes bytes in $files files (budget $budget)"
if [ "$bytes" -gt "$budget" ]; then
  echo "report tree over budget by $((bytes - budget)) bytes; biggest files:"
  find "$dir" -type f -printf '%s %p\n' | sort -rn | head -n 5
  exit 1
fi
