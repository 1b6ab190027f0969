#!/usr/bin/env node
// scale-capture.mjs: a big machine in use, made from a kept capture (it is not a capture).
//
//   node scripts/capture/scale-capture.mjs CAPTURE_DIR TEMPLATE_ZONEINFO OUT_DIR
//
// TEMPLATE_ZONEINFO gives the big machine's shape: nodes, zones, spans, watermarks, protection
// and pcp limits (traces/captured/zoneinfo-1tib.txt: this machine's Normal zone scaled to 1 TiB;
// traces/scaled/zoneinfo-2tib-4node.txt, written by zoneinfo-template.mjs). CAPTURE_DIR (a
// folder of traces/captured/, one node) gives how memory was used: its DMA and DMA32 zones are
// copied as they were to node 0 (the template's are the same size), its Normal zone's free
// blocks per order and migratetype, pageblock counts and LRU sizes go to every node's Normal
// zone multiplied by the ratio of that zone's present pages to the capture's, so each node has
// the capture's in-use share. Node 0's counters move by its Normal zone's growth, another node's
// are the capture node's multiplied by its ratio (its LRU sizes its Normal zone's). The capture's
// CPUs keep their pcp counts in node 0's zones (and their `high` where the template shows an
// idle 0); every other pageset is the template's. boost is 0 (a boost raises the printed
// watermarks, which then would not be the template's). Writes OUT_DIR/zoneinfo, buddyinfo and
// pagetypeinfo.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ZONES = ['DMA', 'DMA32', 'Normal'];
const TYPES = ['Unmovable', 'Movable', 'Reclaimable', 'HighAtomic', 'Isolate'];
const LRU = ['inactive_anon', 'active_anon', 'inactive_file', 'active_file', 'unevictable'];
const PAGEBLOCK_ORDER = 9;

/** A zoneinfo's lines cut into its zone sections, by "NODE ZONE" ("0 Normal"). */
function sections(text) {
  const out = new Map();
  let name = null;
  for (const line of text.split('\n')) {
    const m = /^Node (\d+), zone\s+(\S+)/.exec(line);
    if (m) name = `${m[1]} ${m[2]}`;
    if (name) out.set(name, [...(out.get(name) ?? []), line]);
  }
  return out;
}

