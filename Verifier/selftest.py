"""Hand-made cases from Spec/ and the RFCs it cites: `verify_vectors.py --selftest`.

They exercise this implementation without Vectors/: RFC known answers, the Spec's own
examples, the Spec 3.7 classes, and full sessions between this verifier's own sender and
receiver (both codes equal, every outcome of the happy path and of a few endings).
"""

import account_text_standin
import keyschedule
import plaintexts
import qr
from errors import ProtocolError, outcome_of
from primitives import SplitMix64, aead_open, aead_seal, hkdf_expand, hkdf_extract, x25519
from receiver import Receiver
from registries import ReceiverRegistry, SenderRegistry
from sender import Sender

FAILURES = []
COUNT = [0]


def expect(actual, expected, what):
    COUNT[0] += 1
    if actual != expected:
        FAILURES.append(f"{what}: got {actual!r}, expected {expected!r}")


ACCOUNT = {"linkID": bytes(range(16)), "displayName": "Ada Lovelace", "emailAddress": "ada@example.com",
           "username": "ada", "imapHost": "imap.example.com", "imapPort": 993, "imapSecurity": "tls"}


def rfc_cases():
    prk = hkdf_extract(bytes(range(13)), bytes([0x0b] * 22))
    expect(prk.hex(), "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5", "RFC 5869 A.1 PRK")
    expect(hkdf_expand(prk, bytes(range(0xf0, 0xfa)), 42).hex(),
           "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865", "RFC 5869 A.1 OKM")
    expect(outcome_of(lambda: hkdf_expand(prk, b"", 8161)), "keyDerivationFailed", "HKDF limit")
    expect(len(hkdf_expand(prk, b"", 8160)), 8160, "HKDF at the limit")
    expect(x25519(bytes.fromhex("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4"),
                  bytes.fromhex("e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c")).hex(),
           "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552", "RFC 7748 5.2")
    for low in (bytes(32), bytes([1]) + bytes(31), bytes([0xec] + [0xff] * 30 + [0x7f])):
        expect(outcome_of(lambda: x25519(bytes([7]) * 32, low)), "lowOrderPublicKey", "small-order " + low.hex()[:8])
    key, nonce = bytes(range(0x80, 0xa0)), bytes.fromhex("070000004041424344454647")
    text = (b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, "
            b"sunscreen would be it.")
    sealed = aead_seal(key, nonce, text, bytes.fromhex("50515253c0c1c2c3c4c5c6c7"))
    expect(sealed[-16:].hex(), "1ae10b594f09e26a7e902ecbd0600691", "RFC 8439 2.8.2 tag")
    expect(aead_open(key, nonce, sealed, bytes.fromhex("50515253c0c1c2c3c4c5c6c7")), text, "RFC 8439 open")


