/*
 * A tiny unit-test harness.  Each test-*.c is one program:
 *
 *	static void t_something(void) { CHECK(x == 1); CHECK_STR(a, "b"); }
 *	int main(void) { RUN(t_something); return harness_done(); }
 *
 * A failed check prints file:line and the expression and the test goes on.
 * harness_done() prints "name: N checks, M failed" and returns the exit
 * status.
 */
#ifndef HARNESS_H
#define HARNESS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int harness_checks, harness_failed;
static const char *harness_test = "";

#define CHECK(expr) do {						\
	harness_checks++;						\
	if (!(expr)) {							\
		harness_failed++;					\
		fprintf(stderr, "%s:%d: %s: check failed: %s\n",	\
		    __FILE__, __LINE__, harness_test, #expr);		\
	}								\
} while (0)

#define CHECK_STR(got, want) do {					\
	const char *g_ = (got), *w_ = (want);				\
	harness_checks++;						\
	if (g_ == NULL || w_ == NULL ? g_ != w_ : strcmp(g_, w_) != 0) {\
		harness_failed++;					\
		fprintf(stderr, "%s:%d: %s: got '%s', want '%s'\n",	\
		    __FILE__, __LINE__, harness_test,			\
		    g_ ? g_ : "(null)", w_ ? w_ : "(null)");		\
	}								\
} while (0)

#define CHECK_INT(got, want) do {					\
	long long g_ = (long long)(got), w_ = (long long)(want);	\
	harness_checks++;						\
	if (g_ != w_) {							\
		harness_failed++;					\
		fprintf(stderr, "%s:%d: %s: %s is %lld, want %lld\n",	\
		    __FILE__, __LINE__, harness_test, #got, g_, w_);	\
	}								\
} while (0)

#define RUN(fn) do { harness_test = #fn; fn(); } while (0)

static inline int
harness_done_named(const char *name)
{
	printf("%s: %d checks, %d failed\n", name, harness_checks,
	    harness_failed);
	return harness_failed == 0 ? 0 : 1;
}

#define harness_done() harness_done_named(__FILE__)

/* Where rules and fixtures are read from: $DELIBERATE_SRC, or ".". */
static inline const char *
harness_src_dir(void)
{
	const char	*s = getenv("DELIBERATE_SRC");

	return (s != NULL && *s != '\0') ? s : ".";
}

#endif
