#!/usr/bin/env bash
# Whether the suite holds under load: one `swift test` on the machine as it is, then RUNS runs
# (default 3) in a row with BUSY busy loops (default 2, `yes > /dev/null` each) competing for
# the cores, on the build you have (run `swift build --build-tests` first). Prints the load
# average and the time of each run and fails when any run fails. Other work on the machine
# (builds, other test runs) adds to the load; the load average printed is what the run met.
#
#   Scripts/load-check.sh            # one unloaded run, then three runs beside two busy loops
#   Scripts/load-check.sh 1 1        # one unloaded run, then one run beside one busy loop
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
busy=${2:-2}
logs=$(mktemp -d)
loops=()
stop_loops() {
    for pid in "${loops[@]}"; do kill "$pid" 2>/dev/null || true; done
    loops=()
}
trap 'stop_loops; rm -rf "$logs"' EXIT
summary=()
status=0
run() {  # run NAME
    local name=$1 log="$logs/$1.log" before after start seconds result
    before=$(cut -d' ' -f1-3 /proc/loadavg)
    start=$(date +%s)
    if swift test --skip-build >"$log" 2>&1; then result=passed; else result=FAILED; status=1; fi
    seconds=$(( $(date +%s) - start ))
    after=$(cut -d' ' -f1-3 /proc/loadavg)
    local closing
    closing=$(grep -E '^. Test run with [0-9]+ tests' "$log" | tail -1 || true)
    summary+=("$name: $result in ${seconds} s; load average before $before, after $after; ${closing:-no closing line}")
    echo "load-check: ${summary[-1]}"
    if [ "$result" = FAILED ]; then
        grep -E '^✘ Test .*(recorded an issue|failed)' "$log" | head -40 || true
        cp "$log" "/tmp/load-check-$name.log"
        echo "load-check: the whole output is in /tmp/load-check-$name.log"
    fi
}
echo "load-check: $(nproc) cores; one run as the machine is, then $runs run(s) beside $busy busy loop(s)"
run unloaded
for _ in $(seq "$busy"); do
    yes >/dev/null &
    loops+=("$!")
done
for index in $(seq "$runs"); do run "loaded-$index"; done
stop_loops
printf 'load-check: %s\n' "${summary[@]}"
exit "$status"
