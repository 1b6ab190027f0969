/*
 * schema.ts: a lesson file to a validated Lesson, or the list of what is wrong with it, each
 * problem with the file, the line and the field:
 *   lessons/05-high-order-pcp/lesson.md:42: question block: missing field `answer`
 * It checks the shape (fields, kinds, views, selectors), parses every expression, and parses and
 * compiles every workload with the real workload compiler, following the lesson's order so that
 * `free a` in a step knows the group `a` the sim block filled. It does not run the model; the
 * replay test does that.
 */
import { isPresetName, isProfileName, PROFILE_NAMES } from '../core/machine-config';
import { parseWorkload } from '../workload/parser';
import { compileWorkload } from '../workload/compiler';
import { parseBlockBody, type BlockField } from './block-body';
import { splitLesson, type BlockKind, type RawItem } from './document';
import { parseExpr } from './expr';
import { isMaskable, matchesPath, withoutMachine } from '../views/value-paths';
import {
  SELECTOR_KEYS,
  VIEW_NAMES,
  type ChoiceOption,
  type GoalBlock,
  type Lesson,
  type LessonBlock,
  type LessonIssue,
  type LessonMeta,
  type LessonStep,
  type Pointer,
  type QuestionBlock,
  type SelectorKey,
  type SimBlock,
  type StepBlock,
  type ViewName,
} from './types';
import { composeSession, type SessionPart } from './session';

export const FRONT_KEYS = [
  'title',
  'summary',
  'minutes',
  'machine',
  'profile',
  'see_on_your_machine',
] as const;
export const LAST_STEP_TITLE = 'See it on your machine';

const FIELDS: Record<BlockKind, readonly string[]> = {
  sim: ['workload', 'views', 'compare', 'caption'],
  step: ['ops', 'point', 'views', 'caption'],
  question: [
    'kind',
    'prompt',
    'options',
    'answer',
    'tolerance',
    'unit',
    'check',
    'explain',
    'reveal',
    'hides',
  ],
  goal: ['goal', 'check', 'hint', 'solution', 'views'],
  notes: [], // free Markdown, not fields
};

export type ValidateResult = { ok: true; lesson: Lesson } | { ok: false; issues: LessonIssue[] };

const FOLDER = /(?:^|\/)(\d{2})-([a-z0-9]+(?:-[a-z0-9]+)*)\/lesson\.md$/;

class Checker {
  readonly issues: LessonIssue[] = [];
  constructor(readonly file: string) {}

  add(line: number, message: string): void {
    this.issues.push({ file: this.file, line, message });
  }
}

/** Fields of one block, with "missing"/"unknown" checks. */
class Fields {
  constructor(
    private readonly c: Checker,
    private readonly kind: BlockKind,
    private readonly line: number,
    readonly map: Map<string, BlockField>,
  ) {
    for (const [key, f] of map) {
      const base = key.startsWith('wrong.') && kind === 'question' ? 'wrong.*' : key;
      if (base !== 'wrong.*' && !FIELDS[kind].includes(key)) {
        c.add(
          f.line,
          `${kind} block: unknown field \`${key}\` (fields: ${FIELDS[kind].join(', ')}${kind === 'question' ? ', wrong.KEY' : ''})`,
        );
      }
    }
  }

  get(key: string): BlockField | undefined {
    return this.map.get(key);
  }

  need(key: string): BlockField | undefined {
    const f = this.map.get(key);
    if (!f || f.value.trim() === '') {
      this.c.add(f?.line ?? this.line, `${this.kind} block: missing field \`${key}\``);
      return undefined;
    }
    return f;
  }

  err(key: string, message: string): void {
    this.c.add(
      this.map.get(key)?.line ?? this.line,
      `${this.kind} block: field \`${key}\`: ${message}`,
    );
  }
}

function parseViews(f: Fields, key: string): ViewName[] | null {
  const field = f.get(key);
  if (!field) return null;
  const names = field.value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const out: ViewName[] = [];
  for (const n of names) {
    if ((VIEW_NAMES as readonly string[]).includes(n)) out.push(n as ViewName);
    else f.err(key, `unknown view \`${n}\` (views: ${VIEW_NAMES.join(', ')})`);
  }
  if (names.length === 0) f.err(key, 'no view named');
  return out;
}

