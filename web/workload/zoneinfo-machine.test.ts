// A machine built from /proc/zoneinfo: the real capture loads; a zone list the core would refuse
// (zones out of pfn order or overlapping, a Device zone with managed pages) is refused at the
// zone's own line, by the same rule share links use (zoneListProblem, web/core/machine-config.ts).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { machineFromZoneinfo, parseZoneinfo } from './zoneinfo-machine';

const CAPTURE = readFileSync(
  new URL('../../traces/zoneinfo-at-capture.txt', import.meta.url),
  'utf8',
);

function build(text: string) {
  const parsed = parseZoneinfo(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return machineFromZoneinfo(parsed.zones);
}

/** The capture with the `start_pfn:` line of the zone whose header is at headerLine replaced. */
function withStartPfn(headerLine: number, pfn: number): string {
  const lines = CAPTURE.split('\n');
  const at = lines.findIndex((l, i) => i >= headerLine && /^\s+start_pfn:/.test(l));
  lines[at] = `  start_pfn:           ${pfn}`;
  return lines.join('\n');
}

describe('machineFromZoneinfo', () => {
  it('builds the captured machine', () => {
    const r = build(CAPTURE);
    expect(r.ok).toBe(true);
  });

  it('refuses a zone that overlaps the one before it, at the line of its header', () => {
    // DMA32's header is line 99; start it inside DMA (pfns 1 .. 4096)
    const r = build(withStartPfn(98, 2000));
    expect(r).toEqual({
      ok: false,
      error: {
        line: 99,
        col: 1,
        message:
          "zone DMA32 of node 0 starts at pfn 2000, inside zone DMA (which ends at 4096): a node's zones follow one another in pfn order",
      },
    });
  });

  it('refuses a Device zone with managed pages', () => {
    const lines = CAPTURE.split('\n');
    const device = lines.findIndex((l) => /^Node 0, zone\s+Device/.test(l));
    const managed = lines.findIndex((l, i) => i > device && /^\s+managed\s/.test(l));
    const spanned = lines.findIndex((l, i) => i > device && /^\s+spanned\s/.test(l));
    const present = lines.findIndex((l, i) => i > device && /^\s+present\s/.test(l));
    lines[spanned] = '        spanned  64';
    lines[present] = '        present  64';
    lines[managed] = '        managed  64';
    const start = lines.findIndex((l, i) => i > device && /^\s+start_pfn:/.test(l));
    if (start >= 0) lines[start] = '  start_pfn:           9000000';
    else lines.splice(managed + 1, 0, '  start_pfn:           9000000');
    const r = build(lines.join('\n'));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.line).toBe(device + 1);
      expect(r.error.message).toMatch(/^zone Device of node 0 has 64 managed pages/);
    }
  });

  it('refuses a zone header that appears twice, at the second one', () => {
    const lines = CAPTURE.split('\n');
    const header = lines.findIndex((l) => /^Node 0, zone\s+DMA32/.test(l));
    const copy = [...lines, lines[header] ?? '', '  pages free     5'].join('\n');
    const parsed = parseZoneinfo(copy);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error.line).toBe(lines.length + 1);
      expect(parsed.error.message).toMatch(
        new RegExp(`zone DMA32 of node 0 appears a second time \\(first at line ${header + 1}\\)`),
      );
    }
  });
});
