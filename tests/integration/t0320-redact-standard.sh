#!/bin/bash
# The standard level through the real daemon: argument values that are not
# flags, shell syntax or known-safe words become types in fullCommand and
# args alike, and the user's home directory becomes [HOME] wherever it
# lives (here HOME is an unusual directory, not under /home).
. "$(dirname "$0")/../lib/test-lib.sh"

export HOME="$T/srv/users/bob-home"
mkdir -p "$HOME"

# Made-up personal words: none may reach the dataset at standard.
WORDS="alice-smith project-falcon acme-merger diagnosis-2024 falcon-ridge
divorce q3-layoffs bobsmith payroll-2024 acme_customers bob-home"

cat >"$T/cmds" <<EOF
cp diagnosis-2024.pdf /tmp/
mv diagnosis-2024-scan.pdf ~/Documents/medical/
git checkout -b feature/acme-merger
git push origin project-falcon --force-with-lease=main
grep -ri 'Falcon-Ridge divorce' ~/notes
vim divorce-lawyer-notes.md
ssh alice-smith@10.1.2.3
psql -d acme_customers -c 'select * from payroll_2024'
docker run --name project-falcon -v /data/acme-merger:/data img:1.0
kubectl -n acme-merger get pods
make q3-layoffs-report
python3 analyze.py --customer alice-smith --quarter q3-layoffs
tar czf project-falcon.tgz src/
echo "meeting about divorce" >> notes-acme-merger.txt
curl -d '{"user":"alice-smith"}' https://api.github.com/x
rsync -av ./project-falcon/ backup:/srv/acme-merger/
find . -name '*acme-merger*' -delete
scp bobsmith@buildhost:/srv/payroll-2024.csv .
export CUSTOMER=acme-merger
sudo -u bobsmith crontab -l
git commit -am 'merger with falcon-ridge'
aws s3 cp ./payroll-2024 s3://acme-merger/
echo \$(cat divorce.txt)
cat $HOME/acme-merger/plan.txt
ls $HOME
EOF

daemon_start

test_expect_success 'the daemon records every command' '
	"$PYTHON" - "$DELIBERATE_SOCKET" "$T/cmds" <<-PY
	import json, socket, sys
	s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
	reqs = [json.dumps({"v": 1, "type": "event", "source": "cli", "line": l.rstrip("\n")}) + "\n"
	        for l in open(sys.argv[2], encoding="utf-8") if l.strip()]
	s.sendall("".join(reqs).encode())
	f = s.makefile()
	bad = [l for l in (f.readline() for _ in reqs) if not json.loads(l)["ok"]]
	sys.exit(1 if bad else 0)
	PY
	test "$(wc -l <"$(today_file)")" -eq "$(grep -c . "$T/cmds")" &&
	validate_entries "$(today_file)"
'

test_expect_success 'no personal word survives in fullCommand or args' '
	jq -r ".command.fullCommand, .command.args[]" "$(today_file)" >"$T/fields" &&
	test -s "$T/fields" &&
	for w in $WORDS; do
		if grep -i -F -- "$w" "$T/fields"; then
			echo "personal word $w left"; exit 1
		fi
		nogrep_f "$w" "$(today_file)" || exit 1
	done
'

# pick COND: the last entry matching the jq condition goes to $T/one
# (jq 1.6 -e reports no output for a select over several lines).
pick() {
	jq -c "select($1)" "$(today_file)" >"$T/pick" &&
	test -s "$T/pick" && tail -n 1 "$T/pick" >"$T/one"
}

test_expect_success 'a home directory outside /home becomes [HOME]' '
	nogrep_f "srv/users" "$(today_file)" &&
	grep -F "cat $HOME/acme-merger/plan.txt" "$T/cmds" &&
	pick ".command.command == \"cat\"" &&
	jq -e ".command.fullCommand == \"cat [HOME]/[PROJECT]/[FILE]\"
	    and .command.args == [\"[HOME]/[PROJECT]/[FILE]\"]
	    and .privacy.redactionStats.redactionPatterns == [\"home-directory\"]" "$T/one" &&
	pick ".command.command == \"ls\"" &&
	jq -e ".command.fullCommand == \"ls [HOME]\"" "$T/one"
'

test_expect_success 'the same value gets the same type in fullCommand and args' '
	pick ".command.command == \"psql\"" &&
	jq -e ".command.fullCommand == \"psql -d [ARG] -c '\''select * from [ARG]'\''\"
	    and .command.args == [\"-d\", \"[ARG]\", \"-c\", \"select * from [ARG]\"]" "$T/one" &&
	pick ".command.command == \"git\" and .command.args[0] == \"checkout\"" &&
	jq -e ".command.fullCommand == \"git checkout -b feature/[FILE]\"
	    and .command.args == [\"checkout\", \"-b\", \"feature/[FILE]\"]" "$T/one" &&
	pick ".command.command == \"python3\"" &&
	jq -e ".command.fullCommand == \"python3 [FILE] --customer [ARG] --quarter [ARG]\"
	    and .command.args == [\"[FILE]\", \"--customer\", \"[ARG]\", \"--quarter\", \"[ARG]\"]" "$T/one"
'

test_expect_success 'typed values are counted but are not sensitive data' '
	pick ".command.command == \"cp\"" &&
	jq -e ".privacy | (.sensitiveDataDetected | not)
	    and .redactionStats.redactedCount == 1
	    and .redactionStats.redactionPatterns == [\"argument-type\"]
	    and .sensitiveDataTypes == []" "$T/one" &&
	pick ".command.command == \"ssh\"" &&
	jq -e ".privacy | .sensitiveDataDetected
	    and (.sensitiveDataTypes | index(\"argument\") | not)
	    and (.sensitiveDataTypes | index(\"ip\"))" "$T/one"
'

test_expect_success 'the seed examples stay exact at standard' '
	deliberate log --line "curl -H '\''Authorization: Bearer sk-1234567890'\'' https://api.example.com" &&
	tail -n 1 "$(today_file)" | jq -e ".command.fullCommand ==
	    \"curl -H '\''Authorization: Bearer [REDACTED_API_KEY]'\'' https://[REDACTED_DOMAIN]\"" &&
	deliberate log -- mysql -u admin -p "MyP@ssw0rd" &&
	tail -n 1 "$(today_file)" | jq -e ".command.args ==
	    [\"-u\",\"[REDACTED_USER]\",\"-p\",\"[REDACTED_PASSWORD]\"]"
'

test_expect_success 'deliberate redact uses the same home and typing' '
	printf "%s\n" "cat $HOME/acme-merger/plan.txt" "cp diagnosis-2024.pdf /tmp/" >"$T/in" &&
	deliberate redact --level standard <"$T/in" >"$T/out" &&
	printf "%s\n" "cat [HOME]/[PROJECT]/[FILE]" "cp [FILE] /tmp/" >"$T/want" &&
	test_cmp "$T/want" "$T/out" &&
	deliberate redact --level minimal <"$T/in" >"$T/out" &&
	test_cmp "$T/in" "$T/out" &&
	deliberate redact --level maximum <"$T/in" >"$T/out" &&
	nogrep_f "srv/users" "$T/out" && nogrep_f "diagnosis" "$T/out"
'

test_expect_success 'check-privacy finds nothing in the typed data' '
	deliberate check-privacy 2>"$T/err" >"$T/out" &&
	grep -E "^[0-9]+ files, [0-9]+ entries, 0 findings" "$T/err"
'

test_done
