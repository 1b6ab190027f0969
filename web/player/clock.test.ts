// The play clock takes steps from elapsed time, at either grain, and stops at the end.
import { describe, expect, it } from 'vitest';
import { OpKind, OpList, type SimOp } from '../core/ops';
import { Clock, type Scheduler } from './clock';
import { Player } from './player';
import { ToyEngine } from './testing/toy-engine';

class FakeFrames implements Scheduler {
  t = 0;
  pending: (() => void) | null = null;
  now(): number {
    return this.t;
  }
  request(cb: () => void): number {
    this.pending = cb;
    return 1;
  }
  cancel(): void {
    this.pending = null;
  }
  /** Advance time by ms and run the frame callback. */
  frame(ms: number): void {
    this.t += ms;
    const cb = this.pending;
    this.pending = null;
    cb?.();
  }
}

const ops: SimOp[] = Array.from({ length: 50 }, () => ({
  kind: OpKind.ALLOC,
  order: 0,
  cpu: 0,
  gfp: 0,
  handle: 0,
  arg: 2,
}));

describe('Clock', () => {
  it('plays ops at the chosen speed, carrying fractions between frames', () => {
    const frames = new FakeFrames();
    const p = new Player(new ToyEngine(), OpList.of(ops));
    const c = new Clock(p, frames);
    c.setSpeed(10);
    c.play();
    frames.frame(50); // half a step
    expect(p.position.op).toBe(0);
    frames.frame(50);
    expect(p.position.op).toBe(1);
    frames.frame(1000);
    expect(p.position.op).toBe(11);
    c.pause();
    expect(c.playing).toBe(false);
    frames.frame(1000);
    expect(p.position.op).toBe(11);
  });

  it('plays events at event grain and stops at the end', () => {
    const frames = new FakeFrames();
    const p = new Player(new ToyEngine(), OpList.of(ops));
    const c = new Clock(p, frames);
    c.setGrain('event');
    c.setSpeed(1000);
    c.play();
    frames.frame(10);
    expect(p.eventIndex).toBe(9);
    frames.frame(10_000);
    expect(p.atEnd).toBe(true);
    expect(c.playing).toBe(false);
    c.play(); // at the end, play starts over
    expect(p.position.op).toBe(0);
  });
});
