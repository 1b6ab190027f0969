/*
 * adopted-style-mod.ts: CodeMirror's style-mod, writing its rules into a constructed stylesheet.
 * Mounted on a Document, style-mod puts its rules in a <style> element (it adopts a constructed
 * sheet only for shadow roots), and the shipped CSP (style-src 'self', no 'unsafe-inline')
 * refuses inline <style> elements. Rules inserted into a constructed sheet go through the CSSOM
 * and are not inline styles, so a Document is handed to style-mod as a stand-in with no <head>
 * that forwards adoptedStyleSheets to the document: style-mod then takes its constructed-sheet
 * path, unchanged. vite-plugin.ts resolves CodeMirror's `import 'style-mod'` to this module.
 */
import { StyleModule as Base } from 'style-mod';

export type { StyleSpec } from 'style-mod';

type Root = Document | ShadowRoot | DocumentOrShadowRoot;

/** A stand-in per document, so style-mod finds the rules it mounted there before. */
const standIns = new WeakMap<Document, ShadowRoot>();

function standIn(doc: Document): ShadowRoot {
  let s = standIns.get(doc);
  if (!s) {
    // Only what style-mod reads of a root: ownerDocument, head (absent) and adoptedStyleSheets.
    const root = {
      ownerDocument: doc,
      get adoptedStyleSheets() {
        return doc.adoptedStyleSheets;
      },
      set adoptedStyleSheets(sheets: CSSStyleSheet[]) {
        doc.adoptedStyleSheets = sheets;
      },
    };
    s = root as unknown as ShadowRoot;
    standIns.set(doc, s);
  }
  return s;
}

/** Whether this document can adopt a constructed sheet (every current browser; not jsdom). */
function canAdopt(root: Root): root is Document {
  if (!('nodeType' in root) || (root as Node).nodeType !== 9) return false; // 9: DOCUMENT_NODE
  const doc = root as Document;
  return (
    Array.isArray(doc.adoptedStyleSheets) && typeof doc.defaultView?.CSSStyleSheet === 'function'
  );
}

export class StyleModule extends Base {
  static override mount(
    root: Root,
    modules: Base | ReadonlyArray<Base>,
    options?: { nonce?: string },
  ): void {
    super.mount(canAdopt(root) ? standIn(root) : root, modules, options);
  }
}
