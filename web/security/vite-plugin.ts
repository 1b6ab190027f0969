/*
 * vite-plugin.ts: the CSP in the production build. It writes policy.ts's policy into index.html
 * as the first element of <head>, and resolves CodeMirror's style-mod to adopted-style-mod.ts so
 * the editor's rules need no inline <style>. Build only: the development server injects inline
 * scripts and styles for hot reload, which the policy would refuse (and it pre-bundles
 * CodeMirror with the plain style-mod).
 */
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { CSP } from './policy';

export function contentSecurityPolicy(): Plugin[] {
  const shim = fileURLToPath(new URL('./adopted-style-mod.ts', import.meta.url));
  return [
    {
      name: 'buddyscope:csp-meta',
      apply: 'build',
      // Right after <meta charset>: before any script or stylesheet the policy must cover.
      transformIndexHtml(html) {
        const charset = /<meta charset="utf-8" \/>/;
        if (!charset.test(html)) throw new Error('index.html has no <meta charset="utf-8" />');
        const meta = `<meta http-equiv="Content-Security-Policy" content="${CSP}" />`;
        return html.replace(charset, (m) => `${m}\n    ${meta}`);
      },
    },
    {
      name: 'buddyscope:adopted-style-mod',
      apply: 'build',
      enforce: 'pre',
      // Every importer but the shim itself (which wraps the real module) gets the shim.
      resolveId: (source, importer) => (source === 'style-mod' && importer !== shim ? shim : null),
    },
  ];
}
