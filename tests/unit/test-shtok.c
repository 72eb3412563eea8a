/*
 * Tests for the shell tokenizer (common/shtok.c).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "harness.h"
#include "shtok.h"
#include "xmalloc.h"

static struct shtok_list	L = SHTOK_LIST_INIT;
static struct shtok_cmds	C = SHTOK_CMDS_INIT;
static char			*dumped;

static void
splitn(const char *s, size_t n)
{
	shtok_list_release(&L);
	shtok_split(s, n, &L);
}

static void
split(const char *s)
{
	splitn(s, strlen(s));
}

static void
add_printable(struct buf *b, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '\n')
			buf_adds(b, "\\n");
		else if (*s == '\t')
			buf_adds(b, "\\t");
		else
			buf_addc(b, *s);
	}
}

/* The tokens as "W[text] O[op] R[redir] H[body]". */
static const char *
dump(void)
{
	struct buf	b = BUF_INIT;
	size_t		i;
	const char	*k = "WORH";

	for (i = 0; i < L.n; i++) {
		if (i != 0)
			buf_addc(&b, ' ');
		buf_addc(&b, k[L.v[i].kind]);
		buf_addc(&b, '[');
		add_printable(&b, L.v[i].text);
		buf_addc(&b, ']');
	}
	free(dumped);
	dumped = buf_detach(&b, NULL);
	return dumped;
}

/* The commands as "assigns;argv;nredir;sep;piped" joined by " / ". */
static const char *
cmds(const char *s)
{
	struct buf		 b = BUF_INIT;
	const struct shtok_cmd	*c;
	size_t			 i, j;

	split(s);
	shtok_cmds_release(&C);
	shtok_commands(&L, &C);
	for (i = 0; i < C.n; i++) {
		c = &C.v[i];
		if (i != 0)
			buf_adds(&b, " / ");
		for (j = 0; j < c->nassign; j++) {
			if (j != 0)
				buf_addc(&b, ' ');
			add_printable(&b, L.v[c->assign[j]].text);
		}
		buf_addc(&b, ';');
		for (j = 0; j < c->nargv; j++) {
			if (j != 0)
				buf_addc(&b, ' ');
			add_printable(&b, L.v[c->argv[j]].text);
		}
		buf_addf(&b, ";%zu;", c->nredir);
		add_printable(&b, c->sep);
		buf_addf(&b, ";%d", c->piped_in);
	}
	free(dumped);
	dumped = buf_detach(&b, NULL);
	return dumped;
}

/* The substitution bodies of token i, joined by " | ". */
static const char *
subs(size_t i)
{
	struct buf	  b = BUF_INIT;
	char		**v = NULL;
	size_t		  n = 0, j;

	shtok_substitutions(&L.v[i], &v, &n);
	for (j = 0; j < n; j++) {
		if (j != 0)
			buf_adds(&b, " | ");
		add_printable(&b, v[j]);
		free(v[j]);
	}
	free(v);
	free(dumped);
	dumped = buf_detach(&b, NULL);
	return dumped;
}

#define FL(i)	(L.v[(i)].flags)
#define HAS(i, f) CHECK((FL(i) & (f)) == (f))
#define HASNOT(i, f) CHECK((FL(i) & (f)) == 0)
#define SPAN(i, s, e) do {						\
	CHECK_INT(L.v[(i)].start, (s));					\
	CHECK_INT(L.v[(i)].end, (e));					\
} while (0)

/* Check that every token's raw is exactly its span of the input. */
static void
check_spans(const char *in, size_t len)
{
	size_t	i, prev = 0;
	int	ok = 1;

	for (i = 0; i < L.n && ok; i++) {
		ok = L.v[i].start <= L.v[i].end && L.v[i].end <= len &&
		    L.v[i].start >= prev && memcmp(L.v[i].raw,
		    in + L.v[i].start, L.v[i].end - L.v[i].start) == 0;
		prev = L.v[i].end;
	}
	CHECK(ok);
}

static void
t_simple(void)
{
	split("ls -la /tmp");
	CHECK_STR(dump(), "W[ls] W[-la] W[/tmp]");
	CHECK_INT(L.n, 3);
	SPAN(0, 0, 2);
	SPAN(1, 3, 6);
	SPAN(2, 7, 11);
	CHECK_STR(L.v[2].raw, "/tmp");
	CHECK_INT(L.flags, 0);
	CHECK_INT(FL(0), 0);
}

static void
t_empty(void)
{
	split("");
	CHECK_INT(L.n, 0);
	CHECK_INT(L.flags, 0);
	split("   \t  ");
	CHECK_INT(L.n, 0);
	splitn(NULL, 0);
	CHECK_INT(L.n, 0);
}

static void
t_squote(void)
{
	split("echo 'a b'  c");
	CHECK_STR(dump(), "W[echo] W[a b] W[c]");
	SPAN(1, 5, 10);
	CHECK_STR(L.v[1].raw, "'a b'");
	HAS(1, SHW_SQUOTE | SHW_FULLQUOTE);
	HASNOT(1, SHW_DQUOTE | SHW_ESCAPE);
}

static void
t_squote_escape(void)
{
	split("echo 'it'\\''s'");
	CHECK_INT(L.n, 2);
	CHECK_STR(L.v[1].text, "it's");
	CHECK_STR(L.v[1].raw, "'it'\\''s'");
	HAS(1, SHW_SQUOTE | SHW_ESCAPE);
	HASNOT(1, SHW_FULLQUOTE | SHW_LEADBSLASH);
	SPAN(1, 5, 14);
}

