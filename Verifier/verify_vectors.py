#!/usr/bin/env python3
"""Independent verifier of Vectors/, written from Spec/ (not from the Swift code).

It recomputes every derivation, encoding, ciphertext and decoding error in Vectors/, and
replays every scripted session with its own sender and receiver state machines (Spec 6).
X25519, HKDF-Expand and ChaCha20-Poly1305 come from the `cryptography` package; SHA-256 and
HMAC from hashlib/hmac. Prints `verifier: N passed, M failed` and exits non-zero on a failure.

Usage: verify_vectors.py [VECTORS_DIR]   (default: ../Vectors next to this file)
"""

import hashlib
import hmac
import json
import os
import sys
import unicodedata

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF, HKDFExpand
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


class ProtocolError(Exception):
    """An error with its stable identifier (Spec 7.2)."""

    def __init__(self, identifier):
        super().__init__(identifier)
        self.identifier = identifier


class Checks:
    """Counts every comparison; prints the first failures."""

    def __init__(self):
        self.passed = 0
        self.failed = 0

    def equal(self, actual, expected, what):
        if actual == expected:
            self.passed += 1
        else:
            self.failed += 1
            if self.failed <= 40:
                print(f"FAIL {what}: got {shown(actual)}, expected {shown(expected)}")

    def true(self, condition, what):
        self.equal(bool(condition), True, what)


CHECKS = Checks()


def shown(value):
    """A short printable form: bytes as hex, long texts cut."""
    if isinstance(value, (bytes, bytearray)):
        value = value.hex()
    elif isinstance(value, (list, tuple)):
        return "(" + ", ".join(shown(item) for item in value) + ")"
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


def h(text):
    return bytes.fromhex(text)


# ---------------------------------------------------------------- primitives (README conventions)

def sha256(*parts):
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part)
    return digest.digest()


def hmac_sha256(key, message):
    return hmac.new(key, message, hashlib.sha256).digest()


def hkdf_extract(salt, ikm):
    # RFC 5869 2.2: an empty salt is 32 zero bytes.
    return hmac_sha256(salt if salt else bytes(32), ikm)


def hkdf_expand(prk, info, length):
    if length > 255 * 32:
        raise ProtocolError("keyDerivationFailed")
    if length == 0:
        return b""
    return HKDFExpand(algorithm=hashes.SHA256(), length=length, info=info).derive(prk)


def x25519(private_key, peer_public_key):
    try:
        shared = X25519PrivateKey.from_private_bytes(private_key).exchange(X25519PublicKey.from_public_bytes(peer_public_key))
    except ValueError:
        raise ProtocolError("lowOrderPublicKey")  # OpenSSL refuses an all-zero result
    if shared == bytes(32):
        raise ProtocolError("lowOrderPublicKey")
    return shared


def x25519_public(private_key):
    return X25519PrivateKey.from_private_bytes(private_key).public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def aead_seal(key, nonce, plaintext, ad):
    return ChaCha20Poly1305(key).encrypt(nonce, plaintext, ad)


def aead_open(key, nonce, sealed, ad):
    if len(sealed) < 16:
        raise ProtocolError("authenticationFailed")
    try:
        return ChaCha20Poly1305(key).decrypt(nonce, sealed, ad)
    except InvalidTag:
        raise ProtocolError("authenticationFailed")


