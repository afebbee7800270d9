// `node [FLAGS] host/code-cache/print-defaults-stamp.js`: prints, in hex, the header V8 writes on
// serialized wasm code in a Node started with FLAGS (defaultsStamp). The maker of a module's
// TurboFan code (host/code-cache/make-turbofan-code.js) runs it with the flags of the run that
// started it, so that the run itself spends no time on its stamp. Exits 1 where there is none.
import { codeCacheAddon } from './addon.js';
import { defaultsStamp } from './defaults-stamp.js';

const { addon, why } = codeCacheAddon();
const stamp = addon ? await defaultsStamp(addon) : null;
if (stamp) process.stdout.write(`${stamp.toString('hex')}\n`);
else {
  process.stderr.write(`no stamp: ${addon ? 'V8 tiered nothing up within a second' : why}\n`);
  process.exitCode = 1;
}
