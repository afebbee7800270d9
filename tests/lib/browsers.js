// The browsers the browser halves of the suites run in: Chromium (`--browser`, as users have
// always written it) and Firefox (`--browser=firefox`). SPINDLE_TEST_BROWSER=0 skips them all;
// SPINDLE_TEST_BROWSERS=chromium (or firefox) picks one.
const all = ['chromium', 'firefox'];
const picked = process.env.SPINDLE_TEST_BROWSERS?.split(',').filter((name) => all.includes(name)) ?? all;

export const testBrowsers = process.env.SPINDLE_TEST_BROWSER === '0' ? [] : picked;

/** The spindle run option that picks `name`. */
export const browserFlag = (name) => (name === 'chromium' ? '--browser' : `--browser=${name}`);

export const browserTitle = { chromium: 'Chromium', firefox: 'Firefox' };