def qr_cases():
    fields = {"version": 4, "intent": 1, "expiry": 1800000180, "commitment": bytes(32), "senderPublicKey": bytes([9]) * 32,
              "rendezvous": b""}
    binary = qr.encode_binary(fields)
    expect((len(binary), len(qr.encode_text(binary))), (71, 176), "2.3 smallest payload")
    longest = qr.encode_binary(dict(fields, rendezvous=bytes([0xff]) * 32))
    expect((len(longest), len(qr.encode_text(longest))), (103, 254), "2.3 largest payload")
    expect(qr.decode_text(qr.encode_text(longest)), (longest, dict(fields, rendezvous=bytes([0xff]) * 32)), "round trip")
    text = qr.encode_text(binary)
    cases = [("x" * 255, "malformed.length"), ("ah:" + text[3:], "badMagic"), (text[:-1] + "a", "malformed.digits"),
             (text + "1", "malformed.digits"), ("AH:", "malformed.version"), ("AH:" + "99999999999999999" + text[20:],
                                                                             "nonCanonicalEncoding"),
             ("AH:" + "0" * 251, "unsupportedVersion"), ("AH:" + "0" * 252, "malformed.length"), ("AH:001", "unsupportedVersion"), ("AH:002", "unsupportedVersion")]
    for value, error in cases:
        expect(outcome_of(lambda: qr.decode_text(value)), error, "2.4 " + value[:24])
    for length, error in [(1, "malformed.intent"), (2, "malformed.expiry"), (6, "malformed.commitment"),
                          (38, "malformed.publicKey"), (70, "malformed.rendezvous")]:
        expect(outcome_of(lambda: qr.decode_binary(binary[:length])), error, f"2.4 binary cut at {length}")
    expect(outcome_of(lambda: qr.decode_binary(binary[:70] + bytes([33]) + bytes(32))), "rendezvousTooLong", "B10")
    expect(outcome_of(lambda: qr.decode_binary(binary[:70] + bytes([2, 1]))), "malformed.rendezvous", "B11")
    expect(outcome_of(lambda: qr.decode_binary(binary + b"\0")), "malformed.trailingBytes", "B12")
    expect(outcome_of(lambda: qr.decode_binary(bytes([1]) + binary[1:])), "unsupportedVersion", "B3 version 1")
    expect(outcome_of(lambda: qr.decode_binary(bytes([2]) + binary[1:])), "unsupportedVersion", "B3 version 2")
    expect(outcome_of(lambda: qr.decode_binary(bytes([3]) + binary[1:])), "unsupportedVersion", "B3 version 3")
    expect(outcome_of(lambda: qr.decode_binary(bytes([4, 2]) + binary[2:])), "wrongIntent", "B5")


def text_cases():
    good = {"displayName": ["Ada Lovelace", "Ἀριστοτέλης", "Фёдор Достоевский", "محمد", "می\u200cخواهم", "דוד",
                            "क्\u200dष", "क्\u200cष", "สมชาย", "王小明", "김민수", "Ada ☺", ""],
            "imapHost": ["imap.example.com", "xn--bcher-kva.example", "a"]}
    bad = {"displayName": [" Ada", "Ada ", "Ada  L", "Ada\u202eL", "A\u200bB", "A\ufeffB", "A\u2028B", "A\u00a0B", "A\u200dB",
                           "A\u200cB", "a\u0301\u0301\u0301\u0301\u0301", "x" * 65, "\u1100\u1161", "A\ufe0f",
                           "\U000e0041", "\ue000", "\u0378", "A\tB"],
           "emailAddress": ["", "a b@example.com"],
           "imapHost": ["-a.example", "a-.example", "a..example", "a.example.", "a_b.example", "a" * 64 + ".example",
                        "bücher.example", "a b"]}
    for field, values in good.items():
        for value in values:
            expect(outcome_of(lambda: account_text_standin.check_field(field, value)), "ok", f"3.7 {field} {value!r}")
    for field, values in bad.items():
        for value in values:
            expect(outcome_of(lambda: account_text_standin.check_field(field, value)), "malformed." + field,
                   f"3.7 {field} {value!r}")
    expect(account_text_standin.consistency_failures(), [], "Spec/account-text-tables.txt: derived groups follow from the properties")
    expect([account_text_standin.joining_type(cp) for cp in (0x0628, 0x0627, 0x064E, 0x200C, 0x200D, 0xA872, 0x0041)],
           ["D", "R", "T", "U", "C", "L", "U"], "Joining_Type from the data file")
    expect(outcome_of(lambda: account_text_standin.check_field("displayName", "\U0001171e\u0301\u0301\u0301\u0301")),
           "malformed.displayName", "T5: U+1171E is Mn in Unicode 14.0")
    expect(outcome_of(lambda: account_text_standin.check_field("displayName", "a\u0301\u0301\u0301\u0301")), "ok", "T5 at 4")
    expect(outcome_of(lambda: account_text_standin.check_field("displayName", "x" * 64)), "ok", "T6 at 64")


