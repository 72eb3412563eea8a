# bash completion for deliberate(1).  Source it from ~/.bashrc, or install
# it as /usr/share/bash-completion/completions/deliberate.
#
# The subcommands and flags mirror commands[] in cli/main.c and the
# getopt tables of cli/cmd-*.c; update both together.

__deliberate_commands="check check-privacy classify correct daemon decision
export feedback log purge redact rotate rules run stats status
validate-dataset wrap"

# The flags of one subcommand.
__deliberate_flags() {
	case $1 in
	check)		echo "--record --shell --format --session --pid --ppid --cwd --timeout --help" ;;
	check-privacy)	echo "--help" ;;
	classify)	echo "--json --help" ;;
	correct)	echo "--last --entry --as --help" ;;
	daemon)		echo "--help" ;;
	decision)	echo "--check-id --action --time --modified --help" ;;
	export)		echo "--format --since --until --output --help" ;;
	feedback)	echo "--last --entry --helpful --accurate --comment --help" ;;
	log)		echo "--shell --cwd --line --source --help" ;;
	purge)		echo "--all --before --entry --yes --help" ;;
	redact)		echo "--level --json --jobs --help" ;;
	rotate)		echo "--dry-run --quiet --help" ;;
	rules)		echo "--category --risk --json --learned --forget --help" ;;
	run)		echo "--mode --strict --help" ;;
	stats)		echo "--json --since --until --help" ;;
	status)		echo "--json --help" ;;
	validate-dataset) echo "--quiet --help" ;;
	wrap)		echo "--mode --shell --help" ;;
	esac
}

# The ids of the learned overrides (deliberate rules --learned).
__deliberate_learned() {
	deliberate rules --learned 2>/dev/null | awk '{ print $1 }'
}

_deliberate() {
	local cur prev sub i
	COMPREPLY=()
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}

	if [ "$COMP_CWORD" -eq 1 ]; then
		case $cur in
		-*) COMPREPLY=($(compgen -W "--help --version" -- "$cur")) ;;
		*) COMPREPLY=($(compgen -W "$__deliberate_commands" -- "$cur")) ;;
		esac
		return 0
	fi
	sub=${COMP_WORDS[1]}
	# After "--" everything is the command line being checked or run.
	for ((i = 2; i < COMP_CWORD; i++)); do
		[ "${COMP_WORDS[i]}" = "--" ] && return 0
	done

	# Values of flags that take one.
	case $sub:$prev in
	export:--format)	COMPREPLY=($(compgen -W "ndjson json training" -- "$cur")); return 0 ;;
	check:--format)		COMPREPLY=($(compgen -W "sh json" -- "$cur")); return 0 ;;
	redact:--level)		COMPREPLY=($(compgen -W "minimal standard maximum" -- "$cur")); return 0 ;;
	run:--mode|wrap:--mode)	COMPREPLY=($(compgen -W "monitor enforce" -- "$cur")); return 0 ;;
	wrap:--shell)		COMPREPLY=($(compgen -W "sh fish github" -- "$cur")); return 0 ;;
	check:--shell|log:--shell) COMPREPLY=($(compgen -W "bash zsh sh fish" -- "$cur")); return 0 ;;
	log:--source)		COMPREPLY=($(compgen -W "cli hook" -- "$cur")); return 0 ;;
	rules:--risk)		COMPREPLY=($(compgen -W "safe moderate dangerous" -- "$cur")); return 0 ;;
	rules:--category)	COMPREPLY=($(compgen -W "$(ls "${DELIBERATE_SHARE:-/usr/share/deliberate}/risk-rules" 2>/dev/null | sed -n "s/\.rules$//p")" -- "$cur")); return 0 ;;
	correct:--as)		COMPREPLY=($(compgen -W "safe moderate dangerous" -- "$cur")); return 0 ;;
	feedback:--helpful|feedback:--accurate)
		COMPREPLY=($(compgen -W "y n" -- "$cur")); return 0 ;;
	rules:--forget)		COMPREPLY=($(compgen -W "$(__deliberate_learned)" -- "$cur")); return 0 ;;
	decision:--action)	COMPREPLY=($(compgen -W "execute cancel modify timeout" -- "$cur")); return 0 ;;
	*:--output)		COMPREPLY=($(compgen -f -- "$cur")); return 0 ;;
	*:--cwd)		COMPREPLY=($(compgen -d -- "$cur")); return 0 ;;
	*:--since|*:--until|*:--before)
		COMPREPLY=($(compgen -W "$(date +%F)" -- "$cur")); return 0 ;;
	*:--session|*:--pid|*:--ppid|*:--timeout|*:--check-id|*:--time|\
	*:--modified|*:--line|*:--entry|*:--comment)
		return 0 ;;
	esac

	case $sub in
	daemon)
		if [ "$COMP_CWORD" -eq 2 ]; then
			COMPREPLY=($(compgen -W "start stop status --help" -- "$cur"))
		fi
		return 0 ;;
	validate-dataset|check-privacy)
		if [[ $cur != -* ]]; then
			COMPREPLY=($(compgen -f -- "$cur"))
			return 0
		fi ;;
	esac
	if [[ $cur == -* ]] || [ -z "$cur" ]; then
		COMPREPLY=($(compgen -W "$(__deliberate_flags "$sub")" -- "$cur"))
	fi
	return 0
}

complete -o default -F _deliberate deliberate
