"""One switch per normative rule of Spec/, for the mutation check (`verify_vectors.py --mutations`).

Every rule the verifier implements asks `broken(switch)` at the one place where it is applied.
Normally no switch is on. The mutation run turns on one at a time, as described in RULES, re-runs
every vector, and reports whether at least one vector fails: a switch whose mutation no vector
catches is a rule the vectors do not pin.

Each switch names the Spec rules it breaks, by the IDs that spec_rules.py reads from the Spec's
text (`S2`, `6.0.3(a)`, `6.1 local[awaitingCredential | notAuthenticated, storeUnavailable]`, ...).
Every Spec rule must be broken by at least one switch (spec_rules.compare): a rule added to the
Spec without a switch fails the run. The switches for the cells of the local-event tables, the
outcome rows of 6.4, the actions of 6 and the values of 3.6 are made from the Spec's tables
themselves (at the end of this file), so each new cell, row or value gets its mutation.
"""

import spec_rules

ACTIVE = None   # the switch on in this run, or None
REACHED = set()  # switches that were consulted (a never-consulted switch is reported as such)


def broken(rule):
    """True when `rule` is the switch on in this run."""
    if ACTIVE is None:
        return False
    if rule not in RULES:
        raise KeyError(rule)
    REACHED.add(rule)
    return rule == ACTIVE


# switch -> (Spec section, how the mutation breaks it, [Spec rule IDs]). Order is the report's order.
RULES = {}


def _rules(section, entries):
    for rule, how, spec in entries:
        assert rule not in RULES, rule
        RULES[rule] = (section, how, spec)


_rules("README / 4.2 primitives", [
    ("P.hkdfExtractSalt", "HKDF-Extract keys HMAC with the IKM and uses the salt as message (swapped)", ["4.2[PRK]"]),
    ("P.hkdfExpandCounter", "HKDF-Expand starts its block counter at 0 instead of 1", ["4.2[helloKey]"]),
    ("P.hkdfLimit", "HKDF-Expand allows outputs longer than 255 x 32 bytes", ["4.2[helloKey]"]),
    ("P.x25519LowOrder", "an all-zero X25519 shared secret is accepted", ["4.2[if shared is 32]"]),
    ("K.labelVersion", "every label starts with \"AH3 \" instead of \"AH4 \"", ["README[2]"]),
    ("X.splitMixIncrement", "the vectors' SplitMix64 adds 0x9E3779B97F4A7C13 instead of ...15 (Vectors/README.md)", []),
])

_rules("2.1-2.3 QR encoding and transfer ID", [
    ("Q.version", "the sender's QR carries version 3", ["2.1[version]", "README[1]"]),
    ("Q.intent", "the sender's QR carries intent 2", ["2.1[intent]"]),
    ("Q.binaryOrder", "the binary form puts senderPublicKey before commitment", ["2.2[qrBinary]", "2.1[senderPublicKey]"]),
    ("Q.rendezvousLength", "the binary form leaves out the rendezvous length byte", ["2.1[rendezvousLength]"]),
    ("Q.rendezvous", "the binary form writes the rendezvous bytes reversed", ["2.1[rendezvous]"]),
    ("Q.expiryFloor", "start uses expiry = round(now) + lifetime instead of floor(now) + lifetime", ["2.1[expiry]", "6.1 start.2"]),
    ("Q.prefix", "the text form starts with \"ah:\"", ["2.3[qrText]"]),
    ("Q.groupSize", "decimal groups of 6 bytes instead of 7", ["2.3.1"]),
    ("Q.groupEndian", "each group is read as a little-endian integer", ["2.3.2"]),
    ("Q.digitsTable", "D(n) table off by one for n = 6 (14 digits instead of 15)", ["2.3.3"]),
    ("Q.groupOrder", "the groups' digits are concatenated last group first", ["2.3.4"]),
    ("Q.transferIDLabel", "the transfer ID hashes qrBinary without the \"AH4 transfer ID\" label", ["2.1[transferID]"]),
    ("Q.transferIDLength", "the transfer ID is the last 16 bytes of the hash instead of the first", ["2.1[transferID]"]),
    ("Q.drawOrder", "the sender draws its private key before the nonce", ["6.1 start.2"]),
    ("Q.nonceInQR", "the QR's commitment field carries the nonce itself", []),
])

_rules("2.4 QR text decoding", [
    ("2.4.1", "step 1 skipped: no 254-byte cap on the text", ["2.4.1"]),
    ("2.4.1bytes", "step 1 counts characters instead of UTF-8 bytes", ["2.4.1"]),
    ("2.4.1order", "step 1 checked after step 2 (magic first)", ["2.4.1"]),
    ("2.4.2", "step 2 skipped: magic not checked", ["2.4.2"]),
    ("2.4.2case", "step 2 compares the magic case-insensitively", ["2.4.2"]),
    ("2.4.3", "step 3 skipped: non-digits pass (and then fail somewhere else)", ["2.4.3"]),
    ("2.4.3order", "step 3 after step 4 (digit count checked before the digit characters)", ["2.4.3", "2.4.4"]),
    ("2.4.4", "step 4 skipped: any digit count accepted (the partial group is read with the fewest bytes that hold it)",
     ["2.4.4"]),
    ("2.4.5", "step 5 skipped: a group >= 256^n is reduced mod 256^n instead of refused", ["2.4.5"]),
    ("2.4.5order", "step 5 interleaved with step 6: binary decoding of the groups so far runs before a later group is "
                   "checked", ["2.4.5", "2.4.6"]),
])

_rules("2.4 QR binary decoding", [
    ("B1", "B1 skipped: no 103-byte cap", ["B1"]),
    ("B1order", "B1 checked after B12 (as part of trailing bytes)", ["B1"]),
    ("B2", "B2: empty payload reported as malformed.length", ["B2"]),
    ("B3", "B3 accepts version 3 as well as 4", ["B3", "README[1]"]),
    ("B3order", "B3 checked after B5 (intent before version)", ["B3"]),
    ("B4", "B4: missing intent reported as malformed.version", ["B4"]),
    ("B5", "B5 skipped: any intent accepted while decoding", ["B5", "2.1[intent]"]),
    ("B6", "B6: truncated expiry reported as malformed.length", ["B6"]),
    ("B7", "B7: truncated commitment reported as malformed.publicKey", ["B7"]),
    ("B8", "B8: truncated public key reported as malformed.commitment", ["B8"]),
    ("B9", "B9: missing rendezvous length reported as malformed.publicKey", ["B9"]),
    ("B10", "B10 skipped: a rendezvousLength above 32 is accepted", ["B10", "2.1[rendezvousLength]"]),
    ("B10order", "B10 checked after B11 (truncation first)", ["B10"]),
    ("B11", "B11: truncated rendezvous reported as malformed.trailingBytes", ["B11"]),
    ("B12", "B12 skipped: trailing bytes ignored", ["B12"]),
])

