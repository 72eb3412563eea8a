#!/bin/bash
# The bash hook in a real interactive bash (tmux pty) against the real
# daemon: checks, prompts, decisions, and a shell left fully working.
. "$(dirname "$0")/../lib/test-lib.sh"
. "$(dirname "$0")/t04-lib-hooks.inc"

# The hooks are matched by fullCommand, so keep home paths as typed.
mkdir -p -m 0700 "$DELIBERATE_HOME"
printf 'anonymizationLevel = minimal\n' >"$DELIBERATE_HOME/config"
daemon_start || exit 1
mkdir -p "$T/w"

# rcfile NAME 'lines before the source line' ['lines after']
rcfile() {
	printf "PS1='%s\$ '\n%s\nsource '%s/deliberate.bash'\n%s\n" \
	    "$1" "$2" "$HOOKS" "${3:-}" >"$T/$1.rc"
}
bstart() {
	tstart "$1" "cd '$T/w' && env DELIBERATE_PROMPT_TIMEOUT=${PT:-30} \
	    bash --rcfile '$T/$1.rc' -i"
	twait "$1" "$1\$ "
}
env_of() {
	efield "$1" 'e["context"]["environment"]["captureLayer"] + " " + str(e["context"]["environment"]["isInteractive"]) + " " + e["context"]["environment"]["shell"]'
}

rcfile b1 "__pc=0; PROMPT_COMMAND='__pc=\$((__pc+1))'
__dbg=0; trap '__dbg=\$((__dbg+1)); : \"it'\\''s\"' DEBUG
PS0='[ps0]'
HISTCONTROL=ignoreboth"
bstart b1

t_first() {
	tsend b1 'echo first-$((6*7))'
	twait b1 first-42
	ewait 'echo first-$((6*7))' execute
	test "$(env_of 'echo first-$((6*7))')" = "hook True bash"
	test "$(efield 'echo first-$((6*7))' 'e["classification"]["riskLevel"]')" = safe
}
test_expect_success 'the first command of a session runs and is recorded' t_first

t_second() {
	tsend b1 'ls -d /tmp'
	twait b1 '/tmp'
	ewait 'ls -d /tmp' execute
}
test_expect_success 'a later command (fast path) is recorded too' t_second

t_prompt_no() {
	mkdir -p "$HOME/victim"
	n0=$(tcount b1 'Run it? [y/N/e')
	c0=$(tcount b1 'deliberate: cancelled')
	tsend b1 "rm -rf ~/victim; echo after-veto"
	twait b1 'Run it? [y/N/e' $((n0 + 1))
	tscreen b1 | grep -q 'rule: '
	tkeys b1 n
	twait b1 'deliberate: cancelled' $((c0 + 1))
	tsend b1 'echo st=$?'
	twait b1 'st=130'
	ewait "rm -rf ~/victim; echo after-veto" cancel
	test -d "$HOME/victim"
	! tscreen b1 | grep -q '^after-veto' || return 1
	test "$(efield "rm -rf ~/victim; echo after-veto" 'e["classification"]["riskLevel"]')" = dangerous
}
test_expect_success 'rm -rf prompts; n keeps the directory, records cancel' t_prompt_no

t_alias() { hook_alias b1; }
test_expect_success 'an alias is judged by what it expands to' t_alias

t_prompt_enter() {
	mkdir -p "$HOME/victim"
	n0=$(tcount b1 'Run it? [y/N/e')
	c0=$(tcount b1 'deliberate: cancelled')
	tsend b1 "rm -rf ~/victim "
	twait b1 'Run it? [y/N/e' $((n0 + 1))
	tkeys b1 Enter
	twait b1 'deliberate: cancelled' $((c0 + 1))
	ewait "rm -rf ~/victim " cancel
	test -d "$HOME/victim"
}
test_expect_success 'Enter is N' t_prompt_enter

