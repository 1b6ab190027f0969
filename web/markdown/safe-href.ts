/*
 * safe-href.ts: which link targets a document may use.
 */

/**
 * Only links that cannot run script or leave the site unannounced: the web, the site's own routes
 * and relative files. A path may not start with `//` or `/\` (protocol-relative: another host),
 * and no href may hold a backslash, which browsers read as a slash.
 */
export function safeHref(href: string): string | null {
  if (href.includes('\\')) return null;
  return /^(https?:\/\/[^/]|#|\.{1,2}\/|\/(?!\/)|[\w-]+\.md$)/i.test(href) ? href : null;
}
