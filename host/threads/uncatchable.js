// Errors the host throws through wasm frames to end a thread (exit(), a program that ended on
// another thread) must pass C++ code untouched. Legacy Wasm exception handling's catch_all
// catches JavaScript exceptions too, and clang uses it for destructors (catch_all, run them,
// rethrow) and for noexcept functions (catch_all, std::terminate): exit() would run local
// destructors, and inside a noexcept function print "terminating" after the exit status was
// set. V8 never lets wasm catch the error object of a trap, a mark kept on the object itself;
// so the host gives the thread-ending error a trap's error object to travel in.

// (module (func (export "trap") unreachable))
const trapModuleBytes = Uint8Array.of(0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0,
  7, 8, 1, 4, 116, 114, 97, 112, 0, 0, 10, 5, 1, 3, 0, 0, 11);
let trap = null;

/** `err`, carried by an object wasm cannot catch (where the engine has such objects). */
export function uncatchableByWasm(err) {
  trap ??= new WebAssembly.Instance(new WebAssembly.Module(trapModuleBytes)).exports.trap;
  try {
    trap();
  } catch (carrier) {
    Object.setPrototypeOf(carrier, Object.getPrototypeOf(err));
    Object.assign(carrier, err);
    Object.defineProperty(carrier, 'message', { value: err.message, configurable: true, writable: true });
    return carrier;
  }
  return err;
}
