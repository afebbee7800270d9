// The browsers `spindle run --browser[=NAME]` and `spindle bench --browser[=NAME]` can use, and
// how each is launched: Chromium (the default, V8) and Firefox (SpiderMonkey). Options that only
// V8 understands are refused for Firefox, or mapped where a SpiderMonkey preference means the same.
import { existsSync } from 'node:fs';
import { chromiumFlags, chromiumPath, v8FlagsSwitch } from './chromium.js';
import { firefoxArgs, firefoxPath, optimizedFromStartPrefs, writeFirefoxProfile } from './firefox.js';

export const browserNames = ['chromium', 'firefox'];

/** The browser an option's value names (null: `--browser` alone, Chromium). */
export function parseBrowserName(value, flag = '--browser') {
  if (value === null || value === undefined) return 'chromium';
  if (!browserNames.includes(value)) throw new Error(`${flag}=${value}: expected ${browserNames.join(' or ')}`);
  return value;
}

/** The browsers a comma-separated value names, each once (`spindle bench --browser=chromium,firefox`). */
export function parseBrowserNames(value, flag = '--browser') {
  if (value === null || value === undefined) return ['chromium'];
  return [...new Set(value.split(',').map((name) => parseBrowserName(name, flag)))];
}

const installHints = {
  chromium: '`sudo apt-get install chromium` (or scripts/setup.sh)',
  firefox: '`sudo apt-get install firefox-esr` (or scripts/setup.sh)',
};

/** Throws a one-line message saying how to get the browser when its binary is missing. */
export function requireBrowser(name) {
  const path = name === 'firefox' ? firefoxPath : chromiumPath;
  if (!existsSync(path)) {
    const variable = name === 'firefox' ? 'SPINDLE_FIREFOX' : 'SPINDLE_CHROMIUM';
    throw new Error(`${name} not found at ${path}: install it with ${installHints[name]}, or set ${variable} to its path`);
  }
}

/** The one-line refusal of an option that only V8 (Node, Chromium) understands, given for Firefox. */
export const v8OnlyRefusal = (option) =>
  `${option} sets V8's compiler, which only Node and Chromium have; Firefox (SpiderMonkey) compiles wasm its own way (leave the option out)`;

/**
 * How to launch `name`: { name, path, profilePrefix, args(profile), prepareProfile(profile) }.
 * `optimizedFromStart`: the module is compiled by the optimizing tier before it runs (V8's
 * --no-liftoff; SpiderMonkey without its baseline compiler). `jsFlags`: more V8 flags, Chromium only.
 */
export function browserLaunch(name, { optimizedFromStart = false, jsFlags = [] } = {}) {
  requireBrowser(name);
  if (name === 'firefox') {
    if (jsFlags.length) throw new Error(v8OnlyRefusal(jsFlags.join(' ')));
    const prefs = optimizedFromStart ? optimizedFromStartPrefs : {};
    return { name, path: firefoxPath, profilePrefix: 'spindle-firefox-', args: firefoxArgs, prepareProfile: (profile) => writeFirefoxProfile(profile, prefs) };
  }
  const flags = [...chromiumFlags, ...v8FlagsSwitch([...(optimizedFromStart ? ['--no-liftoff'] : []), ...jsFlags])];
  return { name, path: chromiumPath, profilePrefix: 'spindle-chromium-', args: (profile) => [...flags, `--user-data-dir=${profile}`], prepareProfile: () => {} };
}
