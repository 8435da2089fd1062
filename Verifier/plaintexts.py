"""Spec 3.4-3.6: offer, credential, receipt and abort plaintexts."""

from account_rules import check_field
from errors import ProtocolError
from primitives import u16
from rules import broken

STRING_FIELDS = ["displayName", "emailAddress", "username", "imapHost"]
SECURITY = {"tls": 1, "startTLS": 2}
SECURITY_NAMES = {value: name for name, value in SECURITY.items()}
MAX_PASSWORD = 1022
CREDENTIAL_SIZE = 1024
RECEIPTS = {1: "imported", 2: "validationFailed", 3: "declined", 4: "storeFailed", 5: "cancelled"}
RECEIPT_VALUES = {name: value for value, name in RECEIPTS.items()}
GATES = {1: "asks", 2: "skipped"}  # senderGate (3.4) and receiverGate (3.6)
ABORTS = {1: "cancelled.peer", 2: "rejected.peer", 3: "contested", 4: "storeUnavailable.peer", 5: "notAuthenticated.peer",
          6: "expired"}


def padded_size(record_length):
    """Spec 3.4: the smallest multiple of 256 that holds 2 + recordLength bytes."""
    block = 128 if broken("O.padBlock") else 256
    content = record_length if broken("O.padBoundary") else 2 + record_length
    return max(block, (content + block - 1) // block * block)


def validate_account(account):
    """Spec 3.4 step 3 / 3.7: the strings in order, then the port."""
    fields = list(STRING_FIELDS)
    if broken("O.3fieldOrder"):
        fields = ["imapHost"] + fields[:3]
    if broken("O.3usernameFirst"):
        fields[1], fields[2] = fields[2], fields[1]
    for field in fields:
        check_field(field, account[field])
    if account["imapPort"] == 0 and not broken("O.3port"):
        raise ProtocolError("malformed.imapPort")


def encode_offer(account, sender_gate=1):
    strings = b""
    for field in STRING_FIELDS:
        raw = account[field].encode("utf-8")
        strings += u16(len(account[field]) if broken("O.strLength") else len(raw)) + raw
    gate = 1 if broken("O.senderGateEncode") else sender_gate
    tail = u16(account["imapPort"]) + bytes([SECURITY[account["imapSecurity"]]]) + bytes([gate])
    record = (strings + account["linkID"] if broken("O.linkIDOrder") else account["linkID"] + strings) + tail
    out = u16(len(record)) + record
    return out + bytes(max(0, padded_size(len(record)) - len(out)))


def decode_offer(plaintext):
    """Spec 3.4 decoding steps 1-3; returns (account, senderGate)."""
    if len(plaintext) < 2:
        raise ProtocolError("malformed.accountLinkID" if broken("O.1min") else "malformed.padding")
    length = int.from_bytes(plaintext[:2], "big")
    if len(plaintext) != padded_size(length) and not broken("O.1size"):
        raise ProtocolError("malformed.padding")
    if any(plaintext[2 + length:]) and not broken("O.1zero"):
        raise ProtocolError("malformed.padding")
    record, position = plaintext[2:2 + length], 0

    def take(count, field):
        nonlocal position
        if position + count > len(record):
            raise ProtocolError("malformed." + field)
        chunk = record[position:position + count]
        position += count
        return chunk

    account = {}

    def take_link_id():
        account["linkID"] = take(16, "displayName" if broken("O.2linkID") else "accountLinkID")

    if not broken("O.linkIDOrder"):
        take_link_id()
    fields = list(STRING_FIELDS)
    if broken("O.2fieldOrder"):
        fields[0], fields[1] = fields[1], fields[0]
    for field in fields:
        raw = take(int.from_bytes(take(2, field), "big"), field)
        try:
            if broken("O.2utf8"):
                account[field] = raw.decode("utf-8", errors="replace")
            elif broken("O.2utf8surrogates"):
                account[field] = raw.decode("utf-8", errors="surrogatepass")
            else:
                account[field] = raw.decode("utf-8", errors="strict")
        except UnicodeDecodeError:
            raise ProtocolError("malformed." + field)
        if broken("O.3stepOrder"):
            check_field(field, account[field])
    if broken("O.linkIDOrder"):
        take_link_id()
    account["imapPort"] = int.from_bytes(take(2, "imapSecurity" if broken("O.2port") else "imapPort"), "big")
    if broken("O.3portOrder") and account["imapPort"] == 0:
        raise ProtocolError("malformed.imapPort")
    security = take(1, "imapSecurity")[0]
    if broken("O.2senderGateOrder"):
        gate = take(1, "senderGate")[0]
    allowed = {1, 2} | ({0} if broken("O.2security") else set()) | ({3} if broken("O.2securityPlain") else set())
    if broken("O.2senderGateOrder") and gate not in GATES:
        raise ProtocolError("malformed.senderGate")
    if security not in allowed:
        raise ProtocolError("malformed.imapSecurity")
    account["imapSecurity"] = "startTLS" if security == 2 else "tls"
    if not broken("O.2senderGateOrder"):
        if broken("O.2senderGateMissing") and position == len(record):
            gate = 1
        else:
            gate = take(1, "imapSecurity" if broken("O.2senderGateField") else "senderGate")[0]
        if broken("O.2trailingOrder") and position != len(record):
            raise ProtocolError("malformed.trailingBytes")
        if gate not in GATES and not (broken("O.2senderGate") and gate in (0, 3)):
            raise ProtocolError("malformed.senderGate")
    if position != len(record) and not broken("O.2trailing"):
        raise ProtocolError("malformed.trailingBytes")
    validate_account(account)
    return account, gate


def encode_credential(password):
    """Spec 3.5, the sender's side: refuses an empty or too long password."""
    low = 0 if broken("C.encodeEmpty") else 1
    high = MAX_PASSWORD + 1 if broken("C.encodeMax") else MAX_PASSWORD
    if not low <= len(password) <= high:
        raise ProtocolError("malformed.credential")
    out = u16(len(password)) + password
    return out + bytes(max(0, CREDENTIAL_SIZE - len(out)))


def decode_credential(plaintext):
    """Spec 3.5, the receiver's side."""
    if len(plaintext) != CREDENTIAL_SIZE and not broken("C.size"):
        raise ProtocolError("malformed.credential")
    length = int.from_bytes(plaintext[:2], "big")
    low = 0 if broken("C.lengthZero") else 1
    high = MAX_PASSWORD + 1 if broken("C.lengthMax") else MAX_PASSWORD
    if not low <= length <= high:
        raise ProtocolError("malformed.credential")
    if any(plaintext[2 + length:]) and not broken("C.padding"):
        raise ProtocolError("malformed.credential" if broken("C.paddingError") else "malformed.padding")
    return plaintext[2:2 + length]


def receiver_gate(plaintext):
    """Spec 3.6: the accept's receiverGate (1 or 2), or None for an undefined value."""
    value = plaintext[0] if len(plaintext) == 1 else None
    if broken("V.receiverGate") and value in (0, 3):
        value = 1
    if value in GATES and broken(f"3.6[accept {value}]"):
        value = None
    return value if value in GATES else None


def receipt_status(plaintext):
    """Spec 3.6: the receipt's status name, or None for an undefined value."""
    value = plaintext[0] if len(plaintext) == 1 else None
    if broken("V.receipt") and value == 6:
        value = 3
    if value in RECEIPTS and broken(f"3.6[receipt {value}]"):
        value = None
    if broken("V.receiptMap") and value in (2, 3):
        value = 5 - value
    return RECEIPTS.get(value)


def receipt_plaintext(status):
    value = RECEIPT_VALUES[status]
    if broken("6.2.importStatus") and value in (2, 3):
        value = 5 - value
    return bytes([value])


def abort_outcome(plaintext):
    """Spec 3.6 and 6.1/6.2: the outcome an authenticated abort gives."""
    value = plaintext[0] if len(plaintext) == 1 else None
    if broken("V.abort") and value == 7:
        value = 3
    if value in ABORTS and broken(f"3.6[abort {value}]"):
        value = None
    if broken("V.abortZero") and value == 0:
        value = 1
    if broken("V.abortMap") and value in (1, 2):
        value = 3 - value
    return ABORTS.get(value, "failed.malformed.abortReason")