t_prompt_yes() {
	mkdir -p "$HOME/victim"
	n0=$(tcount b1 'Run it? [y/N/e')
	c0=$(tcount b1 'deliberate: cancelled')
	tsend b1 "rm -rf ~/victim"
	twait b1 'Run it? [y/N/e' $((n0 + 1))
	tkeys b1 y
	ewait "rm -rf ~/victim" execute
	for i in $(seq 50); do test -d "$HOME/victim" || break; sleep 0.1; done
	test ! -d "$HOME/victim"
	dt=$(efield "rm -rf ~/victim" 'e["userDecision"]["decisionTime"]')
	test "$dt" != 0
}
test_expect_success 'y runs it and records execute with a decision time' t_prompt_yes

t_prompt_edit() {
	mkdir -p "$HOME/victim"
	n0=$(tcount b1 'Run it? [y/N/e')
	c0=$(tcount b1 'deliberate: cancelled')
	tsend b1 "rm -rf ~/victim  "
	twait b1 'Run it? [y/N/e' $((n0 + 1))
	tkeys b1 e
	twait b1 'edit> '
	tkeys b1 C-u
	tsend b1 "rmdir ~/victim"
	ewait "rm -rf ~/victim  " modify
	test "$(efield "rm -rf ~/victim  " 'e["userDecision"].get("modifiedCommand")')" = "rmdir ~/victim"
	for i in $(seq 50); do test -d "$HOME/victim" || break; sleep 0.1; done
	test ! -d "$HOME/victim"
}
test_expect_success 'e edits the line, runs the new one, records modify' t_prompt_edit

t_one_per_line() {
	tsend b1 'echo a | cat | cat'
	tsend b1 'true && echo b; echo c'
	tsend b1 'for i in 1 2 3; do :; done'
	tsend b1 'cat <<EOF'
	tsend b1 'heredoc-body'
	tsend b1 'EOF'
	tsend b1 'myfn() { echo in-fn; }'
	tsend b1 'myfn'
	tsync b1
	test "$(ecount 'echo a | cat | cat')" = 1
	test "$(ecount 'true && echo b; echo c')" = 1
	test "$(ecount 'for i in 1 2 3; do :; done')" = 1
	test "$(ecount "$(printf 'cat <<EOF\nheredoc-body\nEOF')")" = 1
	test "$(ecount 'myfn() { echo in-fn; }')" = 1
	test "$(ecount 'myfn')" = 1
	twait b1 in-fn
}
test_expect_success 'one record per line: pipeline, list, loop, heredoc, function' t_one_per_line

t_status() {
	tsend b1 'false | true'
	tsend b1 'echo ps=${PIPESTATUS[*]}'
	twait b1 'ps=1 0'
	tsend b1 '(exit 7)'
	tsend b1 'echo st=$?'
	twait b1 'st=7'
	# The user's own DEBUG trap (b1's) sets $_ before each command, as
	# it would without the hook; without one (b4) $_ is the last word.
	tsend b1 'echo one two'
	tsend b1 'echo last=$_'
	twait b1 "last=it's"
}
test_expect_success '$?, PIPESTATUS and $_ are preserved' t_status

