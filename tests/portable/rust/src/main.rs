//! The Rust program of tests/portable.test.js: std threads filling vectors (allocation from
//! several threads) under a Mutex-guarded total, and a file in the preopened directory (the
//! first argument) written, read back and listed.
use std::sync::{Arc, Mutex};

fn main() {
    let total = Arc::new(Mutex::new(0u64));
    let workers: Vec<_> = (0..3u64)
        .map(|t| {
            let total = Arc::clone(&total);
            std::thread::spawn(move || {
                let words: Vec<String> = (0..2000u64).map(|i| (i * (t + 1)).to_string()).collect();
                *total.lock().unwrap() += words.iter().map(|w| w.len() as u64).sum::<u64>();
            })
        })
        .collect();
    for worker in workers {
        worker.join().unwrap();
    }
    println!("digits: {}", total.lock().unwrap());
    if let Some(dir) = std::env::args().nth(1) {
        let path = format!("{dir}/rust.txt");
        std::fs::write(&path, "written by Rust\n").unwrap();
        print!("read back: {}", std::fs::read_to_string(&path).unwrap());
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        println!("listed: {names:?}");
    }
}
