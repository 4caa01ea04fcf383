"""/hoss ranked battles against the AI as players see them through Discord: the ladder, the public battle
message and its private decision controls, skipping to the end, the result with its log, a restart in the
middle of a battle, the replay, and milestone notices claimed with their OK button."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from datetime import timedelta
from pathlib import Path

import pytest

from core.clock import ManualClock
from emulator.records import RecordedMessage
from emulator.world import User
from engine.hoss import Move, Pass, Play
from sandbox.harness import BotHarness
from services.hoss.battle.ranked import BattleView, RankedService
from store.connection import Connection
from tests.conftest import MigratedCopy
from tests.e2e.conftest import run_harness
from tests.e2e.hoss.helpers import (
    battle_message,
    decide_once,
    gold,
    hoss,
    ledger_rows,
    start_rank_1,
    with_deck,
)
from tests.e2e.messages import public_answer, shown
from tests.support.harness import here

DEFENDER_SEED = 1


pytestmark = pytest.mark.usefixtures("no_pacing")


def last_ephemeral(h: BotHarness, user: User, needle: str) -> RecordedMessage:
    found = [m for m in h.emu.ephemeral_messages(user) if needle in shown(m)]
    assert found, needle
    return found[-1]


def decide_id(message: RecordedMessage) -> str:
    ids = [str(b.get("custom_id")) for row in message.components for b in row.get("components", [])]
    return next(i for i in ids if i.startswith("hoss:rdecide:"))


async def test_a_full_ranked_battle_with_decisions_then_skip(harness: BotHarness) -> None:
    alice = harness.user("alice")
    await with_deck(harness, alice)
    ladder = await harness.emu.run_command(alice, "hoss rang")
    assert ladder.message is not None
    assert ladder.message.ephemeral
    board = shown(ladder.message)
    assert "**Rang 1** — 0 V / 0 D — jouable — victoire 45 or, défaite 5 or" in board
    assert "**Rang 2** — 0 V / 0 D — verrouillé" in board
    assert ladder.message.button_labels == ["Combattre — Rang 1"]

    public = await start_rank_1(harness, alice)
    battle = await hoss(harness).ranked.current(alice.id)
    assert battle is not None
    text = shown(public)
    assert f"Combat classé n° {battle} — Rang 1" in text
    assert f"À <@{alice.id}> de décider" in text
    assert "Vous" not in text  # a public message names the player
    assert public.button_labels == ["Décider", "Passer à la fin"]
    catalog = hoss(harness).decks.catalog
    now = await hoss(harness).ranked.view(alice.id, battle, here(harness))
    hand = [catalog.card(c.card).name.fr for c in now.snapshot.seats[0].hand_cards or ()]  # type: ignore[union-attr]
    assert hand
    assert not any(name in text for name in hand)

    controls = await harness.emu.click(alice, "Décider")
    assert controls.message is not None
    assert controls.message.ephemeral
    assert all(name in shown(controls.message) for name in hand)
    for _ in range(2):
        chosen = await decide_once(harness, alice)
        assert chosen.startswith(("Jouer", "Passer", "Placer", "Déplacer", "Faire évoluer"))
    text = shown(battle_message(harness))
    assert "**Manche 2**" in text
    assert "entre en jeu" in text
    assert "▰" in text

    before = await gold(harness, alice)
    await harness.emu.click(alice, "Passer à la fin")
    await harness.settle()
    final = battle_message(harness)
    # finished: just its result
    result = await hoss(harness).ranked.skip_to_end(alice.id, battle, here(harness))
    text = shown(final)
    title = {"won": "Victoire de", "lost": "Défaite de", "draw": "Match nul entre"}[result.status]
    assert f"{title} <@{alice.id}> contre IA (Rang 1)" in text
    assert title in text
    assert f"Gain de <@{alice.id}>\u00a0: {result.gold} or" in text
    assert f"**Manche {result.rounds}**" in text
    assert final.button_labels == []
    assert await gold(harness, alice) == before + result.gold
    assert h_ledger_sum(await ledger_rows(harness, alice), "hoss.ranked") == result.gold
    story, attachment = final.attachments  # the battle as text in the server's language, then its JSON
    assert story.filename == f"hoss-battle-{battle}.txt"
    assert f"Manche {result.rounds}\n" in story.data.decode()
    assert attachment.filename == f"hoss-battle-{battle}.json"
    assert attachment.data.decode() == await hoss(harness).ranked.log(alice.id, battle, here(harness))

    replay = await harness.emu.run_command(alice, "hoss revoir", {"id": battle})
    assert replay.message is not None
    assert "Revoir le combat n°" in shown(replay.message)
    assert "**Manche 1**" in shown(replay.message)
    assert replay.message.attachments[0].filename == f"hoss-replay-{battle}.json"


def h_ledger_sum(rows: list[tuple[str, int]], reason: str) -> int:
    return sum(amount for why, amount in rows if why == reason)


async def test_a_foreign_click_on_the_battle_is_refused_privately(harness: BotHarness) -> None:
    alice, bob = harness.user("alice"), harness.user("bob")
    await with_deck(harness, alice)
    public = await start_rank_1(harness, alice)
    before = shown(public)
    for label in ("Décider", "Passer à la fin"):
        refused = await harness.emu.click(bob, label, message=public)
        assert refused.message is not None
        assert refused.message.ephemeral
        assert "Ce message ne vous est pas destiné." in shown(refused.message)
    assert shown(battle_message(harness)) == before
    battle = await hoss(harness).ranked.current(alice.id)
    view = await hoss(harness).ranked.view(alice.id, battle or 0, here(harness))
    assert (view.status, view.pause) == ("live", 1)


async def test_after_two_minutes_the_ai_plays_the_rest_of_the_battle(harness: BotHarness) -> None:
    """A player who stops answering waits 2 minutes once: the AI then plays the rest of the battle for
    them, and the message says so with the result."""
    alice = harness.user("alice")
    await with_deck(harness, alice)
    public = await start_rank_1(harness, alice)
    assert decide_id(public).endswith(":1")
    assert "sinon l'IA joue la fin du combat à sa place" in shown(public)
    assert await harness.advance(timedelta(minutes=2, seconds=1)) == 1
    assert await hoss(harness).ranked.current(alice.id) is None
    text = shown(battle_message(harness))
    assert f"l'IA a joué la fin du combat pour <@{alice.id}>" in text
    assert f"Gain de <@{alice.id}>" in text
    assert battle_message(harness).button_labels == []
    assert await harness.advance(timedelta(minutes=10)) == 0  # no other deadline was armed


async def test_a_battle_survives_a_restart(tmp_path: Path) -> None:
    """The bot stops mid-battle and starts again (Discord keeps its messages): `/hoss combat` shows the
    battle privately at the same pause, and the channel's message is the one that reaches the result."""
    harness = BotHarness(tmp_path / "bot.sqlite3", clock=ManualClock())
    await harness.start()
    try:
        alice = harness.user("alice")
        await with_deck(harness, alice)
        public = await start_rank_1(harness, alice)
        await decide_once(harness, alice)
        await harness.settle()
        before = decide_id(public)
        await harness.restart(timedelta(0))
        shown_again = await harness.emu.run_command(alice, "hoss combat")
        assert shown_again.message is not None
        assert shown_again.message.ephemeral  # the channel keeps its one message
        assert decide_id(shown_again.message) == before  # the same battle, at the same pause
        await decide_once(harness, alice)
        await harness.emu.click(alice, "Passer à la fin", message=public)
        await harness.settle()
        assert battle_message(harness) is public
        assert public.button_labels == []
        assert public.attachments
        assert await hoss(harness).ranked.current(alice.id) is None
        harness.emu.assert_no_errors()
        assert harness.unexpected_errors == []
    finally:
        await harness.stop()


