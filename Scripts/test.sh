#!/usr/bin/env bash
# The README's test command: installs what is missing, then runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/setup.sh
swift build --build-tests -Xswiftc -warnings-as-errors
swift test --skip-build
/usr/bin/python3 Verifier/verify_vectors.py
/usr/bin/python3 Scripts/apple-only.py --check
