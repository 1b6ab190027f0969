/*
 * frame-image.ts: one view's pixels of a window of a Sim's frames, held in the wasm heap and kept
 * up to date by Sim.paintFrames. The first paint writes every pixel; later ones repaint only the
 * max-order blocks whose frame stamps differ from those the image was painted at. A stamp names
 * the op history of its block's last change (frame_changed, wasm-core/src/base/state.h), so this holds
 * across restores and branches too: a step, a seek or a step back costs what differs, not what
 * the window holds. Another Sim, window or palette paints everything again.
 */
import type { Core } from './module';

/** The most repainted spans one paint reports; further ones widen the last. */
export const MAX_PAINT_SPANS = 8;

/** What a paint did. */
export interface FramePaint {
  /** The window's pixels, one word per frame: a heap view valid until the next call into the core. */
  words: Uint32Array;
  /** Index spans [lo, hi) of words repainted, in order; null when every pixel was. */
  spans: readonly (readonly [number, number])[] | null;
}

/** What a FrameImage's buffer holds, as Sim.paintFrames left it. */
export interface FrameImageState {
  owner: object | null; // the Sim painted (null: nothing yet)
  start: number;
  count: number;
  lut: Uint32Array | null; // the palette then (a copy)
}

const NOTHING: FrameImageState = { owner: null, start: 0, count: 0, lut: null };

/**
 * A heap buffer and what it holds. Layout (Sim.paintFrames): the frame stamps it was painted at,
 * the palette, room for MAX_PAINT_SPANS span pairs, then the pixels. Free it when the view goes.
 */
export class FrameImage {
  core: Core | null = null;
  ptr = 0;
  bytes = 0;
  held: FrameImageState = NOTHING;

  /** Keep the buffer but not what it holds: the next paint writes every pixel. */
  forget(): void {
    this.held = NOTHING;
  }

  /** Give the buffer back to its heap; the next paint starts over. */
  free(): void {
    if (this.core && this.ptr) this.core.mod._free(this.ptr);
    this.core = null;
    this.ptr = 0;
    this.bytes = 0;
    this.forget();
  }
}
