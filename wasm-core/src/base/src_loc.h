/*
 * src_loc.h: where in the model's C an event was emitted, found at compile time. The event
 * emitter (base/event.h) is a macro that passes __LINE__ and SRC_FILE_HASH(__FILE__), so every
 * ev_emit call site records its file and line without saying so. The file is named by a 16-bit
 * polynomial hash (base 131, mod 2^32, folded) of its path as the Makefile spells it ("src/page_alloc/buddy.c"): a string literal
 * indexed by constants folds to a constant in gcc and clang at every optimisation level, so the
 * hash costs nothing at run time. scripts/gen/sources.mjs lists every file under src/, computes
 * the same hash and fails on a collision or a path too long; web/core/generated/sources.ts maps
 * the hash back to the path. Paths are hashed up to SRC_PATH_MAX bytes; past its end a path
 * contributes zero bytes, so a hash is defined for every length.
 */
#ifndef BUDDYSCOPE_SRC_LOC_H
#define BUDDYSCOPE_SRC_LOC_H

#include <stdint.h>

#define SRC_PATH_MAX 64 /* bytes of a path the hash reads (the generator refuses longer paths) */

/* byte i of literal s, 0 past its end; the index is clamped so no branch reads out of bounds */
#define SRC_C(s, i) ((uint32_t)(uint8_t)((i) < sizeof(s) - 1 ? (s)[(i) < sizeof(s) ? (i) : 0] : 0))
/* bytes i..i+7 of s as a base-131 number, mod 2^32 (the powers are 131^7 .. 131^0) */
#define SRC_P8(s, i)                                                                      \
	(SRC_C(s, i + 0) * 2003157003u + SRC_C(s, i + 1) * 3031604185u +                  \
	 SRC_C(s, i + 2) * 4219751283u + SRC_C(s, i + 3) * 294499921u +                   \
	 SRC_C(s, i + 4) * 2248091u + SRC_C(s, i + 5) * 17161u + SRC_C(s, i + 6) * 131u + \
	 SRC_C(s, i + 7) * 1u)
/* the path's 64 bytes as one base-131 number mod 2^32: Horner's rule over blocks of eight */
#define SRC_B(s, i, h) ((h)*420562337u + SRC_P8(s, i))
#define SRC_H64(s)               \
	SRC_B(s, 56,             \
	      SRC_B(s, 48,       \
		    SRC_B(s, 40, \
			  SRC_B(s, 32, SRC_B(s, 24, SRC_B(s, 16, SRC_B(s, 8, SRC_P8(s, 0))))))))
/* the 16-bit file id of path literal s: the 32-bit hash folded (xor of its halves) */
#define SRC_FILE_HASH(s) ((uint16_t)(((SRC_H64(s) & 0xffffffffu) >> 16) ^ (SRC_H64(s) & 0xffffu)))

#endif
