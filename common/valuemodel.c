#include "valuemodel.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/*
 * Features of value k, as redaction-rules/train-values.py makes them (keep
 * the two the same; test-valuemodel compares scores):
 *   l:N c:M cl:M:N e:H   length bucket, character classes (1 upper, 2
 *                        lower, 4 digit, 8 other), both, and twice the
 *                        Shannon entropy in bits per byte, rounded down;
 *   hex[:32|40|64] b64 b64txt slash dot
 *                        all hex digits (with the length when it is a
 *                        digest's), all base64 bytes, base64 of text, a /
 *                        or a . in it;
 *   p:ABC                its first three bytes (values of 8 or more);
 *   sh:SHAPE pos:K q     its shape (A upper, a lower, 9 digit, other bytes
 *                        as they are; runs of one kept once; 12 bytes), its
 *                        index among the line's values (6 for 6 and more),
 *                        and whether a quote is right before it;
 *   p1:W s:SEP k:PIECE p2:W, or first
 *                        the value before it (lower-cased, 32 bytes), the
 *                        bytes between the two (4, tab as blank), the
 *                        pieces of the first 128 bytes of the value
 *                        before, split at _ . - (24 bytes each), and the
 *                        value before that;
 *   cmd:NAME sub:W       the line's first value after its last /, and
 *                        its second value (lower-cased, 16 bytes) when
 *                        this one comes after the third;
 *   n1:W sa:SEP, or last the value after it (lower-cased, 16 bytes) and
 *                        the bytes between (4, tab as blank).
 */
#define VM_MINLEN	6
#define VM_KEYMAX	64
#define VM_PIECES	128	/* bytes of the value before split in pieces */

static const unsigned char vm_delim[256] = {
	[' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1, ['\''] = 1, ['"'] = 1,
	['`'] = 1, ['='] = 1, [':'] = 1, [','] = 1, [';'] = 1, ['('] = 1,
	[')'] = 1, ['{'] = 1, ['}'] = 1, ['['] = 1, [']'] = 1, ['<'] = 1,
	['>'] = 1, ['|'] = 1, ['&'] = 1, ['@'] = 1, ['\\'] = 1,
};

/* Lengths: the bucket is the index of the first bound the length is under. */
static const size_t vm_lens[] = { 4, 6, 8, 12, 16, 20, 24, 32, 40, 48, 64 };

size_t
valuemodel_tokens(const char *line, size_t len, struct vm_tok *toks,
    size_t max)
{
	size_t	i = 0, j, n = 0;

	while (i < len && n < max) {
		if (vm_delim[(unsigned char)line[i]]) {
			/* printf's \n, \t and \r escapes are blanks too. */
			if (line[i] == '\\' && i + 1 < len &&
			    (line[i + 1] == 'n' || line[i + 1] == 't' ||
			    line[i + 1] == 'r'))
				i++;
			i++;
			continue;
		}
		for (j = i; j < len && !vm_delim[(unsigned char)line[j]]; j++)
			;
		toks[n].start = i;
		toks[n].end = j;
		n++;
		i = j;
	}
	return n;
}

static int
is_lowerish(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || c == '.' || c == '-';
}

int
valuemodel_candidate(const char *t, size_t n)
{
	size_t	i;

	if (n < VM_MINLEN || t[0] == '-' || t[0] == '/' || t[0] == '~' ||
	    t[0] == '.' || memchr(t, '$', n) != NULL)
		return 0;
	/* A port and a URL's path (host:7557/devices/...): no secret. */
	for (i = 0; i < n && i < 6 && t[i] >= '0' && t[i] <= '9'; i++)
		;
	if (i > 0 && i < 6 && i < n && t[i] == '/')
		return 0;
	for (i = 0; i < n && is_lowerish((unsigned char)t[i]); i++)
		;
	return !(i == n && t[n - 1] >= 'a' && t[n - 1] <= 'z');
}

/* The value of a base64 digit (standard or URL-safe), or -1. */
static int
b64_digit(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+' || c == '-')
		return 62;
	if (c == '/' || c == '_')
		return 63;
	return -1;
}

/* Whether t is base64 of mostly (nine tenths) printable text, or UTF-16LE. */
static int
b64_text(const unsigned char *t, size_t n)
{
	size_t		m = n, i, nbytes = 0, printable = 0;
	unsigned	acc = 0, bits = 0, b;
	int		d;

	if (n < 16)
		return 0;
	while (m > 0 && t[m - 1] == '=')
		m--;
	if (m % 4 == 1)
		return 0;
	for (i = 0; i < m; i++) {
		if ((d = b64_digit(t[i])) < 0)
			return 0;
		acc = ((acc << 6) | (unsigned)d) & 0xffffff;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			b = (acc >> bits) & 0xff;
			/*
			 * UTF-16LE text (PowerShell -EncodedCommand): a NUL
			 * at every odd offset counts as text.
			 */
			if ((b >= 32 && b <= 126) || b == 9 || b == 10 ||
			    b == 13 || (b == 0 && nbytes % 2 == 1))
				printable++;
			nbytes++;
		}
	}
	return nbytes > 0 && 10 * printable >= 9 * nbytes;
}

