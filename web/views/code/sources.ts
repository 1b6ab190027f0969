/*
 * sources.ts: the model's C files, for the Code view. Each file is its own small chunk that Vite
 * builds from wasm-core/src at build time (import.meta.glob, lazy, ?raw) and the browser fetches
 * the first time the view shows a line of it: none of it is in the first-load bundle.
 */
import { SOURCE_FILES } from '../../core/generated/sources';

const loaders = import.meta.glob<string>('../../../wasm-core/src/**/*.{c,h}', {
  query: '?raw',
  import: 'default',
});

/** The loader of a core path as SOURCE_FILES names it ("src/page_alloc/buddy.c"). */
function loaderOf(path: string): (() => Promise<string>) | undefined {
  return loaders[`../../../wasm-core/${path}`];
}

/** The path of a src_file hash, or undefined when the event names no known file. */
export function sourcePath(srcFile: number | undefined): string | undefined {
  return srcFile === undefined ? undefined : SOURCE_FILES[srcFile];
}

const cache = new Map<string, Promise<string>>();

/** The text of a core file (fetched once); rejects for a path the build does not hold. */
export function loadSource(path: string): Promise<string> {
  let p = cache.get(path);
  if (!p) {
    const load = loaderOf(path);
    p = load ? load() : Promise.reject(new Error(`no source for ${path}`));
    cache.set(path, p);
  }
  return p;
}
