"""The battle message's round-by-round edits, queued in the outbox by the unit that plays the rounds and
timed on the service's clock: one per round, 5 s apart, due only once the clock passes them; a restart
delivers the rest in order, once; the rounds the AI plays after a missed deadline show without a click;
« Passer à la fin » shows the final board at once; and no edit carries the player's hand, the AI's
unplayed lines or the seed while the battle is live."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from core.clock import ManualClock
from engine.hoss import Pass
from services.hoss.battle.edits import ROUND_PACE
from services.hoss.battle.ranked import RankedService
from services.infra.games import GameRegistry
from services.infra.messages import MessageSpec, render_text
from services.infra.outbox import Outbox
from services.infra.scheduler import Scheduler
from store.db import Database
from tests.services.conftest import open_database
from tests.services.hoss.ranked import (
    battle_rows,
    catalog,
    choose,
    player_with_deck,
    rows,
    service,
)

ALICE, CHANNEL, MESSAGE = 1, 4242, 9001


async def finished_by_the_deadline(
    clock: ManualClock, scheduler: Scheduler, ranked: RankedService, battle: int
):
    """Alice does not answer: after 2 minutes the AI plays the rest of her battle, its rounds queued 5 s
    apart from then."""
    clock.advance(timedelta(minutes=2))
    assert await scheduler.run_due() == 1
    view = await ranked.view(ALICE, battle)
    assert view.result is not None
    return view.result


async def rounds_answered(ranked: RankedService, battle: int, rounds: int) -> int:
    """Alice passes at each pause until `rounds` rounds were played; returns how many were."""
    view = await ranked.view(ALICE, battle)
    for turn in range(50):
        if view.round >= rounds:
            return view.round
        await ranked.answer(ALICE, battle, Pass(), key=f"p{turn}", pause=view.pause)
        view = await ranked.view(ALICE, battle)
    raise AssertionError("no rounds played")


def paris_scheduler(db: Database, clock: ManualClock) -> Scheduler:
    return Scheduler(db, clock, ZoneInfo("Europe/Paris"))


async def shown_battle(
    db: Database, clock: ManualClock, ranked: RankedService, registry: GameRegistry
) -> int:
    """Alice's battle, its message shown in CHANNEL as MESSAGE and handed to the outbox."""
    await player_with_deck(db, clock, ALICE, registry=registry)
    started = await ranked.start(ALICE, 1, key="s")
    await ranked.attach(ALICE, started.battle_id, CHANNEL, MESSAGE, started.message)
    return started.battle_id


def names_of(card_id: str) -> tuple[str, str]:
    card = catalog().card(card_id)
    assert card is not None
    return card.name.fr, card.name.en


def rendered(spec: MessageSpec, locale: str = "fr") -> str:
    embed = spec.embeds[0]
    parts = [render_text(embed.title, locale), render_text(embed.description, locale)]
    parts += [render_text(f.value, locale) for f in embed.fields]
    return "\n".join(parts)


async def deliver(box: Outbox) -> list[MessageSpec]:
    """What a deliverer would do now: every due edit, in the order given, marked sent."""
    done = []
    while due := await box.due():
        for item in due:
            assert item.edit_message_id == MESSAGE
            assert item.target.id == CHANNEL
            assert await box.mark_sent(item.id, MESSAGE)
            done.append(item.spec)
    return done