/** The first pageset figure of each CPU in a section's lines: cpu -> value of key. */
function pcpFigures(lines, key) {
  const out = new Map();
  let cpu = -1;
  for (const line of lines) {
    const c = /^\s+cpu:\s+(\d+)$/.exec(line);
    if (c) cpu = Number(c[1]);
    const f = new RegExp(`^\\s+${key}:\\s+(\\d+)$`).exec(line);
    if (f && cpu >= 0 && !out.has(cpu)) out.set(cpu, Number(f[1]));
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
  const capNormal = cap.get('0 Normal');
  const pti = parsePagetypeinfo(capPti);
  const maxOrder = pti.free.get('Normal').get('Movable').length - 1;

  // the template's populated zones, in file order; Normal on any node, the low zones on node 0
  const populated = [...tpl.keys()].filter((k) => figure(tpl.get(k), 'managed') > 0);
  for (const k of populated) {
    const [node, zone] = k.split(' ');
    if (zone !== 'Normal' && (node !== '0' || !ZONES.includes(zone)))
      throw new Error(`the capture has no zone to give template zone ${k}`);
  }
  // each Normal zone's ratio to the capture's, by its present pages
  const ratioOf = (node) =>
    figure(tpl.get(`${node} Normal`), 'present') / figure(capNormal, 'present');
  const scaler = (node) => (n) => Math.round(n * ratioOf(node));

  // free blocks and pageblocks per zone: the low zones as captured; Normal scaled, the rest of
  // its pageblocks Movable
  const free = new Map();
  const blocks = new Map();
  for (const k of populated) {
    const [node, zone] = k.split(' ');
    if (zone !== 'Normal') {
      free.set(k, new Map(pti.free.get(zone)));
      blocks.set(k, pti.blocks.get(zone));
      continue;
    }
    const scale = scaler(node);
    free.set(k, new Map([...pti.free.get('Normal')].map(([t, counts]) => [t, counts.map(scale)])));
    const normalBlocks = Math.ceil(figure(tpl.get(k), 'spanned') / (1 << PAGEBLOCK_ORDER));
    const nb = pti.blocks.get('Normal').map(scale);
    nb[1] = normalBlocks - nb[0] - nb[2] - nb[3] - nb[4];
    blocks.set(k, nb);
  }
  const freePages = (k, minOrder = 0) =>
    [...free.get(k).entries()]
      .filter(([t]) => t !== 'Isolate')
      .reduce(
        (sum, [, counts]) =>
          sum + counts.reduce((s, n, order) => s + (order >= minOrder ? n << order : 0), 0),
        0,
      );

  // zoneinfo: the template's lines, the capture's use (Normal's scaled)
  const capNodeStats = cap.get(`0 ${ZONES[0]}`);
  const zoneValue = (node, zone, key) => {
    const v = figure(cap.get(`0 ${zone}`), key);
    return zone === 'Normal' ? scaler(node)(v) : v;
  };
  const pcp = new Map(
    ZONES.map((z) => [
      z,
      {
        count: pcpFigures(cap.get(`0 ${z}`), 'count'),
        high: pcpFigures(cap.get(`0 ${z}`), 'high'),
      },
    ]),
  );
  const out = [];
  let node = null;
  let zone = null;
  let cpu = -1;
  let perNode = false;
  for (const line of template.split('\n')) {
    const m = /^Node (\d+), zone\s+(\S+)/.exec(line);
    if (m) [node, zone] = [m[1], m[2]];
    const k = `${node} ${zone}`;
    const c = /^\s+cpu:\s+(\d+)$/.exec(line);
    if (c) cpu = Number(c[1]);
    if (/per-node stats/.test(line)) perNode = true;
    if (/^ {2}pages free/.test(line)) perNode = false;
    if (free.has(k) && /^ {2}pages free\s+\d+$/.test(line)) {
      out.push(line.replace(/\d+$/, String(freePages(k))));
      continue;
    }
    const kv = /^(\s+)(\S+?)(:?\s+)(\d+)$/.exec(line);
    if (!kv || !free.has(k)) {
      out.push(line);
      continue;
    }
    const [, indent, key, gap] = kv;
    let value = Number(kv[4]);
    const lru = /^nr_(?:zone_)?(\w+)$/.exec(key)?.[1];
    const scale = scaler(node);
    if (perNode) {
      // node 0's counters: the capture's, plus what its Normal zone grew by; another node's:
      // the capture's scaled, its LRU sizes its Normal zone's
      const own = figure(capNodeStats, key);
      const zoneLru = LRU.includes(lru) ? figure(capNormal, `nr_zone_${lru}`) : 0;
      if (node !== '0') value = LRU.includes(lru) ? scale(zoneLru) : scale(own);
      else value = LRU.includes(lru) ? own + (scale(zoneLru) - zoneLru) : scale(own);
    } else if (key === 'nr_free_pages') {
      value = freePages(k);
    } else if (key === 'nr_free_pages_blocks') {
      value = freePages(k, PAGEBLOCK_ORDER);
    } else if (key === 'boost') {
      value = 0;
    } else if (key.startsWith('nr_zone_') && (LRU.includes(lru) || lru === 'write_pending')) {
      value = zoneValue(node, zone, key);
    } else if (node === '0' && key === 'count') {
      value = pcp.get(zone).count.get(cpu) ?? value;
    } else if (node === '0' && key === 'high' && value === 0) {
      value = pcp.get(zone).high.get(cpu) ?? value;
    }
    out.push(`${indent}${key}${gap}${value}`);
  }

  const pad = (n, w) => String(n).padStart(w);
  const buddy = populated.map((k) => {
    const [n, z] = k.split(' ');
    const perOrder = Array.from({ length: maxOrder + 1 }, (_, o) =>
      [...free.get(k).values()].reduce((s, counts) => s + counts[o], 0),
    );
    return `Node ${n}, zone ${pad(z, 8)} ${perOrder.map((v) => pad(v, 6)).join(' ')} `;
  });
  // pagetypeinfo_show: one block per node with memory
  const orders = Array.from({ length: maxOrder + 1 }, (_, o) => pad(o, 6)).join(' ');
  const nodes = [...new Set(populated.map((k) => k.split(' ')[0]))];
  const pt = nodes.flatMap((n, i) => {
    const mine = populated.filter((k) => k.startsWith(`${n} `));
    return [
      ...(i ? [''] : []),
      'Page block order: 9',
      'Pages per block:  512',
      '',
      `Free pages count per migrate type at order ${orders} `,
      ...mine.flatMap((k) =>
        TYPES.map(
          (t) =>
            `Node ${pad(n, 4)}, zone ${pad(k.split(' ')[1], 8)}, type ${pad(t, 12)} ${free
              .get(k)
              .get(t)
              .map((v) => pad(v, 6))
              .join(' ')} `,
        ),
      ),
      '',
      `Number of blocks type     ${TYPES.map((t) => pad(t, 12)).join(' ')} `,
      ...mine.map(
        (k) =>
          `Node ${n}, zone ${pad(k.split(' ')[1], 8)} ${blocks
            .get(k)
            .map((v) => pad(v, 12))
            .join(' ')} `,
      ),
    ];
  });
  pt.push('');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'zoneinfo'), out.join('\n'));
  writeFileSync(join(outDir, 'buddyinfo'), buddy.join('\n') + '\n');
  writeFileSync(join(outDir, 'pagetypeinfo'), pt.join('\n'));
  for (const n of nodes) {
    const k = `${n} Normal`;
    console.log(
      `node ${n}: scaled by ${ratioOf(n).toFixed(4)}: Normal ${freePages(k)} pages free of ${figure(tpl.get(k), 'managed')} managed`,
    );
  }
  return 0;
}

process.exitCode = main(process.argv.slice(2));
