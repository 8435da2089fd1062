#!/usr/bin/env bash
# The slow slice: every test gated by HANDOFF_SLOW_TESTS (each takes minutes, so `swift test`
# leaves them out), run on the build Scripts/test.sh made. The tests are found from their gate
# (the `@Test(.enabled(if: ... "HANDOFF_SLOW_TESTS" ...))` line and the `func` after it), so a
# new slow test joins the slice by itself; the slice fails when it finds none, when a test is
# skipped, or when fewer tests ran than it found.
set -euo pipefail
cd "$(dirname "$0")/.."
# A gate on a suite would hide its tests from this slice: gate each test instead.
if suites=$(grep -rln --include='*.swift' '@Suite(.*HANDOFF_SLOW_TESTS' Tests); then
    echo "slow-tests: gate the tests, not the suite, with HANDOFF_SLOW_TESTS: $suites" >&2
    exit 1
fi
names=$(grep -rh -A2 --include='*.swift' '@Test(.enabled(if: .*"HANDOFF_SLOW_TESTS"' Tests \
        | grep -o 'func [A-Za-z0-9_]*' | sed 's/^func //' | sort -u)
count=$(printf '%s\n' "$names" | grep -c . || true)
if [ "$count" -eq 0 ]; then
    echo "slow-tests: no test is gated by HANDOFF_SLOW_TESTS" >&2
    exit 1
fi
filter="/($(printf '%s\n' "$names" | paste -sd '|'))\\("
echo "slow-tests: $count test(s): $(printf '%s\n' "$names" | paste -sd ' ')"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
start=$(date +%s)
status=0
HANDOFF_SLOW_TESTS=1 swift test --skip-build --filter "$filter" 2>&1 | tee "$log" || status=$?
echo "slow-tests: $(( $(date +%s) - start )) s"
[ "$status" -eq 0 ] || exit "$status"
if grep -q "skipped" "$log"; then
    echo "slow-tests: a slow test was skipped" >&2
    exit 1
fi
ran=$(grep -o 'Test run with [0-9]* test' "$log" | grep -o '[0-9]*' | tail -1)
if [ "${ran:-0}" -lt "$count" ]; then
    echo "slow-tests: ${ran:-0} test(s) ran, $count expected" >&2
    exit 1
fi
