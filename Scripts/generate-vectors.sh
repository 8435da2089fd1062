#!/usr/bin/env bash
# Regenerates Vectors/*.json from the Swift generator (VectorGenerator.writeAll, the same code
# as `handoff-dev vectors --out Vectors`, reached through the vector test target so that the tool
# need not build), then checks them with the independent Python verifier. Review the diff
# before committing; Vectors/README.md and Vectors/COVERAGE.md are written by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
HANDOFF_REGENERATE_VECTORS=1 swift test --filter VectorDriftTests/regenerateCommittedVectors
/usr/bin/python3 Verifier/verify_vectors.py