_rules("2.5 scan", [
    ("S0clock", "S0: a non-finite now is accepted", ["S0"]),
    ("S0skew", "S0: skew 121 accepted", ["S0"]),
    ("S0order", "S0: now checked before the skew (invalidClock wins over invalidConfiguration)", ["S0"]),
    ("S1", "S1 skipped: the expected intent is not compared", ["S1"]),
    ("S2", "S2 uses now <= expiry + skew (> instead of >=)", ["S2"]),
    ("S2skew", "S2 ignores the skew (now < expiry)", ["S2"]),
    ("S3", "S3 uses expiry < now + 600 + skew", ["S3"]),
    ("S.frac", "scan rounds now up to whole seconds before S2/S3", ["S2", "S3"]),
    ("S3skew", "S3 ignores the skew", ["S3"]),
    ("S23order", "S3 checked before S2", ["S2", "S3"]),
    ("S4", "S4 skipped: the receiver registry is not consulted", ["S4", "6.3[receiver scan]"]),
    ("S4record", "S4 checks but does not record the claim", ["S4", "6.3[receiver scan]"]),
    ("S4order", "S4 after S6 (the low-order check comes before the registry)", ["S4"]),
    ("S5", "S5: the receiver draws 32 bytes it discards before its private key", ["S5"]),
    ("S6", "S6 skipped: a small-order sender key is accepted at scan", ["S6"]),
    ("S6giveBack", "S6: the registry claim is kept after lowOrderPublicKey", ["S6", "6.3[receiver scan]"]),
    ("S7", "S7: the hello body is helloTag | receiverPublicKey (fields swapped)", ["S7", "5.1[helloFrame]"]),
])

_rules("3.1-3.3 frames", [
    ("F.headerLayout", "the header puts bodyLength before sequence", ["3.1[header]"]),
    ("F.frameOrder", "a frame is the body followed by the header", ["3.1[frame]"]),
    ("F.typeSwap", "the type values of accept (3) and credential (4) are exchanged", []),
    ("F1", "F1 skipped: frames over 4096 bytes decode", ["F1"]),
    ("F1bound", "F1 refuses a frame of exactly 4096 bytes", ["F1"]),
    ("F2", "F2: a short frame reported as malformed.frameLength", ["F2"]),
    ("F3", "F3 accepts version 3", ["F3", "README[1]"]),
    ("F3order", "F3 checked after F4", ["F3"]),
    ("F4", "F4 accepts type 12", ["F4"]),
    ("F4typed", "F4 refuses the typed way's types 8...11 as unknownMessageType", ["F4", "3.2[pakeInit]", "3.2[pakeReply]",
                                                                                   "3.2[pakeConfirm]", "3.2[pakeRefused]"]),
    ("F4reveal", "F4 refuses type 7 (reveal) as unknownMessageType", ["F4", "3.2[reveal]"]),
    ("F5", "F5: a short body reported as malformed.trailingBytes", ["F5"]),
    ("F6", "F6 skipped: bytes after the body ignored", ["F6"]),
    ("F56order", "F7 checked before F5/F6", ["F5", "F6", "F7"]),
    ("F7", "F7 skipped: any bodyLength valid for any type", ["F7"]),
    ("F7hello", "F7: hello body 63..65 accepted", ["3.2[hello]"]),
    ("F7offer", "F7: an offer body of 16 + 128*k accepted", ["3.2[offer]"]),
    ("F7offerMin", "F7: an offer body of 16 (empty plaintext) accepted", ["3.2[offer]"]),
    ("F7credential", "F7: credential body 1024 accepted instead of 1040", ["3.2[credential]"]),
    ("F7reveal", "F7: reveal body 32 instead of 48", ["3.2[reveal]"]),
    ("F7accept", "F7: accept body 16 (the version-3 empty accept) accepted", ["3.2[accept]"]),
    ("F7receipt", "F7: receipt body 18 accepted", ["3.2[receipt]"]),
    ("F7abort", "F7: abort body 18 accepted", ["3.2[abort]"]),
    ("F7pakeInit", "F7: pakeInit body 48 (no expiry) instead of 52", ["3.2[pakeInit]", "3.8[pakeInit]"]),
    ("F7pakeReply", "F7: pakeReply body 64 (no tag) instead of 80", ["3.2[pakeReply]", "3.8[pakeReply]"]),
    ("F7pakeConfirm", "F7: pakeConfirm body 48 (sealed) instead of 32", ["3.2[pakeConfirm]", "3.8[pakeConfirm]"]),
    ("F7pakeRefused", "F7: pakeRefused body 17 (an abort's) instead of 0", ["3.2[pakeRefused]", "3.8[pakeRefused]"]),
])

_rules("3.4 offer plaintext", [
    ("O.padBlock", "padding to multiples of 128 instead of 256", ["3.4[plaintext]"]),
    ("O.padBoundary", "padded size counts the record without its 2-byte length prefix", ["3.4[plaintext]"]),
    ("O.strLength", "str(x) counts code points instead of UTF-8 bytes", ["3.4[str(x)]"]),
    ("O.1min", "step 1: a 1-byte plaintext reported as malformed.accountLinkID", ["3.4.1"]),
    ("O.1size", "step 1: the plaintext length is not compared with the padded size", ["3.4.1"]),
    ("O.1zero", "step 1: non-zero padding accepted", ["3.4.1"]),
    ("O.2linkID", "step 2: a truncated link ID reported as malformed.displayName", ["3.4.2"]),
    ("O.2fieldOrder", "step 2 parses emailAddress before displayName", ["3.4.2"]),
    ("O.2utf8", "step 2: invalid UTF-8 decoded with replacement characters", ["3.4.2"]),
    ("O.2utf8surrogates", "step 2: surrogate code points (CESU-style) accepted", ["3.4.2"]),
    ("O.2port", "step 2: a truncated port reported as malformed.imapSecurity", ["3.4.2"]),
    ("O.2security", "step 2: security byte 0 accepted (as TLS)", ["3.4.2"]),
    ("O.2securityPlain", "step 2: security byte 3 accepted", ["3.4.2"]),
    ("O.2trailing", "step 2: bytes after the security byte ignored", ["3.4.2"]),
    ("O.2trailingOrder", "step 2: trailing bytes checked before the sender gate value", ["3.4.2"]),
    ("O.3port", "step 3: port 0 accepted", ["3.4.3"]),
    ("O.3portOrder", "step 3: port 0 refused while parsing (step 2), before the strings are validated", ["3.4.3"]),
    ("O.3fieldOrder", "step 3 validates imapHost first", ["3.4.3"]),
    ("O.3usernameFirst", "step 3 validates username before emailAddress", ["3.4.3"]),
    ("O.3stepOrder", "step 3 (3.7 rules) applied to each string right after parsing it (before later fields are "
                     "parsed)", ["3.4.3"]),
    ("O.linkIDOrder", "the record puts accountLinkID after the strings", ["3.4[record]"]),
    ("O.senderGateEncode", "the sender's offer declares senderGate 1 whatever its gate", ["3.4[record]"]),
    ("O.2senderGate", "step 2: sender gate 0 and 3 accepted", ["3.4.2"]),
    ("O.2senderGateMissing", "step 2: a record that ends after the security byte read as senderGate 1", ["3.4.2"]),
    ("O.2senderGateField", "step 2: a missing sender gate reported as malformed.imapSecurity", ["3.4.2"]),
    ("O.2senderGateOrder", "step 2: the sender gate checked before the security value", ["3.4.2"]),
])

_rules("3.5 credential plaintext", [
    ("C.encodeEmpty", "the sender accepts an empty password", ["3.5[plaintext]"]),
    ("C.encodeMax", "the sender accepts a 1023-byte password", ["3.5[plaintext]"]),
    ("C.size", "receiver: a plaintext of the wrong size is not refused", ["3.5[plaintext]"]),
    ("C.lengthZero", "receiver: n = 0 accepted", ["3.5[plaintext]"]),
    ("C.lengthMax", "receiver: n = 1023 accepted (reads into the padding)", ["3.5[plaintext]"]),
    ("C.padding", "receiver: non-zero padding accepted", ["3.5[plaintext]"]),
    ("C.paddingError", "receiver: non-zero padding reported as malformed.credential", ["3.5[plaintext]"]),
])

