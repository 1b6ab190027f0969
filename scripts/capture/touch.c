#define _GNU_SOURCE
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
	size_t mb = argc > 1 ? strtoul(argv[1], 0, 10) : 8;
	size_t len = mb << 20;
	char *p = mmap(0, len, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0);
	madvise(p, len, MADV_NOHUGEPAGE);
	for (size_t i = 0; i < len; i += 4096) p[i] = 1;
	munmap(p, len);
	return 0;
}