async def test_a_milestone_notice_comes_back_until_ok_credits_it_once(harness: BotHarness) -> None:
    alice = harness.user("alice")
    await with_deck(harness, alice)
    assert harness.bot is not None

    def ninety_nine(conn: Connection) -> None:
        conn.execute("INSERT INTO hoss_rank_progress (player_id, rank, wins) VALUES (?, 1, 99)", (alice.id,))

    await harness.bot.services.db.write(ninety_nine)
    ranked = hoss(harness).ranked
    # Battles until one is won (the Rang 1 AI wins about half of them), played through the service: a
    # /hoss command's notice check runs after its reply (`on_app_command_completion`), so a command here
    # could show the notice of a battle won while that check was still running.
    for attempt in range(40):
        started = await ranked.start(alice.id, 1, key=f"milestone:{attempt}", guild=here(harness))
        if (await ranked.skip_to_end(alice.id, started.battle_id, here(harness))).status == "won":
            break
    else:
        pytest.fail("no battle won")
    await harness.settle()
    assert [m for m in harness.emu.ephemeral_messages(alice) if "Palier atteint" in shown(m)] == []

    await harness.emu.run_command(alice, "hoss rang")
    await harness.settle()
    notice = last_ephemeral(harness, alice, "Palier atteint\u00a0: 100 victoires au Rang 1 ! +100 or.")
    assert notice.button_labels == ["OK"]
    before = await gold(harness, alice)
    await harness.emu.run_command(alice, "hoss rang")  # ignored: it comes back
    await harness.settle()
    again = last_ephemeral(harness, alice, "Palier atteint")
    assert again.id != notice.id
    assert await gold(harness, alice) == before

    claimed = await harness.emu.click(alice, "OK", message=again)
    assert claimed.message is not None
    assert "100 or crédités" in shown(claimed.message)
    assert await gold(harness, alice) == before + 100
    repeat = await harness.emu.click(alice, "OK", message=notice)  # the older copy of the same notice
    assert repeat.message is not None
    assert "Déjà encaissé" in shown(repeat.message)
    assert await gold(harness, alice) == before + 100
    await harness.emu.run_command(alice, "hoss rang")
    await harness.settle()
    assert last_ephemeral(harness, alice, "Palier atteint").id == again.id  # no new notice


