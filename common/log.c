#include "log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char	*log_prog = "deliberate";
static int		 log_dbg;

/* Set the program name and debug flag. */
void
log_init(const char *progname, int debug)
{
	log_prog = progname;
	log_dbg = debug;
}

/* Whether debug messages are printed. */
int
log_debug_enabled(void)
{
	return log_dbg;
}

static void
vlog(const char *fmt, va_list ap, const char *err)
{
	char	msg[2048];

	vsnprintf(msg, sizeof msg, fmt, ap);
	if (err != NULL)
		fprintf(stderr, "%s: %s: %s\n", log_prog, msg, err);
	else
		fprintf(stderr, "%s: %s\n", log_prog, msg);
}

/* Warn, with strerror(errno). */
void
log_warn(const char *fmt, ...)
{
	va_list	ap;
	int	saved = errno;

	va_start(ap, fmt);
	vlog(fmt, ap, strerror(saved));
	va_end(ap);
	errno = saved;
}

/* Warn. */
void
log_warnx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vlog(fmt, ap, NULL);
	va_end(ap);
}

/* An informational line. */
void
log_info(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vlog(fmt, ap, NULL);
	va_end(ap);
}

/* A debug line, when enabled. */
void
log_debug(const char *fmt, ...)
{
	va_list	ap;

	if (!log_dbg)
		return;
	va_start(ap, fmt);
	vlog(fmt, ap, NULL);
	va_end(ap);
}

/* Log with strerror(errno) and exit 1. */
void
fatal(const char *fmt, ...)
{
	va_list	ap;
	int	saved = errno;

	va_start(ap, fmt);
	vlog(fmt, ap, strerror(saved));
	va_end(ap);
	exit(1);
}

/* Log and exit 1. */
void
fatalx(const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vlog(fmt, ap, NULL);
	va_end(ap);
	exit(1);
}
