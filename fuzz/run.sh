#!/usr/bin/env bash
# fuzz/run.sh BUILD SECONDS TARGET... — runs each libFuzzer harness BUILD/fuzz_TARGET for SECONDS
# seconds (0: replay the corpus only), one after another (never more than one fuzzing process:
# the machine is shared).
# Corpus: BUILD/corpus/TARGET (written) + fuzz/corpus/TARGET (the seeds in git, read only: libFuzzer
# adds new inputs to the first directory only). Crash inputs go to BUILD/crashes/TARGET/, the log
# to BUILD/TARGET.log. Exit 0 only if every harness ran its time without a finding.
set -u
build=$1 secs=$2; shift 2
# Per-target input size limits: code objects as big as the small seeds and some, one line of
# assembly, a spec file.
declare -A maxlen=([codeobj]=16384 [insn]=512 [spec]=8192 [manifest]=8192)
fail=0; failed=()
for t in "$@"; do
  bin=$build/fuzz_$t seeds=fuzz/corpus/$t work=$build/corpus/$t art=$build/crashes/$t
  log=$build/$t.log
  mkdir -p "$work" "$art"
  dict=(); [ -f fuzz/$t.dict ] && dict=(-dict=fuzz/$t.dict)
  # SECONDS 0: only replay the corpora (a quick regression check; libFuzzer reads
  # -max_total_time=0 as "no limit")
  if [ "$secs" -gt 0 ]; then limit=(-max_total_time="$secs"); else limit=(-runs=0); fi
  echo "== fuzz $t: ${secs}s, seeds $(ls "$seeds" | wc -l) in $seeds, log $log"
  # The slow unwinder: the fast one follows frame pointers, which libLLVM (not built with them)
  # does not keep, and a crash inside it then killed the report before the input was saved.
  # FUZZ_LAST_INPUT: the harnesses that keep each input before running it (fuzz_codeobj) write it
  # there, for a crash that dies before libFuzzer saves its input
  FUZZ_LAST_INPUT="$art/last-input" ASAN_OPTIONS="fast_unwind_on_fatal=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
  "$bin" "${limit[@]}" -timeout=20 -rss_limit_mb=2048 -max_len="${maxlen[$t]:-4096}" \
    -print_final_stats=1 -artifact_prefix="$art/" "${dict[@]}" "$work" "$seeds" >"$log" 2>&1
  rc=$?
  # one summary line: executions, rate, coverage
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
  echo "   $t: exit $rc, ${runs:-?} executions, ${rate:-?}/s, $cov, corpus $(ls "$work" | wc -l) found here"
  if [ $rc -ne 0 ]; then
    fail=$((fail + 1)); failed+=("$t (exit $rc)")
    grep -m1 -E 'ERROR: |runtime error|fuzz_[a-z]*: |deadly signal|Timeout|out-of-memory' "$log" | sed 's/^/   /'
    ls -t "$art" 2>/dev/null | grep -v '^last-input$' | head -n 1 | sed "s|^|   input: $art/|"
    [ -s "$art/last-input" ] && echo "   the last input run (kept before it ran): $art/last-input"
  fi
done
[ $fail -gt 0 ] && printf 'fuzz: failed: %s\n' "${failed[@]}"
[ $fail -eq 0 ]
