"""One switch per normative rule of Spec/, for the mutation check (`verify_vectors.py --mutations`).

Every rule the verifier implements asks `broken(rule)` at the one place where it is applied.
Normally no rule is broken. The mutation run breaks one rule at a time, as described in
RULES, re-runs every vector, and reports whether at least one vector fails: a rule whose
mutation no vector catches is not pinned by the vectors.
"""

ACTIVE = None   # the rule broken in this run, or None
REACHED = set()  # rules whose switch was consulted (a never-consulted switch is reported as such)


def broken(rule):
    """True when `rule` is the one broken in this run."""
    if ACTIVE is None:
        return False
    if rule not in RULES:
        raise KeyError(rule)
    REACHED.add(rule)
    return rule == ACTIVE


# rule id -> (Spec section, how the mutation breaks it). Order is the report's order.
RULES = {}


def _rules(section, entries):
    for rule, how in entries:
        assert rule not in RULES, rule
        RULES[rule] = (section, how)


_rules("README / 4.2 primitives", [
    ("P.hkdfExtractSalt", "HKDF-Extract keys HMAC with the IKM and uses the salt as message (swapped)"),
    ("P.hkdfExpandCounter", "HKDF-Expand starts its block counter at 0 instead of 1"),
    ("P.hkdfLimit", "HKDF-Expand allows outputs longer than 255 x 32 bytes"),
    ("P.x25519LowOrder", "an all-zero X25519 shared secret is accepted"),
])

_rules("2.1-2.3 QR encoding and transfer ID", [
    ("Q.binaryOrder", "the binary form puts senderPublicKey before commitment"),
    ("Q.expiryFloor", "start uses expiry = round(now) + lifetime instead of floor(now) + lifetime"),
    ("Q.digitsTable", "D(n) table off by one for n = 6 (14 digits instead of 15)"),
    ("Q.groupSize", "decimal groups of 6 bytes instead of 7"),
    ("Q.transferIDLabel", "the transfer ID hashes qrBinary without the \"AH2 transfer ID\" label"),
    ("Q.transferIDLength", "the transfer ID is the last 16 bytes of the hash instead of the first"),
    ("Q.drawOrder", "the sender draws its private key before the nonce"),
])

_rules("2.4 QR text decoding", [
    ("2.4.1", "step 1 skipped: no 254-byte cap on the text"),
    ("2.4.1bytes", "step 1 counts characters instead of UTF-8 bytes"),
    ("2.4.1order", "step 1 checked after step 2 (magic first)"),
    ("2.4.2", "step 2 skipped: magic not checked"),
    ("2.4.2case", "step 2 compares the magic case-insensitively"),
    ("2.4.3", "step 3 skipped: non-digits pass (and then fail somewhere else)"),
    ("2.4.3order", "step 3 after step 4 (digit count checked before the digit characters)"),
    ("2.4.4", "step 4 skipped: any digit count accepted (the partial group is read with the fewest bytes that hold it)"),
    ("2.4.5", "step 5 skipped: a group >= 256^n is reduced mod 256^n instead of refused"),
    ("2.4.5order", "step 5 interleaved with step 6: binary decoding of the groups so far runs before a later group is checked"),
])

_rules("2.4 QR binary decoding", [
    ("B1", "B1 skipped: no 103-byte cap"),
    ("B1order", "B1 checked after B12 (as part of trailing bytes)"),
    ("B2", "B2: empty payload reported as malformed.length"),
    ("B3", "B3 accepts version 1 as well as 2"),
    ("B3order", "B3 checked after B5 (intent before version)"),
    ("B4", "B4: missing intent reported as malformed.version"),
    ("B5", "B5 skipped: any intent accepted while decoding"),
    ("B6", "B6: truncated expiry reported as malformed.length"),
    ("B7", "B7: truncated commitment reported as malformed.publicKey"),
    ("B8", "B8: truncated public key reported as malformed.commitment"),
    ("B9", "B9: missing rendezvous length reported as malformed.publicKey"),
    ("B10", "B10 skipped: a rendezvousLength above 32 is accepted"),
    ("B10order", "B10 checked after B11 (truncation first)"),
    ("B11", "B11: truncated rendezvous reported as malformed.trailingBytes"),
    ("B12", "B12 skipped: trailing bytes ignored"),
])

