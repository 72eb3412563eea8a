. "$(dirname "$0")/../lib/test-lib.sh"
mkdir -p -m 0700 "$DELIBERATE_HOME"
daemon_start || exit 1
export DELIBERATE_ZSH_MODULE=$BUILD/zsh T N=300
mkdir -p $T/bin; ln -s /bin/true $T/bin/xtrue
{
echo "zmodload zsh/datetime; source '$SRC/shell-hooks/deliberate.zsh'; (( __dlb_zmod )) || exit 1; PS1='BENCH> '; PATH=$T/bin:$PATH; :"
echo 'read -r s0 _ </proc/$$/schedstat'
for ((i = 0; i < N; i++)); do echo "xtrue ls -la r$i"; done
echo 'read -r s1 _ </proc/$$/schedstat; echo "$s0 $s1" >"$T/wall"; exit'
} > $T/l1
{
echo "PS1='BENCH> '; PATH=$T/bin:$PATH; :"
echo 'read -r s0 _ </proc/$$/schedstat'
for ((i = 0; i < N; i++)); do echo "xtrue ls -la r$i"; done
echo 'read -r s1 _ </proc/$$/schedstat; echo "$s0 $s1" >"$T/wall"; exit'
} > $T/l0
for r in 1 2 3; do
for v in l0 l1; do
TERM=xterm python3 $SRC/bench/pty-lines.py $T/$v -- zsh -f -i >/dev/null
read s0 s1 < $T/wall; echo "$v $(( (s1 - s0) / 1000 / N ))"
done; done
wc -l "$(today_file)"
python3 -c '
import json,sys,collections
c=collections.Counter()
for l in open(sys.argv[1]):
    e=json.loads(l); cl=e["classification"]
    c[(cl.get("fastPathEligible"), cl.get("fastPathReason"), e["context"]["environment"].get("isTTY"))]+=1
print(c)' "$(today_file)"
