"""The sandbox's line language."""

from __future__ import annotations

from datetime import timedelta

import pytest

from sandbox.script import (
    ChannelMention,
    Click,
    Command,
    Each,
    Given,
    Mention,
    Modal,
    Restart,
    ScriptError,
    Select,
    UserSetup,
    Wait,
    parse_line,
)


def test_blank_and_comment_lines_are_skipped() -> None:
    assert parse_line("") is None
    assert parse_line("   # a note") is None


def test_command_with_path_options_quotes_and_mentions() -> None:
    step = parse_line('alice: /choco challenge player:@bob league:bronze note:"two words"')
    assert step == Command(
        "alice", "choco challenge", {"player": Mention("bob"), "league": "bronze", "note": "two words"}
    )


def test_a_channel_is_named_as_discord_shows_it() -> None:
    step = parse_line("admin1: /configuration annonces salon:#general texte:#")
    assert step == Command(
        "admin1", "configuration annonces", {"salon": ChannelMention("general"), "texte": "#"}
    )


def test_command_without_options() -> None:
    assert parse_line("alice: /profile") == Command("alice", "profile", {})


@pytest.mark.parametrize(
    ("text", "delta"),
    [
        ("wait 25h", timedelta(hours=25)),
        ("wait 30s", timedelta(seconds=30)),
        ("wait 1d12h", timedelta(hours=36)),
    ],
)
def test_wait_durations(text: str, delta: timedelta) -> None:
    assert parse_line(text) == Wait(delta)


def test_click_select_modal() -> None:
    assert parse_line('bob: click "Accepter le défi"') == Click("bob", "Accepter le défi")
    assert parse_line('bob: select "English"') == Select("bob", "English")
    assert parse_line('bob: modal name=Merlin motto="pour la gloire"') == Modal(
        "bob", {"name": "Merlin", "motto": "pour la gloire"}
    )


def test_restart_and_given() -> None:
    assert parse_line("restart") == Restart()
    assert parse_line("restart after 1d2h") == Restart(timedelta(hours=26))
    assert parse_line("given alice hoss-arena-ready") == Given("alice", "hoss-arena-ready")


def test_user_setup() -> None:
    assert parse_line("user bob en dms-closed") == UserSetup("bob", "en-US", True, False)


@pytest.mark.parametrize(
    "text",
    [
        "wait forever",
        "alice /profile",
        "alice: dance",
        'alice: click "unclosed',
        "alice: / opt:1",
        "user",
        "restart soon",
        "restart after",
        "given alice",
        "given alice two fixtures",
    ],
)
def test_bad_lines_are_explained(text: str) -> None:
    with pytest.raises(ScriptError):
        parse_line(text)


def test_a_range_of_users_does_the_same_action_each_in_turn() -> None:
    step = parse_line('p08..p11: click "Prêt"')
    assert step == Each(
        (Click("p08", "Prêt"), Click("p09", "Prêt"), Click("p10", "Prêt"), Click("p11", "Prêt"))
    )
    assert parse_line("u1..u2: /profile") == Each(
        (Command("u1", "profile", {}), Command("u2", "profile", {}))
    )


@pytest.mark.parametrize("line", ["p09..p02: /profile", "p001..p200: /profile"])
def test_a_range_goes_up_and_holds_a_hundred_users_at_most(line: str) -> None:
    with pytest.raises(ScriptError, match="range of users"):
        parse_line(line)
