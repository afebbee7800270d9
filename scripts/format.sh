#!/usr/bin/env bash
# Formats C/C++ with clang-format (.clang-format) and JavaScript with ESLint (eslint.config.js),
# in place. With --check it changes nothing, lists what is not formatted and exits 1. Without
# paths it covers what git tracks or would track in runtime/, tests/, bench/, examples/, host/ (C/C++)
# and bin/, cli/, host/, bench/, tests/, scripts/, examples/ (JavaScript); with paths, only those
# files or folders. The tools come from scripts/setup.sh (docs/TOOLCHAIN.md, "Formatting").
#   scripts/format.sh [--check] [PATH...]
# Exits 1 when something is unformatted (--check) or ESLint finds what --fix cannot repair.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/versions.env"

check=0
paths=()
for arg in "$@"; do
  case "$arg" in
    --check) check=1 ;;
    -*) echo "usage: scripts/format.sh [--check] [PATH...]" >&2; exit 2 ;;
    *) [ -e "$arg" ] || { echo "format: $arg: no such file or directory" >&2; exit 2; }
       paths+=("$(realpath --relative-to="$root" "$arg")") ;;
  esac
done
cd "$root"

clang_format="clang-format-$CLANG_MAJOR"
style="--style=file:$root/.clang-format"
eslint="$root/node_modules/.bin/eslint"
command -v "$clang_format" >/dev/null || { echo "format: $clang_format not found: run scripts/setup.sh" >&2; exit 2; }
[ -x "$eslint" ] || { echo "format: $eslint not found: run scripts/setup.sh" >&2; exit 2; }

is_c() { [[ "$1" =~ \.(c|h|cpp)$ ]]; }
is_js() { [[ "$1" =~ \.(js|mjs|cjs)$ ]]; }
# Tracked files and new ones git does not ignore, so build outputs and the toolchain stay out.
c_files_in() {
  local f
  while IFS= read -r -d '' f; do
    if [ -f "$f" ] && is_c "$f"; then c_files+=("$f"); fi
  done < <(git ls-files -z --cached --others --exclude-standard -- "$@")
}

c_files=()
js_args=()
eslint_opts=(--max-warnings=0 --no-error-on-unmatched-pattern)
if [ "${#paths[@]}" -eq 0 ]; then
  c_files_in runtime tests bench examples host
  js_args=(eslint.config.js bin/spindle cli host bench tests scripts examples)
else
  named_js_files=0
  for p in "${paths[@]}"; do
    if [ -d "$p" ]; then
      c_files_in "$p"
      js_args+=("$p")
    elif is_c "$p"; then
      c_files+=("$p")
    elif is_js "$p"; then
      js_args+=("$p")
      named_js_files=$((named_js_files + 1))
    fi
  done
  # A JavaScript file named on its own is linted even where the config ignores its folder.
  if [ "$named_js_files" -gt 0 ] && [ "$named_js_files" -eq "${#js_args[@]}" ]; then
    eslint_opts+=(--no-ignore)
  fi
fi

status=0
if [ "$check" = 1 ]; then
  if [ "${#c_files[@]}" -gt 0 ]; then
    # One run for all files; it names each file that differs in its first difference.
    cf_rc=0
    report=$("$clang_format" "$style" --dry-run --Werror --ferror-limit=1 "${c_files[@]}" 2>&1 >/dev/null) || cf_rc=$?
    mapfile -t unformatted < <(sed -nE 's/^(.*):[0-9]+:[0-9]+: error: code should be clang-formatted.*/\1/p' <<<"$report" | sort -u)
    if [ "${#unformatted[@]}" -gt 0 ]; then
      echo "format: ${#unformatted[@]} of ${#c_files[@]} C/C++ files differ from $clang_format's layout:"
      printf '  %s\n' "${unformatted[@]}"
      status=1
    elif [ "$cf_rc" != 0 ]; then
      echo "format: $clang_format failed:"; echo "$report"
      status=1
    fi
  fi
  if [ "${#js_args[@]}" -gt 0 ]; then
    "$eslint" "${eslint_opts[@]}" "${js_args[@]}" || status=1
  fi
  if [ "$status" = 0 ]; then
    echo "format: ${#c_files[@]} C/C++ files and the JavaScript are formatted"
  else
    echo "format: scripts/format.sh applies the layout; ESLint findings that --fix cannot repair need a hand"
  fi
else
  if [ "${#c_files[@]}" -gt 0 ]; then "$clang_format" "$style" -i "${c_files[@]}"; fi
  if [ "${#js_args[@]}" -gt 0 ]; then
    "$eslint" --fix "${eslint_opts[@]}" "${js_args[@]}" || status=1
  fi
fi
exit "$status"
