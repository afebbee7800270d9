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

/// Several producers into one mpsc channel; with `blocking`, the receiver waits for them (and a
/// sync_channel ping-pong), otherwise it drains the channel after they finished.
fn channels(blocking: bool) {
    let (tx, rx) = mpsc::channel::<u64>();
    let producers: Vec<_> = (0..4u64)
        .map(|p| {
            let tx = tx.clone();
            thread::spawn(move || (0..1000u64).for_each(|i| tx.send(p * 1000 + i).unwrap()))
        })
        .collect();
    drop(tx);
    if !blocking {
        producers.into_iter().for_each(|h| h.join().unwrap());
        let sum: u64 = rx.iter().sum();
        println!("channels sum={} expected={}", sum, (0..4000u64).sum::<u64>());
        return;
    }
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

// A direct WASI import, as mio and the `wasi` crate declare them: spindle cargo binds it to
// the runtime's poll_oneoff, which knows Spindle's fds.
#[link(wasm_import_module = "wasi_snapshot_preview1")]
extern "C" {
    #[link_name = "poll_oneoff"]
    fn wasi_poll_oneoff(subs: *const u8, events: *mut u8, n: u32, nevents: *mut u32) -> u16;
}

/// A 48-byte WASI subscription: an fd (tag 1 read, 2 write) or a relative clock (tag 0).
fn subscription(userdata: u64, tag: u8, fd_or_clock: u32, timeout_ns: u64) -> [u8; 48] {
    let mut s = [0u8; 48];
    s[0..8].copy_from_slice(&userdata.to_le_bytes());
    s[8] = tag;
    s[16..20].copy_from_slice(&fd_or_clock.to_le_bytes());
    s[24..32].copy_from_slice(&timeout_ns.to_le_bytes());
    s
}

/// poll_oneoff on a file of the tree with a 10 s clock beside it: the file is ready at once;
/// then a clock alone: it fires.
fn poll_file() {
    use std::os::fd::AsRawFd;
    fs::write("/tmp/poll.txt", "0123456789").unwrap();
    let mut f = fs::File::open("/tmp/poll.txt").unwrap();
    f.read_exact(&mut [0u8; 3]).unwrap();
    let poll = |subs: &[[u8; 48]]| {
        let mut events = vec![0u8; 32 * subs.len()];
        let mut n = 0u32;
        let start = Instant::now();
        // SAFETY: subs.len() subscriptions in, room for as many events out.
        let err = unsafe { wasi_poll_oneoff(subs.as_ptr().cast(), events.as_mut_ptr(), subs.len() as u32, &mut n) };
        let ev = |i: usize| {
            let e = &events[32 * i..32 * i + 32];
            let word = |a: usize| u64::from_le_bytes(e[a..a + 8].try_into().unwrap());
            format!("{}:type{}:err{}:nbytes{}", word(0), e[10], u16::from_le_bytes([e[8], e[9]]), word(16))
        };
        (err, (0..n as usize).map(ev).collect::<Vec<_>>(), start.elapsed())
    };
    let fd = f.as_raw_fd() as u32;
    let (err, events, took) = poll(&[subscription(7, 1, fd, 0), subscription(8, 0, 1, 10_000_000_000)]);
    println!("poll-file err={err} events={events:?} quick={}", took < Duration::from_secs(5));
    let (err, events, took) = poll(&[subscription(9, 0, 1, 30_000_000)]);
    println!("poll-clock err={err} events={events:?} waited={}", took >= Duration::from_millis(30));
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("sync") => sync_primitives(),
        Some("channels") => channels(false),
        Some("channels-blocking") => channels(true),
        Some("poll") => poll_file(),
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
