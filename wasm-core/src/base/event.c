/* event.c: the event buffer and the names the UI and trace text show for kinds and functions. */
#include "base/event.h"

#include "base/state.h"

static const char *const fn_names[NR_EV_FNS] = {
	[FN_NONE] = "",
	[FN___ALLOC_PAGES] = "__alloc_pages",
	[FN___ALLOC_PAGES_SLOWPATH] = "__alloc_pages_slowpath",
	[FN_GET_PAGE_FROM_FREELIST] = "get_page_from_freelist",
	[FN_ZONE_WATERMARK_OK] = "__zone_watermark_ok",
	[FN_RMQUEUE_PCPLIST] = "rmqueue_pcplist",
	[FN_RMQUEUE_BULK] = "rmqueue_bulk",
	[FN_RMQUEUE_BUDDY] = "rmqueue_buddy",
	[FN___RMQUEUE_SMALLEST] = "__rmqueue_smallest",
	[FN___RMQUEUE_CLAIM] = "__rmqueue_claim",
	[FN___RMQUEUE_STEAL] = "__rmqueue_steal",
	[FN___RMQUEUE_FALLBACK] = "__rmqueue_fallback",
	[FN_TRY_TO_CLAIM_BLOCK] = "try_to_claim_block",
	[FN_STEAL_SUITABLE_FALLBACK] = "steal_suitable_fallback",
	[FN_EXPAND] = "expand",
	[FN___FREE_ONE_PAGE] = "__free_one_page",
	[FN_FREE_PAGES_PREPARE] = "free_pages_prepare",
	[FN_FREE_FROZEN_PAGE_COMMIT] = "free_frozen_page_commit",
	[FN_FREE_PCPPAGES_BULK] = "free_pcppages_bulk",
	[FN_NR_PCP_HIGH] = "nr_pcp_high",
	[FN_NR_PCP_ALLOC] = "nr_pcp_alloc",
	[FN_DECAY_PCP_HIGH] = "decay_pcp_high",
	[FN_DRAIN_ZONE_PAGES] = "drain_zone_pages",
	[FN_DRAIN_PAGES_ZONE] = "drain_pages_zone",
	[FN_DRAIN_ALL_PAGES] = "drain_all_pages",
	[FN_VMSTAT_UPDATE] = "vmstat_update",
	[FN_BOOST_WATERMARK] = "boost_watermark",
	[FN_RESERVE_HIGHATOMIC_PAGEBLOCK] = "reserve_highatomic_pageblock",
	[FN_UNRESERVE_HIGHATOMIC_PAGEBLOCK] = "unreserve_highatomic_pageblock",
	[FN_WAKEUP_KSWAPD] = "wakeup_kswapd",
	[FN_WARN_ALLOC] = "warn_alloc",
	[FN_BAD_PAGE] = "bad_page",
	[FN_CHECK_NEW_PAGES] = "check_new_pages",
	[FN_PAGE_ALLOC_CPU_ONLINE] = "page_alloc_cpu_online",
	[FN_PAGE_ALLOC_CPU_DEAD] = "page_alloc_cpu_dead",
	[FN_SPIN_LOCK] = "spin_lock",
	[FN_SYSCTL] = "proc_dointvec_minmax",
	[FN_FREE_ONE_PAGE] = "free_one_page",
};

const char *ev_fn_name(int fn)
{
	return (fn >= 0 && fn < NR_EV_FNS && fn_names[fn]) ? fn_names[fn] : "";
}

static const char *const kind_names[NR_EV_KINDS] = {
	[EV_NONE] = "none",
	[EV_MM_PAGE_ALLOC] = "mm_page_alloc",
	[EV_MM_PAGE_FREE] = "mm_page_free",
	[EV_MM_PAGE_ALLOC_ZONE_LOCKED] = "mm_page_alloc_zone_locked",
	[EV_MM_PAGE_PCPU_DRAIN] = "mm_page_pcpu_drain",
	[EV_MM_PAGE_ALLOC_EXTFRAG] = "mm_page_alloc_extfrag",
	[EV_PCP_HIT] = "pcp_hit",
	[EV_PCP_REFILL] = "pcp_refill",
	[EV_PCP_FREE] = "pcp_free",
	[EV_PCP_BULK_FREE] = "pcp_bulk_free",
	[EV_PCP_HIGH] = "pcp_high",
	[EV_BUDDY_SPLIT] = "buddy_split",
	[EV_BUDDY_MERGE] = "buddy_merge",
	[EV_BUDDY_ENQUEUE] = "buddy_enqueue",
	[EV_WMARK_CHECK] = "watermark_check",
	[EV_ZONE_FALLBACK] = "zone_fallback",
	[EV_PAGEBLOCK_CLAIM] = "pageblock_claim",
	[EV_HIGHATOMIC_RESERVE] = "highatomic_reserve",
	[EV_HIGHATOMIC_UNRESERVE] = "highatomic_unreserve",
	[EV_WMARK_BOOST] = "watermark_boost",
	[EV_KSWAPD_WAKE] = "kswapd_wake",
	[EV_DRAIN] = "drain",
	[EV_VMSTAT_TICK] = "vmstat_tick",
	[EV_CPU_HOTPLUG] = "cpu_hotplug",
	[EV_ZONE_LOCK] = "zone_lock",
	[EV_ALLOC_FAIL] = "alloc_fail",
	[EV_BAD_PAGE] = "bad_page",
	[EV_PAGE_LEAK] = "page_leak",
	[EV_RUNAWAY_LOOP] = "runaway_loop",
	[EV_SYSCTL] = "sysctl",
};

const char *ev_kind_name(int kind)
{
	return (kind >= 0 && kind < NR_EV_KINDS && kind_names[kind]) ? kind_names[kind] : "unknown";
}
