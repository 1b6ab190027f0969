/*
 * document.ts: a lesson file split into its parts, before any field is interpreted: the front
 * matter lines, the introduction, and the `## ` steps with their prose and lesson blocks (fenced
 * code blocks whose info string is sim, step, question, goal or notes). Other fenced blocks stay in the
 * prose. Every part keeps its file line. Never throws.
 */
import type { BodyIssue } from './block-body';

export const BLOCK_KINDS = ['sim', 'step', 'question', 'goal', 'notes'] as const;
export type BlockKind = (typeof BLOCK_KINDS)[number];

export function isBlockKind(s: string): s is BlockKind {
  return (BLOCK_KINDS as readonly string[]).includes(s);
}

/** One front matter line. */
export interface FrontField {
  value: string;
  line: number;
}

export type RawItem =
  | { kind: 'prose'; line: number; markdown: string }
  | { kind: 'block'; block: BlockKind; line: number; body: string[]; bodyLine: number };

export interface RawStep {
  title: string;
  line: number;
  items: RawItem[];
}

export interface RawLesson {
  front: Map<string, FrontField>;
  frontLine: number; // line of the opening ---, 0 when there is none
  intro: RawItem[];
  steps: RawStep[];
  issues: BodyIssue[];
}

const FENCE = /^(`{3,}|~{3,})\s*([^`\s]*)\s*$/;

/** Split a lesson's text. Lines are 1-based. */
export function splitLesson(text: string): RawLesson {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const issues: BodyIssue[] = [];
  const front = new Map<string, FrontField>();
  let i = 0;
  let frontLine = 0;

  if ((lines[0] ?? '').trim() === '---') {
    frontLine = 1;
    i = 1;
    let closed = false;
    while (i < lines.length) {
      const l = lines[i] ?? '';
      if (l.trim() === '---') {
        closed = true;
        i++;
        break;
      }
      if (l.trim() !== '') {
        const m = /^([A-Za-z_][A-Za-z0-9_]*):\s*(.*)$/.exec(l);
        if (!m)
          issues.push({
            line: i + 1,
            message: `front matter: expected \`key: value\`, found \`${l.trim().slice(0, 40)}\``,
          });
        else if (front.has(m[1] ?? ''))
          issues.push({
            line: i + 1,
            message: `front matter: field \`${m[1] ?? ''}\` appears twice`,
          });
        else front.set(m[1] ?? '', { value: (m[2] ?? '').trim(), line: i + 1 });
      }
      i++;
    }
    if (!closed) issues.push({ line: 1, message: 'front matter: no closing `---`' });
  } else {
    issues.push({ line: 1, message: 'front matter: the file must start with a `---` line' });
  }

  const intro: RawItem[] = [];
  const steps: RawStep[] = [];
  let items = intro;
  let prose: string[] = [];
  let proseLine = i + 1;

  const flushProse = (): void => {
    const textOut = prose.join('\n').trim();
    if (textOut !== '') items.push({ kind: 'prose', line: proseLine, markdown: textOut });
    prose = [];
  };

  while (i < lines.length) {
    const l = lines[i] ?? '';
    const fence = FENCE.exec(l);
    if (fence) {
      const marker = fence[1] ?? '```';
      const info = fence[2] ?? '';
      const start = i;
      let end = -1;
      for (let j = i + 1; j < lines.length; j++) {
        const c = (lines[j] ?? '').trim();
        if (
          c.startsWith(marker[0] ?? '`') &&
          /^(`{3,}|~{3,})$/.test(c) &&
          c.length >= marker.length &&
          c[0] === marker[0]
        ) {
          end = j;
          break;
        }
      }
      if (end < 0) {
        issues.push({
          line: start + 1,
          message: `code fence \`${marker}${info}\` is never closed`,
        });
        end = lines.length;
      }
      if (isBlockKind(info)) {
        flushProse();
        items.push({
          kind: 'block',
          block: info,
          line: start + 1,
          body: lines.slice(start + 1, end),
          bodyLine: start + 2,
        });
        proseLine = end + 2;
      } else {
        if (prose.length === 0) proseLine = start + 1;
        prose.push(...lines.slice(start, Math.min(end + 1, lines.length)));
      }
      i = end + 1;
      continue;
    }
    const heading = /^##\s+(.+?)\s*#*\s*$/.exec(l);
    if (heading && !l.startsWith('###')) {
      flushProse();
      const step: RawStep = { title: heading[1] ?? '', line: i + 1, items: [] };
      steps.push(step);
      items = step.items;
      proseLine = i + 2;
      i++;
      continue;
    }
    if (prose.length === 0) {
      if (l.trim() === '') {
        i++;
        proseLine = i + 1;
        continue;
      }
      proseLine = i + 1;
    }
    prose.push(l);
    i++;
  }
  flushProse();
  return { front, frontLine, intro, steps, issues };
}
