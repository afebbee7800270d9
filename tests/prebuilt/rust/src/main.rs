//! Built by plain `cargo build` (no Spindle runtime): std::fs on a directory that
//! `spindle run --mount=/data=HOSTDIR` preopens. tests/prebuilt.test.js checks what it prints.
use std::fs;
use std::io::{Read, Seek, SeekFrom, Write};
use std::thread;

/// "read", or the WASI errno the read failed with.
fn outcome(r: std::io::Result<String>) -> String {
    match r {
        Ok(_) => "read".into(),
        Err(e) => format!("errno {}", e.raw_os_error().unwrap_or(-1)),
    }
}

fn main() {
    let root = std::env::args().nth(1).expect("usage: prebuilt-files DIR");
    fs::create_dir(format!("{root}/sub")).unwrap();
    // a file opened here and written by another thread: one fd table for all threads
    let mut f = fs::File::create(format!("{root}/sub/a.txt")).unwrap();
    f = thread::spawn(move || {
        f.write_all(b"hello from plain cargo").unwrap();
        f
    })
    .join()
    .unwrap();
    drop(f);
    fs::OpenOptions::new().append(true).open(format!("{root}/sub/a.txt")).unwrap().write_all(b"!").unwrap();
    let mut f = fs::File::open(format!("{root}/sub/a.txt")).unwrap();
    f.seek(SeekFrom::Start(6)).unwrap();
    let mut text = String::new();
    f.read_to_string(&mut text).unwrap();
    fs::rename(format!("{root}/sub/a.txt"), format!("{root}/sub/b.txt")).unwrap();
    fs::write(format!("{root}/sub/kept.txt"), "written by rust").unwrap();
    let mut names: Vec<_> = fs::read_dir(format!("{root}/sub")).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    let size = fs::metadata(format!("{root}/sub/b.txt")).unwrap().len();
    let host = fs::read_to_string(format!("{root}/from-host.txt")).unwrap();
    fs::remove_file(format!("{root}/sub/b.txt")).unwrap();
    let not_empty = fs::remove_dir(format!("{root}/sub")).unwrap_err().raw_os_error().unwrap_or(-1);
    println!("rust read={text:?} entries={names:?} size={size} host={host:?} rmdir_full=errno {not_empty}");
    // a receiver that blocks before the sender sends (this once hung under Node: docs/HOST.md)
    let (tx, rx) = std::sync::mpsc::channel();
    let sender = thread::spawn(move || {
        thread::sleep(std::time::Duration::from_millis(20));
        tx.send(7u32).unwrap();
    });
    let received = rx.recv().unwrap();
    sender.join().unwrap();
    println!("rust mpsc={received}");
    println!(
        "rust escape dotdot={} symlink={} missing={}",
        outcome(fs::read_to_string(format!("{root}/../secret.txt"))),
        outcome(fs::read_to_string(format!("{root}/link"))),
        outcome(fs::read_to_string(format!("{root}/nope.txt")))
    );
}
