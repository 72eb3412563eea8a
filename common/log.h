/*
 * Logging for the entry points (daemon and CLI) only; library code never
 * logs.  Messages go to stderr, one line each, prefixed by the program
 * name.  log_warn appends strerror(errno); the x variants do not.
 */
#ifndef LOG_H
#define LOG_H

#include <stdarg.h>

void	log_init(const char *progname, int debug);
int	log_debug_enabled(void);
void	log_warn(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_warnx(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_info(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_debug(const char *, ...) __attribute__((format(printf, 1, 2)));
void	fatal(const char *, ...)
	    __attribute__((format(printf, 1, 2), noreturn));
void	fatalx(const char *, ...)
	    __attribute__((format(printf, 1, 2), noreturn));

#endif
