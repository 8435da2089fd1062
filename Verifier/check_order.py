"""The order of the checks inside each step of the Spec, as mutations: for every ordered list of checks and every
two of its checks i before j, the mutation "check j runs before check i". It is pinned by a vector that fails i and
j at once, fails no check before i, and expects i's identifier, which is not j's: the mutated order reports j's.

Every check is evaluated on its own, from the vector's input, whatever the others say (`None` where its input is not
there: a field after a truncation, the groups of a text with a letter in it): by the oracles below for the decoders
(2.4, B1-B12, S0-S6, F1-F7, 3.4, 3.5, 6.1 start, 11.1 and its encoder, 11.2), and, for the checks that need a
session's or a registry's state (H1-H4, E1-E4, the steps of 6.0, 6.3 admit), by the verifier's state machines, which
record each check next to what they decided (`record`). Each trace is checked against the vector: its first failing
check must give the identifier the vector expects, so an oracle that reads a step wrongly fails the run.

A pair that no vector pins is argued: automatically when both checks give the same identifier (no order of them can
be seen), or in ARGUED with the reason they cannot both fail. Anything else is a gap.
"""

import math
import re

import account_rules
from primitives import SplitMix64, x25519

TRACING = False
CURRENT = ""  # the vector being run (set by session_checks.py and registry_checks.py)
TRACES = {}  # table -> [(vector, [(check, identifier or None)], expected identifier or None)]
INCONSISTENT = []  # (table, vector, first failing identifier, expected)


def record(table, vector, checks, expected):
    """One evaluation of an ordered list of checks: [(check, identifier if it fails, else None)]."""
    if TRACING:
        TRACES.setdefault(table, []).append((vector or CURRENT, checks, expected))


def traced(table, checks, body, raised=True):
    """Runs `body()`, recording `checks()` (evaluated first, on their own) against the identifier `body` raises or sets
    in `DECIDED` (None when it goes on): the state machines call this where a table's checks run."""
    import rules
    from errors import ProtocolError
    global DECIDED
    if not TRACING or rules.ACTIVE is not None:
        return body()
    listed = checks()
    DECIDED = None
    try:
        result = body()
    except ProtocolError as error:
        record(table, None, listed, DECIDED or (error.identifier if raised else None))
        raise
    record(table, None, listed, DECIDED)
    return result


DECIDED = None  # set by a step that decided an event without raising (6.0 steps 2 and 3, a frame ignored at 6.0)


def decided(identifier):
    global DECIDED
    if DECIDED is None:
        DECIDED = identifier


# The ordered checks of each table: (check, the Spec step it belongs to). Steps with several checks (S0, 3.4's steps,
# 11.1's field-by-field reading) list each one. The Spec steps of each table must equal what spec_rules reads.
TABLES = {
    "2.4 text": [("1", "2.4.1"), ("2", "2.4.2"), ("3", "2.4.3"), ("4", "2.4.4"), ("5", "2.4.5"), ("6", "2.4.6")],
    "2.4 binary": [(b, b) for b in ("B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9", "B10", "B11", "B12")],
    "2.5 scan": [("S0 skew", "S0"), ("S0 now", "S0"), ("S1", "S1"), ("S2", "S2"), ("S3", "S3"), ("S4", "S4"), ("S5", "S5"),
                 ("S6", "S6")],
    "3.3 frame": [(f, f) for f in ("F1", "F2", "F3", "F4", "F5", "F6", "F7")],
    "3.4 offer": [("1 two bytes", "3.4.1"), ("1 padded size", "3.4.1"), ("1 zero padding", "3.4.1"),
                  ("2 accountLinkID", "3.4.2"), ("2 displayName", "3.4.2"), ("2 emailAddress", "3.4.2"),
                  ("2 username", "3.4.2"), ("2 imapHost", "3.4.2"), ("2 imapPort", "3.4.2"), ("2 imapSecurity", "3.4.2"),
                  ("2 senderGate", "3.4.2"), ("2 trailing bytes", "3.4.2"), ("3 displayName", "3.4.3"), ("3 emailAddress", "3.4.3"),
                  ("3 username", "3.4.3"), ("3 imapHost", "3.4.3"), ("3 imapPort", "3.4.3")],
    "3.5 credential": [("size and length", "3.5[plaintext]"), ("padding", "3.5[plaintext]")],
    "5.1 hello": [(h, h) for h in ("H1", "H2", "H3", "H4")],
    "5.3 encrypted frame": [(e, e) for e in ("E1", "E2", "E3", "E4")],
    "6.0 steps": [("1 clock", "6.0.1"), ("2 finished", "6.0.2"), ("3 expiry", "6.0.3"), ("frame 1 decoding", "6.0 frame.1"),
                  ("frame 2 transfer ID", "6.0 frame.2")],
    "6.1 start": [("0a", "6.1 start.0a"), ("0b", "6.1 start.0b"), ("0c", "6.1 start.0c"), ("1", "6.1 start.1"),
                  ("2", "6.1 start.2")],
    "6.3 admit": [("decoding", "6.3[sender admit]"), ("clock", "6.3[sender admit]"), ("unknown", "6.3[sender admit]"),
                  ("consumed", "6.3[sender admit]"), ("expired", "6.3[sender admit]")],
    "11.1 token": [("empty", "11.1[empty]"), ("unknownFlags", "11.1[unknownFlags]"),
                   ("addressWithoutDirect", "11.1[addressWithoutDirect]"), ("noRoute", "11.1[noRoute]"),
                   ("address truncated", "11.1[truncated]"), ("direct port truncated", "11.1[truncated]"),
                   ("direct port 0", "11.1[zeroPort]"), ("relay port truncated", "11.1[truncated]"),
                   ("relay port 0", "11.1[zeroPort]"), ("trailingBytes", "11.1[trailingBytes]"),
                   ("relay host", "11.1[relayHost.*]")],
    "11.1 encoder": [("direct port 0", "11.1[Encoder refusals]"), ("relay host", "11.1[Encoder refusals]"),
                     ("relay port 0", "11.1[Encoder refusals]"), ("noRoute", "11.1[Encoder refusals]"),
                     ("tooLong", "11.1[Encoder refusals]")],
    # Group by group: the checks of the first group that fails one, then those of any later group.
    "3.7 rules": [(rule, rule) for rule in ("T1", "T2", "T3", "T4", "T5", "T6", "T7")],
    "11.4 receiver": [("A2 28 bytes", "11.4[A2]"), ("A3 magic", "11.4[A3]"), ("A4 session hint", "11.4[A4]")],
    "11.2 relay host": [("oddLength", "11.2[relayHost.oddLength]")]
    + [(f"{which} group {rule}", f"11.2[relayHost.{rule}]") for which in ("first failing", "a later")
       for rule in ("groupOutOfRange", "padGroup", "misplacedPad")]
    + [("invalid", "11.2[relayHost.invalid]")],
}

