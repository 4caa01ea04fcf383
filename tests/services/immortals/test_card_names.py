"""An Immortal's War duel between a French and an English player (docs/immortals/commands.md, "Card names
across languages"): the public message names each unit with its name in the other language beside it
where they differ, in whichever language the server reads; the counter's controls put the opponent's
name beside their reader's. A spell is not a card: its name stays the reader's."""

from __future__ import annotations

from core.clock import ManualClock
from engine.immortals import ImmortalsCatalog
from services.immortals import ImmortalsServices
from services.immortals.render import duel as render
from services.infra.games import GameRegistry
from services.infra.messages import MessageSpec, render_text
from services.infra.players import ensure_player
from store.connection import Connection
from store.db import Database

FRENCH, ENGLISH = 31, 32
GUILD, CHANNEL = 500, 600


async def posted(db: Database) -> MessageSpec:
    row = await db.read(
        lambda conn: conn.execute(
            "SELECT payload FROM outbox WHERE target_kind = 'channel' ORDER BY id DESC LIMIT 1"
        ).fetchone()
    )
    return MessageSpec.from_json(row[0])


def text(spec: MessageSpec, locale: str) -> str:
    parts = [e.description for e in spec.embeds] + [f.value for e in spec.embeds for f in e.fields]
    return "\n".join(render_text(p, locale) for p in parts if p is not None)


async def test_each_unit_stands_with_its_name_in_the_other_language(
    services: ImmortalsServices,
    db: Database,
    clock: ManualClock,
    catalog: ImmortalsCatalog,
    registry: GameRegistry,
) -> None:
    def unit(conn: Connection) -> None:
        for player, lang in ((FRENCH, "fr"), (ENGLISH, "en")):
            ensure_player(conn, player, clock.now(), registry)
            conn.execute("UPDATE players SET last_locale = ? WHERE id = ?", (lang, player))

    await db.write(unit)
    made = await services.duels.challenge(GUILD, CHANNEL, FRENCH, ENGLISH, key="c1")
    duel = await services.duels.answer(made.id, ENGLISH, True, guild=GUILD)
    assert duel.state is not None
    cards = [catalog.card(u.card_id) for hand in duel.state.units for u in hand]
    names = [(c.name.fr, c.name.en) for c in cards if c is not None]
    assert any(fr != en for fr, en in names)
    for server in ("fr", "en"):
        public = text(await posted(db), server)
        for fr, en in names:
            ours, theirs = (fr, en) if server == "fr" else (en, fr)
            assert (f"{ours} ({theirs})" in public) == (fr != en), (server, fr, en)

    engager = duel.seats[duel.state.engager]
    assert engager is not None
    lang = "fr" if engager == FRENCH else "en"
    choice = await services.duels.controls(duel.id, engager, guild=GUILD)
    controls = text(render.controls(choice, catalog, None, None), lang)
    for fr, en in names:
        ours, theirs = (fr, en) if lang == "fr" else (en, fr)
        assert (f"{ours} ({theirs})" in controls) == (fr != en)
