"""A duel's public message reads in order and names every side: a heal is shown where the engine applies
it (cast with the spell, before the fight) with the vitality it leaves, so each « reste » follows from
the line before; the initiative and the HP of a fight name each unit's player (both units may be the same
card), the HP condensed to where each side started and ended; a tie for who engages says how it was
broken (« Le joueur dont la somme de la valeur d'attaque des unités est la plus élevée engage le
combat. »: equal totals are settled by the total Defense, then by lot)."""

from __future__ import annotations

import dataclasses
import re

from engine.immortals import ENGINE, Choose, Effect, ImmortalsState, SpellCard, Unit
from services.immortals import ImmortalsServices
from services.immortals.duel_match import DuelRow
from services.infra.messages import render_text
from tests.engine.immortals.helpers import state

GUILD, CHANNEL = 500, 600
ALICE = 11


def twin(seat: int, n: int, attack: int, defense: int, terrain: str = "foret") -> Unit:
    """Seat `seat`'s unit n, the same card for both seats: the catalog's "imp", « Diablotin »."""
    return Unit(
        uid=f"u{seat}-{n}",
        card_id="imp",
        deck_index=n,
        family="demons",
        terrain=terrain,
        level=1,
        attack=attack,
        defense=defense,
    )


def line_up(seat: int, attack: int, defense: int) -> tuple[Unit, ...]:
    return tuple(twin(seat, n, attack, defense) for n in range(4))


async def board(services: ImmortalsServices, s: ImmortalsState) -> str:
    """The public message of a practice duel of alice's, shown with the state `s` (seat 1 is the AI)."""
    duel: DuelRow = await services.duels.practice(GUILD, CHANNEL, ALICE, key="p1")
    (embed,) = services.duels.public(dataclasses.replace(duel, state=s)).embeds
    return render_text(embed.description, "fr")


def fought(s: ImmortalsState, spell: str | None = None) -> ImmortalsState:
    """Round 1 played: seat 0 engages its first unit (with `spell`), seat 1 counters with its first."""
    s, _ = ENGINE.apply(s, 0, Choose(unit="u0-0", spell=spell))
    s, _ = ENGINE.apply(s, 1, Choose(unit="u1-0"))
    return s


async def test_a_heal_is_shown_before_the_damage_and_every_total_adds_up(services: ImmortalsServices) -> None:
    heal = SpellCard(sid="s0-0", spell_id="healing", effects=(Effect(stat="vitality", value=5),))
    s = state(line_up(0, 1, 1), line_up(1, 8, 8), s0=(heal,), vitality=(20, 30), engager=0)
    after = fought(s, "s0-0")
    record = after.history[0]
    assert (record.winner, record.fighters[0].healed) == (1, 5)
    damage = record.damage
    text = await board(services, after)
    healed = f"<@{ALICE}> regagne 5 de vitalité par son sort (reste 25)."
    lost = f"<@{ALICE}> perd {damage} de vitalité (reste {25 - damage})."
    assert healed in text
    assert lost in text
    assert text.index(healed) < text.index(lost)
    assert after.vitality[0] == 25 - damage


async def test_the_initiative_and_the_hp_name_each_side_of_two_same_units(
    services: ImmortalsServices,
) -> None:
    s = state(line_up(0, 3, 3), line_up(1, 9, 3), engager=0)
    after = fought(s)
    record = after.history[0]
    text = await board(services, after)
    assert "Initiative\u00a0: Diablotin (l'IA)." in text
    end = record.trace[-1]
    if 0 in end:
        assert re.search(
            rf"PV\u00a0: Diablotin \(<@{ALICE}>\) 20 → 0 en {len(record.trace)} tours?\u202f;"
            rf" Diablotin \(l'IA\) 20 → {end[1]}",
            text,
        ), text
    else:
        assert (
            f"PV après 20 tours\u00a0: Diablotin (<@{ALICE}>) 20 → {end[0]}\u202f; Diablotin (l'IA) 20 → {end[1]}"
            in text
        )
    assert "→ 20-" not in text  # no turn-by-turn list


async def test_a_tie_for_who_engages_says_how_it_was_broken(services: ImmortalsServices) -> None:
    by_defense = state(line_up(0, 3, 4), line_up(1, 3, 3), engager=0, engage_totals=(12, 12))
    text = await board(services, by_defense)
    assert (
        f"Engage\u00a0: <@{ALICE}> (ATQ totale 12 de part et d'autre, départagée par la DÉF totale\u00a0: 16 contre 12)."
        in text
    )
    by_lot = state(line_up(0, 3, 3), line_up(1, 3, 3), engager=1, engage_totals=(12, 12))
    assert (
        "Engage\u00a0: l'IA (ATQ totale 12 et DÉF totale 12 de part et d'autre\u00a0: tiré au sort)."
        in await board(services, by_lot)
    )
    plain = state(line_up(0, 4, 3), line_up(1, 3, 3), engager=0, engage_totals=(16, 12))
    assert f"Engage\u00a0: <@{ALICE}> (ATQ totale 16 contre 12)." in await board(services, plain)
