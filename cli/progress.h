/*
 * A progress bar on stderr, drawn only when stderr is a terminal (never
 * in a pipe or a log file) and at most ten times a second.
 *
 *	struct progress p;
 *	progress_start(&p, "export");
 *	while (...) progress_update(&p, done, total);
 *	progress_end(&p);
 */
#ifndef PROGRESS_H
#define PROGRESS_H

#include <stdint.h>

struct progress {
	const char	*label;
	int		 active;	/* stderr is a tty */
	int		 drawn;		/* something to erase */
	double		 last_ms;
	double		 start_ms;
};

/* Begin; the bar stays inactive unless stderr is a tty. */
void	progress_start(struct progress *p, const char *label);

/* Show done of total (bytes or items); cheap when called often. */
void	progress_update(struct progress *p, uint64_t done, uint64_t total);

/* Erase the bar. */
void	progress_end(struct progress *p);

#endif
