/*
 * touch: map anonymous memory, write one byte per page, then unmap it (the page faults allocate,
 * the munmap frees).
 *
 *   touch MIB [--thp] [--hold] [--free-on CPU]
 *
 * --thp asks for transparent huge pages (MADV_HUGEPAGE on a 2 MiB-aligned range), so the faults
 * allocate order-9 folios; without it MADV_NOHUGEPAGE keeps every fault at order 0.
 * --free-on CPU moves the process to CPU before the munmap, so the pages go back to that CPU's
 * per-CPU lists: more frees than allocations there, which is what makes a list drain.
 * --hold keeps the memory until SIGTERM or SIGINT (a holder that fills memory for a reclaim run).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static volatile sig_atomic_t stop;
static void on_signal(int sig) { (void)sig; stop = 1; }

int main(int argc, char **argv) {
	size_t mb = argc > 1 ? strtoul(argv[1], 0, 10) : 8;
	int thp = 0, hold = 0, free_on = -1;
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--thp")) thp = 1;
		else if (!strcmp(argv[i], "--hold")) hold = 1;
		else if (!strcmp(argv[i], "--free-on") && i + 1 < argc) free_on = atoi(argv[++i]);
		else { fprintf(stderr, "touch: unknown option %s\n", argv[i]); return 2; }
	}
	size_t len = mb << 20, align = 2u << 20;
	char *raw = mmap(0, len + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED) { perror("mmap"); return 1; }
	char *p = (char *)(((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1));
	madvise(p, len, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	for (size_t i = 0; i < len; i += 4096) p[i] = 1;
	if (hold) {
		signal(SIGTERM, on_signal);
		signal(SIGINT, on_signal);
		puts("held");
		fflush(stdout);
		while (!stop) pause();
	}
	if (free_on >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(free_on, &set);
		if (sched_setaffinity(0, sizeof set, &set)) { perror("sched_setaffinity"); return 1; }
	}
	munmap(raw, len + align);
	return 0;
}
