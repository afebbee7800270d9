//! Spindle's runtime seen from Rust programs built with `spindle cargo` (docs/RUST.md).
//!
//! On `wasm32-wasip1-threads`, `std::thread::available_parallelism()` is always `Unsupported`:
//! std does not ask libc. Spindle's runtime answers `sysconf(_SC_NPROCESSORS_ONLN)` with the
//! host's real core count, so this crate asks there. Elsewhere it is std's answer.

use std::num::NonZeroUsize;

#[cfg(all(target_family = "wasm", target_os = "wasi"))]
fn cores() -> Option<usize> {
    // wasi-libc numbers sysconf's names as musl does.
    const SC_NPROCESSORS_ONLN: i32 = 84;
    extern "C" {
        fn sysconf(name: i32) -> isize;
    }
    // SAFETY: sysconf takes an int and reads nothing else.
    let n = unsafe { sysconf(SC_NPROCESSORS_ONLN) };
    usize::try_from(n).ok().filter(|&n| n > 0)
}

#[cfg(not(all(target_family = "wasm", target_os = "wasi")))]
fn cores() -> Option<usize> {
    std::thread::available_parallelism().ok().map(NonZeroUsize::get)
}

/// How many threads can run at once: the host's core count under Spindle (1 in a module
/// linked without Spindle's runtime, whose libc answers 1).
pub fn available_parallelism() -> NonZeroUsize {
    cores().and_then(NonZeroUsize::new).unwrap_or(NonZeroUsize::MIN)
}

/// A rayon pool with one thread per core. `spindle cargo` builds already set
/// RAYON_NUM_THREADS, so rayon's global pool has this size without any code; this is for
/// programs that build their own pools or run elsewhere.
#[cfg(feature = "rayon")]
pub fn rayon_pool() -> Result<rayon::ThreadPool, rayon::ThreadPoolBuildError> {
    rayon::ThreadPoolBuilder::new().num_threads(available_parallelism().get()).build()
}

/// Sizes rayon's global pool to the core count (before its first use).
#[cfg(feature = "rayon")]
pub fn init_rayon() -> Result<(), rayon::ThreadPoolBuildError> {
    rayon::ThreadPoolBuilder::new().num_threads(available_parallelism().get()).build_global()
}
