/* textbuf.c: bounded text writing; bytes past cap are counted but not stored. */
#include "base/textbuf.h"

void tb_init(struct textbuf *tb, char *buf, size_t cap)
{
	tb->buf = buf;
	tb->cap = cap;
	tb->len = 0;
	if (buf && cap)
		buf[0] = '\0';
}

void tb_char(struct textbuf *tb, char c)
{
	/* keep one byte for the NUL that tb_finish writes */
	if (tb->len + 1 < tb->cap)
		tb->buf[tb->len] = c;
	tb->len++;
}

void tb_str(struct textbuf *tb, const char *str)
{
	for (; *str; str++)
		tb_char(tb, *str);
}

static int str_len(const char *str)
{
	int n = 0;
	while (str[n])
		n++;
	return n;
}

void tb_str_right(struct textbuf *tb, const char *str, int width)
{
	for (int pad = width - str_len(str); pad > 0; pad--)
		tb_char(tb, ' ');
	tb_str(tb, str);
}

void tb_str_left(struct textbuf *tb, const char *str, int width)
{
	tb_str(tb, str);
	for (int pad = width - str_len(str); pad > 0; pad--)
		tb_char(tb, ' ');
}

/* Decimal digits of v into out (at least "0"), returns out. */
static char *format_decimal(char out[24], int64_t v)
{
	char tmp[24];
	int n = 0, i = 0;
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		out[i++] = '-';
	while (n)
		out[i++] = tmp[--n];
	out[i] = '\0';
	return out;
}

void tb_int(struct textbuf *tb, int64_t v, int width)
{
	char digits[24];
	tb_str_right(tb, format_decimal(digits, v), width);
}

void tb_uint_left(struct textbuf *tb, uint64_t v, int width)
{
	char digits[24];
	/* values past INT64_MAX never occur in the model's counters */
	tb_str_left(tb, format_decimal(digits, (int64_t)v), width);
}

void tb_hex(struct textbuf *tb, uint64_t v, int digits)
{
	char tmp[17];
	int n = 0;

	do {
		tmp[n++] = "0123456789abcdef"[v & 0xf];
		v >>= 4;
	} while (v && n < 16);
	for (int pad = digits - n; pad > 0; pad--)
		tb_char(tb, '0');
	while (n)
		tb_char(tb, tmp[--n]);
}

size_t tb_finish(struct textbuf *tb)
{
	if (tb->cap) {
		size_t at = tb->len < tb->cap ? tb->len : tb->cap - 1;
		tb->buf[at] = '\0';
	}
	return tb->len;
}

void tb_got_want(struct textbuf *tb, int64_t got, int64_t want)
{
	tb_str(tb, ": got ");
	tb_int(tb, got, 0);
	tb_str(tb, ", want ");
	tb_int(tb, want, 0);
	tb_finish(tb);
}