_rules("3.6 reveal, accept, receipt and abort values", [
    ("V.reveal", "the reveal carries the commitment instead of the nonce", ["3.6[reveal]"]),
    ("V.accept", "the accept is empty (version 3), without receiverGate", ["3.6[accept]"]),
    ("V.receiverGate", "receiverGate 0 and 3 accepted as 1", ["3.6[accept]"]),
    ("V.receipt", "receipt status 6 accepted as declined", ["3.6[receipt]"]),
    ("V.receiptMap", "receipt statuses 2 and 3 swapped", ["3.6[receipt 2]", "3.6[receipt 3]"]),
    ("V.abort", "abort reason 7 (the first undefined value) accepted as contested", ["3.6[abort]"]),
    ("V.abortMap", "abort reasons 1 and 2 swapped", ["3.6[abort 1]", "3.6[abort 2]"]),
    ("V.abortZero", "abort reason 0 accepted as cancelled", ["3.6[abort]"]),
])

_rules("3.7 account text", [
    ("T1", "T1 skipped", ["T1"]),
    ("T1bounds", "T1: displayName may be 257 bytes, emailAddress/username 321, imapHost 254", ["T1"]),
    ("T1min", "T1: empty emailAddress/username/imapHost accepted", ["T1"]),
    ("T2", "T2 skipped entirely", ["T2"]),
    ("T2cc", "T2: Cc (controls) accepted", ["T2"]),
    ("T2cf", "T2: Cf (format, bidi controls) accepted", ["T2"]),
    ("T2zs", "T2: Zs other than U+0020 accepted", ["T2"]),
    ("T2zlzp", "T2: Zl, Zp accepted", ["T2"]),
    ("T2co", "T2: Co, Cs accepted", ["T2"]),
    ("T2cn", "T2: Cn (unassigned, noncharacters) accepted", ["T2"]),
    ("T2di", "T2: other Default_Ignorable_Code_Points accepted", ["T2"]),
    ("T2jamo", "T2: conjoining Hangul jamo accepted", ["T2"]),
    ("T2jamoL", "T2: leading consonant jamo (Hangul_Syllable_Type L) accepted", ["T2"]),
    ("T2jamoV", "T2: vowel jamo (Hangul_Syllable_Type V) accepted", ["T2"]),
    ("T2jamoT", "T2: trailing consonant jamo (Hangul_Syllable_Type T) accepted", ["T2"]),
    ("T2jamoExtended", "T2: only the jamo of U+1100...U+11FF refused (extended-A and -B accepted)", ["T2"]),
    ("T3", "T3 skipped: ZWJ/ZWNJ in any context", ["T3"]),
    ("T3zwj", "T3: ZWJ accepted anywhere", ["T3"]),
    ("T3zwnjVirama", "T3: ZWNJ after a virama refused", ["T3"]),
    ("T3zwjViramaSkipsMarks", "T3: a virama counts across marks between it and a ZWJ", ["T3"]),
    ("T3zwnjViramaSkipsMarks", "T3: a virama counts across marks between it and a ZWNJ", ["T3"]),
    ("T3zwnjJoining", "T3: ZWNJ between joining letters refused (virama context only)", ["T3"]),
    ("T3zwnjTransparent", "T3: transparent (T) code points not skipped around a ZWNJ", ["T3"]),
    ("T3zwnjBefore", "T3: a right-joining (R) letter before a ZWNJ accepted", ["T3"]),
    ("T3zwnjAfter", "T3: a left-joining (L) letter after a ZWNJ accepted", ["T3"]),
    ("T4", "T4 skipped", ["T4"]),
    ("T4edge", "T4: leading/trailing space accepted in displayName/username", ["T4"]),
    ("T4double", "T4: two spaces in a row accepted in displayName/username", ["T4"]),
    ("T4none", "T4: a space accepted in emailAddress/imapHost", ["T4"]),
    ("T5", "T5 skipped", ["T5"]),
    ("T5bound", "T5: refuses 4 consecutive marks (>= 4 instead of > 4)", ["T5"]),
    ("T5enclosing", "T5: enclosing marks (Me) not counted", ["T5"]),
    ("T6", "T6 skipped", ["T6"]),
    ("T6bound", "T6: refuses 64 display units (>= 64)", ["T6"]),
    ("T6weights", "T6: marks and joiners count 1", ["T6"]),
    ("T6joiners", "T6: U+200C and U+200D count 1", ["T6"]),
    ("T7", "T7 skipped", ["T7"]),
    ("T7label", "T7: 64-byte labels accepted", ["T7"]),
    ("T7hyphen", "T7: labels starting or ending with '-' accepted", ["T7"]),
    ("T7empty", "T7: empty labels and a trailing dot accepted", ["T7"]),
    ("T7chars", "T7: '_' accepted in labels", ["T7"]),
    ("T.fieldOrder", "3.7 rules checked T2 before T1", ["T1", "T2"]),
    ("T.mapping", "the Nickname profile's space mapping is applied (leading, trailing and doubled spaces of a display "
                  "name or username dropped) instead of refusing", []),
    ("T.u1171E", "U+1171E has its Unicode 16.0 category (Mc) instead of 14.0's (Mn)", []),
    ("T.t6BeforeT2", "T6 checked before T2", ["T2", "T6"]),
])

