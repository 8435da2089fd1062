"""Spec 2.1-2.4: the QR session payload, its binary and decimal text forms, strict decoding."""

from errors import ProtocolError
from primitives import label, sha256, u32
from rules import broken

VERSION = 4
INTENT_SEND_ACCOUNT = 1
MAX_TEXT_BYTES = 254
MAX_BINARY = 103
MAX_RENDEZVOUS = 32
MAGIC = b"AH:"


def digits_for(n):
    """D(n) of Spec 2.3: the fewest decimal digits that hold 256^n - 1."""
    table = [0, 3, 5, 8, 10, 13, 15, 17]
    if broken("Q.digitsTable"):
        table = [0, 3, 5, 8, 10, 13, 14, 17]
    return table[n]


def group_size():
    return 6 if broken("Q.groupSize") else 7


def encode_binary(fields):
    """Spec 2.2. `fields`: version, intent, expiry, commitment, senderPublicKey, rendezvous."""
    rendezvous = fields["rendezvous"]
    keys = fields["commitment"] + fields["senderPublicKey"]
    if broken("Q.binaryOrder"):
        keys = fields["senderPublicKey"] + fields["commitment"]
    length = b"" if broken("Q.rendezvousLength") else bytes([len(rendezvous)])
    if broken("Q.rendezvous"):
        rendezvous = rendezvous[::-1]
    return bytes([fields["version"], fields["intent"]]) + u32(fields["expiry"]) + keys + length + rendezvous


def transfer_id(binary):
    """Spec 2.1: the first 16 bytes of SHA-256("AH4 transfer ID" | qrBinary)."""
    digest = sha256(binary) if broken("Q.transferIDLabel") else sha256(label(b"transfer ID"), binary)
    return digest[-16:] if broken("Q.transferIDLength") else digest[:16]


def decimal_groups(data):
    """Spec 2.3 decimalGroups."""
    size = group_size()
    groups = []
    for start in range(0, len(data), size):
        group = data[start:start + size]
        value = int.from_bytes(group, "little" if broken("Q.groupEndian") else "big")
        groups.append(str(value).zfill(digits_for(len(group))))
    return "".join(groups[::-1] if broken("Q.groupOrder") else groups)


def encode_text(binary):
    return ("ah:" if broken("Q.prefix") else "AH:") + decimal_groups(binary)


def decode_text(text):
    """Spec 2.4 steps 1-6, in order; returns the binary form and its decoded fields."""
    data = text.encode("utf-8")
    length = len(text) if broken("2.4.1bytes") else len(data)

    def step1():
        if length > MAX_TEXT_BYTES and not broken("2.4.1"):
            raise ProtocolError("malformed.length")

    def step2():
        prefix = data[:3].upper() if broken("2.4.2case") else data[:3]
        if prefix != MAGIC and not broken("2.4.2"):
            raise ProtocolError("badMagic")

    if broken("2.4.1order"):
        step2()
        step1()
    else:
        step1()
        step2()
    digits = data[3:]
    full_digits = digits_for(group_size())
    partial_counts = {digits_for(n): n for n in range(group_size())}

    def step3():
        if any(c < 0x30 or c > 0x39 for c in digits) and not broken("2.4.3"):
            raise ProtocolError("malformed.digits")

    def step4():
        if len(digits) % full_digits not in partial_counts and not broken("2.4.4"):
            raise ProtocolError("malformed.digits")

    if broken("2.4.3order"):
        step4()
        step3()
    else:
        step3()
        step4()
    sizes = [group_size()] * (len(digits) // full_digits)
    rest = len(digits) % full_digits
    if rest:
        tail = partial_counts.get(rest)
        if tail is None:  # only reachable with T.4 broken
            tail = next(n for n in range(1, group_size() + 1) if digits_for(n) >= rest)
        sizes.append(tail)
    binary, offset = b"", 0
    for size in sizes:
        width = full_digits if size == group_size() else rest
        chunk = digits[offset:offset + width]
        offset += width
        try:
            value = int(chunk)
        except ValueError:  # only reachable with T.3 broken: a non-digit
            raise ProtocolError("malformed.digits")
        if value >= 256 ** size:
            if broken("2.4.5order"):
                decode_binary(binary)
            if not broken("2.4.5"):
                raise ProtocolError("nonCanonicalEncoding")
            value %= 256 ** size
        binary += value.to_bytes(size, "big")
    return binary, decode_binary(binary)


def decode_binary(binary):
    """Spec 2.4 steps B1-B12, in order; returns the fields."""
    if len(binary) > MAX_BINARY and not broken("B1") and not broken("B1order"):
        raise ProtocolError("malformed.length")
    position = 0

    def take(count, field):
        nonlocal position
        if position + count > len(binary):
            raise ProtocolError("malformed." + field)
        chunk = binary[position:position + count]
        position += count
        return chunk

    if not binary:
        raise ProtocolError("malformed.length" if broken("B2") else "malformed.version")
    version = binary[0]
    if broken("B3order"):
        if len(binary) < 2:
            raise ProtocolError("malformed.intent")
        if binary[1] != INTENT_SEND_ACCOUNT and not broken("B5"):
            raise ProtocolError("wrongIntent")
    if version != VERSION and not (broken("B3") and version == 2):
        raise ProtocolError("unsupportedVersion")
    position = 1
    if len(binary) < 2:
        raise ProtocolError("malformed.version" if broken("B4") else "malformed.intent")
    intent = binary[1]
    position = 2
    if intent != INTENT_SEND_ACCOUNT and not broken("B5"):
        raise ProtocolError("wrongIntent")
    expiry = int.from_bytes(take(4, "length" if broken("B6") else "expiry"), "big")
    first = take(32, "publicKey" if broken("B7") else "commitment")
    second = take(32, "commitment" if broken("B8") else "publicKey")
    if broken("Q.binaryOrder"):
        first, second = second, first
    length = take(1, "publicKey" if broken("B9") else "rendezvous")[0]
    if length > MAX_RENDEZVOUS and not broken("B10") and not broken("B10order"):
        raise ProtocolError("rendezvousTooLong")
    rendezvous = take(length, "trailingBytes" if broken("B11") else "rendezvous")
    if broken("B10order") and length > MAX_RENDEZVOUS:
        raise ProtocolError("rendezvousTooLong")
    if position != len(binary) and not broken("B12"):
        if broken("B1order") and len(binary) > MAX_BINARY:
            raise ProtocolError("malformed.length")
        raise ProtocolError("malformed.trailingBytes")
    if broken("B1order") and len(binary) > MAX_BINARY:
        raise ProtocolError("malformed.length")
    return {"version": version, "intent": intent, "expiry": expiry, "commitment": first, "senderPublicKey": second,
            "rendezvous": rendezvous}
