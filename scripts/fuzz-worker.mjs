// fuzz-worker.mjs: the entry of scripts/fuzz.mjs's worker threads: registers tsx's loader (as
// sim.mjs does) so the TypeScript fuzzer under tests/fuzz/ runs with no build step.
import { register } from 'tsx/esm/api';

register();
await import('../tests/fuzz/worker.ts');
