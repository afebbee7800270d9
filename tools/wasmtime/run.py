#!/usr/bin/env python3
"""Runs a wasm32-wasip1-threads command under wasmtime (wasmtime-py from PyPI), the standard WASI
host the portable build is tested under (docs/PORTABLE.md). wasmtime-py's WASI has no
wasi-threads, so thread-spawn is here: each thread is a Python thread with its own store,
instance and WASI context (so its own fd table: the preopens, and fds 0-2), on the one shared
memory, entered at the module's wasi_thread_start(tid, arg).

    PYTHONPATH=.toolchain/wasmtime-py python3 tools/wasmtime/run.py [--dir=GUEST=HOST]... app.wasm [args...]

Exit status: the program's. wasmtime runs no legacy Wasm exception handling, so modules with
C++ exceptions or setjmp (or a portable module whose program calls pthread_exit) fail to compile.
"""
import itertools
import os
import sys
import threading

import wasmtime
from wasmtime import _ffi as ffi


def share_memory_fix():
    # wasmtime-py 49 and 50 wrap a SharedMemory's pointer once too often when linking it (a
    # TypeError): hand it over as the C API expects.
    def as_extern(memory):
        union = ffi.wasmtime_extern_union(sharedmemory=memory.ptr())
        return ffi.wasmtime_extern_t(ffi.WASMTIME_EXTERN_SHAREDMEMORY, union)

    wasmtime.SharedMemory._as_extern = as_extern


def parse(argv):
    dirs = []
    while argv and argv[0].startswith('--dir='):
        guest, _, host = argv.pop(0)[len('--dir='):].partition('=')
        if not host:
            sys.exit('--dir=GUEST=HOST: both paths are needed')
        dirs.append((guest, host))
    if not argv:
        sys.exit(__doc__)
    return dirs, argv


def main():
    dirs, argv = parse(sys.argv[1:])
    share_memory_fix()
    config = wasmtime.Config()
    config.wasm_threads = True
    config.shared_memory = True
    engine = wasmtime.Engine(config)
    module = wasmtime.Module.from_file(engine, argv[0])
    memory_import = next(i for i in module.imports if i.module == 'env' and i.name == 'memory')
    memory = wasmtime.SharedMemory(engine, memory_import.type)
    thread_ids = itertools.count(1)

    def new_instance():
        store = wasmtime.Store(engine)
        wasi = wasmtime.WasiConfig()
        wasi.argv = [os.path.basename(argv[0]), *argv[1:]]
        wasi.inherit_stdin()
        wasi.inherit_stdout()
        wasi.inherit_stderr()
        for guest, host in dirs:
            wasi.preopen_dir(host, guest)
        store.set_wasi(wasi)
        linker = wasmtime.Linker(engine)
        linker.define_wasi()
        linker.define(store, 'env', 'memory', memory)
        spawn_type = wasmtime.FuncType([wasmtime.ValType.i32()], [wasmtime.ValType.i32()])
        linker.define_func('wasi', 'thread-spawn', spawn_type, spawn)
        return store, linker.instantiate(store, module)

    def run(entry, *args):
        store, instance = new_instance()
        try:
            instance.exports(store)[entry](store, *args)
            return 0
        except wasmtime.ExitTrap as exit_trap:  # proc_exit, from any thread, ends the program
            return exit_trap.code
        except wasmtime.Trap as trap:
            sys.stderr.write(f'wasmtime: trap: {trap.message}\n')
            return 134

    def spawn(start_arg):
        tid = next(thread_ids)

        def thread():
            code = run('wasi_thread_start', tid, start_arg)
            if code:
                finish(code)

        threading.Thread(target=thread, daemon=True).start()
        return tid

    def finish(code):
        sys.stdout.flush()
        os._exit(code)

    finish(run('_start'))


main()
