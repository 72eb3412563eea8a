# Deliberate hook for interactive bash (4.4 or later).  Enable it with one
# line at the end of ~/.bashrc:
#
#	source /path/to/deliberate.bash
#
# Every command line is checked by the daemon before it runs: safe lines
# run at once, moderate ones with a one-line note, dangerous ones ask
# y/N/e (prompt mode) or are refused (enforce mode).  See README.md here.
#
# Mechanism: PS0 (expanded once after a line is read, before it runs) arms
# a flag; the DEBUG trap, with extdebug so that a non-zero return skips the
# command, takes the first simple command of an armed line, reads the
# whole line from the history list (through the deliberate_hook loadable
# builtin: no fork) and checks it.  A refused line is abandoned with
# SIGINT, so nothing after it on the line runs and $? is 130.
# PROMPT_COMMAND re-arms nothing; it only marks the history count and
# records lines that fired no DEBUG trap (function definitions).

# Nothing at all in non-interactive shells, scripts and bash -c.
[[ $- == *i* ]] || return 0
# Include guard: sourcing again is harmless.
[[ -z ${__deliberate_loaded-} ]] || return 0
__deliberate_loaded=1

__dlb_builtin=0
__dlb_cli=
__dlb_warned=0
__dlb_armed=0
__dlb_e=
__dlb_prev_debug=
__dlb_ps0='${__dlb_e:0:$((__dlb_armed=1,0))}'
# Exported, so "deliberate feedback --last" run from this shell finds its
# last entry.
export DELIBERATE_SESSION="bash-$$-${EPOCHSECONDS:-0}-${SHLVL:-1}-$RANDOM"

__dlb_dir=${BASH_SOURCE[0]%/*}
[[ $__dlb_dir == "${BASH_SOURCE[0]}" ]] && __dlb_dir=.

# Completion, from the file next to this one, unless one is loaded already:
# loaded at the first completion of "deliberate" (124 makes bash retry
# with the compspec completion.bash registers).
__deliberate_complete() {
	unset -f __deliberate_complete
	. "$__dlb_dir/completion.bash" && return 124
}
if ! complete -p deliberate >/dev/null 2>&1 &&
    [[ -f $__dlb_dir/completion.bash ]]; then
	complete -F __deliberate_complete deliberate
fi

__deliberate_load() {
	local f dir=$__dlb_dir cli=
	if hash deliberate 2>/dev/null; then
		cli=${BASH_CMDS[deliberate]-}
	fi
	__dlb_cli=$cli
	for f in "${DELIBERATE_BASH_BUILTIN-}" "$dir/deliberate-bash.so" \
	    "$dir/../lib/deliberate/deliberate-bash.so" \
	    "${cli%/*}/deliberate-bash.so" \
	    "${cli%/*}/../lib/deliberate/deliberate-bash.so"; do
		[[ -n $f && -f $f ]] || continue
		if enable -f "$f" deliberate_hook 2>/dev/null; then
			__dlb_builtin=1
			return 0
		fi
	done
	return 0
}

# The rare paths' functions (deliberate-lib.bash), loaded on first use.
# The builtin calls only these three.
__deliberate_lib() {
	. "$__dlb_dir/deliberate-lib.bash"
}
__deliberate_slow() {
	__deliberate_lib && __deliberate_slow "$@"
}
__deliberate_unfired() {
	__deliberate_lib && __deliberate_unfired "$@"
}
__deliberate_prev_debug() {
	__deliberate_lib && __deliberate_prev_debug "$@"
}

__deliberate_install() {
	local t pc=__deliberate_precmd
	if [[ ! -r $__dlb_dir/deliberate-lib.bash ]]; then
		printf 'deliberate: %s is missing; commands are not checked\n' \
		    "$__dlb_dir/deliberate-lib.bash" >&2
		return 0
	fi
	__deliberate_load
	# With the builtin, PS0's ${__dlb_hook} checks each line in C, and
	# bash's lookup of PROMPT_COMMAND after the line does the prompt's
	# work, also in C: no prompt command, no DEBUG trap, no extdebug.  A
	# line that needs the shell is lent a trap of ours until the next
	# prompt (see "The PS0 hook" in bash-builtin.c).
	if (( __dlb_builtin )) && deliberate_hook init; then
		__dlb_ps0='${__dlb_hook}'
		pc=
	else
		__deliberate_lib
		# Keep an existing DEBUG trap and run it first.
		t=$(trap -p DEBUG)
		if [[ -n $t ]]; then
			eval "__deliberate_trapstr ${t#trap }"
		fi
		shopt -s extdebug
		if (( __dlb_builtin )); then
			trap 'deliberate_hook debug "$_"' DEBUG
			pc='deliberate_hook prompt'
		else
			trap '__deliberate_debug "$_"' DEBUG
		fi
	fi
	# Reading PS0 may already have put the expansion back (its dynamic
	# value, with the builtin): once is enough.
	[[ ${PS0-} == *"$__dlb_ps0"* ]] || PS0=${PS0-}$__dlb_ps0
	if [[ -z $pc ]]; then
		:
	elif [[ ${PROMPT_COMMAND+set} && ${PROMPT_COMMAND@a} == *a* ]]; then
		PROMPT_COMMAND=("$pc" "${PROMPT_COMMAND[@]}")
	else
		PROMPT_COMMAND="$pc${PROMPT_COMMAND:+
$PROMPT_COMMAND}"
	fi
}

__deliberate_trapstr() {
	[[ $1 == -- ]] && shift
	__dlb_prev_debug=$1
}

__deliberate_install
# (The install functions stay defined: unsetting them frees memory among
# what bash allocates per command, which then spreads each command's
# allocations over more pages: five more page faults per command line.)
