#!/usr/bin/env bash
# Builds every test program in this folder natively (real pthreads) and checks
# it against its NAME.json: exit code, stdout identical across RUNS runs, and
# the optional stdout / stdoutIncludes / stderrIncludes expectations.
# Programs marked "native": false (traps, abort) must only die with a non-zero
# code natively; their exact code is a wasm-host convention.
#
# Usage: tests/programs/check-native.sh [NAME...]
# Environment: CC (clang-22), CXX (clang++-22), OPT (-O2), RUNS (3),
#              EXTRA_CFLAGS (e.g. "-fsanitize=thread -g"), TSAN_OPTIONS etc.
# Under ThreadSanitizer use TSAN_OPTIONS=report_mutex_bugs=0: mutex_kinds
# misuses an error-checking mutex on purpose to test the EDEADLK/EPERM codes.
set -u
dir=$(cd "$(dirname "$0")" && pwd)
CC=${CC:-clang-22}
CXX=${CXX:-clang++-22}
OPT=${OPT:--O2}
RUNS=${RUNS:-3}
read -r -a extra_cflags <<<"${EXTRA_CFLAGS:-}"
# Programs run with a clean environment; only sanitizer settings pass through.
sanitizer_env=()
for var in TSAN_OPTIONS ASAN_OPTIONS UBSAN_OPTIONS; do
    [ -n "${!var:-}" ] && sanitizer_env+=("$var=${!var}")
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

sources=()
if [ $# -gt 0 ]; then
    for name in "$@"; do
        for ext in c cpp; do [ -f "$dir/$name.$ext" ] && sources+=("$dir/$name.$ext"); done
    done
else
    sources=("$dir"/*.c "$dir"/*.cpp)
fi

passed=0
failed=0
fail() {
    echo "FAIL $name: $*"
    failed=$((failed + 1))
}

# Prints, one per line, each string of the JSON array at key $2 of spec $1
# that does not occur in file $3 (JSON-quoted, so newlines stay visible).
missing_substrings() {
    jq -rn --argjson spec "$1" --rawfile text "$3" \
        "(\$spec.$2 // [])[] | select(. as \$s | \$text | contains(\$s) | not) | @json"
}

for src in "${sources[@]}"; do
    name=$(basename "${src%.*}")
    spec='{}'
    [ -f "$dir/$name.json" ] && spec=$(cat "$dir/$name.json")
    if ! jq -e . >/dev/null 2>&1 <<<"$spec"; then
        fail "invalid JSON in $name.json"
        continue
    fi
    # Tests of the wasi-emulated libraries check what the emulation does, which a native libc
    # does differently (real signals, shared file mappings): nothing to compare.
    if jq -e '.cflags // [] | any(startswith("-lwasi-emulated-"))' >/dev/null <<<"$spec"; then
        echo "skip $name (tests a wasi-emulated library)"
        continue
    fi
    mapfile -t cflags < <(jq -r '.cflags // [] | .[]' <<<"$spec")
    mapfile -d '' -t args < <(jq -j '.args // [] | .[] | (., "\u0000")' <<<"$spec")
    mapfile -d '' -t env_pairs < <(jq -j '.env // {} | to_entries[] | ("\(.key)=\(.value)", "\u0000")' <<<"$spec")
    jq -j '.stdin // ""' <<<"$spec" >"$work/$name.stdin"
    expected_exit=$(jq '.exit // 0' <<<"$spec")
    native=$(jq 'if has("native") then .native else true end' <<<"$spec")

    if [ "${src##*.}" = cpp ]; then
        compile=("$CXX")
    else
        compile=("$CC")
    fi
    if ! "${compile[@]}" -pthread -Wall -Wextra -Werror "$OPT" "${cflags[@]}" "${extra_cflags[@]}" \
        "$src" -o "$work/$name" 2>"$work/$name.build"; then
        fail "does not compile"
        cat "$work/$name.build"
        continue
    fi

    problems=()
    slowest_ms=0
    for run in $(seq 1 "$RUNS"); do
        start_ns=$(date +%s%N)
        # The braces' 2>/dev/null hides bash's "Aborted"/"Illegal instruction" notices.
        { env -i PATH=/usr/bin:/bin "${sanitizer_env[@]}" "${env_pairs[@]}" "$work/$name" "${args[@]}" \
            <"$work/$name.stdin" >"$work/$name.out$run" 2>"$work/$name.err$run"; } 2>/dev/null
        rc=$?
        elapsed_ms=$((($(date +%s%N) - start_ns) / 1000000))
        [ "$elapsed_ms" -gt "$slowest_ms" ] && slowest_ms=$elapsed_ms
        if [ "$native" = true ]; then
            [ "$rc" -eq "$expected_exit" ] || problems+=("run $run: exit $rc, expected $expected_exit")
            while IFS= read -r s; do
                problems+=("run $run: stderr lacks $s")
            done < <(missing_substrings "$spec" stderrIncludes "$work/$name.err$run")
        else
            [ "$rc" -ne 0 ] || problems+=("run $run: exit 0, expected the program to die")
        fi
        if jq -e 'has("stdout")' >/dev/null <<<"$spec"; then
            jq -j '.stdout' <<<"$spec" >"$work/$name.expected"
            cmp -s "$work/$name.expected" "$work/$name.out$run" ||
                problems+=("run $run: stdout differs from .stdout")
        fi
        while IFS= read -r s; do
            problems+=("run $run: stdout lacks $s")
        done < <(missing_substrings "$spec" stdoutIncludes "$work/$name.out$run")
        if [ "$run" -gt 1 ] && ! cmp -s "$work/$name.out1" "$work/$name.out$run"; then
            problems+=("run $run: stdout differs from run 1 (not deterministic)")
        fi
    done
    if [ ${#problems[@]} -eq 0 ]; then
        echo "ok   $name (exit $rc, slowest run ${slowest_ms} ms)"
        passed=$((passed + 1))
    else
        fail "${problems[0]}"
        for p in "${problems[@]:1}"; do echo "     $p"; done
        echo "     --- stdout of last run (first 20 lines):"
        head -n 20 "$work/$name.out$RUNS" | sed 's/^/     /'
        echo "     --- stderr of last run (first 20 lines):"
        head -n 20 "$work/$name.err$RUNS" | sed 's/^/     /'
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
