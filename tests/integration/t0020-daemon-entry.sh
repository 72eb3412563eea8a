#!/bin/bash
# The daemon records a logged command as one valid DatasetEntry, in a 0600
# file under 0700 directories, and reports it in status.
. "$(dirname "$0")/../lib/test-lib.sh"

daemon_start

test_expect_success 'status answers and names the socket and data dir' '
	deliberate status >"$T/st" &&
	grep_f "daemon: running" "$T/st" &&
	grep_f "socket: $DELIBERATE_SOCKET" "$T/st" &&
	grep_f "data: $DELIBERATE_HOME/learning-data" "$T/st" &&
	grep_f "today: 0 entries" "$T/st"
'

test_expect_success 'log -- ARGV writes exactly one entry' '
	deliberate log --shell bash --cwd /tmp -- rm -rf /tmp/x &&
	f=$(today_file) &&
	test "$(wc -l <"$f")" -eq 1 &&
	jq -e ".command.command == \"rm\" and .context.environment.shell == \"bash\"
	    and .context.workingDirectory.type == \"tmp\"
	    and .context.workingDirectory.depth == 1
	    and .schemaVersion == \"1.0.0\"
	    and .context.environment.captureLayer == \"cli\"
	    and .userDecision.action == \"execute\"" "$f"
'

test_expect_success 'the entry validates against the JSON Schema' '
	validate_entries "$(today_file)"
'

test_expect_success 'log --line is recorded and status counts it' '
	deliberate log --line "ls -la | grep foo > out.txt" &&
	f=$(today_file) &&
	test "$(wc -l <"$f")" -eq 2 &&
	tail -n 1 "$f" | jq -e ".command.command == \"ls\" and .command.hasPipe
	    and .command.hasRedirection and (.command.hasGlobbing | not)" &&
	deliberate status >"$T/st" && grep_f "today: 2 entries" "$T/st"
'

test_expect_success 'ids are UUID v4 and timestamps carry ms and a zone' '
	jq -r .id "$(today_file)" | grep -Ex "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}" >"$T/ids" &&
	test "$(wc -l <"$T/ids")" -eq 2 &&
	jq -r .timestamp "$(today_file)" | grep -Ex "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\.[0-9]{3}(Z|[+-][0-9]{2}:[0-9]{2})"
'

test_expect_success 'expiresAt is timestamp + retentionDays' '
	tail -n 1 "$(today_file)" | jq -e "
	    ((.privacy.retention.expiresAt | sub(\"\\\\.[0-9]+Z$\"; \"Z\") | fromdate) -
	     (.timestamp | sub(\"\\\\.[0-9]+Z$\"; \"Z\") | fromdate)) == 90 * 86400
	    and .privacy.retention.retentionDays == 90
	    and .privacy.retention.anonymizationLevel == \"standard\""
'

test_expect_success 'the user id is a keyed hash, not the uid or name' '
	id=$(jq -r .context.user.id "$(today_file)" | sort -u) &&
	test "$(echo "$id" | wc -l)" -eq 1 &&
	echo "$id" | grep -Ex "[0-9a-f]{64}" &&
	test "$id" != "$(printf "uid:%s" "$(id -u)" | sha256sum | cut -c1-64)" &&
	test "$(stat -c %a "$DELIBERATE_HOME/key")" = 600
'

test_expect_success 'no raw home path, user or password reaches disk' '
	deliberate log --cwd /home/alice/projects/secret-project -- cat /home/alice/projects/secret-project/notes.txt &&
	deliberate log -- mysql -u admin -p "MyP@ssw0rd" &&
	nogrep_f "secret-project" "$(today_file)" &&
	nogrep_f "notes.txt" "$(today_file)" &&
	nogrep_f "alice" "$(today_file)" &&
	nogrep_f "MyP@ssw0rd" "$(today_file)" &&
	nogrep_f "admin" "$(today_file)" &&
	# Not "tail | head": under pipefail, tail can die of SIGPIPE.
	tail -n 2 "$(today_file)" >"$T/last2" &&
	head -n 1 "$T/last2" | jq -e ".command.fullCommand == \"cat [HOME]/[PROJECT]/[FILE]\"" &&
	tail -n 1 "$(today_file)" | jq -e ".command.args == [\"-u\",\"[REDACTED_USER]\",\"-p\",\"[REDACTED_PASSWORD]\"]
	    and .privacy.sensitiveDataDetected and (.privacy.redactionStats.redactedCount >= 2)
	    and (.privacy.sensitiveDataTypes | any(test(\"password\")))"
'

test_expect_success 'files are 0600 and directories 0700' '
	test "$(stat -c %a "$DELIBERATE_HOME")" = 700 &&
	test "$(stat -c %a "$DELIBERATE_HOME/learning-data")" = 700 &&
	test "$(stat -c %a "$DELIBERATE_HOME/learning-data/current")" = 700 &&
	test "$(stat -c %a "$DELIBERATE_HOME/learning-data/archive")" = 700 &&
	test "$(stat -c %a "$(today_file)")" = 600 &&
	test "$(stat -c %a "$(dirname "$DELIBERATE_SOCKET")")" = 700 &&
	test "$(stat -c %a "$DELIBERATE_SOCKET")" = 600 &&
	test -S "$DELIBERATE_SOCKET"
'

test_expect_success 'metadata.json is written atomically with current statistics' '
	for i in 1 2 3 4 5 6 7 8 9 10; do
		test -f "$DELIBERATE_HOME/learning-data/metadata.json" &&
		jq -e ".statistics.totalEntries == 4" "$DELIBERATE_HOME/learning-data/metadata.json" >/dev/null && break
		sleep 0.3
	done &&
	m="$DELIBERATE_HOME/learning-data/metadata.json" &&
	jq -e ".version == \"1.0.0\" and .statistics.totalEntries == 4
	    and .statistics.uniqueCommands == 4
	    and .retention.currentPolicy == \"90days\"
	    and .retention.anonymizationLevel == \"standard\"
	    and (.created | type) == \"string\" and (.lastUpdated | type) == \"string\"
	    and (.statistics.avgProcessingTime | type) == \"number\"" "$m" &&
	test "$(stat -c %a "$m")" = 600 &&
	! ls -A "$DELIBERATE_HOME/learning-data" | grep -q tmp
'

test_expect_success 'parentProcess and systemState come from /proc' '
	tail -n 1 "$(today_file)" | jq -e "
	    (.context.parentProcess.pid | type) == \"number\"
	    and (.context.parentProcess.name | length) > 0
	    and (.context.systemState.loadAverage | length) == 3
	    and .context.systemState.memoryUsagePercent > 0
	    and .context.systemState.diskUsagePercent > 0
	    and .performance.resources.memoryMB > 0"
'

test_done
