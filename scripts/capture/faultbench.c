/*
 * faultbench.c: the fault workload of the mmap_lock capture (traces/README.md). THREADS threads
 * each map an anonymous region of PAGES pages of their own (MADV_NOHUGEPAGE) and write one byte
 * per page; with CHURN=1 one more thread maps and unmaps 1 MiB in a loop until they are done.
 *   faultbench THREADS CHURN PAGES
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>

static long pages;
static atomic_int running;
static atomic_long churn_pairs;

static void *faulter(void *arg)
{
	size_t len = (size_t)pages * 4096;
	char *p = mmap(0, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	(void)arg;
	if (p == MAP_FAILED)
		exit(1);
	madvise(p, len, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < len; i += 4096)
		p[i] = 1;
	atomic_fetch_sub(&running, 1);
	return p;
}

static void *churner(void *arg)
{
	(void)arg;
	while (atomic_load(&running) > 0) {
		void *p = mmap(0, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			exit(1);
		munmap(p, 1 << 20);
		atomic_fetch_add(&churn_pairs, 1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 2, churn = argc > 2 ? atoi(argv[2]) : 0;
	pthread_t t[64], c;
	struct rusage ru;

	pages = argc > 3 ? atol(argv[3]) : 20000;
	if (threads < 1 || threads > 64)
		return 2;
	atomic_store(&running, threads);
	if (churn)
		pthread_create(&c, NULL, churner, NULL);
	for (int i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, faulter, NULL);
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	if (churn)
		pthread_join(c, NULL);
	getrusage(RUSAGE_SELF, &ru);
	printf("minor_faults %ld churn_pairs %ld\n", ru.ru_minflt, atomic_load(&churn_pairs));
	return 0;
}