static void
t_dquote(void)
{
	split("echo \"a \\\"b\\\" c\"");
	CHECK_INT(L.n, 2);
	CHECK_STR(L.v[1].text, "a \"b\" c");
	HAS(1, SHW_DQUOTE | SHW_FULLQUOTE);
	HASNOT(1, SHW_ESCAPE);
	split("echo \"\\$HOME \\\\ \\` \\x\"");
	CHECK_STR(L.v[1].text, "$HOME \\ ` \\x");
	HASNOT(1, SHW_VAR);
}

static void
t_dquote_var(void)
{
	split("echo \"$HOME/x\" \"${a:-b}\"");
	CHECK_STR(dump(), "W[echo] W[$HOME/x] W[${a:-b}]");
	HAS(1, SHW_DQUOTE | SHW_VAR | SHW_FULLQUOTE);
	HAS(2, SHW_VAR);
	CHECK(L.flags & SHL_VAR);
}

static void
t_squote_novar(void)
{
	split("echo '$HOME $(rm -rf /)' '*'");
	CHECK_STR(L.v[1].text, "$HOME $(rm -rf /)");
	HASNOT(1, SHW_VAR | SHW_CMDSUB);
	HASNOT(2, SHW_GLOB);
	CHECK_INT(L.flags & (SHL_VAR | SHL_CMDSUB | SHL_GLOB), 0);
	CHECK_STR(subs(1), "");
}

static void
t_ansic_hex(void)
{
	split("$'\\x72\\x6d' -rf /");
	CHECK_INT(L.n, 3);
	CHECK_STR(L.v[0].text, "rm");
	HAS(0, SHW_ANSIC | SHW_FULLQUOTE);
	SPAN(0, 0, 11);
}

static void
t_ansic_escapes(void)
{
	split("echo $'a\\nb\\tc\\\\d\\'e\\101\\e\\a\\x41\\u00e9\\cA\\q'");
	CHECK_INT(L.n, 2);
	CHECK_STR(L.v[1].text,
	    "a\nb\tc\\d'eA\033\aA\xc3\xa9\x01\\q");
	split("echo $'\\x'");
	CHECK_STR(L.v[1].text, "\\x");
	split("echo $'rm\\0x'");
	CHECK_INT(L.v[1].textlen, 4);
	CHECK_STR(L.v[1].text, "rm");
}

static void
t_empty_quotes_join(void)
{
	split("r''m -f x");
	CHECK_STR(dump(), "W[rm] W[-f] W[x]");
	HAS(0, SHW_SQUOTE);
	HASNOT(0, SHW_FULLQUOTE);
	SPAN(0, 0, 4);
	split("\"\"");
	CHECK_INT(L.n, 1);
	CHECK_STR(L.v[0].text, "");
	HAS(0, SHW_DQUOTE | SHW_FULLQUOTE);
	split("r\"\"m");
	CHECK_STR(L.v[0].text, "rm");
}

static void
t_leadbslash(void)
{
	split("\\rm -rf x");
	CHECK_STR(dump(), "W[rm] W[-rf] W[x]");
	HAS(0, SHW_LEADBSLASH | SHW_ESCAPE);
	CHECK_STR(L.v[0].raw, "\\rm");
	split("r\\m");
	CHECK_STR(L.v[0].text, "rm");
	HAS(0, SHW_ESCAPE);
	HASNOT(0, SHW_LEADBSLASH);
}

static void
t_escape_space(void)
{
	split("cat a\\ b\\;c");
	CHECK_STR(dump(), "W[cat] W[a b;c]");
	HAS(1, SHW_ESCAPE);
}

static void
t_continuation(void)
{
	split("ec\\\nho hi \\\n there");
	CHECK_STR(dump(), "W[echo] W[hi] W[there]");
	SPAN(0, 0, 6);
	HASNOT(0, SHW_ESCAPE | SHW_LEADBSLASH);
	CHECK(L.flags & SHL_MULTILINE);
	split("echo \"a\\\nb\"");
	CHECK_STR(L.v[1].text, "ab");
}

static void
t_pipe(void)
{
	split("cat f|grep x |& wc -l");
	CHECK_STR(dump(), "W[cat] W[f] O[|] W[grep] W[x] O[|&] W[wc] W[-l]");
	CHECK(L.flags & SHL_PIPE);
	CHECK_INT(L.v[2].kind, SHTOK_OP);
	SPAN(2, 5, 6);
	SPAN(5, 13, 15);
}

static void
t_operators(void)
{
	split("a&&b||c;d&e;;f;&g;;&h");
	CHECK_STR(dump(), "W[a] O[&&] W[b] O[||] W[c] O[;] W[d] O[&] W[e] "
	    "O[;;] W[f] O[;&] W[g] O[;;&] W[h]");
	CHECK(L.flags & SHL_AND);
	CHECK(L.flags & SHL_OR);
	CHECK(L.flags & SHL_SEQ);
	CHECK(L.flags & SHL_BG);
	CHECK(!(L.flags & SHL_PIPE));
}

