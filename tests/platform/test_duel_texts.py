"""A duel game's text tables, derived from its key (services/shared/duels.py, cogs/shared/duels.py), name
the keys the game wrote out by hand before, a game overrides one entry alone, and each game's
`DuelCommands` mixin has commands of its own."""

from __future__ import annotations

from typing import Any

from discord import app_commands

from cogs.immortals.duel import ImmortalsDuelCommands
from cogs.pillz.duel import PillzDuelCommands
from cogs.shared.duels import DuelCommandTexts
from services.shared.challenges import ChallengeTexts
from services.shared.duels import challenge_texts, choice_time, match_texts, timeout_job
from services.shared.matches import MatchTexts
from services.shared.render.duel import DuelTexts


def test_pillz_tables_name_the_keys_it_wrote_out() -> None:
    assert match_texts("pillz") == MatchTexts(
        stale="pillz.error.stale",
        stale_button="pillz.duel.play_button",
        not_found="pillz.error.no_duel",
        not_player="pillz.error.not_player",
        not_your_turn="pillz.error.not_your_turn",
    )
    assert challenge_texts("pillz") == ChallengeTexts(
        self_challenge="pillz.error.self_challenge",
        not_yours="pillz.error.not_your_challenge",
        answered="pillz.error.answered",
        own="pillz.error.own_challenge",
        own_button="pillz.challenge.decline",
    )
    assert DuelTexts.of("pillz") == DuelTexts(
        ai="pillz.duel.ai",
        timeout_note="pillz.duel.timeout_note",
        deadline="pillz.duel.deadline",
        play_button="pillz.duel.play_button",
        title="pillz.duel.title",
        title_practice="pillz.duel.title_practice",
        seat_player="pillz.duel.seat_player",
    )
    assert DuelCommandTexts.of("pillz") == DuelCommandTexts(
        game="pillz",
        open="pillz.challenge.open",
        accept="pillz.challenge.accept",
        decline="pillz.challenge.decline",
        accepted="pillz.challenge.accepted",
        declined="pillz.challenge.declined",
        expired="pillz.challenge.expired",
        pending="pillz.challenge.pending",
        bot_opponent="pillz.error.bot_opponent",
        practice_started="pillz.practice.started",
        play_button="pillz.duel.play_button",
    )
    assert (choice_time("pillz").table, choice_time("pillz").error_key) == (
        "pillz_guild_settings",
        "pillz.error.choice_time",
    )
    assert timeout_job("immortals") == "immortals:timeout"


def test_an_override_changes_that_entry_alone() -> None:
    texts = match_texts("immortals", not_found="immortals.error.gone")
    assert texts.not_found == "immortals.error.gone"
    assert texts.stale == "immortals.error.stale"
    assert (
        DuelCommandTexts.of("immortals", pending="immortals.challenge.waiting").open
        == "immortals.challenge.open"
    )


def description_key(command: app_commands.Command[Any, ..., Any]) -> str:
    described = command._locale_description
    assert described is not None
    return str(described.extras["key"])


def test_each_game_has_its_own_challenge_and_practice() -> None:
    pillz, immortals = PillzDuelCommands, ImmortalsDuelCommands
    assert pillz.challenge is not immortals.challenge
    assert pillz.texts.game == "pillz"
    assert immortals.texts.game == "immortals"
    for mixin, game in ((pillz, "pillz"), (immortals, "immortals")):
        keys = {description_key(mixin.challenge), description_key(mixin.practice)}
        assert keys == {f"cmd.{game}.challenge.description", f"cmd.{game}.practice.description"}
        assert mixin.challenge.guild_only
        assert mixin.practice.guild_only
        assert [p.name for p in mixin.challenge.parameters] == ["player"]
