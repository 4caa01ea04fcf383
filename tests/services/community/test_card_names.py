"""Card names across languages (services/community/card_names.py, docs/trades.md "Card names across
languages"): a player's language as their DMs use it, and a trade or gift between a French and an English
player, where each reads a card in their language with the other's name beside it; nothing added between
two readers of one language, nor for a card with one name, nor for an admin reading the trade."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest

import services.community.card_names as card_names
from core.clock import ManualClock
from core.i18n import t
from engine.cards import LocalizedText
from services.community.card_names import beside, named, reading_languages
from services.community.trades.service import MIN_MEMBERSHIP, TradeService
from services.infra import ledger
from services.infra.catalogs import DATA_DIR, CardIndex, load_all
from services.infra.games import GameRegistry
from services.infra.messages import MessageSpec, render_text
from services.infra.players import ensure_player
from services.infra.scheduler import Scheduler
from store.connection import Connection
from store.db import Database
from tests.support.registries import every_game

GUILD, CHANNEL = 500, 510
FRENCH, ENGLISH, FRENCH_TOO, UNKNOWN = 1, 2, 3, 4
GAME = "pillz"
SCOUT = "ashigaru-rice-field-scout"  # « Éclaireur des rizières », "Rice-field Scout"
HAYATE = "ashigaru-taisho-hayate"  # « Taishō Hayate » in both
NAME = LocalizedText(fr="Émeric Chardon", en="Emeric Thistle")


def test_the_other_languages_name_stands_beside_the_readers_where_they_differ() -> None:
    both = beside(NAME, ["en"])
    assert both is not None
    assert render_text(both, "fr") == "Émeric Chardon (Emeric Thistle)"
    assert render_text(both, "en") == "Emeric Thistle"  # the English reader reads it in English already
    for_both = beside(NAME, ["fr", "en"])
    assert for_both is not None
    assert render_text(for_both, "fr") == "Émeric Chardon (Emeric Thistle)"
    assert render_text(for_both, "en") == "Emeric Thistle (Émeric Chardon)"
    assert beside(NAME, []) is None
    assert beside(LocalizedText(fr="Tengu", en="Tengu"), ["fr", "en"]) is None
    assert render_text(named(NAME, []), "en") == "Emeric Thistle"


def test_a_name_written_again_asks_the_catalog_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A duel's public message names each of its cards at every step (issue 39): each name beside
    another is written once per name and languages, and the same text answers again."""
    written: list[str] = []

    def counted(key: str, locale: str | None = None, /, **params: object) -> str:
        written.append(str(locale))
        return t(key, locale, **params)

    monkeypatch.setattr(card_names, "t", counted)
    name = LocalizedText(fr="Rôdeur des cimes (test)", en="Peak Prowler (test)")  # no other test's
    first = beside(name, ["fr"])
    assert written == ["en"]
    assert beside(name, ("fr",)) == first
    assert beside(name, ["fr", "fr"]) == first
    assert written == ["en"]  # asked once for the three
    assert first is not None
    assert render_text(first, "en") == "Peak Prowler (test) (Rôdeur des cimes (test))"
    assert beside(name, ["en"]) is not None
    assert written == ["en", "fr"]  # other languages: another text


@pytest.fixture(scope="module")
def cards() -> CardIndex:
    return CardIndex(load_all(DATA_DIR, every_game().all_games()))


@pytest.fixture
async def trades(
    db: Database, clock: ManualClock, cards: CardIndex, registry: GameRegistry
) -> AsyncIterator[TradeService]:
    now = clock.now()

    def unit(conn: Connection) -> None:
        for player in (FRENCH, ENGLISH, FRENCH_TOO, UNKNOWN):
            ensure_player(conn, player, now, registry)
        conn.execute("UPDATE players SET locale = 'fr' WHERE id = ?", (FRENCH,))
        # English from Discord, never chosen with /settings
        conn.execute("UPDATE players SET last_locale = 'en' WHERE id = ?", (ENGLISH,))
        conn.execute("UPDATE players SET last_locale = 'en', locale = 'fr' WHERE id = ?", (FRENCH_TOO,))
        for owner in (FRENCH, ENGLISH):
            for card in (SCOUT, HAYATE):
                ledger.mint_card(conn, now, owner, GAME, card, ledger.Movement("test"))

    await db.write(unit)
    clock.advance(MIN_MEMBERSHIP + timedelta(days=1))
    scheduler = Scheduler(db, clock, ZoneInfo("Europe/Paris"))
    try:
        yield TradeService(db, clock, registry, scheduler, cards, "en")
    finally:
        await scheduler.stop()


