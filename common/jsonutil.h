/*
 * Small json-c helpers shared by the entry builder, the store and the CLI.
 */
#ifndef JSONUTIL_H
#define JSONUTIL_H

#include <stddef.h>

struct json_object;

/* A number with at most three decimals, serialized without float noise. */
struct json_object *json_num(double d);

/*
 * The text json_num() gives d ("0.3", "12", "-0.001"; not finite: "0"),
 * NUL-terminated in buf; returns its length.
 */
#define JSON_NUM_LEN	64
size_t		 json_num_fmt(double d, char buf[JSON_NUM_LEN]);

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
