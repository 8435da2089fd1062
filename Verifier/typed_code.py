"""Spec 12.1-12.5, 12.7 and 12.8: the typed code (check digit, drawing, forms, typed entry),
the CPace inputs of the typed mode (PRS, CI) and the relay token of a nameplate."""

from errors import ProtocolError
from primitives import hkdf_expand, hkdf_extract, u16, u32
from rules import broken
import cpace

# Spec 12.2, row by row: TABLE[i][d].
TABLE = (
    (0, 3, 1, 7, 5, 9, 8, 6, 4, 2),
    (7, 0, 9, 2, 1, 5, 4, 8, 6, 3),
    (4, 2, 0, 6, 8, 7, 1, 3, 5, 9),
    (1, 7, 5, 0, 9, 8, 3, 4, 2, 6),
    (6, 1, 2, 3, 0, 4, 5, 9, 7, 8),
    (3, 6, 7, 4, 2, 0, 9, 5, 8, 1),
    (5, 8, 6, 9, 7, 2, 0, 1, 3, 4),
    (8, 9, 4, 5, 3, 6, 2, 0, 1, 7),
    (9, 4, 3, 8, 6, 1, 7, 2, 0, 5),
    (2, 5, 8, 1, 4, 3, 6, 7, 9, 0),
)

NAMEPLATE_BOUND = 64000
SECRET_BOUND = 4290000000
MAX_DRAWS = 64
WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def interim(digits):
    """Spec 12.2: i_0 = 0, i_k = TABLE[i_(k-1)][d_k]."""
    value = 1 if broken("12.2.start") else 0
    for character in digits:
        value = TABLE[int(character)][value] if broken("12.2.transposed") else TABLE[value][int(character)]
    return value


def check_digit(ten):
    return interim(ten)


def draw_code(draw):
    """Spec 12.3 with `draw(n)` giving the next n bytes of one request. Returns
    (nameplate draws, secret draws, nameplate, secret, check)."""
    nameplate_draws, secret_draws = [], []

    def part(size, bound, modulus, draws):
        for _ in range(MAX_DRAWS - (1 if broken("12.3.maxDraws") else 0)):
            value = int.from_bytes(draw(size), "little" if broken("12.3.endian") else "big")
            draws.append(value)
            if value < bound or broken("12.3.noRejection"):
                return value % modulus
        raise ProtocolError("keyDerivationFailed")

    if broken("12.3.order"):
        secret = part(4, SECRET_BOUND, 10 ** 7, secret_draws)
        nameplate = part(2, NAMEPLATE_BOUND, 1000, nameplate_draws)
    else:
        nameplate = part(2, NAMEPLATE_BOUND - (1 if broken("12.3.nameplateBound") else 0), 1000, nameplate_draws)
        secret = part(4, SECRET_BOUND - (1 if broken("12.3.secretBound") else 0), 10 ** 7, secret_draws)
    nameplate_text, secret_text = (f"{nameplate}", f"{secret}") if broken("12.4.padding") else (f"{nameplate:03d}", f"{secret:07d}")
    check = check_digit(secret_text if broken("12.3.checkDigit") else nameplate_text + secret_text)
    return nameplate_draws, secret_draws, nameplate_text, secret_text, check


def forms(digits):
    """Spec 12.4: grouped 3-4-4 with single spaces; spoken with words, groups apart by ", "."""
    groups = [digits[0:3], digits[3:7], digits[7:11]]
    if broken("12.4.groups"):
        groups = [digits[0:3], digits[3:6], digits[6:11]]
    grouped = " ".join(groups)
    spoken = ("," if broken("12.4.words") else ", ").join(" ".join(WORDS[int(c)] for c in group) for group in groups)
    return grouped, spoken


def read_entry(typed):
    """Spec 12.5, steps 1-5 in order; returns the 11 digits."""
    removed = (" ", "-") if not broken("12.5.keepHyphens") else (" ",)
    text = "".join(c for c in typed if c not in removed)
    if broken("12.5.allWhitespace"):
        text = "".join(c for c in text if not c.isspace())
    if len(text) == 6 and broken("12.5.order"):
        raise ProtocolError("typedCodeIsShortCode")
    if not all(c in "0123456789" for c in text) and not broken("12.5.nonDigits"):
        raise ProtocolError("malformed.typedCode")
    if len(text) == 6 and not broken("12.5.shortCode"):
        raise ProtocolError("typedCodeIsShortCode")
    if len(text) not in ((10, 11, 12) if broken("12.5.length") else (11,)):
        raise ProtocolError("malformed.typedCode")
    if not all(c in "0123456789" for c in text):
        raise ProtocolError("malformed.typedCode")
    if interim(text) != 0 and not broken("12.5.noCheck"):
        raise ProtocolError("typedCodeCheckFailed")
    return text


def password(digits):
    """Spec 12.7: PRS is the 7 ASCII digits of the secret."""
    return (digits[0:10] if broken("12.7.prs") else digits[3:10]).encode("ascii")


def route_bytes(route):
    """Spec 12.7 route: the kind only, 01 for the local network, 02 for a relay."""
    if route == "localNetwork":
        return b"\x00" if broken("12.7.routeCode") else b"\x01"
    if route == "relay":
        return b"\x01" if broken("12.7.routeKind") else b"\x02"
    raise ValueError("route " + repr(route))


