/* procfs.h: /proc/buddyinfo, /proc/pagetypeinfo, /proc/zoneinfo, /proc/vmstat and the nodes' numastat in the kernel's format. */
#ifndef BUDDYSCOPE_PROCFS_H
#define BUDDYSCOPE_PROCFS_H

#include "base/textbuf.h"
#include "base/types.h"

/* frag_show_print for every populated zone. */
void proc_buddyinfo(const struct sim *s, struct textbuf *tb);

/* pagetypeinfo_show. */
void proc_pagetypeinfo(const struct sim *s, struct textbuf *tb);

/* zoneinfo_show_print for every zone; counters the model does not keep (per-node LRU, slab, ...) print as 0. */
void proc_zoneinfo(const struct sim *s, struct textbuf *tb);

/* The page-allocator part of /proc/vmstat. */
void proc_vmstat(const struct sim *s, struct textbuf *tb);

/* What sim_proc_render prints. */
enum proc_file {
	PROC_BUDDYINFO,
	PROC_PAGETYPEINFO,
	PROC_ZONEINFO,
	PROC_VMSTAT,
	PROC_NUMASTAT, /* every node's /sys/devices/system/node/nodeN/numastat, headed as head(1) heads files */
	NR_PROC_FILES
};

/* Render a /proc file in the kernel's format into buf (NUL-terminated); returns the length it needs. */
size_t sim_proc_render(const struct sim *s, int which, char *buf, size_t cap);

#endif
