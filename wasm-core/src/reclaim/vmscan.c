/*
 * vmscan.c: page reclaim as mm/vmscan.c does it for the classic (two-list) LRU of 6.18.
 *
 * shrink_node decides how much of each list to scan (get_scan_count: 1 >> priority of each list,
 * split between anonymous memory and page cache by swappiness, anonymous memory only with free
 * swap), then walks the lists in SWAP_CLUSTER_MAX batches (shrink_lruvec): an inactive batch is
 * taken off the tail (isolate_lru_folios) and each block is judged (shrink_folio_list): used
 * again -> activated or given another trip; dirty page cache -> marked and activated for the
 * flusher; anonymous memory -> written to swap if there is any; the rest is freed through the
 * ordinary free path, to the reclaiming CPU's per-CPU lists. Active batches are aged onto the
 * inactive list (shrink_active_list) when the inactive list is small (inactive_is_low).
 * Direct reclaim (try_to_free_pages) runs the same at falling priority until it has
 * SWAP_CLUSTER_MAX pages.
 */
#include "reclaim/vmscan.h"

#include "base/event.h"
#include "base/lock.h"
#include "base/state.h"
#include "page_alloc/page_alloc.h"
#include "page_alloc/watermark.h"
#include "reclaim/lru.h"
#include "reclaim/memcg.h"
#include "reclaim/vocab.h"

#define VM_SWAPPINESS 60   /* vm_swappiness's default; not a model sysctl */
#define MAX_SWAPPINESS 200 /* 5.8+ */

/* What shrink_folio_list's reference check says (folio_check_references). */
enum folio_references {
	FOLIOREF_RECLAIM,
	FOLIOREF_RECLAIM_CLEAN,
	FOLIOREF_KEEP,
	FOLIOREF_ACTIVATE,
};

int kswapd_cpu(const struct sim *s, int nid)
{
	const struct node *n = &sim_nodes(s)[nid];

	if (n->kswapd_cpu && n->kswapd_cpu <= s->nr_cpus && sim_cpus(s)[n->kswapd_cpu - 1].online)
		return n->kswapd_cpu - 1;
	for (int c = n->first_cpu; c < n->first_cpu + n->nr_cpus; c++)
		if (sim_cpus(s)[c].online)
			return c;
	for (uint32_t c = 0; c < s->nr_cpus; c++)
		if (sim_cpus(s)[c].online)
			return (int)c;
	return 0;
}

/*
 * isolate_lru_folios: take blocks from the tail of list lru until nr_to_scan pages were looked at
 * or taken. Blocks of zones above reclaim_idx are passed over and end up at the head, as the
 * kernel splices its skipped list back. *scanned counts every page looked at (total_scan).
 * Returns the blocks taken (at most SWAP_CLUSTER_MAX: nr_to_scan never exceeds it).
 */
static int isolate_lru(struct sim *s, int nid, int memcg, int lru, int64_t nr_to_scan,
		       const struct scan_control *sc, uint32_t *taken, int64_t *scanned)
{
	struct lruvec *lv = lru_lists(s, nid, memcg);
	uint32_t pfn = lv->tail[lru], budget = lv->nr_blocks[lru];
	int64_t scan = 0, total = 0, took = 0;
	int n = 0;
	struct zone *z = NULL;

	while (budget-- && pfn != PFN_NONE && scan < nr_to_scan && took < nr_to_scan &&
	       n < SWAP_CLUSTER_MAX) {
		z = lru_page_zone_near(s, nid, pfn, z);
		struct page *page;
		uint32_t prev;
		int64_t pages;

		if (!z)
			break;
		page = zone_page(s, z, pfn);
		prev = page->prev;
		/* <= 4.7 the zone's own list: another zone's block is not on it, not even looked at */
		if (sc->only_zone >= 0 && zone_idx(z) != sc->only_zone) {
			pfn = prev;
			continue;
		}
		pages = (int64_t)1 << page->order;
		total += pages;
		lru_unlink(s, z, pfn);
		if (zone_idx(z) > sc->reclaim_idx) {
			lru_link(s, z, pfn, 0); /* skipped: back at the head */
		} else {
			scan += pages;
			took += pages;
			taken[n++] = pfn;
		}
		pfn = prev;
	}
	*scanned = total;
	return n;
}

