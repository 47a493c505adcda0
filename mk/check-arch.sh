#!/usr/bin/env bash
# Keeps docs/architecture.md's module map true (issue #29): fails (exit 1), naming each
# disagreement, when
#   1. the map's modules (the `X/` rows of the table under "## Module map") are not exactly the
#      Makefile's MODULES, in the same order;
#   2. a module's "uses" cell (its backticked module names) is not exactly the set of modules
#      whose headers its own .c/.h files #include ("X/...");
#   3. a module includes a module listed before it in MODULES (the link order: each module may
#      use only those after it);
# and, with --objs OBJDIR MODULE..., when the object files of one of those modules call each other
# in a circle (a file-level cycle: nm's defined and undefined symbols), naming the files in it.
# usage: mk/check-arch.sh [ROOT] | mk/check-arch.sh --objs OBJDIR MODULE...
set -u
if [ "${1:-}" = --objs ]; then
  objs=$2; shift 2
  bad=0
  for m in "$@"; do
    [ -d "$objs/$m" ] || { echo "check-arch: no objects in $objs/$m (build first)"; exit 2; }
    # edges "a b": file a calls a function file b defines
    edges=$(for o in "$objs/$m"/*.o; do nm "$o" | awk -v f="$(basename "$o" .o)" '
              NF == 3 && $2 ~ /^[TDRB]$/ { print "D", f, $3 } NF == 2 && $1 == "U" { print "U", f, $2 }'; done |
            awk '$1 == "D" { def[$3] = $2 } $1 == "U" { use[NR] = $2 " " $3 }
                 END { for (i in use) { split(use[i], p, " "); if ((p[2] in def) && def[p[2]] != p[1]) print p[1], def[p[2]] } }' | sort -u)
    # repeatedly drop files that call no remaining file or that no remaining file calls: what is
    # left lies on a circle (or between two)
    left=$(printf '%s\n' "$edges" | awk 'NF == 2 { out[$1] = out[$1] " " $2; in_[$2] = in_[$2] " " $1; node[$1]; node[$2] }
      END { do { changed = 0
              for (n in node) { ko = 0; ki = 0; split(out[n], t, " "); for (i in t) if (t[i] in node) ko++
                                split(in_[n], u, " "); for (i in u) if (u[i] in node) ki++
                                if (!ko || !ki) { delete node[n]; changed = 1 } } } while (changed)
            for (n in node) printf " %s", n; if (length(node)) printf " " }')
    if [ -n "$left" ]; then echo "check-arch: $m/ has a circle among: $left"; bad=1; fi
  done
  exit $bad
fi
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2
doc=docs/architecture.md
[ -f "$doc" ] && [ -f Makefile ] || { echo "check-arch: $root has no $doc or Makefile"; exit 2; }
mods=$(sed -n 's/^MODULES[[:space:]]*:=[[:space:]]*//p' Makefile)
[ -n "$mods" ] || { echo "check-arch: Makefile has no MODULES := line"; exit 2; }
# the map: rows "| `X/` | what | uses |" of the first table after "## Module map"
map=$(awk '/^## Module map/ { on = 1; next } on && /^## / { exit }
           on && /^\| *`[a-z_]+\/` *\|/ { n = split($0, c, "|"); m = c[2]; gsub(/[` \/]/, "", m); print m "\t" c[n - 1] }' "$doc")
bad=0
doc_order=$(printf '%s\n' "$map" | cut -f1 | tr '\n' ' ' | sed 's/ $//')
if [ "$doc_order" != "$(echo $mods)" ]; then
  echo "check-arch: $doc's module map lists [$doc_order]; the Makefile's MODULES are [$(echo $mods)]"
  bad=1
fi
pos() { local i=0; for x in $mods; do [ "$x" = "$1" ] && { echo $i; return; }; i=$((i + 1)); done; echo -1; }
for m in $mods; do
  real=$(cat "$m"/*.c "$m"/*.h 2>/dev/null | sed -n 's@^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([a-z_]*\)/.*@\1@p' |
         sort -u | while read -r u; do [ "$u" != "$m" ] && [ "$(pos "$u")" -ge 0 ] && echo "$u"; done | tr '\n' ' ' | sed 's/ $//')
  cell=$(printf '%s\n' "$map" | awk -F'\t' -v m="$m" '$1 == m { print $2 }')
  said=$(printf '%s\n' "$cell" | grep -o '`[a-z_]*`' | tr -d '`' | sort -u | while read -r u; do
           [ "$(pos "$u")" -ge 0 ] && echo "$u"; done | tr '\n' ' ' | sed 's/ $//')
  if [ "$real" != "$said" ]; then
    echo "check-arch: $m/ includes [${real}] but $doc says it uses [${said}]"
    bad=1
  fi
  for u in $real; do
    if [ "$(pos "$u")" -lt "$(pos "$m")" ]; then
      echo "check-arch: $m/ includes $u/, which comes before it in MODULES (the layering: a module uses only those after it)"
      bad=1
    fi
  done
done
exit $bad
