// replay.test.ts: every lesson runs against the real wasm core; every question's keyed answer and
// every goal's solution must agree with the model. Failures name lesson:line.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCore, type Core } from '../core/module';
import { wasmLessonEngine } from './engine-wasm';
import { lessonFilesOnDisk } from './files-on-disk';
import { replayLesson } from './replay';
import { validateLesson } from './schema';
import { formatIssue } from './types';

let core: Core;

beforeAll(async () => {
  core = await loadCore();
});

describe('lesson replay against the model', () => {
  for (const file of lessonFilesOnDisk()) {
    it(`${file}: every check holds`, { timeout: 120_000 }, () => {
      const v = validateLesson(file, readFileSync(file, 'utf8'));
      if (!v.ok) throw new Error(v.issues.map(formatIssue).join('\n'));
      const report = replayLesson(v.lesson, wasmLessonEngine(core));
      expect(report.failures.map((f) => `${f.file}:${f.line}: ${f.message}`)).toEqual([]);
      expect(report.checks).toBeGreaterThan(0);
    });
  }
});

describe('lesson replay failures', () => {
  it('names lesson:line when the model contradicts a keyed answer', () => {
    const file = 'lessons/98-wrong-answer/lesson.md';
    const v = validateLesson(
      file,
      readFileSync('web/lessons/fixtures/98-wrong-answer/lesson.md', 'utf8'),
    );
    if (!v.ok) throw new Error(v.issues.map(formatIssue).join('\n'));
    const report = replayLesson(v.lesson, wasmLessonEngine(core));
    expect(report.failures.map((f) => `${f.file}:${f.line}: ${f.message}`)).toEqual([
      'lessons/98-wrong-answer/lesson.md:24: question block: answer 7 but the model says 6 (`pcp.cpu0.Normal.count`)',
    ]);
  });
});