function parsePoint(f: Fields): Pointer | null {
  const field = f.get('point');
  if (!field) return null;
  const [view, ...pairs] = field.value.split(/\s+/).filter((s) => s !== '');
  if (!view || !(VIEW_NAMES as readonly string[]).includes(view)) {
    f.err('point', `starts with a view name (${VIEW_NAMES.join(', ')}), found \`${view ?? ''}\``);
    return null;
  }
  const select: Partial<Record<SelectorKey, string | number>> = {};
  for (const p of pairs) {
    const m = /^([a-z]+)=(\S+)$/.exec(p);
    if (!m || !(SELECTOR_KEYS as readonly string[]).includes(m[1] ?? '')) {
      f.err(
        'point',
        `expected KEY=VALUE with KEY one of ${SELECTOR_KEYS.join(', ')}, found \`${p}\``,
      );
      continue;
    }
    const v = m[2] ?? '';
    select[m[1] as SelectorKey] = /^(0x[0-9a-f]+|\d+)$/i.test(v) ? Number(v) : v;
  }
  return { view: view as ViewName, select };
}

function checkExpr(c: Checker, kind: BlockKind, field: BlockField | undefined): void {
  if (!field) return;
  const p = parseExpr(field.value);
  if (!p.ok) c.add(field.line, `${kind} block: field \`check\`: column ${p.col}: ${p.message}`);
}

function text(f: BlockField | undefined): string {
  return f?.value.trim() ?? '';
}

function optional(f: BlockField | undefined): string | null {
  const t = text(f);
  return t === '' ? null : t;
}

function parseSim(c: Checker, f: Fields, line: number): SimBlock | null {
  const workload = f.need('workload');
  const views = f.get('views') ? parseViews(f, 'views') : (f.need('views'), null);
  const compareField = f.get('compare');
  let compare: string | null = null;
  if (compareField) {
    compare = compareField.value.trim();
    if (!isProfileName(compare))
      f.err('compare', `unknown profile \`${compare}\` (profiles: ${PROFILE_NAMES.join(', ')})`);
  }
  if (!workload || !views) return null;
  void c;
  return {
    kind: 'sim',
    line,
    workload: workload.value,
    workloadLine: workload.valueLine,
    views,
    compare,
    caption: optional(f.get('caption')),
  };
}

function parseStep(f: Fields, line: number): StepBlock | null {
  const ops = f.get('ops');
  const point = parsePoint(f);
  if (!ops && !f.get('point')) {
    f.err('ops', 'a step needs `ops` or `point`');
    return null;
  }
  return {
    kind: 'step',
    line,
    ops: ops?.value ?? '',
    opsLine: ops?.valueLine ?? line,
    point,
    views: parseViews(f, 'views'),
    caption: optional(f.get('caption')),
  };
}

function parseOptions(f: Fields): ChoiceOption[] {
  const field = f.need('options');
  if (!field) return [];
  const out: ChoiceOption[] = [];
  const lines = field.value.split('\n');
  lines.forEach((l, i) => {
    if (l.trim() === '') return;
    const m = /^([a-z]):\s+(.+)$/.exec(l.trim());
    if (!m) {
      f.err(
        'options',
        `line ${field.valueLine + i}: expected \`KEY: text\` with a single lowercase letter as KEY`,
      );
      return;
    }
    if (out.some((o) => o.key === m[1])) f.err('options', `option \`${m[1] ?? ''}\` appears twice`);
    out.push({ key: m[1] ?? '', text: (m[2] ?? '').trim() });
  });
  if (out.length < 2 || out.length > 6)
    f.err('options', `needs 2 to 6 options, found ${out.length}`);
  return out;
}

/**
 * `hides:` the values the views must not show before the reveal, comma-separated paths of the
 * snapshot (`pcp.*.Normal.high`, `zones.Normal._watermark.min`): only values a view can hide. A
 * question answered where it stands whose check is such a value must hide it, or the screen
 * would show the answer beside the question.
 */
