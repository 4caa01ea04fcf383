"""The Discord side of a duel of choices in private controls (services/shared/duels.py) that Pillz and Immortal's War
share: the challenge message and its answer buttons, the answered challenge, the `challenge` and
`practice` commands (`duel_commands`, a mixin of the game's GroupCog), and the reading of a seat's
controls with the refusal of stale ones. Each game keeps its custom_id templates (buttons already posted
must keep working) and its private controls; its message keys are named after its key (`<game>.`), as
the services' are (`COMMAND_KEYS`, `DuelCommandTexts.of`).

| custom_id | what |
|---|---|
| `<game>:accept:<duel>` / `<game>:decline:<duel>` | answer a challenge (the challenger may withdraw) |
| `<game>:tready:<duel>` | « Prêt »: a tournament's player is there (services/shared/duel_tournaments.py) |
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

import discord
from discord import app_commands

from cogs.shared.components import plain_button
from cogs.shared.mixins import CommandsMixin
from core.errors import BadInput, NotAllowed
from core.i18n import t
from discord_app.components import PersistentButton
from discord_app.context import locale_of, public_locale_of, services_of
from discord_app.permissions import PUBLIC_MESSAGE, require_here
from discord_app.render import text
from discord_app.translator import desc
from services.infra.messages import Text
from services.shared.duels import Duel, SecretDuels, keyed, match_texts
from services.shared.render.ladder import LADDER_KEYS

# The game's keys of the challenge and a practice's start: its key followed by each field's suffix.
COMMAND_KEYS = {
    "open": ".challenge.open",
    "accept": ".challenge.accept",
    "decline": ".challenge.decline",
    "accepted": ".challenge.accepted",
    "declined": ".challenge.declined",
    "expired": ".challenge.expired",
    "pending": ".challenge.pending",
    "bot_opponent": ".error.bot_opponent",
    "practice_started": ".practice.started",
    "play_button": ".duel.play_button",
}


@dataclass(frozen=True)
class DuelCommandTexts:
    """The game's message keys for the challenge, its answers and a practice duel's start."""

    game: str  # the game's key: `services_of(...).games[game].duels` and the custom_ids' namespace
    open: str  # {challenger}, {challenged}
    accept: str
    decline: str
    accepted: str  # {challenger}, {challenged}, {id}, like the three below
    declined: str
    expired: str
    pending: str
    bot_opponent: str
    practice_started: str  # {id}, {button}
    play_button: str

    @staticmethod
    def of(game: str, **overrides: str) -> DuelCommandTexts:
        return keyed(DuelCommandTexts, game, COMMAND_KEYS, game=game, **overrides)


def command_keys(game: str) -> set[str]:
    """Every message key `DuelCommandTexts.of(game)` and `ladder_spec` name (the i18n test checks each is
    in both catalogs)."""
    return {f"{game}{suffix}" for suffix in (*COMMAND_KEYS.values(), *LADDER_KEYS)}


def duels_of(
    interaction: discord.Interaction[Any], texts: DuelCommandTexts
) -> SecretDuels[Any, Any, Any, Any, Any]:
    duels: SecretDuels[Any, Any, Any, Any, Any] = services_of(interaction).games[texts.game].duels
    return duels


def here(interaction: discord.Interaction[Any]) -> int:
    """The server the click runs in (0 in direct messages, where no duel is played)."""
    return interaction.guild_id or 0


async def controls_of(interaction: discord.Interaction[Any], texts: DuelCommandTexts, duel_id: int) -> Any:
    """What the clicking player's controls show (the game's `Choice`), refused when their seat is not to
    act."""
    return await duels_of(interaction, texts).controls(duel_id, interaction.user.id, guild=here(interaction))


def stale(texts: DuelCommandTexts) -> NotAllowed:
    """The refusal of controls drawn for an earlier move: the public message's button opens fresh ones."""
    return NotAllowed(match_texts(texts.game).stale, button=Text.public(texts.play_button))


def challenge_reply(
    duel: Duel[Any],
    locale: str,
    texts: DuelCommandTexts,
    buttons: AnswerButtons,
) -> dict[str, Any]:
    """The public challenge, pinging the challenged player only, with the game's accept and decline
    buttons."""
    challenged = duel.seats[1]
    content = t(texts.open, locale, challenger=f"<@{duel.seats[0]}>", challenged=f"<@{challenged}>")
    view = discord.ui.View(timeout=None)
    accept, decline = buttons
    game = texts.game
    view.add_item(plain_button(accept, f"{game}:accept:{duel.id}", t(texts.accept, locale), "success"))
    view.add_item(plain_button(decline, f"{game}:decline:{duel.id}", t(texts.decline, locale), "danger"))
    mentions = discord.AllowedMentions(users=[discord.Object(id=challenged or 0)])
    return {"content": content, "view": view, "allowed_mentions": mentions}


def answered(duel: Duel[Any], locale: str, texts: DuelCommandTexts) -> str:
    """The challenge message once answered (or as it stands)."""
    key = {
        "live": texts.accepted,
        "over": texts.accepted,
        "declined": texts.declined,
        "withdrawn": texts.declined,
        "expired": texts.expired,
    }.get(duel.status, texts.pending)
    return t(key, locale, challenger=f"<@{duel.seats[0]}>", challenged=f"<@{duel.seats[1]}>", id=duel.id)


class AnswerButton(PersistentButton, template=r"__duel_answer__"):
    """Accept or decline a challenge; `answer_buttons` makes a game's two, with their templates."""

    texts: ClassVar[DuelCommandTexts]
    accepts: ClassVar[bool]

    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        duel = await duels_of(interaction, self.texts).answer(
            int(self.match["id"]), interaction.user.id, self.accepts, guild=here(interaction)
        )
        public = await public_locale_of(interaction)  # the challenge is a public message
        await interaction.response.edit_message(content=answered(duel, public, self.texts), view=None)


