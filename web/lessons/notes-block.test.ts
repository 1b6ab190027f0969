// notes-block.test.ts: the optional ```notes block (speaker notes): Markdown body, one per step.
import { describe, expect, it } from 'vitest';
import { validateLesson } from './schema';
import { formatIssue } from './types';

const FILE = 'lessons/97-notes/lesson.md';

function lesson(step: string): string {
  return `---
title: Notes
summary: A lesson with speaker notes.
minutes: 5
machine: tiny
profile: 6.18
see_on_your_machine: /proc/buddyinfo
---

Intro.

## A step

${step}

\`\`\`sim
views: free-areas
workload:
  cpu 0 alloc a
\`\`\`

## See it on your machine

Done.
`;
}

describe('notes block', () => {
  it('keeps the body as Markdown, not fields', () => {
    const r = validateLesson(
      FILE,
      lesson('```notes\nAsk the room: **how many** pages?\n\n- then reveal\n```'),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const notes = r.lesson.steps[0]?.blocks.find((b) => b.kind === 'notes');
    expect(notes).toEqual({
      kind: 'notes',
      line: 14,
      markdown: 'Ask the room: **how many** pages?\n\n- then reveal',
    });
  });

  it('refuses an empty one and a second one in the same step', () => {
    const empty = validateLesson(FILE, lesson('```notes\n\n```'));
    expect(empty.ok ? [] : empty.issues.map(formatIssue)).toContain(
      `${FILE}:14: notes block: empty (write what the presenter should say, or remove it)`,
    );
    const two = validateLesson(FILE, lesson('```notes\nOne.\n```\n\n```notes\nTwo.\n```'));
    expect(two.ok ? [] : two.issues.map(formatIssue)).toContain(
      `${FILE}:18: notes block: one per step (this step already has one)`,
    );
  });
});
