"""Spec 4.1-4.4: transcript hashes, key derivation, AEAD nonce and additional data, short code."""

from errors import ProtocolError
from primitives import equal_constant_time, hkdf_expand, hkdf_extract, hmac_sha256, label, sha256, u32
from rules import broken

BOUND = 4294000000
WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
LINKED_TYPES = ("accept", "credential", "receipt")


def commitment(nonce):
    if broken("Q.nonceInQR"):  # the QR carries the nonce itself instead of a commitment to it
        return nonce
    return sha256(nonce) if broken("K.commitment") else sha256(label(b"commitment"), nonce)


def th0(qr_binary):
    return sha256(qr_binary) if broken("K.th0") else sha256(label(b"transcript"), qr_binary)


def handshake_hash(th0_value, receiver_public_key):
    if broken("K.hh"):
        return sha256(receiver_public_key, th0_value)
    return sha256(th0_value, receiver_public_key)


def th1(th0_value, hh, hello_frame):
    return sha256(hh if broken("K.th1") else th0_value, hello_frame)


def absorb(transcript, frame_bytes):
    return sha256(transcript, frame_bytes[24:] if broken("K.thChain") else frame_bytes)


def derive_keys(shared, commitment_value, hh):
    """Spec 4.2."""
    if broken("K.ikm"):
        ikm = shared
    elif broken("K.ikmOrder"):
        ikm = commitment_value + shared
    else:
        ikm = shared + commitment_value
    prk = hkdf_extract(b"" if broken("K.emptySalt") else hh, ikm)
    s2r, r2s = (label(b"r2s"), label(b"s2r")) if broken("K.labels") else (label(b"s2r"), label(b"r2s"))
    hello = label(b"code" if broken("K.helloKeyLabel") else b"hello")
    return {"prk": prk, "helloKey": hkdf_expand(prk, hello, 32), "s2rKey": hkdf_expand(prk, s2r, 32),
            "r2sKey": hkdf_expand(prk, r2s, 32),
            "codeKey": hkdf_expand(prk, label(b"code" if broken("K.codeKeyLabel") else b"code key"), 32)}


def hello_tag(hello_key, hh, th0_value):
    return hmac_sha256(hello_key, th0_value if broken("K.helloTag") else hh)


def code_material(code_key, nonce, th1_value, hh):
    """Spec 4.4: codeMaterial and the codePRK it is expanded from."""
    ikm = nonce + code_key if broken("K.codeIKM") else code_key + nonce
    code_prk = hkdf_extract(hh if broken("K.codeSalt") else th1_value, ikm)
    return code_prk, hkdf_expand(code_prk, label(b"code key" if broken("K.codeMaterialLabel") else b"code"), 64)


def candidates(material):
    order = "little" if broken("K.codeEndian") else "big"
    return [int.from_bytes(material[4 * i:4 * i + 4], order) for i in range(16)]


def code_forms(value):
    digits = str(value).zfill(6)
    separator = " " if broken("K.codeForms") else ", "
    spoken = " ".join(WORDS[int(d)] for d in digits[:3]) + separator + " ".join(WORDS[int(d)] for d in digits[3:])
    grouped = digits[:3] + ("" if broken("K.codeGrouped") else " ") + digits[3:]
    return {"value": value, "digits": str(value) if broken("K.codeDigits") else digits, "grouped": grouped, "spoken": spoken}


def short_code(material):
    """Spec 4.4 steps 1-4: (accepted candidate index, forms) or keyDerivationFailed."""
    accepted = [i for i, c in enumerate(candidates(material)) if (c <= BOUND if broken("K.codeBound") else c < BOUND)]
    if not accepted:
        if broken("K.codeFail"):
            return 0, code_forms(0)
        raise ProtocolError("keyDerivationFailed")
    index = accepted[-1] if broken("K.codeFirst") else accepted[0]
    return index, code_forms(candidates(material)[index] % (999999 if broken("K.codeModulus") else 1000000))


def typed_entry(typed):
    """Spec 4.4 typed entry: the six ASCII digits typed, spaces (U+0020) removed; else malformed.typedCode."""
    entry = typed if broken("4.4.entrySpaces") else typed.replace(" ", "")
    if broken("4.4.entryWhitespace"):
        entry = "".join(typed.split())
    six_digits = len(entry) == 6 and all(ch in "0123456789" for ch in entry)
    if broken("4.4.entryLength"):
        six_digits = 0 < len(entry) and all(ch in "0123456789" for ch in entry)
    if broken("4.4.entryDigits"):
        six_digits = len(entry) == 6
    if not six_digits:
        raise ProtocolError("malformed.typedCode")
    return entry


def typed_matches(digits, typed):
    """Spec 4.4: whether a typed text is an entry that equals the code's digits (compared in constant time)."""
    try:
        entry = typed_entry(typed)
    except ProtocolError:
        return False
    return broken("4.4.entryMatch") or equal_constant_time(entry.encode("utf-8"), digits.encode("utf-8"))


def typed_result(digits, typed):
    """Spec 4.4 as short-code.json's `typed[].result` says it: `match`, `mismatch` (an entry that differs: a try is
    used) or `malformed.typedCode` (no entry: no try is used)."""
    try:
        typed_entry(typed)
    except ProtocolError as error:
        return error.identifier
    return "match" if typed_matches(digits, typed) else "mismatch"


def aead_nonce(sequence):
    return u32(sequence) + bytes(8) if broken("K.nonce") else bytes(8) + u32(sequence)


def additional_data(header, expiry, transcript, type_name, link_id):
    """Spec 4.3: AD = header | expiry | T | L."""
    if broken("K.adHeader"):
        header = header[:22] + (int.from_bytes(header[22:24], "big") - 16).to_bytes(2, "big")
    ad = header + (b"" if broken("K.adExpiry") else u32(expiry)) + transcript
    linked = type_name in LINKED_TYPES and not broken("K.adLinkID")
    if broken("K.adLinkIDAll"):
        linked = True
    if linked:
        ad += link_id if link_id is not None else b""
    return ad
