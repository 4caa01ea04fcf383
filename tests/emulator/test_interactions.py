"""Round trips through the real discord.py client: commands, components, modals, deferrals."""

from __future__ import annotations

import asyncio

import pytest

from emulator import DiscordEmulator, EmulatorError
from emulator.actions import as_seen
from emulator.interactions import InteractionResult
from tests.emulator.conftest import EmulatedBot


async def test_login_syncs_guild_commands(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    guild = emu.guild("Test Server")
    names = {command["name"] for command in emu.registered_commands(guild)}
    assert {"echo", "profile", "settings", "card", "vote", "feedback", "slow", "hand", "table"} <= names
    assert [command["name"] for command in emu.registered_commands()] == ["ping"]
    assert [(r.method, r.path) for r in emu.requests[:2]] == [
        ("GET", "/users/@me"),
        ("GET", "/oauth2/applications/@me"),
    ]
    assert bot.user is not None
    assert bot.user.id == emu.bot_user.id
    assert bot.get_guild(guild.id) is not None
    emu.assert_no_errors()


async def test_command_with_typed_options(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    alice, bob = emu.user("alice"), emu.user("bob")

    result = await emu.run_command(alice, "echo", {"text": "hi", "times": 2, "member": bob})

    assert result.content == "hi hi for bob (locale fr)"
    assert result.message is not None
    assert result.message.where == ("channel", "general")
    assert emu.channel_messages(emu.channel("general")) == [result.message]
    emu.assert_no_errors()


async def test_bad_invocations_raise_in_the_caller(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    alice = emu.user("alice")
    with pytest.raises(EmulatorError, match="unknown command 'nope'"):
        await emu.run_command(alice, "nope")
    with pytest.raises(EmulatorError, match="unknown option 'bogus'"):
        await emu.run_command(alice, "echo", {"text": "x", "bogus": 1})
    with pytest.raises(EmulatorError, match="missing required option 'text'"):
        await emu.run_command(alice, "echo")
    with pytest.raises(EmulatorError, match="expects integer"):
        await emu.run_command(alice, "echo", {"text": "x", "times": "two"})
    with pytest.raises(EmulatorError, match="expects integer"):
        await emu.run_command(alice, "echo", {"text": "x", "times": 2.5})
    with pytest.raises(EmulatorError, match="needs a subcommand"):
        await emu.run_command(alice, "settings")
    with pytest.raises(EmulatorError, match="not one of the choices"):
        await emu.run_command(alice, "settings language", {"value": "Klingon"})
    with pytest.raises(EmulatorError, match="unknown command 'echo'"):
        await emu.run_command(alice, "echo", {"text": "x"}, channel=emu.dm_channel(alice))
    assert emu.interactions == []


async def test_subcommand_with_choice_name_answers_ephemerally(
    emu: DiscordEmulator, bot: EmulatedBot
) -> None:
    alice = emu.user("alice")

    result = await emu.run_command(alice, "settings language", {"value": "English"})

    assert result.content == "language: en"
    assert result.ephemeral
    assert result.message is not None
    assert result.message.where == ("ephemeral", "alice")
    assert emu.ephemeral_messages(alice) == [result.message]
    assert emu.channel_messages(emu.channel("general")) == []
    assert emu.visible_to(emu.user("bob")) == []


async def test_localized_command_and_option_names(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    alice, bob = emu.user("alice"), emu.user("bob")
    [profile] = [c for c in emu.registered_commands(emu.guild("Test Server")) if c["name"] == "profile"]
    assert profile["name_localizations"]["fr"] == "profil"

    result = await emu.run_command(alice, "profil", {"membre": bob})

    assert result.embeds[0]["title"] == "bob"
    assert result.embeds[0]["fields"] == [{"name": "id", "value": str(bob.id), "inline": True}]
    assert "bob" in emu.render(result.messages[0])


async def test_autocomplete_returns_the_bots_choices(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    alice = emu.user("alice")

    choices = await emu.autocomplete(alice, "card", option="name", value="dr")

    assert [c["name"] for c in choices] == ["Dragon", "Drake", "Dryad"]
    assert choices[0]["value"] == "dragon"


async def test_button_updates_its_message(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    alice = emu.user("alice")
    vote = await emu.run_command(alice, "vote")
    assert vote.message is not None
    assert vote.message.button_labels == ["Accept", "Later", "Details", "Rename"]

    clicked = await emu.click(alice, "Accept")

    assert clicked.message is vote.message
    assert vote.message.content == "accepted by alice"
    assert vote.message.components == []
    assert vote.message.history[0]["content"] == "Do you agree?"
    with pytest.raises(EmulatorError, match="no button 'Accept'"):
        await emu.click(alice, "Accept")


async def test_deferred_button_then_original_edit(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    alice = emu.user("alice")
    vote = await emu.run_command(alice, "vote")

    clicked = await emu.click(alice, custom_id="vote:later")

    assert clicked.callback_type == 6
    assert vote.message is not None
    assert clicked.message is vote.message
    assert vote.message.content == "postponed"


async def test_button_with_ephemeral_reply(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    alice, bob = emu.user("alice"), emu.user("bob")
    await emu.run_command(alice, "vote")

    clicked = await emu.click(bob, "Details")

    assert clicked.content == "only you see this"
    assert clicked.ephemeral
    assert emu.ephemeral_messages(bob) == clicked.messages
    assert emu.ephemeral_messages(alice) == []


async def test_string_select(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    alice = emu.user("alice")
    menu = await emu.run_command(alice, "language-menu")
    assert menu.message is not None
    assert menu.message.select_options == ["English", "Français"]

    picked = await emu.select(alice, "Français")

    assert picked.content == "language set to fr"
    with pytest.raises(EmulatorError, match="select offering"):
        await emu.select(alice, "Klingon")


async def test_modal_round_trip(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    alice = emu.user("alice")
    opened = await emu.run_command(alice, "feedback")
    assert opened.callback_type == 9
    assert opened.modal is not None
    assert opened.modal["title"] == "Feedback"
    assert opened.messages == []

    with pytest.raises(EmulatorError, match="'Subject' is required"):
        await emu.submit_modal(alice, {"details": "no subject"})
    await emu.run_command(alice, "feedback")
    submitted = await emu.submit_modal(alice, {"Subject": "cards", "details": "more please"})

    assert submitted.content == "thanks for 'cards' ('more please')"
    with pytest.raises(EmulatorError, match="no modal is open"):
        await emu.submit_modal(alice, {"Subject": "again"})


async def test_deferred_command_with_followups(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    alice = emu.user("alice")

    result = await emu.run_command(alice, "slow")

    assert result.callback_type == 5
    assert result.content == "done after thinking"
    assert result.message is not None
    assert not result.message.loading
    await emu.settle()
    assert [m.content for m in result.messages] == ["done after thinking", "a second follow-up"]
    assert result.messages[1].where == ("ephemeral", "alice")
    assert [m.content for m in emu.channel_messages(emu.channel("general"))] == ["done after thinking"]


async def test_user_context_menu(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    result = await emu.run_context_menu(emu.user("alice"), "Inspect", emu.user("bob"))

    assert result.content == "inspecting bob"
    assert result.ephemeral


async def test_modal_opened_from_a_button_edits_that_message(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    alice = emu.user("alice")
    vote = await emu.run_command(alice, "vote")
    opened = await emu.click(alice, "Rename")
    assert opened.modal is not None
    assert opened.modal["title"] == "Rename the vote"

    submitted = await emu.submit_modal(alice, {"New name": "lunch"})

    assert submitted.callback_type == 7
    assert vote.message is not None
    assert submitted.message is vote.message
    assert vote.message.content == "vote renamed to lunch"


async def test_global_command_and_buttons_in_dms(emu: DiscordEmulator, bot: EmulatedBot) -> None:
    alice = emu.user("alice")
    dm = emu.dm_channel(alice)

    result = await emu.run_command(alice, "ping", channel=dm)

    assert result.content == "pong from DM"
    assert result.message is not None
    assert result.message.where == ("dm", "alice")
    clicked = await emu.click(alice, "Accept")
    assert clicked.message is result.message
    assert result.message.content == "accepted by alice"
    in_guild = await emu.run_command(alice, "ping", channel=emu.channel("games"))
    assert in_guild.content == "pong from Test Server"


async def test_an_unanswered_interaction_times_out_with_a_clear_error(
    emu: DiscordEmulator, bot: EmulatedBot
) -> None:
    emu.action_timeout = 0.05

    with pytest.raises(EmulatorError, match=r"got no complete answer within 0\.05s \(no callback\)"):
        await emu.run_command(emu.user("alice"), "ignore")


async def test_clearing_the_records_forgets_answered_interactions(
    emu: DiscordEmulator, bot: EmulatedBot
) -> None:
    """A benchmark clears between phases: nothing of a finished interaction stays to be walked by the
    collector, and its token is then unknown, as after Discord's 15 minutes."""
    alice = emu.user("alice")
    result = await emu.run_command(alice, "echo", {"text": "hi"})
    token = result.interaction.token
    assert emu.interaction_by_token(token) is not None
    emu.clear_records()
    assert emu.interactions == []
    assert emu.messages == []
    assert emu.requests == []
    assert emu.interaction_by_token(token) is None
    again = await emu.run_command(alice, "echo", {"text": "again"})
    assert again.content.startswith("again")
    assert emu.interactions == [again.interaction]


async def test_clearing_the_records_keeps_an_interaction_still_being_answered(
    emu: DiscordEmulator, bot: EmulatedBot
) -> None:
    alice = emu.user("alice")
    slow = asyncio.create_task(emu.run_command(alice, "slow"))
    for _ in range(2000):  # until deferred (its follow-ups come 10 ms later), at most 2 s
        if emu.interactions and emu.interactions[0].callback_type is not None:
            break
        await asyncio.sleep(0.001)
    emu.clear_records()
    assert len(emu.interactions) == 1
    result = await slow
    assert result.content == "done after thinking"


async def test_forgetting_an_answered_interaction_leaves_nothing_of_it_and_keeps_the_rest(
    emu: DiscordEmulator, bot: EmulatedBot
) -> None:
    alice = emu.user("alice")
    kept = await emu.run_command(alice, "echo", {"text": "kept"})
    gone = await emu.run_command(alice, "echo", {"text": "gone"})
    assert gone.content.startswith("gone")
    emu.forget([gone])
    token = gone.interaction.token
    assert emu.interactions == [kept.interaction]
    assert emu.interaction_by_token(token) is None
    assert [m.content for m in emu.messages] == [kept.content]
    assert not any(token in r.path for r in emu.requests)
    assert any(kept.interaction.token in r.path for r in emu.requests)
    assert gone.content.startswith("gone")  # what the caller holds stays readable


async def test_an_interaction_not_answered_yet_cannot_be_forgotten(
    emu: DiscordEmulator, bot: EmulatedBot
) -> None:
    alice = emu.user("alice")
    slow = asyncio.create_task(emu.run_command(alice, "slow"))
    for _ in range(2000):
        if emu.interactions:
            break
        await asyncio.sleep(0.001)
    with pytest.raises(EmulatorError, match="not answered yet"):
        emu.forget([InteractionResult(emu.interactions[0])])
    await slow


async def test_a_benchmark_keeps_the_last_answered_commands_only(
    emu: DiscordEmulator, bot: EmulatedBot
) -> None:
    """`keep_answers=2`: at the fourth answer, the two oldest go, their messages released with them (a
    record and its messages refer to each other, so they are freed at once rather than by a collection)."""
    emu.keep_answers = 2
    results = [await emu.run_command(emu.user("alice"), "echo", {"text": f"n{n}"}) for n in range(5)]
    assert [r.content[:2] for r in results] == ["", "", "n2", "n3", "n4"]
    assert emu.interactions == [r.interaction for r in results[2:]]
    assert [m.content[:2] for m in emu.messages] == ["n2", "n3", "n4"]
    forgotten = {r.interaction.token for r in results[:2]}
    assert not any(forgotten & set(r.path.split("/")) for r in emu.requests)


def test_a_label_is_matched_as_a_user_sees_it() -> None:
    """A no-break space looks like a space: a script names « Montrer : Liche » with plain spaces."""
    assert as_seen("Montrer\u00a0: Liche\u202f!") == "Montrer : Liche !"
