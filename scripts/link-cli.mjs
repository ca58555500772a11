#!/usr/bin/env node
/**
 * `pnpm link-cli`: puts an `ollm` command on PATH for a checkout, as a symlink to the built CLI
 * (apps/cli/dist/bin.js) in npm's global bin folder, the one `npm install -g pnpm` used, so it is
 * on PATH wherever pnpm is. `--remove` takes it away; `--force` replaces an `ollm` that is not
 * ours. Node follows the link to the real file, so the CLI finds its packages in the checkout.
 *
 *   pnpm link-cli            # then: ollm --version
 *   pnpm link-cli --remove
 */
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readlinkSync, rmSync, symlinkSync, chmodSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(root, 'apps', 'cli', 'dist', 'bin.js');
const args = new Set(process.argv.slice(2));

function fail(message) {
  process.stderr.write(`link-cli: ${message}\n`);
  process.exit(1);
}

if (process.platform === 'win32') fail('on Windows, run the CLI as `pnpm ollm …` or `node apps/cli/dist/bin.js …`.');

/** npm's global bin folder: `$npm_config_prefix/bin`, else `npm prefix -g`/bin. */
function globalBin() {
  const prefix = process.env['npm_config_prefix'] || execFileSync('npm', ['prefix', '-g'], { encoding: 'utf8' }).trim();
  return join(prefix, 'bin');
}

const bin = globalBin();
const link = join(bin, 'ollm');
const present = (() => {
  try {
    return lstatSync(link);
  } catch {
    return undefined;
  }
})();
const ours = present?.isSymbolicLink() && resolve(bin, readlinkSync(link)) === target;

if (args.has('--remove')) {
  if (!present) {
    process.stdout.write(`link-cli: no ollm in ${bin}: nothing to remove\n`);
  } else if (!ours && !args.has('--force')) {
    fail(`${link} is not this checkout's ollm: left in place (--force removes it)`);
  } else {
    rmSync(link);
    process.stdout.write(`link-cli: removed ${link}\n`);
  }
  process.exit(0);
}

if (!existsSync(target)) fail(`${target} is not built: run pnpm build first`);
if (present && !ours && !args.has('--force')) fail(`${link} exists and is not this checkout's ollm: left in place (--force replaces it)`);
try {
  mkdirSync(bin, { recursive: true });
  if (present) rmSync(link);
  chmodSync(target, 0o755);
  symlinkSync(target, link);
} catch (error) {
  fail(`could not write ${link} (${error.code ?? error.message}); add an alias instead: alias ollm="node ${target}"`);
}
process.stdout.write(`link-cli: ${link} -> ${target}\nollm is on PATH wherever pnpm is: try \`ollm --version\`; \`pnpm link-cli --remove\` takes it away.\n`);
