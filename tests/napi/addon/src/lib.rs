//! A small napi-rs addon for tests/napi.test.js and bench/napi: rayon threads, std::fs under a
//! directory the caller names, and allocation churn across rayon's threads. The same source is
//! built the way napi-rs builds wasm32-wasip1-threads packages and by `spindle cargo --host=wasi`.
use napi::bindgen_prelude::*;
use napi_derive::napi;
use rayon::prelude::*;
use std::fs;
use std::path::Path;
use std::time::Instant;

/// The threads of rayon's global pool.
#[napi]
pub fn pool_threads() -> u32 {
    rayon::current_num_threads() as u32
}

/// The sum of (i * i) % 1000003 over 0..n, by par_iter on `threads` threads; a string so any n is
/// exact.
#[napi]
pub fn parallel_sum(n: u32, threads: u32) -> Result<String> {
    let sum: u64 = pool(threads)?.install(|| {
        (0..n as u64)
            .into_par_iter()
            .map(|i| (i * i) % 1_000_003)
            .sum()
    });
    Ok(sum.to_string())
}

/// Writes `count` files `file-<i>.txt` into `dir` from `threads` threads (file i holds i + 1
/// lines), and returns the bytes written.
#[napi]
pub fn write_files(dir: String, count: u32, threads: u32) -> Result<u32> {
    fs::create_dir_all(&dir).map_err(io_error)?;
    let sizes: std::io::Result<Vec<usize>> = pool(threads)?.install(|| {
        (0..count)
            .into_par_iter()
            .map(|i| {
                let text: String = (0..=i)
                    .map(|line| format!("file {i} line {line}\n"))
                    .collect();
                fs::write(Path::new(&dir).join(format!("file-{i}.txt")), &text)?;
                Ok(text.len())
            })
            .collect()
    });
    Ok(sizes.map_err(io_error)?.iter().sum::<usize>() as u32)
}

/// What read_files found: the listing's sorted names, and the line count of each file in the same
/// order.
#[napi(object)]
pub struct DirSummary {
    pub names: Vec<String>,
    pub lines: Vec<u32>,
}

/// Lists `dir` and reads each file back from `threads` threads.
#[napi]
pub fn read_files(dir: String, threads: u32) -> Result<DirSummary> {
    let mut names = Vec::new();
    for entry in fs::read_dir(&dir).map_err(io_error)? {
        names.push(
            entry
                .map_err(io_error)?
                .file_name()
                .to_string_lossy()
                .into_owned(),
        );
    }
    names.sort();
    let lines: std::io::Result<Vec<u32>> = pool(threads)?.install(|| {
        names
            .par_iter()
            .map(|name| {
                Ok(fs::read_to_string(Path::new(&dir).join(name))?
                    .lines()
                    .count() as u32)
            })
            .collect()
    });
    Ok(DirSummary {
        names,
        lines: lines.map_err(io_error)?,
    })
}

/// What alloc_churn did: a checksum of the values it built, and its time in milliseconds.
#[napi(object)]
pub struct ChurnResult {
    pub checksum: u32,
    pub ms: f64,
}

/// Each of `threads` rayon workers (a pool of that size) runs `iterations` rounds of small
/// Vec, String and Box allocations that live briefly, as parsers and compilers do.
#[napi]
pub fn alloc_churn(threads: u32, iterations: u32) -> Result<ChurnResult> {
    let pool = pool(threads)?;
    let start = Instant::now();
    let checksum = pool
        .broadcast(|ctx| churn(ctx.index() as u32, iterations))
        .into_iter()
        .fold(0u32, u32::wrapping_add);
    Ok(ChurnResult {
        checksum,
        ms: start.elapsed().as_secs_f64() * 1000.0,
    })
}

fn churn(seed: u32, iterations: u32) -> u32 {
    let mut checksum = seed;
    // A few live values at a time, replaced in turn, so frees interleave with allocations.
    let mut kept: Vec<Box<[u32]>> = (0..16).map(|_| Box::new([0u32; 4]) as Box<[u32]>).collect();
    for i in 0..iterations {
        let size = 4 + (i.wrapping_mul(2654435761) >> 26) as usize; // 4..67 words
        let values: Vec<u32> = (0..size as u32).map(|k| k ^ i).collect();
        let text = format!("{seed}:{i}:{}", values.len());
        checksum = checksum
            .wrapping_mul(31)
            .wrapping_add(values[size / 2])
            .wrapping_add(text.len() as u32);
        kept[(i % 16) as usize] = values.into_boxed_slice();
    }
    kept.iter()
        .fold(checksum, |sum, values| sum.wrapping_add(values[0]))
}

/// A rayon pool of its own, so the thread count is the caller's on every host (the global pool
/// has one thread under a plain wasm build, where std cannot count cores).
fn pool(threads: u32) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads as usize)
        .build()
        .map_err(|e| Error::from_reason(e.to_string()))
}

fn io_error(e: std::io::Error) -> Error {
    Error::from_reason(e.to_string())
}
