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
    """Spec 12.7 route: 01, or 02 | u16 relayPort | relayHost (ASCII, 1...253 printable bytes, port not 0)."""
    if route["kind"] == "localNetwork":
        return b"\x00" if broken("12.7.routeCode") else b"\x01"
    host = route["host"].encode("utf-8")
    if route["port"] == 0 or not 1 <= len(host) <= 253 or any(b <= 0x20 or b >= 0x7F for b in host):
        raise ProtocolError("invalidConfiguration")
    return b"\x02" + u16(route["port"]) + host


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
