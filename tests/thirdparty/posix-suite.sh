#!/usr/bin/env bash
# Third-party check of the POSIX layer (docs/POSIX.md, "Third-party check"). Nothing of the
# material is in this repository: it takes checkouts (or bare mirrors) of Emscripten and of
# wasi-testsuite, extracts the test sources into a temp dir at run time, and checks that they
# are the pinned commit and file set.
#
# Emscripten's POSIX tests (file, directory, unistd, fcntl and stdio): each program is built
# with `spindle cc` and natively with clang-22 (same flags; natively also -static), and run as
# spindle run starts a module: at / of a fresh tree with /tmp, /home, /dev and /proc, as an
# ordinary user (uid/gid 1000, no groups) who owns it, no environment, no fds but 0-2, stdin
# /dev/null. Natively that tree is a fresh directory, on tmpfs and on ext4, the program's root
# (chroot, native-root.py); with spindle run (Node) it is the in-memory tree. stdout and the exit
# code must be identical byte for byte, after one normalisation: inode numbers (`ino: N`),
# which differ between any two runs. A program whose native build fails (it needs emscripten.h)
# is not in the set. wasi-testsuite's C tests run per their json spec and must exit as it says.
#
# Usage (as root, for chroot and setuid): tests/thirdparty/posix-suite.sh EMSCRIPTEN_REPO WASI_TESTSUITE_REPO
# Environment: ONLY=regex (programs to run), ANY_COMMIT=1 (run another commit, unpinned),
#              KEEP=1 (keep the work dir and print it), SHOW_DIFF=1 (diff of each difference),
#              EXT4_DIR (default /tmp),
#              TMPFS_DIR (default /dev/shm), RUN_AS (uid:gid, default 1000:1000).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
spindle="$root/bin/spindle"
here="$root/tests/thirdparty"
[ $# -eq 2 ] || {
    echo "usage: $0 EMSCRIPTEN_REPO WASI_TESTSUITE_REPO" >&2
    exit 2
}
emscripten_repo=$1
wasi_repo=$2
ONLY=${ONLY:-}
EXT4_DIR=${EXT4_DIR:-/tmp}
TMPFS_DIR=${TMPFS_DIR:-/dev/shm}
RUN_AS=${RUN_AS:-1000:1000}
CC=${CC:-clang-22}
# _GNU_SOURCE: Emscripten's libc declares getdents, dup3, swab... by default; glibc wants it.
CFLAGS=(-O2 -w -D_GNU_SOURCE)

work=$(mktemp -d)
chmod 755 "$work" # the ordinary user runs the native binaries from here
if [ -n "${KEEP:-}" ]; then echo "work dir: $work"; else trap 'rm -rf "$work"' EXIT; fi

source "$here/pins.sh"

# Extracts the paths $3... of repo $1 (its HEAD) into $work/$2; checks the commit and the
# sha256 of the extracted files' list of checksums against the pins $4 (commit) and $5 (sum).
extract() {
    local repo=$1 name=$2 pinned_commit=$3 pinned_sum=$4
    shift 4
    local commit sum
    commit=$(git -C "$repo" rev-parse HEAD) || exit 2
    mkdir -p "$work/$name"
    # (a mirror may lack objects outside these paths: git archive then complains, harmlessly)
    git -C "$repo" archive HEAD "$@" 2>/dev/null | tar -x -C "$work/$name" || exit 2
    sum=$(cd "$work/$name" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-64)
    echo "$name: commit $commit, sources sha256 $sum"
    if [ "$commit" != "$pinned_commit" ] || [ "$sum" != "$pinned_sum" ]; then
        echo "  NOT the pinned material (commit $pinned_commit, sha256 $pinned_sum)"
        [ -n "${ANY_COMMIT:-}" ] || {
            echo "  (ANY_COMMIT=1 runs it anyway)"
            exit 2
        }
    else
        echo "  pinned material: commit and checksum match"
    fi
}