_rules("4.1-4.4 key schedule", [
    ("K.th0", "TH0 hashes qrBinary without the \"AH4 transcript\" label", ["4.1[TH0]"]),
    ("K.hh", "HH = SHA-256(receiverPublicKey | TH0) (operands swapped)", ["4.1[HH]", "5.1[HH]"]),
    ("K.th1", "TH1 chained from HH instead of TH0", ["4.1[TH1]", "5.1[TH1]"]),
    ("K.thChain", "later frames are absorbed by hashing the body only", ["4.1[TH(k+1)]"]),
    ("K.ikm", "PRK IKM = shared only (commitment left out)", ["4.2[PRK]", "5.1[keys]"]),
    ("K.ikmOrder", "PRK IKM = commitment | shared", ["4.2[PRK]"]),
    ("K.helloKeyLabel", "helloKey label \"AH4 code\" instead of \"AH4 hello\"", ["4.2[helloKey]"]),
    ("K.labels", "the s2r and r2s labels swapped", ["4.2[s2rKey]", "4.2[r2sKey]"]),
    ("K.codeKeyLabel", "codeKey label \"AH4 code\" instead of \"AH4 code key\"", ["4.2[codeKey]"]),
    ("K.helloTag", "helloTag = HMAC(helloKey, TH0)", ["4.2[helloTag]"]),
    ("K.commitment", "commitment without its \"AH4 commitment\" label", ["2.1[commitment]"]),
    ("K.codeSalt", "codePRK salt HH instead of TH1", ["4.4[codePRK]"]),
    ("K.codeIKM", "codePRK IKM = nonce | codeKey", ["4.4[codePRK]"]),
    ("K.codeMaterialLabel", "codeMaterial label \"AH4 code key\" instead of \"AH4 code\"", ["4.4[codeMaterial]"]),
    ("K.codeEndian", "candidates read as little-endian u32", ["4.4.1"]),
    ("K.codeBound", "rejection sampling uses <= 4294000000", ["4.4.2"]),
    ("K.codeFirst", "the last accepted candidate is used instead of the first", ["4.4.2"]),
    ("K.codeModulus", "value = c mod 999999", ["4.4.3"]),
    ("K.codeFail", "all candidates rejected gives code 000000 instead of keyDerivationFailed", ["4.4.4"]),
    ("K.codeDigits", "digits are not left-padded with 0", ["4.4[digits]"]),
    ("K.codeGrouped", "grouped form without the space", ["4.4[grouped]"]),
    ("K.codeForms", "spoken form separates the groups with \" \" instead of \", \"", ["4.4[spoken]"]),
    ("K.nonce", "AEAD nonce = sequence(u32) | 8 zero bytes", ["4.3[Nonce]"]),
    ("K.adHeader", "the AD's header carries bodyLength = plaintext length (without the tag)", ["4.3[header]"]),
    ("K.adExpiry", "AD leaves out the expiry", ["4.3[expiry]", "4.3[AD]", "4.3[Additional data]"]),
    ("K.adAbortTH1", "aborts bound to the running TH instead of TH1", ["4.3[T]"]),
    ("K.adSecondTH1", "the abort to a second device is bound to the established pair's TH1", ["4.3[T]"]),
    ("K.adLinkID", "the link ID is left out of the AD of accept/credential/receipt", ["4.3[L]"]),
    ("K.adLinkIDAll", "the link ID is added to the AD of every frame type", ["4.3[L]"]),
    ("K.tagFirst", "the body is tag | ciphertext", ["4.3[Body]"]),
    ("K.keysDirection", "the sender seals with r2sKey (keys of the two directions swapped)", ["4.3[Keys]"]),
    ("K.absorbAbort", "abort frames are absorbed into TH", ["4.1[TH(k+1)]"]),
    ("K.absorbBeforeOpen", "a received frame is absorbed before the AD for it is computed", ["4.1[TH(k+1)]"]),
    ("K.absorbIgnored", "a frame that fails E4 is absorbed into TH anyway", []),
    ("K.emptySalt", "PRK = HKDF-Extract with an empty salt instead of HH", []),
    ("K.sequenceStart", "the receiver's first encrypted frame has sequence 0 (the hello is not counted)",
     ["4.3[Sequence numbers]"]),
    ("K.sequenceAbort", "sending an abort does not advance the send sequence", ["4.3[Sequence numbers]"]),
    ("K.revealCommitCheck", "the receiver does not compare the revealed nonce with the commitment",
     ["6.2 frame[awaitingReveal | reveal authenticated, commitment does not match]"]),
])

_rules("4.4 typed code", [
    ("4.4.entrySpaces", "the spaces of a typed text are not removed", ["4.4[Typed entry]"]),
    ("4.4.entryWhitespace", "every whitespace character of a typed text is removed, not only U+0020",
     ["4.4[Typed entry]"]),
    ("4.4.entryLength", "any number of digits is an entry (not exactly 6)", ["4.4[Typed entry]"]),
    ("4.4.entryDigits", "any six characters are an entry (not only ASCII digits)", ["4.4[Typed entry]"]),
    ("4.4.entryNoTry", "a text that is not an entry uses a try (codeMismatch) instead of malformed.typedCode",
     ["4.4[Typed entry]"]),
    ("4.4.entryMatch", "every entry matches", ["4.4[Typed entry]"]),
    ("4.4.entryBeforeState", "a typed text is read before the state is checked: one that is no entry is refused "
                             "malformed.typedCode in every live state, not invalidEvent",
     ["4.4[Typed entry]", "6.1 local[awaitingHello | codeEntered(text)]", "6.1 local[awaitingAccept | codeEntered(text)]"]),
    ("4.4.entries", "four entries instead of three", ["4.4[Tries]"]),
    ("4.4.remaining", "codeMismatch reports the entries used, not the entries left", ["4.4[Tries]", "6[codeMismatch]"]),
    ("4.4.lastEntryReason", "the third mismatch seals abort(1) instead of abort(2)", ["4.4[Tries]"]),
])

_rules("5.1 hello at the sender", [
    ("H1", "H1 skipped: the accepted hello again is processed as a new hello", ["H1"]),
    ("H1order", "H1 after H2-H4", ["H1"]),
    ("H1answered", "H1: a second device's hello answered in awaitingReceipt is answered again", ["H1"]),
    ("H1memory", "H1: the sender remembers only the last answered second-device hello, not 8", ["H1"]),
    ("H1rememberAgain", "H1: a forgotten hello answered again is not remembered again (a third copy is answered "
                        "again)", ["H1"]),
    ("H1memoryLonger", "H1: the sender remembers the last 9 answered second-device hellos, not 8", ["H1"]),
    ("H2", "H2 skipped: any sequence accepted", ["H2"]),
    ("H2order", "H2 after H4 (authentication first)", ["H2"]),
    ("H3", "H3 skipped: a small-order hello key is accepted (HKDF on zeros)", ["H3"]),
    ("H3order", "H3 before H2", ["H3"]),
    ("H4", "H4 skipped: any hello tag accepted", ["H4"]),
])

_rules("5.3 encrypted frames", [
    ("E1", "E1 skipped: an old sequence number is accepted (if it authenticates)", ["E1"]),
    ("E1error", "E1: an old sequence reported as outOfOrder", ["E1"]),
    ("E2", "E2 skipped: a sequence number ahead is accepted", ["E2"]),
    ("E2abort", "E2: an abort may not skip ahead", ["E2"]),
    ("E12order", "E3 checked before E1/E2", ["E1", "E2", "E3"]),
    ("E3", "E3 skipped: any type is opened in any state", ["E3"]),
    ("E3order", "E4 before E3 (open first, then type check)", ["E3", "E4"]),
    ("E4", "E4: an AEAD failure is accepted as an empty plaintext", ["E4"]),
    ("E.advance", "the receive sequence is not advanced after a successful frame", ["E4", "4.3[Sequence numbers]"]),
])

