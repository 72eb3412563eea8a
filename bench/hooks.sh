#!/bin/bash
# Per-command cost of the shell hooks, against one fork+exec of /bin/true,
# both measured in the same run.  Prints markdown table rows.
#
#   BUILD=build bash bench/hooks.sh [LINES] [REPS]
#   BENCH_BASHRC=/etc/skel/.bashrc ...   (bash variants read it first)
#
# A command line is simulated as what the shell does for it: the hook's
# pre-run work, one fork+exec of /bin/true (the command), and the hook's
# prompt-time work.  Each variant is a shell that runs LINES such lines:
#
#   empty  no command and no hook (the shell's own loop, subtracted)
#   bare   /bin/true, no hook: the spawn
#   fast   /bin/true with the hook, a line without trigger words: recorded
#          fire-and-forget
#   full   /bin/true with the hook, a line with one ("git"): it waits for
#          the daemon's verdict (the daemon classifies and answers, then
#          redacts and appends the entry)
#   down   /bin/true with the hook and no daemon
#   ptybare, ptyfast, ptyfull: the same lines typed on a pty (below)
#   ptyseen: the full line typed again and again, the same each time: the
#          shell remembers the daemon's safe verdict (hookcore.c, "Lines
#          the daemon judged safe") and records it fire-and-forget
#
# The cost is CPU time, because on a shared virtual machine wall time
# mostly measures the neighbours.  spawn = bare - empty, in CPU of the
# shell and its children (perf stat task-clock, or getrusage when perf is
# missing), per line.  hook = variant - bare in the shell's own CPU
# (sum_exec_runtime from /proc/self/schedstat, read by the shell around
# its loop), per line: the hook runs in the shell, and a spawn's own CPU
# varies by more than the whole hook costs from run to run, so the
# difference of totals with the children (also shown) is mostly that
# noise.  The daemon's CPU per line (its schedstat) and the wall time per
# line are shown too, and the page faults the hook adds to the shell per
# line (minflt in /proc/self/stat: unlike the times, nearly the same from
# run to run); the full check's wall time includes waiting for the
# verdict.  Variants run interleaved REPS times; medians.  DAEMON_CPU and
# SHELL_CPU pin the daemon and the shell (taskset) when set.
#
# bash: the lines are read on stdin by an interactive bash, as typed lines
# are: each goes to the history, bash expands PS0 (where the hook checks
# it, in C) and runs PROMPT_COMMAND (the hook's prompt work) for each, with
# no line editor (stdin is not a terminal, which the daemon takes for
# automation: the full check prints a moderate note, to /dev/null).  zsh:
# the accept-line widget is called outside zle (its last call, to the
# original widget, fails fast) and then precmd.  With the hook's module
# (loaded from $BUILD/zsh), zle calls its C widget and zsh its pre-prompt
# work with no shell function; there is no line editor and no prompt here,
# so
# the same C code is called as builtins ("deliberate_zhook accept LINE",
# "deliberate_zhook precmd"), which costs more: the "calls" variant makes
# two no-op builtin calls the same way, and the table also shows the
# hook's cost net of them.
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$SRC/build}
case $BUILD in /*) ;; *) BUILD=$SRC/$BUILD ;; esac
N=${1:-600}
REPS=${2:-3}
T=$(mktemp -d "${TMPDIR:-/tmp}/dlb-bench-hooks.XXXXXX")
trap 'kill $DPID 2>/dev/null; wait 2>/dev/null; rm -rf "$T"' EXIT
export HOME=$T/home DELIBERATE_HOME=$T/home/.deliberate
export XDG_RUNTIME_DIR=$T/xdg DELIBERATE_SOCKET=$T/xdg/deliberate/sock
export DELIBERATE_SHARE=${DELIBERATE_SHARE:-$SRC}
export DELIBERATE_BASH_BUILTIN=$BUILD/deliberate-bash.so
export DELIBERATE_ZSH_MODULE=${DELIBERATE_ZSH_MODULE:-$BUILD/zsh}
mkdir -p "$HOME" "$XDG_RUNTIME_DIR"
chmod 0700 "$XDG_RUNTIME_DIR"
mkfifo "$T/ready"
${DAEMON_CPU:+taskset -c $DAEMON_CPU} "$BUILD/deliberated" --ready-fd 3 3>"$T/ready" >"$T/daemon.log" 2>&1 &
DPID=$!
if ! read -r -t 20 _ <"$T/ready"; then
	echo "| hooks bench | daemon did not start: $(tail -n 1 "$T/daemon.log") |"
	exit 1
fi
HAVE_PERF=0
perf stat -x, -e task-clock -o "$T/p" -- true >/dev/null 2>&1 && HAVE_PERF=1

# bash scripts, one per variant, read on stdin by an interactive bash, as
# typed lines are: bash expands PS0 (the hook's per-line check) and runs
# PROMPT_COMMAND (its prompt work) for each line.
bash_script() {	# variant
	local i line="ls -la" hook=1
	case $1 in
	empty|bare) hook=0 ;;
	full|down) line="git log" ;;
	esac
	{
		# BENCH_BASHRC: a startup file every variant reads first (the
		# shell a user has, rather than a pristine bash --norc).
		[ -n "${BENCH_BASHRC:-}" ] && echo "source '$BENCH_BASHRC'"
		if (( hook )); then
			# Before the hook reads it (it keeps the path a second).
			[ "$1" = down ] && echo 'DELIBERATE_SOCKET=$T/none'
			echo 'source "$SRC/shell-hooks/deliberate.bash"'
			echo '(( __dlb_builtin )) || exit 1'
		fi
		echo 'read -r -a F0 </proc/$$/stat'
		echo 'T0=$EPOCHREALTIME; read -r S0 _ </proc/$$/schedstat'
		for ((i = 0; i < N; i++)); do
			case $1 in
			empty)	echo ": $line r$i" ;;
			*)	echo "/bin/true $line r$i" ;;
			esac
		done
		echo 'read -r S1 _ </proc/$$/schedstat'
		echo 'read -r -a F1 </proc/$$/stat'
		echo 'echo "$T0 $EPOCHREALTIME $S0 $S1 ${F0[9]} ${F1[9]}" >"$T/wall"'
	} >"$T/$1.bash"
}
zsh_script() {	# variant
	local line="ls -la" call=line src='source "$SRC/shell-hooks/deliberate.zsh"'
	case $1 in
	empty)	call=nothing src= ;;
	bare)	call=bare src= ;;
	calls)	call=calls src= ;;
	full|down) line="make git log" ;;
	esac
	# The unhooked variants do not read the hook at all: what it keeps
	# in the shell's memory is part of its cost (see docs/performance.md).
	cat >"$T/$1.zsh" <<Z
zmodload zsh/datetime
$src
[[ $1 == down ]] && DELIBERATE_SOCKET=\$T/none
# As typed at a terminal: stdin is /dev/null here, which the classifier
# would take for automation (a moderate note, the script's path).
__dlb_istty=',"isTTY":true'

nothing() { BUFFER=\$1 PREBUFFER= CURSOR=0; : }
bare() { BUFFER=\$1 PREBUFFER= CURSOR=0; /bin/true }
# The harness's own cost: the two builtin calls the hooked line makes
# (zle calls the module's widget, and zsh its pre-prompt function, in C).
calls() {
	BUFFER=\$1 PREBUFFER= CURSOR=0
	: accept "\$1" || : 2>/dev/null
	/bin/true
	: precmd
}
if (( __dlb_zmod )); then
	line() {
		BUFFER=\$1 PREBUFFER= CURSOR=0
		deliberate_zhook accept "\$1" ||
		    __deliberate_accept_line 2>/dev/null
		/bin/true
		deliberate_zhook precmd
	}
else
	line() {
		BUFFER=\$1 PREBUFFER= CURSOR=0
		__deliberate_accept_line 2>/dev/null
		/bin/true
		__deliberate_precmd
	}
fi
f0=(\$(</proc/\$\$/stat))
t0=\$EPOCHREALTIME; read -r s0 _ </proc/\$\$/schedstat
for (( i = 0; i < N; i++ )); do $call "$line r\$i"; done
read -r s1 _ </proc/\$\$/schedstat
f1=(\$(</proc/\$\$/stat))
print -r -- "\$t0 \$EPOCHREALTIME \$s0 \$s1 \$f0[10] \$f1[10]" >"\$T/wall"
Z
}

# The pty variants: lines typed into an interactive shell on a pty, one
# after the other's prompt (bench/pty-lines.py), so that the line editor
# (readline, zle) reads them and calls the hook as it does for a person;
# no harness calls.  ptybare has no hook, ptyfast the hook and a line
# without trigger words, ptyfull the hook and a line with one ("git"),
# which waits for the verdict as a person's line does (on a terminal:
# no automation note).  Only the shell's own CPU is compared.
pty_lines() {	# shell variant
	local i src= line="ls -la"
	[ "$2" = ptyfull ] || [ "$2" = ptyseen ] && line="git log"
	if [ "$2" != ptybare ]; then
		src="source '$SRC/shell-hooks/deliberate.$1'; "
		[ "$1" = zsh ] && src="zmodload zsh/datetime; $src(( __dlb_zmod )) || exit 1; "
	fi
	{
		# A command name, not a path: a zsh line that starts with
		# anything but a lower-case letter always waits for a verdict.
		echo "${src}PS1='BENCH> '; PATH=\$T/bin:\$PATH; :"
		echo 'read -r s0 _ </proc/$$/schedstat'
		for ((i = 0; i < N; i++)); do
			if [ "$2" = ptyseen ]; then
				echo "xtrue $line"
			else
				echo "xtrue $line r$i"
			fi
		done
		echo 'read -r s1 _ </proc/$$/schedstat; echo "0 0 $s0 $s1 0 0" >"$T/wall"; exit'
	} >"$T/$1.$2.lines"
}

sched() { awk '{ print $1 }' "/proc/$DPID/schedstat" 2>/dev/null || echo 0; }
# One run: prints "cpu_us wall_us daemon_us self_us" per line.
run() {	# shell variant
	local d0 d1 cpu w0 w1 s0 s1 in=/dev/null
	d0=$(sched)
	case $2 in
	pty*)
		rm -f "$T/wall"
		local sh=(bash --norc -i)
		[ "$1" = zsh ] && sh=(zsh -f -i)
		TERM=xterm ${SHELL_CPU:+taskset -c $SHELL_CPU} \
		    /usr/bin/python3 "$SRC/bench/pty-lines.py" "$T/$1.$2.lines" \
		    -- "${sh[@]}" >/dev/null || return 1
		read -r w0 w1 s0 s1 f0 f1 <"$T/wall" || return 1
		awk -v n="$N" -v s="$((s1 - s0))" \
		    'BEGIN { printf "0 0 0 %.1f 0\n", s / 1e3 / n }'
		return
		;;
	esac
	if [ "$1" = bash ]; then
		in=$T/$2.bash
		set -- ${SHELL_CPU:+taskset -c $SHELL_CPU} bash --norc -i
	else
		set -- ${SHELL_CPU:+taskset -c $SHELL_CPU} zsh -f -i -c "source '$T/$2.zsh'"
	fi
	if (( HAVE_PERF )); then
		perf stat -x, -e task-clock -o "$T/p" -- "$@" \
		    <"$in" >/dev/null 2>&1
		cpu=$(awk -F, '/task-clock/ { print $1 * 1000 }' "$T/p")
	else
		cpu=$(/usr/bin/python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdin=sys.stdin,
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print((r.ru_utime + r.ru_stime) * 1e6)' "$@" <"$in")
	fi
	d1=$(sched)
	read -r w0 w1 s0 s1 f0 f1 <"$T/wall"
	awk -v c="$cpu" -v w0="$w0" -v w1="$w1" -v d="$((d1 - d0))" -v n="$N" \
	    -v s="$((s1 - s0))" -v f="$((f1 - f0))" \
	    'BEGIN { printf "%.1f %.1f %.1f %.1f %.2f\n", c / n, (w1 - w0) * 1e6 / n,
		d / 1e3 / n, s / 1e3 / n, f / n }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

export SRC T N
mkdir -p "$T/bin"
ln -s /bin/true "$T/bin/xtrue"
variants="empty bare fast full down"
shells=bash
command -v zsh >/dev/null && shells="bash zsh"
vars() { if [ "$1" = zsh ]; then echo "$variants calls ptybare ptyfast ptyfull ptyseen"; else echo "$variants ptybare ptyfast ptyfull ptyseen"; fi; }
# BENCH_SHELLS="zsh" and BENCH_VARIANTS="empty bare ptybare ptyfast" narrow
# a run to what is being looked at (the table then has only those rows).
[ -n "${BENCH_SHELLS:-}" ] && shells=$BENCH_SHELLS
if [ -n "${BENCH_VARIANTS:-}" ]; then
	vars() { echo "$BENCH_VARIANTS"; }
fi
for s in $shells; do
	for v in $(vars "$s"); do
		case $v in
		pty*)	pty_lines "$s" "$v" ;;
		*)	if [ "$s" = bash ]; then bash_script "$v"; else zsh_script "$v"; fi ;;
		esac
	done
done
for ((r = 0; r < REPS; r++)); do
	for s in $shells; do
		for v in $(vars "$s"); do
			run "$s" "$v" >>"$T/res.$s.$v" || exit 1
		done
	done
done

# m SHELL VARIANT FIELD: the median of a field (1 cpu, 2 wall, 3 daemon,
# 4 the shell's own CPU, 5 the shell's own minor page faults; all per line).
m() { awk -v f="$3" '{ print $f }' "$T/res.$1.$2" | median; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f%%", (b > 0) ? (100 * a / b) : 0 }'; }
sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a - b }'; }
have() { [ -s "$T/res.$1.$2" ]; }
echo "| measure (CPU per command line, median of $REPS runs of $N lines) | value |"
echo "|---|---|"
for s in $shells; do
	empty=$(m "$s" empty 1) bare=$(m "$s" bare 1)
	spawn=$(sub "$bare" "$empty")
	echo "| $s: fork+exec of /bin/true (bare line minus empty line) | $spawn µs CPU, $(sub "$(m "$s" bare 2)" "$(m "$s" empty 2)") µs wall |"
	for v in fast full down; do
		case $v in
		fast)	what="no trigger word, recorded fire-and-forget" ;;
		full)	what="waits for the verdict" ;;
		down)	what="daemon down" ;;
		esac
		if have "$s" "$v"; then
		h=$(sub "$(m "$s" "$v" 4)" "$(m "$s" bare 4)")
		c=$(sub "$(m "$s" "$v" 1)" "$bare")
		w=$(sub "$(m "$s" "$v" 2)" "$(m "$s" bare 2)")
		pf=$(sub "$(m "$s" "$v" 5)" "$(m "$s" bare 5)")
		echo "| $s hook, $what | $h µs of the shell's CPU = **$(pct "$h" "$spawn") of a spawn**; shell and children +$c µs ($(pct "$c" "$spawn")); wall +$w µs; +$pf page faults in the shell; daemon $(m "$s" "$v" 3) µs CPU |"
		fi
		if [ "$v" = fast ] && have "$s" ptyfast; then
			hp=$(sub "$(m "$s" ptyfast 4)" "$(m "$s" ptybare 4)")
			echo "| $s hook, no trigger word, lines typed on a pty (the line editor calls the hook; no harness calls) | $hp µs of the shell's CPU = **$(pct "$hp" "$spawn") of a spawn** (shell CPU per line: $(m "$s" ptybare 4) µs bare, $(m "$s" ptyfast 4) µs hooked) |"
		fi
		if [ "$v" = full ] && have "$s" ptyfull; then
			hp=$(sub "$(m "$s" ptyfull 4)" "$(m "$s" ptybare 4)")
			echo "| $s hook, waits for the verdict, lines typed on a pty (a person's \`git log\`: the line editor calls the hook) | $hp µs of the shell's CPU = **$(pct "$hp" "$spawn") of a spawn** (shell CPU per line: $(m "$s" ptybare 4) µs bare, $(m "$s" ptyfull 4) µs hooked) |"
		fi
		if [ "$v" = full ] && have "$s" ptyseen; then
			hp=$(sub "$(m "$s" ptyseen 4)" "$(m "$s" ptybare 4)")
			echo "| $s hook, the same line again (judged safe once, remembered by the shell), typed on a pty | $hp µs of the shell's CPU = **$(pct "$hp" "$spawn") of a spawn** (shell CPU per line: $(m "$s" ptybare 4) µs bare, $(m "$s" ptyseen 4) µs hooked) |"
		fi
		if [ "$s" = zsh ] && [ "$v" = fast ] && have zsh calls &&
		    have zsh fast; then
			k=$(sub "$(m zsh calls 4)" "$(m zsh bare 4)")
			hn=$(sub "$h" "$k")
			echo "| zsh hook, no trigger word, net of the harness's two builtin calls ($k µs; zle and zsh call the module's C directly) | $hn µs = **$(pct "$hn" "$spawn") of a spawn** |"
		fi
	done
done

# A day's typed history (bench/histories/*.txt, written by people who had
# not seen the rules): which lines wait.  The bash builtin checks each line
# as the hook does (fast path, then the lines seen safe) against this
# daemon, once as shipped and once with DELIBERATE_SEEN=0; a line answered
# "fast" did not wait.  With the per-line costs of this run's pty variants
# (trigger-free, seen before, waits), the average per typed line.
mix_nowait() {	# history file, DELIBERATE_SEEN value -> "lines nowait"
	DELIBERATE_SEEN=$2 bash --norc -c '
	enable -f "$1" deliberate_hook || exit 1
	n=0 a=0
	while IFS= read -r l; do
		[ -n "$l" ] || continue
		n=$((n + 1))
		deliberate_hook check -r -f -- "$l" >/dev/null 2>&1
		[ "$DELIBERATE_OK" = fast ] && a=$((a + 1))
	done
	echo "$n $a"' _ "$BUILD/deliberate-bash.so" <"$1"
}
if have bash ptyfast && have bash ptyseen && have bash ptyfull; then
	cf=$(sub "$(m bash ptyfast 4)" "$(m bash ptybare 4)")
	cs=$(sub "$(m bash ptyseen 4)" "$(m bash ptybare 4)")
	cw=$(sub "$(m bash ptyfull 4)" "$(m bash ptybare 4)")
	spawn=$(sub "$(m bash bare 1)" "$(m bash empty 1)")
	for h in "$SRC"/bench/histories/*.txt; do
		[ -f "$h" ] || continue
		read -r n a < <(mix_nowait "$h" 1)
		read -r n0 f < <(mix_nowait "$h" 0)
		[ "${n:-0}" -gt 0 ] || continue
		awk -v n="$n" -v a="$a" -v f="$f" -v cf="$cf" -v cs="$cs" \
		    -v cw="$cw" -v sp="$spawn" -v h="$(basename "$h")" 'BEGIN {
			seen = a - f; w = n - a
			# Differences of noisy medians can come out below zero.
			if (cf < 0) cf = 0
			if (cs < 0) cs = 0
			avg = (f * cf + seen * cs + w * cw) / n
			printf "| bash hook over a day'"'"'s typed history (%s, %d lines): %.0f%% trigger-free, %.0f%% seen safe before, %.0f%% waited | average %.1f µs = **%.1f%% of a spawn** per typed line (with this run'"'"'s %.1f, %.1f and %.1f µs per line of each kind) |\n",
			    h, n, 100 * f / n, 100 * seen / n, 100 * w / n, avg, 100 * avg / sp, cf, cs, cw
		}'
	done
fi

# The floor under a line that waits for the verdict: whatever the hook
# does, the shell blocks once for the daemon's answer, and on a virtual
# machine the wake-up from one blocking wait is charged to the sleeper
# (bench/sockbench.c, floor; same run).  A hook that waits cannot cost
# less.
if cc -O2 -pthread -o "$T/sockbench" "$SRC/bench/sockbench.c" 2>/dev/null &&
    read -r fs fr fz < <("$T/sockbench" floor 2000); then
	echo "| floor: one blocking round trip to another process (send, poll, recv over a Unix socket pair), in the waiter's CPU | $fr µs = **$(pct "$fr" "$fs") of a spawn** (its spawn here: $fs µs); one 50 µs nanosleep alone: $fz µs = $(pct "$fz" "$fs") |"
fi
