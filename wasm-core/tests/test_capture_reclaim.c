/*
 * test_capture_reclaim.c: a captured machine as reclaim sees it. zoneinfo's LRU sizes become LRU
 * lists of the captured in-use memory (reclaim/capture.c); zoneinfo's boost becomes the zone's
 * watermark_boost; a trace's free of memory allocated before it comes from the zone of the
 * kernel's pfn; pcp pages keep their buddies in use; kswapd runs on the CPU OP_KSWAPD_CPU names
 * and frees what it reclaims in folio batches (shrink_folio_list's free_unref_folios, 6.18); a
 * trace's folio batch replays gathered, then freed at once (OP_FREE_FOLIOS).
 */
#include "capture_test_util.h"
#include "page_alloc/page_alloc.h"
#include "reclaim/capture.h"
#include "reclaim/lru.h"
#include "reclaim/vmscan.h"
#include "reclaim/vocab.h"

#define NORMAL (0 * MAX_NR_ZONES + ZONE_NORMAL)
#define DMA32 (0 * MAX_NR_ZONES + ZONE_DMA32)

/* One node, 2 CPUs, a 16384-page Normal zone (32 pageblocks; MIN 256, LOW 320, HIGH 384). */
static struct sim *small_machine(void)
{
	struct sim_config cfg;

	sim_config_default(&cfg);
	cfg.thp = 0;
	cfg.max_handles = 1000;
	cfg.event_capacity = 1 << 20;
	cfg.zones[0][ZONE_NORMAL] = (struct zone_config){ 1u << 20, 16384, 16384, 16384 };
	return at_boot(&cfg);
}

/* Lay Normal out with `free` pages in order-0 MOVABLE blocks, 4 UNMOVABLE and 28 MOVABLE pageblocks. */
static void lay_out(struct sim *s, int32_t free)
{
	lay_out_normal(s, 0, free, 4, 28);
}

/* The folios list lru of the node's lists stands for: a block each, an extent 2^(order - cpu). */
static int64_t list_folios(const struct sim *s, const struct lruvec *lv, int lru)
{
	int64_t n = 0;
	uint32_t pfn = lv->head[lru];

	for (uint32_t i = 0; pfn != PFN_NONE && i <= lv->nr_blocks[lru]; i++) {
		const struct page *page = frame_at(s, pfn);
		n += (page->flags & PAGEF_EXTENT) ? 1 << (page->order - page->cpu) : 1;
		pfn = page->next;
	}
	return n;
}

