// The C half of the "c-files" check, compiled by the cc crate (with spindle cc under spindle cargo).
fn main() {
    println!("cargo:rerun-if-changed=c/shout.c");
    cc::Build::new().file("c/shout.c").compile("shout");
}
