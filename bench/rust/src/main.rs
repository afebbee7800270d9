//! `rust-bench churn THREADS ITERS`: each thread churns Vec/Box/String/format! allocations
//! (the work grows with the threads). `rust-bench rayon THREADS N`: a rayon par_iter sum over
//! 0..N on a pool of THREADS (fixed work). Both print `RESULT {"ms":...}`.
use rayon::prelude::*;
use std::time::Instant;

fn churn_thread(seed: usize, iters: usize) -> usize {
    let mut keep: Vec<String> = Vec::with_capacity(64);
    let mut total = 0;
    for i in 0..iters {
        let s = format!("item {} of thread {}", i, seed);
        let boxed: Box<[u64]> = vec![i as u64; 1 + (i + seed) % 48].into_boxed_slice();
        let mut v: Vec<u32> = Vec::new();
        v.extend((0..(i % 32) as u32).map(|x| x ^ seed as u32));
        total += s.len() + boxed.len() + v.len();
        if keep.len() == 64 {
            keep.swap_remove(i % 64);
        }
        keep.push(s);
    }
    total + keep.len()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (what, threads, n) = (args[1].as_str(), args[2].parse::<usize>().unwrap(), args[3].parse::<u64>().unwrap());
    // rayon's pool is built and its threads started before the clock starts: the sum is
    // measured, not thread creation.
    let pool = (what == "rayon").then(|| rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap());
    pool.as_ref().map(|p| p.broadcast(|_| ()));
    let start = Instant::now();
    let check = match what {
        "churn" => {
            let handles: Vec<_> = (0..threads)
                .map(|t| std::thread::spawn(move || churn_thread(t, n as usize)))
                .collect();
            handles.into_iter().map(|h| h.join().unwrap() as u64).sum::<u64>()
        }
        "rayon" => {
            pool.unwrap().install(|| (0..n).into_par_iter().map(|x| ((x as f64).sqrt() as u64) ^ (x.wrapping_mul(0x9e37_79b9) >> 7)).sum())
        }
        _ => panic!("unknown workload {what}"),
    };
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    println!("RESULT {{\"ms\":{ms:.3},\"threads\":{threads},\"check\":{check}}}");
}