TEST(capture_lru_lists_come_out_of_captured_memory)
{
	struct sim *s = small_machine();
	const struct lruvec *lv;
	struct zone *z;
	int64_t movable_lru = 0;

	CHECK(s != NULL);
	if (!s)
		return;
	z = sim_zone(s, 0, ZONE_NORMAL);
	lv = &sim_nodes(s)[0].lruvec;
	/* before the layout there is no captured memory to take */
	CHECK_EQ(at_op(s, OP_CAPTURE_LRU, 0, 0, LRU_INACTIVE_FILE, NORMAL, 10), SIM_EINVAL);
	lay_out(s, 100);
	CHECK_EQ(captured_pages(s, z), 16384 - 100);
	CHECK(!sim_nodes(s)[0].kswapd.unpaced);
	CHECK_EQ(at_op(s, OP_CAPTURE_LRU, 0, 0, LRU_INACTIVE_FILE, NORMAL, 4000), SIM_OK);
	/* single pages for folios of unknown size: the trace's clock cannot pace kswapd (kswapd.h) */
	CHECK(sim_nodes(s)[0].kswapd.unpaced);
	CHECK_EQ(at_op(s, OP_CAPTURE_LRU, 0, 0, LRU_ACTIVE_FILE, NORMAL, 1000), SIM_OK);
	CHECK_EQ(at_op(s, OP_CAPTURE_LRU, 0, 0, LRU_INACTIVE_ANON, NORMAL, 3000), SIM_OK);
	CHECK_EQ(lv->nr_pages[LRU_INACTIVE_FILE], 4000);
	CHECK_EQ(lv->nr_pages[LRU_ACTIVE_FILE], 1000);
	CHECK_EQ(lv->nr_pages[LRU_INACTIVE_ANON], 3000);
	CHECK_EQ(z->nr_zone_lru[LRU_INACTIVE_FILE], 4000);
	CHECK_EQ(lv->nr_file, 5000);
	CHECK_EQ(lv->nr_anon, 3000);
	/* order-0 folios (folio sizes are unknown), a whole block they fill one extent of them */
	CHECK_EQ(list_folios(s, lv, LRU_INACTIVE_FILE), 4000);
	CHECK(lv->nr_blocks[LRU_INACTIVE_FILE] < 4000);
	CHECK_EQ(captured_pages(s, z), 16384 - 100 - 8000);
	CHECK_EQ(z->nr_free_pages, 100); /* free memory does not move */
	/* user memory sits in Movable pageblocks while they have in-use memory left (28 * 512) */
	for (uint32_t pfn = z->mem_pfn; pfn < z->mem_pfn + z->managed;) {
		const struct page *page = zone_page(s, z, pfn);
		if (page->state == PG_ALLOCATED && (page->lru_flags & PGL_LRU) &&
		    get_pageblock_migratetype(s, z, pfn) == MIGRATE_MOVABLE)
			movable_lru += 1 << page->order;
		pfn += 1u << page->order;
	}
	CHECK_EQ(movable_lru, 8000);
	/* more than is in use: what there is goes on the list, nothing else moves */
	CHECK_EQ(at_op(s, OP_CAPTURE_LRU, 0, 0, LRU_ACTIVE_ANON, NORMAL, 100000), SIM_OK);
	CHECK_EQ(lv->nr_pages[LRU_ACTIVE_ANON], 16384 - 100 - 8000);
	CHECK_EQ(captured_pages(s, z), 0);
	/* a list outside enum lru_list, a zone with no pages: refused */
	CHECK_EQ(at_op(s, OP_CAPTURE_LRU, 0, 0, NR_LRU_LISTS, NORMAL, 1), SIM_EINVAL);
	CHECK_EQ(at_op(s, OP_CAPTURE_LRU, 0, 0, LRU_INACTIVE_FILE, DMA32, 1), SIM_EINVAL);
	free(s);
}

/*
 * A capture without an lru-state: the tail its trace shows reclaim freeing comes as folios of the
 * root (memcg 0), which needs no OP_MEMCG; any other memcg is still refused undeclared.
 */
TEST(capture_lru_folios_of_the_root_need_no_memcgs)
{
	struct sim *s = small_machine();
	const struct lruvec *lv;

	CHECK(s != NULL);
	if (!s)
		return;
	lv = &sim_nodes(s)[0].lruvec;
	lay_out(s, 100);
	CHECK_EQ(at_op(s, OP_CAPTURE_LRU_FOLIOS, 0, 8, LRU_INACTIVE_FILE, NORMAL, 2), SIM_OK);
	CHECK_EQ(at_op(s, OP_CAPTURE_LRU_FOLIOS, 0, 0, NR_LRU_LISTS + LRU_INACTIVE_FILE, NORMAL, 1),
		 SIM_EINVAL);
	CHECK_EQ(at_op(s, OP_CAPTURE_LRU, 0, 0, LRU_INACTIVE_FILE, NORMAL, 100), SIM_OK);
	CHECK_EQ(lv->nr_pages[LRU_INACTIVE_FILE], 2 * 256 + 100);
	CHECK_EQ(list_folios(s, lv, LRU_INACTIVE_FILE), 2 + 100);
	CHECK_EQ(at_check(s), SIM_OK);
	free(s);
}

