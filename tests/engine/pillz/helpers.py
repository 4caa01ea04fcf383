"""Small builders for Pillz tests: fighters, states and catalogs with exactly the stats a test needs."""

from __future__ import annotations

from engine.cards import LocalizedText
from engine.pillz.catalog import Ability, Clan, PillzCard, PillzCatalog
from engine.pillz.engine import PillzEngine
from engine.pillz.state import Fighter, PillzState, Play
from engine.protocol import CATALOG_OPTION, PlayerSetup
from engine.rng import RngState

ENGINE = PillzEngine()


def fighter(
    card_id: str, power: int = 5, damage: int = 3, ability: str | None = None, value: int = 0
) -> Fighter:
    return Fighter(
        card_id=card_id, stars=2, power=power, damage=damage, clan="a", ability=ability, value=value
    )


def plain_hand(prefix: str, power: int = 5, damage: int = 3) -> tuple[Fighter, ...]:
    return tuple(fighter(f"{prefix}{i}", power, damage) for i in range(4))


def state(
    h0: tuple[Fighter, ...] | None = None,
    h1: tuple[Fighter, ...] | None = None,
    seed: int = 1,
    first: int = 0,
    **update: object,
) -> PillzState:
    s = PillzState(
        player_ids=(10, 20),
        hands=(h0 or plain_hand("a"), h1 or plain_hand("b")),
        first=first,
        rng=RngState(seed=seed),
    )
    return s.model_copy(update=update) if update else s


def round_(s: PillzState, lead: tuple[str, int], answer: tuple[str, int]) -> PillzState:
    """Play one whole round: the leading seat's (card, pillz), then the other's."""
    leader = ENGINE.lead(s)
    s, _ = ENGINE.apply(s, leader, Play(card=lead[0], pillz=lead[1]))
    s, _ = ENGINE.apply(s, 1 - leader, Play(card=answer[0], pillz=answer[1]))
    return s


def card(
    card_id: str,
    clan: str = "a",
    stars: int = 2,
    power: int = 4,
    damage: int = 3,
    leader: bool = False,
    ability: str | None = None,
    value: int = 0,
) -> PillzCard:
    text = LocalizedText(fr=card_id, en=card_id)
    return PillzCard(
        id=card_id,
        name=text,
        clan=clan,
        stars=stars,
        power=power,
        damage=damage,
        leader=leader,
        ability=None
        if ability is None
        else Ability.model_validate({"kind": ability, "value": value, "name": text}),
    )


def catalog(*cards: PillzCard) -> PillzCatalog:
    clans = sorted({c.clan for c in cards})
    return PillzCatalog(
        game="pillz",
        version=1,
        clans=tuple(Clan(id=c, name=LocalizedText(fr=c, en=c)) for c in clans),
        cards=cards,
    )


def new_game(cat: PillzCatalog, deck0: tuple[str, ...], deck1: tuple[str, ...], seed: int = 0) -> PillzState:
    players = [PlayerSetup(seat=0, player_id=10, deck=deck0), PlayerSetup(seat=1, player_id=20, deck=deck1)]
    return ENGINE.new_game(players, seed, {CATALOG_OPTION: cat})