static void
t_seq_trailing(void)
{
	split("ls;");
	CHECK_STR(dump(), "W[ls] O[;]");
	CHECK(!(L.flags & SHL_SEQ));
	split("ls\n");
	CHECK_STR(dump(), "W[ls] O[\\n]");
	CHECK(!(L.flags & SHL_SEQ));
	CHECK(!(L.flags & SHL_MULTILINE));
	split("sleep 1 &");
	CHECK(L.flags & SHL_BG);
}

static void
t_newline_op(void)
{
	split("a\nb\n\nc");
	CHECK_STR(dump(), "W[a] O[\\n] W[b] O[\\n] O[\\n] W[c]");
	CHECK_STR(L.v[1].text, "\n");
	CHECK(L.flags & SHL_SEQ);
	CHECK(L.flags & SHL_MULTILINE);
}

static void
t_redir_basic(void)
{
	split("echo hi > out.txt");
	CHECK_STR(dump(), "W[echo] W[hi] R[>] W[out.txt]");
	CHECK_INT(L.v[2].fd, -1);
	CHECK(L.flags & SHL_REDIR);
	split("echo hi>out.txt");
	CHECK_STR(dump(), "W[echo] W[hi] R[>] W[out.txt]");
	SPAN(2, 7, 8);
	split("sort <in >>log <>rw >|clob");
	CHECK_STR(dump(), "W[sort] R[<] W[in] R[>>] W[log] R[<>] W[rw] "
	    "R[>|] W[clob]");
}

static void
t_redir_dup(void)
{
	split("make 2>&1 | tee log");
	CHECK_STR(dump(), "W[make] R[>&1] O[|] W[tee] W[log]");
	CHECK_STR(L.v[1].raw, "2>&1");
	CHECK_INT(L.v[1].fd, 2);
	HAS(1, SHR_DUP);
	SPAN(1, 5, 9);
	split("cmd 1>&- >&2 <&3");
	CHECK_STR(dump(), "W[cmd] R[>&-] R[>&2] R[<&3]");
	CHECK_INT(L.v[1].fd, 1);
	CHECK_INT(L.v[2].fd, -1);
	split("cmd >& file");
	CHECK_STR(dump(), "W[cmd] R[>&] W[file]");
	HASNOT(1, SHR_DUP);
}

static void
t_redir_amp(void)
{
	split("cmd &>/dev/null");
	CHECK_STR(dump(), "W[cmd] R[&>] W[/dev/null]");
	CHECK(!(L.flags & SHL_BG));
	split("cmd &>>log");
	CHECK_STR(dump(), "W[cmd] R[&>>] W[log]");
}

static void
t_redir_fd(void)
{
	split("cmd 2> err 2>>err2 10<in {fd}>out");
	CHECK_STR(dump(), "W[cmd] R[>] W[err] R[>>] W[err2] R[<] W[in] "
	    "R[>] W[out]");
	CHECK_INT(L.v[1].fd, 2);
	CHECK_STR(L.v[1].raw, "2>");
	CHECK_INT(L.v[5].fd, 10);
	CHECK_STR(L.v[7].raw, "{fd}>");
	CHECK_INT(L.v[7].fd, -1);
	split("echo a2>x");
	CHECK_STR(dump(), "W[echo] W[a2] R[>] W[x]");
	CHECK_INT(L.v[2].fd, -1);
}

static void
t_herestring(void)
{
	split("cat <<< \"str $x\"");
	CHECK_STR(dump(), "W[cat] R[<<<] W[str $x]");
	HAS(2, SHW_DQUOTE | SHW_VAR);
	CHECK(!(L.flags & SHL_HEREDOC));
}

static void
t_heredoc(void)
{
	const char *in = "cat <<EOF\nhello $USER\nworld\nEOF\necho done";

	split(in);
	CHECK_STR(dump(), "W[cat] R[<<] W[EOF] O[\\n] "
	    "H[hello $USER\\nworld\\n] W[echo] W[done]");
	CHECK(L.flags & SHL_HEREDOC);
	CHECK(L.flags & SHL_REDIR);
	CHECK(L.flags & SHL_MULTILINE);
	CHECK(!(L.flags & SHL_UNTERMINATED));
	CHECK_INT(L.v[4].kind, SHTOK_HEREDOC);
	SPAN(4, 10, 28);
	HAS(4, SHW_VAR);
	HASNOT(4, SHW_HDQUOTED);
	check_spans(in, strlen(in));
}

static void
t_heredoc_quoted(void)
{
	split("cat <<'EOF'\n$(rm -rf /)\nEOF\n");
	CHECK_STR(dump(), "W[cat] R[<<] W[EOF] O[\\n] H[$(rm -rf /)\\n]");
	HAS(4, SHW_HDQUOTED);
	HASNOT(4, SHW_CMDSUB);
	CHECK_STR(subs(4), "");
	split("cat <<\"E F\"\nx\nE F\n");
	CHECK_STR(dump(), "W[cat] R[<<] W[E F] O[\\n] H[x\\n]");
	split("cat <<\\EOF\nx\nEOF");
	CHECK_STR(dump(), "W[cat] R[<<] W[EOF] O[\\n] H[x\\n]");
	HAS(4, SHW_HDQUOTED);
}

static void
t_heredoc_unquoted_cmdsub(void)
{
	split("cat <<EOF\nit's $(rm -rf ~)\nEOF");
	HAS(4, SHW_CMDSUB);
	CHECK(L.flags & SHL_CMDSUB);
	CHECK_STR(subs(4), "rm -rf ~");
}

