#!/usr/bin/env bash
# Fails (exit 1) when a C function in the given folders is longer than MAX lines (default 150),
# naming each: file:line, function, length. A function is counted from the line its definition
# starts on (a line beginning with a name, not a declaration ending in ';') to the closing '}' in
# column 0, as lanelab's style writes them. With --list it prints every function's length, longest
# first, and exits 0.
# usage: mk/check-funcs.sh [--max N] [--list] DIR|FILE.c...   (from the repository root)
set -u
max=150 list=0
while [ $# -gt 0 ]; do
  case $1 in
    --max) max=$2; shift 2;;
    --list) list=1; shift;;
    *) break;;
  esac
done
[ $# -gt 0 ] || { echo "usage: mk/check-funcs.sh [--max N] [--list] DIR|FILE.c..."; exit 2; }
case $max in ''|*[!0-9]*) echo "check-funcs: --max '$max': expected a positive integer"; exit 2;; esac
files=()
for d in "$@"; do
  if [ -f "$d" ]; then files+=("$d"); continue; fi
  [ -d "$d" ] || { echo "check-funcs: no folder or file $d"; exit 2; }
  for f in "$d"/*.c; do [ -f "$f" ] && files+=("$f"); done
done
out=$(awk '
  FNR == 1 { start = 0 }
  # a definition starts at column 0 with a type or name and has "(" on its line; a declaration or
  # a file-scope initializer never opens a body in column-0 style
  start == 0 && /^[A-Za-z_][A-Za-z0-9_ \*]*\(/ && !/;[[:space:]]*$/ && !/^(typedef|static const|const|struct|enum|union)[^(]*=/ {
    head = $0; line = FNR; start = -1
    name = head; sub(/\(.*/, "", name); n = split(name, w, /[ \*]+/); name = w[n]
    if (head ~ /\{.*\}[[:space:]]*$/) { printf "1\t%s:%d\t%s\n", FILENAME, FNR, name; start = 0; next } # one line
  }
  start == -1 && /\{[[:space:]]*$/ { start = line }
  start == -1 && /;[[:space:]]*$/ { start = 0 }
  start > 0 && /^\}/ { printf "%d\t%s:%d\t%s\n", FNR - start + 1, FILENAME, start, name; start = 0 }
' "${files[@]}" | sort -rn)
if [ $list -eq 1 ]; then printf '%s\n' "$out"; exit 0; fi
long=$(printf '%s\n' "$out" | awk -F'\t' -v m="$max" '$1 > m')
if [ -n "$long" ]; then
  printf '%s\n' "$long" | awk -F'\t' -v m="$max" '{ printf "check-funcs: %s: %s is %d lines (at most %d)\n", $2, $3, $1, m }'
  exit 1
fi
exit 0
