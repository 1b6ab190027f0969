/*
 * buddy.c: the free lists of a zone and the two things the buddy allocator does with them.
 *
 * A zone keeps free memory as naturally aligned blocks of 2^order frames, one doubly linked list
 * per (order, migratetype) in free_area[order].free_list[mt]. Only the head frame of a block says
 * what it is (PG_BUDDY + order + list); the frames behind it are PG_TAIL, so every operation here
 * costs O(order) frame writes, never O(2^order).
 *
 * Freeing (__free_one_page) merges a block with its buddy, the other half of the next larger
 * block, for as long as the buddy is itself a free block of the same order:
 *
 *	buddy of pfn 8 at order 1 is 8 ^ 2 = 10; merged, the order-2 block starts at 8 & 10 = 8;
 *	its buddy at order 2 is 8 ^ 4 = 12, and so on up to MAX_PAGE_ORDER.
 *
 * Allocating (__rmqueue_smallest) takes the first block of the smallest order that has one and
 * splits it (expand): the upper half of each split goes back on a list, the lower half is split
 * further. An order-3 block at P split for an order-0 request frees P+4 (order 2), P+2 (order 1)
 * and P+1 (order 0), and returns P.
 *
 * Counters follow the kernel (docs/kernel/page_alloc/buddy.md#a3-free-lists-and-counters):
 * zone->nr_free_pages (NR_FREE_PAGES) counts pages on
 * every list but ISOLATE (account_freepages); nr_free_highatomic the pages on HIGHATOMIC lists;
 * nr_free_pages_blocks (6.18 NR_FREE_PAGES_BLOCKS) the pages in free blocks of order >=
 * pageblock_order that are not on the ISOLATE list (__add_to_free_list, __del_page_from_free_list).
 *
 * Corruption: a list head that is not a PG_BUDDY frame of that order in this zone, or a link that
 * leaves the zone, is never followed or written through; the operation gives up (PFN_NONE) and
 * sim_check reports what is wrong.
 */
#include "page_alloc/buddy.h"

#include "base/event.h"
#include "base/fast_path.h"
#include "base/frames.h"
#include "base/state.h"
#include "page_alloc/pcp_index.h"
#include "page_alloc/vocab.h"
#include "page_alloc/vmstat.h"

/* Whether pfn names a frame of z a list link may point to. */
static int link_ok(const struct zone *z, uint32_t pfn)
{
	return pfn != PFN_NONE && zone_has_pfn(z, pfn);
}

/* Whether the naturally aligned block of order at pfn lies wholly inside z's frames. */
static int block_in_zone(const struct zone *z, uint32_t pfn, int order)
{
	uint32_t size = 1u << order;
	return !(pfn & (size - 1)) && zone_has_pfn(z, pfn) && zone_has_pfn(z, pfn + size - 1);
}

/*
 * account_freepages: NR_FREE_PAGES (exactly, and through the lock holder's per-CPU delta as
 * vmstat.c counts it) and nr_free_highatomic follow pages entering/leaving mt's lists.
 */
static FAST_PATH void account_freepages(struct sim *s, struct zone *z, int64_t nr_pages, int mt)
{
	/* isolated pages are being taken away from the allocator: they are not "free" to anyone */
	if (mt == MIGRATE_ISOLATE)
		return;
	z->nr_free_pages += nr_pages;
	vmstat_mod_free(s, z, nr_pages);
	if (mt == MIGRATE_HIGHATOMIC)
		z->nr_free_highatomic += nr_pages;
}

/* Whether a free block of order on list mt counts in NR_FREE_PAGES_BLOCKS (6.18). */
static int counts_as_block(const struct sim *s, int order, int mt)
{
	return order >= s->config.pageblock_order && mt != MIGRATE_ISOLATE;
}

/* list_add / list_add_tail of pfn on free_area[order].free_list[mt]; links only, no counters. */
static void list_link(struct sim *s, struct zone *z, uint32_t pfn, int order, int mt, int to_tail)
{
	struct free_area *area = &z->free_area[order];
	struct page *page = zone_page(s, z, pfn);

	if (to_tail) {
		uint32_t tail = area->tail[mt];
		page->next = PFN_NONE;
		page->prev = link_ok(z, tail) ? tail : PFN_NONE;
		if (link_ok(z, tail))
			zone_page(s, z, tail)->next = pfn;
		else
			area->head[mt] = pfn;
		area->tail[mt] = pfn;
	} else {
		uint32_t head = area->head[mt];
		page->prev = PFN_NONE;
		page->next = link_ok(z, head) ? head : PFN_NONE;
		if (link_ok(z, head))
			zone_page(s, z, head)->prev = pfn;
		else
			area->tail[mt] = pfn;
		area->head[mt] = pfn;
	}
}