async def test_the_battle_message_shows_one_round_per_edit_five_seconds_apart(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Production pacing (5 s) on the bot's clock: each round the AI plays for a player who stopped
    answering is edited in only once the clock passes its time, one per 5 s, and the last one shows the
    result."""
    monkeypatch.setattr(RankedService, "pace", timedelta(seconds=5))
    alice = harness.user("alice")
    await with_deck(harness, alice)
    public = await start_rank_1(harness, alice)
    ranked, guild = hoss(harness).ranked, here(harness)
    battle = await ranked.current(alice.id)
    assert battle is not None
    before = (await ranked.view(alice.id, battle, guild)).round
    await harness.advance(timedelta(minutes=2))  # alice does not answer: the AI plays the rest for her
    rounds = (await ranked.view(alice.id, battle, guild)).round - before
    assert rounds >= 2, "a battle to the end shows several rounds"
    assert f"**Manche {before + 1}**" in shown(public)
    assert public.button_labels == []
    edits = len(public.history)
    for later in range(1, rounds):
        await harness.advance(timedelta(seconds=4.9))
        assert len(public.history) == edits + later - 1  # not yet
        await harness.advance(timedelta(seconds=0.1))
        assert len(public.history) == edits + later
        assert f"**Manche {before + 1 + later}**" in shown(public)
    assert "Gain de " in shown(public)
    assert public.attachments
    await harness.advance(timedelta(minutes=5))
    assert len(public.history) == edits + rounds - 1  # nothing more


async def test_skip_to_the_end_shows_the_final_board_and_result_at_once(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """« Passer à la fin » with production pacing (5 s): the message shows the last round, the result and
    the log in the same breath as the click, without the clock moving."""
    monkeypatch.setattr(RankedService, "pace", timedelta(seconds=5))
    alice = harness.user("alice")
    await with_deck(harness, alice)
    public = await start_rank_1(harness, alice)
    ranked, guild = hoss(harness).ranked, here(harness)
    battle = await ranked.current(alice.id)
    assert battle is not None
    await harness.emu.click(alice, "Passer à la fin")
    await harness.settle()
    result = await ranked.skip_to_end(alice.id, battle, guild)
    assert result.rounds >= 2
    text = shown(public)
    assert f"**Manche {result.rounds}**" in text
    assert f"Gain de <@{alice.id}>" in text
    assert public.button_labels == []
    assert [a.filename for a in public.attachments] == [
        f"hoss-battle-{battle}.txt",
        f"hoss-battle-{battle}.json",
    ]
    edits = len(public.history)
    await harness.advance(timedelta(minutes=5))
    assert len(public.history) == edits  # no round comes after the result


@pytest.fixture
async def seeded_harness(tmp_path: Path, migrated_copy: MigratedCopy) -> AsyncIterator[BotHarness]:
    """A harness whose games draw from a fixed seed: the battle below must reach a Défenseur's move,
    which an unseeded battle does not always do before it ends."""
    async for h in run_harness(BotHarness(migrated_copy(tmp_path / "bot.sqlite3"), seed=DEFENDER_SEED)):
        yield h


async def towards_a_defender(
    h: BotHarness, user: User, done: Callable[[BattleView], bool]
) -> tuple[RankedService, int, int | None, BattleView]:
    """Start alice's Rang 1 battle and play Défenseurs first, then attackers, then passes, until `done`
    holds: the service, the battle, the server and the view then."""
    await with_deck(h, user)
    await start_rank_1(h, user)
    ranked, guild = hoss(h).ranked, here(h)
    battle = await ranked.current(user.id)
    assert battle is not None
    view = await ranked.view(user.id, battle, guild)
    for turn in range(80):
        if done(view):
            return ranked, battle, guild, view
        assert view.status == "live", "the battle ended first"
        plays = [a for a in view.legal if isinstance(a, Play)]
        passes = [a for a in view.legal if isinstance(a, Pass)]
        action = ([a for a in plays if a.protege] or plays or passes or list(view.legal))[0]
        await ranked.answer(user.id, battle, action, key=f"t{turn}", pause=view.pause, guild=guild)
        view = await ranked.view(user.id, battle, guild)
    raise AssertionError("never reached")


async def test_the_defender_button_moves_a_defender_from_the_private_controls(
    seeded_harness: BotHarness,
) -> None:
    harness = seeded_harness
    alice = harness.user("alice")
    ranked, battle, guild, view = await towards_a_defender(
        harness, alice, lambda view: any(isinstance(a, Move) for a in view.legal)
    )
    moves = [a for a in view.legal if isinstance(a, Move)]
    assert moves, "no Défenseur move came up"
    await harness.emu.click(alice, "Décider")  # the message catches up with the battle first
    await harness.settle()
    controls = (await harness.emu.click(alice, "Décider")).message
    assert controls is not None
    assert controls.ephemeral
    assert "Défenseur" in controls.button_labels
    assert not any(o.startswith("Déplacer") for o in controls.select_options)  # behind the button only

    picker = (await harness.emu.click(alice, "Défenseur", message=controls)).message
    assert picker is not None
    assert picker.ephemeral
    assert "dès le prochain coup" in shown(picker)
    catalog = hoss(harness).decks.catalog
    names = {c.uid: catalog.card(c.card).name.fr for c in view.snapshot.seats[0].creatures}  # type: ignore[union-attr]
    move = moves[-1]
    label = f"Déplacer {names[move.defender]} sur {names[move.protege]}"
    assert picker.select_options == [f"Déplacer {names[m.defender]} sur {names[m.protege]}" for m in moves]
    after = (await harness.emu.select(alice, label, message=picker)).message
    assert after is not None
    assert "Votre main" in shown(after)
    await harness.emu.click(alice, "Passer", message=after)
    await harness.settle()
    log = await ranked.log(alice.id, battle, guild)
    assert {"t": 0, "k": "move", "tgt": move.defender, "protege": move.protege} in [
        e for r in json.loads(log)["rounds"] for e in r["events"]
    ]
    public = battle_message(harness)  # the round the move opened was shown, in one of its edits
    states = [shown(public), *(json.dumps(state, ensure_ascii=False) for state in public.history)]
    assert any("se déplace sur" in state for state in states)


async def test_the_defender_button_is_on_the_battle_message_between_pauses(
    seeded_harness: BotHarness,
) -> None:
    """« Tu peux aussi le déplacer quand tu veux grâce au bouton « Défenseur ». »: while alice has a
    Défenseur in play, the battle message carries the button on every round, even when the battle only
    waits between two rounds (no card to play); the move chosen there holds from the next round."""
    harness = seeded_harness
    alice = harness.user("alice")
    ranked, battle, guild, view = await towards_a_defender(
        harness, alice, lambda view: bool(view.legal) and all(isinstance(a, Move | Pass) for a in view.legal)
    )
    await harness.advance(timedelta(seconds=1))  # the message catches up with the battle (pace 0)
    public = battle_message(harness)
    assert "Défenseur" in public.button_labels
    assert "Décider" not in public.button_labels  # nothing is owed
    assert "Manche suivante" in shown(public)
    picker = (await harness.emu.click(alice, "Défenseur", message=public)).message
    assert picker is not None
    assert picker.ephemeral
    catalog = hoss(harness).decks.catalog
    names = {c.uid: catalog.card(c.card).name.fr for c in view.snapshot.seats[0].creatures}  # type: ignore[union-attr]
    move = next(a for a in view.legal if isinstance(a, Move))
    label = f"Déplacer {names[move.defender]} sur {names[move.protege]}"
    done = (await harness.emu.select(alice, label, message=picker)).message
    assert done is not None
    assert "dès le début de la prochaine manche" in shown(done)
    bob = harness.user("bob")
    refused = (await harness.emu.click(bob, "Défenseur", message=public)).message
    assert refused is not None
    assert refused.ephemeral
    assert "Ce message ne vous est pas destiné." in shown(refused)
    await harness.advance(timedelta(seconds=5))  # the stop between rounds ends: the round is played
    log = json.loads(await ranked.log(alice.id, battle, guild))
    next_round = next(r for r in log["rounds"] if r["round"] == view.round + 1)
    assert {"t": 0, "k": "move", "tgt": move.defender, "protege": move.protege} in next_round["events"]


async def test_the_battle_shown_again_is_private_and_the_channel_keeps_one_message(
    harness: BotHarness,
) -> None:
    """`/hoss combat` shows the battle to its player only, with its buttons: the channel is not posted
    the board again, and a decision taken from the private board moves the channel's message."""
    alice = harness.user("alice")
    await with_deck(harness, alice)
    first = await start_rank_1(harness, alice)
    await harness.settle()
    again = await harness.emu.run_command(alice, "hoss combat")
    assert again.message is not None
    assert again.message.ephemeral
    assert again.message.button_labels == ["Décider", "Passer à la fin"]
    assert shown(again.message) == shown(first)
    await harness.settle()
    publics = [m for m in harness.emu.messages if not m.ephemeral and "Combat classé n°" in shown(m)]
    assert publics == [first]
    controls = (await harness.emu.click(alice, "Décider", message=again.message)).message
    assert controls is not None
    assert controls.ephemeral
    await harness.emu.click(alice, "Passer", message=controls) if not controls.select_options else (
        await harness.emu.select(alice, controls.select_options[0], message=controls)
    )
    await harness.settle()
    assert decide_id(first).endswith(":2") or first.button_labels == []


async def test_a_battle_without_its_message_gets_one_from_the_battle_command(harness: BotHarness) -> None:
    """The bot stopped between a battle's start and the recording of its message: `/hoss combat` posts
    it in the channel, and the rounds edit that one from then on."""
    alice = harness.user("alice")
    await with_deck(harness, alice)
    started = await hoss(harness).ranked.start(alice.id, 1, key="lost", guild=here(harness))
    again = public_answer(await harness.emu.run_command(alice, "hoss combat"))  # after alice's welcome
    await harness.emu.click(alice, "Passer à la fin", message=again)
    await harness.settle()
    assert f"Combat classé n° {started.battle_id}" in shown(again)
    assert "Gain de " in shown(again)


async def test_replay_without_a_number_offers_the_latest_battles(harness: BotHarness) -> None:
    """`/hoss revoir` alone: the player's finished battles in a select, the latest first; choosing one
    replays it privately; a player with none is told how to start one."""
    alice, bob = harness.user("alice"), harness.user("bob")
    await with_deck(harness, alice)
    ranked, guild = hoss(harness).ranked, here(harness)
    battles = []
    for key in ("one", "two"):
        battle = (await ranked.start(alice.id, 1, key=key, guild=guild)).battle_id
        await ranked.skip_to_end(alice.id, battle, guild)
        battles.append(battle)
    live = (await ranked.start(alice.id, 1, key="three", guild=guild)).battle_id
    offered = (await harness.emu.run_command(alice, "hoss revoir")).message
    assert offered is not None
    assert offered.ephemeral
    labels = offered.select_options
    assert [label.split(" — ")[0] for label in labels] == [
        f"N° {battles[1]}",
        f"N° {battles[0]}",
    ]  # not the live one
    assert all(label.split(" — ")[1] == "Rang 1" for label in labels)
    assert live not in battles
    replay = (await harness.emu.select(alice, labels[1], message=offered)).message
    assert replay is not None
    assert replay.ephemeral
    assert f"Revoir le combat n° {battles[0]}" in shown(replay)
    assert replay.attachments[0].filename == f"hoss-replay-{battles[0]}.json"
    none = (await harness.emu.run_command(bob, "hoss revoir")).message
    assert none is not None
    assert "Vous n'avez encore terminé aucun combat." in shown(none)


async def test_skip_from_the_private_board_ends_both_boards_on_the_result(harness: BotHarness) -> None:
    alice = harness.user("alice")
    await with_deck(harness, alice)
    public = await start_rank_1(harness, alice)
    await harness.settle()  # the channel's message is the battle's before it is shown again
    private = (await harness.emu.run_command(alice, "hoss combat")).message
    assert private is not None
    await harness.emu.click(alice, "Passer à la fin", message=private)
    await harness.settle()
    for board in (private, public):
        assert f"Gain de <@{alice.id}>" in shown(board)
        assert board.button_labels == []
        assert [a.filename.split("-")[0] for a in board.attachments] == ["hoss", "hoss"]
