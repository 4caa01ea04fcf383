"""What a Pillz player reads adds up and speaks their language: a refused move gets a sentence (never a
raw reason code), a round shows the odds it was drawn from and the abilities behind its numbers, the
controls preview the attack the character fights with, timeout notes sit under their round, a double
click is told the move was played, and a friend who never acted is neither paid nor rated."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest

from core.clock import ManualClock
from core.errors import DomainError
from core.i18n import t
from engine.pillz.catalog import PillzCatalog
from engine.pillz.rules import attack_power
from engine.pillz.state import Play
from services.infra.scheduler import Scheduler
from services.pillz.duel_match import Choice, DuelRow
from services.pillz.duels import PillzDuels
from services.pillz.render import duel as render
from store.connection import Connection
from store.db import Database
from tests.engine.pillz.helpers import ENGINE
from tests.services.pillz.duels.helpers import BOB, GUILD, card, friend, shown


def to_act(duel: DuelRow) -> tuple[int, int]:
    seat = duel.to_act()[0]
    player = duel.seats[seat]
    assert player is not None
    return seat, player


def unused(duel: DuelRow, seat: int) -> str:
    assert duel.state is not None
    return next(f.card_id for f in duel.state.hands[seat] if not f.used)


async def test_a_refused_move_is_a_sentence_not_a_reason_code(duels: PillzDuels) -> None:
    duel = await friend(duels)
    seat, player = to_act(duel)
    with pytest.raises(DomainError) as too_many:
        await duels.play(duel.id, player, duel.version, unused(duel, seat), 13, guild=GUILD)
    assert too_many.value.key == "pillz.error.too_many_pillz"
    for locale in ("fr", "en"):
        message = t(too_many.value.key, locale, **too_many.value.params)
        assert "12" in message
        assert "13" in message
        assert "(pillz)" not in message
    first = unused(duel, seat)
    duel = await duels.play(duel.id, player, duel.version, first, 2, guild=GUILD)
    answer, answerer = to_act(duel)
    duel = await duels.play(duel.id, answerer, duel.version, unused(duel, answer), 2, guild=GUILD)
    seat, player = to_act(duel)  # round 2 is led by round 1's answerer
    assert seat == answer
    assert duel.state is not None
    used = next(f.card_id for f in duel.state.hands[seat] if f.used)
    with pytest.raises(DomainError) as again:
        await duels.play(duel.id, player, duel.version, used, 1, guild=GUILD)
    assert again.value.key == "pillz.error.card_used"
    assert "(card)" not in t(again.value.key, "fr", **again.value.params)


async def test_a_double_click_is_told_the_move_was_played(duels: PillzDuels) -> None:
    duel = await friend(duels)
    seat, player = to_act(duel)
    first = unused(duel, seat)
    after = await duels.play(duel.id, player, duel.version, first, 2, guild=GUILD)
    _, answerer = to_act(after)
    after = await duels.play_place(after.id, answerer, after.version, 0, 1, guild=GUILD)
    # the answerer now leads round 2: its second click on the same button must not read as "click again"
    assert to_act(after)[1] == answerer
    for again in (
        duels.play(duel.id, player, duel.version, first, 2, guild=GUILD),
        duels.play_place(after.id, answerer, after.version - 2, 0, 1, guild=GUILD),
    ):
        with pytest.raises(DomainError) as refused:
            await again
        assert refused.value.key == "pillz.error.already_played"
    assert (await duels.get(duel.id)).version == after.version


async def alice_plays_bob_times_out(
    duels: PillzDuels, clock: ManualClock, scheduler: Scheduler, until_round: int = 5
) -> DuelRow:
    """A friend duel where Alice plays 3 pillz each time and Bob never moves (the AI plays at his timeout),
    until the round `until_round` begins or the duel ends."""
    duel = await friend(duels)
    while duel.state is not None and duel.state.round < until_round and duel.status == "live":
        seat, player = to_act(duel)
        if player == BOB:
            clock.advance(timedelta(seconds=121))
            assert await scheduler.run_due() >= 1
            duel = await duels.get(duel.id)
        else:
            duel = await duels.play(duel.id, player, duel.version, unused(duel, seat), 3, guild=GUILD)
    return duel


async def test_the_round_shows_its_odds_and_timeout_notes_sit_under_their_round(
    duels: PillzDuels, catalog: PillzCatalog, clock: ManualClock, scheduler: Scheduler
) -> None:
    duel = await alice_plays_bob_times_out(duels, clock, scheduler, until_round=3)
    assert duel.state is not None
    assert len(duel.state.history) >= 2
    message = shown(render.public(duel, catalog))
    for record in duel.state.history:
        lead, other = record.attacks[record.leader], record.attacks[1 - record.leader]
        assert f"{lead} contre {other} → {render.chance(lead, other)}\u00a0%" in message
    note_1 = message.index("⏱ Manche 1\u00a0:")
    assert message.index("**Manche 1**") < note_1 < message.index("**Manche 2**")


async def test_a_friend_who_never_acted_gets_nothing_and_moves_no_rating(
    duels: PillzDuels, db: Database, clock: ManualClock, scheduler: Scheduler
) -> None:
    duel = await alice_plays_bob_times_out(duels, clock, scheduler)
    assert duel.result is not None
    alice, bob = duel.result["rewards"]
    assert bob["absent"]
    assert bob["gold"] == 0
    assert bob["rating_after"] == bob["rating_before"]
    assert not alice["absent"]
    assert alice["rating_after"] == alice["rating_before"]

    def read(conn: Connection) -> tuple[int, int, int]:
        paid = conn.execute(
            "SELECT COUNT(*) FROM ledger WHERE reason = 'pillz.reward' AND player_id = ?", (BOB,)
        ).fetchone()[0]
        rating, games = conn.execute(
            "SELECT rating, games FROM pillz_profiles WHERE player_id = ?", (BOB,)
        ).fetchone()
        return int(paid), int(rating), int(games)

    assert await db.read(read) == (0, 1000, 0)


async def test_the_controls_work_out_each_characters_power_once_not_per_amount(
    duels: PillzDuels, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 39: the characters' selects are drawn at each version of the duel, and a character's power
    is the same whatever its amount of pillz: asked once per character, each amount's attack its
    multiple."""
    duel = await friend(duels)
    assert duel.state is not None
    seat = duel.to_act()[0]
    choice = Choice(duel.id, duel.version, seat, duel.state, True)
    asked: list[str] = []

    def counted(me: Any, foe: Any) -> int:
        asked.append(me.card_id)
        return attack_power(me, foe)

    monkeypatch.setattr("services.pillz.render.duel.attack_power", counted)
    rows = render.bet_rows(choice)
    assert asked == [row.fighter.card_id for row in rows]
    assert len(rows[0].bets) == duel.state.pillz[seat] + 1 > 1
    for row in rows:
        assert [bet.attack for bet in row.bets] == [
            attack_power(row.fighter, None) * p for p in range(len(row.bets))
        ]


