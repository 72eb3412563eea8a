/*
 * A shell-word tokenizer for bash/zsh command lines.  See shtok.h.
 *
 * The scanner works on byte offsets into the (possibly truncated) input.
 * Nested constructs ($(...), ${...}, "...") are skipped by small recursive
 * helpers that each advance monotonically, so every byte is looked at a
 * bounded number of times; past SHTOK_MAX_DEPTH the helpers stop
 * understanding quotes and only count brackets.
 */
#include "shtok.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "xmalloc.h"

/* How many failed "((" arithmetic look-aheads are tried before giving up. */
#define SHTOK_MAX_ARITH_TRIES	16

struct scan {
	const char	*s;
	size_t		 len;
	int		 unterm;
	int		 arith_tries;
};

struct heredoc {
	char		*delim;
	size_t		 dlen;
	int		 strip;
	int		 quoted;
};

struct split {
	struct scan		 sc;
	struct shtok_list	*list;
	int			 cmdpos;
	int			 prev_for;
	int			 want_target;
	int			 want_delim;	/* 0, 1 for <<, 2 for <<- */
	struct heredoc		*hd;
	size_t			 nhd;
	size_t			 hdalloc;
};

static size_t	skip_paren(struct scan *, size_t, int);
static size_t	skip_dquote(struct scan *, size_t, int);
static size_t	skip_dollar(struct scan *, size_t, int, int, unsigned *);

static int
is_blank(int c)
{
	return c == ' ' || c == '\t';
}

static int
is_meta(int c)
{
	switch (c) {
	case ' ':
	case '\t':
	case '\n':
	case ';':
	case '&':
	case '|':
	case '<':
	case '>':
	case '(':
	case ')':
		return 1;
	}
	return 0;
}

