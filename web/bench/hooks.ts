/*
 * hooks.ts: what `npm run bench` measures inside the browser (scripts/bench/browser-bench.mjs).
 * Loaded only through the test API (web/app/test-api.ts), whose condition is static, so a normal
 * production build holds none of it.
 *
 * Everything here drives the real code: the wasm core, the Player with its checkpoints, and the
 * MemoryMap component mounted by React. The only thing of its own is the floor the map is held
 * against: one bare putImageData of the same pixels.
 */
import { createElement } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { compileText } from '../app/compile';
import type { ExplicitMachine } from '../core/machine-config';
import { loadCore } from '../core/module';
import type { Sim } from '../core/sim';
import { Player } from '../player/player';
import { Session } from '../app/session';
import { SessionViews } from '../app/SessionViews';
import { MemoryMap } from '../views/MemoryMap';
import { mapColors, paintFrames, pfnExtent } from '../views/memory-map-paint';
import type { ModelState } from '../views/model';
import { machineFromCapture } from '../workload/captured-state';
import { BIG_WORKLOAD, server2Workload } from './workloads';

/** A random workload on the 1M-frame machine that records over a million events. */
export const BENCH_WORKLOAD =
  'machine bench1m\nseed 9\ncpu 0 random 400000 max_order=3 free=45 GFP_KERNEL\n';

export interface Timing {
  median: number;
  p95: number;
  max: number;
  n: number;
}

export function summarize(ms: readonly number[]): Timing {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
  return { median: at(0.5), p95: at(0.95), max: s.at(-1) ?? 0, n: s.length };
}

/** A seeded generator, so every bench run seeks to the same places. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

interface Bench {
  sim: Sim;
  player: Player;
  scanMs: number;
}

/** Histories built so far, per machine (null: the workload's own) and workload. */
const built = new Map<ExplicitMachine | null, Map<string, Bench>>();

/**
 * A machine from a real /proc/zoneinfo in the state it shows, as the Your machine page builds it
 * (machineFromCapture): what a bench's `machine` argument takes in place of the workload's line.
 */
export function machineFromZoneinfo(zoneinfo: string): ExplicitMachine {
  const m = machineFromCapture({ name: 'zoneinfo', text: zoneinfo }, {});
  if (!m.ok) throw new Error(`${m.file}:${m.error.line}:${m.error.col}: ${m.error.message}`);
  return m.machine;
}

/** A workload's program on machine (the workload's own machine when null). */
function compiled(workload: string, machine: ExplicitMachine | null) {
  const out = compileText(workload, machine);
  if (!out.ok) throw new Error(out.error.message);
  return out.program;
}

/**
 * A workload's history (the 1M-event one by default) on machine (the workload's own when null),
 * scanned once per page (as the playground does on load).
 */
async function history(
  workload = BENCH_WORKLOAD,
  machine: ExplicitMachine | null = null,
): Promise<Bench> {
  const had = built.get(machine)?.get(workload);
  if (had) return had;
  const core = await loadCore();
  const program = compiled(workload, machine);
  const sim = core.createSim(program.config);
  const t = performance.now();
  const player = new Player(sim, program.ops);
  const bench = { sim, player, scanMs: performance.now() - t };
  built.set(machine, (built.get(machine) ?? new Map<string, Bench>()).set(workload, bench));
  return bench;
}

export interface SeekResult {
  ops: number;
  events: number;
  scanMs: number;
  checkpoints: { count: number; bytes: number; spacing: number };
  seek: Timing; // to a random op
  scrub: Timing; // to a random event
  stepOpBack: Timing;
  stepEventBack: Timing; // across an op boundary, the expensive case
  stepForward: Timing; // one op forward, as play does
}

/**
 * Time the player's moves on the 1M-event history. Each move includes reading the state the views
 * draw (sim.state()), because a step the reader can see costs both.
 */