async def test_each_round_is_due_five_seconds_after_the_previous_one(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    ranked = service(db, clock, registry, scheduler := paris_scheduler(db, clock))
    battle = await shown_battle(db, clock, ranked, registry=registry)
    result = await finished_by_the_deadline(clock, scheduler, ranked, battle)
    start = clock.now()
    times = await rows(db, "SELECT not_before FROM outbox WHERE edit_of IS NOT NULL ORDER BY id")
    assert len(times) == result.rounds >= 2
    box = Outbox(db, clock, registry)
    first = await deliver(box)
    assert len(first) == 1
    assert "**Manche 1**" in rendered(first[0])
    for shown in range(2, result.rounds + 1):
        clock.advance(ROUND_PACE - timedelta(milliseconds=1))
        assert await deliver(box) == []  # not before its time
        clock.advance(timedelta(milliseconds=1))
        (edit,) = await deliver(box)
        assert f"**Manche {shown}**" in rendered(edit)
        assert clock.now() == start + (shown - 1) * ROUND_PACE
    assert f"Gain de <@{ALICE}>\u00a0:" in rendered(edit)
    assert edit.buttons == ()
    story, log = edit.attachments  # the battle told in the channel's language, then the JSON
    assert (story.filename, log.filename) == (f"hoss-battle-{battle}.txt", f"hoss-battle-{battle}.json")
    assert log.text == await ranked.log(ALICE, battle)
    assert "Manche 1\n" in story.body("fr")
    assert "Round 1\n" in story.body("en")


async def test_new_rounds_queue_after_the_edits_still_waiting(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    ranked = service(db, clock, registry=registry)
    battle = await shown_battle(db, clock, ranked, registry=registry)
    view = await ranked.view(ALICE, battle)
    for turn in range(6):  # answers faster than the rounds are shown
        await ranked.answer(ALICE, battle, choose(view, turn), key=f"a{turn}", pause=view.pause)
        view = await ranked.view(ALICE, battle)
        if view.status != "live":
            break
    times = [
        t for (t,) in await rows(db, "SELECT not_before FROM outbox WHERE edit_of IS NOT NULL ORDER BY id")
    ]
    assert len(times) >= 2
    assert times == sorted(times)
    assert len(set(times)) == len(times)
    box = Outbox(db, clock, registry)
    shown = [rendered(spec) for spec in await deliver(box)]
    for _ in range(len(times)):
        clock.advance(ROUND_PACE)
        shown += [rendered(spec) for spec in await deliver(box)]
    assert len(shown) == len(times)
    assert [int(s.split("**Manche ")[1].split("**")[0]) for s in shown] == list(range(1, len(shown) + 1))


async def test_rounds_played_before_the_attach_are_queued_by_it(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    """The response goes out, a decision on it commits, then the attach runs: the click found no message
    to edit, so the attach queues every round since the response, 5 s apart."""
    ranked = service(db, clock, registry=registry)
    await player_with_deck(db, clock, ALICE, registry=registry)
    started = await ranked.start(ALICE, 1, key="s")
    played = await rounds_answered(ranked, started.battle_id, 2)
    assert await rows(db, "SELECT id FROM outbox") == []  # commits before the attach
    await ranked.attach(ALICE, started.battle_id, CHANNEL, MESSAGE, started.message)
    box = Outbox(db, clock, registry)
    shown = await deliver(box)
    for _ in range(played):
        clock.advance(ROUND_PACE)
        shown += await deliver(box)
    assert [int(rendered(s).split("**Manche ")[1].split("**")[0]) for s in shown] == list(
        range(1, played + 1)
    )


async def test_a_skip_before_the_attach_shows_the_result_at_once(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    """« Passer à la fin » clicked before the attach ran: the attach shows the final board, not the rounds."""
    ranked = service(db, clock, registry=registry)
    await player_with_deck(db, clock, ALICE, registry=registry)
    started = await ranked.start(ALICE, 1, key="s")
    result = await ranked.skip_to_end(ALICE, started.battle_id)  # commits before the attach
    assert result.rounds >= 2
    await ranked.attach(ALICE, started.battle_id, CHANNEL, MESSAGE, started.message)
    (shown,) = await deliver(Outbox(db, clock, registry))
    assert f"**Manche {result.rounds}**" in rendered(shown)
    assert f"Gain de <@{ALICE}>\u00a0:" in rendered(shown)


async def test_skip_to_the_end_shows_the_final_board_and_result_at_once(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    """« Passer à la fin »: one edit, due now, with the last round, the result and the log; the rounds an
    earlier decision still had waiting to be shown are not shown one by one any more."""
    ranked = service(db, clock, registry=registry)
    battle = await shown_battle(db, clock, ranked, registry=registry)
    await rounds_answered(ranked, battle, 2)
    box = Outbox(db, clock, registry)
    early = await deliver(box)  # the first round of those decisions is due at once, the others wait
    waiting = await rows(db, "SELECT COUNT(*) FROM outbox WHERE edit_of IS NOT NULL AND state = 'pending'")
    result = await ranked.skip_to_end(ALICE, battle)
    (final,) = await deliver(box)  # no clock move needed
    assert await rows(db, "SELECT COUNT(*) FROM outbox WHERE state = 'pending'") == [(0,)]
    assert len(early) == 1
    assert waiting[0][0] >= 1
    text = rendered(final)
    assert f"**Manche {result.rounds}**" in text
    assert f"Gain de <@{ALICE}>\u00a0:" in text
    assert final.buttons == ()
    assert [a.filename for a in final.attachments] == [
        f"hoss-battle-{battle}.txt",
        f"hoss-battle-{battle}.json",
    ]


async def test_an_attach_of_what_the_battle_still_shows_queues_nothing(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    ranked = service(db, clock, registry=registry)
    await player_with_deck(db, clock, ALICE, registry=registry)
    started = await ranked.start(ALICE, 1, key="s")
    await ranked.attach(ALICE, started.battle_id, CHANNEL, MESSAGE, started.message)
    assert await rows(db, "SELECT id FROM outbox WHERE edit_of IS NOT NULL") == []
    assert await deliver(Outbox(db, clock, registry)) == []


async def test_a_restart_mid_battle_delivers_the_rest_in_order_once(
    tmp_path: Path, clock: ManualClock, registry: GameRegistry
) -> None:
    path = tmp_path / "bot.sqlite3"
    db = await open_database(path)
    try:
        ranked = service(db, clock, registry, scheduler := paris_scheduler(db, clock))
        battle = await shown_battle(db, clock, ranked, registry=registry)
        result = await finished_by_the_deadline(clock, scheduler, ranked, battle)
        assert result.rounds >= 3
        box = Outbox(db, clock, registry)
        before = await deliver(box)
        clock.advance(ROUND_PACE)
        before += await deliver(box)  # two rounds shown, then the bot stops
    finally:
        await db.close()

    clock.advance(timedelta(minutes=10))  # down for a while: the rest is due at once on restart
    db = await open_database(path)
    try:
        after = await deliver(Outbox(db, clock, registry))
        assert await deliver(Outbox(db, clock, registry)) == []  # once
    finally:
        await db.close()
    rounds = [int(rendered(s).split("**Manche ")[1].split("**")[0]) for s in before + after]
    assert rounds == list(range(1, result.rounds + 1))
    assert len(before) == 2
    assert f"Gain de <@{ALICE}>\u00a0:" in rendered(after[-1])


async def test_the_deadline_shows_its_rounds_without_a_click(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    """Alice stopped answering: the AI plays the rest of her battle, and every round shown says so."""
    ranked = service(db, clock, registry, scheduler := paris_scheduler(db, clock))
    battle = await shown_battle(db, clock, ranked, registry=registry)
    result = await finished_by_the_deadline(clock, scheduler, ranked, battle)
    box = Outbox(db, clock, registry)
    shown = await deliver(box)
    for _ in range(result.rounds):
        clock.advance(ROUND_PACE)
        shown += await deliver(box)
    assert len(shown) == result.rounds
    note = f"Deux minutes sans réponse\u00a0: l'IA a joué la fin du combat pour <@{ALICE}>."
    assert all(note in rendered(spec) for spec in shown)
    assert all(spec.buttons == () for spec in shown)
    assert f"Gain de <@{ALICE}>\u00a0:" in rendered(shown[-1])


async def test_no_edit_carries_the_hand_or_the_seed(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    """The player's hand is theirs (a card leaves it only when played, which puts it on the board), and
    the seed would tell every later draw: neither is in any edit queued while the battle is live."""
    ranked = service(db, clock, registry=registry)
    battle = await shown_battle(db, clock, ranked, registry=registry)
    (seed,) = [row.seed for row in await battle_rows(db) if row.id == battle]
    view = await ranked.view(ALICE, battle)
    for turn in range(4):
        if (await ranked.answer(ALICE, battle, choose(view, turn), key=f"a{turn}", pause=view.pause)).over:
            break
        view = await ranked.view(ALICE, battle)
        log = json.loads(await ranked.log(ALICE, battle))
        played = {str(e.get("card") or e.get("to")) for r in log["rounds"] for e in r["events"]}
        secret = {view.cards[uid] for uid in view.hand} - played
        names = {name for card in secret for name in names_of(card)}
        payloads = [p for (p,) in await rows(db, "SELECT payload FROM outbox WHERE edit_of IS NOT NULL")]
        assert payloads
        assert secret
        for payload in payloads:
            text = json.dumps(json.loads(payload), ensure_ascii=False)
            assert str(seed) not in text
            assert "hand_cards" not in text
            assert [name for name in names if name in text] == []