_rules("2.5 scan", [
    ("S0clock", "S0: a non-finite now is accepted"),
    ("S0skew", "S0: skew 121 accepted"),
    ("S0order", "S0: the skew checked before now (invalidConfiguration wins over invalidClock)"),
    ("S1", "S1 skipped: the expected intent is not compared"),
    ("S2", "S2 uses now <= expiry + skew (> instead of >=)"),
    ("S2skew", "S2 ignores the skew (now < expiry)"),
    ("S3", "S3 uses expiry < now + 600 + skew"),
    ("S.frac", "scan rounds now up to whole seconds before S2/S3"),
    ("S3skew", "S3 ignores the skew"),
    ("S23order", "S3 checked before S2"),
    ("S4", "S4 skipped: the receiver registry is not consulted"),
    ("S4record", "S4 checks but does not record the claim"),
    ("S4order", "S4 after S6 (the low-order check comes before the registry)"),
    ("S5", "S5: the receiver draws 32 bytes it discards before its private key"),
    ("S6", "S6 skipped: a small-order sender key is accepted at scan"),
    ("S6giveBack", "S6: the registry claim is kept after lowOrderPublicKey"),
    ("S7", "S7: the hello body is helloTag | receiverPublicKey (fields swapped)"),
])

_rules("3.1-3.3 frames", [
    ("F.headerLayout", "the header puts bodyLength before sequence"),
    ("F1", "F1 skipped: frames over 4096 bytes decode"),
    ("F1bound", "F1 refuses a frame of exactly 4096 bytes"),
    ("F2", "F2: a short frame reported as malformed.frameLength"),
    ("F3", "F3 accepts version 1"),
    ("F3order", "F3 checked after F4"),
    ("F4", "F4 accepts type 8"),
    ("F4reveal", "F4 refuses type 7 (reveal) as unknownMessageType"),
    ("F5", "F5: a short body reported as malformed.trailingBytes"),
    ("F6", "F6 skipped: bytes after the body ignored"),
    ("F56order", "F7 checked before F5/F6"),
    ("F7", "F7 skipped: any bodyLength valid for any type"),
    ("F7hello", "F7: hello body 63..65 accepted"),
    ("F7offer", "F7: an offer body of 16 + 128*k accepted"),
    ("F7offerMin", "F7: an offer body of 16 (empty plaintext) accepted"),
    ("F7credential", "F7: credential body 1024 accepted instead of 1040"),
    ("F7reveal", "F7: reveal body 32 instead of 48"),
    ("F7accept", "F7: accept body 17 accepted"),
    ("F7receipt", "F7: receipt/abort body 18 accepted"),
])

_rules("3.4 offer plaintext", [
    ("O.padBlock", "padding to multiples of 128 instead of 256"),
    ("O.padBoundary", "padded size counts the record without its 2-byte length prefix"),
    ("O.1min", "step 1: a 1-byte plaintext reported as malformed.accountLinkID"),
    ("O.1size", "step 1: the plaintext length is not compared with the padded size"),
    ("O.1zero", "step 1: non-zero padding accepted"),
    ("O.2linkID", "step 2: a truncated link ID reported as malformed.displayName"),
    ("O.2fieldOrder", "step 2 parses emailAddress before displayName"),
    ("O.2utf8", "step 2: invalid UTF-8 decoded with replacement characters"),
    ("O.2utf8surrogates", "step 2: surrogate code points (CESU-style) accepted"),
    ("O.2port", "step 2: a truncated port reported as malformed.imapSecurity"),
    ("O.2security", "step 2: security byte 0 accepted (as TLS)"),
    ("O.2securityPlain", "step 2: security byte 3 accepted"),
    ("O.2trailing", "step 2: bytes after the security byte ignored"),
    ("O.3port", "step 3: port 0 accepted"),
    ("O.3portOrder", "step 3: port 0 refused while parsing (step 2), before the strings are validated"),
    ("O.3fieldOrder", "step 3 validates imapHost first"),
    ("O.3stepOrder", "step 3 (3.7 rules) applied to each string right after parsing it (before later fields are parsed)"),
    ("O.linkIDOrder", "the record puts accountLinkID after the strings"),
])