_rules("6.0 steps before every row", [
    ("6.0.1", "step 1 skipped: a non-finite now is accepted", ["6.0.1"]),
    ("6.0.1max", "step 1: the session uses now as given, not the largest time so far", ["6.0.1"]),
    ("6.0.1back", "step 1: a now below the largest time so far is refused with invalidClock", ["6.0.1"]),
    ("6.0.1frac", "step 1: now is rounded up to whole seconds before comparing (flooring is equivalent for integer "
                  "thresholds)", ["6.0.1"]),
    ("6.0.2", "step 2 after step 3 (expiry checked before finished)", ["6.0.2"]),
    ("6.0.2frame", "step 2: a frame after the end is refused (thrown sessionFinished) instead of ignored", ["6.0.2"]),
    ("6.0.2cancel", "step 2: cancel after the end is refused sessionFinished", ["6.0.2"]),
    ("6.0.2tick", "step 2: tick/transportLost after the end are refused sessionFinished", ["6.0.2"]),
    ("6.0.2local", "step 2: other local events after the end give [] instead of being refused sessionFinished",
     ["6.0.2"]),
    ("6.0.2typed", "step 2: typedRunRequested after the end gives [] instead of being refused invalidEvent", ["6.0.2"]),
    ("6.0.1order", "step 1 after step 2 (a finished session ignores the clock check)", ["6.0.1", "6.0.2"]),
    ("6.0.3sender", "sender expiry uses t > expiry", ["6.0.3"]),
    ("6.0.3receiptWait", "sender in awaitingReceipt expires at expiry, not expiry + 120", ["6.0.3"]),
    ("6.0.3receiptWaitBound", "sender in awaitingReceipt expires at t > expiry + 120", ["6.0.3"]),
    ("6.0.3receiver", "receiver expiry uses t > expiry + skew", ["6.0.3"]),
    ("6.0.3receiverSkew", "receiver expiry ignores the skew", ["6.0.3"]),
    ("6.0.3importing", "receiver in awaitingImportResult expires too", ["6.0.3"]),
    ("6.0.3beforeRow", "expiry checked after the table row (only when the row did not finish)", ["6.0.3", "6.0.4"]),
    ("6.0.3abort", "a side that holds keys ends expired without sealing abort(6)", ["6.0.3(a)"]),
    ("6.0.3abortReveal", "a receiver in awaitingReveal (no code yet) ends expired without abort(6)", ["6.0.3(a)"]),
    ("6.0.3abortCredential", "a sender in awaitingCredential ends expired without abort(6)", ["6.0.3(a)"]),
    ("6.0.3abortCredentialFrame", "a receiver in awaitingCredentialFrame ends expired without abort(6)", ["6.0.3(a)"]),
    ("6.0.3abortReason", "the abort sealed at expiry carries reason 1 instead of 6", ["6.0.3(a)"]),
    ("6.0.3abortOrder", "at expiry: finished(expired) before send(abort)", ["6.0.3(a)"]),
    ("6.0.3outcome", "sender in awaitingReceipt expires as plain expired", ["6.0.3(b)"]),
    ("6.0.deadline", "next deadline: sender expiry + 120 in every state", ["6.0.3"]),
    ("6.0.deadlineReceipt", "next deadline: sender in awaitingReceipt reports expiry", ["6.0.3"]),
    ("6.0.deadlineReceiver", "next deadline: receiver reports expiry without skew", ["6.0.3"]),
    ("6.0.deadlineImporting", "next deadline: receiver in awaitingImportResult reports expiry + skew", ["6.0.3"]),
    ("6.0.deadlineFinished", "next deadline: a finished session reports its last deadline", ["6.0.3"]),
    ("6.0.frame2", "frame events: the transfer-ID check before decoding errors (decode error ignored as "
                   "unknownTransfer when the ID differs)", ["6.0 frame.1", "6.0 frame.2"]),
    ("6.0.frame2skip", "frame events: the transfer ID is not checked", ["6.0 frame.2"]),
])

_rules("6.1 sender start", [
    ("6.1.start0a", "start: lifetime 29 and 601 accepted", ["6.1 start.0a"]),
    ("6.1.start0aOrder", "start: the rendezvous token checked before the lifetime", ["6.1 start.0a", "6.1 start.0b"]),
    ("6.1.start0b", "start: a rendezvous token of 33 bytes is accepted", ["6.1 start.0b"]),
    ("6.1.start0bOrder", "start: the account checked before the rendezvous token", ["6.1 start.0b", "6.1 start.0c"]),
    ("6.1.start0c", "start: the account is not validated (3.7, port 0)", ["6.1 start.0c"]),
    ("6.1.start0cOrder", "start: the clock checked before the account", ["6.1 start.0c", "6.1 start.1"]),
    ("6.1.start1", "start: a non-finite now accepted", ["6.1 start.1"]),
    ("6.1.start1neg", "start: a negative start time accepted", ["6.1 start.1"]),
    ("6.1.start1max", "start: floor(now) + lifetime may reach 2^32", ["6.1 start.1"]),
    ("6.1.start3", "start: the sender registry is not consulted", ["6.1 start.3", "6.3[sender start]"]),
    ("6.1.start3record", "start: the ID is not registered", ["6.1 start.3", "6.3[sender start]"]),
])

_hello = "6.1 frame[awaitingHello | hello passing H1-H4]"
_second = ("6.1 frame[awaitingCodeConfirmation, awaitingAccept, awaitingCredential | a hello passing H1-H4 (different "
           "from the accepted one: a second device saw the QR)]")
_late = "6.1 frame[awaitingReceipt | a hello passing H1-H4]"
_rules("6.1 sender incoming frames", [
    ("6.1.helloAnyState", "a hello in a live state other than awaitingHello is ignored as unexpectedMessage",
     ["6.1 frame[any live state | hello]"]),
    ("6.1.helloFirst", "awaitingHello + valid hello: askForCode before send(reveal)", [_hello]),
    ("6.1.helloReveal", "awaitingHello + valid hello: no reveal sent", [_hello]),
    ("6.1.showsCode", "awaitingHello + valid hello: the sender shows its code (showShortCode) instead of askForCode",
     [_hello, "6[askForCode]"]),
    ("6.1.revealTranscript", "the reveal is not absorbed (TH stays TH1)", [_hello]),
    ("6.1.earlyOrder", "awaitingHello: a non-hello frame is refused (unexpectedMessage) before its transfer ID is "
                       "checked", ["6.0 frame.3", "6.1 frame[awaitingHello | any other type]"]),
    ("6.1.nonHelloEarly", "awaitingHello + another type: E1-E4 attempted (no keys: ignored authenticationFailed)",
     ["6.1 frame[awaitingHello | any other type]"]),
    ("6.1.contested", "second valid hello before the credential: only the second device gets an abort", [_second]),
    ("6.1.contestedSecond", "second valid hello before the credential: no reply to the second device", [_second]),
    ("6.1.contestedSequence", "abort to the second device uses the established channel's sequence", [_second]),
    ("6.1.contestedOrder", "second valid hello: reply before send", [_second]),
    ("6.1.lateHello", "second valid hello after the credential: session ends contested", [_late]),
    ("6.1.lateHelloWarn", "second valid hello after the credential: no anotherDeviceJoined", [_late]),
    ("6.1.accept", "accept: next state awaitingReceipt", ["6.1 frame[awaitingAccept | accept authenticated, receiverGate 1 or 2]"]),
    ("6.1.receiverGateShown", "requestCredential reports receiverGate 1 whatever the accept declares",
     ["6.1 frame[awaitingAccept | accept authenticated, receiverGate 1 or 2]"]),
    ("6.1.receiverGateAbort", "an accept with another receiverGate: abort(4) sent before failed.malformed.receiverGate",
     ["6.1 frame[awaitingAccept | accept authenticated, other receiverGate]"]),
    ("6.1.expectCodeConfirmation", "awaitingCodeConfirmation expects an accept (E3 lets it through)",
     ["6.1 frame[other live states | any other type]"]),
    ("6.1.expectCredential", "awaitingCredential expects a receipt (E3 lets it through)",
     ["6.1 frame[other live states | any other type]"]),
    ("6.1.receiptCompleted", "an authenticated receipt 1...5 ends deliveredUnconfirmed.completed.<status>",
     ["6.1 frame[awaitingReceipt | receipt authenticated, status 1...5]"]),
    ("6.1.receipt", "receipt status outside 1..5 reported as completed.declined",
     ["6.1 frame[awaitingReceipt | receipt authenticated, other status]"]),
    ("6.1.receiptUnconfirmed", "bad receipt status: failed.malformed.receiptStatus without deliveredUnconfirmed",
     ["6.1 frame[awaitingReceipt | receipt authenticated, other status]"]),
    ("6.1.abortOutcome", "sender: abort reason 3 reported as rejected.peer",
     ["6.1 frame[awaitingCodeConfirmation, awaitingAccept, awaitingCredential | abort authenticated]"]),
    ("6.1.abortUnconfirmed", "abort in awaitingReceipt: plain outcome without deliveredUnconfirmed",
     ["6.1 frame[awaitingReceipt | abort authenticated]"]),
])