/* list_del of pfn from free_area[order].free_list[mt]; links only, never writes outside the zone. */
static void list_unlink(struct sim *s, struct zone *z, uint32_t pfn, int order, int mt)
{
	struct free_area *area = &z->free_area[order];
	struct page *page = zone_page(s, z, pfn);
	uint32_t next = page->next, prev = page->prev;

	if (link_ok(z, prev))
		zone_page(s, z, prev)->next = next;
	else
		area->head[mt] = next;
	if (link_ok(z, next))
		zone_page(s, z, next)->prev = prev;
	else
		area->tail[mt] = prev;
	page->next = page->prev = PFN_NONE;
}

/* Make a frame an anonymous tail: what a head becomes when its block merges into a bigger one. */
static void make_tail(struct sim *s, const struct zone *z, uint32_t pfn)
{
	struct page *page = zone_page(s, z, pfn);

	frame_changed(s, pfn);
	page->state = PG_TAIL;
	page->order = 0;
	page->list = 0;
	page->cpu = 0;
	page->next = page->prev = PFN_NONE;
}

/* __add_to_free_list: mark pfn PageBuddy of order, link it on mt's list, nr_free and blocks counters. */
static void add_to_list(struct sim *s, struct zone *z, uint32_t pfn, int order, int mt, int to_tail)
{
	struct page *page = zone_page(s, z, pfn);
	struct free_area *area = &z->free_area[order];

	frame_changed(s, pfn);
	page->state = PG_BUDDY;
	page->order = (uint8_t)order;
	page->list = (uint8_t)mt;
	page->cpu = 0;
	list_link(s, z, pfn, order, mt, to_tail);
	area->count[mt]++;
	area->nr_free++;
	if (counts_as_block(s, order, mt))
		z->nr_free_pages_blocks += (int64_t)1 << order;
	/* merged whole again (or placed whole): only the head needs to exist (base/frames.h) */
	if (order == s->config.max_order)
		frames_release(s, pfn);
}

/* __del_page_from_free_list: unlink a PageBuddy head from the list its frame names; no NR_FREE_PAGES. */
static void del_from_list(struct sim *s, struct zone *z, uint32_t pfn)
{
	struct page *page = zone_page(s, z, pfn);
	int order = page->order, mt = page->list;
	struct free_area *area;

	if (order > MAX_PAGE_ORDER_LIMIT || mt >= MIGRATE_TYPES)
		return; /* a corrupted frame: sim_check reports it */
	/* a whole block leaves the lists to be split or allocated: its frames come to exist */
	if (order == s->config.max_order)
		page = frame_materialised(s, pfn);
	area = &z->free_area[order];
	list_unlink(s, z, pfn, order, mt);
	area->count[mt]--;
	area->nr_free--;
	if (counts_as_block(s, order, mt))
		z->nr_free_pages_blocks -= (int64_t)1 << order;
	/* __ClearPageBuddy; the order stays readable for the caller, who gives the frame its new state */
	frame_changed(s, pfn);
	page->state = PG_TAIL;
}

void buddy_add_to_free_list(struct sim *s, struct zone *z, uint32_t pfn, int order, int mt,
			    int to_tail)
{
	if (order < 0 || order > s->config.max_order || mt < 0 || mt >= MIGRATE_TYPES ||
	    !block_in_zone(z, pfn, order))
		return;
	add_to_list(s, z, pfn, order, mt, to_tail);
	account_freepages(s, z, (int64_t)1 << order, mt);
}

void buddy_del_from_free_list(struct sim *s, struct zone *z, uint32_t pfn)
{
	struct page *page = zone_page(s, z, pfn);
	int order = page->order, mt = page->list;

	if (page->state != PG_BUDDY || order > s->config.max_order || mt >= MIGRATE_TYPES ||
	    !block_in_zone(z, pfn, order))
		return; /* not on a free list: nothing to take off */
	del_from_list(s, z, pfn);
	account_freepages(s, z, -((int64_t)1 << order), mt);
}

