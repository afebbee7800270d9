#!/usr/bin/env bash
# Builds the peer that Spindle is measured against: Emscripten 6.0.8 from its public repository,
# in .toolchain/emscripten (never committed), with Debian's clang-22 as its LLVM and npm's
# binaryen 132 as its Binaryen. When it is there, `spindle bench`'s start-up experiment builds
# the same C with it and times it beside `spindle run` (bench/startup/suite.js). Idempotent;
# fails loudly with the step that broke. Not part of setup: the bench runs without it.
#   scripts/emscripten-peer.sh            clone tag 6.0.8 from GitHub
#   EMSCRIPTEN_GIT=DIR scripts/emscripten-peer.sh
#                                         take tag 6.0.8 from the git repository DIR instead
# Then: EM_CONFIG=.toolchain/emscripten/em_config.py .toolchain/emscripten/emscripten/emcc ...
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
TAG=6.0.8
BINARYEN=132.0.0
LLVM_BIN=/usr/lib/llvm-22/bin
dir="$root/.toolchain/emscripten"
stamp="$dir/.done-$TAG-$BINARYEN-$(sha1sum "$0" | cut -c1-12)"
[ -f "$stamp" ] && exit 0

step() { echo "[emscripten-peer] $*"; }
fail() { echo "[emscripten-peer] FAILED: $*" >&2; exit 1; }
node_bin=$(command -v node) || fail "node is not on PATH (scripts/setup.sh installs it)"
[ -x "$LLVM_BIN/clang" ] && [ -x "$LLVM_BIN/wasm-ld" ] || fail "clang-22 and wasm-ld-22 are missing in $LLVM_BIN (apt: clang-22 lld-22)"

rm -rf "$dir"
mkdir -p "$dir/emscripten"
step "Emscripten $TAG sources"
if [ -n "${EMSCRIPTEN_GIT:-}" ]; then
  # (a mirror may lack its two largest files, which no C program here needs)
  git -C "$EMSCRIPTEN_GIT" archive "$TAG" -- . ':!system/include/compat/arm_neon.h' ':!test/third_party/sqlite/sqlite3.c' |
    tar -x -C "$dir/emscripten" || fail "git archive $TAG from $EMSCRIPTEN_GIT"
else
  git clone -q --depth 1 --branch "$TAG" https://github.com/emscripten-core/emscripten.git "$dir/emscripten" ||
    fail "git clone of emscripten $TAG"
fi

step "its npm dependencies"
(cd "$dir/emscripten" && npm ci --omit=dev --no-audit --no-fund --loglevel=error) || fail "npm ci in emscripten"
(cd "$dir/emscripten" && python3 tools/maint/create_entry_points.py) || fail "create_entry_points.py"

step "binaryen $BINARYEN from npm"
npm install --prefix "$dir/binaryen" --no-audit --no-fund --loglevel=error "binaryen@$BINARYEN" || fail "npm install binaryen@$BINARYEN"
# npm's binaryen tools are JavaScript; emcc runs BINARYEN_ROOT/bin/<tool> as a program
mkdir -p "$dir/binaryen-root/bin"
for tool in "$dir/binaryen/node_modules/binaryen/bin/"*; do
  name=$(basename "$tool")
  printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$node_bin" "$tool" > "$dir/binaryen-root/bin/$name"
  chmod +x "$dir/binaryen-root/bin/$name"
done

cat > "$dir/em_config.py" <<EOF
LLVM_ROOT = '$LLVM_BIN'
BINARYEN_ROOT = '$dir/binaryen-root'
NODE_JS = '$node_bin'
CACHE = '$dir/cache'
EOF

step "a first build (fills Emscripten's library cache, a few minutes)"
# (emcc writes CommonJS, which the repository's package.json would have Node read as a module)
echo '{ "type": "commonjs" }' > "$dir/package.json"
printf '#include <stdio.h>\nint main(void) { puts("peer ok"); return 0; }\n' > "$dir/check.c"
EM_CONFIG="$dir/em_config.py" "$dir/emscripten/emcc" -O2 -pthread "$dir/check.c" -o "$dir/check.js" || fail "emcc of a hello world"
[ "$("$node_bin" "$dir/check.js")" = "peer ok" ] || fail "the checked build did not print 'peer ok'"
touch "$stamp"
step "done: $dir"