extract "$emscripten_repo" emscripten "$EMSCRIPTEN_COMMIT" "$EMSCRIPTEN_SOURCES_SHA256" "${EMSCRIPTEN_DIRS[@]}"
extract "$wasi_repo" wasi "$WASI_COMMIT" "$WASI_SOURCES_SHA256" tests/c/src

# Runs native binary $1 as the ordinary user at / of a fresh tree under $2; output in $3.*
run_native() {
    local exe=$1 parent=$2 out=$3 dir
    dir=$(mktemp -d -p "$parent" spindle-posix-XXXXXX)
    mkdir "$dir/tmp" "$dir/home" "$dir/dev" "$dir/proc"
    chmod 755 "$dir"
    chown "$RUN_AS" "$dir" "$dir/tmp" "$dir/home"
    # The braces' 2>/dev/null hides bash's "Aborted" notices.
    { timeout 60 unshare -m --propagation private python3 "$here/native-root.py" "$dir" "$exe" \
        "${RUN_AS%:*}" "${RUN_AS#*:}" </dev/null >"$out.out" 2>"$out.err"; } 2>/dev/null
    echo $? >"$out.rc"
    rm -rf "$dir"
}

# The output that is compared: stdout (inode numbers normalised), then the exit code.
result() { sed -E 's/(ino:? *)[0-9]+/\1N/g' "$1.out" && echo "exit $(cat "$1.rc")"; }