# Checks that read what an earlier check reads first (a field after the one before it, a byte after the length that
# says it is there): a reading that runs such a check before check i has read its prerequisite before i too, so the
# vector that pins "prerequisite before i" pins "check before i" as well.
PREREQUISITES = {
    "2.4 text": {"6": ["3", "4"]},
    "2.4 binary": {"B3": ["B2"], "B5": ["B4"], "B4": ["B2"], "B6": ["B4"], "B7": ["B6"], "B8": ["B7"], "B9": ["B8"],
                   "B10": ["B9"], "B11": ["B9"], "B12": ["B9"]},
    "3.4 offer": dict(
        [("2 accountLinkID", ["1 two bytes"]), ("2 displayName", ["2 accountLinkID"]), ("2 emailAddress", ["2 displayName"]), ("2 username", ["2 emailAddress"]),
         ("2 imapHost", ["2 username"]), ("2 imapPort", ["2 imapHost"]), ("2 imapSecurity", ["2 imapPort"]),
         ("2 senderGate", ["2 imapSecurity"]), ("2 trailing bytes", ["2 senderGate"]), ("3 imapPort", ["2 imapPort"])]
        + [("3 " + field, ["2 " + field]) for field in ("displayName", "emailAddress", "username", "imapHost")]),
    "11.1 token": {"unknownFlags": ["empty"], "addressWithoutDirect": ["empty"], "noRoute": ["empty"],
                   "address truncated": ["empty"], "direct port truncated": ["empty"], "relay port truncated": ["empty"],
                   "direct port 0": ["direct port truncated"], "relay port 0": ["relay port truncated"],
                   "trailingBytes": ["empty"], "relay host": ["relay port truncated"]},
    "11.1 encoder": {},
    "3.3 frame": {"F5": ["F2"], "F6": ["F2"], "F7": ["F2", "F4"]},
}



def needs(table, check):
    """Every check that `check` reads after, transitively (PREREQUISITES)."""
    found, todo = set(), list(PREREQUISITES.get(table, {}).get(check, []))
    while todo:
        item = todo.pop()
        if item not in found:
            found.add(item)
            todo += PREREQUISITES.get(table, {}).get(item, [])
    return found


# The identifier each check gives, where it is always the same.
STATIC = {(table, check): identifier for table, checks in {
    "3.7 rules": [(rule, "malformed.<field>") for rule in ("T1", "T2", "T3", "T4", "T5", "T6", "T7")],
    "2.4 text": [("1", "malformed.length"), ("2", "badMagic"), ("3", "malformed.digits"), ("4", "malformed.digits"),
                 ("5", "nonCanonicalEncoding")],
    "11.2 relay host": [("oddLength", "relayHost.oddLength")] + [
        (f"{which} group {rule}", "relayHost." + rule) for which in ("first failing", "a later")
        for rule in ("groupOutOfRange", "padGroup", "misplacedPad")] + [("invalid", "relayHost.invalid")],
    "3.4 offer": [("1 two bytes", "malformed.padding"), ("1 padded size", "malformed.padding"),
                  ("1 zero padding", "malformed.padding")],
}.items() for check, identifier in checks}

