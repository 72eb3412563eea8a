#include "jsonutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

/* A number with at most three decimals. */
struct json_object *
json_num(double d)
{
	char	buf[64];
	size_t	n;

	if (!isfinite(d))
		d = 0;
	snprintf(buf, sizeof buf, "%.3f", d);
	n = strlen(buf);
	while (n > 0 && buf[n - 1] == '0')
		buf[--n] = '\0';
	if (n > 0 && buf[n - 1] == '.')
		buf[--n] = '\0';
	if (strcmp(buf, "-0") == 0)
		strcpy(buf, "0");
	return json_object_new_double_s(d, buf);
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