_rules("6.1 sender local events", [
    ("6.1.codeEnteredAccept", "codeEntered in awaitingAccept is compared and sends another offer",
     ["6.1 local[awaitingAccept | codeEntered(text)]"]),
    ("6.1.rejectHello", "reject in awaitingHello finishes rejected.local", ["6.1 local[awaitingHello | reject]"]),
    ("6.1.rejectReceipt", "reject in awaitingReceipt sends abort(2)", ["6.1 local[awaitingReceipt | reject]"]),
    ("6.1.credentialState", "credentialProvided accepted in awaitingAccept",
     ["6.1 local[awaitingAccept | credentialProvided(pw)]"]),
    ("6.1.rejectReason", "reject seals abort(1)", ["6.1 local[awaitingCodeConfirmation | reject]",
                                                               "6.1 local[awaitingAccept | reject]",
                                                               "6.1 local[awaitingCredential | reject]"]),
    ("6.1.cancelReason", "cancel seals abort(2)", ["6.1 local[awaitingCodeConfirmation | cancel]",
                                                   "6.1 local[awaitingAccept | cancel]", "6.1 local[awaitingCredential | cancel]"]),
    ("6.1.cancelHello", "cancel in awaitingHello refused invalidEvent", ["6.1 local[awaitingHello | cancel]"]),
    ("6.1.cancelReceipt", "cancel in awaitingReceipt sends abort(1)", ["6.1 local[awaitingReceipt | cancel]"]),
    ("6.1.cancelReceiptOutcome", "cancel in awaitingReceipt finishes cancelled.local",
     ["6.1 local[awaitingReceipt | cancel]"]),
    ("6.1.notAuthenticatedReason", "notAuthenticated seals abort(4) instead of abort(5)",
     ["6.1 local[awaitingCredential | notAuthenticated, storeUnavailable]"]),
    ("6.1.storeUnavailableReason", "storeUnavailable seals abort(5) instead of abort(4)",
     ["6.1 local[awaitingCredential | notAuthenticated, storeUnavailable]"]),
    ("6.1.credentialLength", "credentialProvided with a bad length finishes failed.malformed.credential",
     ["6.1 local[awaitingCredential | credentialProvided(pw)]"]),
    ("6.1.transportLost", "transportLost is a no-op at the sender", ["6.1 local[awaitingHello | transportLost]"]),
    ("6.1.transportLostReceipt", "transportLost in awaitingReceipt finishes failed.transportLost",
     ["6.1 local[awaitingReceipt | transportLost]"]),
    ("6.1.tick", "tick in a live state finishes expired", ["6.1 local[awaitingHello | tick]"]),
    ("6.1.invalidEvent", "refused local events report sessionFinished instead of invalidEvent",
     ["6.1 local[awaitingHello | reject]"]),
])

_rules("6.2 receiver incoming frames", [
    ("6.2.scanActions", "scan: showShortCode right away (version-1 behaviour)", ["S7"]),
    ("6.2.hello", "a hello at the receiver is processed with E1-E4", ["6.2 frame[any live state | hello]"]),
    ("6.2.helloOrder", "a hello at the receiver is refused (unexpectedMessage) before its transfer ID is checked",
     ["6.0 frame.3", "6.2 frame[any live state | hello]"]),
    ("6.2.revealState", "a reveal is accepted in awaitingOffer", ["6.2 frame[any live state | other types]"]),
    ("6.2.expectReviewing", "reviewingOffer expects an offer (E3 lets a second offer through)",
     ["6.2 frame[any live state | other types]"]),
    ("6.2.importing", "awaitingImportResult: an abort is still accepted", ["6.2 frame[any live state | other types]"]),
    ("6.2.reveal", "a reveal: next state reviewingOffer",
     ["6.2 frame[awaitingReveal | reveal authenticated, commitment matches]"]),
    ("6.2.commitmentOutcome", "commitment mismatch: an abort(2) is sent",
     ["6.2 frame[awaitingReveal | reveal authenticated, commitment does not match]"]),
    ("6.2.offerState", "an offer that decodes: next state awaitingCredentialFrame (no review)",
     ["6.2 frame[awaitingOffer | offer authenticated, plaintext decodes (3.4)]"]),
    ("6.2.senderGateShown", "showAccount reports senderGate 1 whatever the offer declares",
     ["6.2 frame[awaitingOffer | offer authenticated, plaintext decodes (3.4)]"]),
    ("6.2.offerFail", "an undecodable offer is ignored instead of ending the session",
     ["6.2 frame[awaitingOffer | offer authenticated, plaintext does not decode]"]),
    ("6.2.offerFailAbort", "an undecodable offer: an abort(2) is sent",
     ["6.2 frame[awaitingOffer | offer authenticated, plaintext does not decode]"]),
    ("6.2.deliverState", "a valid credential: state stays awaitingCredentialFrame",
     ["6.2 frame[awaitingCredentialFrame | credential authenticated, plaintext valid (3.5)]"]),
    ("6.2.credentialFail", "an invalid credential is ignored",
     ["6.2 frame[awaitingCredentialFrame | credential authenticated, plaintext invalid]"]),
    ("6.2.abortOutcome", "receiver abort reason 3 reported as rejected.peer",
     ["6.2 frame[awaitingReveal ... awaitingCredentialFrame | abort authenticated]"]),
])

_rules("6.2 receiver local events", [
    ("6.2.acceptEarly", "accept accepted in awaitingOffer (accept before the account is shown)",
     ["6.2 local[awaitingOffer | accept]"]),
    ("6.2.acceptGate", "the accept declares receiverGate 1 whatever the receiving device's localGate",
     ["6.2 local[reviewingOffer | accept]"]),
    ("6.2.rejectReveal", "reject in awaitingReveal sends abort(2)", ["6.2 local[awaitingReveal | reject]"]),
    ("6.2.cancelImporting", "cancel in awaitingImportResult finishes cancelled.local",
     ["6.2 local[awaitingImportResult | cancel]"]),
    ("6.2.importState", "importFinished accepted before the credential arrived",
     ["6.2 local[awaitingCredentialFrame | importFinished(status)]"]),
    ("6.2.rejectReason", "reject seals abort(1)", ["6.2 local[awaitingOffer | reject]",
                                                               "6.2 local[reviewingOffer | reject]",
                                                               "6.2 local[awaitingCredentialFrame | reject]"]),
    ("6.2.cancelReason", "cancel seals abort(2)", ["6.2 local[awaitingReveal | cancel]", "6.2 local[awaitingOffer | cancel]",
                                                   "6.2 local[reviewingOffer | cancel]",
                                                   "6.2 local[awaitingCredentialFrame | cancel]"]),
    ("6.2.storeUnavailableReason", "storeUnavailable seals abort(5) instead of abort(4)",
     ["6.2 local[awaitingOffer | storeUnavailable]", "6.2 local[reviewingOffer | storeUnavailable]",
      "6.2 local[awaitingCredentialFrame | storeUnavailable]"]),
    ("6.2.notAuthenticatedReason", "notAuthenticated seals abort(4) instead of abort(5)",
     ["6.2 local[reviewingOffer | notAuthenticated]"]),
    ("6.2.importStatus", "importFinished: receipt status values 2 and 3 swapped",
     ["6.2 local[awaitingImportResult | importFinished(status)]"]),
    ("6.2.transportLost", "transportLost is a no-op at the receiver", ["6.2 local[awaitingReveal | transportLost]"]),
    ("6.2.transportLostImporting", "transportLost in awaitingImportResult finishes failed.transportLost",
     ["6.2 local[awaitingImportResult | transportLost]"]),
    ("6.2.transportLostExpiry", "transportLost after the expiry ends failed.transportLost, not expired",
     ["6.2 local[awaitingReveal | transportLost]"]),
    ("6.2.transportLostExpiryBound", "transportLost: expired only when t > expiry",
     ["6.2 local[awaitingReveal | transportLost]"]),
])