pcs() {	# the pc=N output lines on b1's screen (not the echoed commands)
	tscreen b1 | grep -c '^\(\[ps0\]\)*pc=[0-9][0-9]*$' || true
}
t_chain() {
	# One line at a time: a line typed while the one before still runs is
	# echoed by the tty into the middle of that one's output, and its
	# pc=N line no longer matches (CI once saw only one, and failed).
	# The wait is long: under ASan on a loaded machine a line took more
	# than 10 s once.
	for _ in 1 2; do
		n0=$(pcs)
		tsend b1 'echo pc=$__pc'
		for i in $(seq 300); do
			[ "$(pcs)" -gt "$n0" ] && break
			sleep 0.1
		done
	done
	a=$(tscreen b1 | sed -n 's/^\(\[ps0\]\)*pc=\([0-9]*\)$/\2/p' | tail -n 2 | sed -n 1p)
	b=$(tscreen b1 | sed -n 's/^\(\[ps0\]\)*pc=\([0-9]*\)$/\2/p' | tail -n 1)
	test "$b" -gt "$a"
	tsend b1 'echo dbg=$__dbg'
	twait b1 'dbg='
	n=$(tscreen b1 | sed -n 's/^\(\[ps0\]\)*dbg=\([0-9]*\)$/\2/p' | tail -n 1)
	test "$n" -gt 5
	tscreen b1 | grep -q '\[ps0\]'
	tsend b1 'echo hc=$HISTCONTROL'
	twait b1 'hc=ignoreboth'
	# The user's trap is theirs: the hook lends one of its own only to a
	# line that needs the shell (a prompt), and gives it back.
	tsend b1 'trap -p DEBUG; echo ext=$BASHOPTS'
	twait b1 'ext='
	tscreen b1 | grep -q "trap -- '__dbg="
	! tscreen b1 | grep 'ext=' | grep -q extdebug
}
test_expect_success 'PROMPT_COMMAND string, DEBUG trap with quotes, PS0, HISTCONTROL kept' t_chain

t_space() {
	tsend b1 ' echo space-private-1'
	twait b1 'space-private-1' 2
	tsync b1
	test "$(ecount ' echo space-private-1')" = 0
	test "$(ecount 'echo space-private-1')" = 0
}
test_expect_success 'a line with a leading space runs and is not recorded' t_space

t_jobs() {
	tsend b1 '(sleep 0.2; echo sub-done) &'
	tsend b1 'x=$(echo subst-ok); echo $x'
	twait b1 'subst-ok'
	twait b1 'sub-done'
	tsend b1 'echo alive'
	twait b1 'alive'
}
test_expect_success 'subshells, substitutions and background jobs do not hang' t_jobs

t_noninteractive() {
	out=$(bash --norc -c "source '$HOOKS/deliberate.bash'; echo nonint-ok; rm -rf '$T/nonexistent'" 2>&1)
	test "$out" = nonint-ok
	printf 'source %s/deliberate.bash\necho script-ok\n' "$HOOKS" >"$T/s.sh"
	out=$(bash "$T/s.sh" 2>&1)
	test "$out" = script-ok
	sleep 0.3
	test "$(ecount 'echo nonint-ok')" = 0
	test "$(ecount 'echo script-ok')" = 0
}
test_expect_success 'nothing happens or prints in bash -c and scripts' t_noninteractive

# Sourced 100 times, under set -u, with PROMPT_COMMAND as an array (the
# hook adds no entry to it: bash's lookup of it does the prompt's work).
rcfile b2 "set -o nounset
__pa=0; PROMPT_COMMAND=('__pa=\$((__pa+1))')" \
    "for i in {1..99}; do source '$HOOKS/deliberate.bash'; done"
bstart b2
t_double() {
	tsend b2 'echo double-ok'
	twait b2 double-ok
	tsend b2 'echo n=${#PROMPT_COMMAND[@]} pa=$__pa'
	twait b2 'n=1 pa='
	tsend b2 'echo "hooks=$(echo "$PS0" | grep -o "__dlb_hook" | wc -l)"'
	twait b2 'hooks=1'
	tsync b2
	! tscreen b2 | grep -q 'hooks=[02-9]' || return 1
	test "$(ecount 'echo double-ok')" = 1
	! tscreen b2 | grep -q 'unbound variable'
}
test_expect_success 'sourcing 100 times under nounset; array PROMPT_COMMAND kept' t_double

rcfile b3 ""
PT=1 bstart b3
t_timeout() {
	mkdir -p "$HOME/victim"
	tsend b3 "rm -rf ~/victim # timeout"
	twait b3 'no answer in 1s'
	ewait "rm -rf ~/victim # timeout" timeout
	test -d "$HOME/victim"
}
test_expect_success 'no answer within the timeout cancels and records timeout' t_timeout

rcfile b4 ""
bstart b4
t_trigger_free() { hook_trigger_free b4; }
test_expect_success 'a line without trigger words is recorded without waiting' t_trigger_free

