"""Both languages are complete, placeholders agree, and no catalog key is dead or missing."""

from __future__ import annotations

import logging
import random
import re
from datetime import date, datetime

import pytest
from babel import numbers as babel_numbers

import core.i18n as i18n
from cogs.shared.duels import command_keys
from core.clock import ManualClock
from core.i18n import (
    CatalogError,
    Plural,
    catalogs,
    format_date,
    format_decimal,
    format_int,
    normalize_locale,
    placeholders,
    plural_tags,
    plurals,
    segments,
    t,
)
from core.message_guard import GUARD, LeakedInternal
from core.settings import SUPPORTED_LOCALES, load_settings
from discord_app.bot import CardBot, cog_modules
from discord_app.translator import translation_keys
from services.shared.duels import duel_keys
from tests.platform.code_files import ROOT, code_files
from tests.support.registries import every_game

KEY_LITERAL = re.compile(r"""["']([a-z][a-z0-9_]*(?:\.[a-z0-9_-]+)+)["']""")


def literal_keys() -> set[str]:
    known = set(catalogs()["fr"]) | set(catalogs()["en"])
    found: set[str] = set()
    for path in code_files():
        for match in KEY_LITERAL.finditer(path.read_text(encoding="utf-8")):
            if match.group(1) in known or match.group(1).split(".")[0] in {k.split(".")[0] for k in known}:
                found.add(match.group(1))
    return found | derived_keys()


def derived_keys() -> set[str]:
    """The keys a duel game's text tables name after its key (services/shared/duels.py and
    cogs/shared/duels.py), for each game with duels of its own (`services/<game>/duels.py`)."""
    games = sorted(p.parent.name for p in (ROOT / "services").glob("*/duels.py") if p.parent.name != "shared")
    assert {"pillz", "immortals"} <= set(games)
    return {key for game in games for key in duel_keys(game) | command_keys(game)}


@pytest.fixture
async def tree_keys() -> set[str]:
    bot = CardBot(load_settings(require_token=False, env_file=None), ManualClock())
    for module in cog_modules():
        await bot.load_extension(module)
    return translation_keys(bot.tree)


def test_both_languages_have_the_same_keys() -> None:
    fr, en = catalogs()["fr"], catalogs()["en"]
    assert sorted(set(fr) - set(en)) == [], "missing in English"
    assert sorted(set(en) - set(fr)) == [], "missing in French"


def test_placeholders_agree_between_languages() -> None:
    fr, en = catalogs()["fr"], catalogs()["en"]
    mismatched = [k for k in fr if placeholders(fr[k]) != placeholders(en[k])]
    assert mismatched == []


async def test_every_command_string_is_translated(tree_keys: set[str]) -> None:
    for lang, table in catalogs().items():
        assert sorted(tree_keys - set(table)) == [], f"command strings missing in {lang}"


def convention_keys() -> set[str]:
    """Keys the code builds by a naming convention instead of writing them: each declared currency's
    amount (`Currency.amount_key`, read by `games.money` without a registry)."""
    return {c.amount_key for c in every_game().currencies()}


async def test_every_catalog_key_is_used(tree_keys: set[str]) -> None:
    used = literal_keys() | tree_keys | convention_keys()
    unused = sorted(set(catalogs()["fr"]) - used)
    assert unused == [], f"catalog keys no code uses: {unused}"


def test_every_key_the_code_names_exists() -> None:
    known = set(catalogs()["fr"])
    named = literal_keys() | convention_keys()
    missing = sorted(k for k in named if k not in known and not k.startswith(("data.", "tests.")))
    assert missing == []


async def test_command_names_follow_discord_rules(tree_keys: set[str]) -> None:
    name_rule = re.compile(r"^[-_'\w]{1,32}$")
    for lang, table in catalogs().items():
        for key in tree_keys:
            if key.endswith(".name") and key.startswith("cmd."):
                assert name_rule.match(table[key]), (lang, key, table[key])
                assert table[key] == table[key].lower(), (lang, key, table[key])
            if key.endswith(".description"):
                assert 1 <= len(table[key]) <= 100, (lang, key)


def test_locale_mapping() -> None:
    assert normalize_locale("fr") == "fr"
    assert normalize_locale("en-US") == "en"
    assert normalize_locale("en-GB") == "en"
    assert normalize_locale("de") == "fr"
    assert normalize_locale(None) == "fr"


