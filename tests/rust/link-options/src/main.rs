// What spindle cargo's link options change, for tests/rust.test.js: the stack check (a
// recursion too deep for main's or a std::thread's stack) and --as-root (the uid). No
// dependencies, so a build with other options is quick.
use std::env;
use std::hint::black_box;
use std::thread;

extern "C" {
    fn getuid() -> u32; // Spindle's POSIX layer: 1000, or 0 when linked --as-root
}

// About 4 KiB of stack a call, kept by black_box so that the optimiser cannot drop the frame.
#[inline(never)]
fn recurse(depth: usize) -> u64 {
    let mut frame = [0u8; 4096];
    frame[depth % frame.len()] = depth as u8;
    black_box(&mut frame);
    if depth == 0 {
        return 0;
    }
    recurse(depth - 1).wrapping_add(u64::from(frame[(depth * 7) % frame.len()]))
}

fn main() {
    let args: Vec<String> = env::args().skip(1).collect();
    let arg = |i: usize| args.get(i).map(String::as_str).unwrap_or("");
    match arg(0) {
        // recurse main DEPTH | recurse thread DEPTH STACK_BYTES
        "recurse" => {
            let depth: usize = arg(2).parse().expect("depth");
            println!("recursing");
            let sum = if arg(1) == "main" {
                recurse(depth)
            } else {
                let stack: usize = arg(3).parse().expect("stack size");
                let worker = thread::Builder::new().stack_size(stack).spawn(move || recurse(depth)).unwrap();
                worker.join().unwrap()
            };
            println!("done sum={sum}");
        }
        "uid" => println!("uid={}", unsafe { getuid() }),
        other => {
            eprintln!("unknown check {other:?}");
            std::process::exit(2);
        }
    }
}