TEST(capture_boost_and_the_zone_of_a_freed_kernel_pfn)
{
	struct sim *s = at_preset("laptop", PROFILE_6_18);
	struct zone *dma32, *normal;
	int64_t dma32_pages, normal_pages;

	CHECK(s != NULL);
	if (!s)
		return;
	dma32 = sim_zone(s, 0, ZONE_DMA32);
	normal = sim_zone(s, 0, ZONE_NORMAL);
	CHECK_EQ(at_op(s, OP_CAPTURE_ZONE, 0, CAPTURE_BOOST, 0, NORMAL, 4096), SIM_OK);
	CHECK_EQ(at_op(s, OP_CAPTURE_ZONE, 0, CAPTURE_LAYOUT, 0, DMA32, 0), SIM_OK);
	CHECK_EQ(at_op(s, OP_CAPTURE_ZONE, 0, CAPTURE_LAYOUT, 0, NORMAL, 0), SIM_OK);
	/* zoneinfo's marks include the boost, as high_wmark_pages does */
	CHECK_EQ(normal->watermark_boost, 4096);
	CHECK_EQ(wmark_pages(normal, WMARK_HIGH), normal->_watermark[WMARK_HIGH] + 4096);
	dma32_pages = captured_pages(s, dma32);
	normal_pages = captured_pages(s, normal);
	/* the kernel freed a page of DMA32: the model frees one of its DMA32 captured blocks */
	CHECK_EQ(at_op(s, OP_CAPTURE_ZONE, 1, CAPTURE_FREE, 0, dma32->start_pfn + 100, 0), SIM_OK);
	CHECK_EQ(captured_pages(s, dma32), dma32_pages - 1);
	CHECK_EQ(captured_pages(s, normal), normal_pages);
	/* a pfn no zone spans (or none given): the highest zone with captured memory */
	CHECK_EQ(at_op(s, OP_CAPTURE_ZONE, 1, CAPTURE_FREE, 0, PFN_NONE, 0), SIM_OK);
	CHECK_EQ(captured_pages(s, normal), normal_pages - 1);
	free(s);
}

TEST(capture_pcp_blocks_keep_their_buddies_in_use)
{
	struct sim *s = small_machine();
	struct zone *z;

	CHECK(s != NULL);
	if (!s)
		return;
	z = sim_zone(s, 0, ZONE_NORMAL);
	lay_out(s, 0);
	CHECK_EQ(at_op(s, OP_CAPTURE_PCP, 0, 0, MIGRATE_MOVABLE, NORMAL, 1000), SIM_OK);
	CHECK_EQ(at_op(s, OP_CAPTURE_PCP, 0, 2, MIGRATE_MOVABLE, NORMAL, 10), SIM_OK);
	CHECK_EQ(sim_pcp(s, 0, 0, ZONE_NORMAL)->count, 1040);
	for (uint32_t pfn = z->mem_pfn; pfn < z->mem_pfn + z->managed;) {
		const struct page *page = zone_page(s, z, pfn);
		if (page->state == PG_PCP) {
			const struct page *buddy = zone_page(s, z, pfn ^ (1u << page->order));
			CHECK_EQ(buddy->state, PG_ALLOCATED);
		}
		pfn += 1u << page->order;
	}
	/* drained, they stay apart: 1000 order-0 and 10 order-2 free blocks */
	CHECK_EQ(at_op(s, OP_DRAIN_CPU, 0, 0, 0, 0, 0), SIM_OK);
	CHECK_EQ(z->nr_free_pages, 1040);
	CHECK_EQ(z->free_area[0].nr_free, 1000);
	CHECK_EQ(z->free_area[2].nr_free, 10);
	free(s);
}