static void
t_heredoc_strip(void)
{
	split("cat <<-END\n\t\tone\n\ttwo\n\tEND\nls");
	CHECK_STR(dump(), "W[cat] R[<<-] W[END] O[\\n] H[one\\ntwo\\n] W[ls]");
	CHECK_STR(L.v[4].raw, "\t\tone\n\ttwo\n");
	split("cat <<END\n\tEND\nEND\n");
	CHECK_STR(L.v[4].text, "\tEND\n");
}

static void
t_heredoc_two(void)
{
	const char *in = "cat <<A; cat <<'B' | wc\na1\nA\nb1\nb2\nB\necho x";

	split(in);
	CHECK_STR(dump(), "W[cat] R[<<] W[A] O[;] W[cat] R[<<] W[B] O[|] "
	    "W[wc] O[\\n] H[a1\\n] H[b1\\nb2\\n] W[echo] W[x]");
	HASNOT(10, SHW_HDQUOTED);
	HAS(11, SHW_HDQUOTED);
	check_spans(in, strlen(in));
	CHECK_STR(cmds(in), ";cat;1;;;0 / ;cat;1;|;0 / ;wc;0;\\n;1 / "
	    ";echo x;0;;0");
}

static void
t_heredoc_unterminated(void)
{
	split("cat <<EOF\nline");
	CHECK_STR(dump(), "W[cat] R[<<] W[EOF] O[\\n] H[line]");
	CHECK(L.flags & SHL_UNTERMINATED);
	split("cat <<EOF");
	CHECK(L.flags & SHL_UNTERMINATED);
	CHECK(L.flags & SHL_HEREDOC);
	CHECK_INT(L.n, 3);
}

static void
t_cmdsub(void)
{
	split("echo $(date +%s) `whoami`");
	CHECK_STR(dump(), "W[echo] W[$(date +%s)] W[`whoami`]");
	HAS(1, SHW_CMDSUB);
	HAS(2, SHW_CMDSUB);
	CHECK(L.flags & SHL_CMDSUB);
	CHECK_STR(subs(1), "date +%s");
	CHECK_STR(subs(2), "whoami");
}

static void
t_cmdsub_nested(void)
{
	const char *in = "echo $(echo $(echo \"a)b\") ')' x)end next";

	split(in);
	CHECK_INT(L.n, 3);
	CHECK_STR(L.v[1].text, "$(echo $(echo \"a)b\") ')' x)end");
	CHECK_STR(subs(1), "echo $(echo \"a)b\") ')' x");
	CHECK_STR(L.v[2].text, "next");
	check_spans(in, strlen(in));
	split("echo $(echo $(echo a)) `b \\`c\\``");
	CHECK_STR(subs(1), "echo $(echo a)");
	CHECK_STR(subs(2), "b `c`");
}

static void
t_cmdsub_in_dquote(void)
{
	split("echo \"x $(echo \"in \\\"q\\\" side\") y\"");
	CHECK_INT(L.n, 2);
	CHECK_STR(L.v[1].text, "x $(echo \"in \\\"q\\\" side\") y");
	HAS(1, SHW_DQUOTE | SHW_CMDSUB | SHW_FULLQUOTE);
	CHECK_STR(subs(1), "echo \"in \\\"q\\\" side\"");
}

static void
t_cmdsub_heredoc(void)
{
	const char *in = "git commit -m \"$(cat <<'EOF'\nFix: it's (really) "
	    "broken\n\tEOF\nEOF\n)\" && echo ok";

	split(in);
	CHECK_INT(L.n, 7);
	CHECK_STR(L.v[3].raw, "\"$(cat <<'EOF'\nFix: it's (really) broken\n"
	    "\tEOF\nEOF\n)\"");
	HAS(3, SHW_DQUOTE | SHW_CMDSUB | SHW_FULLQUOTE);
	CHECK(!(L.flags & SHL_UNTERMINATED));
	CHECK_STR(subs(3), "cat <<'EOF'\\nFix: it's (really) broken\\n\\tEOF\\n"
	    "EOF\\n");
	CHECK_STR(cmds(in), ";git commit -m $(cat <<'EOF'\\nFix: it's (really) "
	    "broken\\n\\tEOF\\nEOF\\n);0;&&;0 / ;echo ok;0;;0");
	split("x=$(cat <<-E\n\t)\n\tE)\necho");
	CHECK_STR(dump(), "W[x=$(cat <<-E\\n\\t)\\n\\tE)] O[\\n] W[echo]");
}

static void
t_cmdsub_multiple(void)
{
	split("x$(a)y`b`<(c)$((1+$(d)))${v:-$(e)}'$(no)'");
	CHECK_INT(L.n, 1);
	CHECK_STR(subs(0), "a | b | c | d | e");
}

static void
t_procsub(void)
{
	split("diff <(ls a) >(tee b) x<(c)");
	CHECK_STR(dump(), "W[diff] W[<(ls a)] W[>(tee b)] W[x<(c)]");
	HAS(1, SHW_PROCSUB);
	HAS(2, SHW_PROCSUB);
	HAS(3, SHW_PROCSUB);
	CHECK(L.flags & SHL_CMDSUB);
	CHECK(!(L.flags & SHL_REDIR));
	CHECK_STR(subs(1), "ls a");
	CHECK_STR(subs(2), "tee b");
}

