#!/usr/bin/env bash
# The README's "run it" command: installs what is missing, then runs a whole transfer between
# two handoff processes on this machine. Extra arguments go to 'handoff demo'.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/setup.sh
swift run handoff demo --yes "$@"
