"""Checks of primitives.json, qr-payload.json, frames.json, plaintexts.json and short-code.json."""

import account_rules
import account_text_standin
import frames
import keyschedule
import plaintexts
import qr
import rules
from checks import CHECKS, account_from_json, h, time_of
from errors import ProtocolError, outcome_of
from primitives import SplitMix64, aead_open, aead_seal, hkdf_expand, hkdf_extract, hmac_sha256, sha256, x25519
from receiver import Receiver
from registries import ReceiverRegistry


def check_primitives(vectors):
    for entry in vectors["sha256"]:
        CHECKS.equal(sha256(h(entry["message"])).hex(), entry["digest"], "sha256 " + entry["name"])
    for entry in vectors["hmacSha256"]:
        CHECKS.equal(hmac_sha256(h(entry["key"]), h(entry["message"])).hex(), entry["tag"], "hmac " + entry["name"])
    for entry in vectors["hkdfSha256"]:
        prk = hkdf_extract(h(entry["salt"]), h(entry["ikm"]))
        CHECKS.equal(prk.hex(), entry["prk"], "hkdf prk " + entry["name"])
        try:
            result = hkdf_expand(prk, h(entry["info"]), entry["length"]).hex()
        except ProtocolError as error:
            result = error.identifier
        CHECKS.equal(result, entry.get("okm", entry.get("error")), "hkdf okm " + entry["name"])
    for entry in vectors["x25519"]:
        try:
            result = x25519(h(entry["privateKey"]), h(entry["peerPublicKey"])).hex()
        except ProtocolError as error:
            result = error.identifier
        CHECKS.equal(result, entry.get("sharedSecret", entry.get("error")), "x25519 " + entry["name"])
    for entry in vectors["chacha20Poly1305"]:
        key, nonce, ad, sealed = h(entry["key"]), h(entry["nonce"]), h(entry["additionalData"]), h(entry["sealed"])
        if "error" in entry:
            CHECKS.equal(outcome_of(lambda: aead_open(key, nonce, sealed, ad)), entry["error"], "aead " + entry["name"])
        else:
            CHECKS.equal(aead_seal(key, nonce, h(entry["plaintext"]), ad).hex(), entry["sealed"], "aead seal " + entry["name"])
            CHECKS.equal(aead_open(key, nonce, sealed, ad).hex(), entry["plaintext"], "aead open " + entry["name"])


def payload_fields(value):
    return {"version": value["version"], "intent": value["intent"], "expiry": value["expiry"],
            "commitment": h(value["commitment"]), "senderPublicKey": h(value["senderPublicKey"]),
            "rendezvous": h(value["rendezvous"])}


def claims_json(registry):
    return sorted(({"transferID": tid.hex(), "expiry": expiry} for tid, expiry in registry.claims.items()),
                  key=lambda claim: claim["transferID"])


def check_qr(vectors):
    for entry in vectors["valid"]:
        name = "qr " + entry["name"]
        fields = payload_fields(entry["fields"])
        CHECKS.equal(keyschedule.commitment(h(entry["nonce"])), fields["commitment"], name + " commitment opens")
        binary = qr.encode_binary(fields)
        CHECKS.equal(binary.hex(), entry["binary"], name + " binary")
        CHECKS.equal(qr.encode_text(binary), entry["text"], name + " text")
        CHECKS.equal(len(entry["text"].encode("utf-8")), entry["textLength"], name + " text length")
        CHECKS.equal(qr.transfer_id(binary).hex(), entry["transferID"], name + " transfer ID")
        CHECKS.equal(keyschedule.th0(binary).hex(), entry["th0"], name + " TH0")
        decoded = outcome_of(lambda: qr.decode_text(entry["text"]))
        CHECKS.equal(decoded, "ok", name + " decodes")
        if decoded == "ok":
            CHECKS.equal(qr.decode_text(entry["text"]), (binary, fields), name + " decode")
            CHECKS.equal(qr.decode_binary(binary), fields, name + " decode binary")
    for entry in vectors["invalidText"]:
        CHECKS.equal(outcome_of(lambda: qr.decode_text(entry["text"])), entry["error"], "qr invalid text " + entry["name"])
    for entry in vectors["invalidBinary"]:
        CHECKS.equal(len(h(entry["binary"])), entry["length"], "qr invalid binary length " + entry["name"])
        CHECKS.equal(outcome_of(lambda: qr.decode_binary(h(entry["binary"]))), entry["error"],
                     "qr invalid binary " + entry["name"])
    for entry in vectors["scanChecks"]:
        name = "scan " + entry["name"]
        registry = None
        if entry.get("registry") is not None:
            registry = ReceiverRegistry()
            for claim in entry["registry"]["before"]:
                registry.claims[h(claim["transferID"])] = claim["expiry"]
        binary, payload = qr.decode_text(entry["text"])
        result = outcome_of(lambda: Receiver.scan(binary, payload, qr.INTENT_SEND_ACCOUNT, entry["skew"],
                                                  SplitMix64(entry["receiverSeed"]), time_of(entry["now"]), registry))
        CHECKS.equal(result, entry["result"], name)
        if registry is not None:
            CHECKS.equal(claims_json(registry), entry["registry"]["after"], name + " registry after")


