// spindle cc's switches around C++ exceptions and the wasi-emulated libraries, as a user meets
// them: -fno-exceptions builds smaller modules, a build that needs exceptions while they are off
// names the switch, and the emulated APIs stay behind their opt-in macros (docs/PORTING.md).
import assert from 'node:assert/strict';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { exec } from './lib/exec.js';

const root = join(import.meta.dirname, '..');
const spindle = join(root, 'bin', 'spindle');
const out = join(root, 'build', 'tests', 'exceptions-cli');
const noTrapAfterTerminate = /trap|wasm-function/;
const switchNamed = /C\+\+ exceptions are off because the command line has -fno-exceptions/;

function source(name, text) {
  const path = join(out, name);
  writeFileSync(path, text);
  return path;
}

describe('spindle c++ and exceptions', () => {
  before(() => mkdirSync(out, { recursive: true }));

  it('-fno-exceptions builds a smaller module that runs; a library throw then aborts', async () => {
    const hello = source('hello.cpp', '#include <iostream>\n#include <string>\n' +
      'int main(int argc, char **argv) { std::cout << "hello " << (argc > 1 ? std::stoi(argv[1]) : 0) << std::endl; }\n');
    const sizes = {};
    for (const [name, flags] of [['eh', []], ['noeh', ['-fno-exceptions']]]) {
      const wasm = join(out, `hello-${name}.wasm`);
      const r = await exec(spindle, ['c++', '-O2', ...flags, hello, '-o', wasm]);
      assert.equal(r.code, 0, r.stderr);
      sizes[name] = statSync(wasm).size;
      assert.equal((await exec(spindle, ['run', wasm, '7'])).stdout, 'hello 7\n');
    }
    assert.ok(sizes.noeh < sizes.eh, `-fno-exceptions ${sizes.noeh} B, default ${sizes.eh} B`);
    const caught = await exec(spindle, ['run', join(out, 'hello-eh.wasm'), 'x']);
    assert.equal(caught.code, 134);
    assert.match(caught.stderr, /uncaught exception of type std::invalid_argument/);
    assert.doesNotMatch(caught.stderr, noTrapAfterTerminate, 'std::terminate ends as natively: its message, then 134');
    assert.equal((await exec(spindle, ['run', join(out, 'hello-noeh.wasm'), 'x'])).code, 134);
  });

  it('an exception no thread catches ends the run with its message and 134, no trap or trace', async () => {
    const program = source('thread-throws.cpp', '#include <stdexcept>\n#include <thread>\n#include <cstdlib>\n' +
      'int main(int argc, char **) {\n  if (argc > 1) std::abort();\n' +
      '  std::thread t([] { throw std::logic_error("lost in a thread"); });\n  t.join();\n}\n');
    const wasm = join(out, 'thread-throws.wasm');
    const built = await exec(spindle, ['c++', '-O2', program, '-o', wasm]);
    assert.equal(built.code, 0, built.stderr);
    const thrown = await exec(spindle, ['run', wasm]);
    assert.equal(thrown.code, 134);
    assert.equal(thrown.stderr, 'libc++abi: terminating due to uncaught exception of type std::logic_error: lost in a thread\n');
    // abort() anywhere else still traps, so its trace shows where it was called
    const aborted = await exec(spindle, ['run', wasm, 'abort']);
    assert.equal(aborted.code, 134);
    assert.match(aborted.stderr, /trap: unreachable/);
  });

  it('names -fno-exceptions when code needs exceptions, compiling or linking', async () => {
    const thrower = source('thrower.cpp', 'int main() { try { throw 1; } catch (int) { return 0; } }\n');
    const compiled = await exec(spindle, ['c++', '-fno-exceptions', thrower, '-o', join(out, 'thrower.wasm')]);
    assert.notEqual(compiled.code, 0);
    assert.match(compiled.stderr, /cannot use 'try' with exceptions disabled/);
    assert.match(compiled.stderr, switchNamed);

    const obj = join(out, 'thrower.o');
    assert.equal((await exec(spindle, ['c++', '-c', thrower, '-o', obj])).code, 0);
    const linked = await exec(spindle, ['c++', '-fno-exceptions', obj, '-o', join(out, 'thrower.wasm')]);
    assert.notEqual(linked.code, 0);
    assert.match(linked.stderr, /undefined symbol: __cxa_/);
    assert.match(linked.stderr, switchNamed);
    assert.doesNotMatch(linked.stderr, /argument unused/);

    const fine = await exec(spindle, ['c++', obj, '-o', join(out, 'thrower.wasm')]);
    assert.equal(fine.code, 0, fine.stderr);
    assert.equal((await exec(spindle, ['run', join(out, 'thrower.wasm')])).code, 0);
  });

  it('keeps the emulated APIs behind their macros, and links them with -l; <signal.h> needs neither', async () => {
    const program = source('pid.c', '#include <signal.h>\n#include <stdio.h>\n#include <unistd.h>\n' +
      'int main(void) { signal(SIGINT, SIG_IGN); raise(SIGINT); printf("%d\\n", getpid() > 0); }\n');
    const wasm = join(out, 'pid.wasm');
    // --bare has no POSIX layer: wasi-libc's header refuses <signal.h> without the macro.
    const refused = await exec(spindle, ['cc', '--bare', program, '-o', wasm]);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /-D_WASI_EMULATED_SIGNAL and link with -lwasi-emulated-signal/);
    // The POSIX layer turns the signal emulation on (docs/POSIX.md), as Linux programs expect.
    const plain = await exec(spindle, ['cc', program, '-o', wasm]);
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal((await exec(spindle, ['run', wasm])).stdout, '1\n');
    const built = await exec(spindle, ['cc', '-D_WASI_EMULATED_SIGNAL', '-D_WASI_EMULATED_GETPID', program,
      '-lwasi-emulated-signal', '-lwasi-emulated-getpid', '-o', wasm]);
    assert.equal(built.code, 0, built.stderr);
    assert.equal((await exec(spindle, ['run', wasm])).stdout, '1\n');
  });
});