static void
t_arith(void)
{
	split("echo $((1 + (2*3))) $(( x )) done");
	CHECK_STR(dump(), "W[echo] W[$((1 + (2*3)))] W[$(( x ))] W[done]");
	HAS(1, SHW_ARITH);
	HASNOT(1, SHW_CMDSUB | SHW_GLOB);
	CHECK_STR(subs(1), "");
	split("echo $((echo a); (echo b))");
	CHECK_INT(L.n, 2);
	HAS(1, SHW_CMDSUB);
	HASNOT(1, SHW_ARITH);
	CHECK_STR(subs(1), "(echo a); (echo b)");
}

static void
t_arith_cmd(void)
{
	split("((i++)) && echo y");
	CHECK_STR(dump(), "W[((i++))] O[&&] W[echo] W[y]");
	HAS(0, SHW_ARITH);
	CHECK(!(L.flags & SHL_SUBSHELL));
	split("( (ls) )");
	CHECK_STR(dump(), "O[(] O[(] W[ls] O[)] O[)]");
	CHECK(L.flags & SHL_SUBSHELL);
	split("((ls) )");
	CHECK_STR(dump(), "O[(] O[(] W[ls] O[)] O[)]");
}

static void
t_var(void)
{
	split("echo $HOME ${x} $1 $@ $? $$ ${#a[@]} $ x$");
	CHECK_STR(dump(), "W[echo] W[$HOME] W[${x}] W[$1] W[$@] W[$?] W[$$] "
	    "W[${#a[@]}] W[$] W[x$]");
	HAS(1, SHW_VAR);
	HAS(7, SHW_VAR);
	HASNOT(7, SHW_GLOB);
	HASNOT(8, SHW_VAR);
	HASNOT(9, SHW_VAR);
}

static void
t_var_nested(void)
{
	split("echo ${x:-$(cmd ${y:-})} ${a:-{b}} tail");
	CHECK_STR(dump(), "W[echo] W[${x:-$(cmd ${y:-})}] W[${a:-{b}}] W[tail]");
	HAS(1, SHW_VAR);
	CHECK_STR(subs(1), "cmd ${y:-}");
}

static void
t_glob(void)
{
	split("rm *.txt file? [abc].c a[1] '*' \"?\" \\*");
	HAS(1, SHW_GLOB);
	HAS(2, SHW_GLOB);
	HAS(3, SHW_GLOB);
	HAS(4, SHW_GLOB);
	HASNOT(5, SHW_GLOB);
	HASNOT(6, SHW_GLOB);
	HASNOT(7, SHW_GLOB);
	CHECK_STR(L.v[7].text, "*");
	CHECK(L.flags & SHL_GLOB);
	split("echo [ x ] [a");
	HASNOT(1, SHW_GLOB);
	HASNOT(3, SHW_GLOB);
	HASNOT(4, SHW_GLOB);
	CHECK(!(L.flags & SHL_GLOB));
}

static void
t_extglob(void)
{
	split("ls !(*.c|*.h) @(a|b) +(x) ?(y) *(z)");
	CHECK_STR(dump(), "W[ls] W[!(*.c|*.h)] W[@(a|b)] W[+(x)] W[?(y)] "
	    "W[*(z)]");
	HAS(1, SHW_GLOB);
	HAS(2, SHW_GLOB);
	HAS(5, SHW_GLOB);
	CHECK(!(L.flags & SHL_PIPE));
}

static void
t_brace(void)
{
	split("echo {a,b} x{1..3}y {} {a} '{a,b}' { ${x}");
	HAS(1, SHW_BRACE);
	HAS(2, SHW_BRACE);
	HASNOT(3, SHW_BRACE);
	HASNOT(4, SHW_BRACE);
	HASNOT(5, SHW_BRACE);
	HASNOT(6, SHW_BRACE);
	HASNOT(7, SHW_BRACE);
	split("cp f{,.bak}");
	HAS(1, SHW_BRACE);
	CHECK_STR(L.v[1].text, "f{,.bak}");
}

static void
t_tilde(void)
{
	split("cd ~ ~/x ~user a~ '~' \\~");
	HAS(1, SHW_TILDE);
	HAS(2, SHW_TILDE);
	HAS(3, SHW_TILDE);
	HASNOT(4, SHW_TILDE);
	HASNOT(5, SHW_TILDE);
	HASNOT(6, SHW_TILDE);
}

static void
t_assign(void)
{
	split("FOO=1 BAR+=x arr[2]=y a[$i+1]=z cmd X=2");
	CHECK_INT(L.n, 6);
	HAS(0, SHW_ASSIGN);
	HAS(1, SHW_ASSIGN);
	HAS(2, SHW_ASSIGN);
	HASNOT(2, SHW_GLOB);
	HAS(3, SHW_ASSIGN | SHW_VAR);
	HASNOT(4, SHW_ASSIGN);
	HASNOT(5, SHW_ASSIGN);
	CHECK_STR(cmds("FOO=1 BAR+=x arr[2]=y cmd X=2"),
	    "FOO=1 BAR+=x arr[2]=y;cmd X=2;0;;0");
}

static void
t_assign_not(void)
{
	split("echo a=b");
	HASNOT(1, SHW_ASSIGN);
	split("1a=b =x 'A'=b a-b=c");
	HASNOT(0, SHW_ASSIGN);
	HASNOT(1, SHW_ASSIGN);
	HASNOT(2, SHW_ASSIGN);
	HASNOT(3, SHW_ASSIGN);
	split("ls; A=b; echo x | B=c d");
	HAS(2, SHW_ASSIGN);
	HAS(7, SHW_ASSIGN);
	split("> f A=1 cmd");
	HASNOT(1, SHW_ASSIGN);
	HAS(2, SHW_ASSIGN);
}

