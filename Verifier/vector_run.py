"""Loads Vectors/ and runs every check on it: shared by verify_vectors.py and mutations.py."""

import json
import os

import spec_rules
from checks import CHECKS
from discovery import check_discovery
from file_checks import check_frames, check_plaintexts, check_primitives, check_qr, check_short_codes
from registry_checks import check_registries
from session_checks import check_sessions
from transport import check_transport
from typed_code_checks import check_typed_code

# Every file of Vectors/ and the lists in it: a file or list that the verifier does not know
# is a failure, so that nothing is skipped silently.
FILES = {
    "primitives.json": (check_primitives, {"sha256", "hmacSha256", "hkdfSha256", "x25519", "chacha20Poly1305"}),
    "qr-payload.json": (check_qr, {"valid", "invalidText", "invalidBinary", "scanChecks"}),
    "frames.json": (check_frames, {"valid", "invalid"}),
    "plaintexts.json": (check_plaintexts, {"offer", "invalidOffer", "credential", "invalidCredential", "displayStrings", "codePoints"}),
    "short-code.json": (check_short_codes, {"rejectionBound", "derivations", "codeDerivations", "typed"}),
    "sessions.json": (check_sessions, {"starts", "sessions"}),
    "registries.json": (check_registries, {"sender", "receiver"}),
    "transport.json": (check_transport, {"validTokens", "invalidTokens", "relayHosts", "invalidRelayHosts", "encoderRefusals", "transportKeys",
                                         "admission", "admissionChecks", "relayQRs", "relayHandshakes"}),
    "typed-code.json": (check_typed_code, {"dammTable", "checkDigits", "codes", "entries", "channelIdentifiers", "scalars", "runs",
                                           "relay"}),
    "discovery.json": (check_discovery, {"advertisements", "txtWireFormats", "services", "browses"}),
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


def check_rule_list():
    """Every rule the Spec states (spec_rules.py) has a switch in rules.py, and every switch names a Spec rule."""
    import rules
    missing, unknown = spec_rules.compare({switch: entry[2] for switch, entry in rules.RULES.items()})
    CHECKS.equal(missing, [], "Spec rules without a switch in rules.py (spec_rules.py --check)")
    CHECKS.equal(unknown, [], "switches in rules.py that name no rule of the Spec")
    import check_order
    CHECKS.equal(check_order.unlisted_steps(), [], "steps of ordered Spec tables that check_order.py lists or explains")
