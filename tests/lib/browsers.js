// The browsers the browser halves of the suites run in: Chromium (`--browser`, as users have
// always written it), Firefox (`--browser=firefox`) and, in the suites that run programs with
// `spindle run` (runBrowsers), WebKit (`--browser=webkit`: WebKitGTK under Xvfb). The suites that
// load their own pages or drive OPFS run in Chromium and Firefox (testBrowsers): WebKitGTK has no
// OPFS sync access handles. SPINDLE_TEST_BROWSER=0 skips them all; SPINDLE_TEST_BROWSERS=chromium
// (or firefox, webkit, or a list such as chromium,webkit) picks some.
const all = ['chromium', 'firefox', 'webkit'];
const picked = process.env.SPINDLE_TEST_BROWSERS?.split(',').filter((name) => all.includes(name)) ?? all;
const chosen = process.env.SPINDLE_TEST_BROWSER === '0' ? [] : picked;

/** The browsers of the suites that run programs with `spindle run --browser=NAME` (programs, run-exit, trap-text, Rust's cargo run). */
export const runBrowsers = chosen;

/** The browsers of the suites with pages of their own (host API, files API, OPFS, ...). */
export const testBrowsers = chosen.filter((name) => name !== 'webkit');

/** The spindle run option that picks `name`. */
export const browserFlag = (name) => (name === 'chromium' ? '--browser' : `--browser=${name}`);

export const browserTitle = { chromium: 'Chromium', firefox: 'Firefox', webkit: 'WebKit' };