def plaintext_cases():
    for size, expected in [(252, 256), (253, 256), (254, 256), (255, 512), (256, 512)]:
        expect(plaintexts.padded_size(size), expected, f"3.4 padded size of a {size}-byte record")
    plaintext = plaintexts.encode_offer(ACCOUNT)
    expect(plaintexts.decode_offer(plaintext), (ACCOUNT, 1), "offer round trip")
    expect(plaintexts.decode_offer(plaintexts.encode_offer(ACCOUNT, 2)), (ACCOUNT, 2), "offer round trip, senderGate 2")
    expect(outcome_of(lambda: plaintexts.decode_offer(plaintexts.encode_offer(ACCOUNT, 3))), "malformed.senderGate",
           "3.4 step 2: senderGate 3")
    expect(outcome_of(lambda: plaintexts.decode_offer(plaintext[:1])), "malformed.padding", "offer 1 byte")
    expect(outcome_of(lambda: plaintexts.decode_offer(plaintext + bytes(256))), "malformed.padding", "offer too long")
    expect(outcome_of(lambda: plaintexts.decode_offer(plaintext[:-1] + b"\1")), "malformed.padding", "offer padding")
    port0 = plaintexts.encode_offer(dict(ACCOUNT, imapPort=0, displayName=" x"))
    expect(outcome_of(lambda: plaintexts.decode_offer(port0)), "malformed.displayName", "3.4 step 3: strings before the port")
    expect(outcome_of(lambda: plaintexts.decode_offer(plaintexts.encode_offer(dict(ACCOUNT, imapPort=0)))), "malformed.imapPort",
           "port 0")
    expect(outcome_of(lambda: plaintexts.encode_credential(b"")), "malformed.credential", "3.5 empty")
    expect(outcome_of(lambda: plaintexts.encode_credential(bytes(1023))), "malformed.credential", "3.5 too long")
    padded = plaintexts.encode_credential(b"pw")
    expect(plaintexts.decode_credential(padded), b"pw", "3.5 round trip")
    expect(outcome_of(lambda: plaintexts.decode_credential(padded[:-1] + b"\1")), "malformed.padding", "3.5 padding")
    expect(outcome_of(lambda: plaintexts.decode_credential(bytes(1024))), "malformed.credential", "3.5 n = 0")
    for value, outcome in [(6, "expired"), (7, "failed.malformed.abortReason"), (8, "failed.malformed.abortReason")]:
        expect(plaintexts.abort_outcome(bytes([value])), outcome, f"3.6 abort {value}")


def code_cases():
    expect(keyschedule.code_forms(48291), {"value": 48291, "digits": "048291", "grouped": "048 291",
                                           "spoken": "zero four eight, two nine one"}, "4.4 forms")
    expect(keyschedule.short_code(bytes([0xff]) * 4 + (123456).to_bytes(4, "big") + bytes(56))[0], 1, "4.4 rejection")
    expect(outcome_of(lambda: keyschedule.short_code(bytes([0xff]) * 64)), "keyDerivationFailed", "4.4 all rejected")
    expect(keyschedule.short_code((4294000000 - 1).to_bytes(4, "big") + bytes(60))[1]["value"], 999999, "4.4 bound - 1")
    for typed, matches in [("048 291", True), ("048291", True), (" 0 4 8 2 9 1 ", True), ("048\t291", False), ("48291", False)]:
        expect(keyschedule.typed_matches("048291", typed), matches, f"typed {typed!r}")


def run_session(script, registry=None):
    """Runs sender and receiver; `script` decides the local events. Returns (sender, receiver, log)."""
    sender = Sender.start(ACCOUNT, b"\x12\x34", 180, SplitMix64(1), 1800000000.5, registry)
    binary, payload = qr.decode_text(sender.text)
    receiver, actions, _ = Receiver.scan(binary, payload, 1, 30, SplitMix64(2), 1800000001)
    log = []
    pending = [("sender", data) for kind, data in actions if kind == "send"]
    now = 1800000002
    while pending:
        target, data = pending.pop(0)
        party = sender if target == "sender" else receiver
        out, _ = party.handle({"type": "frameReceived", "bytes": data}, now)
        log.append((target, out))
        other = "receiver" if target == "sender" else "sender"
        for action in out:
            if action[0] == "send":
                pending.append((other, action[1]))
        for action in out:
            events = script(target, action)
            for actor, event in ([events] if isinstance(events, tuple) else events or []):
                more, _ = (sender if actor == "sender" else receiver).handle(event, now)
                log.append((actor, more))
                for sent in more:
                    if sent[0] == "send":
                        pending.append(("receiver" if actor == "sender" else "sender", sent[1]))
    return sender, receiver, log