/*
 * Twice the Shannon entropy in bits per byte, rounded down.  The terms are
 * summed in byte order, as the trainer does (the sum's rounding depends on
 * it); only the counters of the bytes present are touched.
 */
static int
entropy2(const unsigned char *t, size_t n)
{
	uint32_t	cnt[256];
	uint64_t	seen[4] = { 0, 0, 0, 0 }, bits;
	size_t		i, w;
	double		h = 0, p;

	for (i = 0; i < n; i++) {
		if ((seen[t[i] >> 6] & (1ULL << (t[i] & 63))) == 0) {
			seen[t[i] >> 6] |= 1ULL << (t[i] & 63);
			cnt[t[i]] = 0;
		}
		cnt[t[i]]++;
	}
	for (w = 0; w < 4; w++) {
		for (bits = seen[w]; bits != 0; bits &= bits - 1) {
			i = w * 64 + (size_t)__builtin_ctzll(bits);
			p = (double)cnt[i] / (double)n;
			h -= p * log2(p);
		}
	}
	return (int)(h * 2);
}

/* Write v in decimal at out; returns the number of digits (no NUL). */
static size_t
put_uint(char *out, size_t v)
{
	char	tmp[24];
	size_t	n = 0, i;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	for (i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	return n;
}

/* Add the weight of PREFIX followed by n bytes of s (lower-cased if asked). */
static void
vm_add(const struct wordmodel *m, double *z, const char *prefix,
    const char *s, size_t n, int lower)
{
	char	key[VM_KEYMAX];
	size_t	k = strlen(prefix), i;

	memcpy(key, prefix, k);
	for (i = 0; i < n && k < sizeof key - 1; i++) {
		unsigned char c = (unsigned char)s[i];

		if (lower && c >= 'A' && c <= 'Z')
			c = (unsigned char)(c - 'A' + 'a');
		key[k++] = (char)c;
	}
	key[k] = '\0';
	*z += wordmodel_weight(m, key);
}

static size_t
min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

/* The pieces of the value before (lower-cased), each once: k:PIECE. */
static void
vm_pieces(const struct wordmodel *m, double *z, const char *p, size_t n)
{
	char		low[VM_PIECES];
	size_t		starts[VM_PIECES / 2], lens[VM_PIECES / 2], np = 0;
	size_t		i, j, a, b, w;

	n = min_size(n, sizeof low);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		low[i] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
	}
	for (i = 0; i < n; i = b) {
		for (a = i; a < n && (low[a] == '_' || low[a] == '.' ||
		    low[a] == '-'); a++)
			;
		for (b = a; b < n && low[b] != '_' && low[b] != '.' &&
		    low[b] != '-'; b++)
			;
		if (b == a)
			break;
		w = min_size(b - a, 24);
		for (j = 0; j < np; j++) {
			if (lens[j] == w && memcmp(low + starts[j], low + a,
			    w) == 0)
				break;
		}
		if (j < np)
			continue;
		starts[np] = a;
		lens[np++] = w;
		vm_add(m, z, "k:", low + a, w, 0);
	}
}

