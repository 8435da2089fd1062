#!/usr/bin/env python3
"""Independent verifier of Vectors/ for AccountHandoff protocol version 2, written from Spec/.

It recomputes every derivation, encoding, ciphertext and decoding error in Vectors/, replays
every scripted session with its own sender and receiver state machines (Spec 6) and every
registry script with its own registries (Spec 6.3). SHA-256 and HMAC come from the standard
library, X25519 and ChaCha20-Poly1305 from the `cryptography` package; HKDF is its own.
Prints `verifier: N passed, M failed` and exits non-zero on a failure.

Usage: verify_vectors.py [VECTORS_DIR]               check every vector (default: ../Vectors)
       verify_vectors.py --selftest                  the hand-made cases of selftest.py
       verify_vectors.py --mutations [--write FILE] [VECTORS_DIR]
                                                     break each rule of rules.py in turn and
                                                     report which ones no vector catches
"""

import sys

sys.dont_write_bytecode = True  # keep Verifier/ free of __pycache__

import json  # noqa: E402
import os  # noqa: E402

import account_rules  # noqa: E402
from checks import CHECKS  # noqa: E402
from file_checks import check_frames, check_plaintexts, check_primitives, check_qr, check_short_codes  # noqa: E402
from registry_checks import check_registries  # noqa: E402
from session_checks import check_sessions  # noqa: E402
from transport import check_transport  # noqa: E402

# Every file of Vectors/ and the lists in it: a file or list that the verifier does not know
# is a failure, so that nothing is skipped silently.
FILES = {
    "primitives.json": (check_primitives, {"sha256", "hmacSha256", "hkdfSha256", "x25519", "chacha20Poly1305"}),
    "qr-payload.json": (check_qr, {"valid", "invalidText", "invalidBinary", "scanChecks"}),
    "frames.json": (check_frames, {"valid", "invalid"}),
    "plaintexts.json": (check_plaintexts, {"offer", "invalidOffer", "credential", "invalidCredential", "displayStrings"}),
    "short-code.json": (check_short_codes, {"rejectionBound", "derivations", "codeDerivations", "typed"}),
    "sessions.json": (check_sessions, {"starts", "sessions"}),
    "registries.json": (check_registries, {"sender", "receiver"}),
    "transport.json": (check_transport, {"validTokens", "invalidTokens", "relayHosts", "invalidRelayHosts", "transportKeys",
                                         "admission", "admissionChecks", "relayQRs", "relayHandshakes"}),
}
IGNORED_KEYS = {"description", "note", "version", "spec", "comment"}


def default_directory():
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Vectors")


def load_all(directory):
    vectors = {}
    for file_name in sorted(os.listdir(directory)):
        if file_name.endswith(".json"):
            with open(os.path.join(directory, file_name), encoding="utf-8") as handle:
                vectors[file_name] = json.load(handle)
    return vectors


def check_all(vectors):
    """Runs every check on the loaded files (also once per mutation)."""
    for file_name in sorted(set(vectors) | set(FILES)):
        if file_name not in FILES:
            CHECKS.true(False, f"{file_name} is a vector file the verifier knows")
            continue
        if file_name not in vectors:
            CHECKS.true(False, f"{file_name} exists")
            continue
        check, lists = FILES[file_name]
        unknown = set(vectors[file_name]) - lists - IGNORED_KEYS
        CHECKS.equal(sorted(unknown), [], f"{file_name}: every list is known")
        check(vectors[file_name])


def main(arguments):
    if "--selftest" in arguments:
        import selftest
        return selftest.run()
    if "--mutations" in arguments:
        import mutations
        return mutations.main(arguments)
    directory = arguments[0] if arguments else default_directory()
    import selftest
    selftest_failed = selftest.run(quiet=True)
    CHECKS.passed = CHECKS.failed = 0  # the selftest's session harness counts here too: start the vectors' count afresh
    if selftest_failed:
        CHECKS.true(False, "selftest (run verify_vectors.py --selftest)")
    check_all(load_all(directory))
    print(f"verifier: {CHECKS.passed} passed, {CHECKS.failed} failed")
    if CHECKS.failed:
        print(f"(account text rules: {account_rules.implementation_name()})")
    return 1 if CHECKS.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