/*
 * folio_check_references: a mapping's accessed bit (cleared as it is read) or PG_referenced.
 * Every mapped block starts with its fault's reference, so a mapped block needs a second use to
 * be activated; a block referenced only through PG_referenced is page cache read once: free it.
 */
static int check_references(struct page *page)
{
	int referenced_ptes = (page->lru_flags & (PGL_MAPPED | PGL_YOUNG)) ==
			      (PGL_MAPPED | PGL_YOUNG);
	int referenced_folio = (page->lru_flags & PGL_REFERENCED) != 0;

	page->lru_flags &= (uint16_t) ~(PGL_YOUNG | PGL_REFERENCED);
	if (referenced_ptes) {
		page->lru_flags |= PGL_REFERENCED;
		return referenced_folio ? FOLIOREF_ACTIVATE : FOLIOREF_KEEP;
	}
	if (referenced_folio && !(page->lru_flags & PGL_SWAPBACKED))
		return FOLIOREF_RECLAIM_CLEAN;
	return FOLIOREF_RECLAIM;
}

/*
 * A reclaimed block leaves the LRU (how: enum handle_gone) and joins the folio batch that
 * shrink_folio_list frees through free_unref_folios each time it fills (31 folios) and at the end.
 */
static void reclaim_free(struct sim *s, struct zone *z, uint32_t pfn, const struct scan_control *sc,
			 int how, struct page_batch *batch)
{
	int order = zone_page(s, z, pfn)->order;

	lru_forget(s, z, pfn, how);
	batch->zone[batch->nr] = z;
	batch->pfn[batch->nr] = pfn;
	batch->order[batch->nr] = (uint8_t)order;
	if (++batch->nr == FOLIO_BATCH_SIZE) {
		page_free_batch(s, sc->cpu, batch);
		batch->nr = 0;
	}
}

/* Put an isolated block back on a list of its type: active (counted as pgactivate) or inactive. */
static void putback(struct sim *s, struct zone *z, uint32_t pfn, int activate)
{
	struct page *page = zone_page(s, z, pfn);

	if (activate && !(page->lru_flags & PGL_ACTIVE)) {
		page->lru_flags |= PGL_ACTIVE;
		s->ev.pgactivate += 1u << page->order;
	}
	lru_link(s, z, pfn, 0);
}

/*
 * shrink_inactive_list + shrink_folio_list: judge a batch from the inactive tail. Anonymous
 * memory goes to swap only when there is swap and the request may do IO; swap-out is taken
 * to complete at once (the kernel writes asynchronously and frees on a later pass).
 */
static int64_t shrink_inactive_list(struct sim *s, int nid, int memcg, int64_t nr_to_scan,
				    struct scan_control *sc, int lru)
{
	uint32_t taken[SWAP_CLUSTER_MAX];
	int64_t scanned, reclaimed = 0;
	int n = isolate_lru(s, nid, memcg, lru, nr_to_scan, sc, taken, &scanned);
	int file = is_file_lru(lru);
	struct page_batch free_folios;
	struct zone *z = NULL;

