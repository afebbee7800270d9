// The modes a compile may be asked for (host/compile/compilation.js), apart from the compiler
// itself so that the CLI's option table can name them without loading it.
export const COMPILATION_MODES = ['auto', 'eager', 'lazy'];
