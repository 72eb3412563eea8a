#include "jsonutil.h"

#include <math.h>
#include <stdint.h>
#include <sys/types.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "buf.h"
#include "fileio.h"

/*
 * What json_num() prints, without printf (an entry has a dozen numbers):
 * only when d * 1000 is clearly not a tie between two thousandths, so
 * the rounding is the one "%.3f" does.  Returns -1 to leave it to printf.
 */
static int
num_fast(double d, char *buf, size_t size)
{
	double		x = fabs(d) * 1000.0, fl = floor(x);
	uint64_t	v, ip, fp;
	char		tmp[32], *p = tmp + sizeof tmp;
	size_t		n;

	if (x >= 1e12 || fabs(x - fl - 0.5) < 1e-6)
		return -1;
	v = (uint64_t)(x - fl > 0.5 ? fl + 1 : fl);
	ip = v / 1000;
	fp = v % 1000;
	if (fp != 0) {
		n = 3;
		while (fp % 10 == 0) {
			fp /= 10;
			n--;
		}
		while (n-- > 0) {
			*--p = (char)('0' + fp % 10);
			fp /= 10;
		}
		*--p = '.';
	}
	do {
		*--p = (char)('0' + ip % 10);
		ip /= 10;
	} while (ip != 0);
	if (d < 0 && v != 0)
		*--p = '-';
	n = (size_t)(tmp + sizeof tmp - p);
	if (n + 1 > size)
		return -1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return 0;
}

/* A number with at most three decimals, as text. */
size_t
json_num_fmt(double d, char buf[JSON_NUM_LEN])
{
	size_t	n;

	if (!isfinite(d))
		d = 0;
	if (num_fast(d, buf, JSON_NUM_LEN) == 0)
		return strlen(buf);
	snprintf(buf, JSON_NUM_LEN, "%.3f", d);
	n = strlen(buf);
	while (n > 0 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = '\0';
	if (strcmp(buf, "-0") == 0) {
		strcpy(buf, "0");
		n = 1;
	}
	return n;
}

/* A number with at most three decimals. */
struct json_object *
json_num(double d)
{
	char	buf[JSON_NUM_LEN];

	json_num_fmt(d, buf);
	return json_object_new_double_s(isfinite(d) ? d : 0, buf);
}

/* A string member. */
const char *
json_str(struct json_object *o, const char *key)
{
	struct json_object	*v;

	if (o == NULL || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static size_t
utf8_valid_at(const unsigned char *s, size_t len)
{
	unsigned char	c = s[0];
	size_t		n, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (len < n)
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) ||
	    (c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] > 0x8f))
		return 0;
	return n;
}

/* Replace invalid UTF-8 by U+FFFD. */
char *
utf8_sanitize(const char *s, size_t len, size_t *ret_len)
{
	const unsigned char	*u = (const unsigned char *)s;
	struct buf		 b = BUF_INIT;
	size_t			 i = 0, n, start = 0;
	int			 bad = 0;

	while (i < len) {
		if ((n = utf8_valid_at(u + i, len - i)) != 0) {
			i += n;
			continue;
		}
		bad = 1;
		buf_add(&b, s + start, i - start);
		buf_adds(&b, "\xef\xbf\xbd");
		i++;
		start = i;
	}
	if (!bad)
		return NULL;
	buf_add(&b, s + start, len - start);
	return buf_detach(&b, ret_len);
}

/* Write a JSON document atomically. */
int
json_write_file(const char *path, struct json_object *obj, unsigned int mode)
{
	struct buf	 b = BUF_INIT;
	const char	*txt;
	size_t		 len;
	int		 r;

	txt = json_object_to_json_string_length(obj, JSON_C_TO_STRING_PRETTY |
	    JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
	buf_add(&b, txt, len);
	buf_addc(&b, '\n');
	r = fileio_write_atomic(path, b.data, b.len, (mode_t)mode);
	buf_release(&b);
	return r;
}
