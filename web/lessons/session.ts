/*
 * session.ts: one sim block and the op lists that follow it (steps, a goal's solution), joined
 * into a single workload text, so the real parser and compiler see the whole session: handle
 * groups filled by the sim block are known to later steps. The front matter's machine and
 * profile are added when the sim workload has none. Every line of the joined text maps back to
 * the lesson file line and block it came from.
 */
import type { SourceMap, Workload } from '../workload/ast';
import { parseWorkload } from '../workload/parser';
import type { LessonMeta } from './types';

/** One piece of workload text from the lesson. */
export interface SessionPart {
  kind: 'sim' | 'step' | 'goal';
  field: 'workload' | 'ops' | 'solution';
  text: string;
  fileLine: number; // lesson line of text's first line
}

export interface LineOrigin {
  part: SessionPart;
  fileLine: number;
}

export interface SessionError {
  kind: SessionPart['kind'];
  field: SessionPart['field'];
  fileLine: number;
  message: string;
}

export type ComposeResult =
  | {
      ok: true;
      text: string;
      workload: Workload;
      positions: SourceMap;
      lineMap: LineOrigin[];
      partEnds: number[];
    }
  | { ok: false; error: SessionError };

/**
 * Join the parts. partEnds[i] = number of lines of the joined text up to and including part i
 * (the runner uses it to know which ops belong to which part).
 */
export function composeSession(
  meta: Pick<LessonMeta, 'machine' | 'profile'>,
  parts: readonly SessionPart[],
): ComposeResult {
  const first = parts[0];
  if (!first)
    return {
      ok: false,
      error: { kind: 'sim', field: 'workload', fileLine: 1, message: 'no sim block' },
    };

  const lines: string[] = [];
  const lineMap: LineOrigin[] = [];
  const partEnds: number[] = [];
  const own = parseWorkload(first.text);
  if (!own.ok) {
    return {
      ok: false,
      error: {
        kind: first.kind,
        field: first.field,
        fileLine: first.fileLine + own.error.line - 1,
        message: own.error.message,
      },
    };
  }
  if (own.workload.machine === null) {
    lines.push(`machine ${meta.machine}`);
    lineMap.push({ part: first, fileLine: first.fileLine });
  }
  if (own.workload.profile === null) {
    lines.push(`profile ${meta.profile}`);
    lineMap.push({ part: first, fileLine: first.fileLine });
  }
  for (const part of parts) {
    if (part !== first) {
      const alone = parseWorkload(part.text);
      if (!alone.ok) {
        return {
          ok: false,
          error: {
            kind: part.kind,
            field: part.field,
            fileLine: part.fileLine + alone.error.line - 1,
            message: alone.error.message,
          },
        };
      }
      const w = alone.workload;
      if (w.machine !== null || w.profile !== null || w.sets.length > 0 || w.seed !== null) {
        return {
          ok: false,
          error: {
            kind: part.kind,
            field: part.field,
            fileLine: part.fileLine,
            message: 'only ops here: machine, profile, set and seed belong in the sim block',
          },
        };
      }
    }
    part.text.split('\n').forEach((l, i) => {
      lines.push(l);
      lineMap.push({ part, fileLine: part.fileLine + i });
    });
    partEnds.push(lines.length);
  }
  const text = lines.join('\n') + '\n';
  const parsed = parseWorkload(text);
  if (!parsed.ok) {
    const at = lineMap[parsed.error.line - 1] ?? lineMap[lineMap.length - 1];
    const part = at?.part ?? first;
    return {
      ok: false,
      error: {
        kind: part.kind,
        field: part.field,
        fileLine: at?.fileLine ?? first.fileLine,
        message: parsed.error.message,
      },
    };
  }
  return {
    ok: true,
    text,
    workload: parsed.workload,
    positions: parsed.positions,
    lineMap,
    partEnds,
  };
}
