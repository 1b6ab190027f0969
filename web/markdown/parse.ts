/*
 * parse.ts: Markdown to a tree at build time (the Vite plugin and Node tests call it; the site
 * never ships it): CommonMark by mdast-util-from-markdown, plus GFM pipe tables, which lessons
 * and docs use. Positions are dropped: the site needs the shape, not the source offsets.
 */
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTable } from 'micromark-extension-gfm-table';
import type { MdRoot, MdTrees } from './tree';

function stripPositions(node: unknown): void {
  if (typeof node !== 'object' || node === null) return;
  const n = node as { position?: unknown; children?: unknown[]; data?: unknown };
  delete n.position;
  delete n.data;
  if (Array.isArray(n.children)) for (const c of n.children) stripPositions(c);
}

/** One Markdown source as a tree. */
export function parseMarkdownTree(source: string): MdRoot {
  const tree = fromMarkdown(source, {
    extensions: [gfmTable()],
    mdastExtensions: [gfmTableFromMarkdown()],
  });
  stripPositions(tree);
  return tree;
}

/** Every source's tree, keyed by the source text (duplicates parsed once). */
export function parseAll(sources: Iterable<string>): MdTrees {
  const out: MdTrees = {};
  for (const s of sources) if (!(s in out)) out[s] = parseMarkdownTree(s);
  return out;
}
