"""Spec 11.1-11.4 and 11.7: the reference transport's rendezvous token, relay host packing,
transport keys, admission exchange and relay handshake line, and the checks of transport.json."""

import keyschedule
import qr
from checks import CHECKS, h
from errors import ProtocolError, outcome_of
from primitives import SplitMix64, equal_constant_time, hkdf_expand, hkdf_extract, hmac_sha256
from rules import broken

DIRECT, ADDRESS, RELAY = 0x01, 0x02, 0x04
ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789-."  # symbols 1...38; 0 is pad (11.2)
LOOPBACK = bytes([127, 0, 0, 1])


class TokenError(ProtocolError):
    """A refused token, or fields an encoder refuses: `identifier` is the rule of 11.1/11.2, `error` the
    error identifier of 7.2 (`unsupportedRendezvous`, or `rendezvousTooLong` for the encoder's tooLong)."""

    def __init__(self, rule, error="unsupportedRendezvous"):
        super().__init__(rule)
        self.error = error


def refuse(rule):
    raise TokenError(rule)


# 11.2 relay hosts

def valid_host(text):
    """A lowercase letter-digit-hyphen name (rule T7 of 3.7 without A-Z), 1...42 characters."""
    if broken("11.2.hostRules"):
        return 1 <= len(text) <= 42
    if not 1 <= len(text) <= (43 if broken("11.2.maxLength") else 42):
        return False
    if broken("11.2.digitLabels") and all(label.isdigit() for label in text.split(".")) and relay_address(text) is None:
        return False  # digits-only labels taken for an IPv4 address, and refused when they are not one
    for label in text.split("."):
        if not 1 <= len(label) <= 63 or label[0] == "-" or label[-1] == "-":
            return False
        if any(c not in ALPHABET[:37] for c in label):
            return False
    return True


def symbol_alphabet():
    return ALPHABET.replace("-.", ".-") if broken("11.2.alphabet") else ALPHABET


def radix():
    return 40 if broken("11.2.radix") else 39


def group_bytes(value):
    return value.to_bytes(2, "little" if broken("11.2.endian") else "big")


def group_value(data):
    return int.from_bytes(data, "little" if broken("11.2.endian") else "big")


def pack_host(text):
    """11.2 steps 1-3: symbols, pads at the end, base-39 groups."""
    symbols = [symbol_alphabet().index(c) + 1 for c in text]
    pads = [0] * (-len(symbols) % 3)
    symbols = symbols[:len(symbols) - len(symbols) % 3] + pads + symbols[len(symbols) - len(symbols) % 3:] \
        if broken("11.2.padFront") else symbols + pads
    r = radix()
    out = b""
    for i in range(0, len(symbols), 3):
        out += group_bytes(symbols[i] * r * r + symbols[i + 1] * r + symbols[i + 2])
    return out