def session_cases():
    def happy(target, action):
        if target == "receiver" and action[0] == "showShortCode":
            return "sender", {"type": "codeEntered", "typed": action[1][:3] + " " + action[1][3:]}
        if target == "receiver" and action[0] == "showAccount":
            return "receiver", {"type": "accept"}
        if target == "sender" and action[0] == "requestCredential":
            return "sender", {"type": "credentialProvided", "credential": b"secret"}
        if target == "receiver" and action[0] == "deliverAccount":
            return "receiver", {"type": "importFinished", "status": "imported"}
        return None

    registry = SenderRegistry()
    sender, receiver, log = run_session(happy, registry)
    expect((sender.outcome, receiver.outcome), ("completed.imported", "completed.imported"), "happy path outcomes")
    expect(sender.code, receiver.code, "both codes equal")
    expect(sender.channel.th, receiver.channel.th, "both transcripts equal (TH6)")
    expect(registry.status(sender.transfer_id), "completed.imported", "registry records the outcome")
    expect(outcome_of(lambda: registry.admit(sender.accepted_hello, 1800000003)), "transferConsumed", "admit after the end")

    def rejecting(target, action):
        if target == "receiver" and action[0] == "showShortCode":
            return "receiver", {"type": "reject"}
        return None

    sender, receiver, _ = run_session(rejecting)
    expect((sender.outcome, receiver.outcome), ("rejected.peer", "rejected.local"), "receiver rejects the code")

    def three_wrong_entries(target, action):
        if target == "receiver" and action[0] == "showShortCode":
            wrong = {"type": "codeEntered", "typed": str((int(action[1]) + 1) % 1000000).zfill(6)}
            return [("sender", wrong), ("sender", wrong), ("sender", wrong)]
        return None

    sender, receiver, log = run_session(three_wrong_entries)
    expect(outcome_of(lambda: Sender.start(ACCOUNT, b"", 180, SplitMix64(5), 1800000000).handle(
        {"type": "codeEntered", "typed": "12 34"}, 1800000001)), "invalidEvent", "4.4: no entry before a hello")
    mismatches = [action for _, actions in log for action in actions if action[0] == "codeMismatch"]
    expect(mismatches, [("codeMismatch", 2), ("codeMismatch", 1)], "4.4: two mismatches counted down")
    expect((sender.outcome, receiver.outcome), ("rejected.local", "rejected.peer"), "4.4: the third mismatch rejects")

    def cancel_in_receipt(target, action):
        result = happy(target, action)
        if target == "receiver" and action[0] == "deliverAccount":
            return "sender", {"type": "cancel"}
        return result

    sender, receiver, _ = run_session(cancel_in_receipt)
    expect(sender.outcome, "deliveredUnconfirmed.cancelled.local", "cancel after the credential left")
    expect(receiver.state, "awaitingImportResult", "the receiver still imports")

    claims = ReceiverRegistry()
    start = Sender.start(ACCOUNT, b"", 180, SplitMix64(3), 1800000000, None)
    binary, payload = qr.decode_text(start.text)
    Receiver.scan(binary, payload, 1, 30, SplitMix64(4), 1800000000, claims)
    expect(outcome_of(lambda: Receiver.scan(binary, payload, 1, 30, SplitMix64(4), 1800000000, claims)), "alreadyScanned",
           "scanned twice")
    low = dict(payload, senderPublicKey=bytes(32))
    low_binary = qr.encode_binary(low)
    expect(outcome_of(lambda: Receiver.scan(low_binary, low, 1, 30, SplitMix64(4), 1800000000, claims)), "lowOrderPublicKey",
           "S6")
    expect(claims.has_claimed(qr.transfer_id(low_binary)), False, "S6 gives the claim back")
    for now, error in [(1800000180 + 30, "expired"), (1800000180 + 29.5, "ok"), (1800000180 - 630, "ok"),
                       (1800000180 - 630.5, "expiryTooFar")]:
        expect(outcome_of(lambda: Receiver.scan(binary, payload, 1, 30, SplitMix64(4), now)), error, f"S2/S3 at {now}")