static void
t_assign_values(void)
{
	split("A=*.c B={a,b} C=\"x y\" D=$(pwd) E=~/bin");
	CHECK_INT(L.n, 5);
	HASNOT(0, SHW_GLOB);
	HASNOT(1, SHW_BRACE);
	CHECK_STR(L.v[2].text, "C=x y");
	HAS(2, SHW_DQUOTE | SHW_ASSIGN);
	HASNOT(2, SHW_FULLQUOTE);
	HAS(3, SHW_CMDSUB | SHW_ASSIGN);
	HAS(4, SHW_TILDE | SHW_ASSIGN);
	split("arr=(a b $(c)) cmd");
	CHECK_STR(dump(), "W[arr=(a b $(c))] W[cmd]");
	HAS(0, SHW_ASSIGN);
	CHECK_STR(subs(0), "c");
}

static void
t_comment(void)
{
	split("ls # rm -rf /\necho a#b #c");
	CHECK_STR(dump(), "W[ls] O[\\n] W[echo] W[a#b]");
	split("# only a comment");
	CHECK_INT(L.n, 0);
	split("echo '#x' \"#y\" \\#z");
	CHECK_STR(dump(), "W[echo] W[#x] W[#y] W[#z]");
}

static void
t_group_words(void)
{
	split("{ ls; } && ( cd x )");
	CHECK_STR(dump(), "W[{] W[ls] O[;] W[}] O[&&] O[(] W[cd] W[x] O[)]");
	CHECK(L.flags & SHL_SUBSHELL);
	split("echo { }");
	CHECK(!(L.flags & SHL_SUBSHELL));
}

static void
t_unterminated_squote(void)
{
	split("echo 'abc def");
	CHECK_INT(L.n, 2);
	CHECK_STR(L.v[1].text, "abc def");
	CHECK(L.flags & SHL_UNTERMINATED);
	HASNOT(1, SHW_FULLQUOTE);
	SPAN(1, 5, 13);
}

static void
t_unterminated_other(void)
{
	split("echo \"abc");
	CHECK(L.flags & SHL_UNTERMINATED);
	CHECK_STR(L.v[1].text, "abc");
	split("echo $(ls");
	CHECK(L.flags & SHL_UNTERMINATED);
	CHECK_STR(subs(1), "ls");
	split("echo `ls");
	CHECK(L.flags & SHL_UNTERMINATED);
	split("echo ${x");
	CHECK(L.flags & SHL_UNTERMINATED);
	split("echo $'ab");
	CHECK(L.flags & SHL_UNTERMINATED);
	CHECK_STR(L.v[1].text, "ab");
	split("echo ok");
	CHECK(!(L.flags & SHL_UNTERMINATED));
	split("echo trailing\\");
	CHECK_STR(L.v[1].text, "trailing\\");
}

static void
t_multiline_quote(void)
{
	const char *in = "echo 'a\nb' \"c\nd\"";

	split(in);
	CHECK_STR(dump(), "W[echo] W[a\\nb] W[c\\nd]");
	CHECK(L.flags & SHL_MULTILINE);
	check_spans(in, strlen(in));
}

static void
t_nul_bytes(void)
{
	static const char in[] = "echo a\0b 'c\0d' x";

	splitn(in, sizeof in - 1);
	CHECK_INT(L.n, 4);
	SPAN(1, 5, 8);
	CHECK_INT(L.v[1].textlen, 3);
	CHECK(memcmp(L.v[1].text, "a\0b", 3) == 0);
	CHECK(memcmp(L.v[1].raw, "a\0b", 3) == 0);
	CHECK_INT(L.v[2].textlen, 3);
	CHECK_STR(L.v[3].text, "x");
	check_spans(in, sizeof in - 1);
}

static void
t_invalid_utf8(void)
{
	static const char in[] = "echo \xff\xfe \"\xc3(\" \xe2\x82";

	split(in);
	CHECK_INT(L.n, 4);
	CHECK_STR(L.v[1].text, "\xff\xfe");
	CHECK_STR(L.v[2].text, "\xc3(");
	CHECK_STR(L.v[3].text, "\xe2\x82");
	check_spans(in, strlen(in));
	split("echo h\xc3\xa9llo");
	CHECK_STR(L.v[1].text, "h\xc3\xa9llo");
}

static void
t_truncated(void)
{
	size_t	 n = SHTOK_MAX_INPUT + 100;
	char	*s = xmalloc(n);

	memset(s, 'a', n);
	s[10] = ' ';
	splitn(s, n);
	CHECK(L.flags & SHL_TRUNCATED);
	CHECK_INT(L.n, 2);
	CHECK_INT(L.v[1].end, SHTOK_MAX_INPUT);
	free(s);
	split("short");
	CHECK(!(L.flags & SHL_TRUNCATED));
}

