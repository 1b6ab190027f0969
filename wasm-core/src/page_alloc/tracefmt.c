/*
 * tracefmt.c: events as the lines of /sys/kernel/tracing/trace, so the site can show, export and
 * diff the model's history against real traces. A real line looks like
 *	           touch-6588    [001] .....   192.073750: mm_page_alloc: page=... pfn=0x1961b8 ...
 * i.e. "%16s-%-7d [%03d] <flags> %5lu.%06lu: <event>: <fields>". The model's task is "sim" with
 * pid 1000 + cpu. Its timestamp is the event's seq read as microseconds: events carry no clock,
 * and the CPUs' virtual clocks at render time would misdate history.
 *
 * page= is %p of the struct page. Real traces hash it; the model prints the unhashed vmemmap
 * address of x86-64 (0xffffea0000000000 + pfn * sizeof(struct page) = 64), and 16 zeros for a
 * NULL page (a failed mm_page_alloc).
 *
 * Kernel tracepoints print exactly the fields of docs/kernel/page_alloc/formats.md#e1-tracepoints;
 * the model's other decisions print as
 * "buddyscope_<kind>: key=value ... fn=<kernel function>".
 */
#include "base/subsystem.h"
#include "page_alloc/tracefmt.h"

#include "base/event.h"
#include "base/state.h"
#include "base/subsystem.h"
#include "page_alloc/gfp.h"
#include "page_alloc/vocab.h"

#define VMEMMAP_START 0xffffea0000000000ull
#define STRUCT_PAGE_SIZE 64u
#define TRACE_PID_BASE 1000

static const char *const zone_names[MAX_NR_ZONES] = { "DMA", "DMA32", "Normal", "Movable",
						      "Device" };

/* " key=" */
static void key(struct textbuf *tb, const char *name)
{
	tb_char(tb, ' ');
	tb_str(tb, name);
	tb_char(tb, '=');
}

/* "key=<decimal>" with a leading space */
static void key_int(struct textbuf *tb, const char *name, int64_t v)
{
	key(tb, name);
	tb_int(tb, v, 0);
}

/* "pfn=0x%lx" (or "%lu" on old kernels), leading space */
static void key_pfn(const struct sim *s, struct textbuf *tb, const char *name, uint32_t pfn)
{
	key(tb, name);
	if (s->profile.trace_pfn_hex) {
		tb_str(tb, "0x");
		tb_hex(tb, pfn, 1);
	} else {
		tb_int(tb, pfn, 0);
	}
}

/* "gfp_flags=..." in the profile's show_gfp_flags order, leading space */
static void key_gfp(const struct sim *s, struct textbuf *tb, const char *name, uint32_t gfp)
{
	key(tb, name);
	if (s->profile.trace_gfp_bit_order)
		gfp_format(tb, gfp);
	else
		gfp_format_legacy(tb, gfp);
}

/* "page=%p pfn=..." shared by every kmem tracepoint; a NULL page prints as zeros and pfn 0. */
static void page_pfn(const struct sim *s, struct textbuf *tb, uint32_t pfn, int null_page)
{
	tb_str(tb, "page=");
	tb_hex(tb, null_page ? 0 : VMEMMAP_START + (uint64_t)pfn * STRUCT_PAGE_SIZE, 16);
	key_pfn(s, tb, "pfn", null_page ? 0 : pfn);
}

/* how a model event's a/b/c print (the formats events.def names) */
enum field_fmt { F_NONE, F_DEC, F_HEX, F_GFP, F_PFN, F_MT };

/* What a model event shows beside a, b, c: which of zone/pfn/order/mt, then names of a, b, c. */
struct model_fmt {
	uint8_t zone, pfn, order, mt;
	const char *a, *b, *c;
	uint8_t fa, fb, fc; /* enum field_fmt */
};

/*
 * Fields of every kind, from the rows of each events.def: a field whose meaning is "" is not
 * printed. The kernel's tracepoints (kinds 1..5, 30) are printed by trace_format_event instead.
 */