rcfile b9 ""
bstart b9
t_seen() { hook_seen b9; }
test_expect_success 'a line judged safe is recorded without waiting when typed again' t_seen

t_underscore() {
	tsend b4 'echo one two'
	tsend b4 'echo last=$_'
	twait b4 'last=two'
	tsend b4 'trap -p DEBUG; echo "dbg=[$(trap -p DEBUG)]"'
	twait b4 'dbg=[]'
}
test_expect_success '$_ is the last word; no DEBUG trap on common lines' t_underscore

t_pc_anew() {
	# PROMPT_COMMAND unset and set again: a new variable, without the
	# hook's lookup; the next line's PS0 hook does the missed work and
	# hooks the new variable, and the user's prompt command runs.
	# (Unsetting PROMPT_COMMAND disables prompt hooks: it asks.)
	n0=$(tcount b4 'Run it? [y/N/e')
	tsend b4 'unset PROMPT_COMMAND; PROMPT_COMMAND="pcnew=\$((pcnew+1))"'
	twait b4 'Run it? [y/N/e' $((n0 + 1))
	tkeys b4 y
	hook_outcome b4
	tsend b4 'echo "pcnew-ran=$(( pcnew >= 3 ))"'
	twait b4 'pcnew-ran=1'
}
test_expect_success 'outcomes still reach entries after PROMPT_COMMAND is made anew' t_pc_anew

rcfile b6 ""
bstart b6
t_ps0_reset() {
	# A prompt framework that sets PS0 anew before every prompt: the
	# hook's expansion is put back when bash reads PS0, before each line,
	# so every line is still checked.
	tsend b6 'PROMPT_COMMAND='"'"'PS0="[fw]"'"'"
	tsend b6 'echo fw-1'
	tsend b6 'echo fw-2'
	twait b6 '[fw]fw-2'
	ewait 'echo fw-1' execute
	ewait 'echo fw-2' execute
}
test_expect_success 'lines are checked when a prompt framework resets PS0 every prompt' t_ps0_reset

t_kill9() {
	# The fast lines' events wait in the quiet connection's socket
	# buffer until the daemon reads it: a shell killed with SIGKILL right
	# after them loses none.
	tsend b6 'echo "pid=$$"'
	twait b6 'pid=' 2
	pid=$(tscreen b6 | sed -n 's/.*pid=\([0-9][0-9]*\)$/\1/p' | tail -n 1)
	test -n "$pid"
	tsend b6 'echo killed-1'
	tsend b6 'echo killed-2'
	twait b6 killed-2 2
	kill -9 "$pid"
	ewait 'echo killed-1' execute
	ewait 'echo killed-2' execute
}
test_expect_success 'a shell killed with SIGKILL right after fast lines loses none of them' t_kill9

t_stopped() { hook_stopped b4; }
test_expect_success 'a stopped daemon never blocks the shell' t_stopped

t_fndef() {
	# Dangerous, and it runs no command: the trap lent for the prompt
	# never fires, the definition is recorded as run, no prompt shows,
	# and the next line runs as usual.
	mkdir -p "$HOME/victim"
	n0=$(tcount b4 'Run it? [y/N/e')
	a0=$(tcount b4 'after-def')
	tsend b4 'zap() { rm -rf ~/victim; }'
	tsend b4 'echo after-def'
	twait b4 after-def $((a0 + 2))
	ewait 'zap() { rm -rf ~/victim; }' execute
	test "$(tcount b4 'Run it? [y/N/e')" = "$n0"
	test -d "$HOME/victim"
	d0=$(tcount b4 'dbg=[]')
	tsend b4 'echo "dbg=[$(trap -p DEBUG)]"'
	twait b4 'dbg=[]' $((d0 + 1))
}
test_expect_success 'a dangerous function definition is recorded; the trap is given back' t_fndef

