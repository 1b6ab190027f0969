/*
 * policy.ts: the Content-Security-Policy the production build ships (vite-plugin.ts writes it into
 * index.html as a meta tag). Every source is the site's own origin: the site is static and loads
 * nothing from anywhere else. Each directive says why it is there; README.md ("Security") says
 * the same for readers.
 */

/** Directive name → its sources, in the order they appear in the meta tag. */
export const CSP_DIRECTIVES: ReadonlyArray<readonly [string, string]> = [
  // Everything not named below (fetch of the .wasm, images, fonts, the favicon): own origin only.
  ['default-src', "'self'"],
  // The bundled modules, and compiling the core: WebAssembly.instantiateStreaming needs
  // 'wasm-unsafe-eval', which allows wasm compilation only, not eval() or new Function.
  ['script-src', "'self' 'wasm-unsafe-eval'"],
  // Stylesheet files only. CodeMirror's rules go into a constructed stylesheet (CSSOM, not an
  // inline <style>: see adopted-style-mod.ts); React and D3 set style properties through the CSSOM.
  ['style-src', "'self'"],
  // The compile worker is a bundled file of our own.
  ['worker-src', "'self'"],
  // No plugins, no <base> rewriting every relative URL, forms post nowhere else.
  ['object-src', "'none'"],
  ['base-uri', "'none'"],
  ['form-action', "'self'"],
  // Script sinks take only what trusted-types.ts lets through (the worker's URL); no HTML or
  // script string ever reaches innerHTML, eval or a script element.
  ['require-trusted-types-for', "'script'"],
  ['trusted-types', 'default'],
];

/** The policy as a header or meta value: "name sources; name sources; ...". */
export const CSP = CSP_DIRECTIVES.map(([name, sources]) => `${name} ${sources}`).join('; ');
