#!/usr/bin/env bash
# Where the test suite's time goes: every suite run alone (`swift test --skip-build --filter`,
# on the build you have), one after the other, with its CPU time (user + system, children
# included) and wall time, so that the CPU figures hold while others use the machine. Prints a
# tab-separated table sorted by CPU time, with the load average before each run. Each run
# includes `swift test`'s own start (about 1.4 s of CPU and 2.5 s of wall time here).
#
#   Scripts/suite-times.sh                    # every suite of the default slice
#   Scripts/suite-times.sh 'HandoffCLITests'  # the suites whose ID matches a pattern
#   HANDOFF_SLOW_TESTS=1 Scripts/suite-times.sh   # with the slow slice
set -euo pipefail
cd "$(dirname "$0")/.."
pattern=${1:-.}
rows=$(mktemp)
measured=$(mktemp)
trap 'rm -f "$rows" "$measured"' EXIT
swift test --skip-build --list-tests 2>/dev/null | grep -E "$pattern" | awk -F/ '{ count[$1]++ } END { for (s in count) print s, count[s] }' \
    | sort | while read -r suite tests; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    escaped=${suite//./\\.}
    result=passed
    /usr/bin/time -o "$measured" -f '%U %S %e' swift test --skip-build --filter "^$escaped/" >/dev/null 2>&1 </dev/null || result=FAILED
    read -r user system wall < <(tail -1 "$measured")
    cpu=$(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.1f", u + s }')
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$suite" "$tests" "$cpu" "$wall" "$load" "$result" | tee -a "$rows" >&2
done
printf 'suite\ttests\tcpu_s\twall_s\tload\tresult\n'
sort -t$'\t' -k3,3 -rn "$rows"
awk -F'\t' '{ cpu += $3; wall += $4 } END { printf "total\t\t%.1f\t%.1f\n", cpu, wall }' "$rows"
