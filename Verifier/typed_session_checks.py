"""Checks of the typed way's records of sessions.json (`typedRuns`, `typedHandshakes` and the
handshake frames' annotations) against what this verifier's own parties derived while replaying
the steps (typed_way.py, Spec 6.8, 12.6, 12.7, 3.8, 4.5)."""

import cpace
import typed_code
from checks import CHECKS

HANDSHAKE_FRAMES = ("pakeInit", "pakeReply", "pakeConfirm", "pakeRefused")


def check_handshake_frame(replay, record, data, where):
    """A pakeInit, pakeReply, pakeConfirm or pakeRefused a party built: who, which run or pair."""
    ours = replay.log.frames.get(data)
    if ours is None:
        CHECKS.true(False, where + f" {record.get('type')} was built by the verifier's parties")
        return
    sealed_by, type_name, sequence, field, index = ours
    mine = {"sealedBy": sealed_by, "type": type_name, "sequence": sequence, field: index}
    CHECKS.equal(mine, {key: record.get(key) for key in mine}, where + " annotations")


def check(replay):
    session, log = replay.session, replay.log
    CHECKS.equal(len(log.runs), len(session.get("typedRuns", [])), f"{replay.name}: typed runs")
    CHECKS.equal(len(log.handshakes), len(session.get("typedHandshakes", [])), f"{replay.name}: typed handshakes")
    for run, record in zip(log.runs, session.get("typedRuns", [])):
        mine = {"sender": run["sender"], "route": run["route"], "code": run["code"], "sid": run["sid"].hex(), "ya": run["ya"].hex(),
                "ci": run["ci"].hex(), "generator": run["generator"].hex(), "Ya": run["Ya"].hex(),
                "pakeInit": replay.frame_ids.get(run["pakeInit"])}
        CHECKS.equal(mine, {key: record.get(key) for key in mine}, f"{replay.name}: typed run {run['index']}")
    for pair, record in zip(log.handshakes, session.get("typedHandshakes", [])):
        check_pair(replay, pair, record)


def check_pair(replay, pair, record):
    """The receiver's side as it derived it, and the sender's view of its pakeReply from the run's scalar."""
    run = replay.log.run_of_init(pair["pakeInit"])
    where = f"{replay.name}: typed handshake {pair['index']}"
    if run is None:
        CHECKS.true(False, where + " answers a run the verifier's senders started")
        return
    keys = pair["keys"]
    mine = {"typedRun": run["index"], "receiver": pair["receiver"], "route": pair["route"], "code": pair["code"], "ci": pair["ci"].hex(),
            "yb": pair["yb"].hex(), "generator": pair["generator"].hex(), "Yb": pair["Yb"].hex(), "receiverK": pair["receiverK"].hex(),
            "transcript": pair["transcript"].hex(), "receiverISK": pair["receiverISK"].hex(), "th0t": pair["th0t"].hex(),
            "hht": pair["hht"].hex(), "prk": keys["prk"].hex(), "receiverConfirmKey": keys["receiverConfirmKey"].hex(),
            "senderConfirmKey": keys["senderConfirmKey"].hex(), "s2rKey": keys["s2rKey"].hex(), "r2sKey": keys["r2sKey"].hex(),
            "tagR": pair["tagR"].hex(), "pakeReply": replay.frame_ids.get(pair["pakeReply"]), "th1": pair["th1"].hex()}
    # The run's sender: K from its own scalar, then whether tagR is what its keys give.
    sender_k = cpace.scalar_mult_vfy(run["ya"], pair["Yb"])
    sender_isk = cpace.intermediate_session_key(run["sid"], sender_k, cpace.transcript_ir(run["Ya"], b"", pair["Yb"], b""))
    sender_prk, sender_keys = typed_code.typed_keys(sender_isk, pair["hht"])
    accepts = typed_code.receiver_tag(sender_keys["receiverConfirmKey"], pair["hht"], pair["th0t"]) == pair["tagR"]
    mine.update({"senderK": sender_k.hex(), "senderISK": sender_isk.hex(), "senderAcceptsTagR": accepts})
    if accepts:
        tag_s = typed_code.sender_tag(sender_keys["senderConfirmKey"], pair["th1"], pair["hht"])
        confirm = typed_code.pake_confirm(run_transfer_id(run, replay), tag_s)
        mine.update({"tagS": tag_s.hex(), "th2": typed_code.chain(pair["th1"], confirm).hex()})
        if confirm in replay.frame_ids:
            mine["pakeConfirm"] = replay.frame_ids[confirm]
    CHECKS.equal(mine, {key: record.get(key) for key in mine}, where)
    CHECKS.equal(sorted(record), sorted(mine), where + " fields")


def run_transfer_id(run, replay):
    return replay.parties[run["sender"]].transfer_id