	if (sc->kswapd)
		s->ev.pgscan_kswapd += (uint64_t)scanned;
	else
		s->ev.pgscan_direct += (uint64_t)scanned;
	if (file)
		s->ev.pgscan_file += (uint64_t)scanned;
	else
		s->ev.pgscan_anon += (uint64_t)scanned;
	sc->nr_scanned += scanned;
	sc->nr_folios += n;
	/* the allocating task pays for its own scanning; kswapd runs on a thread of its own */
	if (!sc->kswapd)
		cpu_charge(s, sc->cpu, (uint64_t)scanned * COST_RECLAIM_SCAN_PAGE_NS);
	if (!n)
		return 0;
	free_folios.nr = 0;
	for (int i = 0; i < n; i++) {
		struct page *page;
		int64_t pages;
		int ref, how;

		z = lru_page_zone_near(s, nid, taken[i], z);
		page = zone_page(s, z, taken[i]);
		pages = (int64_t)1 << page->order;

		/* node reclaim without RECLAIM_UNMAP scans mapped pages and keeps them (keep_locked) */
		if (!sc->may_unmap && (page->lru_flags & PGL_MAPPED)) {
			putback(s, z, taken[i], 0);
			continue;
		}
		ref = check_references(page);
		if (ref == FOLIOREF_ACTIVATE || ref == FOLIOREF_KEEP) {
			putback(s, z, taken[i], ref == FOLIOREF_ACTIVATE);
			continue;
		}
		how = HANDLE_DROPPED;
		if (page->lru_flags & PGL_SWAPBACKED) {
			if (!(sc->gfp & __GFP_IO)) {
				putback(s, z, taken[i], 0); /* keep_locked */
				continue;
			}
			if (!sc->may_swap || s->nr_swap_free < pages) {
				putback(s, z, taken[i], 1); /* add_to_swap failed: activate */
				continue;
			}
			s->nr_swap_free -= pages;
			s->ev.pswpout += (uint64_t)pages;
			how = HANDLE_SWAPPED;
		} else if ((page->lru_flags & PGL_DIRTY) && !sc->may_writepage) {
			/* node reclaim without RECLAIM_WRITE leaves dirty page cache where it is */
			putback(s, z, taken[i], 0);
			continue;
		} else if (page->lru_flags & PGL_DIRTY) {
			/* only the flusher writes page cache: mark it, keep it off the inactive tail */
			page->lru_flags |= PGL_RECLAIM;
			putback(s, z, taken[i], 1);
			continue;
		}
		reclaim_free(s, z, taken[i], sc, how, &free_folios);
		reclaimed += pages;
	}
	if (free_folios.nr)
		page_free_batch(s, sc->cpu, &free_folios);
	if (sc->kswapd)
		s->ev.pgsteal_kswapd += (uint64_t)reclaimed;
	else
		s->ev.pgsteal_direct += (uint64_t)reclaimed;
	if (file)
		s->ev.pgsteal_file += (uint64_t)reclaimed;
	else
		s->ev.pgsteal_anon += (uint64_t)reclaimed;
	ev_emit(s, EV_SHRINK_INACTIVE, FN_SHRINK_INACTIVE_LIST, sc->cpu,
		&sim_nodes(s)[nid].zones[sc->reclaim_idx], 0, 0, lru, (int32_t)scanned,
		(int32_t)reclaimed, sc->priority);
	return reclaimed;
}

void shrink_active_list(struct sim *s, int nid, int memcg, int64_t nr_to_scan,
			struct scan_control *sc, int lru)
{
	uint32_t taken[SWAP_CLUSTER_MAX];
	int64_t scanned, deactivated = 0;
	int n = isolate_lru(s, nid, memcg, lru, nr_to_scan, sc, taken, &scanned);
	struct zone *z = NULL;

	s->ev.pgrefill += (uint64_t)scanned;
	for (int i = 0; i < n; i++) {
		struct page *page;

		z = lru_page_zone_near(s, nid, taken[i], z);
		page = zone_page(s, z, taken[i]);

		/* folio_referenced clears the accessed bits; only executable page cache would stay */
		page->lru_flags &= (uint16_t) ~(PGL_YOUNG | PGL_ACTIVE);
		page->lru_flags |= PGL_WORKINGSET;
		lru_link(s, z, taken[i], 0);
		deactivated += (int64_t)1 << page->order;
	}
	s->ev.pgdeactivate += (uint64_t)deactivated;
	if (n)
		ev_emit(s, EV_SHRINK_ACTIVE, FN_SHRINK_ACTIVE_LIST, sc->cpu,
			&sim_nodes(s)[nid].zones[sc->reclaim_idx], 0, 0, lru, (int32_t)scanned,
			(int32_t)deactivated, sc->priority);
}

/* shrink_list: an active list is aged only when its type may be deactivated; returns pages freed. */
static int64_t shrink_list(struct sim *s, int nid, int memcg, int lru, int64_t nr_to_scan,
			   struct scan_control *sc)
{
	if (is_active_lru(lru)) {
		if (sc->may_deactivate & (is_file_lru(lru) ? DEACTIVATE_FILE : DEACTIVATE_ANON))
			shrink_active_list(s, nid, memcg, nr_to_scan, sc, lru);
		else
			sc->skipped_deactivate = 1;
		return 0;
	}
	return shrink_inactive_list(s, nid, memcg, nr_to_scan, sc, lru);
}

