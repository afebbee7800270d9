#!/usr/bin/env bash
# Builds the host-directory mount's Node-API addon (host/mount/hostdir/addon/*.c) into
# .toolchain/mount-addon/mount_at.node with the system clang, against the Node-API header of
# Debian's nodejs package (no node-gyp: one compile). Idempotent: rebuilt only when
# its sources are newer. Without the header it says so and builds nothing: the backend then uses
# its node:fs path (docs/MOUNTS.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/versions.env"
addon="$root/host/mount/hostdir/addon"
wire="$root/runtime/fs/mount/mount_wire.h" # the protocol's stat layout, which the addon writes
out="$root/.toolchain/mount-addon/mount_at.node"
header=/usr/include/node/node_api.h
if [ ! -f "$header" ]; then
  echo "[mount-addon] $header missing (Debian package nodejs): host-directory mounts use node:fs only"
  exit 0
fi
if [ -f "$out" ] && [ -z "$(find "$addon" "$wire" -newer "$out" | head -1)" ]; then exit 0; fi
mkdir -p "$(dirname "$out")"
"clang-$CLANG_MAJOR" -O2 -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden \
  -DNAPI_VERSION=8 -I/usr/include/node -o "$out.part" "$addon"/*.c
mv "$out.part" "$out"
