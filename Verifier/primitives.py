"""Spec README conventions: SHA-256, HMAC, HKDF (built here on HMAC), X25519, ChaCha20-Poly1305.

SHA-256 and HMAC come from the standard library, X25519 and the AEAD from `cryptography`;
HKDF is written here from RFC 5869 so that it is independent of any library's HKDF.
"""

import hashlib
import hmac as _hmac

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from errors import ProtocolError
from rules import broken


def label(name):
    """A protocol label: "AH4 " and the name (Spec README: every label starts with AH4)."""
    return (b"AH3 " if broken("K.labelVersion") else b"AH4 ") + name


def sha256(*parts):
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part)
    return digest.digest()


def hmac_sha256(key, message):
    return _hmac.new(key, message, hashlib.sha256).digest()


def equal_constant_time(a, b):
    return _hmac.compare_digest(a, b)


def hkdf_extract(salt, ikm):
    """RFC 5869 2.2: PRK = HMAC(salt, IKM); an absent salt is 32 zero bytes."""
    if broken("P.hkdfExtractSalt"):
        return hmac_sha256(ikm, salt if salt else bytes(32))
    return hmac_sha256(salt if salt else bytes(32), ikm)


def hkdf_expand(prk, info, length):
    """RFC 5869 2.3: T(i) = HMAC(PRK, T(i-1) | info | i), at most 255 blocks (Spec 4.2)."""
    if length > 255 * 32 and not broken("P.hkdfLimit"):
        raise ProtocolError("keyDerivationFailed")
    output, block, counter = b"", b"", 0 if broken("P.hkdfExpandCounter") else 1
    while len(output) < length:
        block = hmac_sha256(prk, block + info + bytes([counter & 0xFF]))
        output += block
        counter += 1
    return output[:length]


def x25519(private_key, peer_public_key):
    """RFC 7748 X25519; an all-zero shared secret is refused (Spec 4.2, RFC 7748 6.1)."""
    try:
        shared = X25519PrivateKey.from_private_bytes(private_key).exchange(X25519PublicKey.from_public_bytes(peer_public_key))
    except ValueError:
        # OpenSSL refuses an all-zero result itself.
        if broken("P.x25519LowOrder"):
            return bytes(32)
        raise ProtocolError("lowOrderPublicKey")
    if shared == bytes(32) and not broken("P.x25519LowOrder"):
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


def u16(value):
    return value.to_bytes(2, "big")


def u32(value):
    return value.to_bytes(4, "big")


class SplitMix64:
    """The test-support random stream of Vectors/README.md."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFFFFFFFFFF

    def next(self):
        increment = 0x9E3779B97F4A7C13 if broken("X.splitMixIncrement") else 0x9E3779B97F4A7C15
        self.state = (self.state + increment) & 0xFFFFFFFFFFFFFFFF
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def fill(self, count):
        out = b""
        while len(out) < count:
            out += self.next().to_bytes(8, "little")
        return out[:count]