double
valuemodel_score(const struct wordmodel *m, const char *line,
    const struct vm_tok *toks, size_t ntok, size_t k)
{
	const unsigned char	*t = (const unsigned char *)line + toks[k].start;
	size_t			 n = toks[k].end - toks[k].start, i, lb;
	size_t			 ps, pe, cs, ce, c;
	double			 z = wordmodel_bias(m);
	char			 num[32];
	int			 mask = 0, hex = 1, b64 = 1;

	for (i = 0; i < n; i++) {
		if (t[i] >= 'A' && t[i] <= 'Z')
			mask |= 1;
		else if (t[i] >= 'a' && t[i] <= 'z')
			mask |= 2;
		else if (t[i] >= '0' && t[i] <= '9')
			mask |= 4;
		else
			mask |= 8;
		hex &= isxdigit(t[i]) != 0;
		/* Standard base64 digits, and '=' anywhere. */
		b64 &= t[i] == '=' || (b64_digit(t[i]) >= 0 && t[i] != '-' &&
		    t[i] != '_');
	}
	for (lb = 0; lb < sizeof vm_lens / sizeof vm_lens[0] &&
	    n >= vm_lens[lb]; lb++)
		;
	c = put_uint(num, lb);
	vm_add(m, &z, "l:", num, c, 0);
	c = put_uint(num, (size_t)mask);
	vm_add(m, &z, "c:", num, c, 0);
	num[c++] = ':';
	c += put_uint(num + c, lb);
	vm_add(m, &z, "cl:", num, c, 0);
	c = put_uint(num, (size_t)entropy2(t, n));
	vm_add(m, &z, "e:", num, c, 0);
	if (hex) {
		if (n == 32 || n == 40 || n == 64) {
			c = put_uint(num, n);
			vm_add(m, &z, "hex:", num, c, 0);
		} else
			vm_add(m, &z, "hex", "", 0, 0);
	}
	if (b64)
		vm_add(m, &z, "b64", "", 0, 0);
	if (b64_text(t, n))
		vm_add(m, &z, "b64txt", "", 0, 0);
	if (memchr(t, '/', n) != NULL)
		vm_add(m, &z, "slash", "", 0, 0);
	if (memchr(t, '.', n) != NULL)
		vm_add(m, &z, "dot", "", 0, 0);
	if (n >= 8)
		vm_add(m, &z, "p:", (const char *)t, 3, 0);
	for (i = 0, c = 0; i < n && c < 12; i++) {
		char	cls;

		if (t[i] >= 'A' && t[i] <= 'Z')
			cls = 'A';
		else if (t[i] >= 'a' && t[i] <= 'z')
			cls = 'a';
		else if (t[i] >= '0' && t[i] <= '9')
			cls = '9';
		else
			cls = (char)t[i];
		if (c == 0 || num[c - 1] != cls)
			num[c++] = cls;
	}
	vm_add(m, &z, "sh:", num, min_size(c, 12), 0);
	c = put_uint(num, min_size(k, 6));
	vm_add(m, &z, "pos:", num, c, 0);
	if (toks[k].start > 0 && (line[toks[k].start - 1] == '\'' ||
	    line[toks[k].start - 1] == '"'))
		vm_add(m, &z, "q", "", 0, 0);
	if (k > 0) {
		char	sep[4];

		ps = toks[k - 1].start;
		pe = toks[k - 1].end;
		vm_add(m, &z, "p1:", line + ps, min_size(pe - ps, 32), 1);
		c = min_size(toks[k].start - pe, 4);
		for (i = 0; i < c; i++)
			sep[i] = line[pe + i] == '\t' ? ' ' : line[pe + i];
		vm_add(m, &z, "s:", sep, c, 0);
		vm_pieces(m, &z, line + ps, pe - ps);
		if (k > 1)
			vm_add(m, &z, "p2:", line + toks[k - 2].start,
			    min_size(toks[k - 2].end - toks[k - 2].start, 32),
			    1);
	} else
		vm_add(m, &z, "first", "", 0, 0);
	cs = toks[0].start;
	ce = toks[0].end;
	for (i = ce; i > cs && line[i - 1] != '/'; i--)
		;
	vm_add(m, &z, "cmd:", line + i, min_size(ce - i, 24), 0);
	if (k > 2)
		vm_add(m, &z, "sub:", line + toks[1].start,
		    min_size(toks[1].end - toks[1].start, 16), 1);
	if (k + 1 == ntok)
		vm_add(m, &z, "last", "", 0, 0);
	else {
		char	sep[4];

		vm_add(m, &z, "n1:", line + toks[k + 1].start,
		    min_size(toks[k + 1].end - toks[k + 1].start, 16), 1);
		c = min_size(toks[k + 1].start - toks[k].end, 4);
		for (i = 0; i < c; i++)
			sep[i] = line[toks[k].end + i] == '\t' ? ' ' :
			    line[toks[k].end + i];
		vm_add(m, &z, "sa:", sep, c, 0);
	}
	if (z > 30)
		z = 30;
	if (z < -30)
		z = -30;
	return 1.0 / (1.0 + exp(-z));
}