enum scan_balance { SCAN_EQUAL, SCAN_FRACT, SCAN_ANON, SCAN_FILE };

/*
 * get_scan_count: how many pages of each list of one lruvec (memcg's, or -1 the node's) to scan.
 * Without swap (or while reclaiming for a boost) only page cache; at priority 0 everything
 * equally; with little page cache left only anonymous memory; with plenty of inactive page cache
 * only that; otherwise the lists are split swappiness : 200 - swappiness, the kernel's split while
 * no reclaim or refault costs are recorded. A deleted (offline) memcg's list is scanned at least
 * min(size, SWAP_CLUSTER_MAX) at any priority, its share rounded up, to scrape its cache out.
 */
static void get_scan_count(const struct sim *s, int nid, int memcg, const struct scan_control *sc,
			   int64_t nr[NR_LRU_LISTS])
{
	int offline = memcg >= 0 && !memcg_get(s, memcg)->online;
	int balance;
	uint64_t fraction[2] = { VM_SWAPPINESS, MAX_SWAPPINESS - VM_SWAPPINESS };
	uint64_t denominator = MAX_SWAPPINESS;

	if (!sc->may_swap || !can_reclaim_anon(s))
		balance = SCAN_FILE;
	else if (!sc->priority)
		balance = SCAN_EQUAL;
	else if (sc->file_is_tiny)
		balance = SCAN_ANON;
	else if (sc->cache_trim_mode)
		balance = SCAN_FILE;
	else
		balance = SCAN_FRACT;
	for (int lru = 0; lru < NR_LRU_LISTS; lru++) {
		int file = is_file_lru(lru);
		uint64_t size =
			sc->only_zone >= 0 ?
				(uint64_t)sim_nodes(s)[nid].zones[sc->only_zone].nr_zone_lru[lru] :
				(uint64_t)lru_size(s, nid, memcg, lru, sc->reclaim_idx);
		uint64_t scan = size >> sc->priority;

		if (!scan && offline)
			scan = size < SWAP_CLUSTER_MAX ? size : SWAP_CLUSTER_MAX;
		switch (balance) {
		case SCAN_FRACT:
			scan = offline ? (scan * fraction[file] + denominator - 1) / denominator :
					 scan * fraction[file] / denominator;
			break;
		case SCAN_FILE:
		case SCAN_ANON:
			if ((balance == SCAN_FILE) != file)
				scan = 0;
			break;
		default:
			break;
		}
		nr[lru] = (int64_t)scan;
	}
}

/* Smaller of two. */
static int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/*
 * shrink_lruvec: scan the lists in SWAP_CLUSTER_MAX batches, in turn, until the counts of
 * get_scan_count run out. Once the target is met (kswapd and direct reclaim past the first
 * priority), the list type with less left stops and the other is cut to the share of its
 * count the stopped one had not reached, so both end about equally far through.
 */
