//! The checks of tests/rust.test.js: `checks <name> [args]` runs one and prints what it saw.
use rayon::prelude::*;
use std::collections::BTreeSet;
use std::ffi::CString;
use std::fs;
use std::io::{Read, Write};
use std::sync::{mpsc, Arc, Barrier, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

extern "C" {
    fn shout_file(from: *const std::ffi::c_char, to: *const std::ffi::c_char) -> std::ffi::c_long;
}

/// Mutex-protected counter, a Barrier all threads pass, and a Condvar the main thread waits on.
fn sync_primitives() {
    const THREADS: usize = 4;
    const ROUNDS: usize = 10_000;
    let counter = Arc::new(Mutex::new(0usize));
    let barrier = Arc::new(Barrier::new(THREADS));
    let done = Arc::new((Mutex::new(0usize), Condvar::new()));
    let handles: Vec<_> = (0..THREADS)
        .map(|_| {
            let (counter, barrier, done) = (counter.clone(), barrier.clone(), done.clone());
            thread::spawn(move || {
                barrier.wait();
                for _ in 0..ROUNDS {
                    *counter.lock().unwrap() += 1;
                }
                let (finished, cv) = &*done;
                *finished.lock().unwrap() += 1;
                cv.notify_one();
            })
        })
        .collect();
    let (finished, cv) = &*done;
    let all = cv.wait_while(finished.lock().unwrap(), |n| *n < THREADS).unwrap();
    drop(all);
    handles.into_iter().for_each(|h| h.join().unwrap());
    println!("sync counter={} expected={}", *counter.lock().unwrap(), THREADS * ROUNDS);
}

/// Several producers into one mpsc channel, a sync_channel ping-pong.
fn channels() {
    let (tx, rx) = mpsc::channel::<u64>();
    let producers: Vec<_> = (0..4u64)
        .map(|p| {
            let tx = tx.clone();
            thread::spawn(move || (0..1000u64).for_each(|i| tx.send(p * 1000 + i).unwrap()))
        })
        .collect();
    drop(tx);
    let sum: u64 = rx.iter().sum();
    producers.into_iter().for_each(|h| h.join().unwrap());
    let (ping_tx, ping_rx) = mpsc::sync_channel::<u32>(0);
    let (pong_tx, pong_rx) = mpsc::sync_channel::<u32>(0);
    let echo = thread::spawn(move || ping_rx.iter().for_each(|v| pong_tx.send(v + 1).unwrap()));
    let mut v = 0;
    for _ in 0..100 {
        ping_tx.send(v).unwrap();
        v = pong_rx.recv().unwrap();
    }
    drop(ping_tx);
    echo.join().unwrap();
    println!("channels sum={} expected={} pingpong={}", sum, (0..4000u64).sum::<u64>(), v);
}

/// rayon's global pool (sized by RAYON_NUM_THREADS, which spindle cargo builds set) and the
/// threads that really ran the work.
fn rayon_sum() {
    let sum: u64 = (0..2_000_000u64).into_par_iter().map(|x| x % 7).sum();
    let workers: BTreeSet<usize> = (0..10_000)
        .into_par_iter()
        .map(|_| {
            thread::sleep(Duration::from_micros(50));
            rayon::current_thread_index().unwrap_or(usize::MAX)
        })
        .collect();
    let own = spindle::rayon_pool().unwrap();
    println!(
        "rayon sum={} pool={} cores={} own_pool={} workers_used={}",
        sum,
        rayon::current_num_threads(),
        spindle::available_parallelism(),
        own.current_num_threads(),
        workers.len()
    );
}

/// create, write, read, rename, read_dir, metadata, remove: each thread in its own directory,
/// all threads in one shared one.
fn files(root: &str) {
    const THREADS: usize = 4;
    fs::create_dir_all(format!("{root}/shared")).unwrap();
    let handles: Vec<_> = (0..THREADS)
        .map(|t| {
            let root = root.to_string();
            thread::spawn(move || {
                let dir = format!("{root}/t{t}");
                fs::create_dir(&dir).unwrap();
                for i in 0..20 {
                    let path = format!("{dir}/f{i}.txt");
                    let mut f = fs::File::create(&path).unwrap();
                    write!(f, "thread {t} file {i}").unwrap();
                    drop(f);
                    let mut text = String::new();
                    fs::File::open(&path).unwrap().read_to_string(&mut text).unwrap();
                    assert_eq!(text, format!("thread {t} file {i}"));
                    fs::rename(&path, format!("{dir}/g{i}.txt")).unwrap();
                }
                fs::write(format!("{root}/shared/from{t}"), vec![b'x'; 1000 * (t + 1)]).unwrap();
                let mut names: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
                names.sort();
                assert_eq!(names.len(), 20);
                assert!(names.iter().all(|n| n.to_string_lossy().starts_with('g')));
                for n in names {
                    let path = format!("{dir}/{}", n.to_string_lossy());
                    assert!(fs::metadata(&path).unwrap().len() > 0);
                    fs::remove_file(&path).unwrap();
                }
                fs::remove_dir(&dir).unwrap();
            })
        })
        .collect();
    handles.into_iter().for_each(|h| h.join().unwrap());
    let mut sizes: Vec<u64> = fs::read_dir(format!("{root}/shared"))
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .collect();
    sizes.sort();
    let left = fs::read_dir(root).unwrap().count();
    fs::remove_dir_all(format!("{root}/shared")).unwrap();
    let missing = fs::metadata(format!("{root}/shared")).unwrap_err().kind();
    println!("files sizes={sizes:?} entries_left={left} after_remove={missing:?}");
}

/// Rust writes, C (through the cc crate) reads with fopen and writes back, Rust reads.
fn c_files() {
    fs::create_dir_all("/c").unwrap();
    fs::write("/c/in.txt", "hello from rust").unwrap();
    let (from, to) = (CString::new("/c/in.txt").unwrap(), CString::new("/c/out.txt").unwrap());
    // SAFETY: two NUL-terminated paths; shout_file reads and writes files only.
    let n = unsafe { shout_file(from.as_ptr(), to.as_ptr()) };
    println!("c-files wrote={} text={}", n, fs::read_to_string("/c/out.txt").unwrap());
}

/// A panic in a spawned thread: the program must stop with the panic's message.
fn panic_in_thread() {
    let h = thread::spawn(|| panic!("worker gave up on purpose"));
    let _ = h.join();
    println!("still running after the panic");
}

/// Reads every file under `dir` (a mount or a preload) and writes `dir/written.txt` if asked.
fn read_tree(dir: &str, write: bool) {
    let mut names: Vec<_> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    names.sort();
    for path in names.iter().filter(|p| p.is_file()) {
        println!("{} = {}", path.display(), fs::read_to_string(path).unwrap().trim_end());
    }
    if write {
        fs::write(format!("{dir}/written.txt"), "written by rust").unwrap();
    }
}

/// Sleeps (std's sleep is a poll_oneoff clock subscription) and reports how long it took.
fn sleep_ms(ms: u64) {
    let start = Instant::now();
    thread::sleep(Duration::from_millis(ms));
    println!("slept at_least={}", start.elapsed() >= Duration::from_millis(ms));
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("sync") => sync_primitives(),
        Some("channels") => channels(),
        Some("rayon") => rayon_sum(),
        Some("files") => files(args.get(2).map_or("/tmp/files", String::as_str)),
        Some("c-files") => c_files(),
        Some("panic") => panic_in_thread(),
        Some("read-tree") => read_tree(&args[2], args.get(3).is_some_and(|a| a == "write")),
        Some("sleep") => sleep_ms(args[2].parse().unwrap()),
        other => {
            eprintln!("unknown check {other:?}");
            std::process::exit(2);
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn threads_add_up() {
        let sum: u64 = (0..4u64).map(|t| std::thread::spawn(move || t * 10)).map(|h| h.join().unwrap()).sum();
        assert_eq!(sum, 60);
    }

    #[test]
    fn files_work_in_tests() {
        std::fs::write("/tmp/in-test.txt", "abc").unwrap();
        assert_eq!(std::fs::read_to_string("/tmp/in-test.txt").unwrap(), "abc");
    }
}
