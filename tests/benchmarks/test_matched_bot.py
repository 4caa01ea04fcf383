"""The matched bare bot sends the real bot's very requests, and the check that says so can fail."""

from __future__ import annotations

import dataclasses

import pytest

from benchmarks.bare_bots import BareHarness, Replay, Step, check_replayed, matched_of, post_publics
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
