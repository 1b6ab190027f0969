/*
 * toy-engine.ts: a deterministic stand-in for the wasm Sim, for player tests that must count
 * replays or build histories of a million events in milliseconds. Op `arg` says how many events it
 * emits; each event's `a` carries a running hash of every op so far, so a wrong replay (an op
 * skipped or applied twice) shows up as a different `a`.
 */
import type { OpList } from '../../core/ops';
import type { Engine, SimEvent } from '../engine';

export class ToyEngine implements Engine {
  /** [hash, event seq, op seq] */
  private state = new Int32Array(3);
  private buf: SimEvent[] = [];
  applied = 0; // ops applied, replays included (to measure seek cost)
  restores = 0;

  /** `pad` bytes of nothing after the state in each snapshot, to stand for a big machine's arena. */
  constructor(private readonly pad = 0) {}

  applyAt(ops: OpList, i: number): number {
    const op = ops.at(i);
    if (!op) return 2; // SIM_EINVAL: no such op
    this.applied++;
    const s = this.state;
    s[0] = (Math.imul(s[0] ?? 0, 31) + op.kind * 7 + op.arg + op.handle) | 0;
    const n = Math.max(0, op.arg);
    for (let i = 0; i < n; i++) {
      const seq = s[1] ?? 0;
      s[1] = seq + 1;
      this.buf.push({
        seq,
        op: s[2] ?? 0,
        pfn: op.handle,
        a: s[0] ?? 0,
        b: i,
        c: 0,
        cpu: op.cpu,
        kind: op.order === 0 ? 6 : op.order, // pcp_hit unless the test asks for a kind
        node: 0,
        zone: 2,
        order: 0,
        mt: 0,
        fn: 0,
      });
    }
    s[2] = (s[2] ?? 0) + 1;
    return 0;
  }

  eventCount(): number {
    return this.buf.length;
  }

  eventKind(i: number): number {
    return this.buf[i]?.kind ?? 0;
  }

  events(from = 0, to = this.buf.length): SimEvent[] {
    return this.buf.slice(from, to).map((e) => ({ ...e }));
  }

  clearEvents(): void {
    this.buf = [];
  }

  snapshot(): Uint8Array {
    const out = new Uint8Array(this.state.byteLength + this.pad);
    out.set(new Uint8Array(this.state.buffer));
    return out;
  }

  restore(snapshot: Uint8Array): void {
    this.restores++;
    this.state = new Int32Array(snapshot.slice(0, this.state.byteLength).buffer);
    this.buf = [];
  }

  /** The hash of ops applied so far (the "state" a test compares). */
  get hash(): number {
    return this.state[0] ?? 0;
  }
}