_rules("3.5 credential plaintext", [
    ("C.encodeEmpty", "the sender accepts an empty password"),
    ("C.encodeMax", "the sender accepts a 1023-byte password"),
    ("C.size", "receiver: a plaintext of the wrong size is not refused"),
    ("C.lengthZero", "receiver: n = 0 accepted"),
    ("C.lengthMax", "receiver: n = 1023 accepted (reads into the padding)"),
    ("C.padding", "receiver: non-zero padding accepted"),
    ("C.paddingError", "receiver: non-zero padding reported as malformed.credential"),
])

_rules("3.6 reveal, receipt and abort values", [
    ("V.receipt", "receipt status 4 accepted as declined"),
    ("V.receiptMap", "receipt statuses 2 and 3 swapped"),
    ("V.abort", "abort reason 4 accepted as contested"),
    ("V.abortMap", "abort reasons 1 and 2 swapped"),
    ("V.abortZero", "abort reason 0 accepted as cancelled"),
])

_rules("3.7 account text", [
    ("T1", "T1 skipped"),
    ("T1bounds", "T1: displayName may be 257 bytes, emailAddress/username 321, imapHost 254"),
    ("T1min", "T1: empty emailAddress/username/imapHost accepted"),
    ("T2", "T2 skipped entirely"),
    ("T2cc", "T2: Cc (controls) accepted"),
    ("T2cf", "T2: Cf (format, bidi controls) accepted"),
    ("T2zs", "T2: Zs other than U+0020 accepted"),
    ("T2zlzp", "T2: Zl, Zp accepted"),
    ("T2co", "T2: Co, Cs accepted"),
    ("T2cn", "T2: Cn (unassigned, noncharacters) accepted"),
    ("T2di", "T2: other Default_Ignorable_Code_Points accepted"),
    ("T2jamo", "T2: conjoining Hangul jamo accepted"),
    ("T3", "T3 skipped: ZWJ/ZWNJ in any context"),
    ("T3zwj", "T3: ZWJ accepted anywhere"),
    ("T3zwnjVirama", "T3: ZWNJ after a virama refused"),
    ("T3zwnjJoining", "T3: ZWNJ between joining letters refused (virama context only)"),
    ("T3zwnjTransparent", "T3: transparent (T) code points not skipped around a ZWNJ"),
    ("T4", "T4 skipped"),
    ("T4edge", "T4: leading/trailing space accepted in displayName/username"),
    ("T4double", "T4: two spaces in a row accepted in displayName/username"),
    ("T4none", "T4: a space accepted in emailAddress/imapHost"),
    ("T5", "T5 skipped"),
    ("T5bound", "T5: refuses 4 consecutive marks (>= 4 instead of > 4)"),
    ("T6", "T6 skipped"),
    ("T6bound", "T6: refuses 64 display units (>= 64)"),
    ("T6weights", "T6: marks and joiners count 1"),
    ("T7", "T7 skipped"),
    ("T7label", "T7: 64-byte labels accepted"),
    ("T7hyphen", "T7: labels starting or ending with '-' accepted"),
    ("T7empty", "T7: empty labels and a trailing dot accepted"),
    ("T7chars", "T7: '_' accepted in labels"),
    ("T.fieldOrder", "3.7 rules checked T2 before T1"),
    ("T.t6BeforeT2", "T6 checked before T2"),
])