TEST(capture_kswapd_runs_where_the_trace_saw_it_and_frees_in_folio_batches)
{
	struct sim *s = small_machine();
	const struct lruvec *lv;
	uint64_t batched;

	CHECK(s != NULL);
	if (!s)
		return;
	lv = &sim_nodes(s)[0].lruvec;
	CHECK_EQ(kswapd_cpu(s, 0), 0);
	CHECK_EQ(at_op(s, OP_KSWAPD_CPU, 1, 0, 0, 0, 0), SIM_OK);
	CHECK_EQ(kswapd_cpu(s, 0), 1);
	/* 200 pages free, under LOW (320): the first allocation wakes kswapd */
	lay_out(s, 200);
	CHECK_EQ(at_op(s, OP_CAPTURE_LRU, 0, 0, LRU_INACTIVE_FILE, NORMAL, 8000), SIM_OK);
	CHECK_EQ(at_alloc(s, 0, GFP_ATOMIC, 0, 0), SIM_OK);
	CHECK_EQ(at_op(s, OP_TICK, 0, 0, 0, 0, 1), SIM_OK);
	batched = (uint64_t)at_count(s, EV_MM_PAGE_FREE_BATCHED); /* the buffer holds both ops' */
	CHECK(s->ev.pgscan_kswapd > 0);
	CHECK_EQ(s->ev.pgsteal_kswapd, (uint64_t)(8000 - lv->nr_pages[LRU_INACTIVE_FILE]));
	/* every reclaimed page went through free_unref_folios, on kswapd's CPU */
	CHECK_EQ(batched, s->ev.pgsteal_kswapd);
	for (uint32_t i = 0; i < s->nr_events; i++)
		if (sim_events(s)[i].kind == EV_MM_PAGE_FREE_BATCHED ||
		    sim_events(s)[i].kind == EV_SHRINK_INACTIVE)
			CHECK_EQ(sim_events(s)[i].cpu, 1);
	/* kswapd's CPU offline: the node's first online CPU takes over */
	CHECK_EQ(at_op(s, OP_CPU_OFFLINE, 1, 0, 0, 0, 0), SIM_OK);
	CHECK_EQ(kswapd_cpu(s, 0), 0);
	free(s);
}

TEST(free_folios_gathers_then_frees_one_batch)
{
	struct sim *s = small_machine();
	uint32_t first;

	CHECK(s != NULL);
	if (!s)
		return;
	for (uint32_t h = 0; h < 4; h++)
		CHECK_EQ(at_alloc(s, 0, GFP_KERNEL, 0, h), SIM_OK);
	first = s->nr_events;
	/* gathering frees nothing yet */
	CHECK_EQ(at_op(s, OP_FREE_FOLIOS, 1, 0, 0, 0, 0), SIM_OK);
	CHECK_EQ(at_op(s, OP_FREE_FOLIOS, 1, 0, 0, 1, 0), SIM_OK);
	CHECK_EQ(s->nr_events, first);
	CHECK(sim_handles(s)[0].pfn != PFN_NONE);
	/* one CPU gathers at a time, each handle once */
	CHECK_EQ(at_op(s, OP_FREE_FOLIOS, 0, 0, 0, 2, 0), SIM_EBADHANDLE);
	CHECK_EQ(at_op(s, OP_FREE_FOLIOS, 1, 0, 0, 1, 0), SIM_EBADHANDLE);
	/* the last one frees them all: every mm_page_free, then each commit (free_unref_folios) */
	CHECK_EQ(at_op(s, OP_FREE_FOLIOS, 1, 0, 0, 2, 1), SIM_OK);
	CHECK_EQ(s->gather.nr, 0);
	for (uint32_t h = 0; h < 3; h++)
		CHECK_EQ(sim_handles(s)[h].pfn, PFN_NONE);
	CHECK_EQ(sim_handles(s)[3].pfn != PFN_NONE, 1);
	{
		int kinds[6], n = 0;
		for (uint32_t i = first; i < s->nr_events && n < 6; i++)
			if (sim_events(s)[i].kind == EV_MM_PAGE_FREE ||
			    sim_events(s)[i].kind == EV_MM_PAGE_FREE_BATCHED)
				kinds[n++] = sim_events(s)[i].kind;
		CHECK_EQ(n, 6);
		for (int i = 0; i < n; i++)
			CHECK_EQ(kinds[i], i < 3 ? EV_MM_PAGE_FREE : EV_MM_PAGE_FREE_BATCHED);
	}
	/* a freed handle cannot join a batch */
	CHECK_EQ(at_op(s, OP_FREE_FOLIOS, 1, 0, 0, 0, 1), SIM_EBADHANDLE);
	free(s);
}

