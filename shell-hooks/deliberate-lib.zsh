# Deliberate hook for interactive zsh: the functions of the script's own
# path (without the hook's module) and of the module's rare paths (a
# prompt, a refusal, a daemon that is down, an edit).  With the module,
# deliberate.zsh sources this file the first time the module hands a line
# to the script; a shell that never needs it keeps none of it in memory:
# every command line forks, and the more of the shell's memory is written
# between forks, the more page faults each command costs.
# JSON string for $1 in REPLY.  Callers run under "emulate -L zsh".  The
# common case (nothing to escape) is one pattern test; no loop, no fork.
__deliberate_json() {
	local s=$1
	if [[ $s == *[\\\"$'\x01'-$'\x1f'$'\x7f']* ]]; then
		s=${s//\\/\\\\}
		s=${s//\"/\\\"}
		s=${s//$'\n'/\\n}
		s=${s//$'\t'/\\t}
		if [[ $s == *[$'\x01'-$'\x1f'$'\x7f']* ]]; then
			setopt localoptions extendedglob
			s=${s//(#m)[$'\x01'-$'\x1f'$'\x7f']/\\u${(L)${(l:4::0:)$(( [##16] #MATCH ))}}}
		fi
	fi
	REPLY="\"$s\""
}

# The flat reply $__dlb_rep, parsed in one pass into __dlb_r (key: value;
# strings decoded, scalars as written).  Returns 1 when it is not an object.
typeset -gA __dlb_r __dlb_unesc
__dlb_unesc=(n $'\n' t $'\t' r $'\r' b $'\b' f $'\f')
__deliberate_parse() {
	local rep=$__dlb_rep k q=\"
	local -a p
	integer i n
	__dlb_r=()
	[[ $rep == \{*\} ]] || return 1
	if [[ $rep != *\\* ]]; then
		# No escape: strings hold no quote, so splitting on quotes
		# alternates structure and string contents.
		p=("${(@ps:$q:)rep}")
		n=$#p
		for (( i = 2; i < n; i += 2 )); do
			[[ $p[i+1] == :* ]] || continue
			if [[ $p[i+1] == : ]]; then
				__dlb_r[$p[i]]=$p[i+2]
				(( i += 2 ))
			else
				k=${p[i+1]#:}
				__dlb_r[$p[i]]=${k%%[,\}\]]*}
			fi
		done
		return 0
	fi
	setopt localoptions extendedglob
	: ${rep//(#b)\"([a-zA-Z]##)\":(\"((\\?|[^\"\\])#)\"|([^,\}\"\[]#))/${__dlb_r[$match[1]]::=$match[3]$match[5]}}
	for k in ${(k)__dlb_r}; do
		[[ $__dlb_r[$k] == *\\* ]] || continue
		__dlb_r[$k]=${__dlb_r[$k]//(#m)\\(u[[:xdigit:]](#c4)|?)/${${(M)MATCH:#\\u*}:+${(#):-0x${MATCH:2}}}${${MATCH:#\\u*}:+${__dlb_unesc[${MATCH:1}]-${MATCH:1}}}}
	done
	return 0
}

# The value of "$1" in the reply, in REPLY (kept for compatibility).
__deliberate_jget() {
	emulate -L zsh
	__deliberate_parse
	REPLY=${__dlb_r[$1]-}
}

# Whether line $1 is obviously read-only (the same list and rules as
# bash-builtin.c): recorded fire-and-forget, without waiting for a verdict.
__deliberate_fast() {
	[[ ${DELIBERATE_FASTPATH-} != 0 && $#1 -le 200 &&
	    $1 != *[^a-zA-Z0-9\ _./:,@%+-]* ]] || return 1
	local -a w
	w=(${(s: :)1})
	case $w[1] in
	ls|ll|la|pwd|cd|echo|true|:|date|whoami|id|clear|jobs|uptime|cal|\
	hostname|uname|df|free|which|tty|dirs|man|type)
		return 0 ;;
	# history -c/-d/-w is dangerous (hist:clear).
	history)
		[[ $1 != *-* ]] ;;
	# A dot file (~/.ssh/id_rsa, .aws/credentials) or a secret's name
	# (grep DB_PASSWORD wp-config.php) gets a moderate note.
	cat|less|more|head|tail|grep|rg)
		[[ $1 != *[/\ ].* && ${(L)1} != *(pass|secret|token|key|cred)* ]] ;;
	git)
		case $w[2] in
		branch)	[[ $1 != *-* ]] ;;
		status|log|diff|show) [[ $1 != *output* ]] ;;
		*)	return 1 ;;
		esac ;;
	*)	return 1 ;;
	esac
}

__deliberate_sockpath() {
	if [[ -n ${DELIBERATE_SOCKET-} ]]; then
		REPLY=$DELIBERATE_SOCKET
	elif [[ -n ${XDG_RUNTIME_DIR-} ]]; then
		REPLY=$XDG_RUNTIME_DIR/deliberate/sock
	elif [[ -n ${DELIBERATE_HOME-} ]]; then
		REPLY=$DELIBERATE_HOME/run/sock
	else
		REPLY=$HOME/.deliberate/run/sock
	fi
}

# Send one message ($1, a JSON object); with $2 = 1 wait for its reply
# (the line that echoes our seq) into __dlb_rep.  Returns 3 when the daemon
# is not there or does not answer in time.
#
# One connection is kept for the session: a connect per command costs more
# than all the rest of the hook.  zsh cannot mark the fd close-on-exec, so
# commands inherit it; the daemon expects no EOF from it, and the hook is
# the only writer.  It is replaced when it is idle for 60 s (the daemon
# closes connections idle for 120 s), when the socket path changes, when a
# write fails (the daemon restarted: one retry on a new connection), and
# after a reply that did not come in time (so that a late reply is never
# taken for the next one; replies carry the request's seq anyway).
__deliberate_send() {
	emulate -L zsh
	setopt localtraps
	# A daemon gone since the last write: EPIPE, not a dead shell.
	trap '' PIPE
	local msg=$1 p buf= line
	integer try fresh rc
	float end
	__dlb_rep=
	if [[ -n ${DELIBERATE_SOCKET-} ]]; then
		p=$DELIBERATE_SOCKET
	elif [[ -n ${XDG_RUNTIME_DIR-} ]]; then
		p=$XDG_RUNTIME_DIR/deliberate/sock
	elif [[ -n ${DELIBERATE_HOME-} ]]; then
		p=$DELIBERATE_HOME/run/sock
	else
		p=$HOME/.deliberate/run/sock
	fi
	if [[ $2 == 1 ]]; then
		(( ++__dlb_seq ))
		msg="{\"seq\":$__dlb_seq,${msg#\{}"
	fi
	msg=$__dlb_pending$msg
	__dlb_pending=
	for try in 1 2; do
		fresh=0
		if [[ -z $__dlb_fd || $p != "$__dlb_fd_path" ]] ||
		    (( EPOCHREALTIME - __dlb_fd_t > 60 )); then
			__deliberate_close
			[[ -S $p ]] || return 3
			zsocket $p 2>/dev/null || return 3
			__dlb_fd=$REPLY __dlb_fd_path=$p fresh=1
		elif [[ $2 == 1 ]] && (( __dlb_sys )); then
			# Unread bytes: a reply nobody waited for.  EOF: gone.
			while sysread -t 0 -i $__dlb_fd -s 4096 buf; do :; done
			if (( $? == 5 )); then
				__deliberate_close
				continue
			fi
			buf=
		fi
		print -r -u $__dlb_fd -- "$msg" 2>/dev/null && break
		__deliberate_close
		(( fresh )) && return 3
	done
	[[ -n $__dlb_fd ]] || return 3
	__dlb_fd_t=$EPOCHREALTIME
	if [[ $2 != 1 ]]; then
		(( ++__dlb_ff ))
		return 0
	fi
	(( end = EPOCHREALTIME + ${DELIBERATE_HOOK_TIMEOUT_MS:-90} / 1000.0 ))
	while (( EPOCHREALTIME < end )); do
		if (( __dlb_sys )); then
			sysread -t $(( end - EPOCHREALTIME )) -i $__dlb_fd \
			    -s 65536 line || break
			buf+=$line
		else
			read -r -t $(( end - EPOCHREALTIME )) -u $__dlb_fd line ||
			    break
			buf+=$line$'\n'
		fi
		while [[ $buf == *$'\n'* ]]; do
			line=${buf%%$'\n'*}
			buf=${buf#*$'\n'}
			if [[ $line == *\"seq\":${__dlb_seq}[,\}]* ]]; then
				__dlb_rep=$line __dlb_ff=0
				return 0
			fi
		done
	done
	__deliberate_close
	return 3
}

# Read the trigger file (risk-rules/README.md, "Trigger words") when it
# changed: every word that can make a line anything but safe.  A line of
# plain word characters without any of them is recorded fire-and-forget.
# Looked at every few seconds at most; without it, or without zsh/stat,
# only the built-in fast-path list applies.
__deliberate_triggers() {
	emulate -L zsh
	local f=${__dlb_fd_path:-$DELIBERATE_SOCKET}
	local -a st w
	__dlb_trig_t=$EPOCHREALTIME
	f=${f:h}/triggers
	if (( ! __dlb_stat )) || [[ ! -f $f ]] ||
	    ! zstat -A st -- $f 2>/dev/null || [[ $st[5] != $UID ]]; then
		__dlb_trigs=() __dlb_trigpat='(|)' __dlb_trig_id=
		return 0
	fi
	[[ "$st[2] $st[10] $st[8]" == "$__dlb_trig_id" ]] && return 0
	w=(${=${"$(<$f)"}})
	if [[ $w[1] != deliberate-triggers-v1 ]]; then
		__dlb_trigs=() __dlb_trigpat='(|)' __dlb_trig_id=
		return 0
	fi
	__dlb_trigs=(${${w[2,-1]}:#*\*})
	w=(${(M)${w[2,-1]}:#?*\*})
	if (( $#w )); then
		# Prefix entries: "mkfs*" matches mkfs.ext4.  Metacharacters
		# quoted; the words are plain anyway.
		__dlb_trigpat="(${(j:|:)${(b)w%\*}})*"
	else
		__dlb_trigpat='(|)'
	fi
	__dlb_trig_id="$st[2] $st[10] $st[8]"
}

__deliberate_close() {
	[[ -n $__dlb_fd ]] && exec {__dlb_fd}>&-
	__dlb_fd=
}

__deliberate_reset() {
	DELIBERATE_ACTION=$1 DELIBERATE_RISK= DELIBERATE_RULE=
	DELIBERATE_DESC= DELIBERATE_ALT= DELIBERATE_CHECK_ID=
	DELIBERATE_TIMEOUT=30 DELIBERATE_MODE= DELIBERATE_NOTE=
	DELIBERATE_ERROR= DELIBERATE_ENTRY_ID=
}

# The context fields of a request (cwd, tty, term, session, pathEnv, pid,
# ppid, interactive, sudo) are rebuilt only when one of them changed.
typeset -g __dlb_ctx= __dlb_ctx_key=
__deliberate_context() {
	local key=$PWD$'\0'${TTY-}$'\0'${TERM-}$'\0'$DELIBERATE_SESSION$'\0'$PATH$'\0'${SUDO_UID+1}
	[[ $key == $__dlb_ctx_key && -n $__dlb_ctx ]] && return 0
	local k v
	__dlb_ctx=
	for k v in cwd "$PWD" tty "${TTY-}" term "${TERM-}" \
	    session "$DELIBERATE_SESSION" pathEnv "$PATH"; do
		__deliberate_json "$v"
		__dlb_ctx+=",\"$k\":$REPLY"
	done
	__dlb_ctx+=",\"pid\":$$,\"ppid\":$PPID,\"interactive\":true"
	[[ -n ${SUDO_UID-} ]] && __dlb_ctx+=',"sudo":true'
	__dlb_ctx_key=$key
}

# Ask the daemon about line $1, recording it unless $2 is 0.  A read-only
# line that is recorded goes fire-and-forget (an "event" with "ack": false;
# DELIBERATE_OK=fast, and its outcome goes to the session's last entry).
__deliberate_ask() {
	emulate -L zsh
	local line=$1 rec=${2:-1} msg
	integer ts
	DELIBERATE_OK=
	if (( ! __dlb_zsocket )); then
		__deliberate_reset down
		[[ -n $__dlb_cli ]] || return 3
		local out
		out=$("$__dlb_cli" check ${${rec:#0}:+--record} --shell zsh \
		    --format sh --session "$DELIBERATE_SESSION" --pid $$ \
		    --ppid $PPID --timeout 90 -- "$line" 2>/dev/null)
		(( $? <= 1 )) && eval "$out"
		return 0
	fi
	# Daemon down (no kept connection, no socket): no request built.
	if [[ -z $__dlb_fd ]]; then
		__deliberate_sockpath
		if [[ ! -S $REPLY ]]; then
			__deliberate_reset down
			return 3
		fi
	fi
	# The hot path is inline: a zsh function call costs more than the
	# work in most of them.  The context is rebuilt when it changed.
	[[ $PWD$'\0'${TTY-}$'\0'${TERM-}$'\0'$DELIBERATE_SESSION$'\0'$PATH$'\0'${SUDO_UID+1} == "$__dlb_ctx_key" && -n $__dlb_ctx ]] ||
	    __deliberate_context
	if [[ $line == *[\\\"$'\x01'-$'\x1f'$'\x7f']* ]]; then
		__deliberate_json "$line"
	else
		REPLY="\"$line\""
	fi
	(( ts = ${EPOCHREALTIME:-0} * 1000 ))
	if [[ $rec != 0 ]] && (( __dlb_ff < 48 )) && __deliberate_fast "$line"; then
		msg='{"v":1,"type":"event","ack":false,"source":"hook","shell":"zsh","action":"execute","line":'$REPLY$__dlb_ctx
		msg+=$__dlb_istty
		if ! __deliberate_send "$msg,\"ts\":$ts}" 0; then
			__deliberate_reset down
			return 3
		fi
		DELIBERATE_ACTION=allow DELIBERATE_RISK=safe DELIBERATE_OK=fast
		DELIBERATE_ENTRY_ID= DELIBERATE_CHECK_ID=
		return 0
	fi
	msg='{"v":1,"type":"check","source":"hook","shell":"zsh"'
	[[ $rec == 0 ]] && msg+=',"record":false' || msg+=',"record":true'
	msg+=",\"line\":$REPLY$__dlb_ctx"
	msg+=$__dlb_istty
	# The daemon judges what an alias expands to, too.
	local -a ws
	ws=(${(z)line})
	if [[ -n $ws[1] && -n ${aliases[$ws[1]]-} ]]; then
		__deliberate_json "${aliases[$ws[1]]}"
		msg+=",\"aliasValue\":$REPLY"
	fi
	if ! __deliberate_send "$msg,\"ts\":$ts}" 1; then
		__deliberate_reset down
		return 3
	fi
	__deliberate_reset allow
	if ! __deliberate_parse || [[ ${__dlb_r[ok]-} != true ]]; then
		DELIBERATE_ERROR=${__dlb_r[error]-}
		return 1
	fi
	DELIBERATE_ACTION=${__dlb_r[action]:-allow}
	DELIBERATE_RISK=${__dlb_r[riskLevel]-}
	DELIBERATE_RULE=${__dlb_r[patternId]-}
	DELIBERATE_DESC=${__dlb_r[description]-}
	DELIBERATE_ALT=${__dlb_r[alternative]-}
	DELIBERATE_CHECK_ID=${__dlb_r[checkId]-}
	DELIBERATE_TIMEOUT=${__dlb_r[promptTimeout]:-30}
	DELIBERATE_MODE=${__dlb_r[mode]-}
	DELIBERATE_NOTE=${__dlb_r[moderateNote]-}
	# The entry written (not for a prompt: the decision's reply has it).
	DELIBERATE_ENTRY_ID=${__dlb_r[id]-}
	return 0
}

# Send the answer to check $1: action $2, $3 ms, modified line $4.
__deliberate_decide() {
	emulate -L zsh
	local msg
	[[ -n $1 ]] || return 0
	if (( ! __dlb_zsocket )); then
		[[ -n $__dlb_cli ]] && "$__dlb_cli" decision --check-id "$1" \
		    --action "$2" --time "$3" ${4+--modified "$4"} \
		    >/dev/null 2>&1
		return 0
	fi
	__deliberate_json "$1"
	msg="{\"v\":1,\"type\":\"decision\",\"checkId\":$REPLY"
	msg+=",\"action\":\"$2\",\"decisionTime\":$3"
	if (( $# >= 4 )); then
		__deliberate_json "$4"
		msg+=",\"modifiedCommand\":$REPLY"
	fi
	DELIBERATE_ENTRY_ID=
	DELIBERATE_HOOK_TIMEOUT_MS=1000 __deliberate_send "$msg}" 1 || return 0
	# The reply names the entry written.
	if [[ $__dlb_rep == *'"ok":true'* ]]; then
		__deliberate_jget id
		DELIBERATE_ENTRY_ID=$REPLY
	fi
	return 0
}

# Annotate entry $2 ("-": the session's last entry) with kind $1:
# "outcome" STATUS MS or "correction" RISK (docs/annotations.md).
__deliberate_annotate() {
	emulate -L zsh
	local msg
	if (( ! __dlb_zsocket )); then
		# Only a correction goes through the CLI: no fork per prompt.
		[[ $1 == correction && -n $__dlb_cli ]] || return 0
		if [[ $2 == - ]]; then
			"$__dlb_cli" correct --last --as "$3" >/dev/null 2>&1
		else
			"$__dlb_cli" correct --entry "$2" --as "$3" \
			    >/dev/null 2>&1
		fi
		return 0
	fi
	msg="{\"v\":1,\"type\":\"annotate\",\"kind\":\"$1\""
	if [[ $2 == - ]]; then
		if [[ $DELIBERATE_SESSION == *[\\\"$'\x01'-$'\x1f'$'\x7f']* ]]; then
			__deliberate_json "$DELIBERATE_SESSION"
		else
			REPLY=\"$DELIBERATE_SESSION\"
		fi
		msg+=",\"last\":true,\"session\":$REPLY"
	else
		__deliberate_json "$2"
		msg+=",\"entryId\":$REPLY"
	fi
	case $1 in
	outcome)
		[[ $3 == <-> && $4 == <-> ]] || return 0
		msg+=",\"exitStatus\":$3,\"durationMs\":$4"
		;;
	correction)
		__deliberate_json "$3"
		msg+=",\"correctClassification\":$REPLY"
		;;
	*)
		return 0
		;;
	esac
	# An outcome is fire-and-forget: the prompt never waits for it.
	if [[ $1 == outcome ]]; then
		__deliberate_send "$msg,\"ack\":false}" 0
	else
		DELIBERATE_HOOK_TIMEOUT_MS=1000 __deliberate_send "$msg}" 1
	fi
	return 0
}

# Arm the outcome of the line about to run (a recorded line with an entry).
__deliberate_arm() {
	__dlb_out=0
	# A fast-path line has no entry id yet: the session's last entry.
	[[ -n $DELIBERATE_ENTRY_ID || $DELIBERATE_OK == fast ]] || return 0
	__dlb_out=1
	__dlb_eid=${DELIBERATE_ENTRY_ID:--}
	__dlb_t0=$__dlb_t0check
}

__deliberate_ms() {
	integer ms
	(( ms = (${EPOCHREALTIME:-0} - $1) * 1000 ))
	REPLY=$ms
}

__deliberate_warn_down() {
	(( __dlb_warned )) && return 0
	__dlb_warned=1
	print -u2 'deliberate: daemon unreachable; commands run unchecked' \
	    '(start it with: deliberate daemon start)'
}

# The daemon is down: the CLI seals the line into the spool, in the
# background, and the daemon records it when it is back.
__deliberate_spool() {
	[[ -n $__dlb_cli ]] || return 0
	( "$__dlb_cli" log --source hook --shell zsh --cwd "$PWD" \
	    --line "$1" </dev/null >/dev/null 2>&1 &! )
}

# Drop the line (kept in the history) and go back to a fresh prompt.
__deliberate_cancel() {
	print -s -- "$1"
	BUFFER=
	if [[ -n $PREBUFFER ]]; then
		zle send-break
	else
		zle .accept-line
	fi
}

# The accept-line wrapper.
__deliberate_accept_line() {
	local full=$PREBUFFER$BUFFER rec=1 ans= to t0 tty=/dev/tty rc msg= \
	    fdown= ws checked=$__dlb_checked
	# The module asked already: the verdict is in DELIBERATE_*, or the
	# daemon did not answer ("down").
	__dlb_checked=
	if [[ $checked == down ]]; then
		__deliberate_close
		__deliberate_reset down
		fdown=1
	fi
	# The fast path, inline and in as few commands as possible (each zsh
	# command costs microseconds, a function call more): an obviously
	# read-only line (the list and rules of __deliberate_fast), or one
	# without trigger words, is recorded on the kept connection as an
	# "event" with "ack": false (after the outcome of the line before,
	# queued by precmd: one write per line), and runs at once.  Such a
	# line is always complete, so it needs no parse probe.  Anything
	# unusual (no kept connection, a failed write, an edit under way)
	# takes the full path.
	if [[ -z $checked$__dlb_done$__dlb_edit_id && -n $__dlb_fd &&
	    $#full -le 200 &&
	    ${DELIBERATE_FASTPATH-} != 0 && $full == [a-z]* &&
	    $full != *[^a-zA-Z0-9\ _./:,@%+-]* ]] &&
	    (( EPOCHREALTIME - __dlb_fd_t < 60 &&
	    ! ${+aliases[${full%% *}]} && ! ${+functions[${full%% *}]} &&
	    ! $#galiases && ! $#saliases )); then
		case ${full%% *} in
		ls|ll|la|pwd|cd|echo|true|date|whoami|id|clear|jobs|uptime|\
		cal|hostname|uname|df|free|which|tty|dirs|man|type)
			msg=1 ;;
		history)
			[[ $full != *-* ]] && msg=1 ;;
		# Not a dot file, not a secret's name (hookcore.c's readers).
		cat|less|more|head|tail|grep|rg)
			[[ $full != *[/\ ].* &&
			    ${(L)full} != *(pass|secret|token|key|cred)* ]] &&
			    msg=1 ;;
		git)
			case ${${full#git }%% *} in
			branch)	[[ $full != *-* ]] && msg=1 ;;
			status|log|diff|show) [[ $full != *output* ]] && msg=1 ;;
			esac ;;
		*)
			# No trigger word (each word's basename), no prefix.
			(( EPOCHREALTIME - __dlb_trig_t < 5 )) ||
			    __deliberate_triggers
			# Each part between . : - _ as well (ecto.drop), but
			# not of an option.
			ws=(${${=full}:t})
			ws+=(${=${${${${${ws:#-*}//./ }//:/ }//-/ }//_/ }})
			[[ $#__dlb_trigs -gt 0 && -z ${ws:*__dlb_trigs} &&
			    -z ${(M)ws:#${~__dlb_trigpat}} ]] && msg=1 ;;
		esac
	fi
	if [[ -n $msg ]]; then
		[[ $PWD$'\0'${TTY-}$'\0'${TERM-}$'\0'$DELIBERATE_SESSION$'\0'$PATH$'\0'${SUDO_UID+1} == "$__dlb_ctx_key" && -n $__dlb_ctx ]] ||
		    __deliberate_context
		(( __dlb_pipetrap )) && setopt localtraps && trap '' PIPE
		# ts: milliseconds, from EPOCHREALTIME's digits.
		msg='{"v":1,"type":"event","source":"hook","shell":"zsh","action":"execute","line":"'$full'"'$__dlb_ctx$__dlb_istty',"ts":'${EPOCHREALTIME%.*}${${EPOCHREALTIME#*.}[1,3]}
		# After 48 messages without a reply, this one waits for one
		# (the fd blocks: see __dlb_ff); no answer means "down".
		if (( __dlb_ff < 48 )) &&
		    print -r -u $__dlb_fd -- "$__dlb_pending$msg,\"ack\":false}" 2>/dev/null
		then
			# The next prompt queues the outcome for the last entry.
			__dlb_ff+=1 __dlb_pending= __dlb_fd_t=$EPOCHREALTIME \
			    __dlb_done=1 __dlb_out=1 __dlb_eid=- \
			    __dlb_t0=$EPOCHREALTIME DELIBERATE_ACTION=allow \
			    DELIBERATE_RISK=safe DELIBERATE_OK=fast \
			    DELIBERATE_ENTRY_ID= DELIBERATE_CHECK_ID=
			zle __deliberate_orig_accept_line -- "$@"
			return
		fi
		if (( __dlb_ff >= 48 )) && __deliberate_send "$msg}" 1; then
			__dlb_done=1 __dlb_out=1 __dlb_eid=- \
			    __dlb_t0=$EPOCHREALTIME DELIBERATE_ACTION=allow \
			    DELIBERATE_RISK=safe DELIBERATE_OK=fast \
			    DELIBERATE_ENTRY_ID= DELIBERATE_CHECK_ID=
			zle __deliberate_orig_accept_line -- "$@"
			return
		fi
		__deliberate_close
		fdown=1
		__deliberate_reset down
	fi
	# The rest of a line already checked (here-document bodies).
	if [[ -n $__dlb_done || -z ${full//[[:space:]]/} ]]; then
		zle __deliberate_orig_accept_line -- "$@"
		return
	fi
	# Only a complete command is checked: defining a function with the
	# line as its body parses it and runs nothing.
	if [[ -z $checked ]]; then
		unfunction __deliberate_probe 2>/dev/null
		functions[__deliberate_probe]=$full 2>/dev/null
		if (( ! ${+functions[__deliberate_probe]} )); then
			zle __deliberate_orig_accept_line -- "$@"
			return
		fi
		unfunction __deliberate_probe 2>/dev/null
	fi
	__dlb_done=1
	if [[ -n $__dlb_edit_id ]]; then
		__deliberate_ms $__dlb_edit_t0
		__deliberate_decide $__dlb_edit_id modify $REPLY "$full"
		__dlb_edit_id=
	fi
	# Privacy: a line typed with a leading space is checked, never
	# recorded, whatever HIST_IGNORE_SPACE says.
	[[ $full == [[:space:]]* ]] && rec=0
	__dlb_out=0
	[[ -n $checked ]] || __dlb_t0check=${EPOCHREALTIME:-0}
	# A fast-path line whose daemon did not answer is "down" already.
	[[ -n $fdown || -n $checked ]] || __deliberate_ask "$full" $rec
	case $DELIBERATE_ACTION in
	down|'')
		if (( ! __dlb_warned )); then
			zle -I
			__deliberate_warn_down
		fi
		(( rec )) && __deliberate_spool "$full"
		;;
	deny)
		zle -I
		print -u2 -r -- "deliberate: refused (enforce mode):" \
		    "${DELIBERATE_RULE:-?}: $DELIBERATE_DESC"
		[[ -n $DELIBERATE_ALT ]] &&
		    print -u2 -r -- "  safer: $DELIBERATE_ALT"
		__dlb_done=
		__deliberate_cancel "$full"
		return
		;;
	prompt)
		[[ -w $tty ]] || tty=/dev/stderr
		to=${DELIBERATE_PROMPT_TIMEOUT:-${DELIBERATE_TIMEOUT:-30}}
		zle -I
		{
			print
			print -r -- $'deliberate: \e[1;31mdangerous\e[0m command'
			print -r -- "  $full"
			print -r -- "  rule:  ${DELIBERATE_RULE:-?}: $DELIBERATE_DESC"
			[[ -n $DELIBERATE_ALT ]] &&
			    print -r -- "  safer: $DELIBERATE_ALT"
			print -n -r -- "Run it? [y/N/e(dit)/f(alse alarm)] (${to}s) "
		} >$tty
		t0=$EPOCHREALTIME
		# zle -I left the terminal in canonical mode, where read -k
		# would wait for a newline; a fork is fine on this rare path.
		stty -icanon -echo min 1 time 0 <$tty 2>/dev/null
		read -k 1 -t $to ans <$tty
		rc=$?
		stty icanon echo <$tty 2>/dev/null
		if (( rc != 0 )); then
			__deliberate_ms $t0
			print -r -- $'\n'"deliberate: no answer in ${to}s," \
			    "cancelled" >$tty
			__deliberate_decide $DELIBERATE_CHECK_ID timeout $REPLY
			__dlb_done=
			__deliberate_cancel "$full"
			return
		fi
		__deliberate_ms $t0
		case $ans in
		[yY])
			print -r -- y >$tty
			__deliberate_decide $DELIBERATE_CHECK_ID execute $REPLY
			;;
		[fF])
			# False alarm: run it, and correct its entry to safe
			# so that the daemon learns the shape.
			print -r -- f$'\n'"deliberate: remembered as a false" \
			    "alarm" >$tty
			__deliberate_decide $DELIBERATE_CHECK_ID execute $REPLY
			__deliberate_annotate correction \
			    ${DELIBERATE_ENTRY_ID:--} safe
			;;
		[eE])
			print -r -- e >$tty
			__dlb_edit_id=$DELIBERATE_CHECK_ID
			__dlb_edit_t0=$t0
			__dlb_done=
			if [[ -z $PREBUFFER ]]; then
				BUFFER=$full
				CURSOR=$#BUFFER
			else
				print -z -- "$full"
				zle send-break
			fi
			return
			;;
		*)
			print -r -- N$'\n'"deliberate: cancelled" >$tty
			__deliberate_decide $DELIBERATE_CHECK_ID cancel $REPLY
			__dlb_done=
			__deliberate_cancel "$full"
			return
			;;
		esac
		;;
	*)
		if [[ $DELIBERATE_RISK == moderate && $DELIBERATE_NOTE == true ]]
		then
			zle -I
			print -u2 -r -- "deliberate: moderate risk:" \
			    "${DELIBERATE_DESC:-$DELIBERATE_RULE}"
		fi
		;;
	esac
	# Recorded: the next prompt reports its outcome.
	(( rec )) && [[ $DELIBERATE_ACTION != down ]] && __deliberate_arm
	zle __deliberate_orig_accept_line -- "$@"
}

# $? is that of the line that ran.  zsh calls hook functions with their
# status discarded and puts $? and $pipestatus back after each one, so the
# precmd functions after this one and the next line see the user's.
__deliberate_precmd() {
	local __dlb_st=$?
	__dlb_done=
	# The outcome of the line that ran (exit status, duration), queued in
	# one command for the next line's message (ids need no escaping).
	if (( __dlb_out )) &&
	    [[ $DELIBERATE_SESSION$__dlb_eid != *[\\\"$'\x01'-$'\x1f'$'\x7f']* &&
	    $#__dlb_pending -lt 16384 ]]; then
		__dlb_out=0 __dlb_pending+='{"v":1,"type":"annotate","kind":"outcome","ack":false'${${__dlb_eid:#-}:+,\"entryId\":\"$__dlb_eid\"}${${(M)__dlb_eid:#-}:+,\"last\":true,\"session\":\"$DELIBERATE_SESSION\"}',"exitStatus":'$(( __dlb_st & 255 ))',"durationMs":'${${:-$(( (EPOCHREALTIME - __dlb_t0) * 1000 ))}%.*}$'}\n'
	elif (( __dlb_out )); then
		__dlb_out=0
		__deliberate_annotate outcome $__dlb_eid $(( __dlb_st & 255 )) \
		    ${${:-$(( (EPOCHREALTIME - __dlb_t0) * 1000 ))}%.*}
	fi
	return $__dlb_st
}
