# The Wasm exception tag that longjmp throws (__wasm_longjmp) and that code compiled with
# `-mllvm -wasm-enable-sjlj` catches. The compiler only references it; a tag must be defined in
# exactly one object of the module, so it lives here. Its one i32 is the payload's address.
.globl __c_longjmp
.tagtype __c_longjmp i32
__c_longjmp:
