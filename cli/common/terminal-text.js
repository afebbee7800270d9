// Text that the host prints about a run but that comes from elsewhere (a trap or error message
// posted by the browser's page) reaches the terminal with its control characters escaped, so it
// cannot move the cursor, retitle the window, forge lines or reorder text. A program's own
// stdout and stderr bytes are never passed through here.

// C0 controls (newline and tab included: host messages are one line), DEL, C1 controls, and
// Unicode's bidirectional overrides and isolates.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/gu;
const NAMED = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const hex = (c, width) => c.codePointAt(0).toString(16).padStart(width, '0');

/** `text` with each control character written as \n, \r, \t, \xNN or \uNNNN. */
export function escapeControls(text) {
  return String(text).replace(CONTROLS, (c) => NAMED[c] ?? (c.codePointAt(0) < 0x100 ? `\\x${hex(c, 2)}` : `\\u${hex(c, 4)}`));
}

/**
 * `text` of several lines (a trap's message and its frames) escaped line by line as
 * escapeControls does, with each line break kept where the next line is indented, as a frame's
 * is, and escaped elsewhere: no line of it can start where the CLI's own lines do.
 */
export function escapeIndentedLines(text) {
  return String(text).split('\n').map((line, i) => (i === 0 ? '' : line.startsWith(' ') ? '\n' : '\\n') + escapeControls(line)).join('');
}