def run(quiet=False):
    for cases in (rfc_cases, qr_cases, text_cases, plaintext_cases, code_cases, session_cases, harness_cases):
        try:
            cases()
        except (ProtocolError, Exception) as error:  # noqa: B014 - a crash is one failure
            FAILURES.append(f"{cases.__name__} crashed: {type(error).__name__}: {error}")
    for failure in FAILURES:
        print("FAIL selftest", failure)
    if not quiet:
        print(f"selftest: {COUNT[0] - len(FAILURES)} passed, {len(FAILURES)} failed")
    return 1 if FAILURES else 0


def recorded_session(name, script):
    """A session in the format of Vectors/README.md, recorded from this verifier's own parties.

    `script` is a list of (actor, now, event) where event is a dict; `frame` may be given as
    ("last", party) for the last frame that party sent. Replaying the record through
    session_checks must pass: it checks the replay harness itself."""
    from checks import account_to_json
    from session_checks import action_json, after_json

    setup = {"senders": {"sender": {"seed": 11, "start": 1800000000, "lifetime": 180, "account": account_to_json(ACCOUNT),
                                    "localGate": 1, "rendezvous": "1234"}},
             "receivers": {"receiver": {"seed": 12, "skew": 30, "scans": "sender", "localGate": 1}}}
    sender = Sender.start(ACCOUNT, b"\x12\x34", 180, SplitMix64(11), 1800000000)
    parties = {"sender": sender, "receiver": None}
    frames_list, ids, last, steps, shown = [], {}, {}, [], {}

    def frame_id(data):
        if data not in ids:
            ids[data] = len(frames_list)
            frames_list.append({"id": len(frames_list), "bytes": data.hex()})
        return ids[data]

    for actor, now, event in script:
        event = dict(event)
        record_event = dict(event)
        if isinstance(event.get("frame"), tuple):
            event["bytes"] = last[event["frame"][1]]
            record_event["frame"] = frame_id(event["bytes"])
        if event.get("typed") == "CODE":  # the code the receiving screen shows
            event["typed"] = record_event["typed"] = shown["receiver"]
        if "credential" in event:
            record_event["credential"] = event["credential"].hex()
        step = {"actor": actor, "now": now, "event": record_event}
        try:
            if event["type"] == "scan":
                binary, payload = qr.decode_text(sender.text)
                parties[actor], actions, _ = Receiver.scan(binary, payload, 1, 30, SplitMix64(12), now)
            else:
                actions, _ = parties[actor].handle(event, now)
        except ProtocolError as error:
            step["throws"] = error.identifier
            step["after"] = after_json(parties[actor])
            steps.append(step)
            continue
        for action in actions:
            if action[0] in ("send", "reply"):
                frame_id(action[1])
                last[actor] = action[1]
            if action[0] == "showShortCode":
                shown[actor] = action[1]
        step["actions"] = [action_json(action, ids) for action in actions]
        step["after"] = after_json(parties[actor])
        steps.append(step)
    receiver = parties["receiver"]
    handshakes = []
    if receiver is not None:
        keys = receiver.keys
        code_prk, material = keyschedule.code_material(keys["codeKey"], sender.nonce, receiver.th1, receiver.hh)
        index, code = keyschedule.short_code(material)
        handshakes.append({"sender": "sender", "receiver": "receiver", "receiverPrivateKey": receiver.private_key.hex(),
                           "receiverPublicKey": receiver.public_key.hex(), "hh": receiver.hh.hex(),
                           "sharedSecret": receiver.shared.hex(), "prk": keys["prk"].hex(), "helloKey": keys["helloKey"].hex(),
                           "s2rKey": keys["s2rKey"].hex(), "r2sKey": keys["r2sKey"].hex(), "codeKey": keys["codeKey"].hex(),
                           "helloTag": receiver.hello_tag.hex(), "helloFrame": ids[receiver.hello], "th1": receiver.th1.hex(),
                           "codePRK": code_prk.hex(), "codeMaterial": material.hex(), "codeCandidateIndex": index,
                           "shortCode": code})
        frames_list[ids[receiver.hello]].update({"sealedBy": "receiver", "type": "hello", "sequence": 0, "handshake": 0,
                                                 "receiverPublicKey": receiver.public_key.hex(),
                                                 "helloTag": receiver.hello_tag.hex()})
    for party_name, party in parties.items():
        if party is None:
            continue
        for data, annotation in party.sealed_frames().items():
            frames_list[frame_id(data)].update({"sealedBy": party_name, "type": annotation["type"], "sequence": annotation["sequence"],
                                                "handshake": 0, "key": annotation["key"], "nonce": annotation["nonce"].hex(),
                                                "transcriptHash": annotation["transcriptHash"].hex(),
                                                "additionalData": annotation["additionalData"].hex(),
                                                "plaintext": annotation["plaintext"].hex()})
    qr_record = {"nonce": sender.nonce.hex(), "commitment": sender.commitment.hex(), "senderPrivateKey": sender.private_key.hex(),
                 "senderPublicKey": sender.public_key.hex(), "expiry": sender.expiry, "binary": sender.binary.hex(),
                 "text": sender.text, "transferID": sender.transfer_id.hex(), "th0": sender.th0.hex()}
    return {"name": name, "setup": setup, "qrs": {"sender": qr_record}, "handshakes": handshakes, "frames": frames_list,
            "steps": steps, "shortCodes": shown, "outcomes": {n: (p.outcome if p else None) for n, p in parties.items()}}


