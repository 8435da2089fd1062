# The libFuzzer targets of Fuzz/ and their settings, sourced by Scripts/fuzz.sh and
# Scripts/fuzz-coverage.sh so that a new target is named in one place.
all_targets=(FuzzQRPayload FuzzFrame FuzzSender FuzzReceiver FuzzSession FuzzEvents FuzzDrivers)
declare -A max_len=([FuzzQRPayload]=512 [FuzzFrame]=4160 [FuzzSender]=4096 [FuzzReceiver]=4096 [FuzzSession]=4096
                    [FuzzEvents]=4096 [FuzzDrivers]=4096)
declare -A dictionary=([FuzzQRPayload]=qr-payload.dict [FuzzFrame]=frame.dict [FuzzSender]=frame.dict
                       [FuzzReceiver]=frame.dict [FuzzSession]=frame.dict [FuzzEvents]=frame.dict [FuzzDrivers]=frame.dict)
