"""Spec 3.1-3.3: frame layout, types, body length rules and strict decoding."""

from errors import ProtocolError
from primitives import u16, u32
from rules import broken

VERSION = 4
MAX_FRAME = 4096
HEADER = 24
TYPES = {1: "hello", 2: "offer", 3: "accept", 4: "credential", 5: "receipt", 6: "abort", 7: "reveal", 8: "pakeInit",
         9: "pakeReply", 10: "pakeConfirm", 11: "pakeRefused"}
TYPE_VALUES = {name: value for value, name in TYPES.items()}


def header(type_name, transfer_id, sequence, body_length):
    value = TYPE_VALUES[type_name]
    if broken("F.typeSwap") and value in (3, 4):  # accept and credential exchange their values
        value = 7 - value
    if broken("F.headerLayout"):
        return bytes([VERSION, value]) + transfer_id + u16(body_length) + u32(sequence)
    return bytes([VERSION, value]) + transfer_id + u32(sequence) + u16(body_length)


def encode(type_name, transfer_id, sequence, body):
    if broken("F.frameOrder"):
        return body + header(type_name, transfer_id, sequence, len(body))
    return header(type_name, transfer_id, sequence, len(body)) + body


def valid_body_length(type_name, length):
    """Spec 3.2 `valid bodyLength`."""
    if broken("F7"):
        return True
    fixed = {"hello": 64, "accept": 17, "credential": 1040, "receipt": 17, "abort": 17, "reveal": 48,
             "pakeInit": 52, "pakeReply": 80, "pakeConfirm": 32, "pakeRefused": 0}
    if broken("F7pakeInit"):
        fixed["pakeInit"] = 48  # the sid and Ya without the expiry
    if broken("F7pakeReply"):
        fixed["pakeReply"] = 64  # no tag
    if broken("F7pakeConfirm"):
        fixed["pakeConfirm"] = 48  # as if it were sealed
    if broken("F7pakeRefused"):
        fixed["pakeRefused"] = 17  # as if it were an abort
    if broken("F7credential"):
        fixed["credential"] = 1024
    if broken("F7reveal"):
        fixed["reveal"] = 32
    if type_name == "hello" and broken("F7hello") and 63 <= length <= 65:
        return True
    if type_name == "accept" and broken("F7accept") and length == 16:
        return True
    if type_name == "receipt" and broken("F7receipt") and length == 18:
        return True
    if type_name == "abort" and broken("F7abort") and length == 18:
        return True
    if type_name in fixed:
        return length == fixed[type_name]
    block = 128 if broken("F7offer") else 256
    minimum = 0 if broken("F7offerMin") else 256
    return length - 16 >= minimum and (length - 16) % block == 0


def decode(data):
    """Spec 3.3 steps F1-F7, in order; returns the frame's parts."""
    if len(data) > MAX_FRAME and not broken("F1"):
        raise ProtocolError("oversizedFrame")
    if broken("F1bound") and len(data) == MAX_FRAME:
        raise ProtocolError("oversizedFrame")
    if len(data) < HEADER:
        raise ProtocolError("malformed.frameLength" if broken("F2") else "malformed.frameHeader")

    def f3():
        if data[0] != VERSION and not (broken("F3") and data[0] == 3):
            raise ProtocolError("unsupportedVersion")

    def f4():
        if data[1] not in TYPES or (broken("F4reveal") and data[1] == 7) or (broken("F4typed") and data[1] >= 8):
            if not (broken("F4") and data[1] == 12):
                raise ProtocolError("unknownMessageType")

    if broken("F3order"):
        f4()
        f3()
    else:
        f3()
        f4()
    type_name = TYPES.get(data[1], "hello")
    if broken("F.headerLayout"):
        length, sequence = int.from_bytes(data[18:20], "big"), int.from_bytes(data[20:24], "big")
    else:
        sequence, length = int.from_bytes(data[18:22], "big"), int.from_bytes(data[22:24], "big")

    def f7():
        if not valid_body_length(type_name, length):
            raise ProtocolError("malformed.body")

    if broken("F56order"):
        f7()
    if length > len(data) - HEADER:
        raise ProtocolError("malformed.trailingBytes" if broken("F5") else "malformed.frameLength")
    if length < len(data) - HEADER and not broken("F6"):
        raise ProtocolError("malformed.trailingBytes")
    f7()
    return {"type": type_name, "typeValue": data[1], "transferID": data[2:18], "sequence": sequence, "header": data[:HEADER],
            "body": data[HEADER:HEADER + length], "bodyLength": length}
