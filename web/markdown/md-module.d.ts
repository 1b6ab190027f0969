// `import tree from './doc.md?md'`: a document's Markdown tree, parsed at build time
// (web/markdown/vite-plugin.ts).
declare module '*.md?md' {
  const tree: import('./tree').MdRoot;
  export default tree;
}