static int
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int
is_name1(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int
is_name(int c)
{
	return is_name1(c) || is_digit(c);
}

static int
hex_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Skip a '...' string; i is just after the opening quote. */
static size_t
skip_squote(struct scan *sc, size_t i)
{
	const char	*q;

	if (i >= sc->len) {
		sc->unterm = 1;
		return sc->len;
	}
	q = memchr(sc->s + i, '\'', sc->len - i);
	if (q == NULL) {
		sc->unterm = 1;
		return sc->len;
	}
	return (size_t)(q - sc->s) + 1;
}

/* Skip a $'...' string; i is just after the opening quote. */
static size_t
skip_ansic(struct scan *sc, size_t i)
{
	while (i < sc->len) {
		if (sc->s[i] == '\\')
			i += 2;
		else if (sc->s[i] == '\'')
			return i + 1;
		else
			i++;
	}
	sc->unterm = 1;
	return sc->len;
}

/* Skip a `...` substitution; i is just after the opening backquote. */
static size_t
skip_bquote(struct scan *sc, size_t i)
{
	while (i < sc->len) {
		if (sc->s[i] == '\\')
			i += 2;
		else if (sc->s[i] == '`')
			return i + 1;
		else
			i++;
	}
	sc->unterm = 1;
	return sc->len;
}

/* Here-documents pending inside a $(...) body. */
#define SHTOK_SUB_HEREDOCS	4
#define SHTOK_SUB_DELIM		64

struct subhd {
	char	d[SHTOK_SUB_DELIM];
	size_t	n;
	int	strip;
};

/*
 * Read the delimiter of a here-document inside a substitution; i is just
 * after "<<".  Returns the end of the delimiter word.
 */
static size_t
sub_heredoc_delim(struct scan *sc, size_t i, struct subhd *hp, size_t *nhp)
{
	const char	*s = sc->s;
	char		 d[SHTOK_SUB_DELIM];
	size_t		 n = 0;
	int		 strip = 0, c, q, ok = 1;

	if (i < sc->len && s[i] == '-') {
		strip = 1;
		i++;
	}
	while (i < sc->len && is_blank((unsigned char)s[i]))
		i++;
	while (i < sc->len && !is_meta((c = (unsigned char)s[i]))) {
		if (c == '\\' && i + 1 < sc->len) {
			c = (unsigned char)s[++i];
			i++;
		} else if (c == '\'' || c == '"') {
			q = c;
			for (i++; i < sc->len && s[i] != q; i++) {
				if (n < sizeof d)
					d[n++] = s[i];
				else
					ok = 0;
			}
			if (i < sc->len)
				i++;
			continue;
		} else
			i++;
		if (n < sizeof d)
			d[n++] = (char)c;
		else
			ok = 0;
	}
	if (ok && n > 0 && *nhp < SHTOK_SUB_HEREDOCS) {
		memcpy(hp[*nhp].d, d, n);
		hp[*nhp].n = n;
		hp[*nhp].strip = strip;
		(*nhp)++;
	}
	return i;
}

/*
 * Skip the bodies of the here-documents pending inside a substitution; i
 * is at the start of the line after the one that named them.  A
 * terminator directly followed by ')' also ends the body.
 */
static size_t
sub_heredoc_bodies(struct scan *sc, size_t i, const struct subhd *hp,
    size_t nhp)
{
	const char	*s = sc->s, *nl;
	size_t		 h, e, ls;

	for (h = 0; h < nhp; h++) {
		while (i < sc->len) {
			nl = memchr(s + i, '\n', sc->len - i);
			e = nl == NULL ? sc->len : (size_t)(nl - s);
			ls = i;
			if (hp[h].strip) {
				while (ls < e && s[ls] == '\t')
					ls++;
			}
			if (e - ls >= hp[h].n &&
			    memcmp(s + ls, hp[h].d, hp[h].n) == 0) {
				if (e - ls == hp[h].n) {
					i = e < sc->len ? e + 1 : e;
					break;
				}
				if (s[ls + hp[h].n] == ')') {
					i = ls + hp[h].n;
					break;
				}
			}
			i = e < sc->len ? e + 1 : e;
		}
	}
	return i;
}

/* Count brackets only, for input nested deeper than SHTOK_MAX_DEPTH. */
static size_t
skip_flat(struct scan *sc, size_t i, int open, int close)
{
	size_t	nest = 0;
	int	c;

	for (; i < sc->len; i++) {
		c = (unsigned char)sc->s[i];
		if (c == open)
			nest++;
		else if (c == close) {
			if (nest == 0)
				return i + 1;
			nest--;
		}
	}
	sc->unterm = 1;
	return sc->len;
}

/*
 * Skip the body of a command-like construct up to and including the ')'
 * matching an already-open '('; i is just after that '('.
 */
static size_t
skip_paren(struct scan *sc, size_t i, int depth)
{
	struct subhd	 hp[SHTOK_SUB_HEREDOCS];
	size_t		 nest = 0, nhp = 0;
	int		 ws = 1, c;
	unsigned	 k;
	const char	*nl;

	if (depth >= SHTOK_MAX_DEPTH)
		return skip_flat(sc, i, '(', ')');
	while (i < sc->len) {
		c = (unsigned char)sc->s[i];
		switch (c) {
		case '\\':
			i += 2;
			ws = 0;
			continue;
		case '\'':
			i = skip_squote(sc, i + 1);
			ws = 0;
			continue;
		case '"':
			i = skip_dquote(sc, i + 1, depth + 1);
			ws = 0;
			continue;
		case '`':
			i = skip_bquote(sc, i + 1);
			ws = 0;
			continue;
		case '$':
			i = skip_dollar(sc, i, depth, 0, &k);
			ws = 0;
			continue;
		case '#':
			if (ws) {
				nl = memchr(sc->s + i, '\n', sc->len - i);
				i = nl == NULL ? sc->len : (size_t)(nl - sc->s);
				continue;
			}
			break;
		case '<':
			if (i + 2 < sc->len && sc->s[i + 1] == '<' &&
			    sc->s[i + 2] != '<') {
				i = sub_heredoc_delim(sc, i + 2, hp, &nhp);
				ws = 1;
				continue;
			}
			break;
		case '\n':
			if (nhp != 0) {
				i = sub_heredoc_bodies(sc, i + 1, hp, nhp);
				nhp = 0;
				ws = 1;
				continue;
			}
			break;
		case '(':
			nest++;
			break;
		case ')':
			if (nest == 0)
				return i + 1;
			nest--;
			break;
		}
		ws = is_meta(c);
		i++;
	}
	sc->unterm = 1;
	return sc->len;
}

/* Skip a ${...} body up to and including the matching '}'. */
static size_t
skip_brace(struct scan *sc, size_t i, int depth)
{
	size_t		nest = 0;
	unsigned	k;

	if (depth >= SHTOK_MAX_DEPTH)
		return skip_flat(sc, i, '{', '}');
	while (i < sc->len) {
		switch (sc->s[i]) {
		case '\\':
			i += 2;
			continue;
		case '\'':
			i = skip_squote(sc, i + 1);
			continue;
		case '"':
			i = skip_dquote(sc, i + 1, depth + 1);
			continue;
		case '`':
			i = skip_bquote(sc, i + 1);
			continue;
		case '$':
			i = skip_dollar(sc, i, depth, 0, &k);
			continue;
		case '{':
			nest++;
			break;
		case '}':
			if (nest == 0)
				return i + 1;
			nest--;
			break;
		}
		i++;
	}
	sc->unterm = 1;
	return sc->len;
}

/* Skip a "..." string; i is just after the opening quote. */
static size_t
skip_dquote(struct scan *sc, size_t i, int depth)
{
	unsigned	k;

	if (depth >= SHTOK_MAX_DEPTH)
		return skip_flat(sc, i, -1, '"');
	while (i < sc->len) {
		switch (sc->s[i]) {
		case '\\':
			i += 2;
			continue;
		case '"':
			return i + 1;
		case '`':
			i = skip_bquote(sc, i + 1);
			continue;
		case '$':
			i = skip_dollar(sc, i, depth, 1, &k);
			continue;
		}
		i++;
	}
	sc->unterm = 1;
	return sc->len;
}

/*
 * Skip a $ construct at i.  Returns the end (i + 1 for a lone '$') and
 * the SHW_* kind in *kind.
 */
static size_t
skip_dollar(struct scan *sc, size_t i, int depth, int indq, unsigned *kind)
{
	size_t	p;
	int	c;

	*kind = 0;
	if (i + 1 >= sc->len)
		return i + 1;
	c = (unsigned char)sc->s[i + 1];
	if (c == '(') {
		if (i + 2 < sc->len && sc->s[i + 2] == '(' &&
		    depth + 1 < SHTOK_MAX_DEPTH) {
			p = skip_paren(sc, i + 3, depth + 1);
			if (p < sc->len && sc->s[p] == ')') {
				*kind = SHW_ARITH;
				return p + 1;
			}
			if (p >= sc->len) {
				*kind = SHW_ARITH;
				return p;
			}
			*kind = SHW_CMDSUB;
			return skip_paren(sc, p, depth + 1);
		}
		*kind = SHW_CMDSUB;
		return skip_paren(sc, i + 2, depth + 1);
	}
	if (c == '{') {
		*kind = SHW_VAR;
		return skip_brace(sc, i + 2, depth + 1);
	}
	if (!indq && c == '\'') {
		*kind = SHW_ANSIC;
		return skip_ansic(sc, i + 2);
	}
	if (!indq && c == '"') {
		*kind = SHW_DQUOTE;
		return skip_dquote(sc, i + 2, depth + 1);
	}
	if (is_name1(c)) {
		p = i + 2;
		while (p < sc->len && is_name((unsigned char)sc->s[p]))
			p++;
		*kind = SHW_VAR;
		return p;
	}
	if (is_digit(c) || strchr("@*#?$!-", c) != NULL) {
		*kind = SHW_VAR;
		return i + 2;
	}
	return i + 1;
}

/* Append code point cp as UTF-8. */
static void
add_utf8(struct buf *b, unsigned long cp)
{
	if (cp < 0x80)
		buf_addc(b, (char)cp);
	else if (cp < 0x800) {
		buf_addc(b, (char)(0xc0 | (cp >> 6)));
		buf_addc(b, (char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		buf_addc(b, (char)(0xe0 | (cp >> 12)));
		buf_addc(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
		buf_addc(b, (char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x110000) {
		buf_addc(b, (char)(0xf0 | (cp >> 18)));
		buf_addc(b, (char)(0x80 | ((cp >> 12) & 0x3f)));
		buf_addc(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
		buf_addc(b, (char)(0x80 | (cp & 0x3f)));
	}
}

/* Decode a $'...' body into t; i is just after the opening quote. */
static size_t
decode_ansic(struct scan *sc, size_t i, struct buf *t)
{
	const char	*s = sc->s;
	unsigned long	 v;
	int		 c, n, max, h;

	while (i < sc->len) {
		c = (unsigned char)s[i];
		if (c == '\'')
			return i + 1;
		if (c != '\\' || i + 1 >= sc->len) {
			buf_addc(t, (char)c);
			i++;
			continue;
		}
		c = (unsigned char)s[i + 1];
		i += 2;
		switch (c) {
		case 'a':
			buf_addc(t, '\a');
			break;
		case 'b':
			buf_addc(t, '\b');
			break;
		case 'e':
		case 'E':
			buf_addc(t, '\033');
			break;
		case 'f':
			buf_addc(t, '\f');
			break;
		case 'n':
			buf_addc(t, '\n');
			break;
		case 'r':
			buf_addc(t, '\r');
			break;
		case 't':
			buf_addc(t, '\t');
			break;
		case 'v':
			buf_addc(t, '\v');
			break;
		case '\\':
		case '\'':
		case '"':
		case '?':
			buf_addc(t, (char)c);
			break;
		case '0': case '1': case '2': case '3':
		case '4': case '5': case '6': case '7':
			v = (unsigned long)(c - '0');
			for (n = 1; n < 3 && i < sc->len && s[i] >= '0' &&
			    s[i] <= '7'; n++, i++)
				v = v * 8 + (unsigned long)(s[i] - '0');
			buf_addc(t, (char)(v & 0xff));
			break;
		case 'x':
		case 'u':
		case 'U':
			max = c == 'x' ? 2 : (c == 'u' ? 4 : 8);
			v = 0;
			for (n = 0; n < max && i < sc->len &&
			    (h = hex_value((unsigned char)s[i])) != -1;
			    n++, i++)
				v = v * 16 + (unsigned long)h;
			if (n == 0) {
				buf_addc(t, '\\');
				buf_addc(t, (char)c);
			} else if (c == 'x')
				buf_addc(t, (char)v);
			else
				add_utf8(t, v);
			break;
		case 'c':
			if (i < sc->len) {
				c = (unsigned char)s[i++];
				if (c == '?')
					buf_addc(t, 0x7f);
				else {
					if (c >= 'a' && c <= 'z')
						c -= 'a' - 'A';
					buf_addc(t, (char)(c & 0x1f));
				}
			} else
				buf_adds(t, "\\c");
			break;
		default:
			buf_addc(t, '\\');
			buf_addc(t, (char)c);
			break;
		}
	}
	sc->unterm = 1;
	return sc->len;
}

/*
 * Scan the body of a "..." string into t (escapes applied, substitutions
 * kept as typed); i is just after the opening quote.
 */
static size_t
scan_dq_text(struct scan *sc, size_t i, struct buf *t, unsigned *fl)
{
	const char	*s = sc->s;
	size_t		 e;
	unsigned	 k;
	int		 c;

	while (i < sc->len) {
		c = (unsigned char)s[i];
		if (c == '"')
			return i + 1;
		if (c == '\\' && i + 1 < sc->len) {
			c = (unsigned char)s[i + 1];
			if (c == '\n')
				i += 2;
			else if (c == '$' || c == '`' || c == '"' ||
			    c == '\\') {
				buf_addc(t, (char)c);
				i += 2;
			} else {
				buf_addc(t, '\\');
				i++;
			}
			continue;
		}
		if (c == '$') {
			e = skip_dollar(sc, i, 1, 1, &k);
			*fl |= k;
		} else if (c == '`') {
			e = skip_bquote(sc, i + 1);
			*fl |= SHW_CMDSUB;
		} else
			e = i + 1;
		buf_add(t, s + i, e - i);
		i = e;
	}
	sc->unterm = 1;
	return sc->len;
}

/*
 * If the word at i starts with NAME=, NAME+= or NAME[...]= (+=), return
 * the offset just after the '='; else 0.
 */
static size_t
assign_prefix(const struct scan *sc, size_t i)
{
	const char	*s = sc->s;
	size_t		 j = i, nest = 0;
	int		 c, q;

	if (j >= sc->len || !is_name1((unsigned char)s[j]))
		return 0;
	while (j < sc->len && is_name((unsigned char)s[j]))
		j++;
	if (j < sc->len && s[j] == '[') {
		for (j++; j < sc->len; j++) {
			c = (unsigned char)s[j];
			if (is_meta(c))
				return 0;
			if (c == '\\')
				j++;
			else if (c == '\'' || c == '"') {
				q = c;
				for (j++; j < sc->len && s[j] != q; j++) {
					if (q == '"' && s[j] == '\\')
						j++;
				}
				if (j >= sc->len)
					return 0;
			} else if (c == '[')
				nest++;
			else if (c == ']') {
				if (nest == 0)
					break;
				nest--;
			}
		}
		if (j >= sc->len)
			return 0;
		j++;
	}
	if (j < sc->len && s[j] == '+')
		j++;
	if (j < sc->len && s[j] == '=')
		return j + 1;
	return 0;
}

/*
 * Scan one word starting at i into t.  Returns its end offset; the word
 * flags go into *fl.
 */
static size_t
scan_word(struct scan *sc, size_t i, int assignpos, struct buf *t,
    unsigned *fl)
{
	const char	*s = sc->s;
	size_t		 start = i, aend = 0, qend = 0, e;
	uint32_t	 bbits = 0;
	unsigned	 bdepth = 0, k;
	int		 c, n, bracket = 0, qterm = 0, u;

	*fl = 0;
	if (assignpos && (aend = assign_prefix(sc, i)) != 0)
		*fl |= SHW_ASSIGN;
	if (s[i] == '~' || (aend != 0 && aend < sc->len && s[aend] == '~'))
		*fl |= SHW_TILDE;
	if (s[i] == '\\' && !(i + 1 < sc->len && s[i + 1] == '\n'))
		*fl |= SHW_LEADBSLASH;

	while (i < sc->len) {
		c = (unsigned char)s[i];
		n = i + 1 < sc->len ? (unsigned char)s[i + 1] : -1;
		if (is_meta(c)) {
			if ((c == '<' || c == '>') && n == '(') {
				e = skip_paren(sc, i + 2, 1);
				*fl |= SHW_PROCSUB;
			} else if (c == '(' && aend != 0 && i == aend)
				e = skip_paren(sc, i + 1, 1);
			else
				break;
			buf_add(t, s + i, e - i);
			i = e;
			continue;
		}
		switch (c) {
		case '\\':
			if (n == '\n') {
				i += 2;
				continue;
			}
			if (n == -1) {
				buf_addc(t, '\\');
				i++;
				continue;
			}
			*fl |= SHW_ESCAPE;
			buf_addc(t, (char)n);
			i += 2;
			continue;
		case '\'':
			*fl |= SHW_SQUOTE;
			u = sc->unterm;
			sc->unterm = 0;
			e = skip_squote(sc, i + 1);
			buf_add(t, s + i + 1, (sc->unterm ? e : e - 1) - i - 1);
			if (i == start) {
				qend = e;
				qterm = !sc->unterm;
			}
			sc->unterm |= u;
			i = e;
			continue;
		case '"':
			*fl |= SHW_DQUOTE;
			u = sc->unterm;
			sc->unterm = 0;
			e = scan_dq_text(sc, i + 1, t, fl);
			if (i == start) {
				qend = e;
				qterm = !sc->unterm;
			}
			sc->unterm |= u;
			i = e;
			continue;
		case '$':
			if (n == '\'' || n == '"') {
				u = sc->unterm;
				sc->unterm = 0;
				if (n == '\'') {
					*fl |= SHW_ANSIC;
					e = decode_ansic(sc, i + 2, t);
				} else {
					*fl |= SHW_DQUOTE;
					e = scan_dq_text(sc, i + 2, t, fl);
				}
				if (i == start) {
					qend = e;
					qterm = !sc->unterm;
				}
				sc->unterm |= u;
				i = e;
				continue;
			}
			e = skip_dollar(sc, i, 0, 0, &k);
			*fl |= k;
			buf_add(t, s + i, e - i);
			i = e;
			continue;
		case '`':
			e = skip_bquote(sc, i + 1);
			*fl |= SHW_CMDSUB;
			buf_add(t, s + i, e - i);
			i = e;
			continue;
		case '*':
		case '?':
		case '+':
		case '@':
		case '!':
			if (n == '(') {
				e = skip_paren(sc, i + 2, 1);
				*fl |= SHW_GLOB;
				buf_add(t, s + i, e - i);
				i = e;
				continue;
			}
			if (c == '*' || c == '?')
				*fl |= SHW_GLOB;
			break;
		case '[':
			bracket = 1;
			break;
		case ']':
			if (bracket)
				*fl |= SHW_GLOB;
			bracket = 0;
			break;
		case '{':
			bdepth++;
			if (bdepth <= 32)
				bbits &= ~(1U << (bdepth - 1));
			break;
		case ',':
			if (bdepth > 0 && bdepth <= 32)
				bbits |= 1U << (bdepth - 1);
			break;
		case '.':
			if (n == '.' && bdepth > 0 && bdepth <= 32)
				bbits |= 1U << (bdepth - 1);
			break;
		case '}':
			if (bdepth > 0) {
				if (bdepth <= 32 &&
				    (bbits & (1U << (bdepth - 1))))
					*fl |= SHW_BRACE;
				bdepth--;
			}
			break;
		}
		buf_addc(t, (char)c);
		i++;
	}
	if (qend != 0 && qend == i && qterm)
		*fl |= SHW_FULLQUOTE;
	if (*fl & SHW_ASSIGN)
		*fl &= ~(SHW_GLOB|SHW_BRACE);
	return i;
}

/* Append a token; text is taken over. */
static struct shtok_token *
add_token(struct split *sp, enum shtok_kind kind, size_t start, size_t end,
    char *text, size_t textlen, unsigned flags, int fd)
{
	struct shtok_list	*l = sp->list;
	struct shtok_token	*t;

	if (l->n == l->alloc) {
		l->alloc = l->alloc == 0 ? 16 : l->alloc * 2;
		l->v = xreallocarray(l->v, l->alloc, sizeof *l->v);
	}
	t = &l->v[l->n++];
	t->kind = kind;
	t->raw = xmalloc(end - start + 1);
	memcpy(t->raw, sp->sc.s + start, end - start);
	t->raw[end - start] = '\0';
	t->text = text;
	t->textlen = textlen;
	t->flags = flags;
	t->start = start;
	t->end = end;
	t->fd = fd;
	return t;
}

/* Append an operator or redirection token whose text is s[ts, end). */
static void
add_op(struct split *sp, enum shtok_kind kind, size_t start, size_t ts,
    size_t end, unsigned flags, int fd)
{
	char	*text;

	text = xmalloc(end - ts + 1);
	memcpy(text, sp->sc.s + ts, end - ts);
	text[end - ts] = '\0';
	add_token(sp, kind, start, end, text, end - ts, flags, fd);
}

/* Flags of an unquoted here-document body, scanned like "..." text. */
static unsigned
heredoc_flags(const char *s, size_t len)
{
	struct scan	sc = { s, len, 0, 0 };
	size_t		i = 0;
	unsigned	fl = 0, k;

	while (i < len) {
		if (s[i] == '\\')
			i += 2;
		else if (s[i] == '$') {
			i = skip_dollar(&sc, i, 1, 1, &k);
			fl |= k;
		} else if (s[i] == '`') {
			i = skip_bquote(&sc, i + 1);
			fl |= SHW_CMDSUB;
		} else
			i++;
	}
	return fl;
}

/* Read the bodies of the pending here-documents, starting at i. */
static size_t
read_heredocs(struct split *sp, size_t i)
{
	const char	*s = sp->sc.s, *nl;
	size_t		 len = sp->sc.len, h, bstart, bend, e, ls, n;
	struct heredoc	*hd;
	struct buf	 b = BUF_INIT;
	unsigned	 fl;
	int		 found;
	char		*text;

	for (h = 0; h < sp->nhd; h++) {
		hd = &sp->hd[h];
		bstart = bend = i;
		found = 0;
		while (i < len) {
			nl = memchr(s + i, '\n', len - i);
			e = nl == NULL ? len : (size_t)(nl - s);
			ls = i;
			if (hd->strip) {
				while (ls < e && s[ls] == '\t')
					ls++;
			}
			if (e - ls == hd->dlen &&
			    memcmp(s + ls, hd->delim, hd->dlen) == 0) {
				bend = i;
				i = e < len ? e + 1 : e;
				found = 1;
				break;
			}
			buf_add(&b, s + ls, e - ls);
			if (e < len)
				buf_addc(&b, '\n');
			i = e < len ? e + 1 : e;
			bend = i;
		}
		if (!found)
			sp->list->flags |= SHL_UNTERMINATED;
		if (hd->quoted)
			fl = SHW_HDQUOTED;
		else
			fl = heredoc_flags(s + bstart, bend - bstart);
		if (fl & SHW_VAR)
			sp->list->flags |= SHL_VAR;
		if (fl & SHW_CMDSUB)
			sp->list->flags |= SHL_CMDSUB;
		text = buf_detach(&b, &n);
		add_token(sp, SHTOK_HEREDOC, bstart, bend, text, n, fl, -1);
		free(hd->delim);
	}
	sp->nhd = 0;
	return i;
}

/*
 * Try a redirection operator at i.  Returns its end, or i if there is
 * none.
 */
static size_t
scan_redir(struct split *sp, size_t i)
{
	static const char	*ops[] = {
		"<<<", "<<-", "<<", "<>", "<&", "<", ">>", ">|", ">&", ">",
		"&>>", "&>"
	};
	const char		*s = sp->sc.s, *op = NULL;
	size_t			 len = sp->sc.len, j = i, k, oplen = 0, u;
	int			 fd = -1, prefix = 0;
	unsigned		 flags = 0;

	if (is_digit((unsigned char)s[j])) {
		for (k = j; k < len && is_digit((unsigned char)s[k]); k++)
			;
		if (k < len && (s[k] == '<' || s[k] == '>')) {
			fd = 0;
			for (; j < k; j++) {
				if (fd > (INT_MAX - 9) / 10) {
					fd = -1;
					j = k;
					break;
				}
				fd = fd * 10 + (s[j] - '0');
			}
			prefix = 1;
		}
	} else if (s[j] == '{' && j + 1 < len &&
	    is_name1((unsigned char)s[j + 1])) {
		for (k = j + 1; k < len && is_name((unsigned char)s[k]); k++)
			;
		if (k + 1 < len && s[k] == '}' &&
		    (s[k + 1] == '<' || s[k + 1] == '>')) {
			j = k + 1;
			prefix = 1;
		}
	}
	if (j >= len)
		return i;
	if ((s[j] == '<' || s[j] == '>') && j + 1 < len && s[j + 1] == '(')
		return i;
	for (k = 0; k < sizeof ops / sizeof ops[0]; k++) {
		u = strlen(ops[k]);
		if (ops[k][0] == '&' && prefix)
			continue;
		if (u <= len - j && memcmp(s + j, ops[k], u) == 0) {
			op = ops[k];
			oplen = u;
			break;
		}
	}
	if (op == NULL)
		return i;
	k = j + oplen;
	if (strcmp(op, ">&") == 0 || strcmp(op, "<&") == 0) {
		u = k;
		while (u < len && is_digit((unsigned char)s[u]))
			u++;
		if (u < len && s[u] == '-')
			u++;
		if (u > k && (u == len || is_meta((unsigned char)s[u]))) {
			k = u;
			flags |= SHR_DUP;
		}
	}
	add_op(sp, SHTOK_REDIR, i, j, k, flags, fd);
	sp->list->flags |= SHL_REDIR;
	if (strcmp(op, "<<") == 0 || strcmp(op, "<<-") == 0) {
		sp->want_delim = op[2] == '-' ? 2 : 1;
		sp->list->flags |= SHL_HEREDOC;
	}
	sp->want_target = !(flags & SHR_DUP);
	return k;
}

/* Is this word (raw, unquoted) one of the given reserved words? */
static int
word_is(const struct shtok_token *t, const char *const *words)
{
	size_t	n = t->end - t->start;

	if (t->kind != SHTOK_WORD ||
	    (t->flags & (SHW_SQUOTE|SHW_DQUOTE|SHW_ANSIC|SHW_ESCAPE|
	    SHW_LEADBSLASH)))
		return 0;
	for (; *words != NULL; words++) {
		if (strlen(*words) == n && memcmp(t->raw, *words, n) == 0)
			return 1;
	}
	return 0;
}

static const char *const reserved_words[] = {
	"if", "then", "else", "elif", "fi", "for", "while", "until", "do",
	"done", "case", "esac", "in", "function", "select", "{", "}", "!",
	NULL
};
static const char *const name_words[] = {
	"for", "select", "case", "function", "[[", NULL
};

/* Handle a word just added in the splitter. */
static void
after_word(struct split *sp, struct shtok_token *t, int wasdelim)
{
	struct heredoc	*hd;
	static const char *const for_word[] = { "for", NULL };
	static const char *const brace_word[] = { "{", NULL };

	if (t->flags & SHW_GLOB)
		sp->list->flags |= SHL_GLOB;
	if (t->flags & SHW_VAR)
		sp->list->flags |= SHL_VAR;
	if (t->flags & (SHW_CMDSUB|SHW_PROCSUB))
		sp->list->flags |= SHL_CMDSUB;
	sp->prev_for = 0;
	if (wasdelim) {
		if (sp->nhd == sp->hdalloc) {
			sp->hdalloc = sp->hdalloc == 0 ? 4 : sp->hdalloc * 2;
			sp->hd = xreallocarray(sp->hd, sp->hdalloc,
			    sizeof *sp->hd);
		}
		hd = &sp->hd[sp->nhd++];
		hd->delim = xmalloc(t->textlen + 1);
		memcpy(hd->delim, t->text, t->textlen + 1);
		hd->dlen = t->textlen;
		hd->strip = wasdelim == 2;
		hd->quoted = (t->flags & (SHW_SQUOTE|SHW_DQUOTE|SHW_ANSIC|
		    SHW_ESCAPE|SHW_LEADBSLASH)) != 0;
		sp->want_target = 0;
		return;
	}
	if (sp->want_target) {
		sp->want_target = 0;
		return;
	}
	if (!sp->cmdpos || (t->flags & SHW_ASSIGN))
		return;
	if (word_is(t, name_words)) {
		sp->prev_for = word_is(t, for_word);
		sp->cmdpos = 0;
	} else if (word_is(t, reserved_words)) {
		if (word_is(t, brace_word))
			sp->list->flags |= SHL_SUBSHELL;
	} else
		sp->cmdpos = 0;
}

/* Scan an operator at i; returns its end. */
static size_t
scan_op(struct split *sp, size_t i)
{
	static const char	*ops[] = {
		";;&", ";;", ";&", ";", "&&", "&", "||", "|&", "|", "(", ")"
	};
	const char		*s = sp->sc.s;
	size_t			 k, u, len = sp->sc.len;

	for (k = 0; k < sizeof ops / sizeof ops[0]; k++) {
		u = strlen(ops[k]);
		if (u <= len - i && memcmp(s + i, ops[k], u) == 0)
			break;
	}
	if (k == sizeof ops / sizeof ops[0])
		u = 1;
	add_op(sp, SHTOK_OP, i, i, i + u, 0, -1);
	switch (s[i]) {
	case '|':
		sp->list->flags |= u == 2 && s[i + 1] == '|' ? SHL_OR :
		    SHL_PIPE;
		break;
	case '&':
		sp->list->flags |= u == 2 ? SHL_AND : SHL_BG;
		break;
	case '(':
		sp->list->flags |= SHL_SUBSHELL;
		break;
	}
	sp->cmdpos = 1;
	sp->prev_for = 0;
	sp->want_target = 0;
	sp->want_delim = 0;
	return i + u;
}

/* Try a (( ... )) arithmetic command at i; returns its end or i. */
static size_t
scan_arith_cmd(struct split *sp, size_t i)
{
	struct scan	*sc = &sp->sc;
	size_t		 p;
	int		 u;

	if (sc->arith_tries >= SHTOK_MAX_ARITH_TRIES)
		return i;
	u = sc->unterm;
	p = skip_paren(sc, i + 2, 1);
	sc->unterm = u;
	if (p < sc->len && sc->s[p] == ')')
		return p + 1;
	sc->arith_tries++;
	return i;
}

/* Tokenize len bytes of line into list (which must be initialised). */
void
shtok_split(const char *line, size_t len, struct shtok_list *list)
{
	struct split		 sp;
	struct shtok_token	*t;
	struct buf		 b = BUF_INIT;
	const char		*s = line, *nl;
	size_t			 i = 0, e, n, last;
	unsigned		 fl;
	int			 c, wasdelim, later;
	char			*text;

	memset(&sp, 0, sizeof sp);
	if (len > SHTOK_MAX_INPUT) {
		len = SHTOK_MAX_INPUT;
		list->flags |= SHL_TRUNCATED;
	}
	if (line == NULL)
		len = 0;
	sp.sc.s = s;
	sp.sc.len = len;
	sp.list = list;
	sp.cmdpos = 1;

	while (i < len) {
		c = (unsigned char)s[i];
		if (is_blank(c)) {
			i++;
			continue;
		}
		if (c == '\\' && i + 1 < len && s[i + 1] == '\n') {
			i += 2;
			continue;
		}
		if (c == '\n') {
			add_op(&sp, SHTOK_OP, i, i, i + 1, 0, -1);
			sp.cmdpos = 1;
			sp.prev_for = sp.want_target = sp.want_delim = 0;
			i = read_heredocs(&sp, i + 1);
			continue;
		}
		if (c == '#') {
			nl = memchr(s + i, '\n', len - i);
			i = nl == NULL ? len : (size_t)(nl - s);
			continue;
		}
		if ((e = scan_redir(&sp, i)) != i) {
			i = e;
			continue;
		}
		if (c == '(' && i + 1 < len && s[i + 1] == '(' &&
		    (sp.cmdpos || sp.prev_for) && !sp.want_target &&
		    (e = scan_arith_cmd(&sp, i)) != i) {
			fl = SHW_ARITH | heredoc_flags(s + i, e - i);
			add_op(&sp, SHTOK_WORD, i, i, e, fl, -1);
			if (fl & SHW_VAR)
				list->flags |= SHL_VAR;
			if (fl & SHW_CMDSUB)
				list->flags |= SHL_CMDSUB;
			sp.cmdpos = sp.prev_for = 0;
			i = e;
			continue;
		}
		if (c == ';' || c == '&' || c == '|' || c == '(' ||
		    c == ')') {
			i = scan_op(&sp, i);
			continue;
		}
		wasdelim = sp.want_delim;
		sp.want_delim = 0;
		buf_reset(&b);
		e = scan_word(&sp.sc, i,
		    sp.cmdpos && !sp.want_target && !wasdelim, &b, &fl);
		if (e == i) {
			/* Cannot happen; never loop forever. */
			e = i + 1;
			buf_addc(&b, s[i]);
		}
		text = buf_detach(&b, &n);
		t = add_token(&sp, SHTOK_WORD, i, e, text, n, fl, -1);
		after_word(&sp, t, wasdelim);
		i = e;
	}
	buf_release(&b);

	if (sp.nhd != 0) {
		list->flags |= SHL_UNTERMINATED;
		for (n = 0; n < sp.nhd; n++)
			free(sp.hd[n].delim);
	}
	free(sp.hd);
	if (sp.sc.unterm)
		list->flags |= SHL_UNTERMINATED;

	/* ; and newline count as SHL_SEQ only with a command after them. */
	later = 0;
	for (n = list->n; n > 0; n--) {
		t = &list->v[n - 1];
		if (t->kind == SHTOK_WORD || t->kind == SHTOK_REDIR)
			later = 1;
		else if (t->kind == SHTOK_OP && later &&
		    (t->text[0] == '\n' || t->text[0] == ';'))
			list->flags |= SHL_SEQ;
	}

	/* Multi-line: a newline before the last non-blank byte. */
	last = len;
	while (last > 0 && (is_blank((unsigned char)s[last - 1]) ||
	    s[last - 1] == '\n' || s[last - 1] == '\r'))
		last--;
	if (last > 0 && memchr(s, '\n', last) != NULL)
		list->flags |= SHL_MULTILINE;
}

/* Free the tokens of a list; it can be used again. */
void
shtok_list_release(struct shtok_list *list)
{
	size_t	i;

	for (i = 0; i < list->n; i++) {
		free(list->v[i].raw);
		free(list->v[i].text);
	}
	free(list->v);
	list->v = NULL;
	list->n = list->alloc = list->flags = 0;
}

struct bodies {
	char	**v;
	size_t	  n;
	size_t	  alloc;
};

/* Append body [s, s + len) as a new string; backquotes are unescaped. */
static void
add_body(struct bodies *bo, const char *s, size_t len, int bquote)
{
	char	*p;
	size_t	 i, j;

	p = xmalloc(len + 1);
	for (i = j = 0; i < len; i++) {
		if (bquote && s[i] == '\\' && i + 1 < len &&
		    (s[i + 1] == '`' || s[i + 1] == '\\' || s[i + 1] == '$'))
			i++;
		p[j++] = s[i];
	}
	p[j] = '\0';
	if (bo->n == bo->alloc) {
		bo->alloc = bo->alloc == 0 ? 4 : bo->alloc * 2;
		bo->v = xreallocarray(bo->v, bo->alloc, sizeof *bo->v);
	}
	bo->v[bo->n++] = p;
}

/*
 * The bodies of the command substitutions, process substitutions and
 * backquotes found directly in a word's raw text, appended to *ret.
 */
void
shtok_substitutions(const struct shtok_token *word, char ***ret, size_t *n)
{
	struct scan	 sc;
	struct bodies	 bo = { NULL, 0, 0 };
	const char	*s = word->raw;
	size_t		 len = word->end - word->start, i = 0, e, p;
	int		 indq = 0, heredoc = 0, descents = 0;

	if (word->kind == SHTOK_HEREDOC) {
		if (word->flags & SHW_HDQUOTED)
			return;
		heredoc = indq = 1;
	} else if (word->kind != SHTOK_WORD)
		return;
	memset(&sc, 0, sizeof sc);
	sc.s = s;
	sc.len = len;
	while (i < len) {
		switch (s[i]) {
		case '\\':
			i += 2;
			continue;
		case '\'':
			if (indq) {
				i++;
				continue;
			}
			i = skip_squote(&sc, i + 1);
			continue;
		case '"':
			if (!heredoc)
				indq = !indq;
			i++;
			continue;
		case '`':
			sc.unterm = 0;
			e = skip_bquote(&sc, i + 1);
			p = sc.unterm ? e : e - 1;
			add_body(&bo, s + i + 1, p - i - 1, 1);
			i = e;
			continue;
		case '<':
		case '>':
			if (!indq && i + 1 < len && s[i + 1] == '(') {
				sc.unterm = 0;
				e = skip_paren(&sc, i + 2, 1);
				p = sc.unterm ? e : e - 1;
				add_body(&bo, s + i + 2, p - i - 2, 0);
				i = e;
				continue;
			}
			break;
		case '$':
			if (i + 1 >= len)
				break;
			if (s[i + 1] == '{') {
				i += 2;
				continue;
			}
			if (s[i + 1] == '\'' && !indq) {
				i = skip_ansic(&sc, i + 2);
				continue;
			}
			if (s[i + 1] != '(')
				break;
			p = i + 2;
			if (i + 2 < len && s[i + 2] == '(') {
				p = skip_paren(&sc, i + 3, 1);
				if (p >= len || s[p] == ')') {
					/* Arithmetic: look inside it. */
					if (descents++ < SHTOK_MAX_ARITH_TRIES)
						i += 3;
					else
						i = p < len ? p + 1 : len;
					continue;
				}
			}
			sc.unterm = 0;
			e = skip_paren(&sc, p, 1);
			p = sc.unterm ? e : e - 1;
			add_body(&bo, s + i + 2, p - i - 2, 0);
			i = e;
			continue;
		}
		i++;
	}
	if (bo.n != 0) {
		*ret = xreallocarray(*ret, *n + bo.n, sizeof **ret);
		memcpy(*ret + *n, bo.v, bo.n * sizeof *bo.v);
		*n += bo.n;
	}
	free(bo.v);
}

static const char *
static_sep(const char *op)
{
	static const char *const seps[] = {
		"|", "|&", "||", "&&", ";", ";;", ";&", ";;&", "&", "\n",
		"(", ")", NULL
	};
	size_t	i;

	for (i = 0; seps[i] != NULL; i++) {
		if (strcmp(op, seps[i]) == 0)
			return seps[i];
	}
	return "";
}

enum cmode {
	CM_NORMAL,
	CM_FOR_NAME,
	CM_FOR_IN,
	CM_FOR_LIST,
	CM_CASE_WORD,
	CM_CASE_IN,
	CM_FUNC_NAME,
	CM_FUNC_PARENS,
};

enum cstate_case {
	CS_PRE,
	CS_PATTERN,
	CS_BODY,
};

#define SHTOK_MAX_CASE	64

struct cbuild {
	const struct shtok_list	*l;
	struct shtok_cmds	*out;
	size_t			 outalloc;
	size_t			 falloc;
	struct shtok_cmd	 cur;
	size_t			 aalloc, valloc;
	int			 open;
	int			 pipe_pending;
	int			 after_close;
	enum cmode		 mode;
	unsigned char		 cs[SHTOK_MAX_CASE];
	size_t			 ncs, csover;
};

static void
cb_open(struct cbuild *cb, size_t i)
{
	if (cb->open)
		return;
	memset(&cb->cur, 0, sizeof cb->cur);
	cb->aalloc = cb->valloc = 0;
	cb->cur.first = i;
	cb->cur.sep = "";
	cb->cur.piped_in = cb->pipe_pending;
	cb->pipe_pending = 0;
	cb->open = 1;
}

static void
cb_extend(struct cbuild *cb, size_t i)
{
	cb->cur.n = i + 1 - cb->cur.first;
}

static void
cb_push(size_t **v, size_t *n, size_t *alloc, size_t i)
{
	if (*n == *alloc) {
		*alloc = *alloc == 0 ? 4 : *alloc * 2;
		*v = xreallocarray(*v, *alloc, sizeof **v);
	}
	(*v)[(*n)++] = i;
}

static void
cb_discard(struct cbuild *cb)
{
	free(cb->cur.assign);
	free(cb->cur.argv);
	cb->open = 0;
}

static void
cb_close(struct cbuild *cb, const char *sep)
{
	if (!cb->open)
		return;
	cb->cur.sep = sep;
	if (cb->out->n == cb->outalloc) {
		cb->outalloc = cb->outalloc == 0 ? 8 : cb->outalloc * 2;
		cb->out->v = xreallocarray(cb->out->v, cb->outalloc,
		    sizeof *cb->out->v);
	}
	cb->out->v[cb->out->n++] = cb->cur;
	cb->open = 0;
}

/* The operator after ")" and any following closers and redirections. */
static const char *
lookahead_sep(const struct shtok_list *l, size_t j)
{
	static const char *const closers[] = {
		"}", "done", "fi", "esac", NULL
	};
	const struct shtok_token	*t;

	while (j < l->n) {
		t = &l->v[j];
		if (t->kind == SHTOK_OP && strcmp(t->text, ")") != 0)
			return static_sep(t->text);
		if (t->kind == SHTOK_WORD && !word_is(t, closers))
			return "";
		if (t->kind == SHTOK_REDIR && !(t->flags & SHR_DUP) &&
		    j + 1 < l->n && l->v[j + 1].kind == SHTOK_WORD)
			j++;
		j++;
	}
	return "";
}

static int
in_pattern(const struct cbuild *cb)
{
	return cb->csover == 0 && cb->ncs > 0 &&
	    cb->cs[cb->ncs - 1] == CS_PATTERN;
}

static void
case_set(struct cbuild *cb, enum cstate_case st)
{
	if (cb->csover == 0 && cb->ncs > 0)
		cb->cs[cb->ncs - 1] = st;
}

static void
case_pop(struct cbuild *cb)
{
	if (cb->csover > 0)
		cb->csover--;
	else if (cb->ncs > 0)
		cb->ncs--;
}

/* Handle an operator token in shtok_commands. */
static void
cb_op(struct cbuild *cb, size_t *ip)
{
	const struct shtok_list	*l = cb->l;
	const char		*op = l->v[*ip].text;
	size_t			 i = *ip;

	if (in_pattern(cb)) {
		if (strcmp(op, ")") == 0)
			case_set(cb, CS_BODY);
		return;
	}
	switch (cb->mode) {
	case CM_FOR_NAME:
	case CM_FOR_IN:
	case CM_FOR_LIST:
		cb->mode = CM_NORMAL;
		if (strcmp(op, ";") == 0 || strcmp(op, "\n") == 0)
			return;
		break;
	case CM_CASE_WORD:
	case CM_CASE_IN:
		if (strcmp(op, "\n") == 0)
			return;
		cb->mode = CM_NORMAL;
		break;
	case CM_FUNC_NAME:
	case CM_FUNC_PARENS:
		if (strcmp(op, "(") == 0 || strcmp(op, ")") == 0) {
			cb->mode = CM_FUNC_PARENS;
			return;
		}
		cb->mode = CM_NORMAL;
		break;
	case CM_NORMAL:
		break;
	}

	if (strcmp(op, "(") == 0) {
		if (cb->open && cb->cur.nargv == 1 && cb->cur.nassign == 0 &&
		    i + 1 < l->n && l->v[i + 1].kind == SHTOK_OP &&
		    strcmp(l->v[i + 1].text, ")") == 0) {
			/* name () compound-command: a function definition. */
			cb_push(&cb->out->funcs, &cb->out->nfuncs, &cb->falloc,
			    cb->cur.argv[0]);
			cb_discard(cb);
			*ip = i + 1;
			return;
		}
		cb_close(cb, "");
		cb->after_close = 0;
		return;
	}
	if (strcmp(op, ")") == 0) {
		if (cb->open)
			cb_close(cb, lookahead_sep(l, i + 1));
		cb->after_close = 1;
		return;
	}
	cb_close(cb, static_sep(op));
	cb->after_close = 0;
	if (strcmp(op, "|") == 0 || strcmp(op, "|&") == 0)
		cb->pipe_pending = 1;
	else if (strcmp(op, "\n") != 0)
		cb->pipe_pending = 0;
	if (strcmp(op, ";;") == 0 || strcmp(op, ";&") == 0 ||
	    strcmp(op, ";;&") == 0) {
		if (cb->csover == 0 && cb->ncs > 0 &&
		    cb->cs[cb->ncs - 1] == CS_BODY)
			case_set(cb, CS_PATTERN);
	}
}

/* Handle a word token in shtok_commands. */
static void
cb_word(struct cbuild *cb, size_t i)
{
	static const char *const w_in[] = { "in", NULL };
	static const char *const w_do[] = { "do", NULL };
	static const char *const w_esac[] = { "esac", NULL };
	static const char *const w_for[] = { "for", "select", NULL };
	static const char *const w_case[] = { "case", NULL };
	static const char *const w_func[] = { "function", NULL };
	static const char *const w_close[] = { "done", "fi", "}", NULL };
	const struct shtok_token *t = &cb->l->v[i];

	switch (cb->mode) {
	case CM_FOR_NAME:
		cb->mode = CM_FOR_IN;
		return;
	case CM_FOR_IN:
		if (word_is(t, w_in)) {
			cb->mode = CM_FOR_LIST;
			return;
		}
		cb->mode = CM_NORMAL;
		if (word_is(t, w_do))
			return;
		break;
	case CM_FOR_LIST:
		return;
	case CM_CASE_WORD:
		cb->mode = CM_CASE_IN;
		return;
	case CM_CASE_IN:
		cb->mode = CM_NORMAL;
		if (word_is(t, w_in)) {
			case_set(cb, CS_PATTERN);
			return;
		}
		break;
	case CM_FUNC_NAME:
		cb_push(&cb->out->funcs, &cb->out->nfuncs, &cb->falloc, i);
		cb->mode = CM_FUNC_PARENS;
		return;
	case CM_FUNC_PARENS:
		cb->mode = CM_NORMAL;
		break;
	case CM_NORMAL:
		break;
	}

	if (in_pattern(cb)) {
		if (word_is(t, w_esac)) {
			case_pop(cb);
			cb->after_close = 1;
		}
		return;
	}
	if (!cb->open && word_is(t, reserved_words)) {
		cb->after_close = 0;
		if (word_is(t, w_for))
			cb->mode = CM_FOR_NAME;
		else if (word_is(t, w_case)) {
			if (cb->ncs < SHTOK_MAX_CASE && cb->csover == 0)
				cb->cs[cb->ncs++] = CS_PRE;
			else
				cb->csover++;
			cb->mode = CM_CASE_WORD;
		} else if (word_is(t, w_func))
			cb->mode = CM_FUNC_NAME;
		else if (word_is(t, w_esac)) {
			case_pop(cb);
			cb->after_close = 1;
		} else if (word_is(t, w_close))
			cb->after_close = 1;
		return;
	}
	cb_open(cb, i);
	cb_extend(cb, i);
	if ((t->flags & SHW_ASSIGN) && cb->cur.nargv == 0)
		cb_push(&cb->cur.assign, &cb->cur.nassign, &cb->aalloc, i);
	else
		cb_push(&cb->cur.argv, &cb->cur.nargv, &cb->valloc, i);
}

/* Split a token list into simple commands. */
void
shtok_commands(const struct shtok_list *list, struct shtok_cmds *cmds)
{
	struct cbuild		 cb;
	const struct shtok_token *t;
	size_t			 i;

	memset(&cb, 0, sizeof cb);
	cb.l = list;
	cb.out = cmds;
	cb.outalloc = cmds->n;
	cb.falloc = cmds->nfuncs;
	for (i = 0; i < list->n; i++) {
		t = &list->v[i];
		switch (t->kind) {
		case SHTOK_HEREDOC:
			if (cb.open)
				cb_extend(&cb, i);
			break;
		case SHTOK_REDIR:
			if (!cb.open && cb.after_close) {
				if (!(t->flags & SHR_DUP) && i + 1 < list->n &&
				    list->v[i + 1].kind == SHTOK_WORD)
					i++;
				break;
			}
			cb_open(&cb, i);
			cb.cur.nredir++;
			if (!(t->flags & SHR_DUP) && i + 1 < list->n &&
			    list->v[i + 1].kind == SHTOK_WORD)
				i++;
			cb_extend(&cb, i);
			break;
		case SHTOK_OP:
			cb_op(&cb, &i);
			break;
		case SHTOK_WORD:
			cb_word(&cb, i);
			break;
		}
	}
	cb_close(&cb, "");
}

/* Free the commands; the structure can be used again. */
void
shtok_cmds_release(struct shtok_cmds *cmds)
{
	size_t	i;

	for (i = 0; i < cmds->n; i++) {
		free(cmds->v[i].assign);
		free(cmds->v[i].argv);
	}
	free(cmds->v);
	free(cmds->funcs);
	cmds->v = NULL;
	cmds->funcs = NULL;
	cmds->n = cmds->nfuncs = 0;
}
