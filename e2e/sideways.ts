// sideways.ts: the phone check of the views specs: whether anything on the page sticks out of the
// viewport sideways (a table or a lane area that scrolls inside a box of its own is fine).
import type { Page } from '@playwright/test';

/**
 * Whether anything sticks out of the viewport sideways: the document scrolls, or an element
 * reaches past the right edge outside any scrolling box of its own (a table in a scroller is fine).
 */
export function sideways(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > w)
      out.push(`the page is ${document.documentElement.scrollWidth} px wide`);
    const scrolls = (el: Element | null): boolean => {
      for (let e = el; e && e !== document.body; e = e.parentElement) {
        const o = getComputedStyle(e).overflowX;
        if (o === 'auto' || o === 'scroll' || o === 'hidden') return true;
      }
      return false;
    };
    for (const el of document.querySelectorAll('main *')) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > w + 0.5 && !scrolls(el.parentElement))
        out.push(
          `${el.tagName.toLowerCase()}.${String(el.className)} ends at ${Math.round(r.right)}`,
        );
    }
    return out.slice(0, 5);
  });
}
