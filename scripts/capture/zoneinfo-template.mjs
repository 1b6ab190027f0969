#!/usr/bin/env node
// zoneinfo-template.mjs: the /proc/zoneinfo a 6.18 x86-64 kernel would print for a machine of a
// given layout right after boot (it is not a capture): the shape scale-capture.mjs fills with a
// capture's use. Every figure comes from the kernel's formulas (docs/kernel/page_alloc/zones.md
// C.2, C.3, C.5, C.8 and pcp.md B.3, B.4), written here apart from the model's C so each checks
// the other:
//   min_free_kbytes  int_sqrt(16 * KiB of every managed page up to Normal), clamped to
//                    [128, 262144], raised by THP's recommendation (set_recommended_min_free_kbytes)
//   min/low/high/promo  __setup_per_zone_wmarks (watermark_scale_factor 10)
//   protection       setup_per_zone_lowmem_reserve, ratios 256 256 32 0 0, within the node
//   batch            zone_batchsize; high_min and high_max zone_highsize (fraction 0 and 8) over
//                    the CPUs of the zone's node
//   vm stats threshold  calculate_normal_threshold over every online CPU
// The machine is idle: every managed page free, every counter 0, every pageset empty (`high` 0,
// as pageset_update leaves it until the first free).
//
//   node scripts/capture/zoneinfo-template.mjs --cpus-per-node N [--min-free-kbytes K]
//        --zone NODE,ZONE,START_PFN,SPANNED,PRESENT,MANAGED ... > zoneinfo
import { parseArgs } from 'node:util';

const ZONES = ['DMA', 'DMA32', 'Normal', 'Movable', 'Device'];
const MOVABLE = 3;
const LOWMEM_RESERVE_RATIO = [256, 256, 32, 0, 0];
const PAGEBLOCK_PAGES = 512;
// the per-node counters 6.18 prints (node_stat_name), in its order
const NODE_STATS =
  'nr_inactive_anon nr_active_anon nr_inactive_file nr_active_file nr_unevictable nr_slab_reclaimable nr_slab_unreclaimable nr_isolated_anon nr_isolated_file workingset_nodes workingset_refault_anon workingset_refault_file workingset_activate_anon workingset_activate_file workingset_restore_anon workingset_restore_file workingset_nodereclaim nr_anon_pages nr_mapped nr_file_pages nr_dirty nr_writeback nr_shmem nr_shmem_hugepages nr_shmem_pmdmapped nr_file_hugepages nr_file_pmdmapped nr_anon_transparent_hugepages nr_vmscan_write nr_vmscan_immediate_reclaim nr_dirtied nr_written nr_throttled_written nr_kernel_misc_reclaimable nr_foll_pin_acquired nr_foll_pin_released nr_kernel_stack nr_page_table_pages nr_sec_page_table_pages nr_iommu_pages nr_swapcached pgpromote_success pgpromote_candidate pgpromote_candidate_nrl pgdemote_kswapd pgdemote_direct pgdemote_khugepaged pgdemote_proactive nr_hugetlb nr_balloon_pages nr_kernel_file_pages'.split(
    ' ',
  );
// the per-zone counters after nr_free_pages (zone_stat_name, numa_stat_name)
const ZONE_STATS =
  'nr_zone_inactive_anon nr_zone_active_anon nr_zone_inactive_file nr_zone_active_file nr_zone_unevictable nr_zone_write_pending nr_mlock nr_zspages nr_free_cma numa_hit numa_miss numa_foreign numa_interleave numa_local numa_other'.split(
    ' ',
  );

const fls = (n) => (n === 0 ? 0 : Math.floor(Math.log2(n)) + 1);
const rounddownPow2 = (n) => 2 ** Math.floor(Math.log2(n));

/** zone_batchsize (MMU, 4 KiB pages). */
function batchsize(managed) {
  let b = Math.min(Math.floor(managed / 1024), 256);
  b = Math.floor(b / 4);
  if (b < 1) b = 1;
  return Math.max(1, rounddownPow2(b + Math.floor(b / 2)) - 1);
}

