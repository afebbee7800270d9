// runtime/fs, host/mount, host/ and cli/ keep their layers (scripts/check-layers.js; docs/DESIGN.md,
// "Layers" and "Module map"): no file includes or imports one of a layer above its own or beside it,
// bench/, cli/ and host/ reach into each other only where a border allows, and the check does find
// each kind of offence. The runtime declares spindle.* and WASI imports only in their seam headers.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { layerViolations, seamViolations } from '../scripts/check-layers.js';

const root = join(import.meta.dirname, '..');
const scratch = join(root, 'build', 'tests', 'layers');

function writeTree(files) {
  rmSync(scratch, { recursive: true, force: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(scratch, path)), { recursive: true });
    writeFileSync(join(scratch, path), text);
  }
}

describe('layers of runtime/fs, host/mount, host/ and cli/', () => {
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('no file uses a layer above or beside its own', () => {
    assert.deepEqual(layerViolations(root), []);
  });

  it('names an upward include, a sibling include, an upward import and a file in no layer', () => {
    writeTree({
      'runtime/fs/core/fs_core.h': '#include "../../include/spindle/fs.h"\n',
      'runtime/fs/core/inode.c': '#include "fs_core.h"\n#include "../ops/fs_ops.h"\n',
      'runtime/fs/special/pipe.c': '#include "../core/fs_core.h"\n#include "../mount/fs_mount.h"\n',
      'runtime/fs/ops/ops_io.c': '#include "../special/fs_special.h"\n#include "../mount/fs_mount.h"\n',
      'runtime/fs/stray.c': '#include "core/fs_core.h"\n',
      'host/mount/mailbox.js': "import { client } from './hostdir/hostdir.js';\n",
      'host/mount/hostdir/hostdir.js': "import { serve } from '../mailbox.js';\nimport { x } from '../opfs/opfs.js';\n",
      'host/mount/opfs/opfs.js': "const w = new URL('../index.js', import.meta.url);\n",
      'host/mount/index.js': "await import('./opfs/opfs.js');\n",
      'host/threads/control.js': "import { p } from '../program/program.js';\nimport { a } from '../abi/wasi.js';\n",
      'host/files/client.js': "import { m } from '../mount/index.js';\n",
      'host/index.js': "import { u } from '../cli/common/usage.js';\n",
      'cli/build/cc.js': "import { r } from '../run/run.js';\n",
      'cli/browser/chromium.js': "import { c } from '../build/cc.js';\nimport { o } from '../common/options.js';\n",
      'cli/run/run.js': "import { e } from '../../bench/experiments.js';\n",
      'cli/bench/bench.js': "import { e } from '../../bench/experiments.js';\n",
      'bench/opfs/raw.js': "import { r } from '../../cli/run/run.js';\nimport { s } from '../../cli/browser/isolated-server.js';\n",
    });
    assert.deepEqual(layerViolations(scratch), [
      'runtime/fs/core/inode.c:2: the core layer uses ../ops/fs_ops.h, of the ops layer above it',
      'runtime/fs/special/pipe.c:2: the special layer uses ../mount/fs_mount.h, of the mount layer beside it',
      'runtime/fs/stray.c: in no layer (add its folder to scripts/check-layers.js)',
      'host/mount/hostdir/hostdir.js:2: the hostdir layer uses ../opfs/opfs.js, of the opfs layer beside it',
      'host/mount/mailbox.js:1: the shared protocol layer uses ./hostdir/hostdir.js, of the hostdir layer above it',
      'host/mount/opfs/opfs.js:1: the opfs layer uses ../index.js, of the registry layer above it',
      'host/files/client.js:1: the files layer uses ../mount/index.js, of the mount layer beside it',
      'host/threads/control.js:1: the threads layer uses ../program/program.js, of the program layer above it',
      'cli/browser/chromium.js:1: the browser layer uses ../build/cc.js, of the build layer beside it',
      'cli/build/cc.js:1: the build layer uses ../run/run.js, of the run layer above it',
      'bench/opfs/raw.js:1: uses ../../cli/run/run.js, but bench/ may use cli/ only through cli/common/ and cli/browser/',
      'cli/run/run.js:1: uses ../../bench/experiments.js, but cli/ may use bench/ only from cli/bench/',
      'host/index.js:1: uses ../cli/common/usage.js, but host/ may not use cli/',
    ]);
  });
});

describe('the runtime\'s seams to its hosts', () => {
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('declares spindle.* and WASI imports only in their headers', () => {
    assert.deepEqual(seamViolations(root), []);
  });

  it('names a declaration outside its header', () => {
    const spindleImport = '__attribute__((import_module("spindle"), import_name("cpu_count"))) int f(void);\n';
    writeTree({
      'runtime/include/spindle/host_imports.h': spindleImport,
      'runtime/core/sysconf.c': `#include <unistd.h>\n${spindleImport}`,
      'runtime/wasi/wasi_host.h': '#define HOST_IMPORT(name) __attribute__((import_module("wasi_snapshot_preview1")))\n',
    });
    assert.deepEqual(seamViolations(scratch), [
      'runtime/core/sysconf.c:2: declares a spindle.* import outside runtime/include/spindle/host_imports.h',
    ]);
  });
});
