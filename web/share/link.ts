/*
 * link.ts: share links. The state goes into the URL fragment (never sent to a server) as
 *
 *   #/playground?s=F.M.PAYLOAD        the playground at that step
 *   #/embed?s=F.M.PAYLOAD&start=A&end=B&loop=1   the views and the player alone, for an iframe
 *
 * F is the link format, M the model version (SIM_MODEL_VERSION) of the simulation that made it,
 * PAYLOAD the state's JSON, raw-DEFLATEd and base64url-encoded. Each format keeps its decoder
 * forever (DECODERS), so a link made years ago opens the same simulation: golden links under
 * fixtures/ are decoded and replayed by a test. Decoding never throws: every way a link can be
 * wrong (cut short, not ours, made by a newer site, hostile) ends in a message with the column.
 */
import { fromBase64url, toBase64url } from './base64url';
import { deflateRaw, inflateRaw } from './deflate';
import type { EmbedOptions, ShareState } from './state';
import { checkFormat1, type Checked } from './validate';
import { formatCount } from '../core/count';

/** The format this site writes. Bump it (and add a decoder) when the payload changes shape. */
export const LINK_FORMAT = 1;

/** Longest `s=` value we try to read; a 16 MiB workload compresses far below this. */
const MAX_LINK_CHARS = 8 * 1024 * 1024;
/** Most bytes a payload may inflate to: the text limit and some room for the JSON around it. */
const MAX_PAYLOAD_BYTES = 17 * 1024 * 1024;

/** Every format ever written, and how to read its JSON. */
const DECODERS: Record<number, (json: unknown) => Checked<ShareState>> = {
  1: checkFormat1,
};

export interface LinkError {
  line: 1;
  col: number; // 1-based column in the s= value where reading stopped
  message: string;
}

export type DecodedLink =
  | { ok: true; state: ShareState; format: number; modelVersion: number }
  | { ok: false; error: LinkError };

/** A state too big for a link that decodeState would accept; the message says what to do. */
export class LinkTooLongError extends Error {}

/**
 * The s= value for a state. Throws LinkTooLongError rather than make a link decodeState would
 * refuse: JSON escapes can make a workload within the text limit (newlines, quotes) unpack past
 * MAX_PAYLOAD_BYTES, and a text that compresses badly can pass MAX_LINK_CHARS.
 */
export async function encodeState(state: ShareState, modelVersion: number): Promise<string> {
  const json = new TextEncoder().encode(
    JSON.stringify({
      t: state.text,
      x: state.machine,
      p: [state.position.op, state.position.event],
      v: { c: state.views.compare },
    }),
  );
  const tooLong = (what: string) =>
    new LinkTooLongError(`${what}: too long for a link; save the workload as a file instead`);
  if (json.length > MAX_PAYLOAD_BYTES)
    throw tooLong(`the link would unpack to ${formatCount(json.length)} bytes, above 17 MiB`);
  const link = `${LINK_FORMAT}.${modelVersion}.${toBase64url(await deflateRaw(json))}`;
  if (link.length > MAX_LINK_CHARS)
    throw tooLong(`the link would be ${formatCount(link.length)} characters, above 8 MiB`);
  return link;
}

/** The state of an s= value, or where and why it cannot be read. */
export async function decodeState(s: string): Promise<DecodedLink> {
  const fail = (col: number, message: string): DecodedLink => ({
    ok: false,
    error: { line: 1, col, message },
  });
  if (s.length > MAX_LINK_CHARS)
    return fail(
      1,
      `the link is ${formatCount(s.length)} characters long: too long to be a Buddyscope link`,
    );
  const head = /^(\d{1,6})\.(\d{1,9})\./.exec(s);
  if (!head) return fail(1, 'this is not a Buddyscope link: expected "s=FORMAT.MODEL.DATA"');
  const format = Number(head[1]);
  const modelVersion = Number(head[2]);
  const decode = DECODERS[format];
  if (!decode) {
    return fail(
      1,
      format > LINK_FORMAT
        ? `the link was made by a newer Buddyscope (link format ${format}; this site reads up to ${LINK_FORMAT}): open it on the site that made it`
        : `unknown link format ${format}`,
    );
  }
  const at = head[0].length;
  const bytes = fromBase64url(s.slice(at));
  if (!bytes.ok) {
    const c = s.charAt(at + bytes.at);
    return fail(
      at + bytes.at + 1,
      c
        ? `unexpected character "${c}" in the link's data: was it edited or wrapped?`
        : 'the link is cut short',
    );
  }
  const inflated = await inflateRaw(bytes.bytes, MAX_PAYLOAD_BYTES);
  if (!inflated.ok) {
    return fail(
      at + 1,
      inflated.reason === 'too-large'
        ? 'the link unpacks to more than 17 MiB: above the workload limit of 16 MiB'
        : 'the link is cut short or damaged: its data does not unpack (copy the whole link)',
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(inflated.bytes));
  } catch {
    return fail(at + 1, 'the link is damaged: its data is not a saved state');
  }
  const checked = decode(json);
  if (!checked.ok) return fail(at + 1, `the link is damaged: ${checked.message}`);
  return { ok: true, state: checked.value, format, modelVersion };
}

/** What the hash of a location asks for: a link state, a scenario, embed options. */
export interface LinkParams {
  s: string | null;
  scenario: string | null;
  embed: EmbedOptions;
}

function optionalInt(v: string | null): number | null {
  if (v === null || !/^\d{1,7}$/.test(v)) return null;
  return Number(v);
}

/** The query after "#/route?" read as link parameters; unknown keys are ignored. */
export function readLinkParams(hash: string): LinkParams {
  const q = hash.indexOf('?');
  const params = new URLSearchParams(q < 0 ? '' : hash.slice(q + 1));
  return {
    s: params.get('s'),
    scenario: params.get('scenario'),
    embed: {
      start: optionalInt(params.get('start')),
      end: optionalInt(params.get('end')),
      loop: params.get('loop') === '1',
    },
  };
}

/** The full URL of a link: this page's address with a new fragment. */
export function linkUrl(
  location: Pick<Location, 'origin' | 'pathname' | 'search'>,
  s: string,
  embed?: EmbedOptions,
): string {
  const base = `${location.origin}${location.pathname}${location.search}`;
  if (!embed) return `${base}#/playground?s=${s}`;
  const extra = [
    embed.start !== null ? `&start=${embed.start}` : '',
    embed.end !== null ? `&end=${embed.end}` : '',
    embed.loop ? '&loop=1' : '',
  ].join('');
  return `${base}#/embed?s=${s}${extra}`;
}