static double
now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Tokenize a 64 KiB string made of pattern repeated; return seconds. */
static double
hostile(const char *pattern)
{
	size_t		 n = 64 * 1024, plen = strlen(pattern), i;
	char		*s = xmalloc(n);
	double		 t0;
	struct shtok_cmds c = SHTOK_CMDS_INIT;
	char		**v = NULL;
	size_t		 nv = 0;

	for (i = 0; i < n; i++)
		s[i] = pattern[i % plen];
	t0 = now();
	splitn(s, n);
	shtok_commands(&L, &c);
	for (i = 0; i < L.n && i < 64; i++)
		shtok_substitutions(&L.v[i], &v, &nv);
	check_spans(s, n);
	for (i = 0; i < nv; i++)
		free(v[i]);
	free(v);
	shtok_cmds_release(&c);
	free(s);
	return now() - t0;
}

static void
t_hostile(void)
{
	static const char *patterns[] = {
		"$(", "'", "\"", "`", "((", "$((", "${", "\"$(", "<(", "{",
		"[", "a=(", "\\", "<<", "<<a\n", "$'", "!(", ")", "|", "#",
		"case x in ", "for ", "f() { ", "{a,", "a[", "$(($((\n",
		"\"$(\"$((", "(( (( ) ", "x) ", "$(( ( ",
	};
	size_t	i;
	double	t;

	for (i = 0; i < sizeof patterns / sizeof patterns[0]; i++) {
		t = hostile(patterns[i]);
		if (t > 0.25)
			fprintf(stderr, "slow pattern '%s': %.3fs\n",
			    patterns[i], t);
		CHECK(t < 0.25);
	}
	hostile("$(");
	CHECK(L.flags & SHL_UNTERMINATED);
	CHECK_INT(L.n, 1);
}

static void
t_deep_nesting(void)
{
	struct buf	b = BUF_INIT;
	int		i;

	for (i = 0; i < 40; i++)
		buf_adds(&b, "$(echo ");
	buf_adds(&b, "x");
	for (i = 0; i < 40; i++)
		buf_addc(&b, ')');
	buf_adds(&b, " tail");
	split(b.data);
	CHECK_INT(L.n, 2);
	CHECK_STR(L.v[1].text, "tail");
	CHECK(!(L.flags & SHL_UNTERMINATED));
	buf_release(&b);
}

static void
t_spans_mixed(void)
{
	const char *in = "FOO=\"a b\" \\ls -l $'x' 2>&1 >f|grep -v '^#' &&"
	    " echo \"$(date)\" <(x) ; cat <<E\nbody\nE\n(( 1 )) # c";

	split(in);
	check_spans(in, strlen(in));
	CHECK(L.n > 15);
}

static void
t_cmds_andor(void)
{
	CHECK_STR(cmds("a && b || c; d | e &"),
	    ";a;0;&&;0 / ;b;0;||;0 / ;c;0;;;0 / ;d;0;|;0 / ;e;0;&;1");
}

static void
t_cmds_pipeline_redirs(void)
{
	CHECK_STR(cmds("cat < in 2>&1 | sort -u > out"),
	    ";cat;2;|;0 / ;sort -u;1;;1");
	CHECK_INT(C.v[0].first, 0);
	CHECK_INT(C.v[0].n, 4);
	CHECK_INT(C.v[1].first, 5);
	CHECK_INT(C.v[1].n, 4);
	CHECK_STR(cmds("> out"), ";;1;;0");
	CHECK_STR(cmds("ls |\n wc"), ";ls;0;|;0 / ;wc;0;;1");
}

static void
t_cmds_for(void)
{
	CHECK_STR(cmds("for i in 1 2 3; do echo $i; done"),
	    ";echo $i;0;;;0");
	CHECK_STR(cmds("for f in *.c\ndo\n  rm \"$f\"\ndone > log"),
	    ";rm $f;0;\\n;0");
	CHECK_STR(cmds("for ((i=0; i<3; i++)); do x; done"), ";x;0;;;0");
	CHECK_STR(cmds("select x in a b; do y; done"), ";y;0;;;0");
}

static void
t_cmds_while(void)
{
	CHECK_STR(cmds("while read l; do rm \"$l\"; done < list"),
	    ";read l;0;;;0 / ;rm $l;0;;;0");
	CHECK_STR(cmds("until false; do :; done &"),
	    ";false;0;;;0 / ;:;0;;;0");
}

static void
t_cmds_if(void)
{
	CHECK_STR(cmds("if [ -f x ]; then rm x; elif true; then :; "
	    "else echo no; fi"),
	    ";[ -f x ];0;;;0 / ;rm x;0;;;0 / ;true;0;;;0 / ;:;0;;;0 / "
	    ";echo no;0;;;0");
	CHECK_STR(cmds("! grep -q x f"), ";grep -q x f;0;;0");
}

static void
t_cmds_case(void)
{
	CHECK_STR(cmds("case $x in a|b) rm -f a;; (c) echo c ;& *) ls\n"
	    "esac; after"),
	    ";rm -f a;0;;;;0 / ;echo c;0;;&;0 / ;ls;0;\\n;0 / ;after;0;;0");
	CHECK_STR(cmds("case x in\n  y) case z in z) inner;; esac;;\n"
	    "  q) outer;;\nesac"),
	    ";inner;0;;;;0 / ;outer;0;;;;0");
}

