/* tracefmt.h: the kernel's trace text of the fault subsystem's tracepoint-shaped events. */
#ifndef BUDDYSCOPE_FAULT_TRACEFMT_H
#define BUDDYSCOPE_FAULT_TRACEFMT_H

#include "base/event.h"
#include "base/textbuf.h"

/* Print e as the kernel's tracepoint text (no prefix, no newline); 0 if it is not such a kind. */
int fault_trace(const struct sim *s, const struct sim_event *e, struct textbuf *tb);

#endif
