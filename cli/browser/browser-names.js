// The browsers' names as `--browser[=NAME]` takes them, and the refusal of V8-only options in the
// others. Apart from cli/browser/browsers.js (how each is launched), so that a Node run, which parses
// --browser too, loads none of the launchers.

export const browserNames = ['chromium', 'firefox', 'webkit'];

/** The browser an option's value names (null: `--browser` alone, Chromium). */
export function parseBrowserName(value, flag = '--browser') {
  if (value === null || value === undefined) return 'chromium';
  if (!browserNames.includes(value)) throw new Error(`${flag}=${value}: expected ${browserNames.slice(0, -1).join(', ')} or ${browserNames.at(-1)}`);
  return value;
}

/** The browsers a comma-separated value names, each once (`spindle bench --browser=chromium,firefox`). */
export function parseBrowserNames(value, flag = '--browser') {
  if (value === null || value === undefined) return ['chromium'];
  return [...new Set(value.split(',').map((name) => parseBrowserName(name, flag)))];
}

const engines = { firefox: 'Firefox (SpiderMonkey)', webkit: 'WebKit (JavaScriptCore)' };

/** The one-line refusal of an option that only V8 (Node, Chromium) understands, given for `browser`. */
export const v8OnlyRefusal = (option, browser = 'firefox') =>
  `${option} sets V8's compiler, which only Node and Chromium have; ${engines[browser] ?? browser} compiles wasm its own way (leave the option out)`;
