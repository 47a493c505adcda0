#!/usr/bin/env bash
# Renders one report page in headless Chromium (Debian's `chromium`, no driver needed):
#   mk/browser-test.sh PAGE.html OUTDIR NAME [--no-screenshot]
# writes OUTDIR/NAME.dom (the DOM after the page's scripts ran), OUTDIR/NAME.png (screenshot; not
# with --no-screenshot, which saves the second Chromium start where no picture is looked at) and
# OUTDIR/NAME.log (Chromium's stderr). Exit 0 if the page rendered with no console message at all
# (an uncaught error or any console.* call fails it: the pages log nothing when healthy) and its
# self-check set body[data-check="ok"]; 1 if not; 3 if chromium is not installed; 2 on bad usage.
set -u
shot=1
if [ $# -eq 4 ] && [ "$4" = --no-screenshot ]; then shot=0
elif [ $# -ne 3 ]; then set -- ""; fi
if [ $# -lt 3 ] || [ ! -f "$1" ]; then
  echo "usage: mk/browser-test.sh PAGE.html OUTDIR NAME [--no-screenshot] (page must exist)" >&2; exit 2
fi
page=$(readlink -f "$1"); out=$2; name=$3
chrome=$(command -v chromium || true)
if [ -z "$chrome" ]; then
  echo "browser test: chromium not found; install Debian's chromium (apt-get install -y chromium, or make deps with chromium listed)" >&2
  exit 3
fi
mkdir -p "$out"
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
flags=(--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update
       --disable-sync --no-first-run --user-data-dir="$profile" --enable-logging=stderr --v=0)
timeout 120 "$chrome" "${flags[@]}" --dump-dom "file://$page" >"$out/$name.dom" 2>"$out/$name.log"
rc=$?
if [ $rc -ne 0 ]; then echo "browser test: chromium --dump-dom $page exited $rc (log: $out/$name.log)" >&2; exit 1; fi
if [ $shot = 1 ]; then
  timeout 120 "$chrome" "${flags[@]}" --window-size=1400,1000 --screenshot="$(readlink -f "$out")/$name.png" \
    "file://$page" >>"$out/$name.log" 2>&1
  rc=$?
  if [ $rc -ne 0 ] || [ ! -s "$out/$name.png" ]; then
    echo "browser test: chromium --screenshot of $page failed (exit $rc, log: $out/$name.log)" >&2; exit 1
  fi
fi
status=0
if grep -E ':CONSOLE[:(]' "$out/$name.log" >&2; then
  echo "browser test: $page wrote to the console (above): uncaught errors or console calls" >&2; status=1
fi
if ! grep -q 'data-check="ok"' "$out/$name.dom"; then
  check=$(grep -o 'data-check="[^"]*"' "$out/$name.dom" | head -1)
  echo "browser test: $page self-check did not pass: ${check:-no data-check attribute (script did not run)}" >&2
  status=1
fi
exit $status
