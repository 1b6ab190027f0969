/*
 * Citations stay inside the repository. Code and docs cite docs/kernel (the project's restatement
 * of the kernel) or the kernel's own source (Elixir links), never a file beside the repository:
 * no "KERNEL.md", no "../shared" or "shared/traces". The one legitimate use of the shared folder
 * is a test reading a capture at run time, as the default of $BUDDYSCOPE_SHARED, so a mention is
 * accepted when BUDDYSCOPE_SHARED is named on the same line or the few lines above it.
 *
 * Every `docs/kernel/<page>.md#<anchor>` citation, anywhere, and every relative link inside
 * docs/kernel must name a file that exists and, with an anchor, a heading of that file, with
 * anchors computed as GitHub computes them.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const self = 'docs/kernel/citations.test.ts';

/** Text that points outside the repository. */
const OUTSIDE = /KERNEL\.md|\.\.\/shared|shared\/traces/;
/** How far above a mention of the shared folder the BUDDYSCOPE_SHARED it defaults may be named. */
const RUNTIME_WINDOW = 4;
/** A citation of a docs/kernel page, with its anchor if any. */
const KERNEL_CITE = /docs\/kernel\/((?:[\w-]+\/)*[\w-]+\.md)(?:#([\w-]+))?/g;
/** A page citation followed by the sections it means: `docs/kernel/page_alloc/buddy.md (A.3-A.6)`. */
const PAGE_SECTIONS = /docs\/kernel\/((?:[\w-]+\/)*[\w-]+\.md) \(([A-Z]\.\d+[^)]*)\)/g;
/** Sections cited by label alone, which are unique across docs/kernel: `docs/kernel C.7, D.2 and E.1`. */
const LABELS = /docs\/kernel ([A-Z]\.\d+(?:(?:-|, | and )[A-Z]\.\d+)*)/g;
/** A section label such as B.11. */
const LABEL = /[A-Z]\.\d+/g;
/** A Markdown link target: [text](target). */
const MD_LINK = /\]\(([^)\s]+)\)/g;

/** GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown text's headings (outside fenced code), duplicates numbered as GitHub does. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1] ?? '');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The section labels (A.5, B.11) that a Markdown text's headings start with. */
export function sectionLabels(markdown: string): Set<string> {
  const out = new Set<string>();
  for (const m of markdown.matchAll(/^#{1,6}\s+([A-Z]\.\d+)\s/gm)) out.add(m[1] ?? '');
  return out;
}

/** Lines of text that cite something outside the repository, as 1-based line numbers. */
export function outsideCitations(text: string): number[] {
  const lines = text.split('\n');
  const bad: number[] = [];
  lines.forEach((line, i) => {
    if (!OUTSIDE.test(line)) return;
    const runtime =
      !/KERNEL\.md/.test(line) &&
      lines
        .slice(Math.max(0, i - RUNTIME_WINDOW), i + 1)
        .some((l) => l.includes('BUDDYSCOPE_SHARED'));
    if (!runtime) bad.push(i + 1);
  });
  return bad;
}

/** Tracked files and new files not ignored: what a commit would hold. */
function repoFiles(): string[] {
  const out = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: repo,
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    },
  );
  return [...new Set(out.split('\0').filter(Boolean))].filter((f) => {
    const path = join(repo, f);
    return existsSync(path) && statSync(path).isFile();
  });
}

/** A file's text, or null for binary files (a NUL byte in the first 8 KiB). */
function textOf(file: string): string | null {
  const bytes = readFileSync(join(repo, file));
  if (bytes.subarray(0, 8192).includes(0)) return null;
  return bytes.toString('utf8');
}

const files = repoFiles();
const texts = new Map<string, string>();
for (const f of files) {
  const t = textOf(f);
  if (t !== null) texts.set(f, t);
}

const anchorCache = new Map<string, Set<string> | null>();
/** The anchors of a repository file, or null when it does not exist. */
function anchorsOf(file: string): Set<string> | null {
  if (!anchorCache.has(file)) {
    const path = join(repo, file);
    anchorCache.set(
      file,
      existsSync(path) && statSync(path).isFile() ? anchors(readFileSync(path, 'utf8')) : null,
    );
  }
  return anchorCache.get(file) ?? null;
}

/** What is wrong with a citation of file#anchor, or null. */
function brokenTarget(file: string, anchor: string | undefined): string | null {
  const found = anchorsOf(file);
  if (found === null) return `${file} does not exist`;
  if (anchor !== undefined && !found.has(anchor)) return `${file} has no heading #${anchor}`;
  return null;
}

