/*
 * reproduce.ts: `--reproduce NAME [--json]`: run a seed reproduction (web/reproductions/, the
 * same definitions the #/reproductions page runs) and print the model's figures beside the
 * source's, as a table or as the JSON {"seed", "title", "rows", "notes"}.
 */
import type { Core } from '../../web/core/module';
import { REPRODUCTIONS } from '../../web/reproductions/index';
import { reproduce } from '../../web/reproductions/runner';
import type { Reproduction, ReproductionResult } from '../../web/reproductions/types';

/** The known reproductions, one a line, for a missing or unknown NAME. */
export function listReproductions(): string {
  const width = Math.max(...REPRODUCTIONS.map((r) => r.name.length));
  return REPRODUCTIONS.map((r) => `  ${r.name.padEnd(width)}  ${r.title}`).join('\n');
}

/** Run r and render it: JSON (two-space indent) or a readable table. */
export function renderReproduction(core: Core, r: Reproduction, json: boolean): string {
  const result = reproduce(core, r);
  return json ? JSON.stringify(result, null, 2) + '\n' : reproductionTable(r, result);
}

/** Text columns: the first left-aligned, the rest right-aligned. */
function columns(rows: string[][]): string[] {
  const widths = (rows[0] ?? []).map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows.map((r) =>
    r
      .map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0)))
      .join('   ')
      .trimEnd(),
  );
}

/** Wrap text at width columns, each line indented. */
function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines.join('\n');
}

/** The readable form: one block per metric, profile by profile, then the notes. */
export function reproductionTable(r: Reproduction, result: ReproductionResult): string {
  const out = [`${result.seed}: ${result.title}`, wrap(`Source: ${r.source}`, 96, ''), ''];
  result.rows.forEach((row, i) => {
    const label = r.metrics[i]?.label ?? '';
    out.push(`${row.metric} (${row.unit}): ${label}`);
    const lines = [['profile', 'model', 'seed']];
    for (const [profile, model] of Object.entries(row.model)) {
      const seed = row.seed[profile];
      lines.push([profile, String(model), seed === undefined ? '-' : String(seed)]);
    }
    out.push(...columns(lines).map((l) => `  ${l}`), '');
  });
  out.push('Notes:', wrap(result.notes, 94, '  '), '(seed "-": the source gives no figure)', '');
  return out.join('\n');
}
