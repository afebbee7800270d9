// The Chromium that Spindle runs pages in, named once: where it is (SPINDLE_CHROMIUM, else
// /usr/bin/chromium) and the switches every run of it gets, for the CLI's own launches
// (cli/browser/browser-process.js) and for the tests and benchmarks that launch it through Playwright.
export const chromiumPath = process.env.SPINDLE_CHROMIUM || '/usr/bin/chromium';

/**
 * Chromium's sandbox (each renderer in namespaces of its own, under seccomp) stays on, except
 * as root, where Chromium refuses to start with it (docs/HOST.md, "Chromium's sandbox").
 */
export const chromiumSandbox = process.getuid?.() !== 0;

/**
 * For Playwright's launch, which adds --headless and the rest of its own switches (launch it
 * with { chromiumSandbox } too: Playwright turns the sandbox off unless told).
 */
export const chromiumArgs = [...(chromiumSandbox ? [] : ['--no-sandbox']), '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-dev-shm-usage'];

/**
 * The switch that hands `v8Flags` to V8: Chromium ignores V8's flags given as switches of its
 * own (`--no-liftoff` alone left a page's wasm in Liftoff code, 1.3x slower on a hot loop).
 */
export const v8FlagsSwitch = (v8Flags) => (v8Flags.length ? [`--js-flags=${v8Flags.join(' ')}`] : []);

/**
 * Browser UI that headless Chromium 156 builds anyway: the omnibox popup's WebUI, a renderer of
 * its own (chrome://omnibox-popup.top-chrome) that kept a core busy for the first ~1.5 s of a
 * run, while the program ran (on 2 cores, own_files with 2 threads took twice as long). Not for
 * Playwright's launches, which give --disable-features of their own (the last one given counts).
 */
const UNUSED_BROWSER_UI = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];

/** For a plain launch: headless, and none of a first run's or a profile's extras. */
export const chromiumFlags = ['--headless', ...chromiumArgs, '--disable-quic', '--no-first-run', '--disable-sync',
  `--disable-features=${UNUSED_BROWSER_UI.join(',')}`,
  ...(process.env.SPINDLE_DEBUG ? ['--enable-logging=stderr', '--v=0'] : [])];

/** Playwright's launch options for this Chromium. */
export const playwrightLaunch = { executablePath: chromiumPath, args: chromiumArgs, chromiumSandbox };