describe('the citation checks themselves', () => {
  it('compute GitHub anchors', () => {
    expect(slug('B.5 Allocation from pcp')).toBe('b5-allocation-from-pcp');
    expect(slug('E.3 /proc/buddyinfo')).toBe('e3-procbuddyinfo');
    expect(slug('A.11 ALLOC_NOFRAGMENT')).toBe('a11-alloc_nofragment');
    expect(slug('B.11 History: the 2016 series and 5.14')).toBe(
      'b11-history-the-2016-series-and-514',
    );
    expect(slug('See [the notes](x.md) `now`')).toBe('see-the-notes-now');
    expect([...anchors('# A\n## A\n```\n# not a heading\n```\n### B.1 x')]).toEqual([
      'a',
      'a-1',
      'b1-x',
    ]);
  });

  it('flag files outside the repository, but not the run-time default of BUDDYSCOPE_SHARED', () => {
    expect(outsideCitations('/* see KERNEL.md A.5 */')).toEqual([1]);
    expect(outsideCitations('x\nrun it on ../shared/traces/zoneinfo-at-capture.txt')).toEqual([2]);
    expect(outsideCitations('the traces in shared/traces')).toEqual([1]);
    expect(outsideCitations("const s = process.env.BUDDYSCOPE_SHARED ?? '../shared';")).toEqual([]);
    expect(
      outsideCitations(
        'const char *dir = getenv("BUDDYSCOPE_SHARED");\n\nsnprintf(p, n, "%s",\n dir ? dir : "../../shared");',
      ),
    ).toEqual([]);
    expect(outsideCitations('getenv("BUDDYSCOPE_SHARED"); /* KERNEL.md C.2 */')).toEqual([1]);
    expect(outsideCitations('cites docs/kernel/page_alloc/pcp.md#b5-allocation-from-pcp')).toEqual(
      [],
    );
  });

  it('read section labels from headings, and label lists from citations', () => {
    expect([
      ...sectionLabels('# Title\n## A.1 Orders\ntext A.2\n### A.10 Boost\n## H.5 x'),
    ]).toEqual(['A.1', 'A.10', 'H.5']);
    const cited = (line: string, re: RegExp) =>
      [...line.matchAll(re)].map((m) => m.slice(1).join(' '));
    expect(cited('against docs/kernel C.7, D.2, A.11 and E.1: the zone', LABELS)).toEqual([
      'C.7, D.2, A.11 and E.1',
    ]);
    expect(cited(' * docs/kernel/page_alloc/buddy.md (A.3-A.6), with', PAGE_SECTIONS)).toEqual([
      'page_alloc/buddy.md A.3-A.6',
    ]);
  });
});

describe('citations inside the repository', () => {
  it('lists the repository', () => {
    expect(files).toContain('README.md');
    expect(files).toContain(self);
  });

  it('no file cites KERNEL.md, ../shared or shared/traces', () => {
    const bad: string[] = [];
    for (const [file, text] of texts) {
      if (file === self) continue;
      for (const line of outsideCitations(text)) bad.push(`${file}:${line}`);
    }
    expect(bad).toEqual([]);
  });

  it('every docs/kernel citation names an existing page and heading', () => {
    const bad: string[] = [];
    let checked = 0;
    for (const [file, text] of texts) {
      if (file === self) continue;
      text.split('\n').forEach((line, i) => {
        for (const m of line.matchAll(KERNEL_CITE)) {
          checked++;
          const why = brokenTarget(`docs/kernel/${m[1]}`, m[2]);
          if (why) bad.push(`${file}:${i + 1}: ${m[0]}: ${why}`);
        }
      });
    }
    expect(bad).toEqual([]);
    // the C core cites these pages throughout; none found means the pattern broke
    expect(checked).toBeGreaterThan(20);
  });

  it('every section label cited from code names a section of docs/kernel', () => {
    const pages = [...texts.keys()].filter(
      (f) => f.startsWith('docs/kernel/') && f.endsWith('.md'),
    );
    const everywhere = new Set(pages.flatMap((p) => [...sectionLabels(texts.get(p) ?? '')]));
    const bad: string[] = [];
    let checked = 0;
    for (const [file, text] of texts) {
      if (file === self) continue;
      text.split('\n').forEach((line, i) => {
        for (const m of line.matchAll(PAGE_SECTIONS)) {
          const page = `docs/kernel/${m[1]}`;
          const own = sectionLabels(texts.get(page) ?? '');
          for (const label of (m[2] ?? '').match(LABEL) ?? []) {
            checked++;
            if (!own.has(label)) bad.push(`${file}:${i + 1}: ${page} has no section ${label}`);
          }
        }
        for (const m of line.matchAll(LABELS)) {
          for (const label of (m[1] ?? '').match(LABEL) ?? []) {
            checked++;
            if (!everywhere.has(label))
              bad.push(`${file}:${i + 1}: docs/kernel has no section ${label}`);
          }
        }
      });
    }
    expect(bad).toEqual([]);
    // the C tests cite sections this way; none found means a pattern broke
    expect(checked).toBeGreaterThan(10);
  });

  it('every relative link inside docs/kernel resolves, anchors included', () => {
    const bad: string[] = [];
    const pages = [...texts.keys()].filter(
      (f) => f.startsWith('docs/kernel/') && f.endsWith('.md'),
    );
    expect(pages.length).toBeGreaterThan(3);
    for (const page of pages) {
      const text = texts.get(page) ?? '';
      text.split('\n').forEach((line, i) => {
        for (const m of line.matchAll(MD_LINK)) {
          const target = m[1] ?? '';
          if (/^[a-z]+:/i.test(target)) continue;
          const [path = '', anchor] = target.split('#');
          const file =
            path === '' ? page : relative(repo, normalize(join(repo, dirname(page), path)));
          const why = file.endsWith('.md')
            ? brokenTarget(file, anchor)
            : existsSync(join(repo, file))
              ? null
              : `${file} does not exist`;
          if (why) bad.push(`${page}:${i + 1}: ${target}: ${why}`);
        }
      });
    }
    expect(bad).toEqual([]);
  });
});
