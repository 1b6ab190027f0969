/* procfs.h: the fault subsystem's lines of /proc/vmstat (procfs.c). */
#ifndef BUDDYSCOPE_FAULT_PROCFS_H
#define BUDDYSCOPE_FAULT_PROCFS_H

#include "base/textbuf.h"
#include "base/types.h"

/* pgfault, pgmajfault, and the fault path's own counters, as /proc/vmstat prints them. */
void fault_vmstat(const struct sim *s, struct textbuf *tb);

#endif
