/* harness.c: runs every registered test; a test passes when none of its checks failed. */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

#define MAX_TESTS 1024

static struct {
	const char *name;
	void (*fn)(void);
} tests[MAX_TESTS];
static int nr_tests;
static int current_failures;

void harness_register(const char *name, void (*fn)(void))
{
	if (nr_tests == MAX_TESTS) {
		fprintf(stderr, "harness: more than %d tests\n", MAX_TESTS);
		exit(2);
	}
	tests[nr_tests].name = name;
	tests[nr_tests].fn = fn;
	nr_tests++;
}

void harness_fail(const char *file, int line, const char *expr)
{
	current_failures++;
	if (current_failures <= 5)
		fprintf(stderr, "    %s:%d: check failed: %s\n", file, line, expr);
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0;
	const char *only = argc > 1 ? argv[1] : NULL;

	for (int i = 0; i < nr_tests; i++) {
		if (only && !strstr(tests[i].name, only))
			continue;
		current_failures = 0;
		tests[i].fn();
		if (current_failures) {
			failed++;
			printf("not ok %s (%d failed checks)\n", tests[i].name, current_failures);
		} else {
			passed++;
			printf("ok %s\n", tests[i].name);
		}
	}
	printf("c: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