/* Every LRU extent of node 0's lists becomes its folios (the per-frame placement of before). */
static void expand_all_extents(struct sim *s)
{
	struct lruvec *lv = &sim_nodes(s)[0].lruvec;

	for (int lru = 0; lru < NR_LRU_LISTS; lru++)
		for (uint32_t pfn = lv->head[lru]; pfn != PFN_NONE;) {
			struct zone *z = lru_page_zone(s, 0, pfn);
			const struct page *page = zone_page(s, z, pfn);
			uint32_t next = page->next;

			if (page->flags & PAGEF_EXTENT)
				lru_extent_expand(s, z, pfn);
			pfn = next;
		}
}

/* The events of two runs, field by field; the first difference named. */
static int same_events(const struct sim *a, const struct sim *b)
{
	if (a->nr_events != b->nr_events)
		return 0;
	for (uint32_t i = 0; i < a->nr_events; i++) {
		const struct sim_event *x = &sim_events(a)[i], *y = &sim_events(b)[i];
		if (x->kind != y->kind || x->pfn != y->pfn || x->order != y->order ||
		    x->cpu != y->cpu || x->a != y->a || x->b != y->b || x->c != y->c ||
		    x->mt != y->mt || x->zone != y->zone) {
			fprintf(stderr, "    event %u differs: kind %d/%d pfn 0x%x/0x%x\n", i,
				x->kind, y->kind, x->pfn, y->pfn);
			return 0;
		}
	}
	return 1;
}

/* The same op on both machines, each checked after it. */
static void both(struct sim *a, struct sim *b, int kind, int cpu, int order, uint32_t gfp,
		 uint32_t handle, int32_t arg)
{
	CHECK_EQ(at_op(a, kind, cpu, order, gfp, handle, arg),
		 at_op(b, kind, cpu, order, gfp, handle, arg));
}

