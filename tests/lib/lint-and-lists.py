#!/usr/bin/env python3
"""Find && lists whose failure nobody sees, in the shell tests.

A test body runs under `set -e` (tests/lib/test-lib.sh), but bash ignores
set -e for every command of an `a && b && c` list except the last.  So in

	foo &&
	bar
	more_checks

a failing foo makes the list return non-zero, set -e does not stop, and
the test passes if more_checks does.  This checker reports, as
FILE:LINE, in the single-quoted bodies given to test_expect_success and
in every function body `name() { ... }`:

  - an && list that is followed by another command of its body (or whose
    status is otherwise lost: the last command of an if/loop/{ } body
    that is itself followed by more), unless it ends with a guard
    (`|| return 1`, `|| exit 1`, `|| return`, `|| false`, `|| die ...`,
    `|| { ...; exit 1; }`), runs in the background (`&`), is followed by
    a command that reads `$?` (`...; rc=$?`), or ends with break,
    continue, return or exit (`[ "$n" -ge 3 ] && break` is a condition,
    not an assertion);
  - `a && b || cmd` where cmd is not such a guard (and does not save
    `$?`): cmd runs whenever a or b fails, so `|| true` there (or
    another check) swallows every failure before it.

Lists that are the condition of if/while/until, and anything inside
$(...), are not looked at.  Top-level code (outside test bodies and
functions) runs without set -e and is not checked either.

It is a small, conservative parser for the shell these files are written
in (quotes, $(...), ${...}, here-documents, if/for/while/until/case,
{ }, ( ), functions), not for all of bash.

Usage: lint-and-lists.py [FILE...]
With no FILE it checks tests/integration/*.sh and *.inc,
tests/preload/*.sh and tests/lib/*.sh.  Exit status: 0 when clean, 1 when
something was found, 2 when a file could not be read or parsed.
"""

import glob
import os
import re
import sys

RESERVED_END = {"}", ")", "fi", "then", "elif", "else", "do", "done",
                "esac", ";;", ";&", ";;&"}
GUARD_WORDS = {"return", "exit", "false", "die"}
FLOW_WORDS = {"break", "continue", "return", "exit"}


class ParseError(Exception):
    pass


# ---------------------------------------------------------------- lexer

class Tok:
    __slots__ = ("kind", "text", "line")

    def __init__(self, kind, text, line):
        self.kind = kind    # WORD, OP, NL, REDIR, EOF
        self.text = text
        self.line = line

    def __repr__(self):
        return "%s(%r@%d)" % (self.kind, self.text, self.line)


