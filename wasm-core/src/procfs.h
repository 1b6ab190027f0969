/* procfs.h: /proc/buddyinfo, /proc/pagetypeinfo, /proc/zoneinfo and /proc/vmstat in the kernel's format. */
#ifndef BUDDYSCOPE_PROCFS_H
#define BUDDYSCOPE_PROCFS_H

#include "textbuf.h"
#include "types.h"

/* frag_show_print for every populated zone. */
void proc_buddyinfo(const struct sim *s, struct textbuf *tb);

/* pagetypeinfo_show. */
void proc_pagetypeinfo(const struct sim *s, struct textbuf *tb);

/* zoneinfo_show_print for every zone; counters the model does not keep (per-node LRU, slab, ...) print as 0. */
void proc_zoneinfo(const struct sim *s, struct textbuf *tb);

/* The page-allocator part of /proc/vmstat. */
void proc_vmstat(const struct sim *s, struct textbuf *tb);

#endif