void buddy_move_to_free_list(struct sim *s, struct zone *z, uint32_t pfn, int mt)
{
	buddy_move_to_free_list_at(s, z, pfn, mt, 1);
}

void buddy_move_to_free_list_at(struct sim *s, struct zone *z, uint32_t pfn, int mt, int to_tail)
{
	struct page *page = zone_page(s, z, pfn);
	int order = page->order, old_mt = page->list;
	struct free_area *area;

	if (page->state != PG_BUDDY || order > s->config.max_order || old_mt >= MIGRATE_TYPES ||
	    mt < 0 || mt >= MIGRATE_TYPES || !block_in_zone(z, pfn, order))
		return;
	area = &z->free_area[order];
	/*
	 * move_to_free_list: list_move_tail (5.10+), so moved pages are not the next ones handed
	 * out; 4.9's move_freepages used list_move, to the head
	 */
	list_unlink(s, z, pfn, order, old_mt);
	area->count[old_mt]--;
	list_link(s, z, pfn, order, mt, to_tail);
	area->count[mt]++;
	frame_changed(s, pfn);
	page->list = (uint8_t)mt;
	account_freepages(s, z, -((int64_t)1 << order), old_mt);
	account_freepages(s, z, (int64_t)1 << order, mt);
	/* only a move into or out of ISOLATE changes whether a big block counts as free blocks */
	if (order >= s->config.pageblock_order &&
	    (old_mt == MIGRATE_ISOLATE) != (mt == MIGRATE_ISOLATE))
		z->nr_free_pages_blocks += (mt == MIGRATE_ISOLATE ? -1 : 1) * ((int64_t)1 << order);
}

/* find_buddy_page_pfn + page_is_buddy: whether buddy_pfn is a free block of order in z. */
static int is_free_buddy(const struct sim *s, const struct zone *z, uint32_t buddy_pfn, int order)
{
	const struct page *buddy;

	/* a buddy outside the zone's frames is a hole or another zone: never a buddy (page_zone_id check) */
	if (!block_in_zone(z, buddy_pfn, order))
		return 0;
	buddy = zone_page(s, z, buddy_pfn);
	return buddy->state == PG_BUDDY && buddy->order == order;
}

/*
 * buddy_merge_likely: a block that stopped merging at order goes to the tail of its list when the
 * order+1 block containing it has a free buddy, because freeing the rest of that block would let
 * it grow two orders; blocks at the tail are handed out last. Never for the two largest orders.
 */
static int merge_likely(const struct sim *s, const struct zone *z, uint32_t pfn, uint32_t buddy_pfn,
			int order)
{
	uint32_t higher_pfn;

	if (order >= s->config.max_order - 1)
		return 0;
	/* e.g. pfn 12, order 2 (buddy 8): the order-3 block at 8 has the buddy 8 ^ 8 = 0 */
	higher_pfn = buddy_pfn & pfn;
	return is_free_buddy(s, z, higher_pfn ^ (1u << (order + 1)), order + 1);
}

/* Copy mt to every pageblock of a free block of order >= pageblock_order (change_pageblock_range). */
static void retag_range(const struct sim *s, struct zone *z, uint32_t pfn, int order, int mt)
{
	uint32_t nr = 1u << (order - s->config.pageblock_order);

	for (uint32_t i = 0; i < nr; i++)
		set_pageblock_migratetype(s, z, pfn + i * s->pageblock_nr_pages, mt);
}

