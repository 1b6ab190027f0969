/*
 * Masked.tsx: values a lesson question asks for, hidden until its answer is revealed (see
 * value-paths.ts). The lesson page provides the hidden paths; everywhere else nothing is hidden.
 */
import { createContext, useContext } from 'react';
import { matchesPath } from './value-paths';

/** The patterns of the values hidden now. */
export const MaskContext = createContext<readonly string[]>([]);

/** A test for "is this value hidden now?". */
export function useMasked(): (path: string) => boolean {
  const masks = useContext(MaskContext);
  return (path) => masks.some((m) => matchesPath(m, path));
}

/** A number a view prints, or `?` while a question asks for it. */
export function V({ path, value }: { path: string; value: number | string }) {
  const hidden = useMasked()(path);
  return hidden ? (
    <span
      className="masked"
      data-path={path}
      data-masked="true"
      title="Hidden until the answer is revealed"
    >
      ?
    </span>
  ) : (
    <span data-path={path}>{value}</span>
  );
}