AnswerButtons = tuple[type[AnswerButton], type[AnswerButton]]


def answer_buttons(texts: DuelCommandTexts) -> AnswerButtons:
    """The game's accept and decline buttons (`<game>:accept:<duel>`, `<game>:decline:<duel>`): made
    once per game, at import, and registered by its cog's `setup()`."""
    game = re.escape(texts.game)

    class Accept(AnswerButton, template=rf"{game}:accept:(?P<id>\d+)"):
        accepts = True

    class Decline(AnswerButton, template=rf"{game}:decline:(?P<id>\d+)"):
        accepts = False

    Accept.texts = Decline.texts = texts
    return Accept, Decline


class ReadyButton(PersistentButton, template=r"__duel_ready__"):
    """« Prêt » under a tournament match's DM; `ready_button` makes a game's, with its template."""

    game: ClassVar[str]

    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        duels = services_of(interaction).games[self.game].duels  # a SecretDuels with its `tournament`
        _, said = await duels.tournament.ready(
            int(self.match["id"]), interaction.user.id, guild=interaction.guild_id
        )
        await interaction.response.send_message(text(said, locale), ephemeral=True)


def ready_button(game: str) -> type[ReadyButton]:
    """The game's « Prêt » button (`<game>:tready:<duel>`), registered by its cog's `setup()`."""

    class Ready(ReadyButton, template=rf"{re.escape(game)}:tready:(?P<id>\d+)"):
        pass

    Ready.game = game
    return Ready


async def send_challenge(
    interaction: discord.Interaction[Any],
    player: discord.User,
    texts: DuelCommandTexts,
    buttons: AnswerButtons,
) -> None:
    """`/<game> challenge`: the public challenge of `player` in this channel."""
    await locale_of(interaction)  # the player (their first command creates them) and their language
    if player.bot:
        raise BadInput(texts.bot_opponent)
    require_here(interaction, PUBLIC_MESSAGE)
    assert interaction.guild_id is not None
    assert interaction.channel_id is not None
    duel = await duels_of(interaction, texts).challenge(
        interaction.guild_id, interaction.channel_id, interaction.user.id, player.id, key=interaction.id
    )
    locale = await public_locale_of(interaction)
    await interaction.response.send_message(**challenge_reply(duel, locale, texts, buttons))


async def start_practice(interaction: discord.Interaction[Any], texts: DuelCommandTexts) -> None:
    """`/<game> practice`: a duel against the AI, its public message posted by the service; the player is
    told privately which button opens their controls."""
    locale = await locale_of(interaction)
    require_here(interaction, PUBLIC_MESSAGE)
    assert interaction.guild_id is not None
    assert interaction.channel_id is not None
    # Before the duel: a server seen for the first time has its language remembered before the outbox,
    # woken by the duel's commit, writes the public message in the server's language.
    public = await public_locale_of(interaction)
    duel = await duels_of(interaction, texts).practice(
        interaction.guild_id, interaction.channel_id, interaction.user.id, key=interaction.id
    )
    button = t(texts.play_button, public)
    await interaction.response.send_message(
        t(texts.practice_started, locale, id=duel.id, button=button), ephemeral=True
    )


class DuelCommands(CommandsMixin):
    """The game's `challenge` and `practice` commands, a mixin of its GroupCog:
    `class PillzDuelCommands(DuelCommands, texts=CHALLENGE, buttons=ANSWER_BUTTONS)`. Their descriptions
    are the game's `cmd.<game>.challenge...` and `cmd.<game>.practice...` keys, so each subclass gets
    commands of its own, made when it is declared."""

    texts: ClassVar[DuelCommandTexts]
    buttons: ClassVar[AnswerButtons]
    challenge: ClassVar[app_commands.Command[Any, ..., None]]
    practice: ClassVar[app_commands.Command[Any, ..., None]]

    def __init_subclass__(
        cls, *, texts: DuelCommandTexts | None = None, buttons: AnswerButtons | None = None, **kwargs: Any
    ) -> None:
        super().__init_subclass__(**kwargs)
        if texts is None or buttons is None:  # a cog made of the game's mixins
            return
        cls.texts, cls.buttons = texts, buttons
        game = texts.game
        challenge = app_commands.command(
            name="challenge", description=desc(f"cmd.{game}.challenge.description")
        )(DuelCommands._challenge)
        describe = app_commands.describe(player=desc(f"cmd.{game}.challenge.opt.player.description"))
        cls.challenge = app_commands.guild_only()(describe(challenge))
        practice = app_commands.command(
            name="practice", description=desc(f"cmd.{game}.practice.description")
        )(DuelCommands._practice)
        cls.practice = app_commands.guild_only()(practice)

    async def _challenge(self, interaction: discord.Interaction[Any], player: discord.User) -> None:
        await send_challenge(interaction, player, self.texts, self.buttons)

    async def _practice(self, interaction: discord.Interaction[Any]) -> None:
        await start_practice(interaction, self.texts)


__all__ = [
    "COMMAND_KEYS",
    "AnswerButton",
    "AnswerButtons",
    "DuelCommandTexts",
    "DuelCommands",
    "ReadyButton",
    "answer_buttons",
    "answered",
    "challenge_reply",
    "command_keys",
    "controls_of",
    "duels_of",
    "here",
    "ready_button",
    "send_challenge",
    "stale",
    "start_practice",
]
