/*
 * vite-plugin.ts: `import tree from './doc.md?md'` gives the document's Markdown tree, parsed at
 * build time (parse.ts), so no parser ships to the browser.
 */
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';
import { parseMarkdownTree } from './parse';

export function markdownTreePlugin(): Plugin {
  return {
    name: 'buddyscope-markdown-tree',
    load(id) {
      const [file, query] = id.split('?', 2);
      if (query !== 'md' || !file) return null;
      this.addWatchFile(file);
      const tree = parseMarkdownTree(readFileSync(file, 'utf8'));
      return { code: `export default ${JSON.stringify(tree)};`, map: null };
    },
  };
}