_rules("6.3 registries", [
    ("R.startInUse", "start: an ID already present is accepted (re-registered)", ["6.3[sender start]"]),
    ("R.recordOutcome", "the sender registry does not record finished outcomes", ["6.3[sender outcome recorded]"]),
    ("R.admitDecode", "admit: decoding errors not checked first (unknownTransfer for a malformed frame)",
     ["6.3[sender admit]"]),
    ("R.admitUnknown", "admit: an unknown ID is admitted", ["6.3[sender admit]"]),
    ("R.admitConsumed", "admit: a finished transfer is admitted", ["6.3[sender admit]"]),
    ("R.admitExpired", "admit: an expired transfer is admitted", ["6.3[sender admit]"]),
    ("R.admitExpiredBound", "admit: expired only when now > expiry + 120", ["6.3[sender admit]"]),
    ("R.admitOrder", "admit: the expiry checked before the finished check", ["6.3[sender admit]"]),
    ("R.admitClock", "admit: a non-finite now accepted", ["6.3[sender admit]"]),
    ("R.admitClockOrder", "admit: the clock checked before decoding the frame", ["6.3[sender admit]"]),
    ("R.senderPrune", "sender prune: entries are never forgotten", ["6.3[sender prune]"]),
    ("R.senderPruneBound", "sender prune: forgets when expiry + 3600 < now (strict)", ["6.3[sender prune]"]),
    ("R.pruneConsumed", "sender prune forgets only pending entries: a finished one stays consumed for good",
     ["6.3[sender outcome recorded]", "6.3[sender prune]"]),
    ("R.senderPruneAll", "sender prune: forgets pending entries regardless of age", ["6.3[sender prune]"]),
    ("R.receiverPrune", "receiver prune: entries are never forgotten", ["6.3[receiver prune]"]),
    ("R.receiverPruneBound", "receiver prune: forgets when expiry + 3600 < now (strict)", ["6.3[receiver prune]"]),
    ("R.release", "release does nothing", ["6.3[receiver release]"]),
    ("R.releaseAll", "release forgets every claim", ["6.3[receiver release]"]),
    ("R.hasClaimed", "hasClaimed always answers false", ["6.3[receiver scan]"]),
])

_rules("6.5 wiping", [
    ("W.keep", "a finished session keeps its keys and transcript (nothing is wiped)", ["6.5[sender]", "6.5[receiver]"]),
])


_rules("11.1 rendezvous token", [
    ("11.1.empty", "an empty token is read as flags 0 (refused as noRoute)", ["11.1[empty]"]),
    ("11.1.flagMask", "flag bits other than 0x01, 0x02 and 0x04 are ignored instead of refused", ["11.1[unknownFlags]"]),
    ("11.1.addressWithoutDirect", "flag 0x02 without 0x01 is accepted", ["11.1[addressWithoutDirect]"]),
    ("11.1.noRoute", "a token with neither 0x01 nor 0x04 is accepted", ["11.1[noRoute]"]),
    ("11.1.order", "the flag checks run in reverse order (noRoute first)",
     ["11.1[unknownFlags]", "11.1[addressWithoutDirect]", "11.1[noRoute]"]),
    ("11.1.truncated", "a field the token ends inside is read as if padded with zero bytes", ["11.1[truncated]"]),
    ("11.1.zeroPort", "a port of 0 is accepted", ["11.1[zeroPort]"]),
    ("11.1.zeroPortOrder", "the ports are checked for 0 only after every field was read (truncation first)",
     ["11.1[zeroPort]", "11.1[truncated]"]),
    ("11.1.trailing", "bytes after the direct address are accepted when there is no relay", ["11.1[trailingBytes]"]),
    ("11.1.trailingOrder", "the token's length is checked against its flags before the ports (trailing bytes before "
                           "a port of 0)", ["11.1[trailingBytes]", "11.1[zeroPort]"]),
    ("11.1.relayHost", "a relay host that does not decode is kept as \"?\" instead of refusing the token",
     ["11.1[relayHost.*]"]),
    ("11.1.fieldOrder", "the relay is read before the direct address", ["11.1[token]"]),
    ("11.1.portEndian", "ports are little-endian", ["11.1[direct]", "11.1[relay]"]),
    ("11.1.loopbackDefault", "without flag 0x02 the direct address is 0.0.0.0 instead of 127.0.0.1", ["11.1[address]"]),
    ("11.1.encodeLoopback", "the encoder writes 127.0.0.1 out (flag 0x02) instead of leaving it out", ["11.1[Encoding]"]),
    ("11.1.encodeHost", "the encoder packs a relay host that breaks 11.2 (what it can of it) instead of refusing it",
     ["11.1[Encoder refusals]", "11.2[Relay host]"]),
    ("11.1.encodeZeroPort", "the encoder writes a port of 0", ["11.1[Encoder refusals]"]),
    ("11.1.encodeNoRoute", "the encoder writes a token with neither a direct address nor a relay (flags 0)",
     ["11.1[Encoder refusals]"]),
    ("11.1.encodeTooLong", "the encoder writes a token of more than 32 bytes", ["11.1[Encoder refusals]"]),
    ("11.1.encodeTooLongError", "the encoder's tooLong refusal is the error unsupportedRendezvous, not rendezvousTooLong",
     ["11.1[Encoder refusals]"]),
])

_rules("11.2 relay host packing", [
    ("11.2.hostRules", "the host rules are not checked (only the length)", ["11.2[Relay host]", "11.2[relayHost.invalid]"]),
    ("11.2.maxLength", "hosts of 43 characters are accepted", ["11.2[Relay host]"]),
    ("11.2.alphabet", "symbols 37 and 38 are '.' and '-' (swapped)", ["11.2.1"]),
    ("11.2.padFront", "the last group is filled with pads at its front instead of its end", ["11.2.2"]),
    ("11.2.radix", "groups are base 40 instead of 39", ["11.2.3"]),
    ("11.2.endian", "groups are written and read little-endian", ["11.2.3"]),
    ("11.2.odd", "an odd byte count is accepted (the last byte ignored)", ["11.2[relayHost.oddLength]"]),
    ("11.2.oddOrder", "the byte count is checked after the groups", ["11.2[relayHost.oddLength]"]),
    ("11.2.range", "a group value of 59319 or more is reduced mod 59319 instead of refused",
     ["11.2[relayHost.groupOutOfRange]"]),
    ("11.2.rangeOrder", "within a group, the value is checked after the pad rules", ["11.2[relayHost.groupOutOfRange]"]),
    ("11.2.groupByGroup", "every group's value is checked before any group's pads (not group by group)",
     ["11.2[relayHost.groupOutOfRange]", "11.2[relayHost.misplacedPad]"]),
    ("11.2.padGroup", "a group of only pads is accepted", ["11.2[relayHost.padGroup]"]),
    ("11.2.padGroupOrder", "a misplaced pad is looked for before the group of only pads",
     ["11.2[relayHost.padGroup]", "11.2[relayHost.misplacedPad]"]),
    ("11.2.padEnd", "a pad is accepted anywhere", ["11.2[relayHost.misplacedPad]"]),
    ("11.2.digitLabels", "a host of digits-only labels is taken for an IPv4 address and refused when it is not one "
                         "(999.1.1.1)", []),
    ("11.2.hostRulesEarly", "the host rules are applied to the characters so far after each group (not last)",
     ["11.2[relayHost.invalid]"]),
])

