// Applies `spindle cc --thread-stack-size` as the default pthread stack size before main.
// wasi-libc (musl) reads __default_stacksize in pthread_attr_init and pthread_create; its own
// default is small for C++ code. Not static: the driver links it with -u, since nothing else
// references this archive member.
extern const unsigned long __spindle_thread_stack_size;
extern unsigned int __default_stacksize;

__attribute__((constructor)) void __spindle_init_thread_stack_size(void) {
  __default_stacksize = (unsigned int)__spindle_thread_stack_size;
}
