/*
 * The hooks' fixed fast path (hook_fast_path() in hookcore.c): a line of
 * plain word characters whose first word is one of these is recorded
 * without waiting for a verdict.  common/classify.c reads the same lists,
 * so that the daemon's word model is never asked about a line the hooks
 * let through, and so does the trigger-free test (classify_trigger_free(),
 * hook_trigger_free()).  The zsh script's copy is in deliberate-lib.zsh.
 */
#ifndef HOOKFAST_H
#define HOOKFAST_H

/* No quoting, expansion, assignment, redirection or operator. */
#define HOOK_PLAIN_CHARS	"abcdefghijklmnopqrstuvwxyz" \
	"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _./:,@%+-"

/* Commands that only show something. */
#define HOOK_FAST_SAFE							\
	"ls", "ll", "la", "pwd", "cd", "echo", "true", ":", "date",	\
	"whoami", "id", "clear", "jobs", "uptime", "cal", "hostname",	\
	"uname", "df", "free", "which", "tty", "dirs", "man", "type"

/* Readers: fast unless a dot file or a secret's name is named. */
#define HOOK_FAST_READERS						\
	"cat", "less", "more", "head", "tail", "grep", "rg"

#endif