def check_frames(vectors):
    for entry in vectors["valid"]:
        name = "frame " + entry["name"]
        data = frames.encode(entry["type"], h(entry["transferID"]), entry["sequence"], h(entry["body"]))
        CHECKS.equal(data.hex(), entry["bytes"], name)
        CHECKS.equal((frames.TYPE_VALUES[entry["type"]], len(data)), (entry["typeValue"], entry["length"]), name + " type value, length")
        decoded = outcome_of(lambda: frames.decode(h(entry["bytes"])))
        CHECKS.equal(decoded, "ok", name + " decodes")
        if decoded == "ok":
            frame = frames.decode(h(entry["bytes"]))
            CHECKS.equal((frame["type"], frame["transferID"].hex(), frame["sequence"], frame["header"].hex(), frame["body"].hex()),
                         (entry["type"], entry["transferID"], entry["sequence"], entry["header"], entry["body"]), name + " decode")
    for entry in vectors["invalid"]:
        data = h(entry["bytes"])
        CHECKS.equal(len(data), entry["length"], "frame invalid length " + entry["name"])
        CHECKS.equal(outcome_of(lambda: frames.decode(data)), entry["error"], "frame invalid " + entry["name"])


def check_plaintexts(vectors):
    for entry in vectors["offer"]:
        name = "offer " + entry["name"]
        account = account_from_json(entry["account"])
        plaintext = plaintexts.encode_offer(account, entry["senderGate"])
        CHECKS.equal(plaintext.hex(), entry["plaintext"], name)
        CHECKS.equal((int.from_bytes(plaintext[:2], "big"), len(plaintext), len(plaintext) // 256),
                     (entry["recordLength"], entry["plaintextLength"], entry["blocks"]), name + " lengths")
        try:
            CHECKS.equal(plaintexts.decode_offer(h(entry["plaintext"])), (account, entry["senderGate"]), name + " decode")
        except ProtocolError as error:
            CHECKS.equal(error.identifier, "ok", name + " decode")
    for entry in vectors["invalidOffer"]:
        CHECKS.equal(outcome_of(lambda: plaintexts.decode_offer(h(entry["plaintext"]))), entry["error"], "offer invalid " + entry["name"])
    for entry in vectors["credential"]:
        name = "credential " + entry["name"]
        CHECKS.equal(plaintexts.encode_credential(h(entry["password"])).hex(), entry["plaintext"], name)
        CHECKS.equal(outcome_of(lambda: plaintexts.decode_credential(h(entry["plaintext"]))), "ok", name + " decodes")
        if outcome_of(lambda: plaintexts.decode_credential(h(entry["plaintext"]))) == "ok":
            CHECKS.equal(plaintexts.decode_credential(h(entry["plaintext"])).hex(), entry["password"], name + " decode")
    for entry in vectors["invalidCredential"]:
        if entry["operation"] == "encode":
            result = outcome_of(lambda: plaintexts.encode_credential(h(entry["password"])))
        else:
            result = outcome_of(lambda: plaintexts.decode_credential(h(entry["plaintext"])))
        CHECKS.equal(result, entry["error"], "credential invalid " + entry["name"])
    for entry in vectors.get("displayStrings", []):
        name = f"display string {entry['name']}"
        CHECKS.equal(entry["text"].encode("utf-8").hex(), entry["utf8"], name + " utf8")
        CHECKS.equal(outcome_of(lambda: account_rules.check_field(entry["field"], entry["text"])), entry["result"], name)
        # The verifier's own implementation must also name the rule the vector says is broken (an annotation:
        # every rule gives the same identifier, so mutation runs leave it out).
        if not CHECKS.behaviour_only:
            CHECKS.equal(account_rules.first_broken_rule(entry["field"], entry["text"]), entry["rule"], name + " rule")
    edges = account_text_standin.edge_code_points()
    if rules.ACTIVE is not None and not rules.ACTIVE.startswith("T"):
        return  # a mutation outside 3.7 cannot change these verdicts (only `T` switches reach account_text_standin)
    for entry in vectors["codePoints"]:
        name = f"code points {entry['name']}"
        refused = h(entry["refused"])
        CHECKS.equal((entry["codePoints"], len(refused)), (len(edges), (len(edges) + 7) // 8), name + ": one bit per edge code point")
        wrong = []
        for index, cp in enumerate(edges):
            text = entry["before"] + chr(cp) * entry["repeat"] + entry["after"]
            expected = "malformed." + entry["field"] if refused[index // 8] & (0x80 >> index % 8) else "ok"
            if outcome_of(lambda: account_rules.check_field(entry["field"], text)) != expected:
                wrong.append("U+%04X" % cp)
                if CHECKS.stop_at_first:
                    break
        CHECKS.equal(wrong[:10], [], name)


def check_short_codes(vectors):
    CHECKS.equal(vectors["rejectionBound"], keyschedule.BOUND, "rejection bound")

    def code_result(material):
        try:
            index, code = keyschedule.short_code(material)
            return index, code
        except ProtocolError as error:
            return None, error.identifier

    for entry in vectors["derivations"]:
        material = h(entry["material"])
        name = "short code " + entry["name"]
        CHECKS.equal(keyschedule.candidates(material), entry["candidates"], name + " candidates")
        expected = (entry["acceptedIndex"], entry["code"] if entry["acceptedIndex"] is not None else entry["error"])
        CHECKS.equal(code_result(material), expected, name)
    for entry in vectors.get("codeDerivations", []):
        name = "code derivation " + entry["name"]
        code_prk, material = keyschedule.code_material(h(entry["codeKey"]), h(entry["nonce"]), h(entry["th1"]), b"")
        CHECKS.equal((code_prk.hex(), material.hex()), (entry["codePRK"], entry["codeMaterial"]), name + " material")
        expected = (entry["acceptedIndex"], entry.get("code", entry.get("error")))
        CHECKS.equal(code_result(material), expected, name)
    for entry in vectors["typed"]:
        CHECKS.equal(keyschedule.typed_matches(entry["code"], entry["typed"]), entry["matches"], f"typed {entry['typed']!r}")
        CHECKS.equal(keyschedule.typed_result(entry["code"], entry["typed"]), entry["result"], f"typed {entry['typed']!r} result")