export async function seekBench(
  moves = 40,
  workload = BENCH_WORKLOAD,
  machine: ExplicitMachine | null = null,
): Promise<SeekResult> {
  const { sim, player, scanMs } = await history(workload, machine);
  const next = rng(1234);
  const time = (move: () => void): number => {
    const t = performance.now();
    move();
    sim.state();
    return performance.now() - t;
  };
  const seek: number[] = [];
  const scrub: number[] = [];
  const stepOpBack: number[] = [];
  const stepEventBack: number[] = [];
  const stepForward: number[] = [];
  for (let i = 0; i < moves; i++) {
    seek.push(time(() => player.seekOp(1 + Math.floor(next() * player.length))));
    scrub.push(time(() => player.seekEvent(Math.floor(next() * player.totalEvents))));
    stepOpBack.push(time(() => player.stepOp(-1)));
    // At an op's first event, one event back is the previous op's last: a replay.
    player.seek({ op: 2 + Math.floor(next() * (player.length - 2)), event: 0 });
    stepEventBack.push(time(() => player.stepEvent(-1)));
    stepForward.push(time(() => player.stepOp(1)));
  }
  return {
    ops: player.length,
    events: player.totalEvents,
    scanMs,
    checkpoints: player.checkpointStats,
    seek: summarize(seek),
    scrub: summarize(scrub),
    stepOpBack: summarize(stepOpBack),
    stepEventBack: summarize(stepEventBack),
    stepForward: summarize(stepForward),
  };
}

/** Machines up to this many frames (16M: 64 GiB) get the floor rows: one bitmap of every frame. */
const MAX_FLOOR_FRAMES = 2 ** 24;

export interface MapResult {
  frames: number;
  mode: string; // the map's data-mode: 'overview' or 'blocks'
  canvas: { width: number; height: number };
  /** Redraw after one op forward (the player's move untimed), as step and play do. */
  step: Timing;
  /** Redraw after one op back: a restore of a checkpoint and a replay. */
  stepBack: Timing;
  /** Redraw after a seek `seekOps` ops back: many blocks differ. */
  seek: Timing;
  seekOps: number;
  /** Redraw with every pixel painted again (the palette changes: light and dark in turn). */
  full: Timing;
  /** Each of the rest is null on a machine over MAX_FLOOR_FRAMES (it is never painted whole). */
  paint: Timing | null; // the core's class map of every frame through the palette alone (part of full)
  paintTs: Timing | null; // the TypeScript painter (paintFrames) on the same frames, for comparison
  floor: Timing | null;
  /**
   * The floor plus writing every pixel once first (a plain fill of the image's buffer): the least
   * any full repaint costs, since it must write the pixels it puts.
   */
  fillFloor: Timing | null;
}

/** Wait for the canvas to have been painted: a one-pixel read makes the 2D context flush. */
function flush(c: HTMLCanvasElement): void {
  c.getContext('2d')?.getImageData(0, 0, 1, 1);
}

/**
 * Redraw the memory map of the whole 1M-frame machine, full view: the real MemoryMap component
 * re-rendered by React with the state a player's move leaves (read as a step reads it), timed
 * from render to the canvas flushed, `redraws` times for each kind of move. The map repaints the
 * blocks that differ from what it drew, so each kind costs what it changes. Against the floor:
 * putImageData of the same pixels, read back from the map's own image.
 */
