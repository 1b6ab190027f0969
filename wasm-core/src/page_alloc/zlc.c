/*
 * zlc.c: the zonelist cache (Paul Jackson, 2.6.20; deleted by Mel Gorman for 4.4).
 *
 * Every node's fallback zonelist carried a small hint, shared by every task that walks it and
 * written without locks: one "full" bit per zonelist slot and the jiffies of the last clearing.
 * A walk that has set the cache up skips slots whose bit is set (zlc_zone_worth_trying), whatever
 * request, order or watermark found them full. Nothing clears a bit except the next zlc_setup
 * more than one second (HZ jiffies) after the last one, and, from 3.1, direct reclaim that made
 * progress (zlc_clear_zones_full). Example with HZ 1000: a zone marked at jiffies 5000 after a
 * zap at 4990 is skipped by every walk until a setup at jiffies 5991 or later clears it.
 *
 * Where the walk sets the cache up and what marks a zone is get_page_from_freelist's business
 * (page_alloc.c, by profile switch); the helpers here are the kernel's four, and the checker's.
 */
#include "page_alloc/zlc.h"

#include "base/event.h"
#include "base/state.h"
#include "base/textbuf.h"
#include "page_alloc/vocab.h"

#define NSEC_PER_SEC 1000000000ULL

_Static_assert(MAX_NUMNODES <= 64, "allowed node masks are 64-bit");

int profile_hz(const struct sim_profile *p)
{
	switch (p->hz) {
	case HZ_100:
		return 100;
	case HZ_300:
		return 300;
	case HZ_1000:
		return 1000;
	default:
		return 250;
	}
}

uint64_t zlc_jiffies(const struct sim *s, int cpu)
{
	uint64_t ns = sim_cpus(s)[cpu].clock_ns;

	/* split so that ns * HZ cannot overflow for any 64-bit clock */
	return ns / NSEC_PER_SEC * (uint64_t)profile_hz(&s->profile) +
	       ns % NSEC_PER_SEC * (uint64_t)profile_hz(&s->profile) / NSEC_PER_SEC;
}

/* Bits set in a word (bounded: 64 steps). */
static int popcount64(uint64_t w)
{
	int c = 0;

	for (int i = 0; i < 64; i++)
		c += (int)((w >> i) & 1);
	return c;
}

static int zlc_zap_bits(struct zonelist_cache *zlc);

void zlc_build(struct sim *s, int nid)
{
	struct node *n = &sim_nodes(s)[nid];

	for (int i = 0; i < MAX_ZONES_PER_ZONELIST; i++)
		n->zlc.z_to_n[i] = i < n->zonelist_len ? n->zonelist[i][0] : 0;
	zlc_zap_bits(&n->zlc);
	n->zlc.last_full_zap = 0;
}

/* Clear every fullzones bit; returns how many were set. */
static int zlc_zap_bits(struct zonelist_cache *zlc)
{
	int cleared = 0;

	for (int w = 0; w < ZLC_WORDS; w++) {
		cleared += popcount64(zlc->fullzones[w]);
		zlc->fullzones[w] = 0;
	}
	return cleared;
}

/* Whether slot's fullzones bit is set. */
static int zlc_full(const struct zonelist_cache *zlc, int slot)
{
	return (int)((zlc->fullzones[slot / 64] >> (slot % 64)) & 1);
}

/* Whether node nid has memory (N_MEMORY): any populated zone. */
static int node_has_memory(const struct sim *s, int nid)
{
	for (int zid = 0; zid < MAX_NR_ZONES; zid++)
		if (zone_populated(&sim_nodes(s)[nid].zones[zid]))
			return 1;
	return 0;
}

