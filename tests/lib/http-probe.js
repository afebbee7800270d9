// What an attacker on the same machine does to a local server: find the ports a process listens
// on (/proc, as a process polling for them would) and send requests with any headers it likes.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { request } from 'node:http';

/** The TCP ports on 127.0.0.1 that process `pid` listens on. */
export function listeningPorts(pid) {
  const inodes = new Set();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const socket = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (socket) inodes.add(socket[1]);
    } catch { /* closed meanwhile */ }
  }
  const LISTEN = '0A';
  const LOOPBACK = '0100007F';
  return readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1).map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols[3] === LISTEN && inodes.has(cols[9]) && cols[1].startsWith(`${LOOPBACK}:`))
    .map((cols) => parseInt(cols[1].split(':')[1], 16));
}

/**
 * Sends one request and resolves { status, body }, or { status: 'no answer' } when none came
 * within `timeoutMs` (the request is then dropped, as a client that gives up does).
 */
export function probe(url, { method = 'GET', headers = {}, body, timeoutMs = 3000 } = {}) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const parts = [];
      res.on('data', (c) => parts.push(c));
      res.on('end', () => { clearTimeout(timer); resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(parts).toString() }); });
    });
    const timer = setTimeout(() => { req.destroy(); resolve({ status: 'no answer' }); }, timeoutMs);
    req.on('error', (err) => { clearTimeout(timer); reject(err); }); // after a give-up: already resolved
    req.end(body);
  });
}