t_complete() {
	# Completion is loaded at the first Tab, not at startup.
	tsend b4 'complete -p deliberate'
	twait b4 '__deliberate_complete'
	tkeys b4 -l 'deliberate validate-da'
	tkeys b4 Tab
	twait b4 'deliberate validate-dataset'
	tkeys b4 C-u
}
test_expect_success 'completion of deliberate loads at the first Tab' t_complete

# Without the builtin (no deliberate-bash.so anywhere the hook looks), the
# hook falls back to a DEBUG trap and the CLI, with deliberate-lib.bash
# sourced at startup.
mkdir -p "$T/nob/hooks" "$T/nob/bin"
cp "$HOOKS/deliberate.bash" "$HOOKS/deliberate-lib.bash" \
    "$HOOKS/completion.bash" "$T/nob/hooks/"
ln -s "$BUILD/deliberate" "$T/nob/bin/deliberate"
printf "PS1='b5\$ '\nPATH='%s':/usr/bin:/bin\nsource '%s/deliberate.bash'\n" \
    "$T/nob/bin" "$T/nob/hooks" >"$T/b5.rc"
tstart b5 "cd '$T/w' && env DELIBERATE_PROMPT_TIMEOUT=30 bash --rcfile '$T/b5.rc' -i"
twait b5 'b5$ '
t_legacy() {
	tsend b5 'echo "builtin=$__dlb_builtin"; trap -p DEBUG'
	twait b5 'builtin=0'
	twait b5 '__deliberate_debug'
	mkdir -p "$HOME/victim"
	tsend b5 'rm -rf ~/victim # legacy'
	twait b5 'Run it? [y/N/e'
	tkeys b5 n
	twait b5 'deliberate: cancelled'
	ewait 'rm -rf ~/victim # legacy' cancel
	test -d "$HOME/victim"
	tsend b5 'echo legacy-ok'
	twait b5 legacy-ok 2
	ewait 'echo legacy-ok' execute
}
test_expect_success 'without the builtin: DEBUG trap and CLI, still asks' t_legacy

t_down() {
	daemon_kill9
	tsend b1 'echo down-1'
	tsend b1 'echo down-2'
	tsend b1 'echo down-3'
	twait b1 'down-3' 2
	test "$(tscreen b1 | grep -c 'daemon unreachable')" = 1
}
test_expect_success 'with the daemon killed commands run, one warning' t_down

t_enforce() {
	printf 'mode = enforce\nanonymizationLevel = minimal\n' >"$DELIBERATE_HOME/config"
	daemon_start
	mkdir -p "$HOME/victim"
	tsend b1 "rm -rf ~/victim # enforce"
	twait b1 'refused (enforce mode)'
	ewait "rm -rf ~/victim # enforce" cancel
	test -d "$HOME/victim"
}
test_expect_success 'enforce mode refuses dangerous commands' t_enforce

t_outcome() { hook_outcome b1; }
test_expect_success 'the exit status and duration of a line reach its entry' t_outcome

t_kept() { hook_kept b1 0 2; }
t_fd_taken() {
	tsend b1 "exec 100>'$T/fd100' 101>'$T/fd101'" &&
	tsend b1 'echo fd-taken-1' &&
	tsend b1 'git log -1 fd-taken-2 2>/dev/null' &&
	tsend b1 'echo fd-taken-3' &&
	ewait 'echo fd-taken-3' execute &&
	ewait 'git log -1 fd-taken-2 2>/dev/null' execute &&
	tsend b1 'exec 100>&- 101>&-' &&
	tsend b1 'echo fd-taken-4' &&
	ewait 'echo fd-taken-4' execute &&
	test -e "$T/fd100" && test ! -s "$T/fd100" && test ! -s "$T/fd101"
}
test_expect_success 'a script that takes the kept descriptors (exec 100>file) gets none of our bytes' t_fd_taken
test_expect_success 'two kept connections per shell (checks, quiet); commands do not inherit them (close-on-exec)' t_kept

test_expect_success 'every entry validates against the schema' \
	'validate_entries "$(today_file)"'
test_done
