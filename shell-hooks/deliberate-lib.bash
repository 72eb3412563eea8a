# Deliberate hook for interactive bash: the functions of its rare paths
# (a prompt, a refusal, a daemon that is down, a bash without the
# builtin).  deliberate.bash sources this file the first time it needs one
# of them, so that a shell that never does keeps none of them in memory:
# every command line forks, and the more of the shell's memory is written
# between forks, the more page faults each command costs.
# Set $? for whatever runs next (a chained DEBUG trap wants the user's).
__deliberate_status() {
	return "$1"
}

__deliberate_warn_down() {
	(( __dlb_warned )) && return 0
	__dlb_warned=1
	printf 'deliberate: daemon unreachable; commands run unchecked ' >&2
	printf '(start it with: deliberate daemon start)\n' >&2
}

# Ask the daemon about $1; $2 is the flags for the builtin (-r, -e).
# Sets DELIBERATE_ACTION and friends; "down" when there is no answer.
__deliberate_ask() {
	local out rc
	if (( __dlb_builtin )); then
		deliberate_hook check $2 -f -- "$1"
		return
	fi
	DELIBERATE_ACTION=down
	[[ -n $__dlb_cli ]] || return 3
	local rec=
	[[ $2 == *-r* || $2 == *-e* ]] && rec=--record
	out=$("$__dlb_cli" check $rec --shell bash --format sh \
	    --session "$DELIBERATE_SESSION" --pid "$$" --ppid "$PPID" \
	    --timeout 90 -- "$1" 2>/dev/null)
	rc=$?
	if [[ $rc == 0 || $rc == 1 ]]; then
		eval "$out"
	else
		DELIBERATE_ACTION=down
	fi
	return $rc
}

# The daemon is down: hand the line to the CLI, which seals it into the
# spool for the daemon to record when it is back.  In the background, so
# the command does not wait.
__deliberate_spool() {
	[[ -n $__dlb_cli ]] || return 0
	( "$__dlb_cli" log --source hook --shell bash --cwd "$PWD" \
	    --line "$1" </dev/null >/dev/null 2>&1 & )
}

# Send the answer to a prompted check.
__deliberate_decide() {
	local id=$1 action=$2 ms=$3
	[[ -n $id ]] || return 0
	if (( __dlb_builtin )); then
		deliberate_hook decision "$id" "$action" "$ms" ${4+"$4"}
	else
		"$__dlb_cli" decision --check-id "$id" --action "$action" \
		    --time "$ms" ${4+--modified "$4"} >/dev/null 2>&1
	fi
	return 0
}