_rules("4.1-4.4 key schedule", [
    ("K.th0", "TH0 hashes qrBinary without the \"AH2 transcript\" label"),
    ("K.hh", "HH = SHA-256(receiverPublicKey | TH0) (operands swapped)"),
    ("K.th1", "TH1 chained from HH instead of TH0"),
    ("K.thChain", "later frames are absorbed by hashing the body only"),
    ("K.ikm", "PRK IKM = shared only (commitment left out)"),
    ("K.ikmOrder", "PRK IKM = commitment | shared"),
    ("K.labels", "the s2r and r2s labels swapped"),
    ("K.codeKeyLabel", "codeKey label \"AH2 code\" instead of \"AH2 code key\""),
    ("K.helloTag", "helloTag = HMAC(helloKey, TH0)"),
    ("K.commitment", "commitment without its \"AH2 commitment\" label"),
    ("K.codeSalt", "codePRK salt HH instead of TH1"),
    ("K.codeIKM", "codePRK IKM = nonce | codeKey"),
    ("K.codeBound", "rejection sampling uses <= 4294000000"),
    ("K.codeFirst", "the last accepted candidate is used instead of the first"),
    ("K.codeFail", "all candidates rejected gives code 000000 instead of keyDerivationFailed"),
    ("K.codeForms", "spoken form separates the groups with \" \" instead of \", \""),
    ("K.typed", "typed comparison also strips other whitespace than U+0020"),
    ("K.typedStrict", "typed comparison does not strip spaces"),
    ("K.nonce", "AEAD nonce = sequence(u32) | 8 zero bytes"),
    ("K.adExpiry", "AD leaves out the expiry"),
    ("K.adAbortTH1", "aborts bound to the running TH instead of TH1"),
    ("K.adLinkID", "the link ID is left out of the AD of accept/credential/receipt"),
    ("K.adLinkIDAll", "the link ID is added to the AD of every frame type"),
    ("K.keysDirection", "the sender seals with r2sKey (keys of the two directions swapped)"),
    ("K.absorbAbort", "abort frames are absorbed into TH"),
    ("K.absorbBeforeOpen", "a received frame is absorbed before the AD for it is computed"),
    ("K.sequenceStart", "the receiver's first encrypted frame has sequence 0 (the hello is not counted)"),
    ("K.sequenceAbort", "sending an abort does not advance the send sequence"),
    ("K.revealCommitCheck", "the receiver does not compare the revealed nonce with the commitment"),
])

_rules("5.1 hello at the sender", [
    ("H1", "H1 skipped: the accepted hello again is processed as a new hello"),
    ("H1order", "H1 after H2-H4"),
    ("H2", "H2 skipped: any sequence accepted"),
    ("H2order", "H2 after H4 (authentication first)"),
    ("H3", "H3 skipped: a small-order hello key is accepted (HKDF on zeros)"),
    ("H3order", "H3 before H2"),
    ("H4", "H4 skipped: any hello tag accepted"),
])

_rules("5.3 encrypted frames", [
    ("E1", "E1 skipped: an old sequence number is accepted (if it authenticates)"),
    ("E1error", "E1: an old sequence reported as outOfOrder"),
    ("E2", "E2 skipped: a sequence number ahead is accepted"),
    ("E2abort", "E2: an abort may not skip ahead"),
    ("E12order", "E3 checked before E1/E2"),
    ("E3", "E3 skipped: any type is opened in any state"),
    ("E3order", "E4 before E3 (open first, then type check)"),
    ("E4", "E4: an AEAD failure is accepted as an empty plaintext"),
    ("E.advance", "the receive sequence is not advanced after a successful frame"),
])

_rules("6.0 steps before every row", [
    ("6.0.1", "step 1 skipped: a non-finite now is accepted"),
    ("6.0.1max", "step 1: the session uses now as given, not the largest time so far"),
    ("6.0.1back", "step 1: a now below the largest time so far is refused with invalidClock"),
    ("6.0.1frac", "step 1: now is rounded up to whole seconds before comparing (flooring is equivalent for integer thresholds)"),
    ("6.0.2", "step 2 after step 3 (expiry checked before finished)"),
    ("6.0.2frame", "step 2: a frame after the end is refused (thrown sessionFinished) instead of ignored"),
    ("6.0.2cancel", "step 2: cancel after the end is refused sessionFinished"),
    ("6.0.2tick", "step 2: tick/transportLost after the end are refused sessionFinished"),
    ("6.0.2local", "step 2: other local events after the end give [] instead of being refused sessionFinished"),
    ("6.0.1order", "step 1 after step 2 (a finished session ignores the clock check)"),
    ("6.0.3sender", "sender expiry uses t > expiry"),
    ("6.0.3receiptWait", "sender in awaitingReceipt expires at expiry, not expiry + 120"),
    ("6.0.3receiptWaitBound", "sender in awaitingReceipt expires at t > expiry + 120"),
    ("6.0.3receiver", "receiver expiry uses t > expiry + skew"),
    ("6.0.3receiverSkew", "receiver expiry ignores the skew"),
    ("6.0.3importing", "receiver in awaitingImportResult expires too"),
    ("6.0.3beforeRow", "expiry checked after the table row (only when the row did not finish)"),
    ("6.0.3outcome", "sender in awaitingReceipt expires as plain expired"),
    ("6.0.deadline", "next deadline: sender expiry + 120 in every state"),
    ("6.0.deadlineReceipt", "next deadline: sender in awaitingReceipt reports expiry"),
    ("6.0.deadlineReceiver", "next deadline: receiver reports expiry without skew"),
    ("6.0.deadlineImporting", "next deadline: receiver in awaitingImportResult reports expiry + skew"),
    ("6.0.deadlineFinished", "next deadline: a finished session reports its last deadline"),
    ("6.0.frame2", "frame events: the transfer-ID check before decoding errors (decode error ignored as unknownTransfer when the ID differs)"),
    ("6.0.frame2skip", "frame events: the transfer ID is not checked"),
])

