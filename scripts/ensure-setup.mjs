// ensure-setup.mjs: for the npm scripts that start from a bare checkout (`npm run sim`, `npm run
// bench`): runs scripts/setup.sh before anything imports an npm package or the built core, so a
// fresh machine gets the same install `npm start` and `npm test` give it. Only Node's built-ins
// here: nothing else is installed yet when this runs.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Is the npm install and the built wasm core there (what the scripts import)? */
function installed() {
  return (
    existsSync(join(root, 'node_modules', '.package-lock.json')) &&
    existsSync(join(root, 'web', 'core', 'generated', 'buddyscope.mjs'))
  );
}

/**
 * Runs setup.sh with `flags` (e.g. ['--browser']) when `always` or when the install is missing;
 * its output goes to stderr so a script's stdout stays its own. Exits with setup's status on failure.
 */
export function ensureSetup(flags = [], always = false) {
  if (!always && installed()) return;
  const r = spawnSync('bash', [join(root, 'scripts', 'setup.sh'), ...flags], {
    cwd: root,
    stdio: ['ignore', 2, 2],
  });
  if (r.status !== 0) {
    console.error(`setup failed (exit ${r.status ?? r.signal}); see its messages above`);
    process.exit(r.status || 1);
  }
}
