#!/bin/sh
# The last lines of `make test`: every test or step that was skipped and why, then
# `N passed, M failed, K skipped` alone on the last line.
#
#   summary.sh LOG_DIR
#
# In LOG_DIR, each test binary left NAME.tap (Criterion's TAP report: a line per test, `# SKIP
# reason` on skipped ones) and NAME.log; each make step left NAME.log only, and counts as one
# test. NAME.failed marks a run that exited non-zero. A line `skipped: WHAT (WHY)` in any log is
# a part skipped (the sample picture of the ROM test); a step whose log says
# `skipped: NAME (WHY)` of itself was skipped as a whole, not passed.
set -eu
dir=$1
passed=0 failed=0 skipped=0
list=$(mktemp)
trap 'rm -f "$list"' EXIT

for log in "$dir"/*.log; do
    [ -e "$log" ] || continue
    name=$(basename "$log" .log)
    tap=$dir/$name.tap
    if [ -f "$tap" ]; then
        # ok / not ok / ok ... # SKIP reason; skips of one reason in one binary are grouped
        counts=$(awk -v name="$name" -v list="$list" '
            /^not ok / { f++; next }
            /^ok .*# SKIP/ {
                s++
                reason = $0; sub(/.*# SKIP */, "", reason)
                test = $0; sub(/^ok - /, "", test); sub(/ +# SKIP.*/, "", test)
                if (!(reason in n)) order[++k] = reason
                n[reason]++; first[reason] = test
                next
            }
            /^ok / { p++ }
            END {
                for (i = 1; i <= k; i++) {
                    r = order[i]
                    if (n[r] == 1) print "skipped: " name " " first[r] " (" r ")" >> list
                    else print "skipped: " name ", " n[r] " tests (" r ")" >> list
                }
                print p + 0, f + 0, s + 0
            }' "$tap")
        set -- $counts
        passed=$((passed + $1)) failed=$((failed + $2)) skipped=$((skipped + $3))
        # a failed run with no failed test (a leak at exit, a crash outside the tests)
        if [ -f "$dir/$name.failed" ] && [ "$2" -eq 0 ]; then
            failed=$((failed + 1))
        fi
    elif [ -f "$dir/$name.failed" ]; then
        failed=$((failed + 1))
    elif grep -q "^skipped: $name (" "$log"; then
        skipped=$((skipped + 1))
    else
        passed=$((passed + 1))
    fi
    # parts skipped inside a passing run, and the steps skipped whole
    parts=$(grep -c '^skipped: ' "$log" || true)
    if [ "$parts" -gt 0 ]; then
        grep '^skipped: ' "$log" >> "$list"
        whole=$(grep -c "^skipped: $name (" "$log" || true)
        skipped=$((skipped + parts - whole))
    fi
done

cat "$list"
echo "$passed passed, $failed failed, $skipped skipped"
