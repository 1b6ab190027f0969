/*
 * link.ts: the share-link fuzzer. Format-1 payloads (valid states with fields swapped for wrong
 * types and absurd numbers, and arbitrary JSON), random bytes, and random text are packed as the
 * site packs them, then the s= value is edited; decodeState must refuse with a column inside the
 * value, and the text of a state it accepts must go through the parser without a throw.
 */
import fc from 'fast-check';
import { PROFILE_NAMES } from '../../web/core/machine-config';
import { toBase64url } from '../../web/share/base64url';
import { deflateRaw } from '../../web/share/deflate';
import { decodeState, LINK_FORMAT } from '../../web/share/link';
import { parseWorkload } from '../../web/workload/parser';
import type { FuzzTarget, Rejection } from './harness';
import { mutate, mutations, type Mutation } from './mutate';
import { workloadText } from './workload';

const odd = fc.oneof(
  fc.constantFrom(null, true, -1, 0.5, 1e300, 2 ** 32, 2 ** 53, 'x', [], {}),
  fc.integer(),
);
/** A field: mostly what the validator wants, sometimes anything. */
const mostly = <T>(good: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 8, arbitrary: good }, { weight: 1, arbitrary: odd });
const zone = fc.oneof(
  // spans the validator accepts: managed <= present <= spanned
  fc
    .record({ startPfn: fc.nat(1 << 20), managed: fc.nat(4096), hole: fc.nat(64), gap: fc.nat(64) })
    .map(({ startPfn, managed, hole, gap }) => ({
      startPfn,
      spanned: managed + hole + gap,
      present: managed + hole,
      managed,
    })),
  fc.record({
    startPfn: fc.oneof(fc.nat(1 << 20), fc.constant(0xfffff000), odd),
    spanned: fc.oneof(fc.nat(4096), odd),
    present: fc.oneof(fc.nat(4096), odd),
    managed: fc.oneof(fc.nat(4096), odd),
  }),
);
const machine = fc.oneof(
  fc.constant(null),
  fc.record({
    kind: mostly(fc.constant('explicit')),
    nodes: mostly(fc.integer({ min: 1, max: 3 })),
    cpusPerNode: mostly(fc.integer({ min: 1, max: 4 })),
    maxOrder: mostly(fc.integer({ min: 1, max: 10 })),
    pageblockOrder: mostly(fc.integer({ min: 0, max: 10 })),
    thp: mostly(fc.boolean()),
    zones: mostly(fc.array(fc.array(zone, { maxLength: 5 }), { minLength: 1, maxLength: 3 })),
  }),
  odd,
);
const state = fc.record(
  {
    t: mostly(workloadText),
    x: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 2, arbitrary: machine }),
    p: mostly(fc.tuple(fc.nat(100), fc.integer({ min: -1, max: 100 }))),
    v: mostly(fc.record({ c: mostly(fc.constantFrom(...PROFILE_NAMES)) })),
  },
  { requiredKeys: ['t', 'x', 'p'] },
);

type Payload =
  | { kind: 'json'; value: unknown }
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'text'; text: string };

export interface LinkInput {
  head: string;
  payload: Payload;
  edits: readonly Mutation[];
}

export const linkInput: fc.Arbitrary<LinkInput> = fc.record({
  head: fc.oneof(
    { weight: 8, arbitrary: fc.nat(40).map((m) => `${LINK_FORMAT}.${m}.`) },
    { weight: 1, arbitrary: fc.constantFrom('', '0.1.', '2.1.', '999999.1.', '1.1', '1..') },
    { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
  ),
  payload: fc.oneof(
    { weight: 6, arbitrary: state.map((value): Payload => ({ kind: 'json', value })) },
    { weight: 1, arbitrary: fc.jsonValue().map((value): Payload => ({ kind: 'json', value })) },
    {
      weight: 1,
      arbitrary: fc
        .uint8Array({ maxLength: 64 })
        .map((bytes): Payload => ({ kind: 'bytes', bytes })),
    },
    {
      weight: 1,
      arbitrary: fc.string({ maxLength: 40 }).map((text): Payload => ({ kind: 'text', text })),
    },
  ),
  edits: fc.oneof(
    { weight: 2, arbitrary: fc.constant<Mutation[]>([]) },
    { weight: 1, arbitrary: mutations(2) },
  ),
});

/** The s= value of an input: the payload packed as the site packs it, its data then edited. */
export async function linkValue(input: LinkInput): Promise<string> {
  const p = input.payload;
  if (p.kind === 'text') return input.head + mutate(p.text, input.edits);
  const raw = p.kind === 'json' ? new TextEncoder().encode(JSON.stringify(p.value)) : p.bytes;
  return input.head + mutate(toBase64url(await deflateRaw(raw)), input.edits);
}

export const linkTarget: FuzzTarget<LinkInput> = {
  kind: 'link',
  what: 'share links through the decoder and validator',
  arbitrary: linkInput,
  async run(input): Promise<Rejection | null> {
    const s = await linkValue(input);
    const decoded = await decodeState(s);
    // the s= value is one line whatever it holds: its column counts every character
    if (!decoded.ok)
      return { ...decoded.error, reason: decoded.error.message, text: s.replace(/\n/g, ' ') };
    parseWorkload(decoded.state.text);
    return null;
  },
};