export async function mapBench(
  redraws = 60,
  width = 800,
  workload = BENCH_WORKLOAD,
  machine: ExplicitMachine | null = null,
): Promise<MapResult> {
  const { sim, player } = await history(workload, machine);
  // The views fill the window from its top, over the page, as a reader's screen shows them: the
  // ones in the window are laid out and painted, the ones below it only kept up to date (.view's
  // content-visibility, app.css), as in the playground.
  const host = document.createElement('div');
  host.style.cssText = `position:fixed;top:0;left:0;width:${width}px;height:100vh;overflow:auto;z-index:1;background:Canvas`;
  document.body.append(host);
  const root = createRoot(host);
  const render = (state: ModelState, theme: 'light' | 'dark' = 'light') =>
    flushSync(() =>
      root.render(
        createElement(MemoryMap, {
          state,
          event: null,
          opEvents: [],
          options: { theme, reducedMotion: true },
        }),
      ),
    );
  try {
    player.seekOp(Math.floor(player.length / 2));
    render(sim.state());
    // the layer a redraw shows: the overview's cells on a big machine, else the frames
    const shown = () =>
      host.querySelector<HTMLCanvasElement>('canvas[data-layer="overview"]') ??
      host.querySelector<HTMLCanvasElement>('canvas[data-layer="frames"]');
    const canvas = shown();
    if (!canvas) throw new Error('MemoryMap drew no canvas');
    const mode = host.querySelector('section.memory-map')?.getAttribute('data-mode') ?? '';
    /** Time `redraws` redraws, each after move(i) (untimed), after a few untimed to warm up. */
    const timeAfter = (move: (i: number) => void, theme?: (i: number) => 'light' | 'dark') => {
      const times: number[] = [];
      for (let i = -4; i < redraws; i++) {
        move(i);
        const state = sim.state(); // what each move hands the views: a fresh read
        const t = performance.now();
        render(state, theme?.(i));
        const c = shown();
        if (c) flush(c);
        if (i >= 0) times.push(performance.now() - t);
      }
      return summarize(times);
    };
    const step = timeAfter(() => player.stepOp(1));
    const stepBack = timeAfter(() => player.stepOp(-1));
    const seekOps = Math.floor(player.length / (4 * redraws));
    const seek = timeAfter(() => player.seekOp(player.position.op - seekOps));
    const full = timeAfter(
      () => undefined,
      (i) => (i & 1 ? 'light' : 'dark'),
    );
    // The floor: the same pixels (painted once, untimed) put onto a canvas of the image's size.
    const state = sim.state();
    const { lo, hi } = pfnExtent(state);
    const frames = 2 ** Math.ceil(Math.log2(hi - lo));
    const measured = { frames, mode, canvas: { width: canvas.width, height: canvas.height } };
    const moves = { step, stepBack, seek, seekOps, full };
    // A machine too big for a picture of every frame (1 TiB: a gigabyte of pixels) has no floor:
    // the map never paints its frames whole, only its overview.
    if (frames > MAX_FLOOR_FRAMES)
      return { ...measured, ...moves, paint: null, paintTs: null, floor: null, fillFloor: null };
    const cols = 2 ** Math.ceil(Math.log2(Math.sqrt(frames)));
    const image = new ImageData(cols, frames / cols);
    paintFrames(
      state,
      { start: lo, count: frames, cols },
      mapColors('light'),
      new Uint32Array(image.data.buffer),
    );
    const bare = document.createElement('canvas');
    bare.width = image.width;
    bare.height = image.height;
    host.append(bare);
    const ctx = bare.getContext('2d');
    if (!ctx) throw new Error('no 2d context');
    // Where our time goes: the core's class map through the palette alone (what the map paints
    // from), and the TypeScript painter it replaced, into a buffer of the same size.
    const lut = mapColors('light').lut;
    const paint: number[] = [];
    for (let i = 0; i < redraws; i++) {
      const t = performance.now();
      sim.frameClassesMapped(lo, frames, lut);
      paint.push(performance.now() - t);
    }
    const words = new Uint32Array(frames);
    const paintTs: number[] = [];
    for (let i = 0; i < redraws; i++) {
      const t = performance.now();
      paintFrames(state, { start: lo, count: frames, cols }, mapColors('light'), words);
      paintTs.push(performance.now() - t);
    }
    const floor: number[] = [];
    for (let i = 0; i < redraws; i++) {
      const t = performance.now();
      ctx.putImageData(image, 0, 0);
      flush(bare);
      floor.push(performance.now() - t);
    }
    // Two colours in turn, so every fill writes what the last one left.
    const fillFloor: number[] = [];
    const pixels = new Uint32Array(image.data.buffer);
    const lutColors = [lut[0] ?? 0, lut[1] ?? 0];
    for (let i = 0; i < redraws; i++) {
      const t = performance.now();
      pixels.fill(lutColors[i & 1] ?? 0);
      ctx.putImageData(image, 0, 0);
      flush(bare);
      fillFloor.push(performance.now() - t);
    }
    return {
      ...measured,
      ...moves,
      paint: summarize(paint),
      paintTs: summarize(paintTs),
      floor: summarize(floor),
      fillFloor: summarize(fillFloor),
    };
  } finally {
    root.unmount();
    host.remove();
  }
}

export { BIG_WORKLOAD, server2Workload };

/** One kind of move with every view drawn: in all, and split into the player's part and the views'. */
export interface MoveTiming {
  total: Timing; // the player's move plus every view drawn (React render, commit, effects)
  player: Timing; // of which the player's move (restore, replay, the op's events)
  views: Timing; // of which the views: render, commit, effects, the map's canvas flushed, layout
  mutations: number; // DOM mutation records a move, on average
}

export interface StepViewsResult {
  ops: number;
  panels: number;
  frames: number; // managed frames of the machine
  snapshotBytes: number; // one checkpoint of this machine (a restore copies that much)
  checkpoints: { count: number; bytes: number; spacing: number };
  stepOpBack: Timing; // = back.total (the row the bench has always printed)
  player: Timing; // = back.player
  views: Timing; // = back.views
  back: MoveTiming; // one op back
  forward: MoveTiming; // one op forward, as play does
  seek: MoveTiming; // to a random op
}

