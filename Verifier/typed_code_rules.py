"""The switches of Spec 12 (typed-code.md) for the mutation check; rules.py imports this module, so
they sit in rules.RULES beside the others. UNOBSERVABLE holds the arguments for the switches that no
vector can observe (mutations.py adds them to its own)."""

from rules import _rules

_rules("12.2 check digit", [
    ("12.2.start", "the interim digit starts at 1", ["12.2[interim(digits)]", "12.2[check]"]),
    ("12.2.transposed", "the table is read as table[digit][interim]", ["12.2[interim(digits)]"]),
])

_rules("12.3 drawing a code", [
    ("12.3.nameplateBound", "nameplate draws are rejected from 63999 on", ["12.3.1"]),
    ("12.3.secretBound", "secret draws are rejected from 4289999999 on", ["12.3.2"]),
    ("12.3.endian", "draws are read little-endian", ["12.3.1", "12.3.2"]),
    ("12.3.noRejection", "no draw is rejected", ["12.3.1", "12.3.2"]),
    ("12.3.order", "the secret is drawn before the nameplate", ["12.3.1", "12.3.2"]),
    ("12.3.checkDigit", "the check digit is computed over the secret alone", ["12.3.3"]),
    ("12.3.maxDraws", "63 rejected draws of a part end the draw", ["12.3.4"]),
])

_rules("12.4 forms", [
    ("12.4.padding", "parts are written without their leading zeros", ["12.4[digits]"]),
    ("12.4.groups", "groups of 3, 3 and 5 digits", ["12.4[grouped]", "12.4[spoken]"]),
    ("12.4.words", "spoken groups are separated by \",\" without a space", ["12.4[spoken]"]),
])

_rules("12.5 typed entry", [
    ("12.5.keepHyphens", "hyphens are not removed", ["12.5.1"]),
    ("12.5.allWhitespace", "every kind of white space is removed, not only U+0020", ["12.5.1", "12.5.2"]),
    ("12.5.nonDigits", "characters that are not ASCII digits pass step 2", ["12.5.2"]),
    ("12.5.order", "six characters are recognised as a short code before the digits are checked", ["12.5.2", "12.5.3"]),
    ("12.5.shortCode", "six digits are malformed.typedCode, not typedCodeIsShortCode", ["12.5.3"]),
    ("12.5.length", "10 and 12 digits pass step 4", ["12.5.4"]),
    ("12.5.noCheck", "the Damm check is not made", ["12.5.5"]),
])

_rules("12.6 CPace", [
    ("12.6.dsi", "DSI is \"CPaceRistretto\"", ["12.6[DSI]"]),
    ("12.6.leb", "LEB128 writes the most significant group first", ["12.6[LEB128(n)]"]),
    ("12.6.prependLen", "prepend_len puts the length after the bytes", ["12.6[prepend_len(s)]", "12.6[lv_cat(parts)]"]),
    ("12.6.noPadding", "the generator string has no zero padding", ["12.6[len_zpad]"]),
    ("12.6.paddingOff", "len_zpad leaves out the - 1", ["12.6[len_zpad]"]),
    ("12.6.genOrder", "the generator string puts sid before CI", ["12.6[generator_string]"]),
    ("12.6.hashLength", "the element is derived from the first 32 bytes of the hash (and 32 zeros)",
     ["12.6[g]", "12.6[element_derivation]"]),
    ("12.6.share", "the share is 2y * g", ["12.6[Y]"]),
    ("12.6.scalar32", "a scalar is reduced from the first 32 drawn bytes only", ["12.6[sample_scalar]"]),
    ("12.6.zeroScalar", "a draw that reduces to 0 is kept", ["12.6[sample_scalar]"]),
    ("12.6.scalarMaxDraws", "63 zero draws end the sampling", ["12.6[sample_scalar]"]),
    ("12.6.vfyDecode", "a share that does not decode gives K = G.I (32 zero bytes) and no abort",
     ["12.6[scalar_mult_vfy(y, X)]", "12.6[K]"]),
    ("12.6.vfyIdentity", "an identity K is accepted (as 32 zero bytes)", ["12.6[scalar_mult_vfy(y, X)]", "12.6[K]"]),
    ("12.6.transcriptOrder", "transcript_ir puts Yb's part first", ["12.6[transcript_ir]"]),
    ("12.6.iskLabel", "the ISK label is DSI | \"_isk\"", ["12.6[ISK]"]),
    ("12.6.identityShare", "an identity share y * g is sent as 32 zero bytes", ["12.6[Identity share]"]),
    ("12.6.exposeK", "K leaves the run", ["12.6[Secrets]"]),
])