_rules("6.1 sender start", [
    ("6.1.start1", "start: a non-finite now accepted"),
    ("6.1.start1neg", "start: a negative start time accepted"),
    ("6.1.start1max", "start: floor(now) + lifetime may reach 2^32"),
    ("6.1.start2", "start: lifetime 29 and 601 accepted"),
    ("6.1.start12order", "start: the lifetime checked before the clock"),
    ("6.1.startAccount", "start: the account is not validated (3.7, port 0)"),
    ("6.1.startRendezvous", "start: a rendezvous token of 33 bytes is accepted"),
    ("6.1.startBuildOrder", "start: the rendezvous token is checked before the account"),
    ("6.1.startBuildLast", "start: account and rendezvous are checked after steps 1-2 (clock, lifetime)"),
    ("6.1.start4", "start: the sender registry is not consulted"),
    ("6.1.start4record", "start: the ID is not registered"),
])

_rules("6.1 sender table", [
    ("6.1.helloFirst", "awaitingHello + valid hello: showShortCode before send(reveal)"),
    ("6.1.helloReveal", "awaitingHello + valid hello: no reveal sent"),
    ("6.1.revealTranscript", "the reveal is not absorbed (TH stays TH1)"),
    ("6.1.earlyOrder", "awaitingHello: a non-hello frame is refused (unexpectedMessage) before its transfer ID is checked"),
    ("6.1.nonHelloEarly", "awaitingHello + another type: E1-E4 attempted (no keys: ignored authenticationFailed)"),
    ("6.1.contested", "second valid hello before the credential: only the second device gets an abort"),
    ("6.1.contestedSecond", "second valid hello before the credential: no reply to the second device"),
    ("6.1.contestedSequence", "abort to the second device uses the established channel's sequence"),
    ("6.1.contestedOrder", "second valid hello: reply before send"),
    ("6.1.lateHello", "second valid hello after the credential: session ends contested"),
    ("6.1.lateHelloWarn", "second valid hello after the credential: no anotherDeviceJoined"),
    ("6.1.lateHelloRepeat", "the same second-device hello again after the credential: answered again (instead of ignored as replayed, H1)"),
    ("6.1.accept", "accept: next state awaitingReceipt"),
    ("6.1.expectCodeConfirmation", "awaitingCodeConfirmation expects an accept (E3 lets it through)"),
    ("6.1.expectCredential", "awaitingCredential expects a receipt (E3 lets it through)"),
    ("6.1.receipt", "receipt status outside 1..3 reported as completed.declined"),
    ("6.1.receiptUnconfirmed", "bad receipt status: failed.malformed.receiptStatus without deliveredUnconfirmed"),
    ("6.1.abortUnconfirmed", "abort in awaitingReceipt: plain outcome without deliveredUnconfirmed"),
    ("6.1.codeConfirmed", "codeConfirmed in awaitingAccept sends another offer"),
    ("6.1.codeRejectedHello", "codeRejected in awaitingHello finishes rejected.local"),
    ("6.1.codeRejectedReceipt", "codeRejected in awaitingReceipt sends abort(2)"),
    ("6.1.codeRejectedReason", "codeRejected seals abort(1)"),
    ("6.1.cancelHello", "cancel in awaitingHello refused invalidEvent"),
    ("6.1.cancelReason", "cancel seals abort(2)"),
    ("6.1.cancelReceipt", "cancel in awaitingReceipt sends abort(1)"),
    ("6.1.cancelReceiptOutcome", "cancel in awaitingReceipt finishes cancelled.local"),
    ("6.1.credentialState", "credentialProvided accepted in awaitingAccept"),
    ("6.1.credentialLength", "credentialProvided with a bad length finishes failed.malformed.credential"),
    ("6.1.transportLost", "transportLost is a no-op at the sender"),
    ("6.1.transportLostReceipt", "transportLost in awaitingReceipt finishes failed.transportLost"),
    ("6.1.tick", "tick in a live state finishes expired"),
    ("6.1.invalidEvent", "refused local events report sessionFinished instead of invalidEvent"),
])

