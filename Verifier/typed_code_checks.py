"""Checks of typed-code.json (Spec 12), and of the CPace draft's own vectors for the suite, which
are vendored unchanged in Tests/Test Vectors/cpace/ (their README gives upstream and licence)."""

import base64
import json
import os
import re

import cpace
import typed_code
from checks import CHECKS, h
from errors import outcome_of
from primitives import SplitMix64
from rules import broken

DRAFT_DIRECTORY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Test Vectors", "cpace")


class Script:
    """Vectors/README.md `script`: whole blocks handed out in order, one per request."""

    def __init__(self, blocks):
        self.blocks = [h(block) for block in blocks]
        self.used = 0

    def draw(self, count):
        block = self.blocks[self.used]
        self.used += 1
        if len(block) != count:
            raise ValueError(f"a scripted block of {len(block)} bytes for a draw of {count}")
        return block


def source(entry):
    """(draw, script): the entry's random source, and its Script (None for a seed)."""
    if "seed" in entry:
        return SplitMix64(entry["seed"]).fill, None
    script = Script(entry["script"])
    return script.draw, script


def check_typed_code(vectors):
    CHECKS.equal([list(row) for row in typed_code.TABLE], vectors["dammTable"], "typed-code dammTable")
    for entry in vectors["checkDigits"]:
        CHECKS.equal(typed_code.interim(entry["digits"]), entry["interim"], "typed-code checkDigits " + entry["name"])
    for entry in vectors["codes"]:
        check_code(entry)
    for entry in vectors["entries"]:
        name = "typed-code entries " + entry["name"]
        result = outcome_of(lambda: typed_code.read_entry(entry["typed"]))
        CHECKS.equal(result, entry["result"], name)
        if result == "ok":
            CHECKS.equal(typed_code.read_entry(entry["typed"]), entry["digits"], name + " digits")
    for entry in vectors["channelIdentifiers"]:
        check_channel_identifier(entry)
    for entry in vectors["scalars"]:
        check_scalar(entry)
    for entry in vectors["runs"]:
        check_run(entry)
    for entry in vectors["relay"]:
        ikm, prk, token, side = typed_code.relay_keys(entry["nameplate"])
        name = "typed-code relay " + entry["name"]
        CHECKS.equal([ikm.hex(), prk.hex(), token.hex(), side.hex(), typed_code.relay_line(token, side)],
                     [entry["ikm"], entry["relayPRK"], entry["relayToken"], entry["senderSide"], entry["senderLine"]], name)
    check_cpace_draft()


def check_code(entry):
    name = "typed-code codes " + entry["name"]
    draw, script = source(entry)
    try:
        nameplate_draws, secret_draws, nameplate, secret, check = typed_code.draw_code(draw)
    except Exception as error:  # noqa: BLE001 - a ProtocolError is the expected outcome; anything else fails below
        CHECKS.equal(getattr(error, "identifier", repr(error)), entry.get("error"), name)
        CHECKS.equal(script.used if script else None, len(script.blocks) if script else None, name + ": every recorded draw is drawn")
        return
    if script:
        CHECKS.equal(script.used, len(script.blocks), name + ": every recorded draw is drawn")
    digits = nameplate + secret + str(check)
    grouped, spoken = typed_code.forms(digits)
    CHECKS.equal({"nameplateDraws": nameplate_draws, "secretDraws": secret_draws, "nameplate": nameplate, "secret": secret,
                  "checkDigit": check, "digits": digits, "grouped": grouped, "spoken": spoken},
                 {key: entry.get(key) for key in ("nameplateDraws", "secretDraws", "nameplate", "secret", "checkDigit", "digits",
                                                   "grouped", "spoken")}, name)
    CHECKS.equal(typed_code.interim(digits), 0, name + " checks to 0")


def check_channel_identifier(entry):
    name = "typed-code channelIdentifiers " + entry["name"]
    ci = typed_code.channel_identifier(entry["nameplate"], entry["expiry"], entry["route"], h(entry["transferID"]))
    CHECKS.equal(ci.hex(), entry.get("ci"), name)