_rules("12.7 CPace in the typed mode", [
    ("12.7.roles", "the receiving device is the initiator (its share first in the transcript)", ["12.7[Roles]"]),
    ("12.7.prs", "PRS is the nameplate and the secret (10 digits)", ["12.7[PRS]"]),
    ("12.7.ad", "ADa and ADb are \"AD\"", ["12.7[ADa and ADb]"]),
    ("12.7.sid", "the generator is computed with an empty sid", ["12.7[sid]"]),
    ("12.7.ciVersion", "CI names version 3", ["12.7[CI]"]),
    ("12.7.ciOrder", "CI puts the expiry before the nameplate", ["12.7[CI]"]),
    ("12.7.ciPlain", "CI concatenates its fields without lengths", ["12.7[CI]"]),
    ("12.7.routeCode", "the local network's route is 00", ["12.7[CI]"]),
    ("12.7.routeKind", "a relay's route is 01, as the local network's", ["12.7[CI]"]),
])

_rules("12.8 relay token", [
    ("12.8.ikmByte", "IKM starts with the byte 04, not the digit 4", ["12.8[relayPRK]"]),
    ("12.8.salt", "relayPRK = HKDF-Extract(salt = IKM, IKM = \"AH4 typed relay\") (swapped)", ["12.8[relayPRK]"]),
    ("12.8.tokenLabel", "the token's label is \"AH4 typed relay\"", ["12.8[relayToken]"]),
    ("12.8.sideLength", "the sender side has 16 bytes", ["12.8[senderSide]"]),
])

UNOBSERVABLE = {
    "12.6.identityShare": "no password and CI give the identity as generator (probability about 2^-252), so no vector can "
                          "make y * g the identity; CPaceRunTests cover the refusal of identity shares received",
    "12.6.exposeK": "whether a run outputs K is API, not bytes: the vectors record K as test data; CPaceRun has no way to "
                    "return K (only the package-only test hook VectorPrimitives.cpaceSharedPoint does)",
}

_rules("3.8 the typed way's frames", [
    ("3.8.replyOrder", "pakeReply puts Yb before the sid", ["3.8[pakeReply]"]),
    ("3.8.confirmSequence", "pakeConfirm has s2r sequence 2", ["3.8[pakeConfirm]"]),
    ("3.8.refusedSequence", "pakeRefused has s2r sequence 0", ["3.8[pakeRefused]"]),
])

_rules("4.5 the typed way's key schedule", [
    ("4.5.th0tLabel", "TH0t is labelled \"AH4 transcript\" as the QR way's TH0", ["4.5[TH0t]"]),
    ("4.5.hht", "HHt hashes Yb alone", ["4.5[HHt]"]),
    ("4.5.prkSalt", "PRK = HKDF-Extract(salt = ISK, IKM = HHt) (swapped)", ["4.5[PRK]"]),
    ("4.5.confirmLabels", "the two confirmation keys' labels are swapped", ["4.5[receiverConfirmKey]", "4.5[senderConfirmKey]"]),
    ("4.5.directionLabels", "the typed way's s2r and r2s keys use the QR way's labels", ["4.5[s2rKey]", "4.5[r2sKey]"]),
    ("4.5.tagRInput", "tagR is the HMAC of TH0t instead of HHt", ["4.5[tagR]"]),
    ("4.5.tagSInput", "tagS is the HMAC of HHt instead of TH1", ["4.5[tagS]"]),
    ("4.5.chain", "TH1 and TH2 hash the frame alone", ["4.5[TH1]", "4.5[TH2]"]),
])