#define EV(id, NAME, name, marker, zone, pfn, order, mt, a, fa, b, fb, c, fc, doc)            \
	[id] = { zone,	 sizeof(pfn) > 1, sizeof(order) > 1, sizeof(mt) > 1, a, b, c, F_##fa, \
		 F_##fb, F_##fc },
#define EV_BITS(NAME, field, name, shift, width)
#define FN(id, NAME, name, file)
#define BAD(id, NAME, words)
static const struct model_fmt model_fmts[] = {
#include "base/events.def"
#include "page_alloc/events.def"
#include "reclaim/events.def"
#include "percpu/events.def"
#include "fault/events.def"
};
#undef EV
#undef EV_BITS
#undef FN
#undef BAD

/* One a/b/c field of a model event. */
static void model_field(const struct sim *s, struct textbuf *tb, const char *name, int fmt,
			int32_t v)
{
	if (!name || fmt == F_NONE)
		return;
	switch (fmt) {
	case F_HEX:
		key(tb, name);
		tb_str(tb, "0x");
		tb_hex(tb, (uint32_t)v, 1);
		break;
	case F_GFP:
		key_gfp(s, tb, name, (uint32_t)v);
		break;
	case F_PFN:
		key_pfn(s, tb, name, (uint32_t)v);
		break;
	default:
		key_int(tb, name, v);
		break;
	}
}

/* "buddyscope_<kind>: node=N zone=Z pfn=... order=... migratetype=... a=... fn=..." */
static void model_event(const struct sim *s, const struct sim_event *e, struct textbuf *tb)
{
	const struct model_fmt *f = e->kind < sizeof model_fmts / sizeof *model_fmts ?
					    &model_fmts[e->kind] :
					    &model_fmts[EV_NONE];

	tb_str(tb, "buddyscope_");
	tb_str(tb, ev_kind_name(e->kind));
	tb_char(tb, ':');
	/* drain_all_pages spans every zone: its event has none to name, and b counts the CPUs */
	if (e->kind == EV_DRAIN && e->fn == FN_DRAIN_ALL_PAGES) {
		key_int(tb, "pages", e->a);
		key_int(tb, "cpus", e->b);
		key(tb, "fn");
		tb_str(tb, ev_fn_name(e->fn));
		return;
	}
	if (f->zone) {
		key_int(tb, "node", e->node);
		key(tb, "zone");
		tb_str(tb, e->zone < MAX_NR_ZONES ? zone_names[e->zone] : "?");
	}
	if (f->pfn)
		key_pfn(s, tb, "pfn", e->pfn);
	if (f->order)
		key_int(tb, "order", e->order);
	if (f->mt)
		key_int(tb, "migratetype", e->mt);
	model_field(s, tb, f->a, f->fa, e->a);
	model_field(s, tb, f->b, f->fb, e->b);
	model_field(s, tb, f->c, f->fc, e->c);
	if (e->fn) {
		key(tb, "fn");
		tb_str(tb, ev_fn_name(e->fn));
	}
}

/* Decimal v zero-padded to width digits ("%0*u"). */
static void zero_padded(struct textbuf *tb, uint32_t v, int width)
{
	char digits[11];
	int n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v && n < 10);
	for (int pad = width - n; pad > 0; pad--)
		tb_char(tb, '0');
	while (n)
		tb_char(tb, digits[--n]);
}

/*
 * The flags column (kernel/trace/trace_output.c: trace_print_lat_fmt): 'd' with interrupts off,
 * need-resched and hard/soft irq ('.': the model has neither), the preempt depth in hex ('.' for
 * 0) and, from ~5.15, the migrate-disable depth (always '.' here). ctx is the CPU's trace_ctx when
 * the event was emitted (its record's ctx): "d..3." under zone->lock inside a 6.x pcp lock.
 */
static void flags_column(const struct sim *s, struct textbuf *tb, uint8_t ctx)
{
	static const char hex[] = "0123456789abcdef";
	uint8_t depth = ctx & TRACE_CTX_DEPTH;

	tb_char(tb, ctx & TRACE_CTX_IRQS_OFF ? 'd' : '.');
	tb_str(tb, "..");
	if (!s->profile.trace_flags_five_columns) {
		/* a four-column kernel prints the whole preempt_count in hex */
		if (depth >= 16)
			tb_char(tb, hex[(depth >> 4) & 0xf]);
		tb_char(tb, depth ? hex[depth & 0xf] : '.');
		return;
	}
	tb_char(tb, depth & 0xf ? hex[depth & 0xf] : '.');
	tb_char(tb, '.');
}

