/*
 * The "none" sandbox backend, and the front end that picks a backend by
 * mode (see sandbox.h for how the mode is chosen).
 */
#include "sandbox.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

#ifndef DELIBERATE_SANDBOX_DEFAULT
#if defined(__SANITIZE_ADDRESS__)
#define DELIBERATE_SANDBOX_DEFAULT	"none"
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DELIBERATE_SANDBOX_DEFAULT	"none"
#endif
#endif
#endif
#ifndef DELIBERATE_SANDBOX_DEFAULT
#define DELIBERATE_SANDBOX_DEFAULT	"seccomp"
#endif

static const struct {
	const char		*name;
	enum sandbox_mode	 mode;
} modes[] = {
	{ "seccomp",	SANDBOX_KILL },
	{ "kill",	SANDBOX_KILL },
	{ "trap",	SANDBOX_TRAP },
	{ "log",	SANDBOX_LOG },
	{ "none",	SANDBOX_NONE },
};

static int	selected = -1;		/* index into modes[] */

static int
none_enter(enum sandbox_mode mode, char **cause)
{
	(void)mode;
	(void)cause;
	return 0;
}

const struct sandbox_ops sandbox_none_ops = { "none", none_enter };

static int
mode_index(const char *name)
{
	size_t	i;

	for (i = 0; i < sizeof modes / sizeof modes[0]; i++)
		if (strcmp(name, modes[i].name) == 0)
			return (int)i;
	return -1;
}

/* Choose the sandbox mode by name. */
int
sandbox_select(const char *mode, char **cause)
{
	int	i;

	if ((i = mode_index(mode)) == -1) {
		xasprintf(cause, "bad sandbox mode '%s': want seccomp, trap, "
		    "log or none", mode);
		return -EINVAL;
	}
	selected = i;
	return 0;
}

static int
current(void)
{
	const char	*env;
	int		 i;

	if (selected != -1)
		return selected;
	env = getenv("DELIBERATE_SANDBOX");
	if (env != NULL && *env != '\0' && (i = mode_index(env)) != -1)
		return i;
	if ((i = mode_index(DELIBERATE_SANDBOX_DEFAULT)) != -1)
		return i;
	return 0;
}

/* The name of the mode in force. */
const char *
sandbox_name(void)
{
	return modes[current()].mode == SANDBOX_KILL ? "seccomp" :
	    modes[current()].name;
}

/* Whether no sandbox will be applied. */
int
sandbox_disabled(void)
{
	return modes[current()].mode == SANDBOX_NONE;
}

/* Apply the selected mode with its backend. */
int
sandbox_enter(char **cause)
{
	const char		*env;
	enum sandbox_mode	 mode;

	env = getenv("DELIBERATE_SANDBOX");
	if (selected == -1 && env != NULL && *env != '\0' &&
	    mode_index(env) == -1) {
		xasprintf(cause, "bad DELIBERATE_SANDBOX '%s': want seccomp, "
		    "trap, log or none", env);
		return -EINVAL;
	}
	mode = modes[current()].mode;
	if (mode == SANDBOX_NONE)
		return sandbox_none_ops.enter(mode, cause);
	return sandbox_seccomp_ops.enter(mode, cause);
}
