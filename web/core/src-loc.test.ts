/*
 * src-loc.test.ts: every event names the line of the model's C that emitted it (struct
 * sim_event.src_file and src_line, set by the ev_emit macro of wasm-core/src/base/event.h), and
 * the generated table (scripts/gen/sources.mjs) maps the file hash back to the file: the line it
 * names holds that ev_emit call. The Code view highlights exactly this line.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { srcFileHash } from '../../scripts/gen/sources.mjs';
import { compileWorkload } from '../workload/compiler';
import { parseWorkload } from '../workload/parser';
import { SOURCE_FILES } from './generated/sources';
import { loadCore, type Core } from './module';

const core_dir = fileURLToPath(new URL('../../wasm-core/', import.meta.url));
let core: Core;

beforeAll(async () => {
  core = await loadCore();
});

describe('source locations', () => {
  it('hashes paths as the C does (the numbers of wasm-core/tests/test_src_loc.c)', () => {
    expect(srcFileHash('src/page_alloc/buddy.c')).toBe(23175);
    expect(srcFileHash('src/base/event.h')).toBe(57938);
    expect(SOURCE_FILES[23175]).toBe('src/page_alloc/buddy.c');
  });

  it('names, for every event of a mixed workload, a line that calls ev_emit or ev_emit_cpu', () => {
    const text =
      'machine tiny\nset watermark_scale_factor=30\ncpu 0 random 300 max_order=4 free=45\ncpu 1 alloc a order=3 GFP_ATOMIC\ncpu 1 free a *\ncpu 1 offline\ndrain all\ntick 3\ncpu 0 corrupt\ncpu 0 random 50\n';
    const p = parseWorkload(text);
    if (!p.ok) throw new Error(p.error.message);
    const c = compileWorkload(p.workload, { positions: p.positions });
    if (!c.ok) throw new Error(c.error.message);
    const sim = core.createSim({
      ...c.program.config,
      maxHandles: c.program.config.maxHandles ?? 1,
    });
    const files = new Map<string, string[]>();
    const seen = new Set<string>();
    let events = 0;
    sim.runOps(c.program.ops, () => {
      for (const e of sim.events()) {
        events++;
        const path = SOURCE_FILES[e.srcFile ?? -1];
        expect(path, `event ${e.seq} kind ${e.kind}: src_file ${e.srcFile}`).toBeDefined();
        if (!path) continue;
        let lines = files.get(path);
        if (!lines) {
          lines = readFileSync(core_dir + path, 'utf8').split('\n');
          files.set(path, lines);
        }
        const line = lines[(e.srcLine ?? 0) - 1] ?? '';
        expect(line, `${path}:${e.srcLine}`).toMatch(/\bev_emit(_cpu)?\(/);
        seen.add(`${path}:${e.srcLine}`);
      }
    });
    sim.dispose();
    expect(events).toBeGreaterThan(100);
    expect(seen.size).toBeGreaterThan(5); // many emitting sites, not one
  });
});
