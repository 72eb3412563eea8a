/*
 * Small json-c helpers shared by the entry builder, the store and the CLI.
 */
#ifndef JSONUTIL_H
#define JSONUTIL_H

#include <stddef.h>

struct json_object;

/* A number with at most three decimals, serialized without float noise. */
struct json_object *json_num(double d);

/* The string at key, or NULL when missing or not a string. */
const char	*json_str(struct json_object *o, const char *key);

/*
 * Replace every invalid UTF-8 sequence in s[0..len) by U+FFFD, in place
 * when possible; returns a new string (caller frees) only when it had to
 * grow, else NULL.
 */
char		*utf8_sanitize(const char *s, size_t len, size_t *ret_len);

/*
 * Write obj, pretty-printed with a final newline, to path atomically
 * (fileio_write_atomic).  Returns 0 or a negative errno.
 */
int		 json_write_file(const char *path, struct json_object *obj,
		    unsigned int mode);

#endif
