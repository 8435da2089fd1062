#!/usr/bin/env bash
# The slow slice: every test marked `@Test(.slowSlice)` (Harness/TestProcesses/SlowSlice.swift:
# long multi-process runs, repeated rounds, floods, the bench, real Thunderbird readers, most
# network-namespace hosts), which `swift test` leaves out to stay near a minute, run with
# HANDOFF_SLOW_TESTS set on the build Scripts/test.sh made. The tests are found from that one
# marker (the `@Test(...)` attribute that holds it and the `func` after it, named with its
# suite), so a new slow test joins the slice by itself. The slice fails when a suite carries the
# marker or gates on HANDOFF_SLOW_TESTS itself (that would hide its tests from this search),
# when a test gates on the variable instead of the marker, when it finds no test, when a test
# is skipped, or when fewer tests ran than it found. `Scripts/slow-tests.sh --list` only lists them.
set -euo pipefail
cd "$(dirname "$0")/.."
# Prints `Suite/function` for every marked test, `SUITE-GATE path:line` for a marked or gated
# suite and `RAW-GATE path:line` for a test gated on the variable itself.
scan() {
    find Tests -name '*.swift' -print0 | sort -z | xargs -0 awk '
        FNR == 1 { attribute = ""; kind = ""; depth = 0; types = 0 }
        # The innermost type open at this line names the suite (a test ID reads `Suite/function(`):
        # a stack of the types declared, each with the brace depth it was declared at.
        match($0, /(^|[^A-Za-z0-9_."])(struct|class|enum|extension|actor) [A-Za-z0-9_]+/) && $0 !~ /^[[:space:]]*(\/\/|\*)/ {
            declaration = substr($0, RSTART, RLENGTH)
            sub(/.* /, "", declaration)
            types++
            type[types] = declaration
            level[types] = depth
        }
        /@Test\(/ { kind = "test"; attribute = ""; where = FILENAME ":" FNR }
        /@Suite\(/ { kind = "suite"; attribute = ""; where = FILENAME ":" FNR }
        kind != "" { attribute = attribute $0 }
        kind == "suite" && /(struct|class|enum|extension|actor) [A-Za-z0-9_]+/ {
            if (attribute ~ /slowSlice|HANDOFF_SLOW_TESTS/) print "SUITE-GATE " where
            kind = ""
        }
        kind == "test" && /func [A-Za-z0-9_]+/ {
            if (attribute ~ /HANDOFF_SLOW_TESTS/) print "RAW-GATE " where
            if (attribute ~ /\.slowSlice/) {
                match($0, /func [A-Za-z0-9_]+/)
                print type[types] "/" substr($0, RSTART + 5, RLENGTH - 5)
            }
            kind = ""
        }
        {
            line = $0
            sub(/\/\/.*/, "", line)
            depth += gsub(/{/, "{", line) - gsub(/}/, "}", line)
            while (types > 0 && depth <= level[types] && line ~ /}/) types--
        }'
}
found=$(scan)
if gates=$(printf '%s\n' "$found" | grep '^SUITE-GATE '); then
    echo "slow-tests: mark the tests, not the suite, with .slowSlice: ${gates//SUITE-GATE /}" >&2
    exit 1
fi
if gates=$(printf '%s\n' "$found" | grep '^RAW-GATE '); then
    echo "slow-tests: gate with @Test(.slowSlice), not HANDOFF_SLOW_TESTS itself: ${gates//RAW-GATE /}" >&2
    exit 1
fi
names=$(printf '%s\n' "$found" | grep . | sort -u || true)
count=$(printf '%s\n' "$names" | grep -c . || true)
if [ "$count" -eq 0 ]; then
    echo "slow-tests: no test is marked .slowSlice" >&2
    exit 1
fi
filter="($(printf '%s\n' "$names" | paste -sd '|'))\\("
echo "slow-tests: $count test(s): $(printf '%s\n' "$names" | paste -sd ' ')"
[ "${1:-}" = --list ] && exit 0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
start=$(date +%s)
status=0
HANDOFF_SLOW_TESTS=1 swift test --skip-build --filter "$filter" 2>&1 | tee "$log" || status=$?
echo "slow-tests: $(( $(date +%s) - start )) s; load average $(cut -d' ' -f1-3 /proc/loadavg)"
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
