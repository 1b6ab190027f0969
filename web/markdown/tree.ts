/*
 * tree.ts: Markdown as the site receives it: the mdast tree a CommonMark parser (with GFM tables)
 * made at build time (parse.ts, run by the Vite plugin), without source positions. The browser
 * never parses Markdown: it renders these trees (Md.tsx). Raw HTML in a source stays an `html`
 * node, which the renderer shows as text.
 */
import type { Root, RootContent } from 'mdast';

export type MdRoot = Root;
export type MdNode = RootContent;

/** Markdown sources and their trees, as the build hands them over (source text -> tree). */
export type MdTrees = Record<string, MdRoot>;
