"""A card's name where players of two languages meet over it: a trade and its DMs, a gift, a duel
(docs/trades.md and docs/pillz/duels.md, "Card names across languages").

Each reader reads the card in the language of the text they read, with its name in the other player's
language beside it where the two names differ: « Émeric Chardon (Émeric Thistle) » for a French reader
trading with an English one, « Émeric Thistle (Émeric Chardon) » for the English one, so that they can
speak of it to each other. Nothing is added when both read the language of the text, nor when the card
bears the same name in both.

A player's language is the one their direct messages are written in (services/infra/outbox.py):
their /settings choice, else the last Discord language they used the bot in, else the bot's default.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from core.i18n import t
from core.settings import SUPPORTED_LOCALES
from engine.cards import LocalizedText
from services.infra.messages import Text
from store.connection import Connection


def reading_languages(
    conn: Connection, players: Iterable[int], default: str, read: dict[int, str] | None = None
) -> dict[int, str]:
    """The language each of `players` reads the bot in; `default` for one the bot knows no language of
    (never seen, erased, or a Discord language the bot does not speak). `read`: what this unit already
    read (it writes no language), filled in, so that a unit asking several times reads each player once."""
    wanted = sorted(set(players))
    done = {} if read is None else read
    missing = [player for player in wanted if player not in done]
    if missing:
        marks = ", ".join("?" for _ in missing)
        rows = conn.execute(
            f"SELECT id, COALESCE(locale, last_locale) FROM players WHERE id IN ({marks})", missing
        ).fetchall()
        known = {int(row[0]): str(row[1]) for row in rows if row[1] in SUPPORTED_LOCALES}
        done.update((player, known.get(player, default)) for player in missing)
    return {player: done[player] for player in wanted}


def beside(name: LocalizedText, others: Iterable[str]) -> Text | None:
    """The name in the reader's language with its name in each language of `others` beside it where
    they differ, as a text written in every language (`Text.per_locale`); None when no reader's
    language would get anything added (the caller keeps its usual name)."""
    return _beside(name, tuple(dict.fromkeys(lang for lang in others if lang in SUPPORTED_LOCALES)))


@lru_cache(maxsize=4096)
def _beside(name: LocalizedText, wanted: tuple[str, ...]) -> Text | None:
    """`beside` for the languages `wanted`, written once per name and languages: a duel's public message
    names each of its cards at every step, and both seats' controls name them again (issue 39). The
    catalogs are loaded once per process (`core.i18n.catalogs`), so a name's text never changes; a
    `Text` is a value (frozen, its params never changed), so one may be shared."""
    texts = {}
    added = False
    for lang in SUPPORTED_LOCALES:
        shown = name.get(lang)
        for other in wanted:
            other_name = name.get(other)
            if other != lang and other_name != name.get(lang):
                shown = t("cards.name.beside", lang, name=shown, other=other_name)
                added = True
        texts[lang] = shown
    return Text.per_locale(texts) if added else None


def named(name: LocalizedText, others: Iterable[str]) -> Text:
    """`beside`, or the name alone in the reader's language."""
    return beside(name, others) or Text.per_locale({lang: name.get(lang) for lang in SUPPORTED_LOCALES})
