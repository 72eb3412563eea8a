#!/bin/bash
# Per-command cost of the shell hooks, against one fork+exec of /bin/true
# measured in the same run.  Prints markdown table rows.
#
#   BUILD=build bash bench/hooks.sh [ROUNDS]
#
# A command line is simulated as what the shell does for it: the hook's
# pre-run work, one fork+exec of /bin/true (the command), and the hook's
# prompt-time work.  Each round times a bare line (/bin/true alone) and the
# hooked variants one after the other, so that load changes on a busy
# machine hit all of them alike; the hook's cost is hooked minus bare, as
# a share of the bare spawn.  This counts what the hook really adds,
# including the page faults its writes take after the shell's fork.
#
# The pre-run work is, for bash, the armed DEBUG trap (the deliberate_hook
# builtin reads the line and asks the daemon), and for zsh the accept-line
# widget (called outside zle, so its final call to the original widget
# fails fast); the prompt-time work is the PROMPT_COMMAND or precmd
# function (outcome annotation, history mark).  The fast path is a
# read-only line recorded fire-and-forget; the full check waits for the
# daemon's verdict (the daemon classifies and answers, then redacts and
# appends the entry).  Rounds are 2 ms apart, as a person types far
# slower, so the daemon is idle when a line arrives.
set -u
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$SRC/build}
case $BUILD in /*) ;; *) BUILD=$SRC/$BUILD ;; esac
N=${1:-400}
T=$(mktemp -d "${TMPDIR:-/tmp}/dlb-bench-hooks.XXXXXX")
trap 'kill $DPID 2>/dev/null; wait 2>/dev/null; rm -rf "$T"' EXIT
export HOME=$T/home DELIBERATE_HOME=$T/home/.deliberate
export XDG_RUNTIME_DIR=$T/xdg DELIBERATE_SOCKET=$T/xdg/deliberate/sock
export DELIBERATE_SHARE=${DELIBERATE_SHARE:-$SRC}
export DELIBERATE_BASH_BUILTIN=$BUILD/deliberate-bash.so
mkdir -p "$HOME" "$XDG_RUNTIME_DIR"
chmod 0700 "$XDG_RUNTIME_DIR"
mkfifo "$T/ready" "$T/pace"
${DLB_CHRT-} "$BUILD/deliberated" --ready-fd 3 3>"$T/ready" >"$T/daemon.log" 2>&1 &
DPID=$!
if ! read -r -t 20 _ <"$T/ready"; then
	echo "| hooks bench | daemon did not start: $(tail -n 1 "$T/daemon.log") |"
	exit 1
fi

# Each script prints "spawn empty fast full down [trap]" averages in µs.
# bash reads its script as an interactive shell, so every line goes to
# the history as typed input does, and the hook reads it from there.  The
# DEBUG trap is armed by the test itself (PS0 is not expanded for script
# input) and a round's timer lines run under the trap: a small
# over-estimate of the hook's cost.
{
	echo 'source "$SRC/shell-hooks/deliberate.bash"'
	echo '(( __dlb_builtin )) || { echo "no builtin" >&2; exit 1; }'
	echo 'trap - DEBUG; exec 9<>"$T/pace"; declare -A sum'
	echo 'arm='"'"'[[ $BASH_COMMAND == /bin/true* ]] && __dlb_armed=1; __deliberate_debug "$_"'"'"
	echo 'now() { T1=${EPOCHREALTIME/[!0-9]/}; sum[$1]=$(( ${sum[$1]:-0} + 10#$T1 - 10#$T0 )); }'
	for ((i = 0; i < N; i++)); do
		# A bare line, then the same line hooked: fast path (no
		# trigger word), full check ("git" is one), daemon down.
		for v in "spawn ls -la" "fast ls -la" "spawn2 git log" \
		    "full git log" "down git log" "empty"; do
			set -- $v
			case $1 in
			spawn*)
				echo 'T0=${EPOCHREALTIME/[!0-9]/}'
				echo "/bin/true ${*:2}"
				echo "now $1" ;;
			empty)
				echo 'T0=${EPOCHREALTIME/[!0-9]/}'
				echo ':'
				echo "now $1" ;;
			down)
				echo 'DELIBERATE_SOCKET=$T/none; trap "$arm" DEBUG; T0=${EPOCHREALTIME/[!0-9]/}'
				echo "/bin/true ${*:2}"
				echo "__deliberate_precmd; trap - DEBUG; now $1; DELIBERATE_SOCKET=\$T/xdg/deliberate/sock" ;;
			*)
				echo 'trap "$arm" DEBUG; T0=${EPOCHREALTIME/[!0-9]/}'
				echo "/bin/true ${*:2}"
				echo "__deliberate_precmd; trap - DEBUG; now $1" ;;
			esac
		done
		echo 'read -t 0.002 -u 9'
	done
	echo 'echo $(( (sum[spawn] + sum[spawn2]) / 2 / N )) $((sum[empty] / N)) $((sum[fast] / N)) $((sum[full] / N)) $((sum[down] / N))'
} >"$T/b.bash"
cat >"$T/z.zsh" <<'Z'
source "$SRC/shell-hooks/deliberate.zsh"
zmodload zsh/datetime zsh/mathfunc
exec 9<>"$T/pace"
bare() { BUFFER=$1 PREBUFFER= CURSOR=0; /bin/true; }
line() {
	BUFFER=$1 PREBUFFER= CURSOR=0
	__deliberate_accept_line 2>/dev/null
	/bin/true
	__deliberate_precmd
}
down() { DELIBERATE_SOCKET=$T/none line "$1"; }
typeset -A sum
t() {	# key command...
	local t0=$EPOCHREALTIME
	"${@:2}" >/dev/null 2>&1
	(( sum[$1] += (EPOCHREALTIME - t0) * 1e6 ))
}
for ((i = 0; i < N; i++)); do
	t spawn bare 'ls -la'
	t empty :
	t fast line 'ls -la'
	t spawn2 bare 'make -j4 all'
	t full line 'make -j4 all'
	t down down 'make -j4 all'
	read -t 0.002 -u 9
done
print $(( int((sum[spawn] + sum[spawn2]) / 2 / N) )) $(( int(sum[empty] / N) )) \
    $(( int(sum[fast] / N) )) $(( int(sum[full] / N) )) \
    $(( int(sum[down] / N) ))
Z
export BUILD T N SRC
read -r spawn empty fast full down < <(HISTSIZE=100000 bash --norc -i \
    "$T/b.bash" 2>/dev/null </dev/null)
zspawn=
if command -v zsh >/dev/null; then
	read -r zspawn zempty zfast zfull zdown < <(zsh -f -i -c \
	    "source '$T/z.zsh'" 2>/dev/null </dev/null)
fi

net() { echo $(( $1 > $2 ? $1 - $2 : 0 )); }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f%%", b ? 100 * a / b : 0 }'; }
row() {	# label hooked-line empty bare-line
	local v s
	v=$(net "$2" "$4") s=$(net "$4" "$3")
	echo "| $1 | $v µs ($(ratio "$v" "$s") of a spawn) |"
}
# Typical mix: 90% read-only fast-path lines, 10% full checks.
mix() { echo $(( (9 * $1 + $2) / 10 )); }
shell_rows() {	# shell spawn empty fast full down
	echo "| $1: bare line, fork+exec /bin/true (net of the timer) | $(net "$2" "$3") µs |"
	row "$1 hook per line, read-only fast path" "$4" "$3" "$2"
	row "$1 hook per line, full check" "$5" "$3" "$2"
	row "$1 hook per line, typical mix (90% fast, 10% full)" \
	    "$(mix "$4" "$5")" "$3" "$2"
	row "$1 hook per line, daemon down" "$6" "$3" "$2"
}
echo "| measure | per command |"
echo "|---|---|"
if [ -z "${spawn-}" ]; then
	echo "| bash hooks bench | failed |"
else
	shell_rows bash "$spawn" "$empty" "$fast" "$full" "$down"
fi
if [ -n "$zspawn" ]; then
	shell_rows zsh "$zspawn" "$zempty" "$zfast" "$zfull" "$zdown"
fi