static void
t_cmds_function(void)
{
	CHECK_STR(cmds("f() { rm -rf x; }"), ";rm -rf x;0;;;0");
	CHECK_INT(C.nfuncs, 1);
	CHECK_INT(C.funcs[0], 0);
	CHECK_STR(cmds("function g { ls; }; g"), ";ls;0;;;0 / ;g;0;;0");
	CHECK_INT(C.nfuncs, 1);
	CHECK_STR(L.v[C.funcs[0]].text, "g");
	CHECK_STR(cmds("function h() ( pwd ); rm() { :; }"),
	    ";pwd;0;;;0 / ;:;0;;;0");
	CHECK_INT(C.nfuncs, 2);
	CHECK_STR(L.v[C.funcs[0]].text, "h");
	CHECK_STR(L.v[C.funcs[1]].text, "rm");
	CHECK_STR(cmds("echo (x)"), ";echo;0;;0 / ;x;0;;0");
}

static void
t_cmds_subshell_group(void)
{
	CHECK_STR(cmds("(cd /tmp && rm -rf x) | wc"),
	    ";cd /tmp;0;&&;0 / ;rm -rf x;0;|;0 / ;wc;0;;1");
	CHECK_STR(cmds("{ a; b; } > out"), ";a;0;;;0 / ;b;0;;;0");
	CHECK_STR(cmds("echo $(rm x) {a,b}"), ";echo $(rm x) {a,b};0;;0");
}

static void
t_cmds_assign_reserved(void)
{
	CHECK_STR(cmds("A=1 B=2"), "A=1 B=2;;0;;0");
	CHECK_STR(cmds("echo if then fi"), ";echo if then fi;0;;0");
	CHECK_STR(cmds("'if' x"), ";if x;0;;0");
	CHECK_STR(cmds("X=1 env Y=2"), "X=1;env Y=2;0;;0");
}

static void
t_cmds_heredoc(void)
{
	const char *in = "cat <<EOF > out\nbody\nEOF\nrm x";

	CHECK_STR(cmds(in), ";cat;2;\\n;0 / ;rm x;0;;0");
	CHECK_INT(C.v[1].first, 7);
}

static void
t_substitutions_append(void)
{
	char	**v = NULL;
	size_t	  n = 0;

	split("$(a) $(b)");
	shtok_substitutions(&L.v[0], &v, &n);
	shtok_substitutions(&L.v[1], &v, &n);
	CHECK_INT(n, 2);
	CHECK_STR(v[0], "a");
	CHECK_STR(v[1], "b");
	free(v[0]);
	free(v[1]);
	free(v);
	split("a > b");
	CHECK_STR(subs(1), "");
	split("echo \"<(no)\" \\$(no) $'$(no)'");
	CHECK_STR(subs(1), "");
	CHECK_STR(subs(2), "");
	CHECK_STR(subs(3), "");
}

static void
t_zsh_words(void)
{
	split("print -l ${(f)x} =(ls) a=(1 2)");
	CHECK_STR(dump(), "W[print] W[-l] W[${(f)x}] W[=] O[(] W[ls] O[)] "
	    "W[a=(1 2)]");
	split("print a=(1 2)");
	CHECK_STR(dump(), "W[print] W[a=] O[(] W[1] W[2] O[)]");
}

int
main(void)
{
	RUN(t_simple);
	RUN(t_empty);
	RUN(t_squote);
	RUN(t_squote_escape);
	RUN(t_dquote);
	RUN(t_dquote_var);
	RUN(t_squote_novar);
	RUN(t_ansic_hex);
	RUN(t_ansic_escapes);
	RUN(t_empty_quotes_join);
	RUN(t_leadbslash);
	RUN(t_escape_space);
	RUN(t_continuation);
	RUN(t_pipe);
	RUN(t_operators);
	RUN(t_seq_trailing);
	RUN(t_newline_op);
	RUN(t_redir_basic);
	RUN(t_redir_dup);
	RUN(t_redir_amp);
	RUN(t_redir_fd);
	RUN(t_herestring);
	RUN(t_heredoc);
	RUN(t_heredoc_quoted);
	RUN(t_heredoc_unquoted_cmdsub);
	RUN(t_heredoc_strip);
	RUN(t_heredoc_two);
	RUN(t_heredoc_unterminated);
	RUN(t_cmdsub);
	RUN(t_cmdsub_nested);
	RUN(t_cmdsub_in_dquote);
	RUN(t_cmdsub_heredoc);
	RUN(t_cmdsub_multiple);
	RUN(t_procsub);
	RUN(t_arith);
	RUN(t_arith_cmd);
	RUN(t_var);
	RUN(t_var_nested);
	RUN(t_glob);
	RUN(t_extglob);
	RUN(t_brace);
	RUN(t_tilde);
	RUN(t_assign);
	RUN(t_assign_not);
	RUN(t_assign_values);
	RUN(t_comment);
	RUN(t_group_words);
	RUN(t_unterminated_squote);
	RUN(t_unterminated_other);
	RUN(t_multiline_quote);
	RUN(t_nul_bytes);
	RUN(t_invalid_utf8);
	RUN(t_truncated);
	RUN(t_hostile);
	RUN(t_deep_nesting);
	RUN(t_spans_mixed);
	RUN(t_cmds_andor);
	RUN(t_cmds_pipeline_redirs);
	RUN(t_cmds_for);
	RUN(t_cmds_while);
	RUN(t_cmds_if);
	RUN(t_cmds_case);
	RUN(t_cmds_function);
	RUN(t_cmds_subshell_group);
	RUN(t_cmds_assign_reserved);
	RUN(t_cmds_heredoc);
	RUN(t_substitutions_append);
	RUN(t_zsh_words);
	shtok_list_release(&L);
	shtok_cmds_release(&C);
	free(dumped);
	return harness_done();
}
