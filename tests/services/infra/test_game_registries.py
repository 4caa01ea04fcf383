"""The game registry is a value each container builds and hands to its services: two containers with
different games live side by side in one process, each answering for its own games only. An amount of a
currency is written without any registry, its message found by the currency's code."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.clock import ManualClock
from core.i18n import t
from core.settings import Settings
from services.hoss import GAME as HOSS
from services.infra import ledger
from services.infra.container import Services, build_services
from services.infra.games import Currency, GameRegistry, GameSpec, money
from services.infra.messages import Text, render_text
from services.pillz import GAME as PILLZ
from services.pillz.economy import PILLZ_GOLD
from tests.support.registries import every_game


async def _container(folder: Path, registry: GameRegistry) -> Services:
    settings = Settings(_env_file=None, discord_token="test", database_path=folder / "bot.sqlite3")
    return await build_services(settings, ManualClock(), registry=registry)


async def test_two_containers_with_different_games_do_not_see_each_other(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    pillz_only = await _container(tmp_path / "a", GameRegistry((PILLZ,)))
    both = await _container(tmp_path / "b", GameRegistry((PILLZ, HOSS)))
    try:
        assert pillz_only.registry.get("hoss") is None
        assert both.registry.get("hoss") is HOSS
        assert sorted(pillz_only.games) == ["pillz"]
        assert sorted(both.games) == ["hoss", "pillz"]
        # a new player gets the starting wallets of the games of their own container only
        await pillz_only.players.ensure(7)
        await both.players.ensure(7)
        alone = await pillz_only.db.read(lambda conn: ledger.balances(conn, 7))
        beside = await both.db.read(lambda conn: ledger.balances(conn, 7))
        assert alone == {PILLZ_GOLD: PILLZ.currencies[0].starting}
        assert beside == {PILLZ_GOLD: PILLZ.currencies[0].starting, "hoss_gold": HOSS.currencies[0].starting}
    finally:
        await pillz_only.close()
        await both.close()


def test_registries_are_fixed_once_built() -> None:
    registry = GameRegistry((PILLZ,))
    grown = registry.with_games(HOSS)
    assert [g.key for g in registry.all_games()] == ["pillz"]  # left as it was
    assert [g.key for g in grown.all_games()] == ["hoss", "pillz"]
    registry.all_games().clear()  # a copy: the registry keeps its games
    assert registry.get("pillz") is PILLZ
    impostor = GameSpec(key="pillz", name_key="pillz.name", command_group="pillz")
    with pytest.raises(ValueError, match="registered twice"):
        registry.with_games(impostor)
    assert GameRegistry((PILLZ, PILLZ)).all_games() == [PILLZ]  # the same spec twice is harmless


def test_the_amount_messages_are_the_ones_the_games_declared_before_the_convention() -> None:
    assert sorted(c.amount_key for c in every_game().currencies()) == [
        "choco.gold_amount",
        "dinocard.gold_amount",
        "hoss.gold_amount",
        "immortals.fragments_amount",
        "immortals.gold_amount",
        "pillz.gold_amount",
    ]


@pytest.mark.parametrize("currency", every_game().currencies(), ids=lambda c: c.code)
def test_an_amount_is_named_by_its_currencys_code_in_both_languages(currency: Currency) -> None:
    code, key = currency.code, currency.amount_key
    assert money(code, 1500) == Text(key, {"amount": 1500})
    for locale in ("fr", "en"):
        assert render_text(money(code, 1500), locale) == t(key, locale, amount=1500)


def test_an_amount_of_a_currency_no_game_declares_shows_its_code() -> None:
    assert money("zz_coins", 3) == Text.raw("3 zz_coins")
    assert render_text(money("zz_coins", 3), "fr") == "3 zz_coins"