class Lexer:
    def __init__(self, src, line0):
        self.s = src
        self.i = 0
        self.line = line0
        self.toks = []
        self.heredocs = []      # (delimiter, strip_tabs)

    def err(self, msg):
        raise ParseError("line %d: %s" % (self.line, msg))

    def peek(self, k=0):
        j = self.i + k
        return self.s[j] if j < len(self.s) else ""

    def adv(self, n=1):
        for _ in range(n):
            if self.i < len(self.s):
                if self.s[self.i] == "\n":
                    self.line += 1
                self.i += 1

    def emit(self, kind, text, line):
        self.toks.append(Tok(kind, text, line))

    def at_command_start(self):
        if not self.toks:
            return True
        t = self.toks[-1]
        if t.kind in ("NL",):
            return True
        if t.kind == "OP" and t.text != ")":
            return True
        if t.kind == "WORD" and t.text in ("if", "then", "elif", "else",
                                           "do", "while", "until", "!",
                                           "{"):
            return True
        return False

    # Skip a quoted or nested construct; i points at its first char.
    def skip_single(self):
        self.adv()                      # '
        while True:
            c = self.peek()
            if c == "":
                self.err("unterminated single quote")
            self.adv()
            if c == "'":
                return

    def skip_dollar_single(self):
        self.adv(2)                     # $'
        while True:
            c = self.peek()
            if c == "":
                self.err("unterminated $'")
            if c == "\\":
                self.adv(2)
                continue
            self.adv()
            if c == "'":
                return

    def skip_double(self):
        self.adv()                      # "
        while True:
            c = self.peek()
            if c == "":
                self.err("unterminated double quote")
            if c == "\\":
                self.adv(2)
            elif c == '"':
                self.adv()
                return
            elif c == "$" and self.peek(1) == "(":
                self.skip_dollar_paren()
            elif c == "$" and self.peek(1) == "{":
                self.skip_brace()
            elif c == "`":
                self.skip_backtick()
            else:
                self.adv()

    def skip_backtick(self):
        self.adv()
        while True:
            c = self.peek()
            if c == "":
                self.err("unterminated backtick")
            if c == "\\":
                self.adv(2)
                continue
            self.adv()
            if c == "`":
                return

    def skip_brace(self):
        self.adv(2)                     # ${
        depth = 1
        while depth:
            c = self.peek()
            if c == "":
                self.err("unterminated ${")
            if c == "\\":
                self.adv(2)
            elif c == "'":
                self.skip_single()
            elif c == '"':
                self.skip_double()
            elif c == "$" and self.peek(1) == "(":
                self.skip_dollar_paren()
            elif c == "$" and self.peek(1) == "{":
                self.adv(2)
                depth += 1
            elif c == "}":
                self.adv()
                depth -= 1
            else:
                self.adv()

    def skip_parens(self):
        """i at '(': skip to the matching ')' (command or arithmetic)."""
        depth = 0
        while True:
            c = self.peek()
            if c == "":
                self.err("unterminated (")
            if c == "\\":
                self.adv(2)
            elif c == "'":
                self.skip_single()
            elif c == '"':
                self.skip_double()
            elif c == "`":
                self.skip_backtick()
            elif c == "$" and self.peek(1) == "{":
                self.skip_brace()
            elif c == "$" and self.peek(1) == "'":
                self.skip_dollar_single()
            elif c == "(":
                depth += 1
                self.adv()
            elif c == ")":
                depth -= 1
                self.adv()
                if depth == 0:
                    return
            elif c == "#" and self.s[self.i - 1] in " \t\n":
                while self.peek() not in ("", "\n"):
                    self.adv()
            else:
                self.adv()

    def skip_dollar_paren(self):
        self.adv()                      # $, then ( ... )
        self.skip_parens()

    def read_word(self):
        """Read one word (raw text) starting at i."""
        start = self.i
        while True:
            c = self.peek()
            if c == "" or c in " \t\n;&|()<>":
                # <( and >( inside a word are process substitutions
                if c in "<>" and self.peek(1) == "(" and self.i > start:
                    self.adv()
                    self.skip_parens()
                    continue
                # an array assignment: name=(...) or name+=(...)
                if c == "(" and re.match(r"[A-Za-z_][A-Za-z0-9_]*\+?=$",
                                         self.s[start:self.i]):
                    self.skip_parens()
                    continue
                break
            if c == "\\":
                if self.peek(1) == "\n":
                    break
                self.adv(2)
            elif c == "'":
                self.skip_single()
            elif c == '"':
                self.skip_double()
            elif c == "`":
                self.skip_backtick()
            elif c == "$" and self.peek(1) == "'":
                self.skip_dollar_single()
            elif c == "$" and self.peek(1) == "(":
                self.skip_dollar_paren()
            elif c == "$" and self.peek(1) == "{":
                self.skip_brace()
            else:
                self.adv()
        return self.s[start:self.i]

    def read_heredocs(self):
        for delim, strip in self.heredocs:
            while True:
                if self.i >= len(self.s):
                    self.err("here-document %r not terminated" % delim)
                j = self.s.find("\n", self.i)
                if j < 0:
                    j = len(self.s)
                text = self.s[self.i:j]
                self.adv(j - self.i)
                if self.peek() == "\n":
                    self.adv()
                if (text.lstrip("\t") if strip else text) == delim:
                    break
        self.heredocs = []

    def lex(self):
        while True:
            c = self.peek()
            if c == "":
                break
            line = self.line
            if c in " \t":
                self.adv()
            elif c == "\\" and self.peek(1) == "\n":
                self.adv(2)
            elif c == "\n":
                self.adv()
                self.emit("NL", "\n", line)
                if self.heredocs:
                    self.read_heredocs()
            elif c == "#":
                while self.peek() not in ("", "\n"):
                    self.adv()
            elif c == ";":
                if self.s.startswith(";;&", self.i):
                    self.adv(3); self.emit("OP", ";;&", line)
                elif self.s.startswith(";;", self.i):
                    self.adv(2); self.emit("OP", ";;", line)
                elif self.s.startswith(";&", self.i):
                    self.adv(2); self.emit("OP", ";&", line)
                else:
                    self.adv(); self.emit("OP", ";", line)
            elif c == "&":
                if self.s.startswith("&&", self.i):
                    self.adv(2); self.emit("OP", "&&", line)
                elif self.peek(1) == ">":
                    self.redirect(line)
                else:
                    self.adv(); self.emit("OP", "&", line)
            elif c == "|":
                if self.s.startswith("||", self.i):
                    self.adv(2); self.emit("OP", "||", line)
                elif self.s.startswith("|&", self.i):
                    self.adv(2); self.emit("OP", "|", line)
                else:
                    self.adv(); self.emit("OP", "|", line)
            elif c == "(":
                if self.peek(1) == "(" and self.at_command_start():
                    start = self.i
                    self.skip_parens()
                    self.emit("WORD", self.s[start:self.i], line)
                else:
                    self.adv(); self.emit("OP", "(", line)
            elif c == ")":
                self.adv(); self.emit("OP", ")", line)
            elif c in "<>":
                if self.peek(1) == "(":
                    start = self.i
                    self.adv()
                    self.skip_parens()
                    self.emit("WORD", self.s[start:self.i], line)
                else:
                    self.redirect(line)
            else:
                start_tok = len(self.toks)
                w = self.read_word()
                if w == "[[" and self.at_command_start():
                    # [[ ... ]] is one command: its && and || are not lists
                    while True:
                        while self.peek() in (" ", "\t"):
                            self.adv()
                        if self.peek() in ("", "\n"):
                            self.err("unterminated [[")
                        if self.peek() in ";&|()<>":
                            self.adv()
                            continue
                        x = self.read_word()
                        w += " " + x
                        if x == "]]":
                            break
                del self.toks[start_tok:]
                # an io number (2>file) belongs to the redirection
                if w.isdigit() and self.peek() in ("<", ">"):
                    self.redirect(line, w)
                else:
                    self.emit("WORD", w, line)
        if self.heredocs:
            self.err("here-document %r not terminated" % self.heredocs[0][0])
        self.emit("EOF", "", self.line)
        return self.toks

    def redirect(self, line, prefix=""):
        for op in ("<<<", "<<-", "<<", "<&", "<>", ">>", ">&", ">|",
                   "&>>", "&>", "<", ">"):
            if self.s.startswith(op, self.i):
                break
        self.adv(len(op))
        while self.peek() in (" ", "\t"):
            self.adv()
        if op in ("<<", "<<-"):
            w = self.read_word()
            if not w:
                self.err("here-document without a delimiter")
            delim = w.replace("'", "").replace('"', "").replace("\\", "")
            self.heredocs.append((delim, op == "<<-"))
            self.emit("REDIR", prefix + op + w, line)
            return
        w = self.read_word()
        self.emit("REDIR", prefix + op + w, line)


