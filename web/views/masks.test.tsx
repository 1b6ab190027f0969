// masks.test.tsx: the values a lesson question asks for print as `?` in the views and in
// /proc/zoneinfo and /proc/vmstat until the reveal; patterns match by segment with `*`.
import { renderToStaticMarkup } from '../app/static-markup';
import { describe, expect, it } from 'vitest';
import { loadCore } from '../core/module';
import { compileWorkload } from '../workload/compiler';
import { parseWorkload } from '../workload/parser';
import { MaskContext, V } from './Masked';
import { maskVmstat, maskZoneinfo } from './proc-mask';
import { isMaskable, matchesPath } from './value-paths';

describe('hidden values', () => {
  it('match by segment, * for one segment', () => {
    expect(matchesPath('pcp.*.Normal.high', 'pcp.cpu3.Normal.high')).toBe(true);
    expect(matchesPath('pcp.*.Normal.high', 'pcp.cpu3.Normal.high_min')).toBe(false);
    expect(matchesPath('pcp.*.Normal.high', 'pcp.cpu3.DMA32.high')).toBe(false);
    expect(isMaskable('zones.Normal._watermark.min')).toBe(true);
    expect(isMaskable('zones.Normal.pageblocks.*')).toBe(true);
    expect(isMaskable('zones.Normal.lock.acquisitions')).toBe(true);
    expect(isMaskable('zones.Normal.lock.nope')).toBe(false);
    expect(isMaskable('cpus.0.pcp_hits')).toBe(false);
  });

  it('print ? in a view under the lesson mask, the value elsewhere', () => {
    const v = <V path="pcp.cpu0.Normal.high" value={42} />;
    expect(renderToStaticMarkup(v)).toBe('<span data-path="pcp.cpu0.Normal.high">42</span>');
    const hidden = renderToStaticMarkup(
      <MaskContext.Provider value={['pcp.*.Normal.high']}>{v}</MaskContext.Provider>,
    );
    expect(hidden).toContain('data-masked="true"');
    expect(hidden).not.toContain('42');
  });

  it('hide the same values in /proc/zoneinfo and vmstat', async () => {
    const core = await loadCore();
    const p = parseWorkload('machine tiny\nprofile 6.18\ncpu 0 alloc a\n');
    if (!p.ok) throw new Error(p.error.message);
    const c = compileWorkload(p.workload, { positions: p.positions });
    if (!c.ok) throw new Error(c.error.message);
    const sim = core.createSim(c.program.config);
    sim.runOps(c.program.ops, () => {});
    const zoneinfo = sim.proc('zoneinfo').split('\n');
    const vmstat = sim.proc('vmstat').split('\n');
    sim.dispose();
    const hidden = (path: string) =>
      ['pcp.*.Normal.high', 'zones.Normal._watermark.min', 'zones.Normal.nr_free_pages'].some((m) =>
        matchesPath(m, path),
      );
    const out = maskZoneinfo(zoneinfo, hidden).join('\n');
    const normal = out.slice(out.indexOf('zone   Normal'), out.indexOf('zone  Movable'));
    expect(normal).toMatch(/^ {2}pages free\s+\?$/m);
    expect(normal).toMatch(/^\s+min\s+\?$/m);
    expect(normal).toMatch(/^\s+low\s+\d+$/m);
    expect(normal).toMatch(/^\s+high:\s+\?$/m);
    expect(normal).toMatch(/^\s+high\s+\d+$/m); // the zone's high watermark is not the pcp's high
    expect(normal).toMatch(/^\s+count:\s+\d+$/m);
    // Other zones keep their numbers.
    expect(out.slice(0, out.indexOf('zone   Normal'))).not.toContain('?');
    expect(maskVmstat(vmstat, hidden)).toContain('nr_free_pages ?');
    expect(maskVmstat(vmstat, () => false)).toEqual(vmstat);
  });
});
