/*
 * compile-client.ts: compile workload text off the main thread. Each Compiler owns one worker
 * and one request at a time: a new request while one is running terminates the worker (the
 * only way to stop a compile midway) and the old promise resolves as cancelled. Where there are
 * no workers (Node tests), it compiles in place.
 */
import type { ExplicitMachine } from '../core/machine-config';
import { answer } from './compile-core';
import type { CompileReply, CompileRequest } from './protocol';

export type CompileAnswer = CompileReply | { cancelled: true };

export class Compiler {
  private worker: Worker | null = null;
  private pending: { id: number; resolve: (a: CompileAnswer) => void } | null = null;
  private nextId = 1;

  compile(text: string, machine: ExplicitMachine | null, wantOps: boolean): Promise<CompileAnswer> {
    const req: CompileRequest = { id: this.nextId++, text, machine, wantOps };
    if (typeof Worker === 'undefined') return Promise.resolve(answer(req));
    if (this.pending) {
      this.pending.resolve({ cancelled: true });
      this.pending = null;
      this.worker?.terminate();
      this.worker = null;
    }
    const w = (this.worker ??= this.spawn());
    return new Promise((resolve) => {
      this.pending = { id: req.id, resolve };
      w.postMessage(req);
    });
  }

  private spawn(): Worker {
    const w = new Worker(new URL('./compile-worker.ts', import.meta.url), { type: 'module' });
    w.onmessage = (e: MessageEvent<CompileReply>) => {
      if (this.pending?.id !== e.data.id) return;
      const p = this.pending;
      this.pending = null;
      p.resolve(e.data);
    };
    w.onerror = (e) => {
      e.preventDefault();
      const p = this.pending;
      this.pending = null;
      this.worker?.terminate();
      this.worker = null;
      p?.resolve({
        id: p.id,
        ok: false,
        error: { line: 1, col: 1, message: `the compiler stopped: ${e.message || 'worker error'}` },
      });
    };
    return w;
  }

  dispose(): void {
    this.pending?.resolve({ cancelled: true });
    this.pending = null;
    this.worker?.terminate();
    this.worker = null;
  }
}