# --------------------------------------------------------------- parser
#
# A list is a list of AndOr; an AndOr is pipelines joined by && or ||;
# a pipeline is commands joined by |; a command is Simple, Compound or
# FuncDef.

class Simple:
    def __init__(self, words, line, wlines=None):
        self.words = words      # raw texts (WORD tokens only)
        self.line = line
        self.wlines = wlines or [line] * len(words)


class Compound:
    def __init__(self, kind, line):
        self.kind = kind        # group, subshell, if, for, while, until, case, arith
        self.line = line
        self.conds = []         # lists that are conditions
        self.bodies = []        # lists that are bodies


class FuncDef:
    def __init__(self, name, body, line):
        self.name = name
        self.body = body        # a Compound
        self.line = line


class Pipeline:
    def __init__(self, bang, cmds, line):
        self.bang = bang
        self.cmds = cmds
        self.line = line


class AndOr:
    def __init__(self, first):
        self.pipes = [first]
        self.ops = []
        self.async_ = False
        self.line = first.line


class Parser:
    def __init__(self, toks):
        self.toks = toks
        self.i = 0

    def peek(self):
        return self.toks[self.i]

    def next(self):
        t = self.toks[self.i]
        self.i += 1
        return t

    def err(self, msg):
        raise ParseError("line %d: %s (at %r)" % (self.peek().line, msg,
                                                  self.peek().text))

    def is_word(self, text):
        t = self.peek()
        return t.kind == "WORD" and t.text == text

    def is_op(self, text):
        t = self.peek()
        return t.kind == "OP" and t.text == text

    def skip_nl(self):
        while self.peek().kind == "NL":
            self.i += 1

    def expect_word(self, text):
        self.skip_nl()
        if not self.is_word(text):
            self.err("expected %r" % text)
        self.i += 1

    def at_list_end(self, ends):
        t = self.peek()
        if t.kind == "EOF":
            return True
        if t.kind == "OP" and t.text in ends:
            return True
        if t.kind == "WORD" and t.text in ends:
            return True
        return False

    def parse_list(self, ends):
        stmts = []
        while True:
            self.skip_nl()
            while self.is_op(";"):
                self.i += 1
                self.skip_nl()
            if self.at_list_end(ends):
                return stmts
            st = self.parse_and_or(ends)
            stmts.append(st)
            t = self.peek()
            if t.kind == "OP" and t.text == "&":
                st.async_ = True
                self.i += 1
            elif t.kind == "OP" and t.text == ";":
                self.i += 1
            elif t.kind == "NL":
                self.i += 1
            elif self.at_list_end(ends):
                return stmts
            else:
                self.err("unexpected token")

    def parse_and_or(self, ends):
        ao = AndOr(self.parse_pipeline(ends))
        while self.peek().kind == "OP" and self.peek().text in ("&&", "||"):
            ao.ops.append(self.next().text)
            self.skip_nl()
            ao.pipes.append(self.parse_pipeline(ends))
        return ao

    def parse_pipeline(self, ends):
        line = self.peek().line
        bang = False
        while self.is_word("!") or self.is_word("time"):
            bang = bang or self.peek().text == "!"
            self.i += 1
        cmds = [self.parse_command(ends)]
        while self.is_op("|"):
            self.i += 1
            self.skip_nl()
            cmds.append(self.parse_command(ends))
        return Pipeline(bang, cmds, line)

    def parse_redirs(self):
        while self.peek().kind == "REDIR":
            self.i += 1

    def parse_command(self, ends):
        t = self.peek()
        line = t.line
        if t.kind == "OP" and t.text == "(":
            self.i += 1
            c = Compound("subshell", line)
            c.bodies.append(self.parse_list({")"}))
            if not self.is_op(")"):
                self.err("expected )")
            self.i += 1
            self.parse_redirs()
            return c
        if t.kind == "WORD":
            w = t.text
            if w == "{":
                self.i += 1
                c = Compound("group", line)
                c.bodies.append(self.parse_list({"}"}))
                self.expect_word("}")
                self.parse_redirs()
                return c
            if w == "if":
                self.i += 1
                c = Compound("if", line)
                c.conds.append(self.parse_list({"then"}))
                self.expect_word("then")
                c.bodies.append(self.parse_list({"elif", "else", "fi"}))
                while True:
                    self.skip_nl()
                    if self.is_word("elif"):
                        self.i += 1
                        c.conds.append(self.parse_list({"then"}))
                        self.expect_word("then")
                        c.bodies.append(self.parse_list({"elif", "else", "fi"}))
                    elif self.is_word("else"):
                        self.i += 1
                        c.bodies.append(self.parse_list({"fi"}))
                    else:
                        break
                self.expect_word("fi")
                self.parse_redirs()
                return c
            if w in ("while", "until"):
                self.i += 1
                c = Compound(w, line)
                c.conds.append(self.parse_list({"do"}))
                self.expect_word("do")
                c.bodies.append(self.parse_list({"done"}))
                self.expect_word("done")
                self.parse_redirs()
                return c
            if w in ("for", "select"):
                self.i += 1
                c = Compound("for", line)
                self.next()                     # the name, or ((...))
                while self.peek().kind == "WORD" and not self.is_word("do"):
                    self.i += 1                 # in WORDS...
                while self.peek().kind == "NL" or self.is_op(";"):
                    self.i += 1
                self.expect_word("do")
                c.bodies.append(self.parse_list({"done"}))
                self.expect_word("done")
                self.parse_redirs()
                return c
            if w == "case":
                self.i += 1
                c = Compound("case", line)
                self.next()                     # the word
                self.skip_nl()
                if not self.is_word("in"):
                    self.err("expected in")
                self.i += 1
                while True:
                    self.skip_nl()
                    if self.is_word("esac"):
                        self.i += 1
                        break
                    if self.is_op("("):
                        self.i += 1
                    while not self.is_op(")"):
                        if self.peek().kind == "EOF":
                            self.err("unterminated case")
                        self.i += 1             # patterns and |
                    self.i += 1
                    c.bodies.append(self.parse_list({";;", ";&", ";;&", "esac"}))
                    if self.peek().kind == "OP" and self.peek().text in (";;", ";&", ";;&"):
                        self.i += 1
                self.parse_redirs()
                return c
            if w == "function":
                self.i += 1
                name = self.next().text
                if self.is_op("("):
                    self.i += 2
                self.skip_nl()
                body = self.parse_command(ends)
                return FuncDef(name, body, line)
            if w.startswith("((") or w.startswith("[["):
                self.i += 1
                self.parse_redirs()
                return Simple([w], line)
            # name() compound
            if (self.toks[self.i + 1].kind == "OP" and self.toks[self.i + 1].text == "("
                    and self.toks[self.i + 2].kind == "OP" and self.toks[self.i + 2].text == ")"):
                self.i += 3
                self.skip_nl()
                body = self.parse_command(ends)
                if not isinstance(body, Compound):
                    self.err("function body is not a compound command")
                return FuncDef(w, body, line)
        # a simple command
        words = []
        wlines = []
        while True:
            t = self.peek()
            if t.kind == "WORD":
                if not words and t.text in RESERVED_END and t.text in ends:
                    break
                words.append(t.text)
                wlines.append(t.line)
                self.i += 1
            elif t.kind == "REDIR":
                self.i += 1
            else:
                break
        if not words and self.toks[self.i - 1].kind != "REDIR":
            self.err("empty command")
        return Simple(words, line, wlines)


