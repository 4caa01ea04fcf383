"""The matched bare bot sends the real bot's very requests, and the check that says so can fail."""

from __future__ import annotations

import dataclasses

import pytest

from benchmarks.bare_bots import BareHarness, Replay, Step, check_replayed, matched_of, post_publics
from benchmarks.cost_loads import matched_act
from benchmarks.side_by_side import Options, capture
from emulator.records import RequestRecord

OPTIONS = Options(["booster"], runs=1, users=2, rounds=2, baseline=2, rates=[10.0], seconds=1.0, seed=1)


async def _replayed(load: str, replay: Replay) -> None:
    matched = BareHarness(replay=replay)
    await matched.start()
    try:
        users = [matched.user(f"joueur{i:03d}") for i in range(2)]
        publics = await post_publics(matched, users[::2]) if load == "pillz" else {}
        await check_replayed(matched, matched_of(matched, load, publics), users[0], replay)
        assert matched.unexpected_errors == []
        matched.emu.assert_no_errors()
    finally:
        await matched.stop()


async def test_a_booster_is_replayed_with_its_picture() -> None:
    replay = await capture("booster", OPTIONS)
    ((respond,),) = replay.exchanges
    assert respond.kind == "respond"
    assert [name for name, _ in respond.files] == ["booster.png"]
    assert respond.files[0][1].startswith(b"\x89PNG")
    await _replayed("booster", replay)


async def test_a_pillz_move_is_replayed_as_three_interactions_and_the_public_edit() -> None:
    replay = await capture("pillz", OPTIONS)
    kinds = [[step.kind for step in steps] for steps in replay.exchanges]
    assert kinds == [["respond"], ["update"], ["defer_update", "edit_original", "edit_public"]]
    assert replay.public is not None
    await _replayed("pillz", replay)


async def test_another_reply_than_the_captured_one_is_refused() -> None:
    replay = await capture("profile", OPTIONS)
    matched = BareHarness(replay=replay)
    await matched.start()
    try:
        user = matched.user("joueur000")
        (first,) = replay.exchanges[0]
        other = dataclasses.replace(first, body={**first.body, "content": "autre chose"})
        altered = Replay([[other]], commands=dict(replay.commands))
        with pytest.raises(SystemExit, match="OTHER REQUESTS"):
            await check_replayed(matched, matched_of(matched, "profile", {}), user, altered)
    finally:
        await matched.stop()


def test_a_request_it_cannot_replay_is_refused() -> None:
    callback = RequestRecord("POST", "/interactions/1/token/callback", {}, {"type": 4, "data": {}})
    thread = RequestRecord("POST", "/channels/5/threads", {}, {"name": "x"})
    assert Replay.of([callback], []).exchanges == [[Step("respond", {})]]
    with pytest.raises(SystemExit, match="not replayed"):
        Replay.of([callback, thread], [])


def test_a_message_the_bot_sends_to_a_channel_is_replayed_without_its_nonce() -> None:
    """discord.py draws a new nonce for every message it sends: the matched bot's cannot be the real one's."""
    callback = RequestRecord(
        "POST", "/interactions/1/tok/callback", {}, {"type": 4, "data": {"content": "a"}}
    )
    sent = RequestRecord("POST", "/channels/7/messages", {}, {"content": "b", "nonce": "123", "tts": False})
    replay = Replay.of([callback, sent], [])
    assert replay.exchanges == [
        [Step("respond", {"content": "a"}), Step("send", {"content": "b", "tts": False})]
    ]


async def test_an_ordered_replay_answers_each_interaction_in_turn() -> None:
    """The command costs' matched bot: a command of a nested group, then a click on its reply answered by
    an edit that drops the message's files (`attachments: []`, as the real bot sends it)."""
    button = {"type": 2, "style": 1, "disabled": False, "label": "Suite", "custom_id": "essai:suite:1"}
    sent = {"tts": False, "allowed_mentions": {"parse": []}}  # what discord.py adds to every message
    row = {"type": 1, "components": [button]}
    first = Step("respond", {**sent, "content": "un", "components": [row], "flags": 64})
    second = Step("update", {**sent, "content": "deux", "components": [], "attachments": []})
    script: list[tuple[str, str, tuple[str, ...]]] = [
        ("command", "jeu essai voir", ()),
        ("click", "essai:suite:1", ()),
    ]
    replay = Replay(
        [[first], [second]],
        commands={"jeu essai voir": 0},
        buttons={"essai:suite:1": 0},
        ordered=True,
        script=script,
    )
    matched = BareHarness(replay=replay)
    await matched.start()
    try:
        user = matched.user("joueur000")
        act = matched_act(matched.emu, replay)
        await check_replayed(matched, lambda u: act(u, 0), user, replay)
        assert matched.unexpected_errors == []
        matched.emu.assert_no_errors()
    finally:
        await matched.stop()
