// Marks the module as a Rust program for the stack overflow message (runtime/core/stack_check.c):
// there std, not --thread-stack-size, sizes the threads it starts.
const char spindle_rust_program = 1;