static void shrink_lruvec(struct sim *s, int nid, int memcg, struct scan_control *sc)
{
	int64_t nr[NR_LRU_LISTS], targets[NR_LRU_LISTS], reclaimed = 0;
	int proportional = !sc->kswapd && sc->priority == DEF_PRIORITY;
	int adjusted = 0;
	uint32_t budget = s->nr_frames + 1; /* each pass takes at least one page off a count */

	get_scan_count(s, nid, memcg, sc, nr);
	for (int lru = 0; lru < NR_LRU_LISTS; lru++)
		targets[lru] = nr[lru];
	while ((nr[LRU_INACTIVE_ANON] || nr[LRU_ACTIVE_FILE] || nr[LRU_INACTIVE_FILE]) &&
	       budget--) {
		int64_t nr_file, nr_anon, percentage;
		int lru;

		for (lru = 0; lru < NR_LRU_LISTS; lru++) {
			if (nr[lru]) {
				int64_t nr_to_scan = min64(nr[lru], SWAP_CLUSTER_MAX);
				nr[lru] -= nr_to_scan;
				reclaimed += shrink_list(s, nid, memcg, lru, nr_to_scan, sc);
			}
		}
		if (reclaimed < sc->nr_to_reclaim || proportional || adjusted)
			continue;
		nr_file = nr[LRU_INACTIVE_FILE] + nr[LRU_ACTIVE_FILE];
		nr_anon = nr[LRU_INACTIVE_ANON] + nr[LRU_ACTIVE_ANON];
		if (!nr_file || !nr_anon)
			break;
		if (nr_file > nr_anon) {
			percentage = nr_anon * 100 /
				     (targets[LRU_INACTIVE_ANON] + targets[LRU_ACTIVE_ANON] + 1);
			lru = LRU_INACTIVE_ANON;
		} else {
			percentage = nr_file * 100 /
				     (targets[LRU_INACTIVE_FILE] + targets[LRU_ACTIVE_FILE] + 1);
			lru = LRU_INACTIVE_FILE;
		}
		nr[lru] = nr[lru + 1] = 0;
		lru = lru == LRU_INACTIVE_FILE ? LRU_INACTIVE_ANON : LRU_INACTIVE_FILE;
		for (int l = lru; l <= lru + 1; l++) {
			int64_t done = targets[l] - nr[l];
			nr[l] = targets[l] * (100 - percentage) / 100;
			nr[l] -= min64(nr[l], done);
		}
		adjusted = 1;
	}
	sc->nr_reclaimed += reclaimed;
	/* keep the anonymous lists balanced even when only page cache was scanned */
	if (can_reclaim_anon(s) && inactive_is_low(s, nid, memcg, LRU_INACTIVE_ANON))
		shrink_active_list(s, nid, memcg, SWAP_CLUSTER_MAX, sc, LRU_ACTIVE_ANON);
}

/*
 * shrink_node_memcgs: each memcg's lruvec in turn, in mem_cgroup_iter's order. kswapd (and a
 * direct reclaimer's full-walk retry) visits every one; direct and node reclaim share a partial
 * walk per node that stops once the target is met, and the next begins after where it stopped.
 * (memory.min/low protection is not modelled: no capture has any.) Without memcgs: the node's
 * lists, once.
 */
static void shrink_node_memcgs(struct sim *s, int nid, struct scan_control *sc)
{
	int partial = !sc->kswapd && !sc->memcg_full_walk;
	int memcg;
	uint32_t budget;

	if (!memcg_enabled(s)) {
		shrink_lruvec(s, nid, -1, sc);
		return;
	}
	budget = (uint32_t)memcg_count(s) + 1;
	memcg = memcg_iter(s, nid, -1, partial);
	while (memcg >= 0 && budget--) {
		shrink_lruvec(s, nid, memcg, sc);
		/* (slab shrinkers and vmpressure are not modelled) */
		if (partial && sc->nr_reclaimed >= sc->nr_to_reclaim)
			break;
		memcg = memcg_iter(s, nid, memcg, partial);
	}
}

/* prepare_scan_control: which active lists may be aged, and the cache-trim and tiny-file modes. */
static void prepare_scan_control(const struct sim *s, int nid, struct scan_control *sc)
{
	const struct node *n = &sim_nodes(s)[nid];
	int64_t free = 0, total_high = 0, file;

	if (sc->force_deactivate) {
		sc->may_deactivate = DEACTIVATE_ANON | DEACTIVATE_FILE;
	} else {
		/* refaults moved since the last snapshot: a new workingset, age the stale active pages */
		sc->may_deactivate = (uint8_t)(n->refaults_moved |
					       (inactive_is_low(s, nid, -1, LRU_INACTIVE_ANON) ?
							DEACTIVATE_ANON :
							0) |
					       (inactive_is_low(s, nid, -1, LRU_INACTIVE_FILE) ?
							DEACTIVATE_FILE :
							0));
	}
	sc->cache_trim_mode = (n->lruvec.nr_pages[LRU_INACTIVE_FILE] >> sc->priority) &&
			      !(sc->may_deactivate & DEACTIVATE_FILE);
	for (int zid = 0; zid < MAX_NR_ZONES; zid++) {
		const struct zone *z = &n->zones[zid];
		if (!zone_populated(z))
			continue;
		free += z->nr_free_pages;
		total_high += wmark_pages(z, WMARK_HIGH);
	}
	file = n->lruvec.nr_pages[LRU_ACTIVE_FILE] + n->lruvec.nr_pages[LRU_INACTIVE_FILE];
	sc->file_is_tiny = file + free <= total_high && !(sc->may_deactivate & DEACTIVATE_ANON) &&
			   (n->lruvec.nr_pages[LRU_INACTIVE_ANON] >> sc->priority);
}