/** The zoneinfo text of the machine: zones[node][zone] = {start, spanned, present, managed}. */
export function zoneinfoTemplate(zones, cpusPerNode, minFreeKbytesArg) {
  const nodes = zones.length;
  const cpus = nodes * cpusPerNode;
  const lowmem = zones.flatMap((row) => row.filter((_, i) => i !== MOVABLE));
  const lowmemPages = lowmem.reduce((s, z) => s + z.managed, 0);
  let minFree = minFreeKbytesArg;
  if (minFree === undefined) {
    minFree = Math.floor(Math.sqrt(lowmemPages * 4 * 16));
    minFree = Math.min(Math.max(minFree, 128), 262144);
    // THP's recommendation: 2 + 9 pageblocks a populated zone up to Normal, at most 5% of lowmem
    const nrZones = zones.flatMap((row) => row.slice(0, 3)).filter((z) => z.managed > 0).length;
    const thp = Math.min(PAGEBLOCK_PAGES * nrZones * 11, Math.floor(lowmemPages / 20)) * 4;
    minFree = Math.max(minFree, thp);
  }
  const pagesMin = Math.floor(minFree / 4);
  const out = [];
  for (let nid = 0; nid < nodes; nid++) {
    const row = zones[nid];
    const firstPopulated = row.findIndex((z) => z.managed > 0);
    for (let zid = 0; zid < ZONES.length; zid++) {
      const z = row[zid];
      const tmp = Math.floor((pagesMin * z.managed) / lowmemPages);
      const min = zid === MOVABLE ? Math.min(Math.max(Math.floor(z.managed / 1024), 32), 128) : tmp;
      const delta = Math.max(tmp >> 2, Math.floor((z.managed * 10) / 10000));
      const low = min + delta;
      const protection = ZONES.map((_, j) => {
        if (j <= zid || !LOWMEM_RESERVE_RATIO[zid] || !z.managed) return 0;
        let sum = 0;
        for (let k = zid + 1; k <= j; k++) sum += row[k].managed;
        return Math.floor(sum / LOWMEM_RESERVE_RATIO[zid]);
      });
      out.push(`Node ${nid}, zone ${ZONES[zid].padStart(8)}`);
      if (zid === firstPopulated) {
        out.push('  per-node stats');
        for (const name of NODE_STATS) out.push(`      ${name.padEnd(12)} 0`);
      }
      out.push(`  pages free     ${z.managed}`);
      out.push(`        boost    0`);
      out.push(`        min      ${min}`);
      out.push(`        low      ${low}`);
      out.push(`        high     ${low + delta}`);
      out.push(`        promo    ${low + 2 * delta}`);
      out.push(`        spanned  ${z.spanned}`);
      out.push(`        present  ${z.present}`);
      out.push(`        managed  ${z.managed}`);
      out.push(`        cma      0`);
      out.push(`        protection: (${protection.join(', ')})`);
      if (!z.managed) continue;
      out.push(`      nr_free_pages ${z.managed}`);
      // free in whole pageblocks, were the managed pages one aligned run
      out.push(
        `      nr_free_pages_blocks ${Math.floor(z.managed / PAGEBLOCK_PAGES) * PAGEBLOCK_PAGES}`,
      );
      for (const name of ZONE_STATS) out.push(`      ${name.padEnd(12)} 0`);
      const batch = batchsize(z.managed);
      const highMin = Math.max(Math.floor(low / cpusPerNode), batch * 4);
      const highMax = Math.max(Math.floor(Math.floor(z.managed / 8) / cpusPerNode), batch * 4);
      const threshold = Math.min(125, 2 * fls(cpus) * (1 + fls(Math.floor(z.managed / 32768))));
      out.push('  pagesets');
      for (let cpu = 0; cpu < cpus; cpu++) {
        out.push(`    cpu: ${cpu}`);
        out.push(`              count:    0`);
        out.push(`              high:     0`);
        out.push(`              batch:    ${batch}`);
        out.push(`              high_min: ${highMin}`);
        out.push(`              high_max: ${highMax}`);
        out.push(`  vm stats threshold: ${threshold}`);
      }
      out.push('  node_unreclaimable:  0');
      out.push(`  start_pfn:           ${z.start}`);
    }
  }
  return { text: out.join('\n') + '\n', minFreeKbytes: minFree };
}

function main(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      'cpus-per-node': { type: 'string' },
      'min-free-kbytes': { type: 'string' },
      zone: { type: 'string', multiple: true },
    },
  });
  const cpusPerNode = Number(values['cpus-per-node']);
  if (!cpusPerNode || !values.zone?.length) {
    console.error(
      'usage: zoneinfo-template.mjs --cpus-per-node N [--min-free-kbytes K] --zone NODE,ZONE,START,SPANNED,PRESENT,MANAGED ...',
    );
    return 2;
  }
  const zones = [];
  for (const spec of values.zone) {
    const [node, name, ...nums] = spec.split(',');
    const zid = ZONES.indexOf(name);
    const [start, spanned, present, managed] = nums.map(Number);
    if (zid < 0 || !/^\d+$/.test(node) || nums.length !== 4 || nums.some((n) => !/^\d+$/.test(n))) {
      console.error(`zoneinfo-template: bad --zone ${spec}`);
      return 2;
    }
    const nid = Number(node);
    while (zones.length <= nid)
      zones.push(ZONES.map(() => ({ start: 0, spanned: 0, present: 0, managed: 0 })));
    zones[nid][zid] = { start, spanned, present, managed };
  }
  const minArg = values['min-free-kbytes'];
  const { text, minFreeKbytes } = zoneinfoTemplate(
    zones,
    cpusPerNode,
    minArg === undefined ? undefined : Number(minArg),
  );
  process.stdout.write(text);
  console.error(`zoneinfo-template: min_free_kbytes ${minFreeKbytes}`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