def check_scalar(entry):
    name = "typed-code scalars " + entry["name"]
    script = Script(entry["draws"])
    try:
        scalar = cpace.sample_scalar(script.draw).hex()
    except Exception as error:  # noqa: BLE001
        scalar = getattr(error, "identifier", repr(error))
    CHECKS.equal(scalar, entry.get("scalar", entry.get("error")), name)
    CHECKS.equal(script.used, len(script.blocks), name + ": every recorded draw is drawn")
    CHECKS.equal([cpace.reduce_scalar_libsodium(block) for block in script.blocks],
                 [cpace.reduce_scalar(block) for block in script.blocks], name + ": libsodium reduces as the integers do")


def check_run(entry):
    """Both devices of one run, each from its own view (Spec 12.7): code, CI, sid, scalar draw."""
    name = "typed-code runs " + entry["name"]
    views = {}
    for side, role in (("sender", "a"), ("receiver", "b")):
        digits = typed_code.read_entry(entry[side + "Code"])
        ci = typed_code.channel_identifier(digits[:3], entry["expiry"], entry[side + "Route"], h(entry["transferID"]))
        scalar = cpace.sample_scalar(Script([entry[side + "Draw"]]).draw)
        sid = b"" if broken("12.7.sid") else h(entry["sid"])
        generator = cpace.calculate_generator(typed_code.password(digits), ci, sid)
        views[side] = (ci, scalar, generator, cpace.scalar_mult(scalar, generator))
    (sender_ci, ya, g_a, share_a), (receiver_ci, yb, g_b, share_b) = views["sender"], views["receiver"]
    CHECKS.equal([sender_ci.hex(), receiver_ci.hex(), ya.hex(), yb.hex(), g_a.hex(), g_b.hex(), share_a.hex()],
                 [entry["senderCI"], entry["receiverCI"], entry["ya"], entry["yb"], entry["senderGenerator"],
                  entry["receiverGenerator"], entry["Ya"]], name + " inputs, scalars, generators, Ya")
    received = h(entry["Yb"])  # what the sender receives: the receiver's share, or forged bytes
    sid = h(entry["sid"])
    sender_outcome = outcome_of(lambda: cpace.scalar_mult_vfy(ya, received))
    if sender_outcome != "ok":
        CHECKS.equal(sender_outcome, entry.get("senderError"), name + " sender refuses Yb")
        return
    CHECKS.equal(received.hex(), share_b.hex(), name + " Yb is the receiver's share")
    k_a = cpace.scalar_mult_vfy(ya, received)
    k_b = cpace.scalar_mult_vfy(yb, share_a)
    ad = b"AD" if broken("12.7.ad") else b""
    transcript = cpace.transcript_ir(share_a, ad, received, ad)
    if broken("12.7.roles"):  # the receiver as initiator: its share first
        transcript = cpace.transcript_ir(received, ad, share_a, ad)
    isk_a = cpace.intermediate_session_key(sid, k_a, transcript)
    isk_b = cpace.intermediate_session_key(sid, k_b, cpace.transcript_ir(share_a, ad, share_b, ad))
    CHECKS.equal([k_a.hex(), k_b.hex(), transcript.hex(), isk_a.hex(), isk_b.hex(), isk_a == isk_b],
                 [entry.get("K"), entry.get("receiverK"), entry.get("transcript"), entry.get("senderISK"), entry.get("receiverISK"),
                  entry.get("keysMatch")], name + " K, transcript, ISK")
    check_key_schedule(entry, name, h(entry["transferID"]), entry["expiry"], sid, share_a, received, isk_a, isk_b)


