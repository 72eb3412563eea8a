#!/bin/bash
# Shell completions: the bash one completes every subcommand of
# commands[] and their flags; the zsh one loads under compinit and
# defines _deliberate.  Both list exactly the subcommands of
# 'deliberate --help'.
. "$(dirname "$0")/../lib/test-lib.sh"

comp=$SRC/shell-hooks/completion.bash
zcomp=$SRC/shell-hooks/_deliberate

# complete WORD... : COMPREPLY for the last word, one per line, sorted.
complete_words() {
	bash -c '
		. "$1"; shift
		COMP_WORDS=(deliberate "$@"); COMP_CWORD=$#
		_deliberate
		printf "%s\n" "${COMPREPLY[@]}" | sort
	' complete_words "$comp" "$@"
}

test_expect_success 'bash: the file loads cleanly' '
	bash -n "$comp" && bash -c ". \"$comp\" && complete -p deliberate" | grep_f "_deliberate" /dev/stdin
'

test_expect_success 'bash: subcommands by prefix' '
	complete_words ex >"$T/o" && printf "export\n" >"$T/w" && test_cmp "$T/w" "$T/o" &&
	complete_words st >"$T/o" && printf "stats\nstatus\n" >"$T/w" && test_cmp "$T/w" "$T/o" &&
	complete_words va >"$T/o" && printf "validate-dataset\n" >"$T/w" && test_cmp "$T/w" "$T/o" &&
	complete_words ro >"$T/o" && printf "rotate\n" >"$T/w" && test_cmp "$T/w" "$T/o"
'

test_expect_success 'bash: every subcommand of deliberate --help is completed' '
	deliberate --help | sed -n "/^Commands:/,/^$/p" | awk "NF > 1 { print \$1 }" | sort >"$T/cmds" &&
	test "$(wc -l <"$T/cmds")" -ge 15 &&
	complete_words "" >"$T/o" && test_cmp "$T/cmds" "$T/o"
'

test_expect_success 'bash: flags and their values' '
	complete_words export --f >"$T/o" && printf -- "--format\n" >"$T/w" && test_cmp "$T/w" "$T/o" &&
	complete_words export --format "" >"$T/o" && printf "json\nndjson\ntraining\n" >"$T/w" && test_cmp "$T/w" "$T/o" &&
	complete_words stats --s >"$T/o" && printf -- "--since\n" >"$T/w" && test_cmp "$T/w" "$T/o" &&
	complete_words purge --e >"$T/o" && printf -- "--entry\n" >"$T/w" && test_cmp "$T/w" "$T/o" &&
	complete_words purge --a >"$T/o" && printf -- "--all\n" >"$T/w" && test_cmp "$T/w" "$T/o" &&
	complete_words rotate --d >"$T/o" && printf -- "--dry-run\n" >"$T/w" && test_cmp "$T/w" "$T/o" &&
	complete_words daemon s >"$T/o" && printf "start\nstatus\nstop\n" >"$T/w" && test_cmp "$T/w" "$T/o" &&
	complete_words validate-dataset --q >"$T/o" && printf -- "--quiet\n" >"$T/w" && test_cmp "$T/w" "$T/o"
'

test_expect_success 'bash: every long option in cli/cmd-*.c is offered' '
	for f in "$SRC"/cli/cmd-*.c; do
		sub=$(basename "$f" .c); sub=${sub#cmd-}
		# cmd-daemon.c has no long options: grep finding none is fine.
		{ grep -oE "\\{ \"[a-z-]+\", (no|required|optional)_argument" "$f" || test $? -eq 1; } |
		    sed -E "s/^\\{ \"([a-z-]+)\".*/--\\1/" | sort -u >"$T/want"
		complete_words "$sub" -- >"$T/got"
		complete_words "$sub" "" >>"$T/got"
		sort -u "$T/got" -o "$T/got"
		missing=$(comm -23 "$T/want" "$T/got")
		[ -z "$missing" ] || { echo "$sub: missing $missing"; exit 1; }
	done
'

test_expect_success 'zsh: _deliberate loads under compinit' '
	if ! have zsh; then echo "zsh missing, skipped"; exit 0; fi
	mkdir -p "$T/fpath" && cp "$zcomp" "$T/fpath/_deliberate" &&
	HOME=$T zsh -f -c "
		fpath=(\"$T/fpath\" \$fpath)
		autoload -U compinit; compinit -u -d \"$T/zcompdump\"
		[[ \${_comps[deliberate]} == _deliberate ]] || exit 1
		autoload -Uz +X _deliberate || exit 2
		(( \${+functions[_deliberate]} )) || exit 3
	" &&
	zsh -n "$zcomp"
'

test_expect_success 'zsh: the same subcommands as deliberate --help' '
	sed -n "/^	commands=(/,/^	)/p" "$zcomp" | grep -oE "^		.[a-z-]+:" |
	    tr -d "\t'\'':" | sort >"$T/z" &&
	test_cmp "$T/cmds" "$T/z"
'

test_done
