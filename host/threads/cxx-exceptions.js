// A C++ exception that no handler caught leaves the wasm module as a WebAssembly.Exception:
// Wasm unwinds in one phase, so libc++abi never sees that nothing will catch it. Handing it
// back to the module's std::terminate (runtime/exceptions/cpp_exception.cpp) prints the
// exception's type and what() and aborts, as a native program does (docs/PORTING.md).

/** Returns the error that ended the thread: `err`, or the trap of std::terminate's abort. */
export function terminateIfUncaughtCxx(instance, err) {
  const tag = instance?.exports.__cpp_exception;
  const terminate = instance?.exports.__spindle_uncaught_exception;
  if (!(err instanceof WebAssembly.Exception) || !tag || !terminate || !err.is(tag)) return err;
  try {
    terminate(err.getArg(tag, 0));
  } catch (abortTrap) {
    return abortTrap;
  }
  return err;
}