def check_key_schedule(entry, name, transfer_id, expiry, sid, ya, yb, sender_isk, receiver_isk):
    """Spec 3.8 and 4.5 from both sides' ISK: the receiver derives tagR and sends pakeReply; the
    sender checks tagR and answers pakeConfirm, or pakeRefused when it does not match."""
    init = typed_code.pake_init(transfer_id, expiry, sid, ya)
    th0t = typed_code.typed_transcript_start(init)
    hht = typed_code.typed_handshake_hash(th0t, yb)
    receiver_prk, receiver_keys = typed_code.typed_keys(receiver_isk, hht)
    tag_r = typed_code.receiver_tag(receiver_keys["receiverConfirmKey"], hht, th0t)
    reply = typed_code.pake_reply(transfer_id, sid, yb, tag_r)
    th1 = typed_code.chain(th0t, reply)
    sender_prk, sender_keys = typed_code.typed_keys(sender_isk, hht)
    accepted = typed_code.receiver_tag(sender_keys["receiverConfirmKey"], hht, th0t) == tag_r
    got = [init.hex(), th0t.hex(), hht.hex(), receiver_prk.hex()] + [receiver_keys[key].hex() for key in
                                                                     ("receiverConfirmKey", "senderConfirmKey", "s2rKey", "r2sKey")]
    got += [tag_r.hex(), reply.hex(), th1.hex(), sender_prk.hex(), accepted]
    keys = ["pakeInit", "th0t", "hht", "receiverPRK", "receiverConfirmKey", "senderConfirmKey", "s2rKey", "r2sKey", "tagR",
            "pakeReply", "th1", "senderPRK", "senderAcceptsTagR"]
    if accepted:
        tag_s = typed_code.sender_tag(sender_keys["senderConfirmKey"], th1, hht)
        confirm = typed_code.pake_confirm(transfer_id, tag_s)
        got += [tag_s.hex(), confirm.hex(), typed_code.chain(th1, confirm).hex()]
        keys += ["tagS", "pakeConfirm", "th2"]
    else:
        got.append(typed_code.pake_refused(transfer_id).hex())
        keys.append("pakeRefused")
    CHECKS.equal(got, [entry.get(key) for key in keys], name + " frames and keys (3.8, 4.5)")


# The draft's vectors (Spec 12.6), read from the vendored files.

def draft_blocks():
    """Every `~~~ test-vectors` block of the vendored draft: base64 of a JSON object on `#` lines."""
    with open(os.path.join(DRAFT_DIRECTORY, "draft-irtf-cfrg-cpace.md"), encoding="utf-8") as handle:
        text = handle.read()
    blocks = []
    for start in [match.end() for match in re.finditer(r"^~~~ test-vectors\n", text, re.M)]:
        body = text[start:text.index("\n~~~", start)]
        encoded = "".join(line.strip().lstrip("#") for line in body.splitlines())
        blocks.append((start, json.loads(base64.b64decode(encoded))))
    return text, blocks