TEST(capture_lru_extents_behave_as_their_folios_placed_one_by_one)
{
	struct sim_config cfg;
	struct sim *s, *flat;
	const struct lruvec *lv;
	struct zone *z;
	size_t size;
	uint32_t extent = PFN_NONE, used;

	sim_config_default(&cfg);
	cfg.thp = 0;
	cfg.max_order = 5; /* 32-page blocks: many extents in a small zone */
	cfg.pageblock_order = 5;
	cfg.max_handles = 1000;
	cfg.swap_pages = 4096;
	cfg.event_capacity = 1 << 20;
	cfg.zones[0][ZONE_NORMAL] = (struct zone_config){ 1u << 20, 16384, 16384, 16384 };
	s = at_boot(&cfg);
	size = sim_state_size(&cfg);
	flat = aligned_alloc(8, (size + 7) & ~(size_t)7);
	CHECK(s != NULL && flat != NULL);
	if (!s || !flat)
		return;
	z = sim_zone(s, 0, ZONE_NORMAL);
	lv = &sim_nodes(s)[0].lruvec;
	lay_out(s, 200);
	/* captured in-use blocks of the largest order stay whole: the layout needs few slabs */
	CHECK(s->slabs_used < 16384 / 32 / 4);
	CHECK_EQ(at_op(s, OP_CAPTURE_LRU, 0, 0, LRU_INACTIVE_FILE, NORMAL, 6000), SIM_OK);
	CHECK_EQ(at_op(s, OP_CAPTURE_LRU, 0, 0, LRU_ACTIVE_FILE, NORMAL, 3000), SIM_OK);
	CHECK_EQ(at_op(s, OP_CAPTURE_LRU, 0, 0, LRU_INACTIVE_ANON, NORMAL, 3000), SIM_OK);
	CHECK_EQ(list_folios(s, lv, LRU_INACTIVE_FILE), 6000);
	CHECK_EQ(list_folios(s, lv, LRU_ACTIVE_FILE), 3000);
	/* an extent in the middle of the active file list: a raw free will name a page inside it */
	for (uint32_t pfn = lv->head[LRU_ACTIVE_FILE]; pfn != PFN_NONE;
	     pfn = frame_at(s, pfn)->next)
		if (frame_at(s, pfn)->flags & PAGEF_EXTENT)
			extent = pfn;
	CHECK(extent != PFN_NONE);
	memcpy(flat, s, size);
	expand_all_extents(flat);
	CHECK_EQ(at_check(flat), SIM_OK);
	CHECK(flat->slabs_used > 4 * s->slabs_used);
	CHECK_EQ(list_folios(flat, &sim_nodes(flat)[0].lruvec, LRU_INACTIVE_FILE), 6000);
	CHECK_EQ(sim_nodes(flat)[0].lruvec.nr_blocks[LRU_INACTIVE_FILE], 6000);
	used = s->slabs_used;
	/* the same ops: kswapd woken, ticks, allocations, raw and captured frees, drains */
	both(s, flat, OP_ALLOC, 0, 0, GFP_ATOMIC, 0, 0);
	both(s, flat, OP_FREE_PFN, 1, 0, 0, extent + 3, 0);
	both(s, flat, OP_FREE_PFN, 1, 5, 0, extent, 0); /* the wrong order: refused alike */
	for (int i = 0; i < 3; i++)
		both(s, flat, OP_TICK, 0, 0, 0, 0, 1);
	for (uint32_t h = 1; h < 200; h++)
		both(s, flat, OP_ALLOC, (int)(h & 1), (int)(h % 4), GFP_HIGHUSER_MOVABLE, h, 0);
	both(s, flat, OP_CAPTURE_ZONE, 1, CAPTURE_FREE, 0, z->start_pfn, 0);
	both(s, flat, OP_DRAIN_ALL, 0, 0, 0, 0, 0);
	for (int i = 0; i < 4; i++)
		both(s, flat, OP_TICK, 1, 0, 0, 0, 1);
	CHECK(s->ev.pgscan_kswapd > 0);
	CHECK(same_events(s, flat));
	CHECK_EQ(s->ev.pgsteal_kswapd, flat->ev.pgsteal_kswapd);
	for (int lru = 0; lru < NR_LRU_LISTS; lru++) {
		CHECK_EQ(lv->nr_pages[lru], sim_nodes(flat)[0].lruvec.nr_pages[lru]);
		CHECK_EQ(list_folios(s, lv, lru),
			 list_folios(flat, &sim_nodes(flat)[0].lruvec, lru));
	}
	CHECK_EQ(z->nr_free_pages, sim_zone(flat, 0, ZONE_NORMAL)->nr_free_pages);
	/* reclaim reached extents (their blocks got frames); the others still cost one head each */
	CHECK(s->slabs_used > used);
	CHECK(s->slabs_used < flat->slabs_used);
	free(flat);
	free(s);
}