_rules("6.8 the typed way's rows", [
    ("6.8.replySequence", "a sender reads a pakeReply of any sequence number",
     ["6.8 frame[awaitingHello with the typed way open | pakeReply, sequence other than 0]"]),
    ("6.8.replySid", "a pakeReply of no pending run is ignored as unexpectedMessage instead of unknownTransfer",
     ["6.8 frame[awaitingHello with the typed way open | pakeReply whose sid is no pending run]"]),
    ("6.8.runDeadline", "a run is dropped 11 s after it started instead of 10 s",
     ["6.8 frame[awaitingHello with the typed way open | pakeReply whose sid is no pending run]"]),
    ("6.8.replyShare", "a pakeReply with a bad share counts as a wrong guess (the code retired)",
     ["6.8 frame[awaitingHello with the typed way open | pakeReply whose Yb is no element, or gives the identity K]"]),
    ("6.8.wrongGuessKeepsCode", "a wrong tagR is refused, but the code is kept (no new code, no guess counted)",
     ["6.8 frame[awaitingHello with the typed way open | pakeReply with a wrong tagR (4.5)]"]),
    ("6.8.guessLimit", "the typed way is withdrawn at the fourth wrong guess instead of the third",
     ["6.8 frame[awaitingHello with the typed way open | pakeReply with a wrong tagR (4.5)]"]),
    ("6.8.pairOrder", "pairing sends pakeConfirm before it names the run (pairedByTypedCode second)",
     ["6.8 frame[awaitingHello with the typed way open | pakeReply with the right tagR]"]),
    ("6.8.pairTranscript", "the sender seals the offer bound to TH1 instead of TH2",
     ["6.8 frame[awaitingHello with the typed way open | pakeReply with the right tagR]"]),
    ("6.8.qrWithdraw", "a QR hello in awaitingHello does not withdraw the typed way (no typedWayWithdrawn)",
     ["6.8 frame[awaitingHello with the typed way open | hello passing H1-H4]"]),
    ("6.8.replyLate", "a pakeReply in another live state is ignored as unexpectedMessage before E1",
     ["6.8 frame[other live states | pakeReply]"]),
    ("6.8.initSequence", "a receiver reads a pakeInit of any sequence number",
     ["6.8 frame[awaitingPakeInit | pakeInit, sequence other than 0]"]),
    ("6.8.initClaimFirst", "the code is claimed before Ya is checked to decode",
     ["6.8 frame[awaitingPakeInit | pakeInit]"]),
    ("6.8.initIdentity", "an identity Ya is refused with the shares that do not decode, before the claim",
     ["6.8 frame[awaitingPakeInit | pakeInit]"]),
    ("6.8.claimGivenBack", "a claim is given back when CPace refuses the pakeInit after it",
     []),
    ("6.8.initOther", "a receiver awaiting its pakeInit ends failed.transportLost on a frame of another type",
     ["6.8 frame[awaitingPakeInit | any other type]"]),
    ("6.8.confirmSequence", "a receiver reads a pakeConfirm or pakeRefused of any sequence number",
     ["6.8 frame[awaitingPakeConfirm | pakeConfirm or pakeRefused, sequence other than 1]"]),
    ("6.8.confirmAbsorb", "the receiver does not absorb the pakeConfirm (its transcript stays TH1)",
     ["6.8 frame[awaitingPakeConfirm | pakeConfirm, sequence 1, right tagS]"]),
    ("6.8.wrongTagS", "a wrong tagS is ignored (authenticationFailed) instead of ending the session",
     ["6.8 frame[awaitingPakeConfirm | pakeConfirm with a wrong tagS, or pakeRefused, sequence 1]"]),
    ("6.8.refusedIgnored", "a pakeRefused is ignored (it carries no tag) instead of ending the session",
     ["6.8 frame[awaitingPakeConfirm | pakeConfirm with a wrong tagS, or pakeRefused, sequence 1]"]),
    ("6.8.confirmOther", "a receiver awaiting the confirmation ends typedCodeMismatch on a frame of another type",
     ["6.8 frame[awaitingPakeConfirm | any other type]"]),
    ("6.8.startClaimCheck", "startTyped does not look the code's claim up in the registry",
     []),
    ("6.8.startDeadline", "a typed receiver's deadline before its pakeInit leaves out the skew",
     []),
    ("6.8.expiryOutcome", "the typed receiver's states end failed.transportLost at the expiry instead of expired",
     []),
])
