// C++ exceptions and setjmp/longjmp for `spindle cc` (docs/PORTING.md). Both use Wasm exception
// handling in the legacy encoding (try/catch/rethrow, what Node 20 and Chromium run).
// C++ is compiled with -fwasm-exceptions unless the command line says -fno-exceptions; every
// compile gets clang's setjmp/longjmp lowering, which changes only functions that call setjmp.
import { join } from 'node:path';
import { sysroot, target } from '../common/toolchain.js';

const sjljFlags = ['-mllvm', '-wasm-enable-sjlj'];
// libsetjmp.a (runtime/setjmp) holds the lowering's runtime functions; an archive adds
// nothing to a module that does not call them.
const sjljLibs = ['-lsetjmp'];
// The -fno-exceptions builds of libc++/libc++abi (scripts/build-libcxx.sh); -L dirs come before
// the sysroot's own, so these shadow the default (exception-enabled) ones.
const noExceptionsLibDir = join(sysroot, 'lib', target, 'noeh');

/** Whether C++ exceptions are on: the last of -f[no-]exceptions / -f[no-]cxx-exceptions wins. */
export function exceptionsEnabled(clangArgs) {
  const last = clangArgs.findLast((a) => /^-f(no-)?(cxx-)?exceptions$/.test(a));
  return !last || !last.startsWith('-fno-');
}

/** Flags for compiling sources. */
export function exceptionCompileFlags({ cxx, clangArgs }) {
  return cxx && exceptionsEnabled(clangArgs) ? ['-fwasm-exceptions', ...sjljFlags] : sjljFlags;
}

// What the host needs to hand an exception nobody caught to std::terminate
// (host/threads/cxx-exceptions.js); defined only in modules that use C++ exceptions.
const uncaughtExports = ['-Wl,--export-if-defined=__cpp_exception,--export-if-defined=__spindle_uncaught_exception'];

/** Flags for linking a module. */
export function exceptionLinkFlags({ cxx, clangArgs }) {
  if (!cxx) return sjljLibs;
  return exceptionsEnabled(clangArgs) ? [...uncaughtExports, ...sjljLibs] : [`-L${noExceptionsLibDir}`, ...sjljLibs];
}

// What clang and wasm-ld say when code needs exceptions that this command line turned off.
const exceptionsOffMessage = new RegExp([
  "cannot use '(try|throw)' with exceptions disabled",
  'undefined symbol: (__cxa_(allocate_exception|throw|begin_catch|end_catch|rethrow)|__gxx_personality|_Unwind_)',
].join('|'));

/** A line naming the switch when `stderr` shows code that needs exceptions while they are off. */
export function exceptionsOffHint(stderr, clangArgs) {
  if (exceptionsEnabled(clangArgs) || !exceptionsOffMessage.test(stderr)) return null;
  return 'spindle: C++ exceptions are off because the command line has -fno-exceptions; ' +
    'remove it (spindle c++ enables exceptions by default, see docs/PORTING.md)\n';
}
