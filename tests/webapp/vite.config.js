// The web app's Vite config, as docs/HOST.md gives it. The host's thread workers use top-level
// await and load modules at run time, so workers are bundled as ES modules (Vite's default,
// 'iife', refuses both).
export default {
  worker: { format: 'es' },
  // relative asset URLs: the test serves the app under a secret path (a real site needs not)
  base: './',
};