# Pairs that no vector can fail at once, with the reason: (table, earlier check, later check) -> why.
_S1 = "S1 cannot fail: B5 refuses every intent but sendAccount while decoding, the only intent a version-4 receiver expects"
_MEMORY = ("S5 and start step 2 fail only when the system refuses the session's arena of guarded memory (8.5: the "
           "memory-lock or mapping limit of the process), which no vector sets; GuardedMemoryLimitTests plays it")
_ENDS = "the token ends in the earlier field, so the later one is not there to check"
ARGUED = {
    ("11.4 receiver", "A2 28 bytes", "A3 magic"): "the receiver reads exactly 28 bytes; fewer is no challenge before the "
                                                  "admission deadline (A7), which no vector holds",
    ("11.4 receiver", "A2 28 bytes", "A4 session hint"): "the receiver reads exactly 28 bytes; fewer is no challenge before "
                                                         "the admission deadline (A7), which no vector holds",
    ("2.4 text", "1", "6"): "a text over 254 bytes whose digits give whole groups holds more than 103 bytes, so step 6 "
                            "gives malformed.length too",
    ("2.4 binary", "B10", "B12"): "a rendezvous length above 32 with bytes after it makes the payload longer than 103 "
                                  "bytes, which B1 refuses first",
    ("2.4 binary", "B11", "B12"): "the rendezvous bytes cannot be both missing and followed by more",
    ("2.5 scan", "S2", "S3"): "now >= expiry + skew and expiry > now + 600 + skew cannot both hold for a skew of 0 or more",
    ("3.3 frame", "F1", "F2"): "a frame cannot be over 4096 bytes and under 24",
    ("3.3 frame", "F5", "F6"): "bodyLength cannot be both above and below the bytes present",
    ("5.1 hello", "H1", "H2"): "H1 refuses only bytes the sender already accepted or answered, which passed H2-H4 then",
    ("5.1 hello", "H1", "H3"): "H1 refuses only bytes the sender already accepted or answered, which passed H2-H4 then",
    ("5.1 hello", "H1", "H4"): "H1 refuses only bytes the sender already accepted or answered, which passed H2-H4 then",
    ("5.3 encrypted frame", "E1", "E2"): "a sequence number cannot be both below and above the next expected one",
    ("6.3 admit", "unknown", "consumed"): "a transfer the registry never issued has no outcome",
    ("6.3 admit", "unknown", "expired"): "a transfer the registry never issued has no expiry",
    ("11.1 token", "relay port 0", "trailingBytes"): "trailing bytes are a rule of a token without a relay",
    ("11.1 token", "trailingBytes", "relay host"): "trailing bytes are a rule of a token without a relay, the host one of a "
                                                  "token with one",
    ("11.1 encoder", "noRoute", "tooLong"): "a token with neither field is one byte",
    ("11.2 relay host", "oddLength", "invalid"): "the host rules read the characters of whole groups, which an odd byte count "
                                                 "does not give",
    ("11.2 relay host", "first failing group padGroup", "first failing group misplacedPad"):
        "a group of three pads is refused as padGroup, never as a misplaced pad",
}
for _later in ("B4", "B6", "B7", "B8", "B9"):
    ARGUED[("2.4 binary", "B1", _later)] = "a payload over 103 bytes holds every field up to the rendezvous length"
ARGUED[("2.4 binary", "B1", "B2")] = "a payload over 103 bytes is not empty"
for _other in ("S0 skew", "S0 now"):
    ARGUED[("2.5 scan", _other, "S1")] = _S1
for _other in ("S2", "S3", "S4", "S5", "S6"):
    ARGUED[("2.5 scan", "S1", _other)] = _S1
for _earlier in ("S0 skew", "S0 now", "S2", "S3", "S4"):
    ARGUED[("2.5 scan", _earlier, "S5")] = _MEMORY
ARGUED[("2.5 scan", "S5", "S6")] = _MEMORY
for _earlier in ("0a", "0b", "0c", "1"):
    ARGUED[("6.1 start", _earlier, "2")] = _MEMORY
_FIELDS = ("address truncated", "direct port truncated", "direct port 0", "relay port truncated", "relay port 0",
           "trailingBytes", "relay host")
for _later in _FIELDS:
    ARGUED[("11.1 token", "noRoute", _later)] = "a token with neither bit 0 nor bit 2 has no field to read"
for _later in _FIELDS[:3]:
    ARGUED[("11.1 token", "addressWithoutDirect", _later)] = "the direct fields are read only with bit 0, which is clear"
