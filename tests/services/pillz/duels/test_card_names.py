"""A Pillz duel between a French and an English player (docs/pillz/duels.md, "Card names across
languages"): the public message, read by both in the server's language, names each character with its
name in the other language beside it where they differ; each seat's private controls, in its reader's
language, put the opponent's name beside; a practice duel of a French player names characters alone."""

from __future__ import annotations

from core.clock import ManualClock
from engine.pillz.catalog import PillzCatalog
from services.infra.games import GameRegistry
from services.infra.messages import MessageSpec, render_text
from services.infra.players import ensure_player
from services.pillz.duel_match import DuelRow
from services.pillz.duels import PillzDuels
from services.pillz.render import duel as render
from store.connection import Connection
from store.db import Database

FRENCH, ENGLISH = 21, 22
GUILD, CHANNEL = 5, 6


async def speak(db: Database, clock: ManualClock, registry: GameRegistry) -> None:
    def unit(conn: Connection) -> None:
        for player, lang in ((FRENCH, "fr"), (ENGLISH, "en")):
            ensure_player(conn, player, clock.now(), registry)
            conn.execute("UPDATE players SET locale = ? WHERE id = ?", (lang, player))

    await db.write(unit)


async def posted(db: Database) -> MessageSpec:
    """The duel's public message as the outbox last holds it (its post or its latest edit)."""
    row = await db.read(
        lambda conn: conn.execute(
            "SELECT payload FROM outbox WHERE target_kind = 'channel' ORDER BY id DESC LIMIT 1"
        ).fetchone()
    )
    return MessageSpec.from_json(row[0])


def text(spec: MessageSpec, locale: str) -> str:
    parts = [e.description for e in spec.embeds] + [f.value for e in spec.embeds for f in e.fields]
    return "\n".join(render_text(p, locale) for p in parts if p is not None)


def line_up(duel: DuelRow, catalog: PillzCatalog) -> list[tuple[str, str]]:
    """(French, English) names of both seats' characters."""
    assert duel.state is not None
    names = []
    for hand in duel.state.hands:
        for fighter in hand:
            card = catalog.card(fighter.card_id)
            assert card is not None
            names.append((card.name.fr, card.name.en))
    return names


async def test_both_players_read_each_character_with_their_name_beside(
    duels: PillzDuels, db: Database, clock: ManualClock, catalog: PillzCatalog, registry: GameRegistry
) -> None:
    await speak(db, clock, registry=registry)
    made = await duels.challenge(GUILD, CHANNEL, FRENCH, ENGLISH, key="c1")
    duel = await duels.answer(made.id, ENGLISH, True, guild=GUILD)
    names = line_up(duel, catalog)
    assert any(fr != en for fr, en in names)  # the check below has something to find
    for server in ("fr", "en"):  # whichever the server's language, each player finds their name
        public = text(await posted(db), server)
        for fr, en in names:
            ours, theirs = (fr, en) if server == "fr" else (en, fr)
            assert (f"{ours} ({theirs})" in public) == (fr != en), (server, fr, en)

    for player, lang in ((FRENCH, "fr"), (ENGLISH, "en")):
        if player not in [duel.seats[s] for s in duel.to_act()]:
            continue
        choice = await duels.controls(duel.id, player, guild=GUILD)
        controls = text(render.controls(choice, catalog, 0, 1), lang)
        me = choice.state.hands[choice.seat][0]
        card = catalog.card(me.card_id)
        assert card is not None
        ours, theirs = (card.name.fr, card.name.en) if lang == "fr" else (card.name.en, card.name.fr)
        assert (f"{ours} ({theirs})" in controls) == (ours != theirs)


async def test_a_practice_duel_names_each_character_in_its_readers_language_alone(
    duels: PillzDuels, db: Database, clock: ManualClock, catalog: PillzCatalog, registry: GameRegistry
) -> None:
    await speak(db, clock, registry=registry)
    duel = await duels.practice(GUILD, CHANNEL, FRENCH, key="p1")
    public = text(await posted(db), "fr")
    for fr, en in line_up(duel, catalog):
        assert fr in public
        assert f"{fr} ({en})" not in public
