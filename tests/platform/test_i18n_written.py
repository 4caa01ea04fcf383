"""`t` remembers the texts it wrote with parameters (core/i18n.py, `_WRITTEN`): a text written again is the
same, and every call that logs a warning (a missing text, a parameter the guard refuses, a lacking one)
still logs it each time. The memo is off while the tests' wording check reads each call: these tests
switch that check off."""

from __future__ import annotations

import logging

import pytest

import core.i18n as i18n
from benchmarks.render_path import scenes
from core.i18n import t
from core.message_guard import GUARD
from discord_app.render import to_discord
from services.infra import messages

KEY = "immortals.recap.absent"  # « {player} n'a fait aucun choix… »: one parameter, no plural block


pytestmark = pytest.mark.usefixtures("unread")


def test_a_text_written_again_is_the_one_written_first_and_equals_the_text_read_by_the_wording_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = t(KEY, "fr", player="Alice")
    assert ("fr", KEY, ("player", "Alice")) in i18n._WRITTEN
    assert t(KEY, "fr", player="Alice") is first
    assert t(KEY, "en", player="Alice") != first  # by language
    assert t(KEY, "fr", player="Bob") == first.replace("Alice", "Bob")
    monkeypatch.setattr(GUARD, "wording", lambda text, lang: [])
    assert str(t(KEY, "fr", player="Alice")) == first  # the path every call took before


def test_only_str_and_int_parameters_are_remembered() -> None:
    t(KEY, "fr", player=True)
    t("profile.title", "fr", name=3)
    assert list(i18n._WRITTEN) == [("fr", "profile.title", ("name", 3))]


def test_a_missing_text_or_a_lacking_parameter_warns_at_every_call(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="core.i18n"):
        for _ in range(2):
            assert t("no.such.key", "en", player="Alice") == "no.such.key"
            t(KEY, "fr", other="Alice")
    assert [r.getMessage() for r in caplog.records] == [
        "missing message no.such.key for en",
        f"message {KEY} for fr lacks parameters ['other']",
    ] * 2
    assert i18n._WRITTEN == {}


def test_a_refused_parameter_is_logged_at_every_call_even_once_forbidden_after_a_first_text(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    written = t(KEY, "fr", player="zz-card-id")  # not yet a card id: written and remembered
    monkeypatch.setattr(GUARD, "forbidden", GUARD.forbidden | {"zz-card-id"})
    with caplog.at_level(logging.WARNING, logger="core.message_guard"):
        assert t(KEY, "fr", player="zz-card-id") == written  # shown, and logged
        assert t(KEY, "fr", player="zz-card-id") == written
    assert len([r for r in caplog.records if "zz-card-id" in r.getMessage()]) == 2


def test_catalogs_loaded_again_drop_the_texts_written(monkeypatch: pytest.MonkeyPatch) -> None:
    t(KEY, "fr", player="Alice")
    fresh = {lang: dict(texts) for lang, texts in i18n.catalogs().items()}
    monkeypatch.setattr(i18n, "catalogs", lambda: fresh)
    t("profile.title", "fr", name="Ada")
    assert list(i18n._WRITTEN) == [("fr", "profile.title", ("name", "Ada"))]


async def test_the_benchmarks_posts_are_rendered_as_before_from_the_texts_remembered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The posts of benchmarks/render_specs.json (a Chocobataille turn, HOSS, Pillz, a trade), rendered as
    discord.py sends them: the same with the texts and lines remembered, written first then found, as each
    call writing them anew (the wording check's path)."""

    def sent() -> list[object]:
        out: list[object] = []
        for specs in scenes().values():
            for spec, locale in specs:
                kwargs = to_discord(spec, locale)
                view = kwargs.get("view")
                out.append(
                    (
                        kwargs.get("content"),
                        [embed.to_dict() for embed in kwargs["embeds"]],
                        None if view is None else view.to_components(),
                    )
                )
        return out

    written, found = sent(), sent()
    assert len(i18n._WRITTEN) > 0
    assert len(messages._kept_lines) > 0  # and the lines, kept whole
    monkeypatch.setattr(GUARD, "wording", lambda text, lang: [])
    assert written == found == sent()
