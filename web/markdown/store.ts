/*
 * store.ts: the trees of the lessons' Markdown, as the build parsed them (the lesson loader
 * registers each lesson's), looked up by source text. A source the build did not see (which only
 * a test or a half-built dev page can ask for) is shown as its plain text, in one paragraph: the
 * browser has no Markdown parser to fall back on, by design.
 */
import type { MdRoot, MdTrees } from './tree';

const trees = new Map<string, MdRoot>();

export function registerTrees(more: MdTrees): void {
  for (const [source, tree] of Object.entries(more)) trees.set(source, tree);
}

export function treeOf(source: string): MdRoot {
  const t = trees.get(source);
  if (t) return t;
  if (source.trim() === '') return { type: 'root', children: [] };
  return {
    type: 'root',
    children: [{ type: 'paragraph', children: [{ type: 'text', value: source }] }],
  };
}