# Milliseconds since $1 (an EPOCHREALTIME value).
__deliberate_ms() {
	local now=${EPOCHREALTIME/[!0-9]/} then=${1/[!0-9]/}
	__dlb_ms=$(( (10#$now - 10#$then) / 1000 ))
}

# The line being run, without forking when the builtin is there.
__deliberate_line() {
	if (( __dlb_builtin )); then
		deliberate_hook line
		return
	fi
	local h
	h=$(HISTTIMEFORMAT= builtin history 1)
	DELIBERATE_LINE=$BASH_COMMAND
	[[ $h =~ ^\ *[0-9]+\*?\ \ (.*)$ ]] && DELIBERATE_LINE=${BASH_REMATCH[1]}
}

# "f" at the prompt: the line runs and its entry is corrected to safe, so
# the daemon learns the shape (docs/annotations.md).
__deliberate_false_alarm() {
	if (( __dlb_builtin )); then
		deliberate_hook annotate correction \
		    "${DELIBERATE_ENTRY_ID:--}" safe
	elif [[ -n $__dlb_cli ]]; then
		"$__dlb_cli" correct --last --as safe >/dev/null 2>&1
	fi
	return 0
}

# Ask y/N/e/f for a dangerous line.  Returns 0 to run it, 1 to refuse.
__deliberate_prompt() {
	local line=$1 id=${DELIBERATE_CHECK_ID-} ans= new= t0 tty=/dev/tty
	local to=${DELIBERATE_PROMPT_TIMEOUT:-${DELIBERATE_TIMEOUT:-30}}
	[[ -w $tty ]] || tty=/dev/stderr
	{
		printf '\ndeliberate: \e[1;31mdangerous\e[0m command\n'
		printf '  %s\n' "$line"
		printf '  rule:  %s: %s\n' "${DELIBERATE_RULE:-?}" \
		    "${DELIBERATE_DESC:-}"
		[[ -n ${DELIBERATE_ALT-} ]] &&
		    printf '  safer: %s\n' "$DELIBERATE_ALT"
		printf 'Run it? [y/N/e(dit)/f(alse alarm)] (%ss) ' "$to"
	} >"$tty"
	t0=$EPOCHREALTIME
	if ! read -r -s -n 1 -t "$to" ans <"$tty"; then
		__deliberate_ms "$t0"
		printf '\ndeliberate: no answer in %ss, cancelled\n' "$to" \
		    >"$tty"
		__deliberate_decide "$id" timeout "$__dlb_ms"
		return 1
	fi
	case $ans in
	[yY])
		__deliberate_ms "$t0"
		printf 'y\n' >"$tty"
		__deliberate_decide "$id" execute "$__dlb_ms"
		return 0
		;;
	[fF])
		__deliberate_ms "$t0"
		printf 'f\ndeliberate: remembered as a false alarm\n' >"$tty"
		__deliberate_decide "$id" execute "$__dlb_ms"
		__deliberate_false_alarm
		return 0
		;;
	[eE])
		printf 'e\n' >"$tty"
		read -r -e -i "$line" -p 'edit> ' new <"$tty" || new=
		__deliberate_ms "$t0"
		if [[ -z ${new//[[:space:]]/} ]]; then
			__deliberate_decide "$id" cancel "$__dlb_ms"
			printf 'deliberate: cancelled\n' >"$tty"
			return 1
		fi
		__deliberate_decide "$id" modify "$__dlb_ms" "$new"
		builtin history -s -- "$new"
		__deliberate_run_edited "$new"
		return 1
		;;
	*)
		__deliberate_ms "$t0"
		printf 'N\ndeliberate: cancelled\n' >"$tty"
		__deliberate_decide "$id" cancel "$__dlb_ms"
		return 1
		;;
	esac
}

# Check an edited line again and run it if it passes.
__deliberate_run_edited() {
	local __dlb_new=$1
	__deliberate_judge "$__dlb_new" -r || return 1
	eval "$__dlb_new"
}

# Decide about one line.  Returns 0 to run it, non-zero to refuse.
__deliberate_judge() {
	__deliberate_ask "$1" "$2"
	__deliberate_act "$1" "$2"
}

# Act on the verdict for line $1 (flags $2) in DELIBERATE_ACTION and
# friends.  Returns 0 to run it, non-zero to refuse.
__deliberate_act() {
	local line=$1 flags=$2
	case ${DELIBERATE_ACTION-} in
	down|'')
		__deliberate_warn_down
		[[ $flags == *-r* || $flags == *-e* ]] &&
		    __deliberate_spool "$line"
		return 0
		;;
	prompt)
		__deliberate_prompt "$line"
		return
		;;
	deny)
		printf 'deliberate: refused (enforce mode): %s: %s\n' \
		    "${DELIBERATE_RULE:-?}" "${DELIBERATE_DESC:-}" >&2
		[[ -n ${DELIBERATE_ALT-} ]] &&
		    printf '  safer: %s\n' "$DELIBERATE_ALT" >&2
		return 1
		;;
	*)
		if [[ ${DELIBERATE_RISK-} == moderate &&
		    ${DELIBERATE_NOTE-} == true ]]; then
			printf 'deliberate: moderate risk: %s\n' \
			    "${DELIBERATE_DESC:-${DELIBERATE_RULE:-}}" >&2
		fi
		return 0
		;;
	esac
}