def test_translation_falls_back_and_formats() -> None:
    assert t("profile.title", "en", name="Ada") == "Ada's profile"
    assert t("profile.title", "fr", name="Ada") == "Profil d'Ada"
    assert t("profile.title", "de", name="Ada") == "Profil d'Ada"
    assert format_int(25000, "en") == "25,000"
    assert format_int(25000, "fr") == "25\u202f000"


def test_a_missing_text_falls_back_and_is_reported_at_every_use(caplog: pytest.LogCaptureFixture) -> None:
    """Texts are remembered per language once looked up; a missing one still warns each time it is used."""
    with caplog.at_level(logging.WARNING, logger="core.i18n"):
        assert t("no.such.key", "en", n=1) == "no.such.key"
        assert t("no.such.key", "en", n=1) == "no.such.key"
    assert [r.getMessage() for r in caplog.records] == ["missing message no.such.key for en"] * 2


def test_a_day_is_written_out_and_an_instant_is_not_shown_as_python_writes_it() -> None:
    """An instant is no day: a message shows a time as a Discord timestamp, never « 2026-01-05 12:30:00 »
    (core/message_guard.py refuses it, tests/platform/test_message_guard.py)."""
    assert "5 janvier 2026" in t("hoss.raffle.error.no_draw", "fr", day=date(2026, 1, 5))
    with pytest.raises(LeakedInternal, match="parameter day is a datetime object"):
        t("hoss.raffle.error.no_draw", "fr", day=datetime(2026, 1, 5, 12, 30))
    GUARD.findings.clear()


def test_decimals_use_each_languages_mark() -> None:
    assert format_decimal(12.5, "fr") == "12,5"
    assert format_decimal(12.5, "en") == "12.5"
    assert format_decimal(3.0, "fr") == "3"
    assert format_decimal(0.416666, "fr", ".2f") == "0,42"


