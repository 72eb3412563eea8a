/*
 * Small json-c helpers shared by the entry builder, the store and the CLI.
 */
#ifndef JSONUTIL_H
#define JSONUTIL_H

struct json_object;

/* A number with at most three decimals, serialized without float noise. */
struct json_object *json_num(double d);

/* The string at key, or NULL when missing or not a string. */
const char	*json_str(struct json_object *o, const char *key);

#endif