uint64_t zlc_setup(struct sim *s, int nid, int cpu)
{
	struct node *n = &sim_nodes(s)[nid];
	uint64_t now = zlc_jiffies(s, cpu);
	uint64_t allowed = 0;

	/* time_after(jiffies, last_full_zap + HZ): strictly more than one second */
	if (now > n->zlc.last_full_zap + (uint64_t)profile_hz(&s->profile)) {
		const uint64_t last = n->zlc.last_full_zap;
		int cleared = zlc_zap_bits(&n->zlc);

		ev_emit(s, EV_ZLC_ZAP, FN_ZLC_SETUP, cpu,
			&sim_nodes(s)[n->zonelist[0][0]].zones[n->zonelist[0][1]], 0, 0, 0, cleared,
			(int32_t)now, (int32_t)last);
		n->zlc.last_full_zap = now;
	}
	/* no cpusets: the task may use every node with memory (N_HIGH_MEMORY in 3.0) */
	for (int i = 0; i < s->config.nr_nodes; i++)
		if (node_has_memory(s, i))
			allowed |= 1ULL << i;
	return allowed;
}

int zlc_zone_worth_trying(const struct sim *s, int nid, int slot, uint64_t allowednodes,
			  int *reason)
{
	const struct node *n = &sim_nodes(s)[nid];

	if (!(allowednodes & (1ULL << n->zlc.z_to_n[slot]))) {
		*reason = ZLC_SKIP_NODE_DISALLOWED;
		return 0;
	}
	if (zlc_full(&n->zlc, slot)) {
		*reason = ZLC_SKIP_FULL;
		return 0;
	}
	return 1;
}

int32_t zlc_zap_in(const struct sim *s, int nid, int cpu)
{
	uint64_t now = zlc_jiffies(s, cpu),
		 due = sim_nodes(s)[nid].zlc.last_full_zap + (uint64_t)profile_hz(&s->profile) + 1;

	return now >= due ? 0 : (int32_t)(due - now);
}

void zlc_mark_zone_full(struct sim *s, int nid, int slot, int why, int cpu, int order)
{
	struct node *n = &sim_nodes(s)[nid];
	const uint8_t *ref = n->zonelist[slot];

	n->zlc.fullzones[slot / 64] |= 1ULL << (slot % 64);
	ev_emit(s, EV_ZLC_MARK_FULL, FN_ZLC_MARK_ZONE_FULL, cpu,
		&sim_nodes(s)[ref[0]].zones[ref[1]], 0, order, 0, slot, why,
		zlc_zap_in(s, nid, cpu));
}

void zlc_clear_zones_full(struct sim *s, int nid, int cpu, int order)
{
	struct node *n = &sim_nodes(s)[nid];
	int cleared = zlc_zap_bits(&n->zlc);

	ev_emit(s, EV_ZLC_CLEAR, FN_ZLC_CLEAR_ZONES_FULL, cpu,
		&sim_nodes(s)[n->zonelist[0][0]].zones[n->zonelist[0][1]], 0, order, 0, cleared, 0,
		0);
}

/* Record a ZLC inconsistency of node nid (slot, got, want) in s->error: SIM_ECORRUPT. */
static int zlc_fail(struct sim *s, const char *what, int nid, int slot, int64_t got, int64_t want)
{
	struct textbuf tb;

	tb_init(&tb, s->error, sizeof s->error);
	tb_str(&tb, "zlc: ");
	tb_str(&tb, what);
	tb_str(&tb, " node ");
	tb_int(&tb, nid, 0);
	tb_str(&tb, " slot ");
	tb_int(&tb, slot, 0);
	tb_got_want(&tb, got, want);
	return SIM_ECORRUPT;
}

int zlc_check(struct sim *s)
{
	for (int nid = 0; nid < s->config.nr_nodes; nid++) {
		const struct node *n = &sim_nodes(s)[nid];

		for (int slot = 0; slot < ZLC_WORDS * 64; slot++) {
			if (!zlc_full(&n->zlc, slot))
				continue;
			if (slot >= n->zonelist_len)
				return zlc_fail(s, "fullzones bit past the zonelist", nid, slot, 1,
						0);
			/* without a ZLC nothing may ever set a bit */
			if (!s->profile.zlc)
				return zlc_fail(s, "fullzones bits without a ZLC", nid, slot, 1, 0);
		}
		for (int i = 0; i < n->zonelist_len; i++)
			if (n->zlc.z_to_n[i] != n->zonelist[i][0])
				return zlc_fail(s, "z_to_n against the zonelist", nid, i,
						n->zlc.z_to_n[i], n->zonelist[i][0]);
	}
	return SIM_OK;
}
