// text-sizes.ts: what a projector shows: every visible piece of text on the page with its
// rendered size in CSS pixels (SVG text scaled by its drawing), for the presenter-mode checks.
import type { Page } from '@playwright/test';

export interface SizedText {
  text: string;
  px: number;
  where: string; // tag and class of the element, to find it
}

/** Every text of the page inside the viewport (what a projector shows) and its size. */
export function textSizes(page: Page, root = 'body'): Promise<SizedText[]> {
  return page.evaluate((rootSel) => {
    const out: SizedText[] = [];
    const rootEl = document.querySelector(rootSel);
    if (!rootEl) return out;
    const walker = document.createTreeWalker(rootEl, NodeFilter.SHOW_TEXT);
    const seen = new Set<Element>();
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = (n.textContent ?? '').trim();
      const el = n.parentElement;
      if (!text || !el || seen.has(el)) continue;
      seen.add(el);
      const cs = getComputedStyle(el);
      if (cs.visibility === 'hidden' || cs.display === 'none') continue;
      // Text for screen readers only (clipped to a pixel) is not seen.
      if (el.closest('.visually-hidden, [hidden], dialog:not([open]), option')) continue;
      const r = el.getBoundingClientRect();
      if (r.width < 2 || r.height < 2) continue;
      if (r.bottom <= 0 || r.top >= innerHeight || r.right <= 0 || r.left >= innerWidth) continue;
      let px = parseFloat(cs.fontSize);
      if (el instanceof SVGElement && el.ownerSVGElement) {
        const m = (el as unknown as SVGGraphicsElement).getScreenCTM?.();
        if (m) px *= Math.hypot(m.a, m.b);
      }
      out.push({
        text: text.slice(0, 40),
        px,
        where: `${el.tagName.toLowerCase()}.${el.className}`,
      });
    }
    return out;
  }, root);
}