_rules("11.3 transport keys", [
    ("11.3.salt", "transportPRK = HKDF-Extract(salt = commitment, IKM = TH0) (swapped)", ["11.3[transportPRK]"]),
    ("11.3.labels", "the labels of the admission key and the session hint are swapped",
     ["11.3[admissionKey]", "11.3[sessionHint]"]),
    ("11.3.admissionKeyLength", "the admission key has 16 bytes", ["11.3[admissionKey]"]),
    ("11.3.lengths", "the session hint has 16 bytes", ["11.3[sessionHint]"]),
    ("11.3.relayTokenLabel", "the relay token's label is \"AH4 relay\"", ["11.3[relayToken]"]),
    ("11.3.senderSideLength", "the relay sender side has 16 bytes", ["11.3[senderSide]"]),
])

_rules("11.4 admission", [
    ("11.4.challengeMagic", "the challenge's magic is AH4B", ["11.4[challenge]"]),
    ("11.4.challengeOrder", "the challenge puts the nonce before the session hint", ["11.4[challenge]"]),
    ("11.4.tagMessage", "the admission HMAC leaves out the \"AH4 admission\" label", ["11.4[response]"]),
    ("11.4.tagLength", "the response carries the whole 32-byte HMAC", ["11.4[response]"]),
    ("11.4.magic", "the response's magic is AH4A", ["11.4[response]"]),
    ("11.4.freshNonce", "the sender reuses one challenge nonce for every connection", ["11.4[A1]"]),
    ("11.4.receiverLength", "the receiver reads 32 bytes (a 20-byte nonce)", ["11.4[A2]"]),
    ("11.4.magicCheck", "the receiver does not check the challenge's magic", ["11.4[A3]"]),
    ("11.4.hintFirst", "the receiver checks the session hint before the magic", ["11.4[A3]", "11.4[A4]"]),
    ("11.4.hintCheck", "the receiver answers a challenge with another session hint", ["11.4[A4]"]),
    ("11.4.answerNonce", "the receiver takes everything after the magic (hint and nonce) as the challenge nonce",
     ["11.4[A5]"]),
    ("11.4.senderWhole", "the sender takes every byte the receiver sent before its close as the response (20 right bytes "
                         "followed by framing are refused)", ["11.4[A6]"]),
    ("11.4.senderShort", "the sender compares the bytes it got when the receiver closes before 20 (19 right bytes admit)",
     ["11.4[A6]"]),
    ("11.4.senderMagic", "the sender compares only the tag, not the response's magic", ["11.4[A6]"]),
    ("11.4.senderTagPrefix", "the sender compares only the first 8 bytes of the tag", ["11.4[A6]"]),
    ("11.4.deadline", "the admission deadline is 50 s instead of 5 s", ["11.4[A7]"]),
    ("11.4.retry", "a connection closed before its challenge is not made again", ["11.4[A8]"]),
])

_rules("11.10 DNS-SD on the local network", [
    ("11.10.serviceType", "the service type is _accounthandoff._udp", []),
    ("11.10.nameSpace", "the instance name has no space before the 3 digits", []),
    ("11.10.txtOrder", "the TXT record is np=NNN, v=4 (and read in either order)", []),
    ("11.10.wireLength", "a TXT string's length byte counts itself", []),
    ("11.10.wireOverrun", "a TXT length running past the record's end is cut short instead of refused", []),
    ("11.10.nameDigits", "the instance name's digits may be any Unicode digits", []),
    ("11.10.digitCount", "the instance name may hold 1 to 4 digits", []),
    ("11.10.nameCase", "the instance name is compared without case", []),
    ("11.10.nameSpaces", "the instance name may hold any number of spaces before its digits", []),
    ("11.10.txtCount", "TXT strings after the second are ignored", []),
    ("11.10.version", "any v= string is accepted as the version", []),
    ("11.10.txtDigits", "np= may hold 1 to 3 digits", []),
    ("11.10.anyDomain", "a service of any domain is ours", []),
    ("11.10.rootLabel", "the domain local. (with its root label) is not ours", []),
    ("11.10.nameplateMatch", "the TXT record's nameplate need not be the instance name's", []),
    ("11.10.ipv4Only", "a service with an address that is not IPv4 is ours", []),
    ("11.10.portZero", "a service with port 0 is ours", []),
    ("11.10.typedOnly", "services of every nameplate are counted, not only the typed one", []),
    ("11.10.portDistinct", "one address with two ports counts as one", []),
    ("11.10.sameEndpoint", "one address and port found twice counts as two", []),
    ("11.10.several", "with several addresses or ports the receiver connects to the first", []),
])

_rules("11.7 relay handshake", [
    ("11.7.literalLeadingZero", "a relay host with a leading zero in a label (10.077.0.1) is used as an address",
     []),
    ("11.7.literalRange", "a relay host with a label above 255 (999.1.1.1) is used as an address (its labels mod 256)",
     []),
    ("11.7.line", "the handshake line puts the side before the relay token", ["11.7[line]"]),
    ("11.7.hexCase", "the handshake line writes uppercase hex", ["11.7[line]"]),
    ("11.7.newline", "the handshake line has no newline at the end", ["11.7[line]"]),
])


# Switches made from the Spec's own tables (spec_rules.py): one per cell of the local-event tables (a
# refused cell accepts the event as a no-op, any other cell refuses it with invalidEvent), one per outcome
# row of 6.4 (its identifiers are reported with a suffix), one per action of 6 (reported under another
# name), and one per receipt status and abort reason of 3.6 (read as an undefined value).
def _from_tables():
    made = []
    for rule, section in spec_rules.RULES_CACHE():
        if " local[" in rule:
            text = spec_rules.CELL_TEXT[rule]
            how = ("accepted as a no-op ([]) instead of refused" if text.startswith("refused")
                   else "refused with invalidEvent instead of: " + (text if len(text) <= 60 else text[:57] + "..."))
            made.append((section, rule, how))
        elif rule.startswith("6.4["):
            made.append(("6.4 outcomes", rule, "the outcomes of this row are reported as <identifier>.x"))
        elif rule.startswith("6["):
            made.append(("6 actions", rule, "the action is reported under another name"))
        elif rule.startswith("3.6[") and rule[-2].isdigit():
            made.append(("3.6 reveal, accept, receipt and abort values", rule, "the value is read as undefined"))
    for section, rule, how in made:
        _rules(section + " (from the Spec's tables)", [(rule, how, [rule])])


_from_tables()

import typed_code_rules  # noqa: E402,F401 - registers the switches of Spec 12 (typed-code.md)

# The normative sentences of the Spec (sentences.py): their switches of no verifier code (UNRUN), and each sentence
# added to the Spec rules of the switches that break it.
def _from_sentences():
    import sentences
    for switch, (section, how, _) in sentences.UNRUN.items():
        _rules(section + " (behaviour no vector holds)", [(switch, how, [])])
    for sentence, switches in sentences.SENTENCES.items():
        for switch in switches:
            if switch not in RULES:
                raise KeyError(f"sentences.py: {sentence} names the unknown switch {switch}")
            RULES[switch][2].append(sentence)


_from_sentences()
