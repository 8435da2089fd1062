"""Spec 6.8: the typed way of whole sessions, both roles (the sender's runs in awaitingHello, the
receiver's startTyped, awaitingPakeInit and awaitingPakeConfirm), with CPace (12.6, 12.7) and the
typed key schedule (4.5). Written from the Spec; the group operations come from cpace.py.

A `TypedLog` (one per replayed session) numbers the runs the senders start and the handshakes the
receivers answer them with, in the order they happen: the `typedRuns` and `typedHandshakes` of the
session records, which typed_session_checks.py compares with it.
"""

import hashlib
import math

import cpace
import frames
import spec_rules
import typed_code
from errors import ProtocolError
from primitives import equal_constant_time
from rules import broken

MAX_PENDING_RUNS = 8
RUN_DEADLINE = 10
MAX_WRONG_GUESSES = 3
MAX_NAMES_TAKEN = 8
MAX_LIFETIME = 600
SENDER_EVENTS = ("typedRunRequested", "typedRunEnded", "typedNameTaken")


class TypedLog:
    """Every run started and every handshake answered in one session, in order."""

    def __init__(self):
        self.runs = []        # dict per run (sender's side)
        self.handshakes = []  # dict per receiver's answer to a run's pakeInit
        self.frames = {}      # frame bytes -> (sealedBy, type, sequence, field, index)

    def run_of_init(self, pake_init):
        return next((run for run in self.runs if run["pakeInit"] == pake_init), None)

    def handshake_of_reply(self, reply):
        return next((pair for pair in self.handshakes if pair["pakeReply"] == reply), None)


def claim_id(digits):
    """Spec 6.3.1: the first 16 bytes of SHA-256("AH4 typed code claim" | digits)."""
    return hashlib.sha256(b"AH4 typed code claim" + digits.encode("ascii")).digest()[:16]


def draw_code(random):
    """Spec 12.3 from the session's stream; returns the 11 digits."""
    _, _, nameplate, secret, check = typed_code.draw_code(random.fill)
    return nameplate + secret + str(check)


def run_values(digits, expiry, route, transfer_id, sid, scalar):
    """CI, the generator and the share of one side of a run (Spec 12.6, 12.7)."""
    ci = typed_code.channel_identifier(digits[:3], expiry, route, transfer_id)
    generator = cpace.calculate_generator(typed_code.password(digits), ci, sid)
    return ci, generator, cpace.scalar_mult(scalar, generator)


def keys_from(isk, hht):
    prk, keys = typed_code.typed_keys(isk, hht)
    return dict(keys, prk=prk)


# ---------------------------------------------------------------- the sending device (6.8 with 6.1)

def sender_open(sender, routes, random):
    """`start` with typed routes: the first code is drawn after the nonce and the private key."""
    sender.typed_routes = sorted(routes)
    sender.typed = None
    if routes:
        sender.typed = {"routes": set(routes), "code": draw_code(random), "wrongGuesses": 0, "namesTaken": 0, "runs": []}
    sender.typed_random = random


def typed_code_shown(sender):
    typed = getattr(sender, "typed", None)
    return typed["code"] if typed is not None and sender.state == "awaitingHello" else None


def drop_stale_runs(sender):
    typed = sender.typed
    deadline = RUN_DEADLINE + (1 if broken("6.8.runDeadline") else 0)
    typed["runs"] = [run for run in typed["runs"] if sender.t - run["startedAt"] < deadline]


SENDER_COLUMNS = {"typedRunRequested": "typedRunRequested(route)", "typedRunEnded": "typedRunEnded(run)",
                  "typedNameTaken": "typedNameTaken"}
RECEIVER_COLUMNS = {"cancel": "cancel", "tick": "tick", "transportLost": "transportLost"}


def mutated_cell(row, column):
    """The mutation of one cell of 6.8's local tables (rules.py): None when it is not on, else its actions."""
    cell = f"6.8 local[{row} | {column}]"
    spec_rules.RULES_CACHE()
    if not broken(cell):
        return None
    if spec_rules.CELL_TEXT[cell].startswith("refused"):
        return []
    raise ProtocolError("invalidEvent")