/* "             sim-1000    [000] .....     0.000042: " */
static void line_prefix(const struct sim *s, struct textbuf *tb, const struct sim_event *e)
{
	struct textbuf pid;
	char pid_text[12];

	/* "%16s-%-7d ": comm right-aligned in 16, a dash, pid left-aligned in 7, a space */
	tb_str_right(tb, "sim", 16);
	tb_char(tb, '-');
	tb_init(&pid, pid_text, sizeof pid_text);
	tb_int(&pid, TRACE_PID_BASE + e->cpu, 0);
	tb_finish(&pid);
	tb_str_left(tb, pid_text, 7);
	tb_str(tb, " [");
	zero_padded(tb, e->cpu, 3);
	tb_str(tb, "] ");
	flags_column(s, tb, e->ctx);
	tb_char(tb, ' ');
	/* "%5lu.%06lu: " */
	tb_int(tb, e->seq / 1000000u, 5);
	tb_char(tb, '.');
	zero_padded(tb, e->seq % 1000000u, 6);
	tb_str(tb, ": ");
}

void trace_format_event(const struct sim *s, const struct sim_event *e, struct textbuf *tb)
{
	line_prefix(s, tb, e);
	switch (e->kind) {
	case EV_MM_PAGE_ALLOC:
		/* a failed allocation (b == 0) traces a NULL page and pfn 0 */
		tb_str(tb, "mm_page_alloc: ");
		page_pfn(s, tb, e->pfn, e->b == 0);
		key_int(tb, "order", e->order);
		key_int(tb, "migratetype", e->mt);
		key_gfp(s, tb, "gfp_flags", (uint32_t)e->a);
		break;
	case EV_MM_PAGE_FREE:
		tb_str(tb, "mm_page_free: ");
		page_pfn(s, tb, e->pfn, 0);
		key_int(tb, "order", e->order);
		break;
	case EV_MM_PAGE_FREE_BATCHED:
		/* the literal "order=0" of kmem.h, whatever the folio's order; 4.9 adds cold= */
		tb_str(tb, "mm_page_free_batched: ");
		page_pfn(s, tb, e->pfn, 0);
		tb_str(tb, " order=0");
		if (s->profile.free_batch_rule == 0)
			tb_str(tb, " cold=0");
		break;
	case EV_MM_PAGE_ALLOC_ZONE_LOCKED:
		tb_str(tb, "mm_page_alloc_zone_locked: ");
		page_pfn(s, tb, e->pfn, 0);
		key_int(tb, "order", e->order);
		key_int(tb, "migratetype", e->mt);
		key_int(tb, "percpu_refill", e->a);
		break;
	case EV_MM_PAGE_PCPU_DRAIN:
		tb_str(tb, "mm_page_pcpu_drain: ");
		page_pfn(s, tb, e->pfn, 0);
		key_int(tb, "order", e->order);
		key_int(tb, "migratetype", e->mt);
		break;
	case EV_MM_PAGE_ALLOC_EXTFRAG:
		tb_str(tb, "mm_page_alloc_extfrag: ");
		page_pfn(s, tb, e->pfn, 0);
		key_int(tb, "alloc_order", e->order);
		key_int(tb, "fallback_order", e->a);
		key_int(tb, "pageblock_order", s->config.pageblock_order);
		key_int(tb, "alloc_migratetype", e->mt);
		key_int(tb, "fallback_migratetype", e->b);
		key_int(tb, "fragmenting", e->c & 1);
		key_int(tb, "change_ownership", (e->c >> 1) & 1);
		break;
	default: {
		int done = 0;

		/* a subsystem prints its own kernel tracepoints (percpu_alloc_percpu, ...) */
		for (const struct subsystem *const *sub = sim_subsystems; *sub && !done; sub++)
			if ((*sub)->trace_event)
				done = (*sub)->trace_event(s, e, tb);
		if (!done)
			model_event(s, e, tb);
		break;
	}
	}
	tb_char(tb, '\n');
}

size_t sim_trace_render(const struct sim *s, uint32_t from, uint32_t to, char *buf, size_t cap)
{
	struct textbuf tb;
	const struct sim_event *events = sim_event_buf(s);

	tb_init(&tb, buf, cap);
	if (to > s->nr_events)
		to = s->nr_events;
	for (uint32_t i = from; i < to; i++)
		trace_format_event(s, &events[i], &tb);
	return tb_finish(&tb);
}
