#!/usr/bin/env node
// scale-capture.mjs: a big machine in use, made from a kept capture (it is not a capture).
//
//   node scripts/capture/scale-capture.mjs CAPTURE_DIR TEMPLATE_ZONEINFO OUT_DIR
//
// TEMPLATE_ZONEINFO gives the big machine's shape: zones, spans, watermarks, protection and
// pcp limits (traces/captured/zoneinfo-1tib.txt: this machine's Normal zone scaled to 1 TiB).
// CAPTURE_DIR (a folder of traces/captured/) gives how memory was used: its DMA and DMA32 zones
// are copied as they were (the template's are the same size), its Normal zone's free blocks per
// order and migratetype, pageblock counts and LRU sizes are multiplied by the ratio of the two
// Normal zones' present pages, so the big machine has the capture's in-use share. Per-node
// counters move by the Normal zone's growth; the pcp lists keep the capture's counts; boost is
// 0 (a boost raises the printed watermarks, which then would not be the template's). Writes
// OUT_DIR/zoneinfo, buddyinfo and pagetypeinfo.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ZONES = ['DMA', 'DMA32', 'Normal'];
const TYPES = ['Unmovable', 'Movable', 'Reclaimable', 'HighAtomic', 'Isolate'];
const LRU = ['inactive_anon', 'active_anon', 'inactive_file', 'active_file', 'unevictable'];
const PAGEBLOCK_ORDER = 9;

/** A zoneinfo's lines cut into its zone sections, by zone name (node 0). */
function sections(text) {
  const out = new Map();
  let name = null;
  for (const line of text.split('\n')) {
    const m = /^Node 0, zone\s+(\S+)/.exec(line);
    if (m) name = m[1];
    if (name) out.set(name, [...(out.get(name) ?? []), line]);
  }
  return out;
}

/** The number after key in a section's lines (the first such line), or throw. */
function figure(lines, key) {
  const line = lines.find((l) => new RegExp(`^\\s+${key}:?\\s+\\d+$`).test(l));
  if (!line) throw new Error(`no ${key} line`);
  return Number(/(\d+)$/.exec(line)[1]);
}

/** pagetypeinfo's free counts: zone -> type -> counts per order; and pageblocks: zone -> counts. */
function parsePagetypeinfo(text) {
  const free = new Map();
  const blocks = new Map();
  for (const line of text.split('\n')) {
    const f = /^Node\s+0, zone\s+(\S+), type\s+(\S+)\s+([\d\s]+)$/.exec(line);
    if (f) {
      if (!free.has(f[1])) free.set(f[1], new Map());
      free.get(f[1]).set(f[2], f[3].trim().split(/\s+/).map(Number));
    }
    const b = /^Node 0, zone\s+(\S+)\s+([\d\s]+)$/.exec(line);
    if (b) blocks.set(b[1], b[2].trim().split(/\s+/).map(Number));
  }
  return { free, blocks };
}

