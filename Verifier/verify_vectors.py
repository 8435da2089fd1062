#!/usr/bin/env python3
"""Independent verifier of Vectors/ for AccountHandoff protocol version 4, written from Spec/.

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


import account_rules  # noqa: E402
import check_order  # noqa: E402
from checks import CHECKS  # noqa: E402
from vector_run import check_all, check_rule_list, default_directory, load_all  # noqa: E402


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
    check_rule_list()
    vectors = load_all(directory)
    check_order.TRACES.clear()
    check_order.TRACING = True
    try:
        check_all(vectors)
    finally:
        check_order.TRACING = False
    # Each ordered list of checks, read on its own, gives every vector's identifier (check_order.py).
    CHECKS.equal(check_order.inconsistencies(check_order.recorded_and_read(vectors)), [], "check order oracles agree")
    print(f"verifier: {CHECKS.passed} passed, {CHECKS.failed} failed")
    if CHECKS.failed:
        print(f"(account text rules: {account_rules.implementation_name()})")
    return 1 if CHECKS.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