/** Every view of the playground mounted on a workload's session, for the bench and a profiler. */
export interface MountedViews {
  session: Session;
  host: HTMLElement;
  /**
   * Run move (a player move) and draw every view at once: the map's canvases flushed, the page's
   * style and layout done.
   */
  draw(move: () => void): { total: number; player: number; views: number };
  /** DOM mutation records in the views since they were mounted. */
  mutations(): number;
  dispose(): void;
}

/**
 * Mount SessionViews (reduced motion, light) on a fresh session of workload at its end, in a host
 * `width` px wide, and draw a first move untimed (the lazy views arrive, the map counts its
 * overview once).
 */
export async function mountViews(
  workload: string,
  width = 1000,
  machine: ExplicitMachine | null = null,
): Promise<MountedViews> {
  const core = await loadCore();
  const session = new Session(core, compiled(workload, machine));
  const host = document.createElement('div');
  host.style.width = `${width}px`;
  document.body.append(host);
  const root = createRoot(host);
  session.player.end();
  flushSync(() =>
    root.render(createElement(SessionViews, { session, theme: 'light', reducedMotion: true })),
  );
  await new Promise((r) => setTimeout(r, 200)); // the lazy memory map arrives
  flushSync(() => session.player.stepOp(-1));
  const canvases = () => host.querySelectorAll<HTMLCanvasElement>('.memory-map canvas');
  // What the views wrote into the page, as a count the machine's load does not change: DOM
  // mutation records (elements added or removed, attributes and texts set).
  let mutations = 0;
  const watch = new MutationObserver((records) => (mutations += records.length));
  watch.observe(host, { subtree: true, childList: true, attributes: true, characterData: true });
  return {
    session,
    host,
    mutations: () => (mutations += watch.takeRecords().length),
    draw(move) {
      const t = performance.now();
      let moved = t;
      // flushSync renders after its callback returns: the mark splits the move from the views.
      flushSync(() => {
        move();
        moved = performance.now();
      });
      for (const c of canvases()) flush(c); // the map's layers drawn, frames or overview
      // The page's style and layout, which the frame showing the step needs: counted here once
      // per move whether or not a view forced it earlier (reading layout in its commit).
      host.getBoundingClientRect();
      const end = performance.now();
      return { total: end - t, player: moved - t, views: end - moved };
    },
    dispose() {
      watch.disconnect();
      root.unmount();
      host.remove();
      session.dispose();
    },
  };
}

/**
 * Moves on a workload's machine (server2's 16 CPUs by default) with every view of the playground
 * mounted (SessionViews, reduced motion), `moves` of each kind: one op back from the end, one op
 * forward, a seek to a random op; each timed until the views are drawn.
 */
export async function stepViewsBench(
  moves = 40,
  workload = server2Workload(),
  machine: ExplicitMachine | null = null,
): Promise<StepViewsResult> {
  const m = await mountViews(workload, 1000, machine);
  const { session, host } = m;
  try {
    const panels = host.querySelectorAll('.pcp').length;
    const timed = (move: (i: number) => void): MoveTiming => {
      const times: number[] = [];
      const player: number[] = [];
      const views: number[] = [];
      const before = m.mutations();
      for (let i = 0; i < moves; i++) {
        const d = m.draw(() => move(i));
        times.push(d.total);
        player.push(d.player);
        views.push(d.views);
      }
      return {
        total: summarize(times),
        player: summarize(player),
        views: summarize(views),
        mutations: (m.mutations() - before) / moves,
      };
    };
    const p = session.player;
    const back = timed(() => p.stepOp(-1));
    const forward = timed(() => p.stepOp(1));
    const next = rng(99);
    const seek = timed(() => p.seekOp(1 + Math.floor(next() * p.length)));
    const stats = p.checkpointStats;
    return {
      ops: p.length,
      panels,
      frames: session.state().frames.count,
      snapshotBytes: stats.bytes / Math.max(1, stats.count),
      checkpoints: stats,
      stepOpBack: back.total,
      player: back.player,
      views: back.views,
      back,
      forward,
      seek,
    };
  } finally {
    m.dispose();
  }
}

/** Preact's option hooks: scripts/bench/profile-views.mjs times each view's diff and commit through them. */
export { options as preactOptions } from 'preact';
