"""Who may play a Chocobataille game: the league open to the player on this server (VI) and a valid saved
deck for it, checked when a challenge is made and again when it is accepted."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from core.errors import NotAllowed
from engine.choco import ChocoCatalog
from services.choco.decks import deck_cards, validate
from services.choco.economy import LEAGUE_KEYS, league_of
from services.choco.leagues import MEMBER_DAYS, leagues_open
from services.choco.text import card_name
from services.infra.messages import Text
from store.connection import Connection


def problem_text(catalog: ChocoCatalog, key: str, params: dict[str, Any]) -> Text:
    """A refusal's reason; a `card` parameter (catalog id) is named in the reader's language."""
    named = dict(params)
    if "card" in named:
        named["card"] = card_name(catalog, str(named["card"]))
    return Text(key, named)


def check_can_play(
    conn: Connection,
    catalog: ChocoCatalog,
    player: int,
    guild: int,
    league: str,
    now: datetime,
    *,
    own: bool = True,
    joined_at: datetime | None = None,
    member_checked: bool = False,
    ranked: bool = True,
) -> list[str]:
    """The player's saved deck for the league, after checking the league is open and the deck valid.
    The reasons name cards of the deck: they are told only to the player (`own`), never to the opponent
    who accepts the challenge, since that deck is about to be their hidden pioche.

    `joined_at` is when the player joined the server (Discord says it in the player's own interaction);
    `member_checked` says their membership age was already checked with it when they challenged (the
    accepting click only knows the clicker's join date, and an age only grows).

    A game that is not `ranked` (friendly, practice) asks only for the deck: the league names the cards
    allowed, its entry conditions (VI: membership age, wins, cards) do not apply (docs/choco/practice.md)."""
    name = Text(LEAGUE_KEYS[league_of(league)])
    closed = (
        leagues_open(conn, player, guild, now, joined_at=joined_at).get(league_of(league), [])
        if ranked
        else []
    )
    if member_checked:
        closed = [p for p in closed if p.key != MEMBER_DAYS]
    problems = closed or validate(conn, catalog, player, league_of(league))
    if problems:
        key = "choco.error.league_closed" if closed else "choco.error.deck_invalid"
        reasons = Text.lines([problem_text(catalog, p.key, p.params) for p in problems])
        if not own:
            reasons = Text("choco.error.reasons_private", {"player": f"<@{player}>"})
        raise NotAllowed(key, player=f"<@{player}>", league=name, reasons=reasons)
    cards = deck_cards(conn, player, league_of(league))
    assert cards is not None  # validate() reports a missing deck
    return cards