def unpack_host(data):
    """11.2 decoding: the byte count; then group by group the value, a group of only pads, a
    misplaced pad; the host rules last."""
    def odd():
        if len(data) % 2 and not broken("11.2.odd"):
            refuse("relayHost.oddLength")

    if not broken("11.2.oddOrder"):
        odd()
    r = radix()
    groups = [group_value(data[i:i + 2]) for i in range(0, len(data) - len(data) % 2, 2)]

    def in_range(value):
        if value >= r ** 3:
            if not broken("11.2.range"):
                refuse("relayHost.groupOutOfRange")
            value %= r ** 3
        return value

    if broken("11.2.groupByGroup"):
        groups = [in_range(value) for value in groups]
    text = ""
    for index, value in enumerate(groups):
        if not broken("11.2.rangeOrder"):
            value = in_range(value)
        symbols = [value // (r * r), value // r % r, value % r]

        def pad_group():
            if symbols == [0, 0, 0] and not broken("11.2.padGroup"):
                refuse("relayHost.padGroup")

        if not broken("11.2.padGroupOrder"):
            pad_group()
        last = index == len(groups) - 1
        padded = False
        for symbol in symbols:
            if symbol == 0:
                if not last and not broken("11.2.padEnd"):
                    refuse("relayHost.misplacedPad")
                padded = True
            else:
                if padded and not broken("11.2.padEnd"):
                    refuse("relayHost.misplacedPad")
                text += symbol_alphabet()[symbol - 1] if symbol <= 38 else "?"
        if broken("11.2.padGroupOrder"):
            pad_group()
        if broken("11.2.rangeOrder"):
            value = in_range(value)
        if broken("11.2.hostRulesEarly") and text and not valid_host_prefix(text):
            refuse("relayHost.invalid")
    if broken("11.2.oddOrder"):
        odd()
    if not valid_host(text):
        refuse("relayHost.invalid")
    return text


def valid_host_prefix(text):
    """The host rules as far as they can be told from the first characters (for 11.2.hostRulesEarly)."""
    return text[0] not in "-." and ".." not in text and ".-" not in text and "-." not in text


# 11.1 tokens

def port_bytes(port):
    return port.to_bytes(2, "little" if broken("11.1.portEndian") else "big")


def port_value(data):
    return int.from_bytes(data, "little" if broken("11.1.portEndian") else "big")


def encode_token(direct, relay):
    """`direct` = (address bytes, port) or None; `relay` = (host, port) or None."""
    flags, out = 0, b""
    if direct is not None:
        address, port = direct
        flags |= DIRECT
        if address != LOOPBACK or broken("11.1.encodeLoopback"):
            flags |= ADDRESS
            out += address
        out += port_bytes(port)
    if relay is not None:
        host, port = relay
        flags |= RELAY
        out += port_bytes(port) + pack_host(host)
    return bytes([flags]) + out


def encode_fields(direct, relay):
    """11.1 "Encoder refusals": a port of 0 or an invalid relay host as each field is given (direct, then relay),
    then no route, then a token longer than 32 bytes (`tooLong`, error rendezvousTooLong); else the token."""
    fields = [("direct", direct), ("relay", relay)]
    for kind, field in fields:
        if field is None:
            continue
        if kind == "relay" and not valid_host(field[0]) and not broken("11.1.encodeHost"):
            refuse("relayHost.invalid")
        if field[1] == 0 and not broken("11.1.encodeZeroPort"):
            refuse("zeroPort")
    if direct is None and relay is None and not broken("11.1.encodeNoRoute"):
        refuse("noRoute")
    if relay is not None and not valid_host(relay[0]):  # only with 11.1.encodeHost broken: pack what can be packed
        relay = ("".join(c for c in relay[0].lower() if c in ALPHABET) or "a", relay[1])
    token = encode_token(direct, relay)
    if len(token) > 32 and not broken("11.1.encodeTooLong"):
        raise TokenError("tooLong", "unsupportedRendezvous" if broken("11.1.encodeTooLongError") else "rendezvousTooLong")
    return token


def decode_token(token):
    """(direct, relay) as in `encode_token`, or TokenError with the rule of the first failing check."""
    if not token:
        if not broken("11.1.empty"):
            refuse("empty")
        token = b"\x00"
    flags = token[0]
    checks = [
        (lambda: flags & ~(DIRECT | ADDRESS | RELAY) and not broken("11.1.flagMask"), "unknownFlags"),
        (lambda: flags & ADDRESS and not flags & DIRECT and not broken("11.1.addressWithoutDirect"), "addressWithoutDirect"),
        (lambda: not flags & (DIRECT | RELAY) and not broken("11.1.noRoute"), "noRoute"),
    ]
    if broken("11.1.order"):
        checks.reverse()
    for failing, rule in checks:
        if failing():
            refuse(rule)
    position = [1]

    def take(count):
        if len(token) - position[0] < count:
            if not broken("11.1.truncated"):
                refuse("truncated")
            part = token[position[0]:] + bytes(count - (len(token) - position[0]))
            position[0] = len(token)
            return part
        part = token[position[0]:position[0] + count]
        position[0] += count
        return part

    zero_ports = []

    def port():
        value = port_value(take(2))
        if value == 0 and not broken("11.1.zeroPort"):
            if broken("11.1.zeroPortOrder"):
                zero_ports.append(value)
            else:
                refuse("zeroPort")
        return value

    if broken("11.1.trailingOrder") and not flags & RELAY:
        expected = 1 + (2 + (4 if flags & ADDRESS else 0) if flags & DIRECT else 0)
        if len(token) > expected:
            refuse("trailingBytes")

    direct = relay = None

    def read_direct():
        nonlocal direct
        if flags & DIRECT:
            address = take(4) if flags & ADDRESS else (bytes(4) if broken("11.1.loopbackDefault") else LOOPBACK)
            direct = (address, port())

    def read_relay():
        nonlocal relay
        if flags & RELAY:
            relay_port = port()
            if zero_ports:
                refuse("zeroPort")
            try:
                host = unpack_host(token[position[0]:])
            except TokenError:
                if not broken("11.1.relayHost"):
                    raise
                host = "?"
            relay = (host, relay_port)
            position[0] = len(token)

    if broken("11.1.fieldOrder"):
        read_relay()
        read_direct()
    else:
        read_direct()
        read_relay()
    if zero_ports:
        refuse("zeroPort")
    if position[0] != len(token) and not broken("11.1.trailing"):
        refuse("trailingBytes")
    return direct, relay


# 11.3 keys

def transport_keys(qr_binary, commitment):
    th0 = keyschedule.th0(qr_binary)
    prk = hkdf_extract(commitment, th0) if broken("11.3.salt") else hkdf_extract(th0, commitment)
    hint_label, admission_label = b"AH4 session hint", b"AH4 admission"
    if broken("11.3.labels"):
        hint_label, admission_label = admission_label, hint_label
    return {"th0": th0, "transportPRK": prk,
            "admissionKey": hkdf_expand(prk, admission_label, 16 if broken("11.3.admissionKeyLength") else 32),
            "sessionHint": hkdf_expand(prk, hint_label, 16 if broken("11.3.lengths") else 8),
            "relayToken": hkdf_expand(prk, b"AH4 relay" if broken("11.3.relayTokenLabel") else b"AH4 relay token", 32),
            "senderSide": hkdf_expand(prk, b"AH4 relay sender side", 16 if broken("11.3.senderSideLength") else 8)}


# 11.4 admission

# A1 (a fresh nonce per connection), A7 (the 5 s deadline) and A8 (a new connection after 250 ms) need
# connections and a clock, which no vector has: their switches are argued unobservable in mutations.py.


def challenge(keys, nonce):
    magic = b"AH4B" if broken("11.4.challengeMagic") else b"AH4A"
    if broken("11.4.challengeOrder"):
        return magic + nonce + keys["sessionHint"]
    return magic + keys["sessionHint"] + nonce


def tag(keys, nonce):
    message = (b"" if broken("11.4.tagMessage") else b"AH4 admission") + keys["sessionHint"] + nonce
    full = hmac_sha256(keys["admissionKey"], message)
    return full if broken("11.4.tagLength") else full[:16]


def response(keys, nonce):
    return (b"AH4A" if broken("11.4.magic") else b"AH4B") + tag(keys, nonce)


def sender_reads(keys, nonce, received):
    """A6 on a stream: the sender reads the first 20 bytes the receiver sent and no more; it admits the
    connection when they are the response. Returns (admitted, the bytes left for framing, 11.5)."""
    first, rest = received[:20], received[20:]
    if broken("11.4.senderWhole"):  # everything that arrived is taken as the response
        first, rest = received, b""
    if len(first) < 20 and not broken("11.4.senderShort"):
        return False, None
    admitted = sender_accepts(keys, nonce, first)
    return admitted, (rest if admitted else None)


def sender_accepts(keys, nonce, data):
    """A6: the 20 bytes the sender read are the response, magic and tag, the tag compared in constant time."""
    expected = response(keys, nonce)
    if broken("11.4.senderShort"):
        expected = expected[:len(data)]
    if broken("11.4.senderMagic"):
        data, expected = data[4:], expected[4:]
    if broken("11.4.senderTagPrefix"):
        data, expected = data[:12], expected[:12]
    return len(data) == len(expected) and equal_constant_time(data, expected)


def receiver_reads(keys, data):
    """A2-A5: `answer`, `renewedCode` (another session hint: the scanned code expired) or `notAChallenge`."""
    def magic():
        return data[:4] == b"AH4A" or broken("11.4.magicCheck")

    def own_hint():
        return data[4:12] == keys["sessionHint"] or broken("11.4.hintCheck")

    if len(data) != (32 if broken("11.4.receiverLength") else 28):
        return "notAChallenge", None
    if broken("11.4.hintFirst") and not own_hint():
        return "renewedCode", None
    if not magic():
        return "notAChallenge", None
    if not own_hint():
        return "renewedCode", None
    return "answer", response(keys, data[4:] if broken("11.4.answerNonce") else data[12:])


# The checks of transport.json

def address_text(address):
    return ".".join(str(b) for b in address)


def direct_json(direct):
    return None if direct is None else {"address": address_text(direct[0]), "port": direct[1]}


def relay_json(relay):
    return None if relay is None else {"host": relay[0], "port": relay[1], "packedHost": pack_host(relay[0]).hex()}


def parse_address(text):
    return bytes(int(part) for part in text.split("."))


def relay_address(host):
    """11.7: a relay host that is a dotted IPv4 address (four labels of 1...3 decimal digits, 0...255, no leading
    zero) is used as that address (its dotted text); any other host is a name (None)."""
    labels = host.split(".")
    if len(labels) != 4 or not all(label.isdigit() and 1 <= len(label) <= 3 for label in labels):
        return None
    if any(len(label) > 1 and label[0] == "0" for label in labels) and not broken("11.7.literalLeadingZero"):
        return None
    if any(int(label) > 255 for label in labels):
        if not broken("11.7.literalRange"):
            return None
        return ".".join(str(int(label) % 256) for label in labels)
    return ".".join(str(int(label)) for label in labels)


def check_transport(vectors):
    for entry in vectors["validTokens"]:
        name = "token " + entry["name"]
        token = h(entry["token"])
        outcome = outcome_of(lambda: decode_token(token))
        CHECKS.equal(outcome, "ok", name + " decodes")
        if outcome == "ok":
            direct, relay = decode_token(token)
            CHECKS.equal(direct_json(direct), entry["direct"], name + " direct")
            CHECKS.equal(relay_json(relay), entry["relay"], name + " relay")
        direct = None if entry["direct"] is None else (parse_address(entry["direct"]["address"]), entry["direct"]["port"])
        relay = None if entry["relay"] is None else (entry["relay"]["host"], entry["relay"]["port"])
        encoded = encode_token(direct, relay)
        CHECKS.equal(encoded.hex(), entry["encoded"], name + " encodes")
        CHECKS.true(len(encoded) <= 32, name + " fits 32 bytes")
    for entry in vectors["invalidTokens"]:
        CHECKS.equal(outcome_of(lambda: decode_token(h(entry["token"]))), entry["rule"], "invalid token " + entry["name"])
    for entry in vectors["relayHosts"]:
        name = "relay host " + entry["name"]
        CHECKS.true(valid_host(entry["host"]), name + " is valid")
        CHECKS.equal(relay_address(entry["host"]), entry["address"], name + " address")
        packed = pack_host(entry["host"])
        CHECKS.equal(packed.hex(), entry["packed"], name + " packs")
        CHECKS.equal([int.from_bytes(packed[i:i + 2], "big") for i in range(0, len(packed), 2)], entry["groups"], name + " groups")
        CHECKS.equal(outcome_of(lambda: unpack_host(h(entry["packed"]))), "ok", name + " unpacks")
        if outcome_of(lambda: unpack_host(h(entry["packed"]))) == "ok":
            CHECKS.equal(unpack_host(h(entry["packed"])), entry["host"], name + " round trip")
    for entry in vectors["invalidRelayHosts"]:
        CHECKS.equal(entry["host"].encode("utf-8").hex(), entry["utf8"], "invalid relay host utf8 " + entry["name"])
        CHECKS.equal("ok" if valid_host(entry["host"]) else "relayHost.invalid", entry["rule"], "invalid relay host " + entry["name"])
    for entry in vectors["encoderRefusals"]:
        name = "encoder refusal " + entry["name"]
        direct = None if entry["direct"] is None else (parse_address(entry["direct"]["address"]), entry["direct"]["port"])
        relay = None if entry["relay"] is None else (entry["relay"]["host"], entry["relay"]["port"])
        try:
            encode_fields(direct, relay)
            rule, error = "ok", "ok"
        except TokenError as refusal:
            rule, error = refusal.identifier, refusal.error
        CHECKS.equal((rule, error), (entry["rule"], entry["error"]), name)
    keys_by_name = {}
    for entry in vectors["transportKeys"]:
        name = "transport keys " + entry["name"]
        binary = h(entry["qrBinary"])
        # The commitment is the QR's field at bytes 6...37 (2.2).
        CHECKS.equal(binary[6:38].hex(), entry["commitment"], name + " commitment from the QR")
        keys = transport_keys(binary, binary[6:38])
        for field in ("th0", "transportPRK", "admissionKey", "sessionHint", "relayToken", "senderSide"):
            CHECKS.equal(keys[field].hex(), entry[field], f"{name} {field}")
        keys_by_name[entry["name"]] = keys
    for entry in vectors["admission"]:
        name = "admission " + entry["name"]
        keys, nonce = keys_by_name[entry["keys"]], h(entry["challengeNonce"])
        CHECKS.equal(challenge(keys, nonce).hex(), entry["challenge"], name + " challenge")
        CHECKS.equal(response(keys, nonce).hex(), entry["response"], name + " response")
        CHECKS.equal(receiver_reads(keys, h(entry["challenge"])), ("answer", h(entry["response"])), name + " receiver answers")
        CHECKS.true(sender_accepts(keys, nonce, h(entry["response"])), name + " sender accepts")
    for entry in vectors["admissionChecks"]:
        name = "admission check " + entry["name"]
        keys = keys_by_name[entry["keys"]]
        if entry["side"] == "sender":
            admitted, rest = sender_reads(keys, h(entry["challengeNonce"]), h(entry["received"]))
            CHECKS.equal(admitted, entry["accepted"], name)
            CHECKS.equal(None if rest is None else rest.hex(), entry.get("framing"), name + " framing")
        else:
            result, answer = receiver_reads(keys, h(entry["challenge"]))
            CHECKS.equal(result, entry["result"], name)
            CHECKS.equal(None if answer is None else answer.hex(), entry.get("response"), name + " response")
    check_relay(vectors)


# 11.7 relay handshake

def relay_line(token, side):
    """`"please relay " | hex(relayToken) | " for side " | hex(side) | "\n"`, lowercase hex."""
    first, second = (side, token) if broken("11.7.line") else (token, side)
    text = "please relay %s for side %s" % (first.hex(), second.hex())
    if broken("11.7.hexCase"):
        text = "please relay %s for side %s" % (first.hex().upper(), second.hex().upper())
    return text if broken("11.7.newline") else text + "\n"


def check_relay(vectors):
    sides, tokens = {}, {}
    for entry in vectors["relayQRs"]:
        name = "relay QR " + entry["name"]
        binary, fields = qr.decode_text(entry["text"])
        CHECKS.equal(binary.hex(), entry["qrBinary"], name + " binary")
        if qr.encode_text(binary) != entry["text"]:
            CHECKS.true(False, name + " text is canonical")
        direct, relay = decode_token(fields["rendezvous"])
        CHECKS.equal(direct_json(direct), entry["direct"], name + " direct")
        CHECKS.equal(relay_json(relay), entry["relay"], name + " relay")
        CHECKS.true(relay is not None, name + " names a relay")
        keys = transport_keys(binary, binary[6:38])
        CHECKS.equal(keys["relayToken"].hex(), entry["relayToken"], name + " relayToken")
        CHECKS.equal(keys["senderSide"].hex(), entry["senderSide"], name + " senderSide")
        CHECKS.equal(relay_line(keys["relayToken"], keys["senderSide"]), entry["senderLine"], name + " sender line")
        sides[entry["name"]], tokens[entry["name"]] = keys["senderSide"], keys["relayToken"]
    for entry in vectors["relayHandshakes"]:
        name = "relay handshake " + entry["name"]
        side = h(entry["side"])
        # Vectors/README.md: the side is the first 8 bytes of the seed's SplitMix64 stream (drawn again if equal to
        # the sender's side, which no entry needs).
        CHECKS.equal(SplitMix64(entry["seed"]).fill(8).hex(), entry["side"], name + " side from its seed")
        CHECKS.true(len(side) == 8 and side != sides[entry["qr"]], name + " side is 8 bytes, not the sender's")
        CHECKS.equal(relay_line(tokens[entry["qr"]], side), entry["line"], name + " line")
        CHECKS.equal(len(entry["line"]), 104, name + " length")