class SplitMix64:
    """The test-support random stream of Vectors/README.md."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFFFFFFFFFF

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def fill(self, count):
        out = b""
        while len(out) < count:
            out += self.next().to_bytes(8, "little")
        return out[:count]


def u16(value):
    return value.to_bytes(2, "big")


def u32(value):
    return value.to_bytes(4, "big")


# ---------------------------------------------------------------- Spec 2: QR payload

DIGITS = [0, 3, 5, 8, 10, 13, 15, 17]
MAX_TEXT = 254
MAX_BINARY = 103


def qr_binary(fields):
    rendezvous = fields["rendezvous"]
    return (bytes([fields["version"], fields["intent"]]) + fields["transferID"] + u32(fields["expiry"]) + fields["challenge"]
            + fields["senderPublicKey"] + bytes([len(rendezvous)]) + rendezvous)


def decimal_groups(data):
    text = ""
    for start in range(0, len(data), 7):
        group = data[start:start + 7]
        text += str(int.from_bytes(group, "big")).zfill(DIGITS[len(group)])
    return text


def qr_text(binary):
    return "AH:" + decimal_groups(binary)


def decode_qr_text(text):
    data = text.encode("utf-8")
    if len(data) > MAX_TEXT:
        raise ProtocolError("malformed.length")
    if not data.startswith(b"AH:"):
        raise ProtocolError("badMagic")
    digits = data[3:]
    if any(c < 0x30 or c > 0x39 for c in digits):
        raise ProtocolError("malformed.digits")
    if len(digits) % 17 not in DIGITS[:7]:
        raise ProtocolError("malformed.digits")
    sizes = [7] * (len(digits) // 17)
    tail = DIGITS.index(len(digits) % 17)
    if tail:
        sizes.append(tail)
    binary, offset = b"", 0
    for size in sizes:
        width = DIGITS[size]
        value = int(digits[offset:offset + width])
        if value >= 256 ** size:
            raise ProtocolError("nonCanonicalEncoding")
        binary += value.to_bytes(size, "big")
        offset += width
    return decode_qr_binary(binary)


def decode_qr_binary(binary):
    if len(binary) > MAX_BINARY:
        raise ProtocolError("malformed.length")
    position = 0

    def take(count, field):
        nonlocal position
        if position + count > len(binary):
            raise ProtocolError("malformed." + field)
        chunk = binary[position:position + count]
        position += count
        return chunk

    version = take(1, "version")[0]
    if version != 1:
        raise ProtocolError("unsupportedVersion")
    intent = take(1, "intent")[0]
    if intent != 1:
        raise ProtocolError("wrongIntent")
    fields = {"version": version, "intent": intent, "transferID": take(16, "transferID"),
              "expiry": int.from_bytes(take(4, "expiry"), "big"), "challenge": take(16, "challenge"),
              "senderPublicKey": take(32, "publicKey")}
    length = take(1, "rendezvous")[0]
    if length > 32:
        raise ProtocolError("rendezvousTooLong")
    fields["rendezvous"] = take(length, "rendezvous")
    if position != len(binary):
        raise ProtocolError("malformed.trailingBytes")
    return fields


# ---------------------------------------------------------------- Spec 3: frames and plaintexts

TYPES = {1: "hello", 2: "offer", 3: "accept", 4: "credential", 5: "receipt", 6: "abort"}
TYPE_VALUES = {name: value for value, name in TYPES.items()}


def frame_header(type_name, transfer_id, sequence, body_length):
    return bytes([1, TYPE_VALUES[type_name]]) + transfer_id + u32(sequence) + u16(body_length)


def frame_bytes(type_name, transfer_id, sequence, body):
    return frame_header(type_name, transfer_id, sequence, len(body)) + body


def valid_body_length(type_name, length):
    fixed = {"hello": 64, "accept": 16, "credential": 1040, "receipt": 17, "abort": 17}
    if type_name in fixed:
        return length == fixed[type_name]
    return length - 16 >= 256 and (length - 16) % 256 == 0


def decode_frame(data):
    if len(data) > 4096:
        raise ProtocolError("oversizedFrame")
    if len(data) < 24:
        raise ProtocolError("malformed.frameHeader")
    if data[0] != 1:
        raise ProtocolError("unsupportedVersion")
    if data[1] not in TYPES:
        raise ProtocolError("unknownMessageType")
    length = int.from_bytes(data[22:24], "big")
    if length > len(data) - 24:
        raise ProtocolError("malformed.frameLength")
    if length < len(data) - 24:
        raise ProtocolError("malformed.trailingBytes")
    type_name = TYPES[data[1]]
    if not valid_body_length(type_name, length):
        raise ProtocolError("malformed.body")
    return {"type": type_name, "transferID": data[2:18], "sequence": int.from_bytes(data[18:22], "big"),
            "header": data[:24], "body": data[24:]}


STRING_FIELDS = [("displayName", 0, 256), ("emailAddress", 1, 320), ("username", 1, 320), ("imapHost", 1, 253)]
SECURITY = {"tls": 1, "startTLS": 2}



def decode_own_frame(data, transfer_id):
    """Spec 3.3 decoding plus the transfer-ID check every session makes first (5.2)."""
    frame = decode_frame(data)
    if frame["transferID"] != transfer_id:
        raise ProtocolError("unknownTransfer")
    return frame

def padded_size(content_length, block):
    return (2 + content_length + block - 1) // block * block


def encode_offer(account):
    record = account["linkID"]
    for field, _, _ in STRING_FIELDS:
        raw = account[field].encode("utf-8")
        record += u16(len(raw)) + raw
    record += u16(account["imapPort"]) + bytes([SECURITY[account["imapSecurity"]]])
    out = u16(len(record)) + record
    return out + bytes(padded_size(len(record), 256) - len(out))


def validate_account(account):
    for field, minimum, maximum in STRING_FIELDS:
        value = account[field]
        size = len(value.encode("utf-8"))
        if size < minimum or size > maximum or any(unicodedata.category(ch) == "Cc" for ch in value):
            raise ProtocolError("malformed." + field)
    if account["imapPort"] == 0:
        raise ProtocolError("malformed.imapPort")


def decode_offer(plaintext):
    if len(plaintext) < 2:
        raise ProtocolError("malformed.padding")
    length = int.from_bytes(plaintext[:2], "big")
    if len(plaintext) != padded_size(length, 256):
        raise ProtocolError("malformed.padding")
    if any(plaintext[2 + length:]):
        raise ProtocolError("malformed.padding")
    record, position = plaintext[2:2 + length], 0

    def take(count, field):
        nonlocal position
        if position + count > len(record):
            raise ProtocolError("malformed." + field)
        chunk = record[position:position + count]
        position += count
        return chunk

    account = {"linkID": take(16, "accountLinkID")}
    for field, _, _ in STRING_FIELDS:
        raw = take(int.from_bytes(take(2, field), "big"), field)
        try:
            account[field] = raw.decode("utf-8", errors="strict")
        except UnicodeDecodeError:
            raise ProtocolError("malformed." + field)
    account["imapPort"] = int.from_bytes(take(2, "imapPort"), "big")
    security = take(1, "imapSecurity")[0]
    if security not in (1, 2):
        raise ProtocolError("malformed.imapSecurity")
    account["imapSecurity"] = "tls" if security == 1 else "startTLS"
    if position != len(record):
        raise ProtocolError("malformed.trailingBytes")
    validate_account(account)
    return account


def pad_credential(password):
    if not 1 <= len(password) <= 1022:
        raise ProtocolError("malformed.credential")
    return u16(len(password)) + password + bytes(1022 - len(password))


def unpad_credential(plaintext):
    if len(plaintext) != 1024:
        raise ProtocolError("malformed.credential")
    length = int.from_bytes(plaintext[:2], "big")
    if not 1 <= length <= 1022:
        raise ProtocolError("malformed.credential")
    if any(plaintext[2 + length:]):
        raise ProtocolError("malformed.padding")
    return plaintext[2:2 + length]


# ---------------------------------------------------------------- Spec 4: key schedule and short code

BOUND = 4294000000
WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]


def short_code(material):
    candidates = [int.from_bytes(material[4 * i:4 * i + 4], "big") for i in range(16)]
    for index, candidate in enumerate(candidates):
        if candidate < BOUND:
            value = candidate % 1000000
            digits = str(value).zfill(6)
            spoken = " ".join(WORDS[int(d)] for d in digits[:3]) + ", " + " ".join(WORDS[int(d)] for d in digits[3:])
            return index, {"value": value, "digits": digits, "grouped": digits[:3] + " " + digits[3:], "spoken": spoken}
    raise ProtocolError("keyDerivationFailed")


def typed_matches(code_digits, typed):
    entered = typed.replace(" ", "")
    return hmac.compare_digest(entered.encode("utf-8"), code_digits.encode("utf-8"))


def derive(shared, challenge, hh):
    prk = hkdf_extract(hh, shared + challenge)
    keys = {"prk": prk, "helloKey": hkdf_expand(prk, b"AH1 hello", 32), "s2rKey": hkdf_expand(prk, b"AH1 s2r", 32),
            "r2sKey": hkdf_expand(prk, b"AH1 r2s", 32), "codeMaterial": hkdf_expand(prk, b"AH1 code", 64)}
    keys["codeIndex"], keys["code"] = short_code(keys["codeMaterial"])
    return keys


def nonce(sequence):
    return bytes(8) + u32(sequence)


def additional_data(header, expiry, transcript, type_name, link_id):
    ad = header + u32(expiry) + transcript
    if type_name in ("accept", "credential", "receipt"):
        ad += link_id
    return ad


# ---------------------------------------------------------------- Spec 6: state machines

LIVE_SENDER = ("awaitingCodeConfirmation", "awaitingAccept", "awaitingCredential", "awaitingReceipt")
RECEIPTS = {1: "imported", 2: "validationFailed", 3: "declined"}


class Channel:
    """Keys, sequence numbers and transcript of one side (Spec 4.3, 5.2)."""

    def __init__(self, role, transfer_id, expiry, keys, th1):
        self.role, self.transfer_id, self.expiry, self.keys = role, transfer_id, expiry, keys
        self.th1 = self.th = th1
        self.send_sequence = 1 if role == "receiver" else 0
        self.receive_sequence = 1 if role == "sender" else 0
        self.link_id = None
        self.sealed = {}  # frame bytes -> what was used to seal it, for the frame annotations

    def send_key(self):
        return self.keys["s2rKey" if self.role == "sender" else "r2sKey"]

    def receive_key(self):
        return self.keys["r2sKey" if self.role == "sender" else "s2rKey"]

    def seal(self, type_name, plaintext):
        sequence = self.send_sequence
        header = frame_header(type_name, self.transfer_id, sequence, len(plaintext) + 16)
        transcript = self.th1 if type_name == "abort" else self.th
        ad = additional_data(header, self.expiry, transcript, type_name, self.link_id)
        data = header + aead_seal(self.send_key(), nonce(sequence), plaintext, ad)
        self.send_sequence += 1
        if type_name != "abort":
            self.th = sha256(self.th, data)
        self.sealed[data] = {"key": "s2r" if self.role == "sender" else "r2s", "nonce": nonce(sequence), "transcriptHash": transcript,
                             "additionalData": ad, "plaintext": plaintext, "sequence": sequence, "type": type_name}
        return data

    def open(self, frame, data, expected_type):
        if frame["sequence"] < self.receive_sequence:
            raise ProtocolError("replayed")
        if frame["sequence"] > self.receive_sequence and frame["type"] != "abort":
            raise ProtocolError("outOfOrder")
        if frame["type"] != "abort" and frame["type"] != expected_type:
            raise ProtocolError("unexpectedMessage")
        transcript = self.th1 if frame["type"] == "abort" else self.th
        ad = additional_data(frame["header"], self.expiry, transcript, frame["type"], self.link_id)
        plaintext = aead_open(self.receive_key(), nonce(frame["sequence"]), frame["body"], ad)
        self.receive_sequence = frame["sequence"] + 1
        if frame["type"] != "abort":
            self.th = sha256(self.th, data)
        return plaintext


def abort_outcome(plaintext):
    if len(plaintext) == 1 and plaintext[0] in (1, 2, 3):
        return {1: "cancelled.peer", 2: "rejected.peer", 3: "contested"}[plaintext[0]]
    return "failed.malformed.abortReason"


class Party:
    def finish(self, outcome):
        self.state, self.outcome = "finished", outcome
        return [("finished", outcome)]

    def common_prefix(self, event, now, expired):
        """Spec 6.0 steps 1 and 2: returns actions, or None to go on."""
        if self.state == "finished":
            if event["type"] == "frameReceived":
                return [("ignored", "sessionFinished")]
            if event["type"] in ("tick", "transportLost"):
                return []
            raise ProtocolError("sessionFinished")
        if expired:
            return self.finish("expired")
        if event["type"] == "tick":
            return []
        if event["type"] == "transportLost":
            return self.finish("failed.transportLost")
        return None

    def abort(self, reason, outcome):
        frame = self.channel.seal("abort", bytes([reason]))
        return [("send", frame)] + self.finish(outcome)


class Sender(Party):
    def __init__(self, seed, start, lifetime, account, rendezvous):
        random = SplitMix64(seed)
        self.transfer_id, self.challenge, self.private_key = random.fill(16), random.fill(16), random.fill(32)
        self.public_key = x25519_public(self.private_key)
        self.expiry = int(start) + lifetime
        self.account = account
        self.binary = qr_binary({"version": 1, "intent": 1, "transferID": self.transfer_id, "expiry": self.expiry,
                                 "challenge": self.challenge, "senderPublicKey": self.public_key, "rendezvous": rendezvous})
        self.text = qr_text(self.binary)
        self.th0 = sha256(b"AH1 transcript", self.binary)
        self.state, self.outcome, self.channel, self.accepted_hello = "awaitingHello", None, None, None

    def handle(self, event, now):
        actions = self.common_prefix(event, now, now >= self.expiry)
        if actions is not None:
            return actions
        kind = event["type"]
        if kind == "frameReceived":
            return self.receive(event["bytes"])
        if kind == "codeConfirmed":
            if self.state != "awaitingCodeConfirmation":
                raise ProtocolError("invalidEvent")
            self.channel.link_id = self.account["linkID"]
            frame = self.channel.seal("offer", encode_offer(self.account))
            self.state = "awaitingAccept"
            return [("send", frame)]
        if kind == "codeRejected":
            if self.state in ("awaitingHello", "awaitingReceipt"):
                raise ProtocolError("invalidEvent")
            return self.abort(2, "rejected.local")
        if kind == "cancel":
            if self.state == "awaitingHello":
                return self.finish("cancelled.local")
            return self.abort(1, "cancelled.local")
        if kind == "credentialProvided":
            if self.state != "awaitingCredential":
                raise ProtocolError("invalidEvent")
            frame = self.channel.seal("credential", pad_credential(event["credential"]))
            self.state = "awaitingReceipt"
            return [("send", frame)]
        raise ValueError(kind)

    def receive(self, data):
        try:
            frame = decode_own_frame(data, self.transfer_id)
            if frame["type"] == "hello":
                return self.receive_hello(frame, data)
            if self.state == "awaitingHello":
                raise ProtocolError("unexpectedMessage")
            expected = {"awaitingAccept": "accept", "awaitingReceipt": "receipt"}.get(self.state)
            plaintext = self.channel.open(frame, data, expected)
        except ProtocolError as error:
            return [("ignored", error.identifier)]
        if frame["type"] == "accept":
            self.state = "awaitingCredential"
            return [("requestCredential",)]
        if frame["type"] == "receipt":
            if len(plaintext) == 1 and plaintext[0] in RECEIPTS:
                return self.finish("completed." + RECEIPTS[plaintext[0]])
            return self.finish("failed.malformed.receiptStatus")
        return self.finish(abort_outcome(plaintext))

    def receive_hello(self, frame, data):
        if self.accepted_hello is not None and data == self.accepted_hello:
            raise ProtocolError("replayed")
        if frame["sequence"] != 0:
            raise ProtocolError("malformed.sequence")
        peer, tag = frame["body"][:32], frame["body"][32:]
        hh = sha256(self.th0, peer)
        keys = derive(x25519(self.private_key, peer), self.challenge, hh)
        if not hmac.compare_digest(tag, hmac_sha256(keys["helloKey"], hh)):
            raise ProtocolError("authenticationFailed")
        if self.state in LIVE_SENDER:
            return self.abort(3, "contested")
        self.channel = Channel("sender", self.transfer_id, self.expiry, keys, sha256(self.th0, data))
        self.accepted_hello = data
        self.state = "awaitingCodeConfirmation"
        return [("showShortCode", keys["code"]["digits"])]


class Receiver(Party):
    @staticmethod
    def scan(text, skew, seed, now, registry):
        payload = decode_qr_text(text)
        if payload["intent"] != 1:  # S1: the person chose sendAccount
            raise ProtocolError("wrongIntent")
        if now > payload["expiry"] + skew:
            raise ProtocolError("expired")
        if payload["expiry"] > now + 600 + skew:
            raise ProtocolError("expiryTooFar")
        if registry is not None and payload["transferID"] in registry:
            raise ProtocolError("alreadyScanned")
        receiver = Receiver()
        receiver.private_key = SplitMix64(seed).fill(32)
        receiver.public_key = x25519_public(receiver.private_key)
        binary = qr_binary(payload)
        receiver.th0 = sha256(b"AH1 transcript", binary)
        receiver.hh = sha256(receiver.th0, receiver.public_key)
        receiver.shared = x25519(receiver.private_key, payload["senderPublicKey"])
        keys = derive(receiver.shared, payload["challenge"], receiver.hh)
        receiver.hello_tag = hmac_sha256(keys["helloKey"], receiver.hh)
        receiver.hello = frame_bytes("hello", payload["transferID"], 0, receiver.public_key + receiver.hello_tag)
        receiver.keys = keys
        receiver.transfer_id, receiver.expiry, receiver.skew = payload["transferID"], payload["expiry"], skew
        receiver.channel = Channel("receiver", payload["transferID"], payload["expiry"], keys, sha256(receiver.th0, receiver.hello))
        receiver.state, receiver.outcome, receiver.account = "awaitingOffer", None, None
        if registry is not None:
            registry.add(payload["transferID"])
        return receiver, [("send", receiver.hello), ("showShortCode", keys["code"]["digits"])]

    def handle(self, event, now):
        actions = self.common_prefix(event, now, now > self.expiry + self.skew)
        if actions is not None:
            return actions
        kind = event["type"]
        if kind == "frameReceived":
            return self.receive(event["bytes"])
        if kind == "codeConfirmed":
            if self.state != "reviewingOffer":
                raise ProtocolError("invalidEvent")
            frame = self.channel.seal("accept", b"")
            self.state = "awaitingCredentialFrame"
            return [("send", frame)]
        if kind == "codeRejected":
            if self.state == "awaitingImportResult":
                raise ProtocolError("invalidEvent")
            return self.abort(2, "rejected.local")
        if kind == "cancel":
            return self.abort(1, "cancelled.local")
        if kind == "importFinished":
            if self.state != "awaitingImportResult":
                raise ProtocolError("invalidEvent")
            status = {name: value for value, name in RECEIPTS.items()}[event["status"]]
            frame = self.channel.seal("receipt", bytes([status]))
            return [("send", frame)] + self.finish("completed." + event["status"])
        raise ValueError(kind)

    def receive(self, data):
        try:
            frame = decode_own_frame(data, self.transfer_id)
            if frame["type"] == "hello":
                raise ProtocolError("unexpectedMessage")
            expected = {"awaitingOffer": "offer", "awaitingCredentialFrame": "credential"}.get(self.state)
            plaintext = self.channel.open(frame, data, expected)
        except ProtocolError as error:
            return [("ignored", error.identifier)]
        if frame["type"] == "offer":
            try:
                self.account = decode_offer(plaintext)
            except ProtocolError as error:
                return self.finish("failed." + error.identifier)
            self.channel.link_id = self.account["linkID"]
            self.state = "reviewingOffer"
            return [("showAccount", account_key(self.account))]
        if frame["type"] == "credential":
            try:
                password = unpad_credential(plaintext)
            except ProtocolError as error:
                return self.finish("failed." + error.identifier)
            self.state = "awaitingImportResult"
            return [("deliverAccount", account_key(self.account), password.hex())]
        return self.finish(abort_outcome(plaintext))


def account_from_json(value):
    account = dict(value)
    account["linkID"] = h(value["linkID"])
    return account


def account_key(account):
    return tuple(sorted((k, v.hex() if isinstance(v, bytes) else v) for k, v in account.items()))


# ---------------------------------------------------------------- file checks

def check_primitives(vectors):
    for entry in vectors["sha256"]:
        CHECKS.equal(sha256(h(entry["message"])).hex(), entry["digest"], "sha256 " + entry["name"])
    for entry in vectors["hmacSha256"]:
        CHECKS.equal(hmac_sha256(h(entry["key"]), h(entry["message"])).hex(), entry["tag"], "hmac " + entry["name"])
    for entry in vectors["hkdfSha256"]:
        prk = hkdf_extract(h(entry["salt"]), h(entry["ikm"]))
        CHECKS.equal(prk.hex(), entry["prk"], "hkdf prk " + entry["name"])
        CHECKS.equal(hkdf_expand(prk, h(entry["info"]), entry["length"]).hex(), entry["okm"], "hkdf okm " + entry["name"])
        whole = HKDF(algorithm=hashes.SHA256(), length=entry["length"], salt=h(entry["salt"]) or None, info=h(entry["info"]))
        CHECKS.equal(whole.derive(h(entry["ikm"])).hex(), entry["okm"], "hkdf one-shot " + entry["name"])
    for entry in vectors["x25519"]:
        try:
            result = x25519(h(entry["privateKey"]), h(entry["peerPublicKey"])).hex()
        except ProtocolError as error:
            result = error.identifier
        CHECKS.equal(result, entry.get("sharedSecret", entry.get("error")), "x25519 " + entry["name"])
    for entry in vectors["chacha20Poly1305"]:
        key, n, ad, sealed = h(entry["key"]), h(entry["nonce"]), h(entry["additionalData"]), h(entry["sealed"])
        if "error" in entry:
            try:
                aead_open(key, n, sealed, ad)
                result = "ok"
            except ProtocolError as error:
                result = error.identifier
            CHECKS.equal(result, entry["error"], "aead " + entry["name"])
        else:
            CHECKS.equal(aead_seal(key, n, h(entry["plaintext"]), ad).hex(), entry["sealed"], "aead seal " + entry["name"])
            CHECKS.equal(aead_open(key, n, sealed, ad).hex(), entry["plaintext"], "aead open " + entry["name"])


def outcome_of(function):
    try:
        function()
        return "ok"
    except ProtocolError as error:
        return error.identifier


def check_qr(vectors):
    for entry in vectors["valid"]:
        fields = {k: (h(v) if isinstance(v, str) else v) for k, v in entry["fields"].items()}
        binary = qr_binary(fields)
        CHECKS.equal(binary.hex(), entry["binary"], "qr binary " + entry["name"])
        CHECKS.equal(qr_text(binary), entry["text"], "qr text " + entry["name"])
        CHECKS.equal(len(entry["text"].encode()), entry["textLength"], "qr text length " + entry["name"])
        CHECKS.equal(decode_qr_text(entry["text"]), fields, "qr decode " + entry["name"])
    for entry in vectors["invalidText"]:
        CHECKS.equal(outcome_of(lambda: decode_qr_text(entry["text"])), entry["error"], "qr invalid " + entry["name"])
    for entry in vectors["invalidBinary"]:
        CHECKS.equal(outcome_of(lambda: decode_qr_binary(h(entry["binary"]))), entry["error"], "qr invalid binary " + entry["name"])
    for entry in vectors["scanChecks"]:
        result = outcome_of(lambda: Receiver.scan(entry["text"], entry["skew"], entry["receiverSeed"], entry["now"], None))
        CHECKS.equal(result, entry["result"], "scan " + entry["name"])


def check_frames(vectors):
    for entry in vectors["valid"]:
        data = frame_bytes(entry["type"], h(entry["transferID"]), entry["sequence"], h(entry["body"]))
        CHECKS.equal(data.hex(), entry["bytes"], "frame " + entry["name"])
        CHECKS.equal(TYPE_VALUES[entry["type"]], entry["typeValue"], "frame type value " + entry["name"])
        frame = decode_frame(data)
        CHECKS.equal((frame["header"].hex(), frame["body"].hex(), frame["sequence"]), (entry["header"], entry["body"], entry["sequence"]),
                     "frame decode " + entry["name"])
    for entry in vectors["invalid"]:
        CHECKS.equal(outcome_of(lambda: decode_frame(h(entry["bytes"]))), entry["error"], "frame invalid " + entry["name"])


def check_plaintexts(vectors):
    for entry in vectors["offer"]:
        account = account_from_json(entry["account"])
        plaintext = encode_offer(account)
        CHECKS.equal(plaintext.hex(), entry["plaintext"], "offer " + entry["name"])
        CHECKS.equal((int.from_bytes(plaintext[:2], "big"), len(plaintext)), (entry["recordLength"], entry["plaintextLength"]),
                     "offer lengths " + entry["name"])
        CHECKS.equal(decode_offer(plaintext), account, "offer decode " + entry["name"])
    for entry in vectors["invalidOffer"]:
        CHECKS.equal(outcome_of(lambda: decode_offer(h(entry["plaintext"]))), entry["error"], "offer invalid " + entry["name"])
    for entry in vectors["credential"]:
        CHECKS.equal(pad_credential(h(entry["password"])).hex(), entry["plaintext"], "credential " + entry["name"])
        CHECKS.equal(unpad_credential(h(entry["plaintext"])).hex(), entry["password"], "credential decode " + entry["name"])
    for entry in vectors["invalidCredential"]:
        if entry["operation"] == "encode":
            result = outcome_of(lambda: pad_credential(h(entry["password"])))
        else:
            result = outcome_of(lambda: unpad_credential(h(entry["plaintext"])))
        CHECKS.equal(result, entry["error"], "credential invalid " + entry["name"])


def check_short_codes(vectors):
    CHECKS.equal(vectors["rejectionBound"], BOUND, "rejection bound")
    for entry in vectors["derivations"]:
        material = h(entry["material"])
        CHECKS.equal([int.from_bytes(material[4 * i:4 * i + 4], "big") for i in range(16)], entry["candidates"], "candidates " + entry["name"])
        try:
            index, code = short_code(material)
            CHECKS.equal((index, code), (entry["acceptedIndex"], entry["code"]), "short code " + entry["name"])
        except ProtocolError as error:
            CHECKS.equal((None, error.identifier), (entry["acceptedIndex"], entry["error"]), "short code " + entry["name"])
    for entry in vectors["typed"]:
        CHECKS.equal(typed_matches(entry["code"], entry["typed"]), entry["matches"], f"typed {entry['typed']!r}")


def check_session(session):
    name = session["name"]
    setup, qr = session["setup"], session["qr"]
    frames = [h(frame["bytes"]) for frame in session["frames"]]
    sender = Sender(setup["senderSeed"], setup["start"], setup["lifetime"], account_from_json(setup["account"]), h(setup["rendezvous"]))
    for field, value in [("transferID", sender.transfer_id), ("challenge", sender.challenge), ("senderPrivateKey", sender.private_key),
                         ("senderPublicKey", sender.public_key), ("binary", sender.binary), ("th0", sender.th0)]:
        CHECKS.equal(value.hex(), qr[field], f"{name}: qr {field}")
    CHECKS.equal(sender.expiry, qr["expiry"], f"{name}: expiry")
    CHECKS.equal(sender.text, qr["text"], f"{name}: qr text")

    parties = {"sender": sender}
    registries = {}
    handshakes = {entry["receiver"]: entry for entry in session["handshakes"]}
    shown = {}
    for index, step in enumerate(session["steps"]):
        actor, event, now = step["actor"], dict(step["event"]), step["now"]
        where = f"{name} step {index} ({actor} {event['type']})"
        if "frame" in event:
            event["bytes"] = frames[event["frame"]]
        if "credential" in event:
            event["credential"] = h(event["credential"])
        try:
            if event["type"] == "scan":
                party_setup = setup["receivers"][actor]
                registry = None
                if "registry" in party_setup:
                    registry = registries.setdefault(party_setup["registry"], set())
                receiver, actions = Receiver.scan(qr["text"], party_setup["skew"], party_setup["seed"], now, registry)
                parties[actor] = receiver
                check_handshake(name, actor, receiver, handshakes.get(actor), frames)
            else:
                actions = parties[actor].handle(event, now)
            thrown = None
        except ProtocolError as error:
            thrown, actions = error.identifier, []
        if "throws" in step:
            CHECKS.equal(thrown, step["throws"], where + " throws")
            continue
        CHECKS.equal(thrown, None, where + " does not throw")
        expected = []
        for action in step["actions"]:
            kind = action["type"]
            if kind == "send":
                expected.append(("send", frames[action["frame"]]))
            elif kind == "showShortCode":
                expected.append(("showShortCode", action["code"]))
            elif kind == "showAccount":
                expected.append(("showAccount", account_key(account_from_json(action["account"]))))
            elif kind == "requestCredential":
                expected.append(("requestCredential",))
            elif kind == "deliverAccount":
                expected.append(("deliverAccount", account_key(account_from_json(action["account"])), action["credential"]))
            else:
                expected.append((kind, action["error"] if kind == "ignored" else action["outcome"]))
        CHECKS.equal(actions, expected, where + " actions")
        for action in actions:
            if action[0] == "showShortCode":
                shown[actor] = action[1]
        party = parties[actor]
        channel = getattr(party, "channel", None)
        transcript = channel.th.hex() if channel is not None else None
        CHECKS.equal((party.state, transcript), (step["after"]["state"], step["after"]["transcript"]), where + " state and transcript")

    # Every annotated frame: what our own channels used to seal it must match the record.
    sealed = {}
    for party in parties.values():
        if getattr(party, "channel", None) is not None:
            sealed.update(party.channel.sealed)
    for record in session["frames"]:
        data = h(record["bytes"])
        if "key" not in record:
            continue
        if data in sealed:
            ours = sealed[data]
        else:  # forged by the script with a party's send key: recompute from the recorded handshake
            keys = handshakes[record["sealedBy"] if record["sealedBy"] != "sender" else "receiver"]
            key = h(keys["s2rKey" if record["key"] == "s2r" else "r2sKey"])
            header = frame_header(record["type"], h(qr["transferID"]), record["sequence"], len(h(record["plaintext"])) + 16)
            ad = additional_data(header, qr["expiry"], h(record["transcriptHash"]), record["type"], h(setup["account"]["linkID"]))
            CHECKS.equal((header + aead_seal(key, nonce(record["sequence"]), h(record["plaintext"]), ad)).hex(), record["bytes"],
                         f"{name}: forged frame {record['id']}")
            ours = {"key": record["key"], "nonce": nonce(record["sequence"]), "transcriptHash": h(record["transcriptHash"]),
                    "additionalData": ad, "plaintext": h(record["plaintext"]), "sequence": record["sequence"], "type": record["type"]}
        for field in ("key", "nonce", "transcriptHash", "additionalData", "plaintext", "sequence", "type"):
            value = ours[field].hex() if isinstance(ours[field], bytes) else ours[field]
            CHECKS.equal(value, record[field], f"{name}: frame {record['id']} {field}")

    CHECKS.equal(shown, session["shortCodes"], f"{name}: short codes shown")
    CHECKS.equal({actor: party.outcome for actor, party in parties.items()}, session["outcomes"], f"{name}: outcomes")
    if name == "mitm-own-key":
        CHECKS.true(shown["sender"] != shown["receiver"], f"{name}: the man in the middle gets a different code")


def check_handshake(name, actor, receiver, record, frames):
    if record is None:
        CHECKS.true(False, f"{name}: no handshake recorded for {actor}")
        return
    keys = receiver.keys
    mine = {"receiverPrivateKey": receiver.private_key, "receiverPublicKey": receiver.public_key, "th0": receiver.th0, "hh": receiver.hh,
            "sharedSecret": receiver.shared, "prk": keys["prk"], "helloKey": keys["helloKey"], "s2rKey": keys["s2rKey"],
            "r2sKey": keys["r2sKey"], "codeMaterial": keys["codeMaterial"], "helloTag": receiver.hello_tag, "th1": receiver.channel.th1}
    for field, value in mine.items():
        CHECKS.equal(value.hex(), record[field], f"{name}: {actor} handshake {field}")
    CHECKS.equal((keys["codeIndex"], keys["code"]), (record["codeCandidateIndex"], record["shortCode"]), f"{name}: {actor} short code")
    CHECKS.equal(receiver.hello, frames[record["helloFrame"]], f"{name}: {actor} hello frame")


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Vectors")

    def load(file_name):
        with open(os.path.join(directory, file_name), encoding="utf-8") as handle:
            return json.load(handle)

    check_primitives(load("primitives.json"))
    check_qr(load("qr-payload.json"))
    check_frames(load("frames.json"))
    check_plaintexts(load("plaintexts.json"))
    check_short_codes(load("short-code.json"))
    for session in load("sessions.json")["sessions"]:
        try:
            check_session(session)
        except Exception as error:  # a crash in one session is a failure, not the end of the run
            CHECKS.failed += 1
            print(f"FAIL {session['name']}: {type(error).__name__}: {error}")
    print(f"verifier: {CHECKS.passed} passed, {CHECKS.failed} failed")
    return 1 if CHECKS.failed else 0


if __name__ == "__main__":
    sys.exit(main())
