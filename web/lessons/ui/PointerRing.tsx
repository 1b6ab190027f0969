/*
 * PointerRing.tsx: a ring drawn over the part of a view a lesson step points at (`point: pcp
 * cpu=0 zone=Normal`). The views are not told: the ring finds its target by the data attributes
 * views already publish (data-cpu, data-zone, data-node, data-order) or, for per-zone tables, by
 * the zone name in the caption, and sits on top of it. When nothing matches, the whole view is
 * ringed. Re-measured after every render and resize, so it follows the view as it changes.
 */
import { useLayoutEffect, useState, type RefObject } from 'react';
import { ZONE_NAMES } from '../../core/machine-config';
import type { Pointer } from '../types';

interface Box {
  top: number;
  left: number;
  width: number;
  height: number;
}

function attr(key: string, v: string | number): string | null {
  if (key === 'zone') {
    const idx = typeof v === 'number' ? v : ZONE_NAMES.indexOf(v as (typeof ZONE_NAMES)[number]);
    return idx >= 0 ? `[data-zone="${idx}"]` : null;
  }
  if (key === 'cpu' || key === 'node' || key === 'order') return `[data-${key}="${String(v)}"]`;
  return null; // pfn, pageblock, pindex, mt: no element to ring, the view is ringed instead
}

/** The element a pointer names inside a view, or null for the view itself. */
export function findTarget(root: Element, pointer: Pointer): Element | null {
  const { zone, ...rest } = pointer.select;
  let scope: Element = root;
  if (zone !== undefined) {
    const byAttr = attr('zone', zone);
    const name = typeof zone === 'number' ? ZONE_NAMES[zone] : zone;
    const zoneEl =
      (byAttr ? root.querySelector(byAttr) : null) ??
      [...root.querySelectorAll('table')].find((t) =>
        t.caption?.textContent?.trim().startsWith(`${name ?? ''}:`),
      ) ??
      null;
    if (zoneEl) scope = zoneEl;
  }
  const sels = Object.entries(rest)
    .map(([k, v]) => (v === undefined ? null : attr(k, v)))
    .filter((s): s is string => s !== null);
  // All of them on one element, then on nested ones, then fewer (the most specific that exists).
  for (let n = sels.length; n > 0; n--) {
    const part = sels.slice(0, n);
    const hit = scope.querySelector(part.join('')) ?? scope.querySelector(part.join(' '));
    if (hit) {
      // A zone scope that itself carries the other attributes (a pcp box) is the best target.
      return hit;
    }
  }
  if (scope !== root) return scope;
  // The zone key may sit on the same element as the others (pcp boxes: data-cpu and data-zone).
  const all = [zone === undefined ? null : attr('zone', zone), ...sels].filter(
    (s): s is string => s !== null,
  );
  return all.length > 0 ? root.querySelector(all.join('')) : null;
}

export function PointerRing({
  container,
  pointer,
  label,
}: {
  container: RefObject<HTMLElement | null>;
  pointer: Pointer;
  label: string | null;
}) {
  const [box, setBox] = useState<Box | null>(null);
  useLayoutEffect(() => {
    const root = container.current;
    if (!root) return;
    const measure = () => {
      const target = findTarget(root, pointer) ?? root;
      const r = target.getBoundingClientRect();
      const c = root.getBoundingClientRect();
      const next = { top: r.top - c.top, left: r.left - c.left, width: r.width, height: r.height };
      setBox((old) =>
        old &&
        old.top === next.top &&
        old.left === next.left &&
        old.width === next.width &&
        old.height === next.height
          ? old
          : next,
      );
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(root);
    return () => ro.disconnect();
  });
  if (!box) return null;
  return (
    <div
      className="pointer-ring"
      style={{ top: box.top - 4, left: box.left - 4, width: box.width + 8, height: box.height + 8 }}
      aria-hidden="true"
    >
      {label && <span className="pointer-label">{label}</span>}
    </div>
  );
}