_rules("6.2 receiver table", [
    ("6.2.scanActions", "scan: showShortCode right away (version-1 behaviour)"),
    ("6.2.hello", "a hello at the receiver is processed with E1-E4"),
    ("6.2.helloOrder", "a hello at the receiver is refused (unexpectedMessage) before its transfer ID is checked"),
    ("6.2.revealState", "a reveal is accepted in awaitingOffer"),
    ("6.2.reveal", "a reveal: next state reviewingOffer"),
    ("6.2.commitmentOutcome", "commitment mismatch: an abort(2) is sent"),
    ("6.2.offerState", "an offer that decodes: next state awaitingCredentialFrame (no review)"),
    ("6.2.deliverState", "a valid credential: state stays awaitingCredentialFrame"),
    ("6.2.expectReviewing", "reviewingOffer expects an offer (E3 lets a second offer through)"),
    ("6.2.offerFail", "an undecodable offer is ignored instead of ending the session"),
    ("6.2.offerFailAbort", "an undecodable offer: an abort(2) is sent"),
    ("6.2.credentialFail", "an invalid credential is ignored"),
    ("6.2.importing", "awaitingImportResult: an abort is still accepted"),
    ("6.2.codeConfirmed", "codeConfirmed accepted in awaitingOffer (accept before the account is shown)"),
    ("6.2.codeRejectedReveal", "codeRejected in awaitingReveal sends abort(2)"),
    ("6.2.codeRejectedReason", "codeRejected seals abort(1)"),
    ("6.2.cancelReason", "cancel seals abort(2)"),
    ("6.2.cancelImporting", "cancel in awaitingImportResult finishes cancelled.local"),
    ("6.2.importState", "importFinished accepted before the credential arrived"),
    ("6.2.importStatus", "importFinished: receipt status values 2 and 3 swapped"),
    ("6.2.transportLost", "transportLost is a no-op at the receiver"),
    ("6.2.transportLostImporting", "transportLost in awaitingImportResult finishes failed.transportLost"),
    ("6.2.abortOutcome", "receiver abort reason 3 reported as rejected.peer"),
])

_rules("6.3 registries", [
    ("R.startInUse", "start: an ID already present is accepted (re-registered)"),
    ("R.recordOutcome", "the sender registry does not record finished outcomes"),
    ("R.admitDecode", "admit: decoding errors not checked first (unknownTransfer for a malformed frame)"),
    ("R.admitUnknown", "admit: an unknown ID is admitted"),
    ("R.admitConsumed", "admit: a finished transfer is admitted"),
    ("R.admitExpired", "admit: an expired transfer is admitted"),
    ("R.admitExpiredBound", "admit: expired only when now > expiry"),
    ("R.admitOrder", "admit: the expiry checked before the finished check"),
    ("R.admitClock", "admit: a non-finite now accepted"),
    ("R.senderPrune", "sender prune: entries are never forgotten"),
    ("R.senderPruneBound", "sender prune: forgets when expiry + 3600 < now (strict)"),
    ("R.senderPruneAll", "sender prune: forgets pending entries regardless of age"),
    ("R.receiverPrune", "receiver prune: entries are never forgotten"),
    ("R.receiverPruneBound", "receiver prune: forgets when expiry + 3600 < now (strict)"),
    ("R.release", "release does nothing"),
    ("R.releaseAll", "release forgets every claim"),
    ("R.hasClaimed", "hasClaimed always answers false"),
])