function parseHides(c: Checker, f: Fields, reveal: 'now' | 'next-step', check: string): string[] {
  const field = f.get('hides');
  const hides = text(field)
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '');
  for (const h of hides)
    if (!isMaskable(h))
      f.err('hides', `\`${h}\` is not a value the views can hide (see web/views/value-paths.ts)`);
  const asked = withoutMachine(check.trim());
  if (reveal === 'now' && isMaskable(asked) && !asked.includes('*'))
    if (!hides.some((h) => matchesPath(h, asked)))
      c.add(
        field?.line ?? f.get('check')?.line ?? 0,
        `question block: the views can show \`${asked}\`, the value this question asks for: add it to \`hides:\``,
      );
  return hides;
}

function parseQuestion(c: Checker, f: Fields, line: number): QuestionBlock | null {
  const kind = f.need('kind');
  const prompt = f.need('prompt');
  const check = f.need('check');
  const explain = f.need('explain');
  const answer = f.need('answer');
  checkExpr(c, 'question', check);
  const revealText = text(f.get('reveal')) || 'now';
  if (revealText !== 'now' && revealText !== 'next-step')
    f.err('reveal', `is \`now\` or \`next-step\`, found \`${revealText}\``);
  const reveal: 'now' | 'next-step' = revealText === 'next-step' ? 'next-step' : 'now';
  const hides = parseHides(c, f, reveal, check?.value ?? '');
  const wrong: Record<string, string> = {};
  for (const [key, field] of f.map)
    if (key.startsWith('wrong.')) wrong[key.slice(6)] = field.value.trim();
  const type = text(kind);
  if (kind && type !== 'choice' && type !== 'number')
    f.err('kind', `is \`choice\` or \`number\`, found \`${type}\``);
  const wrongErr = (k: string, why: string) =>
    c.add(f.map.get(`wrong.${k}`)?.line ?? line, `question block: field \`wrong.${k}\`: ${why}`);
  // The fields both kinds share, once every required field is there.
  const common =
    kind && prompt && check && explain && answer
      ? {
          kind: 'question' as const,
          line,
          prompt: prompt.value,
          check: check.value,
          checkLine: check.line,
          explain: explain.value,
          wrong,
          reveal,
          hides,
        }
      : null;

  if (type === 'choice') {
    for (const k of ['tolerance', 'unit']) if (f.get(k)) f.err(k, 'only number questions have it');
    const options = parseOptions(f);
    const key = text(answer);
    if (answer && options.length > 0 && !options.some((o) => o.key === key)) {
      f.err(
        'answer',
        `\`${key}\` is not one of the options (${options.map((o) => o.key).join(', ')})`,
      );
    }
    for (const o of options) {
      if (o.key !== key && !wrong[o.key])
        c.add(
          f.get('options')?.line ?? line,
          `question block: missing field \`wrong.${o.key}\` (why option ${o.key} is wrong)`,
        );
    }
    for (const k of Object.keys(wrong)) {
      if (k === key) wrongErr(k, `${k} is the keyed answer`);
      else if (!options.some((o) => o.key === k)) wrongErr(k, `there is no option ${k}`);
    }
    return common && { ...common, type: 'choice', options, answer: key };
  }
  if (type === 'number') {
    if (f.get('options')) f.err('options', 'only choice questions have options');
    const value = Number(text(answer));
    if (answer && !Number.isFinite(value)) f.err('answer', `is not a number: \`${text(answer)}\``);
    const tolText = text(f.get('tolerance')) || '0';
    const tolerance = Number(tolText);
    if (!Number.isFinite(tolerance) || tolerance < 0)
      f.err('tolerance', `is not a number ≥ 0: \`${tolText}\``);
    if (Object.keys(wrong).length === 0)
      c.add(
        line,
        'question block: missing field `wrong.N` (a likely wrong answer and why it is wrong)',
      );
    for (const k of Object.keys(wrong)) {
      const n = Number(k.replace(/_/g, '.'));
      if (!Number.isFinite(n)) wrongErr(k, `${k} is not a number`);
      else if (Math.abs(n - value) <= tolerance)
        wrongErr(k, `${k} is within the tolerance of the answer`);
    }
    return (
      common && {
        ...common,
        type: 'number',
        answer: value,
        tolerance,
        unit: optional(f.get('unit')),
      }
    );
  }
  return null;
}