function main([captureDir, templatePath, outDir]) {
  if (!outDir) {
    console.error('usage: scale-capture.mjs CAPTURE_DIR TEMPLATE_ZONEINFO OUT_DIR');
    return 2;
  }
  const capZone = readFileSync(join(captureDir, 'zoneinfo'), 'utf8');
  const capPti = readFileSync(join(captureDir, 'pagetypeinfo'), 'utf8');
  const template = readFileSync(templatePath, 'utf8');
  const cap = sections(capZone);
  const tpl = sections(template);
  const ratio = figure(tpl.get('Normal'), 'present') / figure(cap.get('Normal'), 'present');
  const scale = (n) => Math.round(n * ratio);
  const pti = parsePagetypeinfo(capPti);
  const maxOrder = pti.free.get('Normal').get('Movable').length - 1;

  // Normal's free blocks and pageblocks, scaled; the rest of the zone's pageblocks are Movable
  const free = new Map(ZONES.map((z) => [z, new Map(pti.free.get(z))]));
  free.set(
    'Normal',
    new Map([...pti.free.get('Normal')].map(([t, counts]) => [t, counts.map(scale)])),
  );
  const blocks = new Map(pti.blocks);
  const normalBlocks = Math.ceil(figure(tpl.get('Normal'), 'spanned') / (1 << PAGEBLOCK_ORDER));
  const nb = pti.blocks.get('Normal').map(scale);
  nb[1] = normalBlocks - nb[0] - nb[2] - nb[3] - nb[4];
  blocks.set('Normal', nb);
  const freePages = (zone, minOrder = 0) =>
    [...free.get(zone).entries()]
      .filter(([t]) => t !== 'Isolate')
      .reduce(
        (sum, [, counts]) =>
          sum + counts.reduce((s, n, order) => s + (order >= minOrder ? n << order : 0), 0),
        0,
      );

  // zoneinfo: the template's lines, the capture's use (Normal's scaled)
  const zoneValue = (zone, key) => {
    const v = figure(cap.get(zone), key);
    return zone === 'Normal' ? scale(v) : v;
  };
  const capNormal = cap.get('Normal');
  const out = [];
  let zone = null;
  let perNode = false;
  const pcpCounts = new Map(
    ZONES.map((z) => [
      z,
      cap
        .get(z)
        .filter((l) => /count:/.test(l))
        .map((l) => l),
    ]),
  );
  for (const line of template.split('\n')) {
    const m = /^Node 0, zone\s+(\S+)/.exec(line);
    if (m) zone = m[1];
    if (/per-node stats/.test(line)) perNode = true;
    if (/^ {2}pages free/.test(line)) perNode = false;
    if (ZONES.includes(zone) && /^ {2}pages free\s+\d+$/.test(line)) {
      out.push(line.replace(/\d+$/, String(freePages(zone))));
      continue;
    }
    const kv = /^(\s+)(\S+?)(:?\s+)(\d+)$/.exec(line);
    if (!kv || !ZONES.includes(zone)) {
      out.push(line);
      continue;
    }
    const [, indent, key, gap] = kv;
    let value = Number(kv[4]);
    const lru = /^nr_(?:zone_)?(\w+)$/.exec(key)?.[1];
    if (perNode) {
      // the node's counters: the capture's, plus what its Normal zone grew by
      const own = figure(cap.get(zone), key);
      value = LRU.includes(lru)
        ? own + (scale(figure(capNormal, `nr_zone_${lru}`)) - figure(capNormal, `nr_zone_${lru}`))
        : scale(own);
    } else if (key === 'nr_free_pages') {
      value = freePages(zone);
    } else if (key === 'nr_free_pages_blocks') {
      value = freePages(zone, PAGEBLOCK_ORDER);
    } else if (key === 'boost') {
      value = 0;
    } else if (key.startsWith('nr_zone_') && (LRU.includes(lru) || lru === 'write_pending')) {
      value = zoneValue(zone, key);
    } else if (key === 'count') {
      value = Number(/(\d+)$/.exec(pcpCounts.get(zone).shift())[1]);
    }
    out.push(`${indent}${key}${gap}${value}`);
  }

  const pad = (n, w) => String(n).padStart(w);
  const buddy = ZONES.map((z) => {
    const perOrder = Array.from({ length: maxOrder + 1 }, (_, o) =>
      [...free.get(z).values()].reduce((s, counts) => s + counts[o], 0),
    );
    return `Node 0, zone ${pad(z, 8)} ${perOrder.map((n) => pad(n, 6)).join(' ')} `;
  });
  const orders = Array.from({ length: maxOrder + 1 }, (_, o) => pad(o, 6)).join(' ');
  const pt = [
    'Page block order: 9',
    'Pages per block:  512',
    '',
    `Free pages count per migrate type at order ${orders} `,
    ...ZONES.flatMap((z) =>
      TYPES.map(
        (t) =>
          `Node    0, zone ${pad(z, 8)}, type ${pad(t, 12)} ${free
            .get(z)
            .get(t)
            .map((n) => pad(n, 6))
            .join(' ')} `,
      ),
    ),
    '',
    `Number of blocks type     ${TYPES.map((t) => pad(t, 12)).join(' ')} `,
    ...ZONES.map(
      (z) =>
        `Node 0, zone ${pad(z, 8)} ${blocks
          .get(z)
          .map((n) => pad(n, 12))
          .join(' ')} `,
    ),
    '',
  ];
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'zoneinfo'), out.join('\n'));
  writeFileSync(join(outDir, 'buddyinfo'), buddy.join('\n') + '\n');
  writeFileSync(join(outDir, 'pagetypeinfo'), pt.join('\n'));
  console.log(
    `scaled by ${ratio.toFixed(4)}: Normal ${freePages('Normal')} pages free of ${figure(tpl.get('Normal'), 'managed')} managed`,
  );
  return 0;
}

process.exitCode = main(process.argv.slice(2));