_rules("11.1 rendezvous token", [
    ("11.1.flagMask", "flag bits other than 0x01, 0x02 and 0x04 are ignored instead of refused"),
    ("11.1.addressWithoutDirect", "flag 0x02 without 0x01 is accepted"),
    ("11.1.noRoute", "a token with neither 0x01 nor 0x04 is accepted"),
    ("11.1.order", "the flag checks run in reverse order (noRoute first)"),
    ("11.1.loopbackDefault", "without flag 0x02 the direct address is 0.0.0.0 instead of 127.0.0.1"),
    ("11.1.encodeLoopback", "the encoder writes 127.0.0.1 out (flag 0x02) instead of leaving it out"),
    ("11.1.portEndian", "ports are little-endian"),
    ("11.1.zeroPort", "a port of 0 is accepted"),
    ("11.1.fieldOrder", "the relay is read before the direct address"),
    ("11.1.trailing", "bytes after the direct address are accepted when there is no relay"),
])

_rules("11.2 relay host packing", [
    ("11.2.alphabet", "symbols 37 and 38 are '.' and '-' (swapped)"),
    ("11.2.radix", "groups are base 40 instead of 39"),
    ("11.2.odd", "an odd byte count is accepted (the last byte ignored)"),
    ("11.2.range", "a group value of 59319 or more is reduced mod 59319 instead of refused"),
    ("11.2.padGroup", "a group of only pads is accepted"),
    ("11.2.padEnd", "a pad is accepted anywhere"),
    ("11.2.hostRules", "the host rules are not checked (only the length)"),
    ("11.2.maxLength", "hosts of 43 characters are accepted"),
])

_rules("11.3 transport keys", [
    ("11.3.salt", "transportPRK = HKDF-Extract(salt = commitment, IKM = TH0) (swapped)"),
    ("11.3.labels", "the labels of the admission key and the session hint are swapped"),
    ("11.3.lengths", "the session hint has 16 bytes"),
])

_rules("11.4 admission", [
    ("11.4.challengeOrder", "the challenge puts the nonce before the session hint"),
    ("11.4.tagMessage", "the admission HMAC leaves out the \"AH3 admission\" label"),
    ("11.4.tagLength", "the response carries the whole 32-byte HMAC"),
    ("11.4.magic", "the response's magic is AH3A"),
    ("11.4.hintCheck", "the receiver answers a challenge with another session hint"),
])

_rules("11.7 relay handshake", [
    ("11.7.line", "the handshake line puts the side before the relay token"),
    ("11.7.hexCase", "the handshake line writes uppercase hex"),
    ("11.7.newline", "the handshake line has no newline at the end"),
])


# Every refused cell of the local-event tables (6.1, 6.2): the mutation accepts the event as a no-op ([]).
SENDER_REFUSED = {"codeConfirmed": ["awaitingHello", "awaitingAccept", "awaitingCredential", "awaitingReceipt"],
                  "codeRejected": ["awaitingHello", "awaitingReceipt"],
                  "credentialProvided": ["awaitingHello", "awaitingCodeConfirmation", "awaitingAccept", "awaitingReceipt"]}
RECEIVER_REFUSED = {"codeConfirmed": ["awaitingReveal", "awaitingOffer", "awaitingCredentialFrame", "awaitingImportResult"],
                    "codeRejected": ["awaitingReveal", "awaitingImportResult"],
                    "cancel": ["awaitingImportResult"],
                    "importFinished": ["awaitingReveal", "awaitingOffer", "reviewingOffer", "awaitingCredentialFrame"]}
_rules("6.1 sender table", [(f"6.1.refuse.{event}.{state}", f"{event} in {state} accepted as a no-op instead of refused invalidEvent")
                            for event, states in SENDER_REFUSED.items() for state in states])
_rules("6.2 receiver table", [(f"6.2.refuse.{event}.{state}", f"{event} in {state} accepted as a no-op instead of refused invalidEvent")
                              for event, states in RECEIVER_REFUSED.items() for state in states])