# ------------------------------------------------------------- analysis

def unquote(raw):
    """The value of a word made of '...', "..." and \\x parts (expansions
    inside double quotes are kept as written)."""
    out = []
    i = 0
    while i < len(raw):
        c = raw[i]
        if c == "'":
            j = raw.index("'", i + 1)
            out.append(raw[i + 1:j])
            i = j + 1
        elif c == '"':
            j = i + 1
            while raw[j] != '"':
                j += 2 if raw[j] == "\\" else 1
            out.append(raw[i + 1:j])
            i = j + 1
        elif c == "\\" and i + 1 < len(raw):
            out.append(raw[i + 1])
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def is_static(raw):
    """Whether a word is all quoted text (a test body, not a function name)."""
    return raw[:1] in ("'", '"')


def first_simple(pipe):
    c = pipe.cmds[0]
    return c if isinstance(c, Simple) else None


def cmd_name(pipe):
    s = first_simple(pipe)
    if s is None or not s.words:
        return None
    for w in s.words:
        # skip VAR=value prefixes
        if "=" in w and w.split("=", 1)[0].isidentifier():
            continue
        return w
    return None


def reads_status(pipe):
    s = first_simple(pipe)
    return s is not None and any("$?" in w or "${?}" in w for w in s.words)


def is_guard(pipe):
    """|| RHS that fails the body: return, exit, false, die, or a { } group
    ending with one."""
    if pipe.bang:
        return False
    c = pipe.cmds[-1]
    if isinstance(c, Compound) and c.kind == "group" and c.bodies[0]:
        last = c.bodies[0][-1]
        return is_guard(last.pipes[-1])
    name = cmd_name(pipe)
    return name in GUARD_WORDS


