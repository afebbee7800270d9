// runtime/fs and host/mount keep their layers (scripts/check-layers.js; docs/DESIGN.md, "Layers"):
// no file includes or imports one of a layer above its own or beside it, and the check does find
// such a file. The runtime declares spindle.* and WASI imports only in their seam headers.
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

describe('layers of runtime/fs and host/mount', () => {
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
    });
    assert.deepEqual(layerViolations(scratch), [
      'runtime/fs/core/inode.c:2: the core layer uses ../ops/fs_ops.h, of the ops layer above it',
      'runtime/fs/special/pipe.c:2: the special layer uses ../mount/fs_mount.h, of the mount layer beside it',
      'runtime/fs/stray.c: in no layer (add its folder to scripts/check-layers.js)',
      'host/mount/hostdir/hostdir.js:2: the hostdir layer uses ../opfs/opfs.js, of the opfs layer beside it',
      'host/mount/mailbox.js:1: the shared protocol layer uses ./hostdir/hostdir.js, of the hostdir layer above it',
      'host/mount/opfs/opfs.js:1: the opfs layer uses ../index.js, of the registry layer above it',
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
