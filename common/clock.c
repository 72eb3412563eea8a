#include "clock.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int	 fixed_init;
static int64_t	 fixed_base;	/* DELIBERATE_NOW in ms, or -1 */
static double	 fixed_mono;

/* Monotonic milliseconds. */
double
clock_mono_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* Wall-clock milliseconds, honouring DELIBERATE_NOW. */
int64_t
clock_now_ms(void)
{
	struct timespec	 ts;
	const char	*s;

	if (!fixed_init) {
		fixed_init = 1;
		fixed_base = -1;
		if ((s = getenv("DELIBERATE_NOW")) != NULL && *s != '\0' &&
		    clock_parse(s, &fixed_base) == 0)
			fixed_mono = clock_mono_ms();
		else
			fixed_base = -1;
	}
	if (fixed_base >= 0)
		return fixed_base + (int64_t)(clock_mono_ms() - fixed_mono);
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Whether DELIBERATE_NOW controls the clock. */
int
clock_is_fixed(void)
{
	(void)clock_now_ms();
	return fixed_base >= 0;
}

/*
 * The local time of the last few seconds, formatted: the daemon stamps
 * every entry twice (timestamp, privacy.retention.expiresAt) and takes its
 * day, often for the same second, and localtime_r() and strftime() cost
 * more than the rest of the stamp.
 */
#define LOCAL_SLOTS	4

/*
 * A slot also keeps tzname[] and timezone as localtime_r() left them: a
 * tzset() with another TZ changes them, and the slot is stale then.
 */
struct local_slot {
	time_t		 t;
	const char	*tz0, *tz1;
	long		 tzoff;
	int		 valid;
	char		 date[32];	/* "2026-03-01T12:00:00" */
	char		 zone[8];	/* "Z" or "+05:30" */
};

static struct local_slot	local_cache[LOCAL_SLOTS];
static unsigned			local_next;

static const struct local_slot *
local_get(time_t t)
{
	struct local_slot	*sl;
	struct tm		 tm;
	long			 off;
	size_t			 i;

	for (i = 0; i < LOCAL_SLOTS; i++)
		if (local_cache[i].valid && local_cache[i].t == t &&
		    local_cache[i].tz0 == tzname[0] &&
		    local_cache[i].tz1 == tzname[1] &&
		    local_cache[i].tzoff == timezone)
			return &local_cache[i];
	sl = &local_cache[local_next++ % LOCAL_SLOTS];
	localtime_r(&t, &tm);
	if (strftime(sl->date, sizeof sl->date, "%Y-%m-%dT%H:%M:%S", &tm) ==
	    0)
		sl->date[0] = '\0';
	off = tm.tm_gmtoff / 60;
	if (off == 0)
		strcpy(sl->zone, "Z");
	else
		snprintf(sl->zone, sizeof sl->zone, "%c%02ld:%02ld",
		    off < 0 ? '-' : '+', labs(off) / 60 % 100, labs(off) % 60);
	sl->t = t;
	sl->tz0 = tzname[0];
	sl->tz1 = tzname[1];
	sl->tzoff = timezone;
	sl->valid = 1;
	return sl;
}

/* Local ISO 8601 with milliseconds and zone. */
void
clock_iso8601(int64_t ms, char buf[ISO8601_LEN])
{
	const struct local_slot	*sl = local_get((time_t)(ms / 1000));
	size_t			 n = strnlen(sl->date, ISO8601_LEN - 8);
	size_t			 z = strlen(sl->zone);
	int			 f = (int)(ms % 1000);

	memcpy(buf, sl->date, n);
	buf[n++] = '.';
	/* As "%03d" did, a negative remainder included. */
	if (f < 0) {
		n += (size_t)snprintf(buf + n, ISO8601_LEN - n, "%03d", f);
	} else {
		buf[n++] = (char)('0' + f / 100);
		buf[n++] = (char)('0' + f / 10 % 10);
		buf[n++] = (char)('0' + f % 10);
	}
	if (n + z + 1 > ISO8601_LEN)
		z = ISO8601_LEN - n - 1;
	memcpy(buf + n, sl->zone, z);
	buf[n + z] = '\0';
}

/* UTC ISO 8601 with milliseconds. */
void
clock_iso8601_utc(int64_t ms, char buf[ISO8601_LEN])
{
	struct tm	tm;
	time_t		t = (time_t)(ms / 1000);
	size_t		n;

	gmtime_r(&t, &tm);
	n = strftime(buf, ISO8601_LEN, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, ISO8601_LEN - n, ".%03dZ", (int)(ms % 1000));
}

/* Local date as YYYY-MM-DD. */
void
clock_day(int64_t ms, char buf[11])
{
	const struct local_slot	*sl = local_get((time_t)(ms / 1000));

	size_t			 n = strnlen(sl->date, 10);

	memcpy(buf, sl->date, n);
	buf[n] = '\0';
}

static int
num(const char **s, int digits, int *ret)
{
	int	v = 0, i;

	for (i = 0; i < digits; i++) {
		if ((*s)[i] < '0' || (*s)[i] > '9')
			return -EINVAL;
		v = v * 10 + ((*s)[i] - '0');
	}
	*s += digits;
	*ret = v;
	return 0;
}

/* Parse an ISO 8601 date or date-time. */
int
clock_parse(const char *s, int64_t *ret_ms)
{
	struct tm	tm;
	int		y, mo, d, h = 0, mi = 0, se = 0, frac = 0, zone = 0;
	int		zh, zm, sign, fdig = 0;
	time_t		t;

	memset(&tm, 0, sizeof tm);
	if (num(&s, 4, &y) || *s++ != '-' || num(&s, 2, &mo) ||
	    *s++ != '-' || num(&s, 2, &d))
		return -EINVAL;
	if (*s == 'T' || *s == ' ') {
		s++;
		if (num(&s, 2, &h) || *s++ != ':' || num(&s, 2, &mi))
			return -EINVAL;
		if (*s == ':') {
			s++;
			if (num(&s, 2, &se))
				return -EINVAL;
			if (*s == '.') {
				s++;
				while (*s >= '0' && *s <= '9') {
					if (fdig < 3) {
						frac = frac * 10 + (*s - '0');
						fdig++;
					}
					s++;
				}
				while (fdig > 0 && fdig < 3) {
					frac *= 10;
					fdig++;
				}
			}
		}
		if (*s == 'Z') {
			zone = 1;
			s++;
		} else if (*s == '+' || *s == '-') {
			sign = *s++ == '-' ? -1 : 1;
			if (num(&s, 2, &zh))
				return -EINVAL;
			if (*s == ':')
				s++;
			if (num(&s, 2, &zm))
				return -EINVAL;
			zone = 1;
			se -= sign * (zh * 3600 + zm * 60);
		}
	}
	if (*s != '\0' || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 ||
	    mi > 59 || se > 60 + 86400 || se < -86400)
		return -EINVAL;
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = se;
	tm.tm_isdst = -1;
	t = zone ? timegm(&tm) : mktime(&tm);
	if (t == (time_t)-1 && !(y == 1969 && mo == 12 && d == 31))
		return -EINVAL;
	*ret_ms = (int64_t)t * 1000 + frac;
	return 0;
}

/* The local midnight at or before ms. */
int64_t
clock_day_start(int64_t ms)
{
	struct tm	tm;
	time_t		t = (time_t)(ms / 1000);

	localtime_r(&t, &tm);
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	return (int64_t)mktime(&tm) * 1000;
}

/* The first local midnight after ms. */
int64_t
clock_next_midnight(int64_t ms)
{
	struct tm	tm;
	time_t		t = (time_t)(ms / 1000);

	localtime_r(&t, &tm);
	tm.tm_mday++;
	tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
	tm.tm_isdst = -1;
	return (int64_t)mktime(&tm) * 1000;
}