def sender_local(sender, kind, event):
    """typedRunRequested, typedRunEnded, typedNameTaken (Spec 6.8's local table)."""
    typed = sender.typed if sender.state == "awaitingHello" else None
    row = "awaitingHello with the typed way open" if typed is not None else "awaitingHello without it, and every other live state"
    mutated = mutated_cell(row, SENDER_COLUMNS[kind])
    if mutated is not None:
        return mutated
    if kind == "typedRunRequested":
        if typed is None or event["route"] not in typed["routes"]:
            raise ProtocolError("invalidEvent")
        drop_stale_runs(sender)
        if len(typed["runs"]) >= MAX_PENDING_RUNS:
            raise ProtocolError("typedRunsBusy")
        sid = sender.typed_random.fill(16)
        ya = cpace.sample_scalar(sender.typed_random.fill)
        ci, generator, share = run_values(typed["code"], sender.expiry, event["route"], sender.transfer_id, sid, ya)
        pake_init = typed_code.pake_init(sender.transfer_id, sender.expiry, sid, share)
        run = {"index": len(sender.log.runs), "sender": sender.name, "route": event["route"], "code": typed["code"], "sid": sid,
               "ya": ya, "ci": ci, "generator": generator, "Ya": share, "pakeInit": pake_init, "startedAt": sender.t}
        sender.log.runs.append(run)
        sender.log.frames[pake_init] = (sender.name, "pakeInit", 0, "typedRun", run["index"])
        typed["runs"].append(run)
        return [("startTypedRun", sid, pake_init)]
    if typed is None:
        return []
    if kind == "typedRunEnded":
        typed["runs"] = [run for run in typed["runs"] if run["sid"] != event["run"]]
        return []
    typed["runs"] = []
    typed["namesTaken"] += 1
    if typed["namesTaken"] > MAX_NAMES_TAKEN:
        sender.typed = None
        return [("typedWayWithdrawn", "namesTaken")]
    typed["code"] = draw_code(sender.typed_random)
    return [("typedCodeReplaced", typed["code"])]


def sender_pake_reply(sender, frame, data):
    """A pakeReply in awaitingHello with the typed way open (Spec 6.8's frame table)."""
    typed = sender.typed
    drop_stale_runs(sender)
    if frame["sequence"] != 0 and not broken("6.8.replySequence"):
        raise ProtocolError("malformed.sequence")
    body = frame["body"]
    sid, yb, tag_r = body[:16], body[16:48], body[48:80]
    run = next((run for run in typed["runs"] if run["sid"] == sid), None)
    if run is None:
        raise ProtocolError("unexpectedMessage" if broken("6.8.replySid") else "unknownTransfer")
    try:
        k = cpace.scalar_mult_vfy(run["ya"], yb)  # invalidPakeShare: ignored, the run stays
    except ProtocolError:
        if not broken("6.8.replyShare"):
            raise
        k = bytes(32)  # counted as a wrong guess below: no tagR matches it
    isk = cpace.intermediate_session_key(sid, k, cpace.transcript_ir(run["Ya"], b"", yb, b""))
    th0t = typed_code.typed_transcript_start(run["pakeInit"])
    hht = typed_code.typed_handshake_hash(th0t, yb)
    keys = keys_from(isk, hht)
    refused = typed_code.pake_refused(sender.transfer_id)
    if not equal_constant_time(typed_code.receiver_tag(keys["receiverConfirmKey"], hht, th0t), tag_r):
        typed["runs"] = []
        if broken("6.8.wrongGuessKeepsCode"):
            return [("reply", refused)]
        typed["wrongGuesses"] += 1
        pair = sender.log.handshake_of_reply(data)
        if pair is not None:
            sender.log.frames.setdefault(refused, (sender.name, "pakeRefused", 1, "typedHandshake", pair["index"]))
        if typed["wrongGuesses"] >= MAX_WRONG_GUESSES + (1 if broken("6.8.guessLimit") else 0):
            sender.typed = None
            return [("reply", refused), ("typedWayWithdrawn", "wrongGuesses")]
        typed["code"] = draw_code(sender.typed_random)
        return [("reply", refused), ("typedCodeRetired", typed["code"], typed["wrongGuesses"])]
    th1 = typed_code.chain(th0t, data)
    confirm = typed_code.pake_confirm(sender.transfer_id, typed_code.sender_tag(keys["senderConfirmKey"], th1, hht))
    pair = sender.log.handshake_of_reply(data)
    if pair is not None:
        sender.log.frames.setdefault(confirm, (sender.name, "pakeConfirm", 1, "typedHandshake", pair["index"]))
    from session import Channel
    sender.channel = Channel("sender", sender.transfer_id, sender.expiry, keys, th1)
    sender.channel.pair = ("typedHandshake", pair["index"] if pair is not None else None)
    sender.channel.th = th1 if broken("6.8.pairTranscript") else typed_code.chain(th1, confirm)
    sender.channel.send_sequence = 2  # pakeInit 0, pakeConfirm 1 (Spec 3.8)
    sender.channel.receive_sequence = 1  # pakeReply 0
    sender.keys = keys
    sender.typed = None
    actions = [("send", confirm), ("pairedByTypedCode", sid)] if broken("6.8.pairOrder") else [("pairedByTypedCode", sid), ("send", confirm)]
    return actions + sender.seal_offer()


# ---------------------------------------------------------------- the receiving device (6.8 with 6.2)

def receiver_start(cls, typed_text, route, skew, random, now, registry, local_gate):
    """Spec 6.8 `startTyped`: the entry of 12.5, the clock, the claim check; state awaitingPakeInit."""
    digits = typed_code.read_entry(typed_text)
    if not (isinstance(now, (int, float)) and math.isfinite(now)):
        raise ProtocolError("invalidClock")
    if registry is not None and registry.has_claimed(claim_id(digits)) and not broken("6.8.startClaimCheck"):
        raise ProtocolError("typedCodeAlreadyUsed")
    self = cls()
    self.typed_digits, self.route, self.skew, self.random, self.registry = digits, route, skew, random, registry
    self.local_gate, self.t, self.state = local_gate, now, "awaitingPakeInit"
    self.expiry = math.floor(now) + MAX_LIFETIME - (skew if broken("6.8.startDeadline") else 0)  # until a pakeInit names it
    self.transfer_id = None
    self.channel = None
    self.account = None
    self.code = None
    return self