def check_cpace_draft():
    """Every answer of G_Coffee25519 and G_Coffee25519_points, and the string-function and
    ristretto255 generator blocks of the draft."""
    with open(os.path.join(DRAFT_DIRECTORY, "cpace_testvectors.json"), encoding="utf-8") as handle:
        file = json.load(handle)
    text, blocks = draft_blocks()
    by_key = lambda key: next(block for _, block in blocks if key in block)  # noqa: E731
    block = by_key("prepend_len(b'')")
    for key, data in (("prepend_len(b'')", b""), ("prepend_len(b'1234')", b"1234"),
                      ("prepend_len(bytes(range(127)))", bytes(range(127))), ("prepend_len(bytes(range(128)))", bytes(range(128)))):
        CHECKS.equal(cpace.prepend_len(data).hex(), block[key].lower(), "cpace draft " + key)
    block = by_key("lv_cat(b'1234',b'5',b'',b'678')")
    CHECKS.equal(cpace.lv_cat(b"1234", b"5", b"", b"678").hex(), block["lv_cat(b'1234',b'5',b'',b'678')"].lower(), "cpace draft lv_cat")
    block = by_key("o_cat(b'ABCD',b'BCD')")
    CHECKS.equal(cpace.o_cat(b"ABCD", b"BCD").hex(), block["o_cat(b'ABCD',b'BCD')"].lower(), "cpace draft o_cat 1")
    CHECKS.equal(cpace.o_cat(b"BCD", b"ABCDE").hex(), block["o_cat(b'BCD',b'ABCDE')"].lower(), "cpace draft o_cat 2")
    for function, key_name in ((cpace.transcript_ir, "transcript_ir"), (cpace.transcript_oc, "transcript_oc")):
        block = by_key(f"{key_name}(b'123',b'PartyA',b'234',b'PartyB')")
        for ya, yb in ((b"123", b"234"), (b"3456", b"2345")):
            key = f"{key_name}(b'{ya.decode()}',b'PartyA',b'{yb.decode()}',b'PartyB')"
            CHECKS.equal(function(ya, b"PartyA", yb, b"PartyB").hex(), block[key].lower(), "cpace draft " + key)
    heading = text.index("Test vectors for calculate\\_generator with group ristretto255")
    block = next(block for start, block in blocks if start > heading)
    prs, ci, sid = h(block["PRS"]), h(block["CI"]), h(block["sid"])
    CHECKS.equal([h(block["DSI"]), block["H.s_in_bytes"], block["ZPAD length"]], [cpace.DSI, cpace.HASH_BLOCK, cpace.zero_padding_length(prs)],
                 "cpace draft ristretto255 DSI, block size, padding")
    string = cpace.generator_string(prs, ci, sid)
    CHECKS.equal(string.hex(), block["generator_string(G.DSI,PRS,CI,sid,H.s_in_bytes)"].lower(), "cpace draft generator_string")
    CHECKS.equal(cpace.sha512(string).hex(), block["hash result"].lower(), "cpace draft generator hash")
    CHECKS.equal(cpace.calculate_generator(prs, ci, sid).hex(), block["encoded generator g"].lower(), "cpace draft g (draft block)")

    v = {key: h(value) for key, value in file["G_Coffee25519"].items()}
    g = cpace.calculate_generator(v["PRS"], v["CI"], v["sid"])
    ya_share, yb_share = cpace.scalar_mult(v["ya"], g), cpace.scalar_mult(v["yb"], g)
    k_a, k_b = cpace.scalar_mult_vfy(v["ya"], v["Yb"]), cpace.scalar_mult_vfy(v["yb"], v["Ya"])
    ir = cpace.transcript_ir(v["Ya"], v["ADa"], v["Yb"], v["ADb"])
    oc = cpace.transcript_oc(v["Ya"], v["ADa"], v["Yb"], v["ADb"])
    CHECKS.equal([g, ya_share, yb_share, k_a, k_b], [v["g"], v["Ya"], v["Yb"], v["K"], v["K"]], "cpace draft G_Coffee25519 g, Ya, Yb, K both ways")
    CHECKS.equal([cpace.intermediate_session_key(v["sid"], k_a, ir), cpace.intermediate_session_key(v["sid"], k_b, oc)],
                 [v["ISK_IR"], v["ISK_SY"]], "cpace draft G_Coffee25519 ISK_IR, ISK_SY")
    CHECKS.equal([cpace.sid_output(ir), cpace.sid_output(oc)], [v["sid_output_ir"], v["sid_output_oc"]],
                 "cpace draft G_Coffee25519 sid_output_ir, sid_output_oc")
    points = file["G_Coffee25519_points"]
    valid = {key: h(value) for key, value in points["Valid"].items()}
    CHECKS.equal([cpace.scalar_mult(valid["s"], valid["X"]), cpace.scalar_mult_vfy(valid["s"], valid["X"])],
                 [valid["G.scalar_mult(s,decode(X))"], valid["G.scalar_mult_vfy(s,X)"]], "cpace draft points Valid")
    invalid = sorted(key for key in points if key.startswith("Invalid"))
    CHECKS.equal(invalid, ["Invalid Y1", "Invalid Y2"], "cpace draft points: the invalid cases")
    for key in invalid:
        CHECKS.equal(outcome_of(lambda: cpace.scalar_mult_vfy(valid["s"], h(points[key]))), "invalidPakeShare", "cpace draft points " + key)
