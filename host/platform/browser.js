// The browser's side of the host. Threads are module workers; C code never runs on the page's
// main thread. stdio either goes over synchronous XHR to a URL (the CLI's local server: the
// write is done when fd_write returns, in order, from any thread) or, for a page using the
// API, as messages to the page.
import { FILETYPE } from '../abi/wasi.js';
import { stdinFromBytes } from './stdin-bytes.js';
import { positionedReader, seekPosition } from './stdin-position.js';
import { sleepyYield } from './sleepy-yield.js';
import { pipeDescription } from './stdio-description.js';
import { wallClockNs } from './wall-clock.js';

export const name = 'browser';
export const cpuCount = () => navigator.hardwareConcurrency || 1;

// The CLI's server answers 410 Gone to a write whose reader closed the pipe (EPIPE).
export const READER_GONE = 410;

function syncRequest(method, url, body) {
  const xhr = new XMLHttpRequest();
  xhr.open(method, url, false);
  xhr.responseType = 'arraybuffer';
  xhr.send(body);
  if (xhr.status === READER_GONE) return null;
  if (xhr.status !== 200) throw new Error(`${method} ${url}: HTTP ${xhr.status}`);
  return new Uint8Array(xhr.response);
}

// pread/pwrite/ftruncate of the server's own fd (cli/browser/browser-session.js): the answer's body (the
// bytes read, the count written in decimal), or the error's code the server names in a header.
export const ERROR_HEADER = 'X-Spindle-Error';
function positionedRequest(url, body) {
  const xhr = new XMLHttpRequest();
  xhr.open('POST', url, false);
  xhr.responseType = 'arraybuffer';
  xhr.send(body);
  if (xhr.status !== 200) throw new Error(`POST ${url}: HTTP ${xhr.status}`);
  return xhr.getResponseHeader(ERROR_HEADER) ?? new Uint8Array(xhr.response);
}

// The server's lseek answer: {"at": offset}, null (EINVAL) or {} (ESPIPE), as seekOutput's.
const seekAnswer = (answer) => (answer === null ? null : answer.at === undefined ? undefined : BigInt(answer.at));

export function threadIo(io, postToPage) {
  // Whether `fd` is one of the server's own fds (spindle run --browser: the CLI's); stdin given
  // as bytes and a page's own stdio are pipes.
  const serverFd = (fd) => io.stdioUrl && io.stdioDescribed && !(io.stdinBytes && fd === 0);
  // stdio as the server describes its own fds now, else pipes
  const describeStdio = (fd) => (serverFd(fd)
    ? JSON.parse(new TextDecoder().decode(syncRequest('GET', `${io.stdioUrl}/stdio/${fd}`))) : pipeDescription());
  // a stdin redirected from a file is read at a shared position, which lseek moves
  let stdinIsFile;
  const seekable = () => {
    stdinIsFile ??= Boolean(io.stdinPosition) && describeStdio(0).filetype === FILETYPE.REGULAR_FILE;
    return stdinIsFile;
  };
  const request = (max, at) => syncRequest('GET', `${io.stdioUrl}/stdin?max=${max}${at === undefined ? '' : `&pos=${at}`}`) ??
    new Uint8Array(0);
  const fileRead = io.stdinPosition && positionedReader(io.stdinPosition, request);
  let readStdin = () => new Uint8Array(0);
  if (io.stdinBytes) readStdin = stdinFromBytes(io.stdinBytes);
  else if (io.stdioUrl) readStdin = (max) => (seekable() ? fileRead(max) : request(max));
  return {
    describeStdio,
    seekStdin: (offset, whence) => (seekable()
      ? seekPosition(io.stdinPosition, offset, whence, BigInt(describeStdio(0).size)) : undefined),
    // stdout and stderr seek where the server's own fds are files (spindle run --browser)
    seekOutput: (fd, offset, whence) => (io.stdioUrl && io.stdioDescribed ? seekAnswer(JSON.parse(
      new TextDecoder().decode(syncRequest('POST', `${io.stdioUrl}/seek/${fd}?offset=${offset}&whence=${whence}`)))) : undefined),
    // pread/pwrite where the server's fds are the program's
    readStdioAt: (fd, max, position) => (serverFd(fd)
      ? positionedRequest(`${io.stdioUrl}/pread/${fd}?offset=${position}&max=${max}`) : 'ESPIPE'),
    writeStdioAt(fd, bytes, position) {
      if (!serverFd(fd)) return 'ESPIPE';
      const answer = positionedRequest(`${io.stdioUrl}/pwrite/${fd}?offset=${position}`, bytes);
      return typeof answer === 'string' ? answer : Number(new TextDecoder().decode(answer));
    },
    truncateStdio(fd, length) {
      if (!serverFd(fd)) return 'EINVAL';
      const answer = positionedRequest(`${io.stdioUrl}/truncate/${fd}?offset=${length}`);
      return typeof answer === 'string' ? answer : 0;
    },
    writeStdio(fd, bytes) {
      if (io.stdioUrl) return syncRequest('POST', `${io.stdioUrl}/fd/${fd}`, bytes) !== null;
      postToPage({ type: 'stdio', fd, bytes }, [bytes.buffer]);
      return true;
    },
    readStdin,
    isatty: () => false,
    monotonicNs: wallClockNs, // one clock for all workers (process.hrtime has no browser twin)
    realtimeNs: wallClockNs,
    // the file system's stamp clock, kept in memory by the page's thread (host/program/stamp-ticker.js)
    keepStampClock: (memory, at) => { postToPage({ type: 'stamp-ticker', at }); return 1; },
    randomFill: (u8) => crypto.getRandomValues(u8),
    yieldCpu: sleepyYield(), // sched_yield (browsers have no way to give up the CPU)
  };
}