function parseGoal(c: Checker, f: Fields, line: number): GoalBlock | null {
  const goal = f.need('goal');
  const check = f.need('check');
  const hint = f.need('hint');
  const solution = f.need('solution');
  checkExpr(c, 'goal', check);
  const views = parseViews(f, 'views');
  if (!goal || !check || !hint || !solution) return null;
  return {
    kind: 'goal',
    line,
    goal: goal.value,
    check: check.value,
    checkLine: check.line,
    hint: hint.value,
    solution: solution.value,
    solutionLine: solution.valueLine,
    views,
  };
}

function parseMeta(
  c: Checker,
  front: Map<string, { value: string; line: number }>,
  frontLine: number,
): LessonMeta | null {
  for (const [key, f] of front) {
    if (!(FRONT_KEYS as readonly string[]).includes(key))
      c.add(f.line, `front matter: unknown field \`${key}\` (fields: ${FRONT_KEYS.join(', ')})`);
  }
  const get = (key: string): string | null => {
    const f = front.get(key);
    if (!f || f.value === '') {
      c.add(f?.line ?? Math.max(frontLine, 1), `front matter: missing field \`${key}\``);
      return null;
    }
    return f.value;
  };
  const title = get('title');
  const summary = get('summary');
  const minutesText = get('minutes');
  const machine = get('machine');
  const profile = get('profile');
  const see = get('see_on_your_machine');
  let minutes = 0;
  if (minutesText !== null) {
    minutes = Number(minutesText);
    if (!Number.isInteger(minutes) || minutes < 1 || minutes > 120)
      c.add(
        front.get('minutes')?.line ?? 1,
        `front matter: field \`minutes\`: an integer 1..120, found \`${minutesText}\``,
      );
  }
  if (machine !== null && !isPresetName(machine)) {
    const p = parseWorkload(`machine ${machine}\n`);
    if (!p.ok)
      c.add(front.get('machine')?.line ?? 1, `front matter: field \`machine\`: ${p.error.message}`);
  }
  if (profile !== null && !isProfileName(profile)) {
    c.add(
      front.get('profile')?.line ?? 1,
      `front matter: field \`profile\`: unknown profile \`${profile}\` (profiles: ${PROFILE_NAMES.join(', ')})`,
    );
  }
  if (title === null || summary === null || machine === null || profile === null || see === null)
    return null;
  return { title, summary, minutes, machine, profile, seeOnYourMachine: see };
}

/** Check the workload text of one sim segment (sim + steps so far [+ a goal solution]). */
function checkSession(
  c: Checker,
  meta: LessonMeta | null,
  parts: SessionPart[],
  what: string,
): void {
  if (!meta) return;
  const composed = composeSession(meta, parts);
  if (!composed.ok) {
    c.add(
      composed.error.fileLine,
      `${composed.error.kind} block: field \`${composed.error.field}\`: ${composed.error.message}`,
    );
    return;
  }
  const compiled = compileWorkload(composed.workload, { positions: composed.positions });
  if (!compiled.ok) {
    const at = composed.lineMap[compiled.error.line - 1];
    const part = at?.part;
    c.add(
      at?.fileLine ?? parts[0]?.fileLine ?? 1,
      `${part?.kind ?? what} block: field \`${part?.field ?? 'workload'}\`: ${compiled.error.message}`,
    );
  }
}

