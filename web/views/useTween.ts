/*
 * useTween.ts: motion for the views, D3 for the math and React for the DOM: D3's interpolators
 * and easing compute each frame's value, requestAnimationFrame drives it into React state, and the
 * component renders it like any other prop (no d3.select, no DOM touched behind React's back).
 * Under prefers-reduced-motion both hooks return the end value at once.
 */
import { easeCubicOut, interpolateNumber } from 'd3';
import { useEffect, useRef, useState } from 'react';

/** How long a view's motion lasts: short, so stepping quickly never queues up motion. */
export const MOTION_MS = 400;

/** A number that eases from where it was to `target` whenever `target` changes. */
export function useTween(target: number, reducedMotion: boolean, ms = MOTION_MS): number {
  const [value, setValue] = useState(target);
  const shown = useRef(target); // where the motion is now, so a new target starts from there
  useEffect(() => {
    if (reducedMotion) {
      shown.current = target;
      return;
    }
    const lerp = interpolateNumber(shown.current, target);
    const start = performance.now();
    let id = requestAnimationFrame(function frame(now: number) {
      const t = Math.min(1, Math.max(0, (now - start) / ms));
      shown.current = lerp(easeCubicOut(t));
      setValue(shown.current);
      if (t < 1) id = requestAnimationFrame(frame);
    });
    return () => cancelAnimationFrame(id);
  }, [target, reducedMotion, ms]);
  return reducedMotion ? target : value;
}

/**
 * Eased progress from 0 to 1, restarted whenever `key` changes (an event to show moving); 1 for
 * an empty key and under reduced motion.
 */
export function useProgress(key: string, reducedMotion: boolean, ms = MOTION_MS): number {
  const [at, setAt] = useState({ key, t: 1 });
  useEffect(() => {
    if (reducedMotion || !key) return;
    const start = performance.now();
    let id = requestAnimationFrame(function frame(now: number) {
      const t = Math.min(1, Math.max(0, (now - start) / ms));
      setAt({ key, t: easeCubicOut(t) });
      if (t < 1) id = requestAnimationFrame(frame);
    });
    return () => cancelAnimationFrame(id);
  }, [key, reducedMotion, ms]);
  if (reducedMotion || !key) return 1;
  return at.key === key ? at.t : 0; // a new key starts from the beginning, before its first frame
}
