// ESLint for every JavaScript file in the repository (scripts/format.sh runs it; docs/TOOLCHAIN.md).
// Two kinds of rule: defects (unused and undefined names, unreachable code, ...) and the layout
// the code already had (2 spaces, single quotes, semicolons), which `--fix` applies.
import js from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
import globals from 'globals';

// Where each file runs decides which global names exist there.
const browserOnly = [
  'host/browser/**', 'host/platform/browser.js', 'host/program/browser-workers.js', 'host/mount/opfs/opfs-worker.js', 'host/mount/opfs/opfs-backend.js',
  'bench/opfs/raw-opfs-worker.js', 'bench/opfs/create-cost-worker.js', 'bench/opfs/create-writable-worker.js', 'bench/opfs/run-page.js', 'bench/npm-wasi/page.mjs', 'bench/npm-wasi/worker-browser.mjs',
  'tests/opfs/*-worker.js', 'tests/opfs/profile.js', 'tests/webapp/main.js', 'tests/napi/browser/*.mjs',
];
// Node files that hand functions to Playwright's page.evaluate: those run in the page.
const drivingPages = ['bench/opfs/raw-opfs.js', 'bench/opfs/create-cost.js', 'bench/opfs/spindle-opfs.js', 'tests/lib/page-result.js', 'tests/opfs.test.js', 'tests/real.test.js', 'tests/hostile.test.js'];

export default [
  { ignores: ['.toolchain/', 'build/', 'results/', 'node_modules/', 'bin/spindle-cc', 'bin/spindle-c++'] },
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs', 'bin/spindle'] },
  js.configs.recommended,
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module', globals: globals.node },
  },
  // CommonJS, as npm packages' loaders are (tests/napi/loader.cjs), and bin/spindle (bin/package.json).
  { files: ['**/*.cjs', 'bin/spindle'], languageOptions: { ecmaVersion: 'latest', sourceType: 'commonjs', globals: globals.node } },
  // The host runs in Node, in pages and in workers of both: it tests for what it has at run time.
  { files: ['host/**'], languageOptions: { globals: { ...globals.node, ...globals.browser, ...globals.worker } } },
  { files: drivingPages, languageOptions: { globals: { ...globals.node, ...globals.browser } } },
  { files: browserOnly, languageOptions: { globals: { ...globals.browser, ...globals.worker } } },
  {
    plugins: { '@stylistic': stylistic },
    rules: {
      // defects (on top of @eslint/js recommended: undefined names, unreachable code, ...)
      'no-unused-vars': ['error', { args: 'after-used', caughtErrors: 'none', ignoreRestSiblings: true }],
      'no-unused-expressions': 'error',
      'no-use-before-define': ['error', { functions: false, classes: false, variables: false }],
      'no-implicit-globals': 'error',
      'no-self-compare': 'error',
      'no-template-curly-in-string': 'error',
      'no-throw-literal': 'error',
      'no-constructor-return': 'error',
      'array-callback-return': 'error',
      eqeqeq: ['error', 'smart'],
      'no-var': 'error',
      'prefer-const': ['error', { destructuring: 'all', ignoreReadBeforeAssign: true }],
      // The code throws messages of its own that carry the cause's message, on purpose.
      'preserve-caught-error': 'off',
      // layout
      '@stylistic/indent': ['error', 2, { SwitchCase: 1 }],
      '@stylistic/quotes': ['error', 'single', { avoidEscape: true, allowTemplateLiterals: 'always' }],
      '@stylistic/semi': ['error', 'always'],
      '@stylistic/comma-dangle': ['error', 'always-multiline'],
      '@stylistic/object-curly-spacing': ['error', 'always'],
      '@stylistic/array-bracket-spacing': ['error', 'never'],
      '@stylistic/comma-spacing': 'error',
      '@stylistic/key-spacing': 'error',
      '@stylistic/keyword-spacing': 'error',
      '@stylistic/space-before-blocks': 'error',
      '@stylistic/space-infix-ops': 'error',
      '@stylistic/space-in-parens': 'error',
      '@stylistic/arrow-spacing': 'error',
      '@stylistic/semi-spacing': 'error',
      '@stylistic/block-spacing': 'error',
      '@stylistic/space-before-function-paren': ['error', { anonymous: 'never', named: 'never', asyncArrow: 'always' }],
      '@stylistic/no-trailing-spaces': 'error',
      '@stylistic/eol-last': 'error',
      '@stylistic/no-multiple-empty-lines': ['error', { max: 1 }],
      '@stylistic/arrow-parens': ['error', 'always'],
      '@stylistic/no-multi-spaces': ['error', { ignoreEOLComments: true }],
      '@stylistic/space-unary-ops': 'error',
      '@stylistic/template-curly-spacing': 'error',
      '@stylistic/no-extra-semi': 'error',
      '@stylistic/quote-props': ['error', 'as-needed'],
      '@stylistic/padded-blocks': ['error', 'never'],
      '@stylistic/spaced-comment': ['error', 'always', { markers: ['/'] }],
      '@stylistic/dot-location': ['error', 'property'],
      '@stylistic/operator-linebreak': ['error', 'after', { overrides: { '?': 'before', ':': 'before' } }],
      '@stylistic/function-call-spacing': 'error',
      '@stylistic/rest-spread-spacing': 'error',
      '@stylistic/computed-property-spacing': 'error',
      '@stylistic/new-parens': 'error',
      '@stylistic/no-whitespace-before-property': 'error',
      '@stylistic/switch-colon-spacing': 'error',
      '@stylistic/generator-star-spacing': ['error', { before: false, after: true }],
      '@stylistic/yield-star-spacing': ['error', 'after'],
    },
  },
  // Start-up: an ES import of node:fs loads all that its namespace holds, fs.promises and the
  // streams among it (~30 of Node's modules, ~5 ms of every run and every worker's boot), and
  // node:tty loads node:net; process.getBuiltinModule loads the module alone (docs/HOST.md,
  // "Start-up").
  {
    files: ['host/**', 'cli/**', 'bin/spindle'],
    rules: {
      'no-restricted-imports': ['error', ...['fs', 'tty'].map((name) => ({
        name: `node:${name}`, message: `process.getBuiltinModule('node:${name}') where it is used: an ES import of it loads more at every start (docs/HOST.md, "Start-up")`,
      }))],
    },
  },
];