def harness_cases():
    """Records two sessions from this verifier's parties and replays them through session_checks."""
    from checks import CHECKS
    from session_checks import check_sessions

    t = 1800000001
    happy = [("receiver", t, {"type": "scan"}), ("sender", t, {"type": "frameReceived", "frame": ("last", "receiver")}),
             ("receiver", t, {"type": "frameReceived", "frame": ("last", "sender")}),
             ("sender", t, {"type": "codeEntered", "typed": "12"}), ("sender", t, {"type": "codeEntered", "typed": "CODE"}),
             ("receiver", t, {"type": "frameReceived", "frame": ("last", "sender")}), ("receiver", t, {"type": "accept"}),
             ("sender", t, {"type": "frameReceived", "frame": ("last", "receiver")}),
             ("sender", t, {"type": "credentialProvided", "credential": b"pw"}),
             ("receiver", t, {"type": "frameReceived", "frame": ("last", "sender")}),
             ("receiver", t, {"type": "importFinished", "status": "declined"}),
             ("sender", t, {"type": "frameReceived", "frame": ("last", "receiver")}), ("sender", t, {"type": "cancel"})]
    expiring = [("receiver", t, {"type": "scan"}), ("sender", t, {"type": "codeEntered", "typed": "000000"}),
                ("sender", t, {"type": "frameReceived", "frame": ("last", "receiver")}),
                ("sender", 1800000179.5, {"type": "tick"}), ("sender", 1800000180, {"type": "tick"}),
                ("receiver", 1800000209.75, {"type": "tick"}), ("receiver", "+infinity", {"type": "tick"}),
                ("receiver", 1800000210, {"type": "cancel"})]
    sessions = [recorded_session("happy", happy), recorded_session("expiring", expiring)]
    expect(sessions[0]["outcomes"], {"sender": "completed.declined", "receiver": "completed.declined"}, "recorded happy outcomes")
    expect(sessions[1]["outcomes"], {"sender": "expired", "receiver": "expired"}, "recorded expiry outcomes")
    before = (CHECKS.passed, CHECKS.failed)
    check_sessions({"sessions": sessions})
    expect(CHECKS.failed - before[1], 0, "the replay harness accepts recorded sessions")
    expect(CHECKS.passed - before[0] > 20, True, "the replay harness compares")