TEST(capture_whole_in_use_blocks_get_frames_when_split_or_freed)
{
	struct sim *s = small_machine();
	struct zone *z;
	uint32_t whole = PFN_NONE, used;

	CHECK(s != NULL);
	if (!s)
		return;
	z = sim_zone(s, 0, ZONE_NORMAL);
	lay_out(s, 0);
	/* nothing free: every block of the zone is captured in use and whole (16 x 1024 pages) */
	CHECK_EQ(captured_pages(s, z), 16384);
	used = s->slabs_used;
	for (uint32_t pfn = z->mem_pfn; pfn < z->mem_pfn + z->managed; pfn += 1024)
		if (block_is_whole(s, pfn >> 10) && whole == PFN_NONE)
			whole = pfn;
	CHECK_EQ(used, 0);
	CHECK(whole != PFN_NONE);
	/* a raw free of a page inside it: not a head, refused, nothing materialised */
	CHECK_EQ(at_op(s, OP_FREE_PFN, 0, 0, 0, whole + 5, 0), SIM_EBADPAGE);
	CHECK_EQ(s->slabs_used, used);
	/* a captured free of one page splits the first block: its frames come to exist */
	CHECK_EQ(at_op(s, OP_CAPTURE_ZONE, 0, CAPTURE_FREE, 0, z->start_pfn, 0), SIM_OK);
	CHECK_EQ(s->slabs_used, used + 1);
	CHECK_EQ(captured_pages(s, z), 16384 - 1);
	/* a raw free of a whole block at the largest order: back to the buddy, whole again */
	CHECK_EQ(at_op(s, OP_FREE_PFN, 0, 10, 0, z->mem_pfn + 4096, 0), SIM_OK);
	CHECK(block_is_whole(s, (z->mem_pfn + 4096) >> 10));
	CHECK_EQ(zone_page(s, z, z->mem_pfn + 4096)->state, PG_BUDDY);
	CHECK_EQ(zone_page(s, z, z->mem_pfn + 4096)->flags, 0);
	CHECK_EQ(s->slabs_used, used + 1);
	/* pcp pages out of whole blocks: carved, their frames exist (the captured free's page is on
	 * CPU 0's list already) */
	CHECK_EQ(at_op(s, OP_CAPTURE_PCP, 0, 3, MIGRATE_UNMOVABLE, NORMAL, 300), SIM_OK);
	CHECK_EQ(sim_pcp(s, 0, 0, ZONE_NORMAL)->count, 1 + 300 * 8);
	CHECK(s->slabs_used > used + 1);
	free(s);
}

/*
 * Normal laid out with 200 pages free and 6000 inactive and 2000 active file pages (the inactive
 * list is not low: 3 * 6000 > 2000), the node's refaults_moved set to `refaults` (0: no op), then
 * an allocation under LOW that wakes kswapd and a tick that lets it finish; NULL without a machine.
 */
static struct sim *kswapd_over_file_lists(int32_t refaults)
{
	struct sim *s = small_machine();

	if (!s)
		return NULL;
	lay_out(s, 200);
	CHECK_EQ(at_op(s, OP_CAPTURE_LRU, 0, 0, LRU_INACTIVE_FILE, NORMAL, 6000), SIM_OK);
	CHECK_EQ(at_op(s, OP_CAPTURE_LRU, 0, 0, LRU_ACTIVE_FILE, NORMAL, 2000), SIM_OK);
	if (refaults) {
		CHECK_EQ(at_op(s, OP_CAPTURE_LRU, 0, 0, CAPTURE_LRU_REFAULTS, NORMAL, refaults),
			 SIM_OK);
		CHECK_EQ(sim_nodes(s)[0].refaults_moved, refaults);
	}
	CHECK_EQ(at_alloc(s, 0, GFP_ATOMIC, 0, 0), SIM_OK);
	CHECK_EQ(at_op(s, OP_TICK, 0, 0, 0, 0, 1), SIM_OK);
	CHECK(s->ev.pgsteal_kswapd > 0);
	return s;
}

TEST(capture_refaults_make_kswapd_age_active_file_until_its_snapshot)
{
	struct sim *s = kswapd_over_file_lists(DEACTIVATE_FILE);

	CHECK(s != NULL);
	if (!s)
		return;
	/* kswapd aged the active file list as it reclaimed, then took its snapshot */
	CHECK(at_count(s, EV_SHRINK_ACTIVE) > 0);
	CHECK(s->ev.pgdeactivate > 0);
	CHECK_EQ(sim_nodes(s)[0].kswapd.running, 0);
	CHECK_EQ(sim_nodes(s)[0].refaults_moved, 0);
	CHECK_EQ(at_op(s, OP_CAPTURE_LRU, 0, 0, CAPTURE_LRU_REFAULTS, NORMAL,
		       (DEACTIVATE_ANON | DEACTIVATE_FILE) + 1),
		 SIM_EINVAL);
	free(s);
	/* without moved refaults the large active list is left alone */
	s = kswapd_over_file_lists(0);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(at_count(s, EV_SHRINK_ACTIVE), 0);
	CHECK_EQ(s->ev.pgdeactivate, 0);
	free(s);
}
