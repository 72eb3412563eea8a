# Deliberate hook for interactive zsh (5.1 or later).  Enable it with one
# line at the end of ~/.zshrc:
#
#	source /path/to/deliberate.zsh
#
# Mechanism: accept-line is wrapped (the existing widget, built-in or a
# plugin's, is kept under __deliberate_orig_accept_line and called).  When
# Enter completes a command, the whole line ($PREBUFFER$BUFFER) is checked
# by the daemon before zsh runs it, over zsh/net/socket (no fork; one
# connection is kept open, see __deliberate_send).  A refused line never
# reaches preexec; it is left in the history.  See README.md here.

# Nothing at all in non-interactive shells and scripts.
[[ -o interactive ]] || return 0
# Include guard: sourcing again is harmless.
(( ${+__deliberate_loaded} )) && return 0
typeset -g __deliberate_loaded=1

zmodload zsh/datetime 2>/dev/null
typeset -g __dlb_dir=${${(%):-%x}:A:h}
# Completion: _deliberate sits next to this file (source tree and
# PREFIX/share/deliberate/shell-hooks alike).
() {
	local d=${${(%):-%x}:A:h}
	[[ -f $d/_deliberate ]] || return 0
	(( ${fpath[(Ie)$d]} )) || fpath+=($d)
	# functions, not $functions: that would load zsh/parameter.
	if functions compdef >/dev/null 2>&1; then
		autoload -Uz _deliberate
		compdef _deliberate deliberate
	fi
}
# The path of the deliberate command (the :c modifier searches PATH;
# $commands would load zsh/parameter).
typeset -g __dlb_zsocket=0 __dlb_cli=${${:-deliberate}:c}
[[ $__dlb_cli == /* ]] || __dlb_cli=
typeset -g __dlb_warned=0 __dlb_done= __dlb_rep=
typeset -g __dlb_edit_id= __dlb_edit_t0=
# The outcome of the line being run: pending flag, entry id, start time.
typeset -g __dlb_out=0 __dlb_eid= __dlb_t0= __dlb_t0check=0
# The kept connection: fd, socket path, last use; the last request's seq;
# messages sent without a reply since the last reply (the fd blocks: a
# stopped daemon must not fill the socket buffer until a write hangs the
# shell, so after 48 of them a line waits for a reply, within the budget).
typeset -g __dlb_fd= __dlb_fd_path= __dlb_fd_t=0 __dlb_seq=0 __dlb_sys=0
# Set by the module's widget when it asked the daemon already.
typeset -g __dlb_checked=
typeset -gi __dlb_ff=0
# Outcome annotations waiting for the next message (one write and one
# wake-up of the daemon per line instead of two); zshexit sends the last.
typeset -g __dlb_pending=
# Whether the shell's stdin is a terminal, as sourced from the rc file: in
# a zle widget fd 0 is not the terminal, and a line "not from a terminal"
# reads as automation to the classifier.
typeset -g __dlb_istty=',"isTTY":false'
[[ -t 0 ]] && __dlb_istty=',"isTTY":true'
# An interactive zsh with a terminal survives SIGPIPE (its handler only
# exits when the shell has no terminal), so a write to a daemon that went
# away is just an error; without one, each write ignores SIGPIPE locally
# (setting and restoring a trap costs more than the write).
typeset -gi __dlb_pipetrap=1
[[ -n ${TTY-} ]] && __dlb_pipetrap=0
# The hook's own module (zsh-module.c, built where zsh's headers are):
# the per-line common case in C (its widget deliberate-accept-line becomes
# accept-line and calls ours, __deliberate_slow_accept_line, for anything
# but that case), and the outcome queued before each prompt without a
# precmd function.  DELIBERATE_ZSH_MODULE names the
# directory that holds deliberate/hook.so, or "none"; by default it is
# looked for next to the deliberate command (build/zsh) and in
# PREFIX/lib/deliberate/zsh.  Without it the script does the same work.
typeset -gi __dlb_zmod=0
() {
	local d
	[[ ${DELIBERATE_ZSH_MODULE-} == none ]] && return 0
	zmodload zsh/zle 2>/dev/null || return 0
	local -a module_path
	for d in ${DELIBERATE_ZSH_MODULE-} ${__dlb_cli:+${__dlb_cli:h}/zsh} \
	    ${__dlb_cli:+${__dlb_cli:h}/../lib/deliberate/zsh} \
	    ${${(%):-%x}:A:h}/../../../lib/deliberate/zsh; do
		[[ -f $d/deliberate/hook.so ]] || continue
		module_path=($d)
		zmodload deliberate/hook 2>/dev/null && __dlb_zmod=1
		return 0
	done
}
# The trigger words the daemon publishes next to its socket (see
# __deliberate_triggers): words, prefix pattern, file identity, last look.
typeset -ga __dlb_trigs
typeset -g __dlb_trigpat='(|)' __dlb_trig_id= __dlb_trig_t=0 __dlb_stat=0
# Exported, so "deliberate feedback --last" run from this shell finds its
# last entry.
typeset -gx DELIBERATE_SESSION="zsh-$$-${EPOCHSECONDS:-0}-${SHLVL:-1}-$RANDOM"
typeset -g DELIBERATE_ACTION= DELIBERATE_RISK= DELIBERATE_RULE= \
    DELIBERATE_DESC= DELIBERATE_ALT= DELIBERATE_CHECK_ID= \
    DELIBERATE_TIMEOUT= DELIBERATE_MODE= DELIBERATE_NOTE= DELIBERATE_ERROR= \
    DELIBERATE_ENTRY_ID= DELIBERATE_OK=



# At exit: the outcome still waiting, if the connection is there.
__deliberate_exit() {
	(( __dlb_zmod )) && deliberate_zhook flush
	[[ -n $__dlb_pending && -n $__dlb_fd ]] || return 0
	if (( __dlb_pipetrap )); then
		setopt localtraps
		trap '' PIPE
	fi
	print -rn -u $__dlb_fd -- "$__dlb_pending" 2>/dev/null
	__dlb_pending=
}

# The script's functions (deliberate-lib.zsh): with the module, loaded the
# first time it hands a line to the script (__deliberate_slow_accept_line
# runs this stub, which the file replaces); without it, at once.
__deliberate_lib() {
	# The modules the script uses: loaded only now, so a shell that the
	# module serves maps none of them (each loaded module is five more
	# mappings that every fork copies and every exec tears down).
	zmodload zsh/net/socket 2>/dev/null && __dlb_zsocket=1
	zmodload zsh/system 2>/dev/null && __dlb_sys=1
	zmodload -F zsh/stat b:zstat 2>/dev/null && __dlb_stat=1
	source "$__dlb_dir/deliberate-lib.zsh"
}
__deliberate_accept_line() {
	__deliberate_lib && __deliberate_accept_line "$@"
}

__deliberate_install() {
	if [[ ! -r $__dlb_dir/deliberate-lib.zsh ]]; then
		print -u2 -r -- "deliberate: $__dlb_dir/deliberate-lib.zsh is" \
		    "missing; commands are not checked"
		return 0
	fi
	(( __dlb_zmod )) || __deliberate_lib
	# The hook arrays themselves, as add-zsh-hook would (without
	# autoloading it).  The module does precmd's work before each prompt
	# by itself.
	typeset -ga precmd_functions zshexit_functions
	(( __dlb_zmod || ${precmd_functions[(Ie)__deliberate_precmd]} )) ||
	    precmd_functions+=(__deliberate_precmd)
	(( ${zshexit_functions[(Ie)__deliberate_exit]} )) ||
	    zshexit_functions+=(__deliberate_exit)
	# Keep whatever accept-line is now (a plugin's wrapper or the
	# built-in) and call it from ours.  zle -l, not $widgets: that would
	# load zsh/zleparameter.
	if zle -l accept-line; then
		zle -A accept-line __deliberate_orig_accept_line
	else
		zle -A .accept-line __deliberate_orig_accept_line
	fi
	if (( __dlb_zmod )); then
		zle -N __deliberate_slow_accept_line __deliberate_accept_line
		zle -A deliberate-accept-line accept-line
	else
		zle -N accept-line __deliberate_accept_line
	fi
}

__deliberate_install
