/*
 * test-api.ts: window.__buddyscope, so end-to-end tests assert on the model, not on pixels. Only
 * in dev servers and in builds made with VITE_TEST_API=1: the condition is static, so Vite drops
 * this code from the production bundle.
 */
import type { SimEvent } from '../player/engine';
import type { Player } from '../player/player';
import type { ModelState } from '../views/model';
import type { Session } from './session';
import type { CellCounts } from '../views/memory-map-overview';
import { FC } from '../views/model';
import { FrameImage } from '../core/frame-image';

export interface TestApi {
  state(): ModelState;
  currentEvent(): SimEvent | null;
  events(): readonly SimEvent[];
  player: Player;
  compare: Player | null;
  /** npm run bench's measurements (web/bench/hooks.ts), fetched on first use as their own chunk. */
  bench(): Promise<typeof import('../bench/hooks')>;
  /**
   * The playground memory map's frames canvas against the TypeScript painter (paintFrames) on the
   * current state: null when every pixel agrees, else where the first one differs. The canvas is
   * repainted by the core only where frames changed, so this checks that nothing was missed.
   */
  mapMismatch(): Promise<string | null>;
}

declare global {
  interface Window {
    __buddyscope?: TestApi;
  }
}

export const TEST_API_ENABLED: boolean =
  import.meta.env.DEV || import.meta.env.VITE_TEST_API === '1';

/** Cells held against the core's class map of their frames (all, or 256 spread over them). */
const CHECKED_CELLS = 256;

/**
 * The overview's counts against the core's own class map (bs_frame_classes_repaint) of each
 * checked cell's frames, counted here: null when they agree.
 */
function overviewMismatch(state: ModelState, ov: CellCounts): string | null {
  const ids = Uint32Array.from({ length: FC.COUNT }, (_, c) => c);
  const step = Math.max(1, Math.floor(ov.units / CHECKED_CELLS));
  const image = new FrameImage();
  try {
    for (let u = 0; u < ov.units; u += step) {
      const lo = ov.start + u * ov.unit;
      const want = new Float64Array(FC.COUNT);
      for (const c of state.frames.paint(image, lo, ov.unit, ids).words)
        want[c] = (want[c] ?? 0) + 1;
      for (let c = 0; c < FC.COUNT; c++) {
        const got = ov.counts[u * FC.COUNT + c] ?? 0;
        if (got !== want[c])
          return `cell ${u} (pfn ${lo}): class ${c}: overview ${got}, core ${want[c] ?? 0}`;
      }
    }
    return null;
  } finally {
    image.free();
  }
}

/**
 * The overview canvas against its counts: each cell's bottom bitmap row is the colour of
 * the first class of STACK it holds (the cells are stacked bands from the bottom), else a hole.
 * Catches a cell counted right but left unpainted.
 */
function overviewPixelMismatch(
  canvas: HTMLCanvasElement,
  ov: CellCounts,
  lut: Uint32Array,
  { STACK, UNIT_PX }: { STACK: readonly number[]; UNIT_PX: number },
): string | null {
  const copy = document.createElement('canvas');
  const ctx = copy.getContext('2d', { willReadFrequently: true });
  if (!ctx) return 'no 2d context';
  copy.width = canvas.width;
  copy.height = canvas.height;
  ctx.drawImage(canvas, 0, 0);
  const px = new Uint32Array(ctx.getImageData(0, 0, copy.width, copy.height).data.buffer);
  const cols = copy.width / UNIT_PX;
  // cells of 8 css px or more have a gap row under them (MemoryMap paintUnits)
  const gap = canvas.getBoundingClientRect().width / cols >= UNIT_PX ? 1 : 0;
  for (let u = 0; u < ov.units; u++) {
    const first = STACK.find((c) => (ov.counts[u * FC.COUNT + c] ?? 0) > 0);
    const want = lut[first ?? FC.HOLE] ?? 0;
    const x = (u % cols) * UNIT_PX;
    const y = Math.floor(u / cols) * UNIT_PX + UNIT_PX - gap - 1;
    const got = px[y * copy.width + x] ?? 0;
    if (got !== want)
      return `overview cell ${u}: bottom pixel ${got.toString(16)}, its counts say ${want.toString(16)}`;
  }
  return null;
}

export function exposeTestApi(session: Session | null, compare: Session | null): void {
  if (!TEST_API_ENABLED) return;
  if (!session) {
    delete window.__buddyscope;
    return;
  }
  window.__buddyscope = {
    state: () => session.state(),
    currentEvent: () => session.player.currentEvent,
    events: () => session.player.currentOpEvents,
    player: session.player,
    compare: compare?.player ?? null,
    bench: () => import('../bench/hooks'),
    mapMismatch: async () => {
      const { mapColors, paintFrames } = await import('../views/memory-map-paint');
      const section = document.querySelector('.views section.memory-map');
      if (section?.getAttribute('data-mode') === 'overview') {
        const overview = await import('../views/memory-map-overview');
        const { overviewOf } = overview;
        const ov = overviewOf.get(section);
        if (!ov) return 'no overview counts';
        const theme = document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';
        const cells = section.querySelector<HTMLCanvasElement>('canvas[data-layer="overview"]');
        return (
          overviewMismatch(session.state(), ov) ??
          (cells
            ? overviewPixelMismatch(cells, ov, mapColors(theme).lut, overview)
            : 'no overview canvas')
        );
      }
      const canvas = document.querySelector<HTMLCanvasElement>(
        '.views canvas[data-layer="frames"]',
      );
      // Read through a copy: the map's own context is never read back, and one read of a fresh
      // context is not the repeated readback Chrome warns about.
      const copy = document.createElement('canvas');
      const ctx = copy.getContext('2d', { willReadFrequently: true });
      if (!canvas || !ctx) return 'no memory map';
      copy.width = canvas.width;
      copy.height = canvas.height;
      ctx.drawImage(canvas, 0, 0);
      const cols = canvas.width;
      const count = cols * canvas.height;
      const start = Number(canvas.dataset.start);
      const theme = document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';
      const want = new Uint32Array(count);
      paintFrames(session.state(), { start, count, cols }, mapColors(theme), want);
      const got = new Uint32Array(ctx.getImageData(0, 0, cols, canvas.height).data.buffer);
      const i = got.findIndex((v, k) => v !== want[k]);
      if (i < 0) return null;
      const hex = (v: number | undefined) => (v ?? 0).toString(16);
      return `pfn ${start + i}: canvas ${hex(got[i])}, model ${hex(want[i])}`;
    },
  };
}
