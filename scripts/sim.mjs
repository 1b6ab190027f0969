#!/usr/bin/env node
// sim.mjs: the command-line runner, `npm run --silent sim -- FILE [options]` (see --help).
// The runner is TypeScript (scripts/sim/main.ts) sharing web/workload and web/core with the site;
// tsx's loader lets Node 20 run it directly, with no build step. On a bare checkout it installs
// and builds first (ensure-setup.mjs), as `npm start` would.
import { ensureSetup } from './ensure-setup.mjs';

ensureSetup();
const { register } = await import('tsx/esm/api');
register();
const { main } = await import('./sim/main.ts');
process.exitCode = await main(process.argv.slice(2));