class Checker:
    def __init__(self, path, line0=0):
        self.path = path
        self.line0 = line0
        self.found = []

    def report(self, line, msg):
        self.found.append((self.line0 + line, msg))

    def check_list(self, stmts, tail_ok, report):
        for n, st in enumerate(stmts):
            checked = tail_ok and n == len(stmts) - 1
            nxt = stmts[n + 1] if n + 1 < len(stmts) else None
            if report and not st.async_:
                self.check_and_or(st, checked, nxt)
            for k, pipe in enumerate(st.pipes):
                for c in pipe.cmds:
                    if isinstance(c, Compound):
                        if st.async_ or c.kind == "subshell" or len(pipe.cmds) > 1 \
                                or k < len(st.pipes) - 1:
                            inner = True
                        else:
                            inner = checked
                        for b in c.bodies:
                            self.check_list(b, inner, report)
                        # conditions: set -e is off there; only functions
                        # defined in them would matter
                        for b in c.conds:
                            self.check_list(b, True, False)
                    elif isinstance(c, FuncDef):
                        for b in c.body.bodies:
                            self.check_list(b, True, True)
                    elif isinstance(c, Simple):
                        self.check_simple(c)

    def check_and_or(self, st, checked, nxt):
        ops = st.ops
        if "&&" not in ops:
            return
        # a && b || cmd: cmd runs when a or b fails
        for j, op in enumerate(ops):
            if op == "||" and "&&" in ops[:j]:
                rhs = st.pipes[j + 1]
                if not is_guard(rhs) and not reads_status(rhs):
                    self.report(rhs.line, "'|| %s' after an && list runs "
                                "when any of it fails, and hides that failure"
                                % (cmd_name(rhs) or "..."))
        if ops[-1] != "&&" or checked:
            return
        if cmd_name(st.pipes[-1]) in FLOW_WORDS:
            return                      # [ cond ] && break
        if nxt is not None and reads_status(nxt.pipes[0]):
            return                      # a && b; rc=$?
        self.report(st.line, "&& list followed by more commands: a failure "
                    "before its last command is ignored (add || exit 1 in a "
                    "test body, || return 1 in a function)")

    def check_simple(self, c):
        if not c.words or c.words[0] not in ("test_expect_success",
                                             "test_expect_failure"):
            return
        raw = c.words[-1]
        if len(c.words) < 3 or not is_static(raw):
            return
        body = unquote(raw)
        line = self.line0 + c.wlines[-1]
        sub = Checker(self.path, line - 1)
        try:
            toks = Lexer(body, 1).lex()
            stmts = Parser(toks).parse_list(set())
        except ParseError as e:
            raise ParseError("test body at line %d: %s" % (line, e))
        sub.check_list(stmts, True, True)
        self.found.extend(sub.found)


def check_file(path):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        src = f.read()
    toks = Lexer(src, 1).lex()
    p = Parser(toks)
    stmts = p.parse_list(set())
    if p.peek().kind != "EOF":
        p.err("trailing input")
    ch = Checker(path)
    ch.check_list(stmts, True, False)
    return sorted(set(ch.found))


def default_files():
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    files = []
    for pat in ("tests/integration/*.sh", "tests/integration/*.inc",
                "tests/preload/*.sh", "tests/lib/*.sh"):
        files += sorted(glob.glob(os.path.join(top, pat)))
    return [os.path.relpath(f) if not os.path.relpath(f).startswith("..")
            else f for f in files]


def main(argv):
    files = argv[1:] or default_files()
    n = 0
    bad = False
    for path in files:
        try:
            found = check_file(path)
        except (OSError, ParseError) as e:
            print("%s: cannot check: %s" % (path, e), file=sys.stderr)
            bad = True
            continue
        for line, msg in found:
            print("%s:%d: %s" % (path, line, msg))
            n += 1
    if bad:
        return 2
    return 1 if n else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
