/*
 * harness.h: a minimal test harness. TEST(name) registers a test at load time; CHECK fails the
 * current test with file:line and keeps going; main() in harness.c runs them all and prints
 * "N passed, N failed".
 */
#ifndef BUDDYSCOPE_HARNESS_H
#define BUDDYSCOPE_HARNESS_H

#include <stdio.h>

/* Register fn under name (called by the TEST macro). */
void harness_register(const char *name, void (*fn)(void));

/* Record a failed check of the current test. */
void harness_fail(const char *file, int line, const char *expr);

/* Define and register a test. */
#define TEST(name)                                                     \
	static void test_##name(void);                                 \
	__attribute__((constructor)) static void register_##name(void) \
	{                                                              \
		harness_register(#name, test_##name);                  \
	}                                                              \
	static void test_##name(void)

/* Fail the test (and go on) unless cond holds. */
#define CHECK(cond)                                              \
	do {                                                     \
		if (!(cond))                                     \
			harness_fail(__FILE__, __LINE__, #cond); \
	} while (0)

/* Fail unless two integers are equal, printing both. */
#define CHECK_EQ(got, want)                                                                        \
	do {                                                                                       \
		long long got_ = (long long)(got), want_ = (long long)(want);                      \
		if (got_ != want_) {                                                               \
			char msg_[256];                                                            \
			snprintf(msg_, sizeof msg_, "%s == %s (got %lld, want %lld)", #got, #want, \
				 got_, want_);                                                     \
			harness_fail(__FILE__, __LINE__, msg_);                                    \
		}                                                                                  \
	} while (0)

#endif
