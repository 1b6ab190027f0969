/*
 * fast_path.h: FAST_PATH marks the functions every allocation or free goes through, so that the
 * compiler folds them into the op loop whatever its inlining budget says.
 *
 * Why: in WebAssembly each call costs V8 a frame, a stack-limit check and reloads of the instance
 * and the memory base, about ten instructions that native code does not pay, and LLVM's default
 * budget left the fast path split across about ten calls per op, and GCC, as the path grew, left
 * rmqueue, the watermark check's event, the pcp list and index helpers and nr_pcp_high as calls
 * too. With them folded (and ev_emit and the zonelist walk reading before they store or branch),
 * an op of the core benchmark (bench1m, 2 CPUs, 200k random ops, callgrind) executed 703 native
 * and 866-897 wasm instructions (V8's counts move a few percent between runs), against 776 and
 * 951-990 before; see `npm run bench -- --instructions`. After the trace flags column and frames
 * on demand (716.5 native), one frame lookup per op fewer and a constant-bounded trace context
 * read in ev_emit make it 699.5 native, and 869 wasm in the op's own functions (page_alloc_apply,
 * sim_apply, bs_run_ops of a --profiling-funcs build: steady for one build, unlike the bench's
 * whole-process difference).
 * Where wasm's extra instructions are (bench1m, 20k ops; callgrind of node with --perf-basic-prof
 * for the function of each JIT address, --print-wasm-code for the instructions): V8's register
 * allocator, not the model. Of sim_apply's 897 per op, 141 were stack spills and reloads and 77
 * register moves (111 and 58 of 768 at d6cc005); the rest is close to GCC's count. Binaryen
 * inlines every function with one caller, so sim_apply holds every op's handler (37 KB of wasm).
 * Slow paths (fallback, reclaim, drains, refills) stay out of line, and so do the copies other
 * subsystems call (OUT_OF_LINE below).
 */
#ifndef BUDDYSCOPE_FAST_PATH_H
#define BUDDYSCOPE_FAST_PATH_H

/* Always inline this function into its callers, across files under LTO. */
#define FAST_PATH __attribute__((always_inline)) inline

/*
 * Never inline this function: the one out-of-line copy of a FAST_PATH function that slow paths and
 * other subsystems call. Folded into each of their call sites too, the allocation path made
 * alloc_slowpath, pcpu_populate and the fault handlers several KiB of wasm each, for calls that
 * a reclaim, a chunk population or a fault dwarfs anyway.
 */
#define OUT_OF_LINE __attribute__((noinline))

#endif