void buddy_free_one_page(struct sim *s, struct zone *z, uint32_t pfn, int order, int mt, int cpu,
			 int fn)
{
	const int max_order = s->config.max_order;
	uint32_t buddy_pfn = 0;
	int to_tail;

	if (order < 0 || order > max_order || mt < 0 || mt >= MIGRATE_TYPES ||
	    !block_in_zone(z, pfn, order))
		return; /* callers validate; this only keeps a bad call from writing outside the zone */

	/* the freed pages become free now; merged buddies were counted when they were freed */
	account_freepages(s, z, (int64_t)1 << order, mt);

	/* bounded: order grows by one per merge and stops at MAX_PAGE_ORDER */
	while (order < max_order) {
		uint32_t combined;
		int buddy_list;

		buddy_pfn = pfn ^ (1u << order);
		if (!is_free_buddy(s, z, buddy_pfn, order))
			break;
		if (order >= s->config.pageblock_order) {
			/*
			 * Above a pageblock the halves may belong to pageblocks of different types.
			 * HIGHATOMIC and ISOLATE blocks must not merge with others or their free
			 * page accounting would leak into another type.
			 */
			int buddy_mt = get_pageblock_migratetype(s, z, buddy_pfn);
			if (buddy_mt != mt &&
			    (mt >= MIGRATE_PCPTYPES || buddy_mt >= MIGRATE_PCPTYPES))
				break;
			/*
			 * Match the buddy's type so a later expand() puts its halves on the right lists.
			 * The kernel retags the buddy's first pageblock only; we retag all of them so a
			 * block never spans pageblocks of different types (what its VM_WARNs assert).
			 */
			if (buddy_mt != mt)
				retag_range(s, z, buddy_pfn, order, mt);
		}
		/*
		 * A buddy on another type's list (kernels before 6.10 free a pcp page to the list of
		 * the type it was allocated as, whatever its pageblock says now): its pages join mt's
		 * list, and the per-type counters (nr_free_highatomic, ISOLATE's) move with them.
		 */
		buddy_list = zone_page(s, z, buddy_pfn)->list;
		if (__builtin_expect(buddy_list != mt, 0)) {
			account_freepages(s, z, -((int64_t)1 << order), buddy_list);
			account_freepages(s, z, (int64_t)1 << order, mt);
		}
		del_from_list(s, z, buddy_pfn);
		make_tail(s, z, buddy_pfn);
		combined = buddy_pfn & pfn;
		if (combined != pfn)
			make_tail(s, z, pfn);
		pfn = combined;
		order++;
		ev_emit(s, EV_BUDDY_MERGE, FN___FREE_ONE_PAGE, cpu, z, pfn, order, mt,
			(int32_t)buddy_pfn, fn, 0);
	}

	to_tail = merge_likely(s, z, pfn, buddy_pfn, order);
	add_to_list(s, z, pfn, order, mt, to_tail);
	ev_emit(s, EV_BUDDY_ENQUEUE, FN___FREE_ONE_PAGE, cpu, z, pfn, order, mt, to_tail, fn, 0);
}

void buddy_free_pages_to_buddy(struct sim *s, struct zone *z, uint32_t pfn, int order, int cpu,
			       int fn)
{
	int piece = order;
	uint32_t end;

	if (order < 0 || order > s->config.max_order || !block_in_zone(z, pfn, order))
		return;
	/*
	 * split_large_buddy: a block bigger than a pageblock is freed one pageblock at a time, each
	 * piece with its own pageblock's type; compatible pieces merge back together.
	 */
	if (piece > s->config.pageblock_order)
		piece = s->config.pageblock_order;
	end = pfn + (1u << order);
	for (uint32_t p = pfn; p < end; p += 1u << piece)
		buddy_free_one_page(s, z, p, piece, get_pageblock_migratetype(s, z, p), cpu, fn);
}

/* expand()'s list work: the upper halves onto mt's lists; returns the pages put back (accounted by the caller). */
static int64_t expand_lists(struct sim *s, struct zone *z, uint32_t pfn, int low, int high, int mt,
			    int cpu)
{
	int64_t added = 0;

	/* bounded by high - low halvings */
	while (high > low) {
		uint32_t half;
		high--;
		half = pfn + (1u << high);
		add_to_list(s, z, half, high, mt, 0);
		added += (int64_t)1 << high;
		ev_emit(s, EV_BUDDY_SPLIT, FN_EXPAND, cpu, z, half, high, mt, 0, 0, 0);
	}
	frame_changed(s, pfn);
	zone_page(s, z, pfn)->order = (uint8_t)low;
	return added;
}

void buddy_expand(struct sim *s, struct zone *z, uint32_t pfn, int low, int high, int mt, int cpu)
{
	if (low < 0 || high > s->config.max_order || mt < 0 || mt >= MIGRATE_TYPES ||
	    !block_in_zone(z, pfn, high))
		return;
	/* try_to_claim_block's expand + account_freepages(nr_added) */
	account_freepages(s, z, expand_lists(s, z, pfn, low, high, mt, cpu), mt);
}

