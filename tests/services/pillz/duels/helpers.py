"""Shared set-up for the Pillz duel service tests: the players and the server, a friend duel accepted,
the player whose turn it is, and how a message or a card reads once rendered."""

from __future__ import annotations

from discord_app.render import text
from engine.pillz.catalog import PillzCatalog
from engine.pillz.state import Fighter
from services.infra.messages import MessageSpec
from services.pillz.duel_match import DuelRow
from services.pillz.duels import PillzDuels

ALICE, BOB = 11, 12
GUILD, CHANNEL = 5, 6


async def friend(duels: PillzDuels) -> DuelRow:
    made = await duels.challenge(GUILD, CHANNEL, ALICE, BOB, key="c1")
    return await duels.answer(made.id, BOB, True, guild=GUILD)


def player_to_act(duel: DuelRow) -> int:
    player = duel.seats[duel.to_act()[0]]
    assert player is not None
    return player


def shown(spec: MessageSpec, locale: str = "fr") -> str:
    parts = []
    for embed in spec.embeds:
        parts.append(text(embed.description, locale))
        parts += [text(f.name, locale) + "\n" + text(f.value, locale) for f in embed.fields]
    return "\n".join(parts).replace("\u202f", " ")


def card(catalog: PillzCatalog, card_id: str) -> Fighter:
    found = catalog.card(card_id)
    assert found is not None
    assert found.ability is not None
    return Fighter(
        card_id=found.id,
        stars=found.stars,
        power=found.power,
        damage=found.damage,
        clan=found.clan,
        ability=found.ability.kind,
        value=found.ability.value,
    )
