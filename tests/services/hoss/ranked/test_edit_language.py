"""The edits an answer queues are written in the language the outbox shows the battle's message in, which
the cog passes (`shown_in`): drawn once, they read as the edits written in every language read in it, and
a server whose language changed before they went out still reads them (in the former language), never an
empty board."""

from __future__ import annotations

from core.clock import ManualClock
from engine.hoss import Pass
from services.hoss.battle import battles, edits
from services.infra.games import GameRegistry
from services.infra.messages import MessageSpec, render_text
from store.connection import Connection
from store.db import Database
from tests.services.hoss.ranked import catalog, player_with_deck, rows, service


def texts(spec: MessageSpec, locale: str) -> list[str]:
    """The board's description and both sides' fields, as the outbox renders them in `locale`."""
    (embed,) = spec.embeds
    return [render_text(embed.description, locale), *(render_text(f.value, locale) for f in embed.fields)]


async def test_an_answers_edits_are_written_in_the_channels_language_only(
    db: Database, clock: ManualClock, registry: GameRegistry
) -> None:
    await player_with_deck(db, clock, 1, registry=registry)
    ranked = service(db, clock, registry=registry)
    started = await ranked.start(1, 1, key="s", locales=("fr",))
    await ranked.attach(1, started.battle_id, 4242, 9001, started.message)
    await ranked.answer(1, started.battle_id, Pass(), key="a", pause=1, shown_in="fr")
    payloads = await rows(db, "SELECT payload FROM outbox WHERE edit_of IS NOT NULL ORDER BY id")
    queued = MessageSpec.from_json(payloads[-1][0])  # the last edit: the battle now

    def every_language(conn: Connection) -> MessageSpec:
        row = battles.load(conn, started.battle_id)
        assert row is not None
        return edits.board_spec(conn, row, catalog())

    written = await db.read(every_language)  # the same board, written in every language as before
    french = texts(queued, "fr")
    assert french == texts(written, "fr")
    assert all(french)
    assert texts(queued, "en") == french  # the server turned English since: the former language
    assert texts(written, "en") != french
