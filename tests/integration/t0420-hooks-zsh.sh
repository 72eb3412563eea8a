#!/bin/bash
# The zsh hook in a real interactive zsh (tmux pty) against the real
# daemon: the accept-line wrapper, prompts, decisions, and intact chains.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$(dirname "$0")/t04-lib-hooks.inc"
have zsh || skip_all 'zsh is not installed'
# With the hook's module (built where zsh's headers are) the common line
# runs in C and precmd's work needs no function; t0421 runs this file
# again without it (DELIBERATE_ZSH_MODULE=none).
zmod=0
[ -f "$BUILD/zsh/deliberate/hook.so" ] &&
    [ "${DELIBERATE_ZSH_MODULE-}" != none ] && zmod=1
say "# zsh module: $zmod"

# The hooks are matched by fullCommand, so keep home paths as typed.
mkdir -p -m 0700 "$DELIBERATE_HOME"
printf 'anonymizationLevel = minimal\n' >"$DELIBERATE_HOME/config"
daemon_start || exit 1
mkdir -p "$T/w"

# zrc NAME 'lines before the source line' ['lines after']
zrc() {
	mkdir -p "$T/z-$1"
	printf "PS1='%s%%%% '\n%s\nsource '%s/deliberate.zsh'\n%s\n" \
	    "$1" "$2" "$HOOKS" "${3:-}" >"$T/z-$1/.zshrc"
}
zstart() {
	tstart "$1" "cd '$T/w' && env ZDOTDIR='$T/z-$1' \
	    DELIBERATE_PROMPT_TIMEOUT=${PT:-30} zsh -i"
	twait "$1" "$1% "
}

zrc z1 "setopt HIST_IGNORE_SPACE
__pre=0 __pex=0 __acc=0
my_precmd() { __pre=\$((__pre+1)); }
my_preexec() { __pex=\$((__pex+1)); }
precmd_functions+=(my_precmd); preexec_functions+=(my_preexec)
my-accept() { __acc=\$((__acc+1)); zle .accept-line; }
zle -N accept-line my-accept" \
    "source '$HOOKS/deliberate.zsh'"
zstart z1

t_first() {
	tsend z1 'echo zfirst-$((6*7))'
	twait z1 zfirst-42
	ewait 'echo zfirst-$((6*7))' execute
	test "$(efield 'echo zfirst-$((6*7))' 'e["context"]["environment"]["captureLayer"] + " " + str(e["context"]["environment"]["isInteractive"]) + " " + e["context"]["environment"]["shell"]')" = "hook True zsh"
}
test_expect_success 'the first command of a session runs and is recorded' t_first

t_prompt_no() {
	mkdir -p "$HOME/victim"
	n0=$(tcount z1 'Run it? [y/N/e')
	c0=$(tcount z1 'deliberate: cancelled')
	tsend z1 "rm -rf ~/victim; echo after-veto"
	twait z1 'Run it? [y/N/e' $((n0 + 1))
	sleep 0.3
	tkeys z1 n
	twait z1 'deliberate: cancelled' $((c0 + 1))
	ewait "rm -rf ~/victim; echo after-veto" cancel
	test -d "$HOME/victim"
	! tscreen z1 | grep -q '^after-veto'
}
test_expect_success 'rm -rf prompts; n keeps the directory, records cancel' t_prompt_no

t_alias() { hook_alias z1; }
test_expect_success 'an alias is judged by what it expands to' t_alias

t_prompt_yes() {
	n0=$(tcount z1 'Run it? [y/N/e')
	c0=$(tcount z1 'deliberate: cancelled')
	tsend z1 "rm -rf ~/victim"
	twait z1 'Run it? [y/N/e' $((n0 + 1))
	sleep 0.3
	tkeys z1 y
	ewait "rm -rf ~/victim" execute || { tscreen z1 | grep -v "^$" | tail -n 20; false; }
	for i in $(seq 50); do test -d "$HOME/victim" || break; sleep 0.1; done
	test ! -d "$HOME/victim"
}
test_expect_success 'y runs it and records execute' t_prompt_yes