async def test_numbers_shown_add_up_with_the_ability_behind_them(
    duels: PillzDuels, catalog: PillzCatalog
) -> None:
    duel = await friend(duels)
    assert duel.state is not None
    fury = card(catalog, "ashigaru-yari-spearman")  # P 2, Furie +2
    strike = card(catalog, "corsaires-scarred-swashbuckler")  # D 4, Coup précis +2
    hands = (
        (fury, *duel.state.hands[0][1:]),
        (strike, *duel.state.hands[1][1:]),
    )
    state = duel.state.model_copy(update={"hands": hands, "first": 0, "pending": None, "round": 1})
    leading = Choice(duel.id, duel.version, 0, state, True)
    controls = shown(render.controls(leading, catalog, 0, 3))
    assert "ATQ 12" in controls
    assert "Furie" in controls
    for seed in range(40):
        s = state.model_copy(update={"rng": state.rng.model_copy(update={"seed": seed})})
        s, _ = ENGINE.apply(s, 0, Play(card=fury.card_id, pillz=1))
        s, _ = ENGINE.apply(s, 1, Play(card=strike.card_id, pillz=1))
        if s.history[-1].winner == 1:
            break
    else:
        raise AssertionError("the Coup précis never won")
    message = shown(render.public(replace(duel, state=s), catalog))
    assert "Furie de Lancier yari\u00a0: +2 de puissance" in message
    assert "Coup précis de Bretteur balafré\u00a0: +2 dégâts" in message
    assert "perd 6 PV" in message
    assert "Bretteur balafré ★★★ — P 4 / D 4 · Coup précis" in message
