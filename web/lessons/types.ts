/*
 * types.ts: a lesson as plain data, after parsing and schema validation (lessons/README.md is the
 * format). Every block remembers the line it starts on so errors and the replay test can say
 * "lessons/NN-slug/lesson.md:LINE".
 */

import type { ViewName } from '../views/view-names';

/** The views a lesson may show: those of the view registry (web/views/view-names.ts). */
export { VIEW_NAMES, type ViewName } from '../views/view-names';

/** Keys a `point:` selector may use. */
export const SELECTOR_KEYS = [
  'node',
  'zone',
  'cpu',
  'order',
  'pindex',
  'mt',
  'pfn',
  'pageblock',
] as const;
export type SelectorKey = (typeof SELECTOR_KEYS)[number];

/** Where a view should draw attention: a view and key=value pairs (numbers or names). */
export interface Pointer {
  view: ViewName;
  select: Partial<Record<SelectorKey, string | number>>;
}

/** Front matter. */
export interface LessonMeta {
  title: string;
  summary: string;
  minutes: number;
  machine: string; // a preset name or the key=value list of a `machine` line
  profile: string;
  seeOnYourMachine: string;
}

/** Markdown prose between blocks. */
export interface ProseBlock {
  kind: 'prose';
  line: number;
  markdown: string;
}

/** ```sim: boot a machine and run a workload. */
export interface SimBlock {
  kind: 'sim';
  line: number;
  workload: string; // as written
  workloadLine: number; // file line of the workload's first line
  views: ViewName[];
  compare: string | null; // second profile for an A/B run
  caption: string | null;
}

/** ```step: run ops, point at something. */
export interface StepBlock {
  kind: 'step';
  line: number;
  ops: string; // op statements, '' when the step only points
  opsLine: number;
  point: Pointer | null;
  views: ViewName[] | null;
  caption: string | null;
}

/** One option of a choice question. */
export interface ChoiceOption {
  key: string;
  text: string;
}

interface QuestionCommon {
  kind: 'question';
  line: number;
  prompt: string;
  check: string;
  checkLine: number;
  explain: string;
  wrong: Record<string, string>; // option key or likely wrong number -> why it is wrong
  reveal: 'now' | 'next-step';
  /** Values the views print as `?` until the answer is revealed (web/views/value-paths.ts). */
  hides: string[];
}

export interface ChoiceQuestion extends QuestionCommon {
  type: 'choice';
  options: ChoiceOption[];
  answer: string; // an option key
}

export interface NumberQuestion extends QuestionCommon {
  type: 'number';
  answer: number;
  tolerance: number;
  unit: string | null;
}

export type QuestionBlock = ChoiceQuestion | NumberQuestion;

/** ```goal: a state to reach in the sandbox. */
export interface GoalBlock {
  kind: 'goal';
  line: number;
  goal: string;
  check: string;
  checkLine: number;
  hint: string;
  solution: string;
  solutionLine: number;
  views: ViewName[] | null;
}

/** ```notes: what the presenter says at this step (Markdown); shown only in the notes window. */
export interface NotesBlock {
  kind: 'notes';
  line: number;
  markdown: string;
}

export type LessonBlock =
  ProseBlock | SimBlock | StepBlock | QuestionBlock | GoalBlock | NotesBlock;

/** One `## ` section. */
export interface LessonStep {
  title: string;
  line: number;
  blocks: LessonBlock[];
}

/** A whole lesson. */
export interface Lesson {
  file: string; // repository-relative path, e.g. lessons/04-per-cpu-lists/lesson.md
  slug: string; // folder name without the number: per-cpu-lists
  number: number; // the NN of the folder
  meta: LessonMeta;
  intro: string; // Markdown before the first step
  steps: LessonStep[];
}

/** A problem in a lesson file: where and what. */
export interface LessonIssue {
  file: string;
  line: number;
  message: string; // "question block: missing field `answer`"
}

/** The issue as one line: "lessons/05-x/lesson.md:42: question block: missing field `answer`". */
export function formatIssue(issue: LessonIssue): string {
  return `${issue.file}:${issue.line}: ${issue.message}`;
}