async def test_a_players_language_is_their_choice_then_discord_then_the_default(
    trades: TradeService, db: Database
) -> None:
    found = await db.read(
        lambda conn: reading_languages(conn, [FRENCH, ENGLISH, FRENCH_TOO, UNKNOWN, 99], "en")
    )
    assert found == {FRENCH: "fr", ENGLISH: "en", FRENCH_TOO: "fr", UNKNOWN: "en", 99: "en"}
    assert await db.read(lambda conn: reading_languages(conn, [UNKNOWN], "fr")) == {UNKNOWN: "fr"}


def shown(spec: MessageSpec, locale: str) -> str:
    texts = [spec.content] + [e.description for e in spec.embeds]
    texts += [f.value for e in spec.embeds for f in e.fields]
    return "\n".join(render_text(t, locale) for t in texts if t is not None)


async def dms(db: Database, player: int) -> list[MessageSpec]:
    rows = await db.read(
        lambda conn: conn.execute(
            "SELECT payload FROM outbox WHERE target_kind = 'dm' AND target_id = ? ORDER BY id", (player,)
        ).fetchall()
    )
    return [MessageSpec.from_json(row[0]) for row in rows]


async def copy_of(db: Database, owner: int, card: str) -> int:
    row = await db.read(
        lambda conn: conn.execute(
            "SELECT MIN(id) FROM cards WHERE owner_id = ? AND card_key = ?", (owner, card)
        ).fetchone()
    )
    return int(row[0])


async def test_a_french_and_an_english_player_each_read_the_card_in_their_language_beside_the_others(
    trades: TradeService, db: Database
) -> None:
    trade = await trades.open(GUILD, CHANNEL, FRENCH, ENGLISH, GAME)
    trade = await trades.add_card(GUILD, trade.id, FRENCH, str(await copy_of(db, FRENCH, SCOUT)))
    trade = await trades.add_card(GUILD, trade.id, FRENCH, str(await copy_of(db, FRENCH, HAYATE)))
    trade = await trades.add_card(GUILD, trade.id, ENGLISH, str(await copy_of(db, ENGLISH, SCOUT)))

    english = shown(await trades.window(trade, ENGLISH), "en")  # the English player's window
    french = shown((await dms(db, FRENCH))[-1], "fr")  # the DM the last change sent the French player
    assert english.count("Rice-field Scout (Éclaireur des rizières)") == 2
    assert french.count("Éclaireur des rizières (Rice-field Scout)") == 2
    hayate = await copy_of(db, FRENCH, HAYATE)  # one name in both languages: nothing beside it
    assert f"Taishō Hayate (#{hayate}," in english
    assert f"Taishō Hayate (#{hayate}," in french

    # a server's admin reading the trade trades with nobody: the names in their language only
    admin = shown(await trades.window(trade, 777), "fr")
    assert "Éclaireur des rizières" in admin
    assert "Rice-field Scout" not in admin

    trade = await trades.confirm(GUILD, trade.id, FRENCH, trade.version, "k1")
    await trades.confirm(GUILD, trade.id, ENGLISH, trade.version, "k2")
    (french_end,) = [spec for spec in await dms(db, FRENCH) if "trades.notice.trade.done" in spec.to_json()]
    assert "Éclaireur des rizières (Rice-field Scout)" in shown(french_end, "fr")


async def test_two_readers_of_one_language_read_the_card_alone(trades: TradeService, db: Database) -> None:
    """FRENCH_TOO's Discord is English but they chose French: they read French, like FRENCH."""
    trade = await trades.open(GUILD, CHANNEL, FRENCH, FRENCH_TOO, GAME)
    await trades.add_card(GUILD, trade.id, FRENCH, str(await copy_of(db, FRENCH, SCOUT)))
    window = shown((await dms(db, FRENCH_TOO))[-1], "fr")
    assert "Éclaireur des rizières" in window
    assert "Rice-field Scout" not in window


async def test_a_gift_is_announced_to_its_recipient_with_the_givers_name_beside(
    trades: TradeService, db: Database
) -> None:
    gift = await trades.gift(GUILD, CHANNEL, FRENCH, ENGLISH, GAME, SCOUT, None, locale="en")
    assert "Éclaireur des rizières (Rice-field Scout)" in shown(await trades.window(gift, FRENCH), "fr")
    await trades.confirm(GUILD, gift.id, FRENCH, gift.version, "g1")
    (received,) = await dms(db, ENGLISH)
    assert "Rice-field Scout (Éclaireur des rizières)" in shown(received, "en")
    (sent,) = [spec for spec in await dms(db, FRENCH) if "trades.notice.gift.done" in spec.to_json()]
    assert "Éclaireur des rizières (Rice-field Scout)" in shown(sent, "fr")