def channel_identifier(nameplate, expiry, route, transfer_id):
    """Spec 12.7 CI = lv_cat("AH4 typed channel", 4, 1, nameplate, expiry, route, transferID)."""
    fields = [b"AH4 typed channel", bytes([3 if broken("12.7.ciVersion") else 4]), bytes([1]), nameplate.encode("ascii"),
              u32(expiry), route_bytes(route), transfer_id]
    if broken("12.7.ciOrder"):
        fields[3], fields[4] = fields[4], fields[3]
    if broken("12.7.ciPlain"):
        return b"".join(fields)
    return cpace.lv_cat(*fields)


def relay_keys(nameplate):
    """Spec 12.8: (relayPRK, relayToken, senderSide) of a nameplate's 3 ASCII digits."""
    ikm = (b"\x04" if broken("12.8.ikmByte") else b"4") + nameplate.encode("ascii")
    prk = hkdf_extract(ikm, b"AH4 typed relay") if broken("12.8.salt") else hkdf_extract(b"AH4 typed relay", ikm)
    token = hkdf_expand(prk, b"AH4 typed relay" if broken("12.8.tokenLabel") else b"AH4 typed relay token", 32)
    side = hkdf_expand(prk, b"AH4 typed relay sender side", 16 if broken("12.8.sideLength") else 8)
    return ikm, prk, token, side


def relay_line(token, side):
    """Spec 11.7's handshake line."""
    return "please relay " + token.hex() + " for side " + side.hex() + "\n"


# The typed way's frames and keys (Spec 3.8, 4.5).

def _sha256(*parts):
    import hashlib
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part)
    return digest.digest()


def _hmac(key, message):
    import hashlib
    import hmac as hmac_module
    return hmac_module.new(key, message, hashlib.sha256).digest()


def pake_init(transfer_id, expiry, sid, ya):
    """Spec 3.8: pakeInit = expiry(u32) | sid[16] | Ya[32], s2r sequence 0."""
    import frames
    body = (sid + ya) if broken("F7pakeInit") else (u32(expiry) + sid + ya)
    return frames.encode("pakeInit", transfer_id, 0, body)


def pake_reply(transfer_id, sid, yb, tag_r):
    """Spec 3.8: pakeReply = sid[16] | Yb[32] | tagR[32], r2s sequence 0."""
    import frames
    body = (yb + sid + tag_r) if broken("3.8.replyOrder") else (sid + yb + tag_r)
    return frames.encode("pakeReply", transfer_id, 0, body)


def pake_confirm(transfer_id, tag_s):
    """Spec 3.8: pakeConfirm = tagS[32], s2r sequence 1."""
    import frames
    return frames.encode("pakeConfirm", transfer_id, 2 if broken("3.8.confirmSequence") else 1, tag_s)


def pake_refused(transfer_id):
    """Spec 3.8: pakeRefused, empty, s2r sequence 1."""
    import frames
    return frames.encode("pakeRefused", transfer_id, 0 if broken("3.8.refusedSequence") else 1, b"")


def typed_keys(isk, hht):
    """Spec 4.5: PRK = HKDF-Extract(HHt, ISK), then the four keys."""
    prk = hkdf_extract(isk, hht) if broken("4.5.prkSalt") else hkdf_extract(hht, isk)
    labels = {"receiverConfirmKey": b"AH4 typed receiver confirm", "senderConfirmKey": b"AH4 typed sender confirm",
              "s2rKey": b"AH4 typed s2r", "r2sKey": b"AH4 typed r2s"}
    if broken("4.5.confirmLabels"):
        labels["receiverConfirmKey"], labels["senderConfirmKey"] = labels["senderConfirmKey"], labels["receiverConfirmKey"]
    if broken("4.5.directionLabels"):
        labels["s2rKey"], labels["r2sKey"] = b"AH4 s2r", b"AH4 r2s"
    return prk, {name: hkdf_expand(prk, label, 32) for name, label in labels.items()}


def typed_transcript_start(pake_init_frame):
    """Spec 4.5: TH0t = SHA-256("AH4 typed transcript" | pakeInit frame)."""
    label = b"AH4 transcript" if broken("4.5.th0tLabel") else b"AH4 typed transcript"
    return _sha256(label, pake_init_frame)


def typed_handshake_hash(th0t, yb):
    """Spec 4.5: HHt = SHA-256(TH0t | Yb)."""
    return _sha256(yb) if broken("4.5.hht") else _sha256(th0t, yb)


def receiver_tag(receiver_confirm_key, hht, th0t):
    """Spec 4.5: tagR = HMAC(receiverConfirmKey, HHt)."""
    return _hmac(receiver_confirm_key, th0t if broken("4.5.tagRInput") else hht)


def sender_tag(sender_confirm_key, th1, hht):
    """Spec 4.5: tagS = HMAC(senderConfirmKey, TH1)."""
    return _hmac(sender_confirm_key, hht if broken("4.5.tagSInput") else th1)


def chain(previous, frame):
    """Spec 4.5: TH1 = SHA-256(TH0t | pakeReply), TH2 = SHA-256(TH1 | pakeConfirm)."""
    return _sha256(frame) if broken("4.5.chain") else _sha256(previous, frame)
