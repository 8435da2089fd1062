#!/usr/bin/env bash
# The photo experiment's table: 4 transfer codes drawn by `handoff qr --png`, photographed in
# software by ImageMagick with 48 fixed distortions (rotation, perspective, blur, noise,
# down-scaling, low contrast, JPEG compression, combinations; fixed parameters and seeds, one
# ImageMagick thread), read by AccountHandoffScan (`handoff receive --scan`) and by zbarimg.
# The slow test PhotoExperimentTests runs the same set and holds the reader to a floor.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product handoff >&2
swift build --product photo-table >&2
"$(swift build --show-bin-path)/photo-table"
