"""Spec 12.6: CPace, suite CPACE-RISTR255-SHA512, written from the Spec's definitions.

The group operations of ristretto255 (RFC 9496) come from the system's libsodium through ctypes
(element derivation, scalar multiplication, decoding check, scalar reduction); nothing else is
taken from it. SHA-512 is the standard library's; LEB128, prepend_len, lv_cat, the generator
string, o_cat, the transcripts, the ISK and sid_output are written here.
"""

import ctypes
import ctypes.util
import hashlib

from errors import ProtocolError
from rules import broken

DSI_TEXT = b"CPaceRistretto255"
HASH_BLOCK = 128  # SHA-512's s_in_bytes
ORDER = 2 ** 252 + 27742317777372353535851937790883648493
MAX_SCALAR_DRAWS = 64

_sodium = None


def sodium():
    """libsodium, loaded once (Debian's libsodium23, which libsodium-dev of Scripts/setup.sh brings)."""
    global _sodium
    if _sodium is None:
        path = ctypes.util.find_library("sodium")
        if path is None:
            raise RuntimeError("libsodium not found: install libsodium23 (Scripts/setup.sh installs libsodium-dev)")
        _sodium = ctypes.CDLL(path)
        if _sodium.sodium_init() < 0:
            raise RuntimeError("sodium_init failed")
    return _sodium


def dsi():
    return b"CPaceRistretto" if broken("12.6.dsi") else DSI_TEXT


DSI = DSI_TEXT  # G.DSI of the suite (what the draft's vectors name)


def sha512(data):
    return hashlib.sha512(data).digest()


def leb128(n):
    """Groups of 7 bits, least significant first; bit 7 set on every byte but the last."""
    out = bytearray()
    while True:
        low = n & 0x7F
        n >>= 7
        out.append(low | 0x80 if n else low)
        if not n:
            return bytes(reversed(out)) if broken("12.6.leb") else bytes(out)


def prepend_len(data):
    return data + leb128(len(data)) if broken("12.6.prependLen") else leb128(len(data)) + data


def lv_cat(*parts):
    return b"".join(prepend_len(part) for part in parts)


def zero_padding_length(prs):
    return max(0, HASH_BLOCK - (0 if broken("12.6.paddingOff") else 1) - len(prepend_len(prs)) - len(prepend_len(dsi())))


def generator_string(prs, ci, sid):
    pad = zero_padding_length(prs)
    if broken("12.6.noPadding"):
        pad = 0
    if broken("12.6.genOrder"):
        return lv_cat(dsi(), prs, bytes(pad), sid, ci)
    return lv_cat(dsi(), prs, bytes(pad), ci, sid)


def element_derivation(hash64):
    out = ctypes.create_string_buffer(32)
    if broken("12.6.hashLength"):
        hash64 = hash64[:32] + bytes(32)
    sodium().crypto_core_ristretto255_from_hash(out, bytes(hash64))
    return out.raw


def calculate_generator(prs, ci, sid):
    digest = sha512(generator_string(prs, ci, sid))
    return element_derivation(digest)


def is_element(encoded):
    return len(encoded) == 32 and sodium().crypto_core_ristretto255_is_valid_point(bytes(encoded)) == 1


def multiply(scalar, element):
    """scalar * element, or None when the element does not decode or the product is the identity."""
    out = ctypes.create_string_buffer(32)
    status = sodium().crypto_scalarmult_ristretto255(out, bytes(scalar), bytes(element))
    if status != 0 or out.raw == bytes(32):
        return None
    return out.raw


def reduce_scalar(wide):
    """A 64-byte little-endian integer modulo the group order, 32 bytes little-endian, with
    Python integers (typed_code_checks compares it with libsodium's reduction on every draw)."""
    return (int.from_bytes(wide, "little") % ORDER).to_bytes(32, "little")


def reduce_scalar_libsodium(wide):
    """libsodium's crypto_core_ristretto255_scalar_reduce, to cross-check reduce_scalar."""
    out = ctypes.create_string_buffer(32)
    sodium().crypto_core_ristretto255_scalar_reduce(out, bytes(wide))
    return out.raw


def sample_scalar(draw):
    """Spec 12.6 sample_scalar: 64 bytes a draw, reduced; 0 is drawn again; 64 zero draws fail."""
    for _ in range(MAX_SCALAR_DRAWS - (1 if broken("12.6.scalarMaxDraws") else 0)):
        wide = draw(64)
        if broken("12.6.scalar32"):
            wide = wide[:32] + bytes(32)
        scalar = reduce_scalar(wide)
        if scalar != bytes(32) or broken("12.6.zeroScalar"):
            return scalar
    raise ProtocolError("keyDerivationFailed")


def scalar_mult(scalar, generator):
    if broken("12.6.share"):
        scalar = ((int.from_bytes(scalar, "little") * 2) % ORDER).to_bytes(32, "little")
    product = multiply(scalar, generator)
    if product is None:
        if broken("12.6.identityShare"):
            return bytes(32)
        raise ProtocolError("keyDerivationFailed")
    return product


def scalar_mult_vfy(scalar, share):
    """K = y * decode(X); a share that does not decode, or an identity K, is invalidPakeShare."""
    if not is_element(share):
        if broken("12.6.vfyDecode"):
            return bytes(32)  # G.I returned, and the abort forgotten
        raise ProtocolError("invalidPakeShare")
    product = multiply(scalar, share)
    if product is None:
        if broken("12.6.vfyIdentity"):
            return bytes(32)
        raise ProtocolError("invalidPakeShare")
    return product


def transcript_ir(ya, ada, yb, adb):
    if broken("12.6.transcriptOrder"):
        return lv_cat(yb, adb) + lv_cat(ya, ada)
    return lv_cat(ya, ada) + lv_cat(yb, adb)


def lexicographically_larger(a, b):
    for x, y in zip(a, b):
        if x != y:
            return x > y
    return len(a) > len(b)


def o_cat(a, b):
    return b"oc" + a + b if lexicographically_larger(a, b) else b"oc" + b + a


def transcript_oc(ya, ada, yb, adb):
    return o_cat(lv_cat(ya, ada), lv_cat(yb, adb))


def intermediate_session_key(sid, k, transcript):
    label = dsi() + (b"_isk" if broken("12.6.iskLabel") else b"_ISK")
    return sha512(lv_cat(label, sid, k) + transcript)


def sid_output(transcript):
    return sha512(b"CPaceSidOutput" + transcript)