def test_a_decimal_written_again_asks_babel_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """/card writes a HOSS creature's attack interval at every look: Babel (about 100 µs a number) writes
    each value once per language and spec, then it is kept."""
    calls: list[object] = []
    babels = babel_numbers.format_decimal

    def counted(*args: object, **kwargs: object) -> str:
        calls.append(args[0])
        return babels(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(babel_numbers, "format_decimal", counted)
    assert [format_decimal(7.8125, "fr") for _ in range(3)] == ["7,8125"] * 3
    assert format_decimal(7.8125, "en") == "7.8125"
    assert format_decimal(7.8125, "fr", ".2f") == "7,81"
    assert len(calls) == 3  # fr, en, fr rounded to two decimals


def test_no_catalog_text_writes_a_plural_by_hand() -> None:
    """« carte(s) » reads badly and « 1 copies » is wrong: a counted noun is a plural block."""
    by_hand = re.compile(r"\((?:s|es|x)\)")
    found = [
        (lang, key)
        for lang, table in catalogs().items()
        for key, text in table.items()
        if by_hand.search(text)
    ]
    assert found == []


def test_every_plural_block_has_the_forms_its_language_needs() -> None:
    for lang, table in catalogs().items():
        needed = plural_tags(lang)
        for key, text in table.items():
            for block in plurals(text):
                forms = {f for f in block.branches if not f.startswith("=")}
                assert needed <= forms, (lang, key, block.name, sorted(needed - forms))
                assert forms <= needed, (lang, key, block.name, sorted(forms - needed))


def test_babel_says_which_forms_each_language_needs() -> None:
    assert plural_tags("fr") == {"one", "many", "other"}  # 0 and 1 are singular; « 1 000 000 de cartes »
    assert plural_tags("en") == {"one", "other"}


@pytest.mark.parametrize(
    ("lang", "count", "expected"),
    [
        ("fr", 0, "Deck invalide (0 problème)"),
        ("fr", 1, "Deck invalide (1 problème)"),
        ("fr", 2, "Deck invalide (2 problèmes)"),
        ("fr", 1_000_000, "Deck invalide (1\u202f000\u202f000 de problèmes)"),
        ("en", 0, "Invalid deck (0 problems)"),
        ("en", 1, "Invalid deck (1 problem)"),
        ("en", 2, "Invalid deck (2 problems)"),
        ("en", 1_000_000, "Invalid deck (1,000,000 problems)"),
    ],
)
def test_plurals_follow_each_languages_rules(lang: str, count: int, expected: str) -> None:
    assert t("hoss.deck.invalid", lang, count=count) == expected


def test_a_plural_chosen_by_a_number_already_written_and_beside_other_placeholders() -> None:
    assert t("hoss.sale.done", "fr", count="1", total="5 or", balance="7 or") == (
        "Vente confirmée\u00a0: 1 carte vendue pour 5 or. Solde\u00a0: 7 or."
    )
    assert t("hoss.arena.post.more", "fr", count="9\u202f980") == "… et 9\u202f980 autres joueurs"
    assert t("choco.event.effect_mill", "en", count=1, player="Bob", cards="X") == (
        "⇝ 1 card from Bob's deck goes to the graveyard: X."
    )
    assert (
        t("hoss.fuse.result_title", "fr", name="N", successes=2, count=3) == "Fusion de N\u00a0: 2/3 réussies"
    )


def test_loading_the_catalogs_loads_each_languages_babel_data() -> None:
    """A language's first plural or number in a reply would otherwise pay Babel's data load (3 to 8 ms)."""
    i18n.catalogs.cache_clear()
    i18n._plural_rule.cache_clear()
    i18n._group_symbols.cache_clear()
    catalogs()
    assert i18n._plural_rule.cache_info().currsize == len(SUPPORTED_LOCALES)
    assert i18n._group_symbols.cache_info().currsize == len(SUPPORTED_LOCALES)


def test_a_plural_block_is_parsed_with_its_placeholders() -> None:
    text = "{count, plural, one {# carte de {player}} many {# de cartes} other {# cartes}} ; {{x}}"
    assert placeholders(text) == {"count", "player"}
    (block,) = [p for p in segments(text) if isinstance(p, Plural)]
    assert block.branches == {"one": "# carte de {player}", "many": "# de cartes", "other": "# cartes"}
    with pytest.raises(CatalogError, match="bad plural branch"):
        segments("{count, plural, one {# carte} autre {# cartes}}")
    with pytest.raises(CatalogError, match="unbalanced braces"):
        segments("{count, plural, one {# carte} other {# cartes}")


def test_numbers_and_dates_are_written_by_babel() -> None:
    assert format_int(1234567, "fr") == "1\u202f234\u202f567"  # narrow no-break spaces (CLDR)
    assert format_int(1234567, "en") == "1,234,567"
    assert format_int(-25000, "fr") == "-25\u202f000"
    assert format_decimal(12345.5, "fr") == "12\u202f345,5"
    assert format_decimal(0.5, "en", ".2f") == "0.50"
    assert format_date(date(2026, 12, 1), "fr") == "1 décembre 2026"
    assert format_date(date(2026, 12, 1), "en") == "December 1, 2026"
    assert t("hoss.raffle.error.no_draw", "fr", day=date(2026, 1, 5)) == (
        "Aucun tirage de la tombola le 5 janvier 2026 sur ce serveur."
    )


@pytest.mark.parametrize("lang", SUPPORTED_LOCALES)
def test_grouping_is_babels(lang: str) -> None:
    """format_int groups by itself in the bot's languages; the text must be Babel's, sign and all."""
    rng = random.Random(19)
    values = [0, 1, -1, 999, 1000, -1000, 999_999, 1_000_000, -25_000, 2**62, -(2**62)]
    values += [sign * (10**k + delta) for k in range(1, 16) for delta in (-1, 0, 1) for sign in (1, -1)]
    values += [rng.randrange(-(10**12), 10**12) for _ in range(2000)]
    for value in values:
        assert format_int(value, lang) == babel_numbers.format_decimal(value, locale=lang), value


def test_a_remembered_plural_category_is_babels_for_ints_and_floats() -> None:
    from babel import Locale

    from core.i18n import _category

    for lang in ("fr", "en"):
        rule = Locale.parse(lang).plural_form
        for count in [*range(-3, 30), 100, 1_000_000, 0.0, 1.0, 1.5, 2.0, 1e6]:
            for _ in range(2):  # computed, then remembered
                assert _category(lang, count) == rule(count), (lang, count)
    assert _category("en", 1) == "one"
    assert _category("fr", 1.5) == "one"
