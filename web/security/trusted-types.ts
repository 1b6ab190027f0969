/*
 * trusted-types.ts: the site's one Trusted Types policy. The shipped CSP (policy.ts) requires
 * Trusted Types for every script sink, and the only one the app reaches is the Worker
 * constructor (the compile worker, a bundled file under the site's base path; a future worker
 * made the same way passes too). The default policy runs for each plain string a sink receives:
 * it lets through a same-origin .js URL under the base path and refuses everything else. It
 * defines no createHTML and no createScript, so HTML and script strings stay refused everywhere.
 * Imported first by main.tsx; where the browser has no Trusted Types it does nothing.
 */

/** The URL a script sink may load, or null to refuse: own origin, under `basePath`, a .js file. */
export function allowedScriptUrl(input: string, page: string, basePath: string): string | null {
  let url: URL;
  try {
    url = new URL(input, page);
  } catch {
    return null;
  }
  const ok =
    url.origin === new URL(page).origin &&
    url.pathname.startsWith(basePath) &&
    url.pathname.endsWith('.js') &&
    url.search === '' &&
    url.hash === '';
  return ok ? url.href : null;
}

interface TrustedTypePolicyFactory {
  readonly defaultPolicy: unknown;
  createPolicy(
    name: string,
    rules: { createScriptURL?: (input: string) => string | null },
  ): unknown;
}

const factory = (globalThis as { trustedTypes?: TrustedTypePolicyFactory }).trustedTypes;
// Once per document: a module run again (hot reload in development) finds it made already.
if (factory && !factory.defaultPolicy)
  factory.createPolicy('default', {
    createScriptURL: (input) => allowedScriptUrl(input, location.href, import.meta.env.BASE_URL),
  });