/** Validate one lesson file. `file` is its repository-relative path (used in every message). */
export function validateLesson(file: string, source: string): ValidateResult {
  const c = new Checker(file);
  const folder = FOLDER.exec(file);
  if (!folder)
    c.add(
      1,
      'lesson path: expected lessons/NN-slug/lesson.md (two digits, lowercase words joined by -)',
    );
  const raw = splitLesson(source);
  for (const i of raw.issues) c.add(i.line, i.message);
  const meta = parseMeta(c, raw.front, raw.frontLine);

  for (const item of raw.intro) {
    if (item.kind === 'block')
      c.add(
        item.line,
        `${item.block} block: blocks belong in a step (after a \`## \` heading), not in the introduction`,
      );
  }
  if (raw.steps.length === 0)
    c.add(raw.frontLine || 1, 'lesson: no steps (each `## ` heading starts one)');
  const last = raw.steps[raw.steps.length - 1];
  if (last && last.title.trim() !== LAST_STEP_TITLE)
    c.add(
      last.line,
      `lesson: the last step must be titled \`${LAST_STEP_TITLE}\`, found \`${last.title}\``,
    );

  const steps: LessonStep[] = [];
  let session: SessionPart[] | null = null;
  let pendingReveal: number | null = null;
  let sims = 0;
  for (const s of raw.steps) {
    const blocks: LessonBlock[] = [];
    for (const item of s.items) {
      const b = parseItem(c, item);
      if (!b) continue;
      blocks.push(b);
      if (b.kind === 'sim') {
        if (pendingReveal !== null)
          c.add(
            pendingReveal,
            'question block: `reveal: next-step` but no step block with ops follows before the next sim',
          );
        pendingReveal = null;
        sims++;
        session = [{ kind: 'sim', field: 'workload', text: b.workload, fileLine: b.workloadLine }];
        checkSession(c, meta, session, 'sim');
        continue;
      }
      if (b.kind === 'prose') continue;
      if (b.kind === 'notes') {
        if (blocks.filter((x) => x.kind === 'notes').length > 1)
          c.add(b.line, 'notes block: one per step (this step already has one)');
        continue;
      }
      if (!session) {
        c.add(b.line, `${b.kind} block: comes before any sim block (nothing is running yet)`);
        continue;
      }
      if (b.kind === 'step') {
        if (b.ops.trim() !== '') {
          session.push({ kind: 'step', field: 'ops', text: b.ops, fileLine: b.opsLine });
          checkSession(c, meta, session, 'step');
          pendingReveal = null;
        }
      } else if (b.kind === 'question') {
        if (pendingReveal !== null)
          c.add(
            pendingReveal,
            'question block: `reveal: next-step` but another question comes before the next step with ops',
          );
        pendingReveal = b.reveal === 'next-step' ? b.line : null;
      } else if (b.kind === 'goal') {
        checkSession(
          c,
          meta,
          [
            ...session,
            { kind: 'goal', field: 'solution', text: b.solution, fileLine: b.solutionLine },
          ],
          'goal',
        );
      }
    }
    steps.push({ title: s.title, line: s.line, blocks });
  }
  if (pendingReveal !== null)
    c.add(pendingReveal, 'question block: `reveal: next-step` but no step block with ops follows');
  if (sims === 0 && raw.steps.length > 0)
    c.add(raw.steps[0]?.line ?? 1, 'lesson: no sim block (a lesson runs at least one workload)');

  if (c.issues.length > 0 || !meta || !folder) {
    const seen = new Set<string>();
    const unique = c.issues.filter((i) => {
      const k = `${i.line}:${i.message}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    unique.sort((a, b) => a.line - b.line);
    return { ok: false, issues: unique };
  }
  const intro = raw.intro.map((i) => (i.kind === 'prose' ? i.markdown : '')).join('\n\n');
  return {
    ok: true,
    lesson: { file, slug: folder[2] ?? '', number: Number(folder[1]), meta, intro, steps },
  };
}

function parseItem(c: Checker, item: RawItem): LessonBlock | null {
  if (item.kind === 'prose') return { kind: 'prose', line: item.line, markdown: item.markdown };
  if (item.block === 'notes') {
    // Speaker notes are prose for a person, so their body is Markdown, not `key: value` fields.
    const markdown = item.body.join('\n').trim();
    if (markdown === '')
      c.add(item.line, 'notes block: empty (write what the presenter should say, or remove it)');
    return markdown === '' ? null : { kind: 'notes', line: item.line, markdown };
  }
  const body = parseBlockBody(item.body, item.bodyLine);
  for (const i of body.issues) c.add(i.line, `${item.block} block: ${i.message}`);
  const f = new Fields(c, item.block, item.line, body.fields);
  switch (item.block) {
    case 'sim':
      return parseSim(c, f, item.line);
    case 'step':
      return parseStep(f, item.line);
    case 'question':
      return parseQuestion(c, f, item.line);
    case 'goal':
      return parseGoal(c, f, item.line);
  }
}
