#!/usr/bin/env node
// kswapd-figures.mjs: kswapd's wakes and pgscan_kswapd, kernel beside model, for capture folders
// (scripts/capture/reclaim.sh), as tests/fidelity/captured.test.ts checks them.
//
//   node scripts/capture/kswapd-figures.mjs [--no-lru-state] DIR...
//
// --no-lru-state replays without the lru-state file (no memory cgroups, order-0 LRU pages from
// zoneinfo's counts: the model before captures had one).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./kswapd-figures.ts');
process.exitCode = await main(process.argv.slice(2));
