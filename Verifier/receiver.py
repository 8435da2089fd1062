"""Spec 2.5 and 6.2: the receiver (scan, incoming frames, local events), with 5.1 hello and 5.2 reveal."""

import math

import frames
import keyschedule
import plaintexts
import qr
import typed_way
from errors import ProtocolError
from primitives import equal_constant_time, x25519, x25519_public
from rules import broken
from session import FINISHED, Channel, Session, finite

MAX_SKEW = 120
MAX_LIFETIME = 600
LIVE_WITH_CHANNEL = ("awaitingReveal", "awaitingOffer", "reviewingOffer", "awaitingCredentialFrame")
TYPED_STATES = ("awaitingPakeInit", "awaitingPakeConfirm")


class Receiver(Session):
    TELLS_EXPIRY = LIVE_WITH_CHANNEL
    SECTION = "6.2"

    @classmethod
    def scan(cls, binary, payload, expected_intent, skew, random, now, registry=None, local_gate=1):
        """Spec 2.5 steps S0-S7 for a decoded payload; returns (receiver, actions, next deadline) (the arena of
        S5 is an environment the vectors do not refuse)."""

        def clock():
            if not finite(now) and not broken("S0clock"):
                raise ProtocolError("invalidClock")

        def configuration():
            if skew > (MAX_SKEW + 1 if broken("S0skew") else MAX_SKEW) or skew < 0:
                raise ProtocolError("invalidConfiguration")

        if broken("S0order"):
            clock()
            configuration()
        else:
            configuration()
            clock()
        if payload["intent"] != expected_intent and not broken("S1"):
            raise ProtocolError("wrongIntent")
        expiry = payload["expiry"]
        if broken("S.frac") and finite(now):
            now = math.ceil(now)

        def s2():
            margin = 0 if broken("S2skew") else skew
            if (now > expiry + margin) if broken("S2") else (now >= expiry + margin):
                raise ProtocolError("expired")

        def s3():
            margin = 0 if broken("S3skew") else skew
            if (expiry >= now + MAX_LIFETIME + margin) if broken("S3") else (expiry > now + MAX_LIFETIME + margin):
                raise ProtocolError("expiryTooFar")

        if broken("S23order"):
            s3()
            s2()
        else:
            s2()
            s3()
        transfer_id = qr.transfer_id(binary)

        def s4():
            if registry is not None and not broken("S4"):
                registry.claim(transfer_id, expiry)

        if not broken("S4order"):
            s4()
        if broken("S5"):
            random.fill(32)
        self = cls()
        self.private_key = random.fill(32)
        try:
            self.shared = x25519(self.private_key, payload["senderPublicKey"])
        except ProtocolError:
            if not broken("S6"):
                if registry is not None and not broken("S4order"):
                    registry.give_back(transfer_id)
                raise
            self.shared = bytes(32)
        if broken("S4order"):
            s4()
        self.public_key = x25519_public(self.private_key)
        self.binary, self.payload, self.transfer_id, self.expiry, self.skew = binary, payload, transfer_id, expiry, skew
        self.commitment = payload["commitment"]
        self.th0 = keyschedule.th0(binary)
        self.hh = keyschedule.handshake_hash(self.th0, self.public_key)
        self.keys = keyschedule.derive_keys(self.shared, self.commitment, self.hh)
        self.hello_tag = keyschedule.hello_tag(self.keys["helloKey"], self.hh, self.th0)
        body = self.hello_tag + self.public_key if broken("S7") else self.public_key + self.hello_tag
        self.hello = frames.encode("hello", transfer_id, 0, body)
        self.th1 = keyschedule.th1(self.th0, self.hh, self.hello)
        self.channel = Channel("receiver", transfer_id, expiry, self.keys, self.th1)
        self.channel.pair = self.public_key
        self.registry = registry
        self.local_gate = local_gate  # what the accept declares (receiverGate, 3.6)
        self.t = now
        self.state = "awaitingReveal"
        self.account = None
        self.code = None
        self.code_index = None
        self.code_material = None
        actions = [("send", self.hello)]
        if broken("6.2.scanActions"):
            actions.append(("showShortCode", "000000"))
        return self, actions, self.next_deadline()

    @classmethod
    def start_typed(cls, typed_text, route, skew, random, now, registry=None, local_gate=1):
        """Spec 6.8 `startTyped`: state awaitingPakeInit, no action."""
        return typed_way.receiver_start(cls, typed_text, route, skew, random, now, registry, local_gate)

    # ---------------------------------------------------------------- 6.0 hooks

    def expiry_threshold(self):
        if self.state == FINISHED:
            return None
        if self.state == "awaitingImportResult" and not broken("6.0.3importing"):
            return None
        return self.expiry + (0 if broken("6.0.3receiverSkew") else self.skew)

    def expired_outcome(self):
        if self.state in TYPED_STATES and broken("6.8.expiryOutcome"):
            return "failed.transportLost"
        return "expired"

    def expired_comparison(self, t, threshold):
        return t > threshold if broken("6.0.3receiver") else t >= threshold

    def deadline_for_state(self):
        if self.state == "awaitingImportResult" and not broken("6.0.deadlineImporting"):
            return None
        return self.expiry + (0 if broken("6.0.deadlineReceiver") else self.skew)

    # ---------------------------------------------------------------- table rows

    def row(self, event):
        kind = event["type"]
        if kind == "frameReceived":
            return self.receive(event["bytes"])
        state = self.state
        if state in TYPED_STATES:
            return self.typed_local(kind)
        if kind == "accept":
            if state == "reviewingOffer" or (broken("6.2.acceptEarly") and state == "awaitingOffer"):
                gate = 1 if broken("6.2.acceptGate") else self.local_gate
                frame = self.channel.seal("accept", b"" if broken("V.accept") else bytes([gate]))
                self.state = "awaitingCredentialFrame"
                return [("send", frame)]
            return self.refuse(kind)
        if kind == "reject":
            if state in LIVE_WITH_CHANNEL and (state != "awaitingReveal" or broken("6.2.rejectReveal")):
                return self.abort(1 if broken("6.2.rejectReason") else 2, "rejected.local")
            return self.refuse(kind)
        if kind == "cancel":
            if state in LIVE_WITH_CHANNEL or (broken("6.2.cancelImporting") and state == "awaitingImportResult"):
                return self.abort(2 if broken("6.2.cancelReason") else 1, "cancelled.local")
            return self.refuse(kind)
        if kind == "storeUnavailable":
            if state in LIVE_WITH_CHANNEL and state != "awaitingReveal":
                return self.abort(5 if broken("6.2.storeUnavailableReason") else 4, "storeUnavailable.local")
            return self.refuse(kind)
        if kind == "notAuthenticated":
            if state == "reviewingOffer":
                return self.abort(4 if broken("6.2.notAuthenticatedReason") else 5, "notAuthenticated.local")
            return self.refuse(kind)
        if kind == "importFinished":
            if state == "awaitingImportResult" or (broken("6.2.importState") and state == "awaitingCredentialFrame"):
                frame = self.channel.seal("receipt", plaintexts.receipt_plaintext(event["status"]))
                return [("send", frame)] + self.finish("completed." + event["status"])
            return self.refuse(kind)
        if kind == "tick":
            return []
        if kind == "transportLost":
            if broken("6.2.transportLost"):
                return []
            if state == "awaitingImportResult" and not broken("6.2.transportLostImporting"):
                return []
            # Spec 6.2: a connection that closes once the sender's expiry has passed is the sender stopping.
            after = self.t > self.expiry if broken("6.2.transportLostExpiryBound") else self.t >= self.expiry
            if after and not broken("6.2.transportLostExpiry"):
                return self.finish("expired")
            return self.finish("failed.transportLost")
        raise ValueError("unknown event " + kind)

    def typed_local(self, kind):
        """The local table of Spec 6.8 for awaitingPakeInit and awaitingPakeConfirm (no frame: no confirmed keys)."""
        column = typed_way.RECEIVER_COLUMNS.get(kind, "accept, reject, storeUnavailable, notAuthenticated, importFinished")
        mutated = typed_way.mutated_cell(self.state, column)
        if mutated is not None:
            return mutated
        if kind == "cancel":
            return self.finish("cancelled.local")
        if kind == "tick":
            return []
        if kind == "transportLost":
            return self.finish("failed.transportLost" if self.state == "awaitingPakeInit" else "failed.typedCodeUnconfirmed")
        return self.refuse(kind)

    def refuse(self, kind):
        """A refused cell of the local-event table: invalidEvent, state unchanged."""
        raise ProtocolError("invalidEvent")

    def abort(self, reason, outcome):
        frame = self.channel.seal("abort", bytes([reason]))
        return [("send", frame)] + self.finish(outcome)

    def receive(self, data):
        try:
            if broken("6.2.helloOrder") and frames.decode(data)["type"] == "hello":
                raise ProtocolError("unexpectedMessage")
            # Spec 6.8: until a pakeInit names it, a typed session has no transfer ID to check.
            frame = frames.decode(data) if self.transfer_id is None else self.receive_checks(data)
            if frame["type"] == "hello" and not broken("6.2.hello"):
                raise ProtocolError("unexpectedMessage")
            if self.state == "awaitingPakeInit":
                if frame["type"] != "pakeInit":
                    if broken("6.8.initOther"):
                        return self.finish("failed.transportLost")
                    raise ProtocolError("unexpectedMessage")
                return typed_way.receiver_pake_init(self, frame, data)
            if self.state == "awaitingPakeConfirm":
                return typed_way.receiver_pake_confirm(self, frame, data)
            expected = {"awaitingReveal": "reveal", "awaitingOffer": "offer", "awaitingCredentialFrame": "credential"}.get(self.state)
            if broken("6.2.revealState") and self.state == "awaitingOffer" and frame["type"] == "reveal":
                expected = "reveal"
            if broken("6.2.expectReviewing") and self.state == "reviewingOffer":
                expected = "offer"
            importing = self.state == "awaitingImportResult" and not broken("6.2.importing")
            plaintext = self.channel.open(frame, data, expected, accepts_nothing=importing)
        except ProtocolError as error:
            return [("ignored", error.identifier)]
        if frame["type"] == "reveal":
            return self.receive_reveal(plaintext)
        if frame["type"] == "offer":
            try:
                self.account, sender_gate = plaintexts.decode_offer(plaintext)
            except ProtocolError as error:
                if broken("6.2.offerFail"):
                    return [("ignored", error.identifier)]
                if broken("6.2.offerFailAbort"):
                    return self.abort(2, "failed." + error.identifier)
                return self.finish("failed." + error.identifier)
            self.channel.link_id = self.account["linkID"]
            self.state = "awaitingCredentialFrame" if broken("6.2.offerState") else "reviewingOffer"
            return [("showAccount", self.account, 1 if broken("6.2.senderGateShown") else sender_gate)]
        if frame["type"] == "credential":
            try:
                password = plaintexts.decode_credential(plaintext)
            except ProtocolError as error:
                if broken("6.2.credentialFail"):
                    return [("ignored", error.identifier)]
                return self.finish("failed." + error.identifier)
            if not broken("6.2.deliverState"):
                self.state = "awaitingImportResult"
            return [("deliverAccount", self.account, password)]
        if frame["type"] == "hello":  # only with 6.2.hello broken
            return []
        outcome = plaintexts.abort_outcome(plaintext)
        if broken("6.2.abortOutcome") and outcome == "contested":
            outcome = "rejected.peer"
        return self.finish(outcome)

    def receive_reveal(self, nonce):
        """Spec 5.2, the receiver's side."""
        if not equal_constant_time(keyschedule.commitment(nonce), self.commitment) and not broken("K.revealCommitCheck"):
            if broken("6.2.commitmentOutcome"):
                return self.abort(2, "failed.commitmentMismatch")
            return self.finish("failed.commitmentMismatch")
        _, self.code_material = keyschedule.code_material(self.keys["codeKey"], nonce, self.th1, self.hh)
        try:
            self.code_index, self.code = keyschedule.short_code(self.code_material)
        except ProtocolError as error:
            return self.finish("failed." + error.identifier)
        self.state = "reviewingOffer" if broken("6.2.reveal") else "awaitingOffer"
        return [("showShortCode", self.code["digits"])]

    def sealed_frames(self):
        return dict(self.channel.sealed) if self.channel is not None else {}