# Called from the DEBUG trap on the first command of an armed line.  With
# the builtin, "deliberate_hook preexec" has done the common case (read the
# line, check it, note, arm the outcome) in one call and returned 10: this
# only acts on a prompt, a refusal or a daemon that is down.  Without it,
# the line is checked here through the CLI.
__deliberate_preexec() {
	local line flags=-r
	if (( __dlb_builtin )); then
		line=${DELIBERATE_LINE-}
	else
		__deliberate_line
		line=${DELIBERATE_LINE-}
		[[ -n ${line//[[:space:]]/} ]] || return 0
		__deliberate_ask "$line" -r
	fi
	# Privacy: a line typed with a leading space is checked but never
	# recorded, whatever HISTCONTROL says.
	[[ $line == [[:space:]]* ]] && flags=
	__deliberate_act "$line" "$flags" || return 1
	# Recorded: the prompt reports its outcome.
	if [[ -n $flags && ${DELIBERATE_ACTION-} != down ]] &&
	    (( __dlb_builtin )); then
		deliberate_hook arm "${DELIBERATE_ENTRY_ID:--}"
	fi
	return 0
}

# The DEBUG trap.  $1 is $_ of the user's last command, put back at the
# end; $? is restored by bash itself.
__deliberate_debug() {
	local __dlb_st=$? __dlb_r=0
	if [[ -n $__dlb_prev_debug ]]; then
		__deliberate_status "$__dlb_st"
		eval "$__dlb_prev_debug"
	fi
	if [[ $__dlb_armed == 1 && $BASH_COMMAND != __deliberate_precmd* ]]
	then
		__dlb_armed=0
		# The common case is the builtin's alone (see preexec below).
		if ! { (( __dlb_builtin )) && deliberate_hook preexec; } &&
		    ! __deliberate_preexec; then
			# Abandon the whole line, in a subshell too.
			[[ $BASHPID != "$$" ]] && kill -INT "$$"
			kill -INT "$BASHPID"
			__dlb_r=1
		fi
	fi
	: "$1"
	return $__dlb_r
}

# At each prompt: the outcome of the line that ran (exit status and
# duration, sent by the builtin), and the history mark.
__deliberate_precmd() {
	local __dlb_st=$?
	[[ $__dlb_armed == 1 ]] && __deliberate_unseen
	(( __dlb_builtin )) && deliberate_hook precmd "$__dlb_st"
	# Another tool may have replaced PS0 since.
	[[ ${PS0-} == *"$__dlb_ps0"* ]] || PS0=${PS0-}$__dlb_ps0
	return $__dlb_st
}

# The line fired no DEBUG trap (a function definition): record it now.
__deliberate_unseen() {
	__dlb_armed=0
	__deliberate_line
	if [[ -n ${DELIBERATE_LINE//[[:space:]]/} &&
	    $DELIBERATE_LINE != [[:space:]]* ]]; then
		__deliberate_ask "$DELIBERATE_LINE" -e
		[[ $DELIBERATE_ACTION == down ]] && __deliberate_warn_down
	fi
	return 0
}

# With the builtin, the DEBUG trap is "deliberate_hook debug" and these run
# only on its rare paths: the earlier DEBUG trap, with the user's $? ($1),
# and a line the builtin could not settle alone (prompt, refusal, daemon
# down).  A refused line is abandoned with SIGINT, in a subshell too.
__deliberate_prev_debug() {
	__deliberate_status "$1"
	eval "$__dlb_prev_debug"
}
__deliberate_slow() {
	__deliberate_preexec && return 0
	[[ $BASHPID != "$$" ]] && kill -INT "$$"
	kill -INT "$BASHPID"
	return 1
}

# A line lent the DEBUG trap that fired none (a function definition) ran
# without being asked: the daemon is told so.
__deliberate_unfired() {
	case ${DELIBERATE_ACTION-} in
	down|'')
		__deliberate_warn_down
		[[ ${DELIBERATE_LINE-} == [[:space:]]* ]] ||
		    __deliberate_spool "${DELIBERATE_LINE-}"
		;;
	prompt)
		__deliberate_decide "${DELIBERATE_CHECK_ID-}" execute 0
		;;
	esac
	return 0
}