for _index, _earlier in enumerate(("address truncated", "direct port truncated", "relay port truncated")):
    for _later in _FIELDS[_FIELDS.index(_earlier) + 1:]:
        ARGUED.setdefault(("11.1 token", _earlier, _later), _ENDS)
ARGUED[("11.1 encoder", "relay host", "noRoute")] = "a relay host is a field: the token has a route"
ARGUED[("11.1 encoder", "relay port 0", "noRoute")] = "a relay port is a field: the token has a route"
ARGUED[("11.1 encoder", "direct port 0", "noRoute")] = "a direct port is a field: the token has a route"
for _later in ("first failing group padGroup", "first failing group misplacedPad", "invalid"):
    ARGUED[("11.2 relay host", "first failing group groupOutOfRange", _later)] = (
        "a group of 59319 or more has no symbols: no pad to look at, no character for the host rules")
for _earlier, _later in [(a, b) for a in ("groupOutOfRange", "padGroup", "misplacedPad")
                         for b in ("groupOutOfRange", "padGroup", "misplacedPad", "invalid")]:
    if _later == "invalid":
        ARGUED[("11.2 relay host", "a later group " + _earlier, "invalid")] = (
            "a later group's check fails only after the first failing group's, which comes first either way")
    elif ("groupOutOfRange", "padGroup", "misplacedPad").index(_earlier) < ("groupOutOfRange", "padGroup", "misplacedPad").index(_later):
        ARGUED[("11.2 relay host", "a later group " + _earlier, "a later group " + _later)] = (
            "a later group's check fails only after the first failing group's, which comes first either way")


def first_failing(checks):
    for check, identifier in checks:
        if identifier is not None:
            return identifier
    return None


# ------------------------------------------------------------------ the oracles of the decoders

D = [0, 3, 5, 8, 10, 13, 15, 17]


