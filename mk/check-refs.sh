#!/usr/bin/env bash
# Fails (exit 1) when anything in the project refers to a file outside the repository: an
# absolute path into a developer's tree, a notes folder kept beside the repository, or a bare
# NAME.md (or docs/NAME.md) that is not in the repository, looked up from the root and from the
# citing file's folder. Paths under folders the repository does not have (generated outputs such
# as tables/x.md, or anything under build/) and URLs are not citations. Facts the code relies on live in docs/.
# usage: mk/check-refs.sh [ROOT]   (default: the repository this script is in)
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2
self=mk/check-refs.sh
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git ls-files -co --exclude-standard | grep -v -e '^build/' -e "^$self\$" > "${TMPDIR:-/tmp}/check-refs.$$"
else
  find . -type f ! -path './build/*' ! -path './.git/*' ! -path "./$self" | sed 's@^\./@@' > "${TMPDIR:-/tmp}/check-refs.$$"
fi
list="${TMPDIR:-/tmp}/check-refs.$$"
trap 'rm -f "$list"' EXIT
bad=0
# 1. absolute paths into someone's tree, or notes kept outside the repository
abs='(^|[^[:alnum:]_.-])(/work/|/home/[[:alnum:]]|/root/|(\.\./)*shared/|facts/[[:alnum:]_-]+\.md)'
if out=$(tr '\n' '\0' < "$list" | xargs -0 grep -InE "$abs" 2>/dev/null); then
  printf '%s\n' "$out"
  bad=1
fi
# 2. every NAME.md cited exists
while IFS=: read -r f line ref; do
  case "$ref" in http*|*://*|[%\$\}\*]*) continue ;; esac
  ref=${ref#./}
  case "$ref" in
    build/*) continue ;; # generated output (build/ is never committed), not a citation
    /*) [ -e "$ref" ] || [ -e "${ref#/}" ] && continue ;;
    */*) top=${ref%%/*}; [ -d "$top" ] || [ -d "$(dirname "$f")/$top" ] || continue
         [ -e "$ref" ] || [ -e "$(dirname "$f")/$ref" ] && continue ;;
    *) [ -e "$ref" ] || [ -e "$(dirname "$f")/$ref" ] && continue ;;
  esac
  echo "$f:$line: cites $ref, which is not in the repository (facts go in docs/)"
  bad=1
done < <(tr '\n' '\0' < "$list" | xargs -0 grep -InoE '(https?://[^ )>"]*|[%$}*]?[[:alnum:]_./-]*[[:alnum:]_-])\.md\b' 2>/dev/null)
if [ $bad -ne 0 ]; then
  echo "check-refs: references to files outside the repository (above)" >&2
  exit 1
fi
echo "check-refs: no reference outside the repository"
