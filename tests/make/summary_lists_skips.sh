#!/bin/sh
# tests/summary.sh, make test's last lines, on logs made up here: every skipped test or step is
# listed with its reason, and the counts add up (a test binary that failed with no failed test,
# a step skipped whole, a part skipped inside a passing step).
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
logs=$tmp/logs
mkdir -p "$logs"

cat > "$logs/test_a.tap" <<'TAP'
TAP version 13
1..5
ok - a::one  (0.00s)
ok - a::two  (0.00s)
ok - a::s1  # SKIP shared samples not found at /x (set SHARED=...); skipping
ok - a::s2  # SKIP shared samples not found at /x (set SHARED=...); skipping
not ok - a::bad  (0.02s)
TAP
echo "[====] Synthesis: Tested: 3 | Passing: 2 | Failing: 1 | Crashing: 0" > "$logs/test_a.log"
touch "$logs/test_a.failed"
printf 'TAP version 13\n1..1\nok - b::only  # SKIP chromium is not installed\n' > "$logs/test_b.tap"
: > "$logs/test_b.log"
printf 'TAP version 13\n1..1\nok - c::fine  (0.00s)\n' > "$logs/test_c.tap"
echo "LeakSanitizer: detected memory leaks" > "$logs/test_c.log"
touch "$logs/test_c.failed"
echo "skipped: n64-rom-test (cen64 or the MIPS toolchain is missing)" > "$logs/n64-rom-test.log"
printf 'ok: install\nskipped: test-install'"'"'s read of a real sample (/x/samples not found)\n' > "$logs/test-install.log"
echo "c99-check: fine" > "$logs/c99-check.log"

sh "$(dirname "$0")/../summary.sh" "$logs" > "$tmp/out"
cat > "$tmp/want" <<'OUT'
skipped: n64-rom-test (cen64 or the MIPS toolchain is missing)
skipped: test-install's read of a real sample (/x/samples not found)
skipped: test_a, 2 tests (shared samples not found at /x (set SHARED=...); skipping)
skipped: test_b b::only (chromium is not installed)
5 passed, 2 failed, 5 skipped
OUT
if diff -u "$tmp/want" "$tmp/out"; then
    echo "summary: 1 passed, 0 failed"
else
    echo "summary: 0 passed, 1 failed"
    exit 1
fi