t_prompt_edit() {
	mkdir -p "$HOME/victim"
	n0=$(tcount z1 'Run it? [y/N/e')
	c0=$(tcount z1 'deliberate: cancelled')
	tsend z1 "rm -rf ~/victim  "
	twait z1 'Run it? [y/N/e' $((n0 + 1))
	sleep 0.3
	tkeys z1 e
	sleep 0.3
	tkeys z1 C-u
	tsend z1 "rmdir ~/victim"
	ewait "rm -rf ~/victim  " modify
	test "$(efield "rm -rf ~/victim  " 'e["userDecision"].get("modifiedCommand")')" = "rmdir ~/victim"
	for i in $(seq 50); do test -d "$HOME/victim" || break; sleep 0.1; done
	test ! -d "$HOME/victim"
}
test_expect_success 'e puts the line back in the editor; records modify' t_prompt_edit

t_one_per_line() {
	tsend z1 'echo a | cat | cat'
	tsend z1 'true && echo b; echo c'
	tsend z1 'for i in 1 2 3'
	tsend z1 'do :; done'
	tsend z1 'zfn() { echo in-zfn; }'
	tsend z1 'zfn'
	tsync z1
	test "$(ecount 'echo a | cat | cat')" = 1
	test "$(ecount 'true && echo b; echo c')" = 1
	test "$(ecount "$(printf 'for i in 1 2 3\ndo :; done')")" = 1
	test "$(ecount 'zfn() { echo in-zfn; }')" = 1
	twait z1 in-zfn
}
test_expect_success 'one record per line, multi-line loops included' t_one_per_line

t_status() {
	tsend z1 'false | true'
	tsend z1 'echo ps=$pipestatus'
	twait z1 'ps=1 0'
	tsend z1 '(exit 7)'
	tsend z1 'echo st=$?'
	twait z1 'st=7'
	tsend z1 'echo one two'
	tsend z1 'echo last=$_'
	twait z1 'last=two'
}
test_expect_success '$?, pipestatus and $_ are preserved' t_status