def receiver_pake_init(receiver, frame, data):
    """The awaitingPakeInit row of Spec 6.8, in its order; every failure ends without a frame."""
    if frame["sequence"] != 0 and not broken("6.8.initSequence"):
        raise ProtocolError("malformed.sequence")
    body = frame["body"]
    expiry, sid, ya = int.from_bytes(body[:4], "big"), body[4:20], body[20:52]
    now, skew = receiver.t, receiver.skew
    if not now < expiry + skew:
        return receiver.finish("expired")
    if expiry > now + MAX_LIFETIME + skew:
        return receiver.finish("failed.expiryTooFar")
    def claim():
        if receiver.registry is not None:
            receiver.registry.claim(claim_id(receiver.typed_digits), math.floor(now + MAX_LIFETIME + skew))

    try:
        if broken("6.8.initClaimFirst"):
            claim()
        if not cpace.is_element(ya) or (broken("6.8.initIdentity") and ya == bytes(32)):
            return receiver.finish("failed.invalidPakeShare")
        if not broken("6.8.initClaimFirst"):
            claim()
    except ProtocolError:
        return receiver.finish("failed.typedCodeAlreadyUsed")
    transfer_id = frame["transferID"]
    try:
        yb = cpace.sample_scalar(receiver.random.fill)
        ci, generator, share = run_values(receiver.typed_digits, expiry, receiver.route, transfer_id, sid, yb)
        k = cpace.scalar_mult_vfy(yb, ya)
    except ProtocolError as error:
        if broken("6.8.claimGivenBack") and receiver.registry is not None:
            receiver.registry.give_back(claim_id(receiver.typed_digits))
        return receiver.finish("failed." + error.identifier)
    transcript = cpace.transcript_ir(ya, b"", share, b"")
    isk = cpace.intermediate_session_key(sid, k, transcript)
    th0t = typed_code.typed_transcript_start(data)
    hht = typed_code.typed_handshake_hash(th0t, share)
    keys = keys_from(isk, hht)
    tag_r = typed_code.receiver_tag(keys["receiverConfirmKey"], hht, th0t)
    reply = typed_code.pake_reply(transfer_id, sid, share, tag_r)
    th1 = typed_code.chain(th0t, reply)
    pair = {"index": len(receiver.log.handshakes), "receiver": receiver.name, "route": receiver.route,
            "code": receiver.typed_digits, "ci": ci, "yb": yb, "generator": generator, "Yb": share, "receiverK": k,
            "transcript": transcript, "receiverISK": isk, "th0t": th0t, "hht": hht, "keys": keys, "tagR": tag_r,
            "pakeReply": reply, "th1": th1, "pakeInit": data}
    receiver.log.handshakes.append(pair)
    receiver.log.frames[reply] = (receiver.name, "pakeReply", 0, "typedHandshake", pair["index"])
    from session import Channel
    receiver.transfer_id, receiver.expiry = transfer_id, expiry
    receiver.channel = Channel("receiver", transfer_id, expiry, keys, th1)
    receiver.channel.pair = ("typedHandshake", pair["index"])
    receiver.channel.send_sequence = 1  # pakeReply was r2s 0
    receiver.th1, receiver.hht = th1, hht
    receiver.state = "awaitingPakeConfirm"
    return [("send", reply)]


def receiver_pake_confirm(receiver, frame, data):
    """The awaitingPakeConfirm rows of Spec 6.8."""
    if frame["type"] not in ("pakeConfirm", "pakeRefused"):
        if broken("6.8.confirmOther"):
            return receiver.finish("failed.typedCodeMismatch")
        raise ProtocolError("unexpectedMessage")
    if frame["sequence"] != 1 and not broken("6.8.confirmSequence"):
        raise ProtocolError("malformed.sequence")
    if frame["type"] == "pakeRefused":
        if broken("6.8.refusedIgnored"):
            raise ProtocolError("authenticationFailed")
        return receiver.finish("failed.typedCodeMismatch")
    keys = receiver.channel.keys
    expected = typed_code.sender_tag(keys["senderConfirmKey"], receiver.th1, receiver.hht)
    if not equal_constant_time(frame["body"], expected):
        if broken("6.8.wrongTagS"):
            raise ProtocolError("authenticationFailed")
        return receiver.finish("failed.typedCodeMismatch")
    receiver.channel.th = receiver.th1 if broken("6.8.confirmAbsorb") else typed_code.chain(receiver.th1, data)
    receiver.channel.receive_sequence = 2
    receiver.state = "awaitingOffer"
    return []
