/*
 * The progress bar: "label [#####.....]  42%" redrawn in place with \r,
 * erased at the end so the terminal is left as it was.
 */
#include "progress.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"

#define WIDTH		30
#define INTERVAL_MS	100.0
#define DELAY_MS	300.0	/* short runs draw nothing */

/* Start a progress bar. */
void
progress_start(struct progress *p, const char *label)
{
	memset(p, 0, sizeof *p);
	p->label = label;
	p->active = isatty(STDERR_FILENO);
	p->start_ms = clock_mono_ms();
	p->last_ms = 0;
}

/* Redraw when due. */
void
progress_update(struct progress *p, uint64_t done, uint64_t total)
{
	char	bar[WIDTH + 1];
	double	now, frac;
	int	i, fill;

	if (!p->active)
		return;
	now = clock_mono_ms();
	if (now - p->start_ms < DELAY_MS || now - p->last_ms < INTERVAL_MS)
		return;
	p->last_ms = now;
	frac = total > 0 ? (double)done / (double)total : 0;
	if (frac > 1)
		frac = 1;
	fill = (int)(frac * WIDTH);
	for (i = 0; i < WIDTH; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[WIDTH] = '\0';
	fprintf(stderr, "\r%s [%s] %3d%%", p->label, bar, (int)(frac * 100));
	fflush(stderr);
	p->drawn = 1;
}

/* Erase the bar. */
void
progress_end(struct progress *p)
{
	if (p->active && p->drawn) {
		fprintf(stderr, "\r%*s\r", WIDTH + 16 + (int)strlen(p->label),
		    "");
		fflush(stderr);
	}
	p->drawn = 0;
}