t_chains() {
	tsend z1 'echo pre=$__pre pex=$__pex acc=$__acc'
	twait z1 'pre='
	line=$(tscreen z1 | grep '^pre=' | tail -n 1)
	pre=${line#pre=}; pre=${pre%% *}
	acc=${line##*acc=}
	test "$pre" -gt 5
	test "$acc" -gt 5
	tsend z1 'print -l $precmd_functions | sort | uniq -d | wc -l'
	tsend z1 'echo n=${#precmd_functions} zmod=$__dlb_zmod'
	twait z1 "n=$((2 - zmod)) zmod=$zmod"
}
test_expect_success 'precmd/preexec chains and the existing accept-line widget run' t_chains

t_space() {
	tsend z1 ' echo zspace-private'
	twait z1 'zspace-private' 2
	tsync z1
	test "$(ecount ' echo zspace-private')" = 0
	test "$(ecount 'echo zspace-private')" = 0
}
test_expect_success 'a line with a leading space runs and is not recorded' t_space

t_noninteractive() {
	out=$(zsh -fc "source '$HOOKS/deliberate.zsh'; echo znonint-ok" 2>&1)
	test "$out" = znonint-ok
	sleep 0.3
	test "$(ecount 'echo znonint-ok')" = 0
}
test_expect_success 'nothing happens or prints in zsh -c' t_noninteractive

zrc z2 "setopt nounset" \
    "for i in {1..99}; do source '$HOOKS/deliberate.zsh'; done"
zstart z2
t_double() {
	tsend z2 'echo zdouble-ok'
	twait z2 zdouble-ok
	tsync z2
	test "$(ecount 'echo zdouble-ok')" = 1
	tsend z2 'echo n=${${precmd_functions-}:+${#precmd_functions}} w=$widgets[accept-line]'
	if [ $zmod = 1 ]; then
		twait z2 'n= w=builtin'
	else
		twait z2 'n=1 w=user:__deliberate_accept_line'
	fi
	! tscreen z2 | grep -q 'parameter not set'
}
test_expect_success 'sourcing 100 times under nounset does not stack' t_double

zrc z3 ""
PT=1 zstart z3
t_timeout() {
	mkdir -p "$HOME/victim"
	tsend z3 "rm -rf ~/victim # timeout"
	twait z3 'no answer in 1s'
	ewait "rm -rf ~/victim # timeout" timeout
	test -d "$HOME/victim"
}
test_expect_success 'no answer within the timeout cancels and records timeout' t_timeout

zrc z4 ""
zstart z4
t_trigger_free() { hook_trigger_free z4; }
test_expect_success 'a line without trigger words is recorded without waiting' t_trigger_free

zrc z9 ""
zstart z9
if [ $zmod = 1 ]; then
	t_seen() { hook_seen z9; }
	test_expect_success 'a line judged safe is recorded without waiting when typed again' t_seen
else
	# The script alone keeps no memory of lines (shell-hooks/README.md).
	t_seen_script() {
		local c0 c
		c0=$(checks_now)
		tsend z9 'git --version'
		ewait 'git --version' execute || return 1
		tsend z9 'git --version'
		ewait 'git --version' execute 2 || return 1
		c=$(checks_now)
		[ "$c" = $((c0 + 2)) ] || { echo "checks $c, want $((c0 + 2))"; return 1; }
	}
	test_expect_success 'the script alone asks about a line typed again' t_seen_script
fi

# Each loaded module is five more mappings that every fork of the shell
# copies: the module-served shell loads none of the script's (socket,
# system, stat) nor zsh/zleparameter, until a line needs the script.
# (zsh/parameter is not checked: Debian's /etc/zsh/zshrc loads it.)
zrc zm ""
zstart zm
t_modules() {
	tsend zm 'echo zm-warm-up'
	twait zm zm-warm-up
	tsend zm 'if zmodload -e zsh/net/socket || zmodload -e zsh/system || zmodload -e zsh/stat || zmodload -e zsh/zleparameter; then echo zmods-$((1+1))-some; else echo zmods-$((1+1))-none; fi'
	if [ $zmod = 1 ]; then
		twait zm zmods-2-none
	else
		twait zm zmods-2-some
	fi
}
test_expect_success 'the module-served shell loads only the modules it uses' t_modules

t_stopped() { hook_stopped z4; }
test_expect_success 'a stopped daemon never blocks the shell' t_stopped

t_down() {
	daemon_kill9
	tsend z1 'echo zdown-1'
	tsend z1 'echo zdown-2'
	tsend z1 'echo zdown-3'
	twait z1 'zdown-3' 2
	test "$(tscreen z1 | grep -c 'daemon unreachable')" = 1
}
test_expect_success 'with the daemon killed commands run, one warning' t_down

t_enforce() {
	printf 'mode = enforce\nanonymizationLevel = minimal\n' >"$DELIBERATE_HOME/config"
	daemon_start
	mkdir -p "$HOME/victim"
	tsend z1 "rm -rf ~/victim # enforce"
	twait z1 'refused (enforce mode)'
	ewait "rm -rf ~/victim # enforce" cancel
	test -d "$HOME/victim"
}
test_expect_success 'enforce mode refuses dangerous commands' t_enforce

t_outcome() { hook_outcome z1; }
test_expect_success 'the exit status and duration of a line reach its entry' t_outcome

# The module keeps two, close-on-exec (checks, quiet); the script alone
# keeps one that commands inherit (zsocket cannot set close-on-exec).
if [ $zmod = 1 ]; then
	t_kept() { hook_kept z1 0 2; }
else
	t_kept() { hook_kept z1 1 1; }
fi
test_expect_success 'the kept connections: two with the module, one without; commands inherit them only without' t_kept

test_expect_success 'every entry validates against the schema' \
	'validate_entries "$(today_file)"'
test_done
