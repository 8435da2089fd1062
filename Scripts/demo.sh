#!/usr/bin/env bash
# The README's "run it" command: installs what is missing, then runs a whole transfer between
# two handoff processes on this machine. The demo is the developer tool's (handoff-dev, under
# Harness/, never shipped); it builds and runs the real handoff next to it. Extra arguments
# go to 'handoff-dev demo'.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/setup.sh
swift run handoff-dev demo --yes "$@"
