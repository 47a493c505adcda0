#!/usr/bin/env bash
# Runs every Criterion suite (one binary per module) and then a quick verify of both arches.
# Each suite also writes TAP and JUnit XML under BUILD/test-results/. Exit 0 only if all pass.
set -u
build=$1; shift
res=$build/test-results
# Sanitizer builds: leaks inside third-party libraries are suppressed, ours are not.
export LSAN_OPTIONS="suppressions=$(cd "$(dirname "$0")" && pwd)/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# Hermetic: the HIP runtime every test sees is the suite's stub with no GPU (Makefile HIPSTUBS),
# whether or not this host has libamdhip64 or a GPU; tests that want another one say so.
export LANELAB_HIP_LIB="$(cd "$build" && pwd)/stubs/nodev/libamdhip64.so"
[ -f "$LANELAB_HIP_LIB" ] || { echo "missing $LANELAB_HIP_LIB: run make check-tests"; exit 3; }
mkdir -p "$res"
# Suites run two at a time (LANELAB_TEST_JOBS, default 2), each with Criterion's -j2: a suite's
# longest test no longer leaves a core idle. Each suite's output is kept and printed whole, in
# order, once all have run. Suites share nothing but the read-only build (each test makes its own
# scratch directories).
jobs_max=${LANELAB_TEST_JOBS:-2}
case $jobs_max in ''|*[!0-9]*|0) echo "LANELAB_TEST_JOBS='$jobs_max': expected a positive integer"; exit 2;; esac
run_suite() {
  local t=$1 name start=$SECONDS
  name=$(basename "$t")
  "$t" -j2 --tap="$res/$name.tap" --xml="$res/$name.xml" >"$res/$name.log" 2>&1
  echo $? >"$res/$name.rc"
  echo $((SECONDS - start)) >"$res/$name.secs"
}
running=0
suites_start=$SECONDS
for t in "$@"; do
  name=$(basename "$t")
  rm -f "$res/$name.rc" "$res/$name.log" "$res/$name.tap" "$res/$name.xml" "$res/$name.secs"
  run_suite "$t" &
  running=$((running + 1))
  if [ $running -ge "$jobs_max" ]; then wait -n; running=$((running - 1)); fi
done
wait
pass=0; fail=0; failed=()
for t in "$@"; do
  name=$(basename "$t")
  echo "== $name ($(cat "$res/$name.secs" 2>/dev/null || echo '?') s wall, $jobs_max suites at a time)"
  cat "$res/$name.log" 2>/dev/null
  rc=$(cat "$res/$name.rc" 2>/dev/null)
  case $rc in ''|*[!0-9]*) rc=99; echo "$name: no exit status (the suite did not finish)";; esac
  # A suite that ran nothing is a failure, not a pass (Criterion prints its usage and exits 0 on
  # an unknown flag, which once made every suite here "pass" without running a test).
  ran=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$res/$name.tap" 2>/dev/null | head -n 1)
  if [ "$rc" -eq 0 ] && [ "${ran:-0}" -eq 0 ]; then rc=1; echo "$name: ran no test (no TAP plan in $res/$name.tap)"; fi
  if [ "$rc" -eq 0 ]; then pass=$((pass+1)); else fail=$((fail+1)); failed+=("$name (exit $rc)"); fi
done
echo "== check-refs (nothing refers to files outside the repository)"
bash "$(dirname "$0")/check-refs.sh"
rc=$?
if [ $rc -eq 0 ]; then pass=$((pass+1)); else fail=$((fail+1)); failed+=("check-refs (exit $rc)"); fi
echo "== verify --arch all --shapes quick (the suites took $((SECONDS - suites_start)) s)"
verify_start=$SECONDS
"$build/lanelab" verify --arch all --shapes quick --build "$build"
rc=$?
echo "verify took $((SECONDS - verify_start)) s"
if [ $rc -eq 0 ]; then pass=$((pass+1)); else fail=$((fail+1)); failed+=("verify (exit $rc)"); fi
# The report that passing verify wrote stays within its size budget (mk/report-budget.sh; issue #17).
if [ $rc -eq 0 ]; then
  echo "== report size budget"
  bash "$(dirname "$0")/report-budget.sh" "$build/reports" 7900000
  rc=$?
  if [ $rc -eq 0 ]; then pass=$((pass+1)); else fail=$((fail+1)); failed+=("report size budget (exit $rc)"); fi
fi
# CI shows only the tail of this output: name each failing test and its first assertion here,
# at the end, so a failure elsewhere can be understood from the tail alone.
if [ ${#failed[@]} -gt 0 ]; then
  for f in "${failed[@]}"; do
    name=${f%% *}
    [ -f "$res/$name.tap" ] || continue
    awk -v s="$name" '/^not ok/ { n++; if (n <= 3) { sub(/^not ok - /, ""); print s ": FAILED " $0; want = 2 } next }
         want > 0 && /Assertion|^ *- .*:[0-9]+:/ { gsub(/^ +/, ""); print s ":   " substr($0, 1, 300); want-- }
         END { if (n > 3) print s ": ... and " n - 3 " more failing tests (see " s ".tap)" }' "$res/$name.tap"
  done
  printf 'failed: %s\n' "${failed[@]}"
fi
echo "suites: $pass passed, $fail failed"
[ $fail -eq 0 ]