def text_checks(text):
    """Spec 2.4 steps 1-6 on a QR text, each on its own; returns (checks, the bytes step 6 reads or None)."""
    data = text.encode("utf-8")
    digits = data[3:]
    checks = [("1", "malformed.length" if len(data) > 254 else None),
              ("2", "badMagic" if data[:3] != b"AH:" else None)]
    non_digit = any(c < 0x30 or c > 0x39 for c in digits)
    counts = {D[n]: n for n in range(7)}
    bad_count = len(digits) % 17 not in counts
    checks += [("3", "malformed.digits" if non_digit else None), ("4", "malformed.digits" if bad_count else None)]
    # Step 5 group by group from the start, as far as the groups are digits (a step-5-first reading stops at the
    # first group it cannot read); the last partial group only when the digit count gives it a byte count.
    sizes = [7] * (len(digits) // 17) + ([counts[len(digits) % 17]] if len(digits) % 17 in counts and len(digits) % 17 else [])
    binary, position, canonical, whole = b"", 0, True, not (non_digit or bad_count)
    for size in sizes:
        chunk = digits[position:position + D[size]]
        position += D[size]
        if any(c < 0x30 or c > 0x39 for c in chunk):
            break
        value = int(chunk)
        canonical &= value < 256 ** size
        binary += (value % 256 ** size).to_bytes(size, "big")  # step 6 of a lenient reading, for the mutation
    first = first_failing(binary_checks(binary)) if whole else None
    return checks + [("5", None if canonical else "nonCanonicalEncoding"), ("6", first)], (binary if whole else None)


def binary_checks(b):
    n = len(b)
    rendezvous = b[70] if n >= 71 else None
    return [
        ("B1", "malformed.length" if n > 103 else None),
        ("B2", "malformed.version" if n == 0 else None),
        ("B3", "unsupportedVersion" if n >= 1 and b[0] != 4 else None),
        ("B4", "malformed.intent" if n < 2 else None),
        ("B5", "wrongIntent" if n >= 2 and b[1] != 1 else None),
        ("B6", "malformed.expiry" if n < 6 else None),
        ("B7", "malformed.commitment" if n < 38 else None),
        ("B8", "malformed.publicKey" if n < 70 else None),
        ("B9", "malformed.rendezvous" if n < 71 else None),
        ("B10", "rendezvousTooLong" if rendezvous is not None and rendezvous > 32 else None),
        ("B11", "malformed.rendezvous" if rendezvous is not None and n < 71 + rendezvous else None),
        ("B12", "malformed.trailingBytes" if rendezvous is not None and n > 71 + rendezvous else None),
    ]


FRAME_LENGTHS = {1: (64,), 3: (17,), 4: (1040,), 5: (17,), 6: (17,), 7: (48,), 8: (52,), 9: (80,), 10: (32,), 11: (0,)}


def frame_checks(b):
    n = len(b)
    length = int.from_bytes(b[22:24], "big") if n >= 24 else None
    kind = b[1] if n >= 2 else None
    if kind == 2:
        valid = length is not None and length - 16 >= 256 and (length - 16) % 256 == 0
    else:
        valid = length in FRAME_LENGTHS.get(kind, ())
    return [
        ("F1", "oversizedFrame" if n > 4096 else None),
        ("F2", "malformed.frameHeader" if n < 24 else None),
        ("F3", "unsupportedVersion" if n >= 1 and b[0] != 4 else None),
        ("F4", "unknownMessageType" if n >= 2 and not 1 <= kind <= 11 else None),
        ("F5", "malformed.frameLength" if length is not None and length > n - 24 else None),
        ("F6", "malformed.trailingBytes" if length is not None and length < n - 24 else None),
        ("F7", "malformed.body" if length is not None and 1 <= kind <= 11 and not valid else None),
    ]


STRINGS = ("displayName", "emailAddress", "username", "imapHost")


def offer_checks(p):
    n = len(p)
    length = int.from_bytes(p[:2], "big") if n >= 2 else None
    padded = 256 * -(-(2 + length) // 256) if length is not None else None
    checks = [("1 two bytes", "malformed.padding" if n < 2 else None),
              ("1 padded size", "malformed.padding" if length is not None and n != padded else None),
              ("1 zero padding", "malformed.padding" if length is not None and any(p[2 + length:]) else None)]
    record = p[2:2 + length] if length is not None else None
    position, parsed, failed = 16, {}, record is None

    def take(count):
        nonlocal position
        if position + count > len(record):
            return None
        chunk = record[position:position + count]
        position += count
        return chunk

    checks.append(("2 accountLinkID", None if failed else (None if len(record) >= 16 else "malformed.accountLinkID")))
    failed = failed or len(record) < 16
    for field in STRINGS:
        if failed:
            checks.append(("2 " + field, None))
            continue
        size = take(2)
        raw = take(int.from_bytes(size, "big")) if size is not None else None
        try:
            parsed[field] = raw.decode("utf-8") if raw is not None else None
        except UnicodeDecodeError:
            parsed[field] = None
        failed = parsed[field] is None
        checks.append(("2 " + field, "malformed." + field if failed else None))
    port = None if failed else take(2)
    checks.append(("2 imapPort", None if failed else (None if port is not None else "malformed.imapPort")))
    failed = failed or port is None
    security = None if failed else take(1)
    bad_security = not failed and (security is None or security[0] not in (1, 2))
    checks.append(("2 imapSecurity", "malformed.imapSecurity" if bad_security else None))
    failed = failed or security is None
    gate = None if failed else take(1)
    checks.append(("2 senderGate", "malformed.senderGate" if not failed and (gate is None or gate[0] not in (1, 2)) else None))
    failed = failed or gate is None
    checks.append(("2 trailing bytes", "malformed.trailingBytes" if not failed and position < len(record) else None))
    for field in STRINGS:
        text = parsed.get(field)
        bad = text is not None and account_rules.first_broken_rule(field, text) is not None
        checks.append(("3 " + field, "malformed." + field if bad else None))
    checks.append(("3 imapPort", "malformed.imapPort" if port is not None and int.from_bytes(port, "big") == 0 else None))
    return checks


def credential_checks(p):
    length = int.from_bytes(p[:2], "big") if len(p) >= 2 else None
    size_bad = len(p) != 1024 or length is None or not 1 <= length <= 1022
    return [("size and length", "malformed.credential" if size_bad else None),
            ("padding", "malformed.padding" if length is not None and any(p[2 + length:]) else None)]


def scan_checks(entry, fields, binary, transfer_id, registry_before):
    from checks import time_of
    now, skew = time_of(entry["now"]), entry["skew"]
    finite = isinstance(now, (int, float)) and math.isfinite(now)
    expiry = fields["expiry"]
    private = SplitMix64(entry["receiverSeed"]).fill(32)
    try:
        x25519(private, fields["senderPublicKey"])
        low = False
    except Exception:
        low = True
    return [
        ("S0 skew", "invalidConfiguration" if skew > 120 else None),
        ("S0 now", "invalidClock" if not finite else None),
        ("S1", "wrongIntent" if fields["intent"] != 1 else None),
        ("S2", "expired" if now >= expiry + skew else None),
        ("S3", "expiryTooFar" if expiry > now + 600 + skew else None),
        ("S4", "alreadyScanned" if registry_before is not None and transfer_id in registry_before else None),
        ("S5", None),  # the arena's refusal: no vector sets the system's limits (_MEMORY)
        ("S6", "lowOrderPublicKey" if low else None),
    ]


def start_checks(entry):
    from checks import time_of
    now, lifetime = time_of(entry["now"]), entry["lifetime"]
    finite = isinstance(now, (int, float)) and math.isfinite(now)
    account = entry["account"]
    bad_account = None
    for field in STRINGS:
        if account_rules.first_broken_rule(field, account[field]) is not None:
            bad_account = "malformed." + field
            break
    if bad_account is None and account["imapPort"] == 0:
        bad_account = "malformed.imapPort"
    clock_bad = not finite or math.floor(now) < 0 or math.floor(now) + lifetime > 2 ** 32 - 1
    return [
        ("0a", "invalidConfiguration" if not 30 <= lifetime <= 600 else None),
        ("0b", "rendezvousTooLong" if len(bytes.fromhex(entry["rendezvous"])) > 32 else None),
        ("0c", bad_account),
        ("1", "invalidClock" if clock_bad else None),
        ("2", None),  # the arena's refusal: no vector sets the system's limits (_MEMORY)
    ]


def token_checks(t):
    import transport
    from errors import ProtocolError
    n = len(t)
    flags = t[0] if n else 0
    checks = [("empty", "empty" if n == 0 else None),
              ("unknownFlags", "unknownFlags" if n and flags & ~0x07 else None),
              ("addressWithoutDirect", "addressWithoutDirect" if n and flags & 0x02 and not flags & 0x01 else None),
              ("noRoute", "noRoute" if n and not flags & 0x05 else None)]
    position, stopped = 1, n == 0

    def field(size, present):
        nonlocal position, stopped
        if stopped or not present:
            return None, None
        if n - position < size:
            stopped = True
            return "truncated", None
        value = t[position:position + size]
        position += size
        return None, value

    truncated, _ = field(4, flags & 0x01 and flags & 0x02)
    checks.append(("address truncated", truncated))
    truncated, port = field(2, flags & 0x01)
    checks += [("direct port truncated", truncated), ("direct port 0", "zeroPort" if port == b"\0\0" else None)]
    truncated, port = field(2, flags & 0x04)
    checks += [("relay port truncated", truncated), ("relay port 0", "zeroPort" if port == b"\0\0" else None)]
    trailing = not stopped and n and not flags & 0x04 and position < n
    checks.append(("trailingBytes", "trailingBytes" if trailing else None))
    host = None
    if not stopped and n and flags & 0x04:
        try:
            transport.unpack_host(t[position:])
        except ProtocolError as error:
            host = error.identifier
    checks.append(("relay host", host))
    return checks


def host_checks(data):
    """11.2 decoding, check by check: the byte count, each group's value, pads and misplaced pads, the host rules."""
    import transport
    checks = [("oddLength", "relayHost.oddLength" if len(data) % 2 else None)]
    groups = [int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data) - 1, 2)]
    text, readable, per_group = "", True, []
    for g, value in enumerate(groups, 1):
        symbols = [value // 1521, value // 39 % 39, value % 39] if value < 59319 else None
        last = g == len(groups)
        misplaced = symbols is not None and symbols != [0, 0, 0] and (
            (not last and 0 in symbols) or any(a == 0 and b != 0 for a, b in zip(symbols, symbols[1:])))
        per_group.append(("relayHost.groupOutOfRange" if value >= 59319 else None,
                          "relayHost.padGroup" if symbols == [0, 0, 0] else None,
                          "relayHost.misplacedPad" if misplaced else None))
        if symbols is None:
            readable = False
        else:
            text += "".join(transport.ALPHABET[s - 1] for s in symbols if s)
    failing = [index for index, results in enumerate(per_group) if any(results)]
    first = per_group[failing[0]] if failing else (None, None, None)
    later = [next((per_group[i][k] for i in failing[1:] if per_group[i][k]), None) for k in range(3)]
    rules_ = ("groupOutOfRange", "padGroup", "misplacedPad")
    checks += [(f"first failing group {rule}", first[k]) for k, rule in enumerate(rules_)]
    checks += [(f"a later group {rule}", later[k]) for k, rule in enumerate(rules_)]
    invalid = readable and len(data) % 2 == 0 and not transport.valid_host(text)
    checks.append(("invalid", "relayHost.invalid" if invalid else None))
    return checks


def encoder_checks(entry):
    import transport
    direct, relay = entry["direct"], entry["relay"]
    length = 1 + (0 if direct is None else 2 + (0 if direct["address"] == "127.0.0.1" else 4))
    if relay is not None:
        length += 2 + 2 * -(-len(relay["host"]) // 3)
    return [("direct port 0", "zeroPort" if direct is not None and direct["port"] == 0 else None),
            ("relay host", "relayHost.invalid" if relay is not None and not transport.valid_host(relay["host"]) else None),
            ("relay port 0", "zeroPort" if relay is not None and relay["port"] == 0 else None),
            ("noRoute", "noRoute" if direct is None and relay is None else None),
            ("tooLong", "tooLong" if length > 32 else None)]


def oracle_traces(vectors):
    """The traces of every table the oracles read from the vectors' inputs alone."""
    import keyschedule
    import qr
    from checks import h
    out = {}

    def add(table, vector, checks, expected):
        out.setdefault(table, []).append((vector, checks, expected))

    payloads = vectors["qr-payload.json"]
    for entry in payloads["valid"] + payloads["invalidText"]:
        checks, binary = text_checks(entry["text"])
        expected = entry.get("error")
        add("2.4 text", "qr text " + entry["name"], checks, expected)
        if binary is not None and all(identifier is None for _, identifier in checks[:5]):
            add("2.4 binary", "qr text " + entry["name"], binary_checks(binary), expected)
    for entry in payloads["invalidBinary"]:
        add("2.4 binary", "qr binary " + entry["name"], binary_checks(h(entry["binary"])), entry["error"])
    for entry in payloads["scanChecks"]:
        binary, fields = qr.decode_text(entry["text"])
        registry = entry["registry"]
        before = None if registry is None else {bytes.fromhex(c["transferID"]) for c in registry["before"]}
        result = entry["result"]
        add("2.5 scan", "scan " + entry["name"], scan_checks(entry, fields, binary, qr.transfer_id(binary), before),
            None if result == "ok" else result)
    frames = vectors["frames.json"]
    for entry in frames["valid"] + frames["invalid"]:
        add("3.3 frame", "frame " + entry["name"], frame_checks(h(entry["bytes"])), entry.get("error"))
    plain = vectors["plaintexts.json"]
    for entry in plain["offer"]:
        add("3.4 offer", "offer " + entry["name"], offer_checks(h(entry["plaintext"])), None)
    for entry in plain["invalidOffer"]:
        add("3.4 offer", "offer " + entry["name"], offer_checks(h(entry["plaintext"])), entry["error"])
    for entry in plain["credential"]:
        add("3.5 credential", "credential " + entry["name"], credential_checks(h(entry["plaintext"])), None)
    for entry in plain["invalidCredential"]:
        if entry["operation"] == "decode":
            add("3.5 credential", "credential " + entry["name"], credential_checks(h(entry["plaintext"])), entry["error"])
    for entry in vectors["sessions.json"]["starts"]:
        result = entry["result"]
        add("6.1 start", "start " + entry["name"], start_checks(entry), None if result == "ok" else result)
    transport = vectors["transport.json"]
    for entry in transport["validTokens"]:
        add("11.1 token", "token " + entry["name"], token_checks(h(entry["token"])), None)
    for entry in transport["invalidTokens"]:
        token = h(entry["token"])
        add("11.1 token", "token " + entry["name"], token_checks(token), entry["rule"])
        if token and token[0] & 0x04 and entry["rule"].startswith("relayHost."):
            host = token[1 + (2 + (4 if token[0] & 0x02 else 0) if token[0] & 0x01 else 0) + 2:]
            add("11.2 relay host", "token " + entry["name"], host_checks(host), entry["rule"])
    for entry in transport["relayHosts"]:
        add("11.2 relay host", "relay host " + entry["name"], host_checks(h(entry["packed"])), None)
    for entry in transport["admissionChecks"]:
        if entry["side"] == "receiver":
            challenge = h(entry["challenge"])
            hints = {k["name"]: k["sessionHint"] for k in transport["transportKeys"]}
            checks = [("A2 28 bytes", "notAChallenge" if len(challenge) != 28 else None),
                      ("A3 magic", "notAChallenge" if challenge[:4] != b"AH4A" else None),
                      ("A4 session hint", "renewedCode" if challenge[4:12].hex() != hints[entry["keys"]] else None)]
            add("11.4 receiver", "admission check " + entry["name"], checks, None if entry["result"] == "answer" else entry["result"])
    for entry in transport["encoderRefusals"]:
        add("11.1 encoder", "encoder " + entry["name"], encoder_checks(entry), entry["rule"])
    del keyschedule
    return out


def traces(vectors):
    """Every table's traces: the oracles' and the ones the state machines recorded while the vectors ran."""
    from checks import CHECKS
    from vector_run import check_all
    global TRACING
    TRACES.clear()
    TRACING = True
    quiet, CHECKS.quiet = CHECKS.quiet, True
    try:
        check_all(vectors)
    finally:
        TRACING = False
        CHECKS.quiet = quiet
    out = {table: list(items) for table, items in TRACES.items()}
    for table, items in oracle_traces(vectors).items():
        out.setdefault(table, []).extend(items)
    return out


# Steps of the Spec's ordered tables that refuse nothing of their own, or whose order is pinned elsewhere.
UNLISTED = {
    "S7": "derives the keys and builds the hello; it refuses nothing",
    "6.0.4": "the table row (6.0 step 4): its checks are the lists 5.1 hello and 5.3 encrypted frame, and its place "
             "after step 3 is pinned by the switch 6.0.3beforeRow",
    "6.0 frame.3": "the type rules of the tables: their checks are the lists 5.1 hello and 5.3 encrypted frame",
    "6.1 start.3": "needs a registry that already holds the ID (registries.json); it registers the transfer ID that "
                   "step 2 builds, so it cannot run before step 2",
    "11.4[A1]": "the sender's challenge: no check", "11.4[A5]": "the receiver's answer: no check",
    "11.4[A6]": "the sender's one check (the 20 bytes it reads)", "11.4[A7]": "a deadline: time, not in vectors",
    "11.4[A8]": "a reconnection: time, not in vectors",
}
UNLISTED.update({f"11.1[{name}]": "a definition of the token's layout, not a check" for name in ("token", "direct", "address", "relay")})
ORDERED_SECTIONS = {"2.4": ("2.4.", "B"), "2.5": ("S",), "3.3": ("F",), "3.4": ("3.4.",), "3.7": ("T",), "5.1": ("H",),
                    "5.3": ("E",), "6.0": ("6.0.", "6.0 frame."), "6.1": ("6.1 start.",), "11.1": ("11.1[",),
                    "11.2": ("11.2[relayHost",), "11.4": ("11.4[A",)}


def unlisted_steps():
    """The steps of the Spec's ordered tables (as spec_rules reads them) that no list of TABLES names and that
    UNLISTED does not explain: the run fails on any, so a new step joins a list."""
    import spec_rules
    listed = {step for steps in TABLES.values() for _, step in steps}
    out = []
    for rule, section in spec_rules.RULES_CACHE():
        prefixes = ORDERED_SECTIONS.get(section, ())
        if any(rule.startswith(p) for p in prefixes) and not re.search(r"\(\w\)$", rule) and "[Encoding]" not in rule:
            if rule not in listed and rule not in UNLISTED:
                out.append(rule)
    return out


def inconsistencies(all_traces):
    """Traces whose first failing check does not give what the vector expects (or the state machine decided)."""
    return [(table, vector, first_failing(checks), expected) for table, items in all_traces.items()
            for vector, checks, expected in items if first_failing(checks) != expected]


def recorded_and_read(vectors):
    """The traces recorded while the vectors ran (TRACING on) and the oracles' traces."""
    out = {table: list(items) for table, items in TRACES.items()}
    for table, items in oracle_traces(vectors).items():
        out.setdefault(table, []).extend(items)
    return out


def run(vectors):
    """Every order mutation with its result: [(table, earlier, later, status, detail)], and the traces whose first
    failing check is not what the vector expects."""
    all_traces = traces(vectors)
    inconsistent = inconsistencies(all_traces)
    results, pinned_by = [], {}
    for table, steps in TABLES.items():
        names = [check for check, _ in steps]
        items = all_traces.get(table, [])
        for i, earlier in enumerate(names):
            for later in names[i + 1:]:
                j = names.index(later)
                pin, ids_i, ids_j = None, set(), set()
                for vector, checks, _ in items:
                    by_name = dict(checks)
                    if by_name.get(earlier):
                        ids_i.add(by_name[earlier])
                    if by_name.get(later):
                        ids_j.add(by_name[later])
                    if (pin is None and by_name.get(earlier) and by_name.get(later) and by_name[earlier] != by_name[later]
                            and all(by_name.get(n) is None for n in names[:i])):
                        pin = vector
                dominated = [(k, found) for k in PREREQUISITES.get(table, {}).get(later, [])
                             if names.index(k) > i and (found := pinned_by.get((table, earlier, k)))]
                if pin:
                    results.append((table, earlier, later, "pinned", pin))
                    pinned_by[(table, earlier, later)] = pin
                elif dominated:
                    k, found = dominated[0]
                    results.append((table, earlier, later, "pinned", f"{found} (through {k}, which {later} reads after)"))
                    pinned_by[(table, earlier, later)] = found
                elif earlier in needs(table, later) and not any(dict(c).get(earlier) and dict(c).get(later) is not None
                                                                for _, c, _ in items):
                    results.append((table, earlier, later, "argued", f"{later} reads what only {earlier} finds there: "
                                    f"when {earlier} fails, {later} has nothing to check"))
                elif (table, earlier, later) in ARGUED:
                    results.append((table, earlier, later, "argued", ARGUED[(table, earlier, later)]))
                elif STATIC.get((table, earlier)) and STATIC.get((table, earlier)) == STATIC.get((table, later)):
                    results.append((table, earlier, later, "argued", "both give " + STATIC[(table, earlier)]))
                elif ids_i and ids_j and ids_i == ids_j and len(ids_i) == 1:
                    results.append((table, earlier, later, "argued", "both give " + next(iter(ids_i))))
                else:
                    results.append((table, earlier, later, "gap", "no vector fails both" if not (ids_i and ids_j)
                                    else "no vector fails both with a check before them passing"))
                del j
    return results, inconsistent
