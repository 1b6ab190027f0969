/* textbuf.h: a bounded text writer for the /proc and trace renderings (no printf in the core). */
#ifndef BUDDYSCOPE_TEXTBUF_H
#define BUDDYSCOPE_TEXTBUF_H

#include <stddef.h>
#include <stdint.h>

/* Text written into buf[0..cap); len counts every byte asked for, so callers learn the size needed. */
struct textbuf {
	char *buf;
	size_t cap;
	size_t len;
};

/* Start writing into buf (which may be NULL with cap 0 to measure). */
void tb_init(struct textbuf *tb, char *buf, size_t cap);

/* Append a string. */
void tb_str(struct textbuf *tb, const char *str);

/* Append a string right-aligned in width columns (printf "%*s"). */
void tb_str_right(struct textbuf *tb, const char *str, int width);

/* Append a string left-aligned in width columns (printf "%-*s"). */
void tb_str_left(struct textbuf *tb, const char *str, int width);

/* Append a signed decimal right-aligned in width columns (width 0: no padding). */
void tb_int(struct textbuf *tb, int64_t v, int width);

/* Append an unsigned decimal left-aligned in width columns (printf "%-*lu"). */
void tb_uint_left(struct textbuf *tb, uint64_t v, int width);

/* Append lowercase hex without prefix, at least `digits` digits zero-padded. */
void tb_hex(struct textbuf *tb, uint64_t v, int digits);

/* Append one character. */
void tb_char(struct textbuf *tb, char c);

/* NUL-terminate (inside cap) and return the length needed excluding the NUL. */
size_t tb_finish(struct textbuf *tb);

/* Append ": got G, want W" and finish: the tail of every checker's inconsistency message. */
void tb_got_want(struct textbuf *tb, int64_t got, int64_t want);

#endif
