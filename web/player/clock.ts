/*
 * clock.ts: playing a timeline at a chosen speed. Steps are taken from elapsed time, not per
 * frame, so a slow frame never slows the simulation's pace and fast speeds take many steps in one
 * frame (one seek, one redraw). The scheduler is injected so tests run it without a browser.
 */
import type { Player } from './player';

export type Grain = 'op' | 'event';

/** Speeds offered in steps per second; the UI shows them as "1×" .. "1000×". */
export const SPEEDS = [1, 2, 4, 10, 30, 100, 1000, 10000] as const;
export const DEFAULT_SPEED = 4;

export interface Scheduler {
  now(): number; // milliseconds
  request(cb: () => void): number;
  cancel(id: number): void;
}

export const frameScheduler: Scheduler = {
  now: () => performance.now(),
  request: (cb) => requestAnimationFrame(cb),
  cancel: (id) => cancelAnimationFrame(id),
};

export class Clock {
  private handle: number | null = null;
  private last = 0;
  private owed = 0; // fractional steps carried to the next frame
  speed: number = DEFAULT_SPEED;
  grain: Grain = 'op';
  private listeners = new Set<() => void>();
  /** Whether the views have caught up with the last step (see holdFor). */
  private ready: (() => boolean) | null = null;

  constructor(
    private readonly player: Player,
    private readonly scheduler: Scheduler = frameScheduler,
  ) {}

  get playing(): boolean {
    return this.handle !== null;
  }

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  play(): void {
    if (this.playing) return;
    if (this.player.atEnd) this.player.home();
    this.last = this.scheduler.now();
    this.owed = 0;
    this.handle = this.scheduler.request(this.tick);
    this.emit();
  }

  pause(): void {
    if (this.handle === null) return;
    this.scheduler.cancel(this.handle);
    this.handle = null;
    this.emit();
  }

  toggle(): void {
    if (this.playing) this.pause();
    else this.play();
  }

  setSpeed(speed: number): void {
    this.speed = Math.max(0.1, speed);
    this.emit();
  }

  setGrain(grain: Grain): void {
    this.grain = grain;
    this.emit();
  }

  /**
   * Let the views pace play: while ready() is false (the last step is not drawn yet), ticks take
   * no step and the steps owed pile up, so the next one jumps further and the pace holds. Views
   * that draw in slices use it so that a step never lands on a half-drawn one. Returns the undo.
   */
  holdFor(ready: () => boolean): () => void {
    this.ready = ready;
    return () => {
      if (this.ready === ready) this.ready = null;
    };
  }

  private readonly tick = (): void => {
    const now = this.scheduler.now();
    this.owed += ((now - this.last) / 1000) * this.speed;
    this.last = now;
    if (this.ready && !this.ready()) {
      this.handle = this.scheduler.request(this.tick);
      return;
    }
    const steps = Math.floor(this.owed);
    if (steps > 0) {
      this.owed -= steps;
      if (this.grain === 'op') this.player.stepOp(steps);
      else this.player.stepEvent(Math.min(steps, 100000));
    }
    if (this.player.atEnd) {
      this.handle = null;
      this.emit();
      return;
    }
    this.handle = this.scheduler.request(this.tick);
  };

  private emit(): void {
    for (const fn of this.listeners) fn();
  }
}