echo
printf '%-44s %-8s %-8s %-8s %s\n' program tmpfs ext4 build result
set_size=0
identical=0
built=0
excluded=()
differing=()
while IFS= read -r src; do
    name=$(basename "$(dirname "$src")")/$(basename "${src%.*}")
    [ -z "$ONLY" ] || [[ "$name" =~ $ONLY ]] || continue
    id=${name//\//_}
    compiler=$CC
    [[ "$src" == *.cpp ]] && compiler=${CC/clang/clang++}
    if ! "$compiler" "${CFLAGS[@]}" -static "$src" -o "$work/$id.native" 2>"$work/$id.native.build"; then
        excluded+=("$name: $(grep -m1 -o 'error: .*' "$work/$id.native.build")")
        continue
    fi
    set_size=$((set_size + 1))
    run_native "$work/$id.native" "$TMPFS_DIR" "$work/$id.tmpfs"
    run_native "$work/$id.native" "$EXT4_DIR" "$work/$id.ext4"
    if ! "$spindle" cc "${CFLAGS[@]}" "$src" -o "$work/$id.wasm" 2>"$work/$id.wasm.build"; then
        printf '%-44s %-8s %-8s %-8s %s\n' "$name" - - FAILS "$(grep -m1 -o 'error: .*' "$work/$id.wasm.build")"
        differing+=("$name")
        continue
    fi
    built=$((built + 1))
    (cd "$work" && timeout 120 "$spindle" run "$work/$id.wasm" </dev/null >"$work/$id.wasm.out" 2>"$work/$id.wasm.err")
    echo $? >"$work/$id.wasm.rc"
    result "$work/$id.wasm" >"$work/$id.got"
    verdicts=()
    for fs in tmpfs ext4; do
        result "$work/$id.$fs" >"$work/$id.$fs.expected"
        if cmp -s "$work/$id.got" "$work/$id.$fs.expected"; then verdicts+=(same); else verdicts+=(DIFFERS); fi
    done
    # Where tmpfs and ext4 disagree with each other, the output depends on the file system:
    # the same as either is Linux's behaviour.
    if [ "${verdicts[0]}" = same ] || [ "${verdicts[1]}" = same ]; then
        identical=$((identical + 1))
        verdict=identical
    else
        differing+=("$name")
        verdict="differs (exit $(cat "$work/$id.wasm.rc"), native $(cat "$work/$id.tmpfs.rc"))"
    fi
    printf '%-44s %-8s %-8s %-8s %s\n' "$name" "${verdicts[0]}" "${verdicts[1]}" ok "$verdict"
    if [ "$verdict" != identical ] && [ -n "${SHOW_DIFF:-}" ]; then
        diff "$work/$id.tmpfs.expected" "$work/$id.got" | head -n 20 | sed 's/^/    /'
        head -n 5 "$work/$id.wasm.err" | sed 's/^/    stderr: /'
    fi
done < <(cd "$work/emscripten" && find "${EMSCRIPTEN_DIRS[@]}" -name '*.c' -o -name '*.cpp' | sort | sed "s|^|$work/emscripten/|")

echo
echo "Not in the set (their native build fails):"
for e in "${excluded[@]}"; do echo "  $e"; done
echo
echo "Emscripten POSIX tests: $identical of $set_size identical, $built build"

# wasi-testsuite: a spec's "root" is the program's / (preloaded: spindle cannot mount over /),
# "args"/"env" go to the run, "exit_code" (default 0) is what it must exit with. Built as by
# default (an ordinary user) and with --as-root: WASI has no users or permission bits (one test
# creates a file with open(O_CREAT) and no mode argument: docs/POSIX.md, "Creating with no mode").
# Runs every test built with spindle cc flags "$@"; sets wasi_passed and wasi_total.
run_wasi_suite() {
    wasi_total=0
    wasi_passed=0
    local src name spec expected_exit spec_root rc args env run_flags
    for src in "$work"/wasi/tests/c/src/*.c; do
        name=$(basename "${src%.c}")
        [ -z "$ONLY" ] || [[ "$name" =~ $ONLY ]] || continue
        wasi_total=$((wasi_total + 1))
        spec='{}'
        [ -f "${src%.c}.json" ] && spec=$(cat "${src%.c}.json")
        expected_exit=$(jq '.exit_code // 0' <<<"$spec")
        mapfile -t args < <(jq -r '.args // [] | .[]' <<<"$spec")
        mapfile -t env < <(jq -r '.env // {} | to_entries[] | "--env=\(.key)=\(.value)"' <<<"$spec")
        run_flags=("${env[@]}")
        spec_root=$(jq -r '.root // empty' <<<"$spec")
        if [ -n "$spec_root" ]; then
            # a fresh copy for each program: some of them write
            rm -rf "$work/wasi-root"
            cp -a "$(dirname "$src")/$spec_root" "$work/wasi-root"
            run_flags+=("--preload=$work/wasi-root@/")
        fi
        if ! "$spindle" cc "$@" "${CFLAGS[@]}" "$src" -o "$work/wasi-$name.wasm" 2>"$work/wasi-$name.build"; then
            printf '%-44s %-10s %s\n' "$name" "$expected_exit" "FAIL (build)"
            continue
        fi
        (cd "$work" && timeout 120 "$spindle" run "${run_flags[@]}" "$work/wasi-$name.wasm" "${args[@]}" \
            </dev/null >"$work/wasi-$name.out" 2>"$work/wasi-$name.err")
        rc=$?
        if [ "$rc" -eq "$expected_exit" ]; then
            wasi_passed=$((wasi_passed + 1))
            printf '%-44s %-10s %s\n' "$name" "$expected_exit" "pass"
        else
            printf '%-44s %-10s %s\n' "$name" "$expected_exit" "FAIL (exit $rc)"
            [ -z "${SHOW_DIFF:-}" ] || head -n 2 "$work/wasi-$name.err" | sed 's/^/    stderr: /'
        fi
    done
}

echo
printf '%-44s %-10s %s\n' "wasi-testsuite program (default build)" expected result
run_wasi_suite
wasi_default="$wasi_passed of $wasi_total pass"
echo
printf '%-44s %-10s %s\n' "wasi-testsuite program (--as-root)" expected result
run_wasi_suite --as-root
wasi_root="$wasi_passed of $wasi_total pass"

echo
echo "wasi-testsuite C tests: $wasi_default built by default, $wasi_root built --as-root"
echo "Emscripten POSIX tests: $identical of $set_size identical, $built build"
[ "$identical" -eq "$set_size" ] && [ "$wasi_passed" -eq "$wasi_total" ]
