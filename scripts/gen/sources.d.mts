// The types of sources.mjs for its tests.

/** Bytes of a path the C hash reads (SRC_PATH_MAX in wasm-core/src/base/src_loc.h). */
export declare const SRC_PATH_MAX: number;

/** SRC_FILE_HASH of a path as the Makefile compiles it ("src/page_alloc/buddy.c"). */
export declare function srcFileHash(path: string): number;

/** Every .c and .h file of the core under repo/wasm-core/src, as "src/...", sorted. */
export declare function coreSourcePaths(repo: string): string[];

/** [{ hash, path }]; throws on two paths with one hash or a path too long. */
export declare function sourceTable(paths: string[]): { hash: number; path: string }[];
