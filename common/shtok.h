/*
 * A shell-word tokenizer for bash/zsh command lines.  It never expands or
 * executes anything: it splits a line into words, operators, redirections
 * and here-document bodies the way the shell's parser would, and records
 * what each word contains (quotes, $VAR, $(...), globs, assignments).
 *
 * Contract:
 *  - shtok_split() never fails on odd input.  Unterminated quotes or
 *    substitutions produce a best-effort result with SHL_UNTERMINATED set.
 *  - Every token keeps its byte span [start, end) in the input, so callers
 *    (the redactor, the classifier) can rewrite the line in place.
 *  - Inputs longer than SHTOK_MAX_INPUT bytes are cut at that length and
 *    SHL_TRUNCATED is set.
 */
#ifndef SHTOK_H
#define SHTOK_H

#include <stddef.h>

#define SHTOK_MAX_INPUT		(256 * 1024)
#define SHTOK_MAX_DEPTH		16	/* nesting of $( ` ( { */

enum shtok_kind {
	SHTOK_WORD,		/* a word, possibly quoted */
	SHTOK_OP,		/* | |& || && ; ;; & ( ) newline */
	SHTOK_REDIR,		/* > >> < << <<< <<- <> >| &> &>> >& <& 2> 2>&1 ... */
	SHTOK_HEREDOC,		/* the body of a here-document (data); its
				   span covers the body lines only, not the
				   terminator line; it follows the newline
				   operator that ends the line naming it */
};

/* Word flags. */
#define SHW_SQUOTE	0x0001	/* contains '...' */
#define SHW_DQUOTE	0x0002	/* contains "..." */
#define SHW_ANSIC	0x0004	/* contains $'...' */
#define SHW_ESCAPE	0x0008	/* contains a backslash escape outside quotes */
#define SHW_VAR		0x0010	/* contains $NAME, ${...}, $1, $@ ... (not in '') */
#define SHW_CMDSUB	0x0020	/* contains $(...) or `...` (not in '') */
#define SHW_ARITH	0x0040	/* contains $((...)) */
#define SHW_GLOB	0x0080	/* unquoted * ? [...] or extglob */
#define SHW_BRACE	0x0100	/* unquoted brace expansion {a,b} or {1..3} */
#define SHW_TILDE	0x0200	/* leading unquoted ~ */
#define SHW_ASSIGN	0x0400	/* NAME=value or NAME+=value in assignment position */
#define SHW_PROCSUB	0x0800	/* <(...) or >(...) */
#define SHW_FULLQUOTE	0x1000	/* the whole word is one quoted string */
#define SHW_LEADBSLASH	0x2000	/* starts with a backslash: \rm */
#define SHW_HDQUOTED	0x4000	/* HEREDOC: the delimiter was quoted, so the
				   body is literal (no $ or ` expansion) */

/* Redirection flags (in the flags of a SHTOK_REDIR token). */
#define SHR_DUP		0x8000	/* carries its own target: 2>&1 >&2 <&- ...;
				   no target word follows */

/* List flags (the union of what the line contains). */
#define SHL_PIPE	0x0001	/* | or |& */
#define SHL_REDIR	0x0002	/* any redirection, including here-docs */
#define SHL_GLOB	0x0004
#define SHL_VAR		0x0008
#define SHL_CMDSUB	0x0010	/* $(...) `...` <(...) >(...) */
#define SHL_AND		0x0020	/* && */
#define SHL_OR		0x0040	/* || */
#define SHL_SEQ		0x0080	/* ; or newline between commands */
#define SHL_BG		0x0100	/* & */
#define SHL_HEREDOC	0x0200
#define SHL_SUBSHELL	0x0400	/* ( ... ) or { ...; } group */
#define SHL_UNTERMINATED 0x1000
#define SHL_TRUNCATED	0x2000
#define SHL_MULTILINE	0x4000

struct shtok_token {
	enum shtok_kind	 kind;
	char		*raw;		/* the bytes as typed */
	char		*text;		/* words: quotes removed, escapes applied
					   ($'...' decoded), no expansion;
					   ops/redirs: the operator, without
					   any fd prefix ("2>&1" gives ">&1",
					   "2>" gives ">"); heredoc: body */
	unsigned	 flags;		/* SHW_* for words */
	size_t		 start, end;	/* byte span of raw in the input */
	int		 fd;		/* REDIR: explicit fd number, else -1 */
	size_t		 textlen;	/* length of text (it may hold NULs) */
};

struct shtok_list {
	struct shtok_token	*v;
	size_t			 n;
	size_t			 alloc;
	unsigned		 flags;	/* SHL_* */
};

#define SHTOK_LIST_INIT { NULL, 0, 0, 0 }

/*
 * A simple command: tokens [first, first + n) of a list, between control
 * operators.  Assignments come first (nassign of them), then the words of
 * argv.  Redirections and their targets are skipped in argv but counted.
 */
struct shtok_cmd {
	size_t		 first;		/* index of first token */
	size_t		 n;		/* number of tokens */
	size_t		*assign;	/* token indices of leading NAME=value */
	size_t		 nassign;
	size_t		*argv;		/* token indices of argv words, in order */
	size_t		 nargv;
	size_t		 nredir;
	const char	*sep;		/* the operator that ends it: "|", "&&",
					   ";", "&", "\n", or "" at the end */
	int		 piped_in;	/* preceded by | */
};

struct shtok_cmds {
	struct shtok_cmd	*v;
	size_t			 n;
	size_t			*funcs;	/* token indices of the names of
					   function definitions ("f() ..."
					   and "function f ..."), which are
					   not commands themselves */
	size_t			 nfuncs;
};

#define SHTOK_CMDS_INIT { NULL, 0, NULL, 0 }

/* Tokenize len bytes of line into list (which must be initialised). */
void	shtok_split(const char *line, size_t len, struct shtok_list *list);

/*
 * Split a token list into simple commands.  "( ... )" and "{ ...; }"
 * group markers and the reserved words of compound commands (if then
 * else elif fi for while until do done case esac in function select) are
 * not commands: the commands inside them are listed in order.
 */
void	shtok_commands(const struct shtok_list *list, struct shtok_cmds *cmds);

/*
 * The bodies of the command substitutions, process substitutions and
 * backquotes found directly in a word's raw text, as new strings appended
 * to *ret (an array of n strings, caller frees each and the array).
 */
void	shtok_substitutions(const struct shtok_token *word, char ***ret,
	    size_t *n);

void	shtok_list_release(struct shtok_list *);
void	shtok_cmds_release(struct shtok_cmds *);

#endif
