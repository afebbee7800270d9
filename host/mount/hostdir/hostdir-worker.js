// An I/O worker of a `hostdir` mount with `ioWorkers: N` (Node): serves its mailbox
// (host/mount/mailbox.js) with the same node:fs code the calling threads run inline by default.
// The protocol's reference implementation in Node, and the way to measure what a hop to an I/O
// worker costs (docs/MOUNTS.md).
import { workerData } from 'node:worker_threads';
import { client } from './hostdir.js';
import { serve } from '../mailbox.js';

const { mailboxes, w, memory, config } = workerData;
const call = client(config, memory, { ioWorker: w }); // its handles carry w (the routing rule)
serve(mailboxes, w, memory, (view, request) => call(view, request));