void shrink_node(struct sim *s, int nid, struct scan_control *sc)
{
	int64_t before = sc->nr_reclaimed;

	prepare_scan_control(s, nid, sc);
	shrink_node_memcgs(s, nid, sc);
	/* (slab shrinkers are not modelled) progress makes a hopeless node worth kswapd again */
	if (sc->nr_reclaimed > before)
		sim_nodes(s)[nid].kswapd_failures = 0;
}

/* shrink_zones: shrink each node of the allocating CPU's zonelist once, for zones it may use. */
static void shrink_zones(struct sim *s, int alloc_nid, struct scan_control *sc)
{
	const struct node *n = &sim_nodes(s)[alloc_nid];
	int last_nid = -1;

	for (int i = 0; i < n->zonelist_len; i++) {
		int nid = n->zonelist[i][0], zid = n->zonelist[i][1];

		if (zid > sc->reclaim_idx || !zone_populated(&sim_nodes(s)[nid].zones[zid]) ||
		    nid == last_nid)
			continue;
		last_nid = nid;
		shrink_node(s, nid, sc);
	}
}

uint64_t try_to_free_pages(struct sim *s, int cpu, uint32_t gfp, int order, int nid,
			   int highest_zoneidx)
{
	struct scan_control sc = {
		.nr_to_reclaim = SWAP_CLUSTER_MAX,
		.gfp = gfp,
		.order = order,
		.reclaim_idx = highest_zoneidx,
		.cpu = cpu,
		.may_swap = 1,
		.may_unmap = 1,
		.may_writepage = 1,
		.only_zone = -1,
	};

	ev_emit(s, EV_DIRECT_RECLAIM_BEGIN, FN_TRY_TO_FREE_PAGES, cpu,
		&sim_nodes(s)[nid].zones[highest_zoneidx], 0, order, 0, (int32_t)gfp, 0, 0);
	/* do_try_to_free_pages: an allocstall against the highest zone it may reclaim from */
	s->ev.allocstall[highest_zoneidx]++;
	for (int attempt = 0; attempt < 3; attempt++) {
		for (sc.priority = DEF_PRIORITY; sc.priority >= 0; sc.priority--) {
			sc.nr_scanned = 0;
			shrink_zones(s, nid, &sc);
			if (sc.nr_reclaimed >= sc.nr_to_reclaim || s->frozen)
				break;
		}
		if (sc.nr_reclaimed)
			break;
		/* nothing freed by partial walks of the memcgs: walk them all, once */
		if (memcg_enabled(s) && !sc.memcg_full_walk) {
			sc.memcg_full_walk = 1;
			continue;
		}
		if (!sc.skipped_deactivate || sc.force_deactivate)
			break;
		/* nothing freed while active lists were passed over: age them regardless, once */
		sc.force_deactivate = 1;
		sc.skipped_deactivate = 0;
	}
	/* snapshot_refaults: the activations seen so far no longer count as new */
	sim_nodes(s)[nid].refaults_moved = 0;
	ev_emit(s, EV_DIRECT_RECLAIM_END, FN_TRY_TO_FREE_PAGES, cpu,
		&sim_nodes(s)[nid].zones[highest_zoneidx], 0, order, 0, (int32_t)sc.nr_reclaimed,
		sc.priority < 0 ? 0 : sc.priority, 0);
	return (uint64_t)sc.nr_reclaimed;
}

int64_t zone_reclaimable_pages(const struct sim *s, const struct zone *z)
{
	int64_t nr = z->nr_zone_lru[LRU_INACTIVE_FILE] + z->nr_zone_lru[LRU_ACTIVE_FILE];

	if (can_reclaim_anon(s))
		nr += z->nr_zone_lru[LRU_INACTIVE_ANON] + z->nr_zone_lru[LRU_ACTIVE_ANON];
	return nr;
}
