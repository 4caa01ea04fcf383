"""The private hand, at its longest, fits what Discord accepts.

A full hand (8 cards) of the catalog's longest texts, with both boards full of its longest names, once
passed the 2,000 characters of a message's content (2,389 measured in French): Discord refuses such a
reply and the player sees nothing. The reply of `/choco hand` and of the « Voir ma main » button is
checked through the cog's own `hand_reply`, in both languages, against the limits of Discord's Message
Resource page ("Embed Limits", content up to 2000 characters).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from cogs.choco.components import hand_reply
from engine.choco.catalog import ChocoCard
from engine.choco.state import HAND_LIMIT, MAX_COPIES, SLOTS_PER_LINE, Card, ChocoState, Side
from engine.rng import RngState
from services.choco import posts
from services.choco.economy import GAME_KEY
from services.choco.names import TYPE_KEYS
from services.choco.render.board import hand
from services.community.card_images.service import CardImages
from services.infra.messages import CardStrip, MessageSpec, StripCard, Text
from tests.services.choco.render.games import catalog, render
from tests.support.registries import every_game

# Stats beyond the catalog's (8 PA / 16 PV at most) that effects could reach: two digits, wounded.
PA, PV, MAX_PV = 99, 98, 99


def _hand_size(card: ChocoCard, lang: str) -> int:
    """How long the card's two hand lines get: name, type, effect name and effect text."""
    size = len(card.name.get(lang)) + len(render(Text(TYPE_KEYS[card.type]), lang))
    if card.effect is not None:
        size += len(card.effect.name.get(lang)) + len(card.effect.text.get(lang))
    return size


def _copies(ranked: list[ChocoCard], count: int, used: Counter[str]) -> list[ChocoCard]:
    """The first `count` cards of `ranked`, each at most MAX_COPIES times per deck (counted in `used`)."""
    chosen: list[ChocoCard] = []
    for card in ranked:
        while used[card.id] < MAX_COPIES and len(chosen) < count:
            used[card.id] += 1
            chosen.append(card)
    return chosen


def _instance(uid: str, card: ChocoCard) -> Card:
    if card.type == "pure":
        return Card(uid=uid, card_id=card.id, pa=0, pv=0, max_pv=0, pure=True)
    return Card(uid=uid, card_id=card.id, pa=PA, pv=PV, max_pv=MAX_PV)


def worst_state(lang: str) -> ChocoState:
    """Seat 0 holds the 8 longest hand entries; both boards hold 5 + 5 of the longest wizard names."""
    cards = list(catalog().cards)
    by_hand = sorted(cards, key=lambda c: -_hand_size(c, lang))
    wizards = sorted((c for c in cards if c.type != "pure"), key=lambda c: -len(c.name.get(lang)))
    sides = []
    for seat in (0, 1):
        used: Counter[str] = Counter()
        held = _copies(by_hand, HAND_LIMIT, used) if seat == 0 else []
        board = _copies(wizards, 2 * SLOTS_PER_LINE, used)
        made = [_instance(f"s{seat}c{i}", c) for i, c in enumerate(held + board)]
        sides.append(
            Side(
                pioche=(),
                hand=tuple(made[: len(held)]),
                front=tuple(made[len(held) : len(held) + SLOTS_PER_LINE]),
                reserve=tuple(made[len(held) + SLOTS_PER_LINE :]),
            )
        )
    effects = {c.id: c.effect for c in cards if c.effect is not None}
    return ChocoState(
        sides=(sides[0], sides[1]),
        player_ids=(1, 2),
        rng=RngState.from_seed(1),
        turn=7,
        active=0,
        effects=effects,
    )


def _interaction(state: ChocoState, images: Path) -> Any:
    """Just what `hand_reply` reads: the game services of the client (the hand's message as the service
    builds it, and the card pictures its strip is drawn from), the user and the server."""

    class Games:
        async def hand_message(self, game_id: int, player: int, guild_id: int | None = None) -> MessageSpec:
            body = hand(state, 0, catalog())
            cards = tuple(StripCard(card.card_id) for card in state.sides[0].hand)
            strip = CardStrip(posts.hand_file(game_id), GAME_KEY, cards)
            return MessageSpec(embeds=(posts.hand_embed(game_id, body),), strips=(strip,))

    services = SimpleNamespace(
        games={"choco": SimpleNamespace(games=Games())},
        card_images=CardImages(images, {GAME_KEY: catalog()}, every_game()),
    )
    return SimpleNamespace(client=SimpleNamespace(services=services), user=SimpleNamespace(id=1), guild_id=5)


@pytest.mark.parametrize("lang", ["fr", "en"])
async def test_the_longest_hand_fits_discord_limits(lang: str, tmp_path: Path) -> None:
    state = worst_state(lang)
    assert len(state.sides[0].hand) == HAND_LIMIT
    assert len(state.sides[1].front) == len(state.sides[1].reserve) == SLOTS_PER_LINE
    # The case is the one that broke: as plain text it is far over a message's 2,000 characters.
    body = render(hand(state, 0, catalog()), lang)
    assert len(body) > 2000

    reply = await hand_reply(_interaction(state, tmp_path), 987654321, lang)

    assert len(reply["content"] or "") <= 2000
    embeds = [e.to_dict() for e in reply["embeds"]]
    assert len(embeds) == 1
    embed = embeds[0]
    assert embed["description"] == body
    assert len(embed["description"]) <= 4096
    assert len(embed["title"]) <= 256
    assert len(embed["title"]) + len(embed["description"]) <= 6000
    # The hand's picture rides along: one PNG, the eight cards side by side (docs/card-images.md).
    files = reply["files"]
    assert [f.filename for f in files] == ["choco-hand-987654321.png"]
    assert files[0].fp.read(8) == b"\x89PNG\r\n\x1a\n"
