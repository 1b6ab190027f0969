// ops.test.ts: OpList, the packed struct sim_op records every layer passes on: packing and
// reading back, views and copies, and where two lists first differ.
import { describe, expect, it } from 'vitest';
import { firstDifference, OpBuffer, OpKind, OpList, SIM_OP_SIZE, type SimOp } from './ops';

const op = (kind: SimOp['kind'], handle: number, arg = 0): SimOp => ({
  kind,
  order: 3,
  cpu: 513,
  gfp: 0x80000cc0,
  handle,
  arg,
});

describe('OpList', () => {
  it('reads back every field as packed, little-endian', () => {
    const ops = [op(OpKind.ALLOC, 0xfffffffe, -7), op(OpKind.FREE, 1)];
    const list = OpList.of(ops);
    expect(list.length).toBe(2);
    expect(list.bytes.length).toBe(2 * SIM_OP_SIZE);
    expect(list.toArray()).toEqual(ops);
    expect(list.at(1)).toEqual(ops[1]);
    expect(list.at(2)).toBeUndefined();
    expect(list.at(-1)).toBeUndefined();
    expect([...list.bytes.subarray(0, 4)]).toEqual([OpKind.ALLOC, 3, 1, 2]); // kind, order, cpu 513
  });

  it('slices as views of the same bytes and concatenates into a copy', () => {
    const b = new OpBuffer(1);
    for (let i = 0; i < 5; i++) b.pushFields(OpKind.TICK, 0, 0, 0, 0, i);
    const list = b.finish();
    const mid = list.slice(1, 4);
    expect(mid.bytes.buffer).toBe(list.bytes.buffer);
    expect(mid.toArray().map((o) => o.arg)).toEqual([1, 2, 3]);
    expect(list.slice(3, 99).length).toBe(2);
    const joined = mid.concat(list.slice(0, 1));
    expect(joined.bytes.buffer).not.toBe(list.bytes.buffer);
    expect(joined.toArray().map((o) => o.arg)).toEqual([1, 2, 3, 0]);
  });

  it('copies records that sit off a word boundary, and refuses a partial record', () => {
    const raw = new Uint8Array(SIM_OP_SIZE + 1);
    raw.set(OpList.of([op(OpKind.DRAIN_ALL, 9)]).bytes, 1);
    expect(new OpList(raw.subarray(1)).at(0)).toEqual(op(OpKind.DRAIN_ALL, 9));
    expect(() => new OpList(new Uint8Array(SIM_OP_SIZE - 1))).toThrow(/whole number/);
  });

  it('finds the first difference in any field, and the shorter length for a prefix', () => {
    const base = [op(OpKind.ALLOC, 0), op(OpKind.ALLOC, 1), op(OpKind.FREE, 1)];
    const a = OpList.of(base);
    expect(firstDifference(a, OpList.of(base))).toBe(3);
    expect(firstDifference(a, OpList.of(base.slice(0, 2)))).toBe(2);
    expect(firstDifference(a, OpList.of([...base, op(OpKind.TICK, 0)]))).toBe(3);
    for (const change of [{ cpu: 512 }, { gfp: 0x80000cc1 }, { arg: 1 }, { order: 2 }]) {
      expect(firstDifference(a, OpList.of([base[0]!, { ...base[1]!, ...change }]))).toBe(1);
    }
    // Views of the same bytes share their common prefix without comparing it.
    expect(firstDifference(a.slice(0, 1), a)).toBe(1);
  });
});
