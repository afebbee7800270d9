#!/usr/bin/env bash
# The 16-core scaling sweep of docs/PERFORMANCE.md, for a machine that has neither the toolchain
# nor Node (a lent benchmark machine). Two steps:
#   scripts/device-bench.sh pack            here: build the sweep's programs into build/bench, the
#                                           run bundle (build/bundle) and a gzipped copy of this
#                                           Node into build/device; prints the paths to carry over
#   scripts/device-bench.sh run OUT [EXPERIMENT_REGEX] [bench options...]
#                                           there, from the checkout's root: unpack Node, run the
#                                           sweep with --prebuilt, results into OUT
# Node's binary (~95 MiB) is gzipped so that it and the programs fit in a 64 MiB transfer.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
experiments=(malloc-reference fs-stdio-files fs-own-files fs-shared-pread fs-path-lookups)
all_regex="^($(IFS='|'; echo "${experiments[*]}"))\$"

case "${1:-}" in
  pack)
    node_bin=$(command -v node) || { echo "device-bench pack: node is not on PATH" >&2; exit 1; }
    "$root/bin/spindle" bench --build-only --only="$all_regex"
    node "$root/scripts/build-run-bundle.js" # current, so that the runs there time what users run
    mkdir -p "$root/build/device"
    gzip -c "$node_bin" > "$root/build/device/node.gz.tmp"
    mv "$root/build/device/node.gz.tmp" "$root/build/device/node.gz"
    echo "carry (relative to the checkout's root):"
    for e in "${experiments[@]}"; do echo "  build/bench/$e"; done
    echo "  build/device build/bundle .toolchain/mount-addon .toolchain/code-cache-addon"
    du -ch "$root/build/device" "${experiments[@]/#/$root/build/bench/}" | tail -1
    ;;
  run)
    out=${2:?usage: scripts/device-bench.sh run OUT [EXPERIMENT_REGEX] [bench options...]}
    only=${3:-$all_regex}
    shift $(($# < 3 ? $# : 3))
    [ -f "$root/build/device/node.gz" ] || { echo "device-bench run: build/device/node.gz is missing (run 'pack' first and carry build/device)" >&2; exit 1; }
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    gunzip -c "$root/build/device/node.gz" > "$tmp/node"
    chmod +x "$tmp/node"
    echo "machine: $(nproc) cores; $(uname -sr); $("$tmp/node" --version)"
    # The copy there has new mtimes, so the run bundle that pack made would look older than its
    # modules (and the bench would remake it with esbuild, which is not there): record the
    # copies' mtimes where the sizes are as packed.
    "$tmp/node" -e '
      const { readFileSync, statSync, writeFileSync } = require("node:fs");
      const file = process.argv[1] + "/build/bundle/inputs.json";
      const record = JSON.parse(readFileSync(file, "utf8"));
      const restamp = (dir) => (f) => { const st = statSync(process.argv[1] + "/" + dir + f.path); if (st.size === f.size) f.mtimeMs = st.mtimeMs; };
      record.inputs.forEach(restamp(""));
      record.outputs.forEach(restamp("build/bundle/"));
      writeFileSync(file, JSON.stringify(record));' "$root"
    # The browser series need Chromium, which such a machine lacks; npm's WASI host is not
    # part of the sweep (docs/PERFORMANCE.md).
    "$tmp/node" "$root/bin/spindle" bench --prebuilt --node --threads=1,2,4,8,16 --runs=5 \
      --only="$only" --variants='^(?!npm-wasi)' --out="$out" "$@"
    # Small modules used to compile lazily, on the thread that first calls a function (the first
    # pthread_create then took ~6 ms inside the timed part, 2-core VM); eager is the default now,
    # and this explicit run stays for comparison with earlier sweeps.
    if [[ "malloc-reference" =~ $only ]]; then
      wasm="$root/build/bench/malloc-reference/spindle.wasm"
      echo "Spindle malloc, --compile=eager, median of 3 (ms):" | tee "$out/malloc-reference-eager.txt"
      for t in 1 2 4 8 16; do
        ms=$(for r in 1 2 3; do
          "$tmp/node" "$root/bin/spindle" run --compile=eager --wait-for-pool "$wasm" "$t" 40000000 |
            sed -n 's/^RESULT .*"ms":\([0-9.]*\).*/\1/p'
        done | sort -n | sed -n 2p)
        echo "  $t threads: $ms" | tee -a "$out/malloc-reference-eager.txt"
      done
    fi
    ;;
  *)
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
