// A failure the host reports in its own words: thrown by an import (a stack overflow, a preload
// step that failed), it ends the program like a trap, and the program's end prints its message
// without a JavaScript stack (host/threads/stack-overflow.js's failureMessage). `frames: false` leaves
// out the wasm frames too, where they would only show the runtime's own code at work.
export class ProgramFailure extends Error {
  constructor(message, { frames = true } = {}) {
    super(message);
    if (!frames) this.stack = message;
  }
}
