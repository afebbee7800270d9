// The bench's progress on stderr: a bar, units done of all, and the time left. On a terminal it is
// one line redrawn in place; otherwise (a log, CI) one plain line per step.
//
// The time left is an estimate per kind of unit: a job (one series at one point) run again takes
// about as long as its earlier runs, and the runs are interleaved, so after the first round every
// job has its own duration. Kinds not yet timed use a guess if they have one (a build, a suite's
// own estimate), else the mean of the timed units of kinds without a guess (jobs like it), else
// the mean of all units timed so far.

const clock = (s) => {
  const r = Math.round(s);
  return r >= 3600 ? `${Math.floor(r / 3600)}h${String(Math.floor(r / 60) % 60).padStart(2, '0')}m`
    : r >= 60 ? `${Math.floor(r / 60)}m${String(r % 60).padStart(2, '0')}s` : `${r}s`;
};

export class Progress {
  /**
   * units: [{ key, count, guessS? }]: how many units of each kind the run has, and optionally how
   * long one takes before any has been timed. `now` (ms) and `stream` are replaceable for tests.
   */
  constructor({ units, stream = process.stderr, now = () => Date.now(), tty = Boolean(stream.isTTY) }) {
    this.stream = stream;
    this.now = now;
    this.tty = tty;
    this.kinds = new Map(units.map((u) => [u.key, { left: u.count, guessS: u.guessS, timedS: 0, timed: 0 }]));
    this.total = units.reduce((n, u) => n + u.count, 0);
    this.done = 0;
    this.open = null; // { key, since }
    this.text = '';
  }

  /** Starts a unit of kind `key` (ending the one open). */
  begin(key, text) {
    this.end();
    this.open = { key, since: this.now() };
    this.say(text);
  }

  /** Ends the open unit and times it. */
  end() {
    if (!this.open) return;
    const k = this.kinds.get(this.open.key);
    k.timedS += (this.now() - this.open.since) / 1000;
    k.timed++;
    this.count(this.open.key);
    this.open = null;
  }

  /** A unit that will not run (its series failed, or the host cannot run the point). */
  skip(key) {
    this.count(key);
  }

  count(key) {
    const k = this.kinds.get(key);
    if (k && k.left > 0) k.left--;
    this.done = Math.min(this.total, this.done + 1);
  }

  /** Seconds left, or null while nothing has been timed and nothing guessed. */
  secondsLeft() {
    const kinds = [...this.kinds.values()];
    const meanOf = (ks) => (ks.length ? ks.reduce((s, k) => s + k.timedS, 0) / ks.reduce((n, k) => n + k.timed, 0) : null);
    const timed = kinds.filter((k) => k.timed);
    const mean = meanOf(timed.filter((k) => k.guessS == null)) ?? meanOf(timed);
    let left = 0;
    for (const k of kinds) {
      if (!k.left) continue;
      const each = k.timed ? k.timedS / k.timed : k.guessS ?? mean;
      if (each == null) return null;
      left += k.left * each;
    }
    if (this.open) { // the unit under way: its estimate less the time it has run
      const k = this.kinds.get(this.open.key);
      left -= Math.min((this.now() - this.open.since) / 1000, k.timed ? k.timedS / k.timed : k.guessS ?? mean ?? 0);
    }
    return Math.max(0, left);
  }

  /** The status line for the current state and `text`. */
  line(text) {
    const pct = this.total ? Math.floor((100 * this.done) / this.total) : 100;
    const left = this.secondsLeft();
    const eta = left == null ? 'time left: estimating' : `about ${clock(left)} left`;
    if (!this.tty) return `[${this.done}/${this.total} ${pct}%, ${eta}] ${text}`;
    const filled = Math.round(pct / 5);
    return `[${'#'.repeat(filled)}${'.'.repeat(20 - filled)}] ${this.done}/${this.total} ${pct}% ${eta} | ${text}`;
  }

  /** Shows `text` with the current counts (also between units: building, a suite's steps). */
  say(text) {
    this.text = text;
    const line = this.line(text);
    if (!this.tty) this.stream.write(`${line}\n`);
    else this.stream.write(`\r\x1b[K${line.slice(0, Math.max(20, (this.stream.columns ?? 120) - 1))}`);
  }

  /** Ends the open unit and clears the line (a terminal's; plain output has nothing to clear). */
  finish() {
    this.end();
    if (this.tty) this.stream.write('\r\x1b[K');
  }
}
