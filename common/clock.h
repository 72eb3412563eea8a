/*
 * Wall-clock time in milliseconds, controllable for tests: when
 * DELIBERATE_NOW holds an ISO 8601 time (2026-03-01T12:00:00Z), the clock
 * starts there and advances with the monotonic clock.
 */
#ifndef CLOCK_H
#define CLOCK_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define ISO8601_LEN	32	/* "2026-03-01T12:00:00.000+05:30" + NUL */

/* Milliseconds since the epoch (honours DELIBERATE_NOW). */
int64_t	clock_now_ms(void);

/* Whether DELIBERATE_NOW controls the clock. */
int	clock_is_fixed(void);

/* Monotonic milliseconds, as a double with sub-ms precision. */
double	clock_mono_ms(void);

/* Format ms as local ISO 8601 with milliseconds and zone. */
void	clock_iso8601(int64_t ms, char buf[ISO8601_LEN]);

/* Format ms as UTC ISO 8601 with milliseconds and "Z". */
void	clock_iso8601_utc(int64_t ms, char buf[ISO8601_LEN]);

/* The local date of ms as YYYY-MM-DD. */
void	clock_day(int64_t ms, char buf[11]);

/*
 * Parse ISO 8601: "YYYY-MM-DD", "YYYY-MM-DDTHH:MM[:SS[.fff]]" with an
 * optional "Z" or "+HH:MM"; without a zone the local zone is used.
 * Returns 0 and sets *ret_ms, or -EINVAL.
 */
int	clock_parse(const char *s, int64_t *ret_ms);

/* The local midnight at or before ms, and the next one after it. */
int64_t	clock_day_start(int64_t ms);
int64_t	clock_next_midnight(int64_t ms);

#endif
