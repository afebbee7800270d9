#!/usr/bin/env bash
# Formats the C/C++ (clang-format, .clang-format) and JavaScript (ESLint, eslint.config.js) that
# git tracks or would track, in place. With --check it changes nothing, lists what is not
# formatted and exits 1. The tools come from scripts/setup.sh (docs/TOOLCHAIN.md, "Formatting").
#   scripts/format.sh            apply; exits 1 if ESLint finds problems --fix cannot repair
#   scripts/format.sh --check    verify only
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/versions.env"
cd "$root"

check=0
case "${1:-}" in
  --check) check=1 ;;
  "") ;;
  *) echo "usage: scripts/format.sh [--check]" >&2; exit 2 ;;
esac

clang_format="clang-format-$CLANG_MAJOR"
eslint="$root/node_modules/.bin/eslint"
command -v "$clang_format" >/dev/null || { echo "format: $clang_format not found: run scripts/setup.sh" >&2; exit 2; }
[ -x "$eslint" ] || { echo "format: $eslint not found: run scripts/setup.sh" >&2; exit 2; }

# Tracked files and new ones not ignored, so build outputs and the toolchain stay out.
c_files=()
while IFS= read -r -d '' f; do
  [ -f "$f" ] && c_files+=("$f")
done < <(git ls-files -z --cached --others --exclude-standard -- \
  'runtime/*.[ch]' 'runtime/*.cpp' 'tests/*.[ch]' 'tests/*.cpp' \
  'bench/*.[ch]' 'bench/*.cpp' 'examples/*.[ch]' 'examples/*.cpp')
js_paths=(eslint.config.js bin/spindle cli host bench tests scripts examples)

status=0
if [ "$check" = 1 ]; then
  unformatted=()
  for f in "${c_files[@]}"; do
    "$clang_format" "$f" | cmp -s - "$f" || unformatted+=("$f")
  done
  if [ "${#unformatted[@]}" -gt 0 ]; then
    echo "format: ${#unformatted[@]} C/C++ files differ from $clang_format's layout:"
    printf '  %s\n' "${unformatted[@]}"
    status=1
  fi
  "$eslint" --max-warnings=0 --no-error-on-unmatched-pattern "${js_paths[@]}" || status=1
  [ "$status" = 0 ] && echo "format: ${#c_files[@]} C/C++ files and the JavaScript are formatted"
  [ "$status" = 0 ] || echo "format: run scripts/format.sh to apply the layout; ESLint's other findings need a hand" >&2
else
  [ "${#c_files[@]}" -eq 0 ] || "$clang_format" -i "${c_files[@]}"
  "$eslint" --fix --max-warnings=0 --no-error-on-unmatched-pattern "${js_paths[@]}" || status=1
fi
exit "$status"
