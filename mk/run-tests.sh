#!/usr/bin/env bash
# Runs every Criterion suite (one binary per module) and then a quick verify of both arches.
# Each suite also writes TAP and JUnit XML under BUILD/test-results/. Exit 0 only if all pass.
set -u
build=$1; shift
res=$build/test-results
mkdir -p "$res"
pass=0; fail=0; failed=()
for t in "$@"; do
  name=$(basename "$t")
  echo "== $name"
  "$t" -j2 --tap="$res/$name.tap" --xml="$res/$name.xml" --always-succeed=false
  rc=$?
  if [ $rc -eq 0 ]; then pass=$((pass+1)); else fail=$((fail+1)); failed+=("$name (exit $rc)"); fi
done
echo "== verify --arch all --shapes quick"
"$build/lanelab" verify --arch all --shapes quick
rc=$?
if [ $rc -eq 0 ]; then pass=$((pass+1)); else fail=$((fail+1)); failed+=("verify (exit $rc)"); fi
[ ${#failed[@]} -gt 0 ] && printf 'failed: %s\n' "${failed[@]}"
echo "suites: $pass passed, $fail failed"
[ $fail -eq 0 ]
