#!/usr/bin/env bash
# Regenerates Vectors/ from the Swift generator (until `handoff vectors --out Vectors` exists),
# then checks them with the independent Python verifier. Review the diff before committing.
set -euo pipefail
cd "$(dirname "$0")/.."
HANDOFF_REGENERATE_VECTORS=1 swift test --filter VectorDriftTests/regenerateCommittedVectors
/usr/bin/python3 Verifier/verify_vectors.py