/* Whether the head of free_area[order].free_list[mt] is sound: a PageBuddy frame of that list. */
static uint32_t list_head(const struct sim *s, const struct zone *z, int order, int mt)
{
	uint32_t pfn = z->free_area[order].head[mt];
	const struct page *page;

	if (pfn == PFN_NONE || !block_in_zone(z, pfn, order))
		return PFN_NONE;
	page = zone_page(s, z, pfn);
	if (page->state != PG_BUDDY || page->order != order || page->list != mt)
		return PFN_NONE; /* corrupted: leave it to sim_check */
	return pfn;
}

uint32_t buddy_rmqueue_smallest(struct sim *s, struct zone *z, int order, int mt, int cpu)
{
	if (order < 0 || mt < 0 || mt >= MIGRATE_TYPES)
		return PFN_NONE;
	for (int current_order = order; current_order <= s->config.max_order; current_order++) {
		uint32_t pfn = list_head(s, z, current_order, mt);
		int percpu_refill;

		if (pfn == PFN_NONE)
			continue;
		/*
		 * page_del_and_expand: one account_freepages of what left the lists, the block less
		 * what expand put back (one change of the per-CPU delta, as in the kernel)
		 */
		del_from_list(s, z, pfn);
		account_freepages(s, z,
				  -(((int64_t)1 << current_order) -
				    expand_lists(s, z, pfn, order, current_order, mt, cpu)),
				  mt);
		/*
		 * the tracepoint's own rule, whether or not a pcp refill is the caller; before 5.19
		 * it fired in __rmqueue instead (buddy_trace_zone_locked)
		 */
		percpu_refill = pcp_allowed_order(s, order) && mt < MIGRATE_PCPTYPES;
		if (s->profile.trace_zone_locked_in_smallest)
			ev_emit(s, EV_MM_PAGE_ALLOC_ZONE_LOCKED, FN___RMQUEUE_SMALLEST, cpu, z, pfn,
				order, mt, percpu_refill, 0, 0);
		return pfn;
	}
	return PFN_NONE;
}

void buddy_trace_zone_locked(struct sim *s, struct zone *z, uint32_t pfn, int order, int mt, int fn,
			     int cpu)
{
	/* 5.14 and 4.9 print percpu_refill as order == 0, whatever the caller */
	if (!s->profile.trace_zone_locked_in_smallest && pfn != PFN_NONE)
		ev_emit(s, EV_MM_PAGE_ALLOC_ZONE_LOCKED, fn, cpu, z, pfn, order, mt, order == 0, 0,
			0);
}

void buddy_free_all_frames(struct sim *s, struct zone *z)
{
	uint8_t *tags = sim_pageblocks(s);
	uint64_t pfn = z->mem_pfn, end = (uint64_t)z->mem_pfn + z->managed;

	/* the zone's lists start empty: this is the boot-time hand-over */
	for (int order = 0; order < NR_PAGE_ORDERS_LIMIT; order++) {
		struct free_area *area = &z->free_area[order];
		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			area->head[mt] = area->tail[mt] = PFN_NONE;
			area->count[mt] = 0;
		}
		area->nr_free = 0;
	}
	z->nr_free_pages = z->nr_free_pages_blocks = z->vm_stat_free = 0;
	z->nr_free_highatomic = z->nr_reserved_highatomic = 0;

	/* memmap_init_range: every pageblock starts MOVABLE */
	for (uint32_t pb = 0; pb < z->nr_pageblocks; pb++)
		tags[z->pageblock_base + pb] = MIGRATE_MOVABLE;

	/*
	 * __free_pages_memory: the largest naturally aligned blocks that fit, in pfn order, each
	 * freed with FPI_TO_TAIL (__free_pages_core), so every list ends up sorted by pfn. The
	 * kernel frees blocks above a pageblock in pageblock pieces that merge straight back
	 * (split_large_buddy); with every pageblock MOVABLE the result is the same block, so we
	 * place it directly and emit no boot-time events. Tail frames are left as sim_init made them.
	 */
	while (pfn < end) {
		int order = s->config.max_order;
		while (order > 0 && (pfn & ((1ull << order) - 1)))
			order--;
		while (order > 0 && pfn + (1ull << order) > end)
			order--;
		buddy_add_to_free_list(s, z, (uint32_t)pfn, order, MIGRATE_MOVABLE, 1);
		pfn += 1ull << order;
	}
}
