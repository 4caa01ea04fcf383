"""A game's welcome, owed by a player's slash commands of that game until one succeeds, shown before the
command's answer: the newcomer reads what the game is and its next step first, then what they asked for.

`discord_app.context.locale_of` learns, with the player's touch, that the command owes the welcome, and
gives the interaction a `WelcomingResponse` in place of discord.py's. The first response the command makes
then carries the welcome:

- a private answer (or a refusal, which the error handler answers privately) gets it at its top, in the
  same message: no extra request, so the first response leaves when it always did;
- a public answer (a battle posted in the channel) or a deferral ("thinking…") cannot show a private
  text: the welcome is the private response itself, and the answer follows as a follow-up (public or
  private, as the command asked), so it still comes after the welcome;
- a modal (the only response a command cannot follow up) shows nothing, and the welcome stays owed.

The welcome is shown once per process and game (`PlayerService.take_welcome`, in the event loop: two first
commands at once show it once); the first command that succeeds records it (`PlayerService.claim_welcome`,
one write), and a refused one records nothing, since a refusal leaves no trace. Decisions: docs/platform.md,
"First steps".
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord.interactions import InteractionCallbackResponse, InteractionResponse
from discord.utils import MISSING

from discord_app.render import text
from services.infra.games import GameRegistry
from services.infra.messages import MessageSpec, Text

if TYPE_CHECKING:
    from services.infra.players import PlayerService

log = logging.getLogger(__name__)

CONTENT_LIMIT = 2000  # Discord's limit on a message's content
OWED = "welcome"  # interaction.extras: the game whose welcome this command owes its player


def welcome_spec(registry: GameRegistry, game_key: str) -> MessageSpec | None:
    """What the game is, what the player received (its first currency's starting amount) and the next
    command: the game's `GameGuide.welcome_key`."""
    spec = registry.get(game_key)
    if spec is None or spec.guide is None:
        return None
    starting = spec.currencies[0].starting if spec.currencies else 0
    return MessageSpec(content=Text(spec.guide.welcome_key, {"starting": starting}))


class WelcomingResponse(InteractionResponse[Any]):
    """discord.py's response to an interaction, whose first message is preceded by the game's welcome
    (see the module's docstring). Once that first response is made it is discord.py's own again."""

    def __init__(
        self, parent: discord.Interaction[Any], players: PlayerService, game: str, locale: str
    ) -> None:
        super().__init__(parent)
        self.players = players
        self.game = game
        self.locale = locale

    def _take(self) -> str | None:
        """The welcome's text, the first time a response of this process may show it; None otherwise."""
        spec = welcome_spec(self.players.registry, self.game)
        if spec is None or self.is_done():
            return None
        if not self.players.take_welcome(self._parent.user.id, self.game):
            return None
        return text(spec.content, self.locale)

    async def send_message(  # the same arguments as discord.py's, passed on as they came
        self, content: Any | None = None, **kwargs: Any
    ) -> InteractionCallbackResponse[Any]:
        welcome = self._take()
        if welcome is None:
            return await super().send_message(content, **kwargs)
        body = "" if content is None else str(content)
        folded = f"{welcome}\n\n{body}" if body else welcome
        if kwargs.get("ephemeral") and len(folded) <= CONTENT_LIMIT:
            return await super().send_message(folded, **kwargs)
        await super().send_message(welcome, ephemeral=True)
        kwargs.pop("delete_after", None)  # a follow-up has none
        followup: Any = self._parent.followup  # its overloads cannot type arguments passed on as they came
        sent = await followup.send(MISSING if content is None else content, wait=True, **kwargs)
        data: Any = {"interaction": {"id": str(self._parent.id), "response_message_id": str(sent.id)}}
        return InteractionCallbackResponse(
            data=data,
            parent=self._parent,
            state=self._parent._state,
            type=discord.InteractionResponseType.channel_message,
        )

    async def defer(
        self, *, ephemeral: bool = False, thinking: bool = False
    ) -> InteractionCallbackResponse[Any] | None:
        """A private "thinking…": the follow-up that replaces it carries the welcome at its top. A public
        one cannot: the welcome is the response instead, and the answer follows it."""
        welcome = self._take()
        if welcome is None:
            return await super().defer(ephemeral=ephemeral, thinking=thinking)
        if ephemeral:
            deferred = await super().defer(ephemeral=True, thinking=thinking)
            self._parent._cs_followup = FoldingFollowup(self._parent.followup, welcome)  # type: ignore[attr-defined]
            return deferred
        return await super().send_message(welcome, ephemeral=True)


class FoldingFollowup:
    """The interaction's follow-up webhook after a private deferral that owes the welcome: the first
    follow-up (the one that replaces "thinking…") carries it at its top; everything else is the
    webhook's own."""

    def __init__(self, webhook: discord.Webhook, welcome: str) -> None:
        self._webhook = webhook
        self._welcome: str | None = welcome

    def __getattr__(self, name: str) -> Any:
        return getattr(self._webhook, name)

    async def send(self, content: Any = MISSING, **kwargs: Any) -> Any:
        send: Any = self._webhook.send  # its overloads cannot type arguments passed on as they came
        welcome, self._welcome = self._welcome, None
        if welcome is None:
            return await send(content, **kwargs)
        body = "" if content is MISSING or content is None else str(content)
        folded = f"{welcome}\n\n{body}" if body else welcome
        if len(folded) <= CONTENT_LIMIT:
            return await send(folded, **kwargs)
        await send(welcome, ephemeral=True)
        return await send(content, **kwargs)


def install(interaction: discord.Interaction[Any], players: PlayerService, game: str, locale: str) -> None:
    """The interaction owes `game`'s welcome: its first response will show it (before any response only:
    a response already made stays discord.py's)."""
    interaction.extras[OWED] = game
    if interaction.response.is_done():
        return
    interaction._cs_response = WelcomingResponse(interaction, players, game, locale)  # type: ignore[attr-defined]


async def claim(interaction: discord.Interaction[Any], players: PlayerService) -> None:
    """After a command that succeeded: the welcome it owed, once shown (by this command or an earlier
    refused one of this process), is recorded, so no later command shows it again. A welcome not shown
    yet (the command answered with a modal) stays owed."""
    game = interaction.extras.pop(OWED, None)
    if game is None or not players.welcome_shown(interaction.user.id, str(game)):
        return
    try:
        await players.claim_welcome(interaction.user.id, str(game))
    except Exception:  # it was shown: at worst a restart shows it once more
        log.exception("could not record the %s welcome for interaction %s", game, interaction.id)
