"""/pillz duels: challenge a friend, practise against the AI, and the private controls of a move.

The public duel message is posted and edited by the outbox (services/pillz/duels.py); here are the
challenge message, its buttons, and each player's private controls: a select for the character and
buttons for the pillz, with a live preview of the chance to win against the character already revealed.
The controls carry the duel's version, the chosen character's place in the hand and the pillz in their
custom ids, so they need no storage and a stale click is refused by the service.

| custom_id | what |
|---|---|
| `pillz:accept:<duel>` / `pillz:decline:<duel>` | answer a challenge (the challenger may withdraw) |
| `pillz:open:<duel>` | the clicking player's private controls, if it is their move |
| `pillz:pick:<duel>:<version>:<pillz>` (select of hand places) | choose the character |
| `pillz:set:<duel>:<version>:<place>:<pillz>:<step>` | change the pillz (the step keeps ids unique) |
| `pillz:go:<duel>:<version>:<place>:<pillz>` | play |
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs.shared.cards import add_card_viewer
from cogs.shared.components import plain_button
from cogs.shared.duels import (
    DuelCommandTexts,
    answer_buttons,
    here,
    ready_button,
    send_challenge,
    start_practice,
)
from cogs.shared.mixins import CommandsMixin
from core.errors import BadInput, NotAllowed
from core.i18n import t
from discord_app.components import PersistentButton, PersistentSelect
from discord_app.context import services_of
from discord_app.deferral import defer_update, update
from discord_app.render import files_with_strips, text, to_discord
from discord_app.translator import desc
from services.pillz import duel_render as render
from services.pillz.duel_match import Choice
from services.platform.messages import MessageSpec, Text
from services.shared import card_view

if TYPE_CHECKING:
    from services.pillz import PillzServices

STEPS = (-3, -1, 1, 3)


def pillz_of(interaction: discord.Interaction[Any]) -> PillzServices:
    services: PillzServices = services_of(interaction).games["pillz"]
    return services


def _number(value: str, low: int, high: int) -> int:
    if not value.lstrip("-").isdigit() or len(value) > 6:
        raise BadInput()
    number = int(value)
    if not low <= number <= high:
        raise BadInput()
    return number


# --- the challenge --------------------------------------------------------------------------------------


CHALLENGE = DuelCommandTexts(
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


ANSWER_BUTTONS = answer_buttons(CHALLENGE)


# --- the private controls -------------------------------------------------------------------------------


def controls_reply(
    choice: Choice, catalog: Any, place: int | None, pillz: int, locale: str
) -> dict[str, Any]:
    hand = choice.state.hands[choice.seat]
    left = choice.state.pillz[choice.seat]
    pillz = max(0, min(pillz, left))
    spec = render.controls(choice, catalog, place, pillz)
    kwargs = to_discord(spec, locale)
    view = discord.ui.View(timeout=None)
    options = [
        discord.SelectOption(
            label=text(render.fighter_label(catalog, fighter), locale)[:100], value=str(i), default=i == place
        )
        for i, fighter in enumerate(hand)
        if not fighter.used
    ]
    select = PickSelect(f"pillz:pick:{choice.duel_id}:{choice.version}:{pillz}", {}, options)
    select.item.placeholder = t("pillz.controls.pick", locale)[:150]
    view.add_item(select)
    where = "-" if place is None else str(place)
    for step in STEPS:
        target = max(0, min(left, pillz + step))
        label = f"{step:+d}"
        view.add_item(
            plain_button(
                SetButton,
                f"pillz:set:{choice.duel_id}:{choice.version}:{where}:{target}:{step}",
                label,
                "secondary",
                target == pillz,
            )
        )
    view.add_item(
        plain_button(
            SetButton,
            f"pillz:set:{choice.duel_id}:{choice.version}:{where}:{left}:all",
            t("pillz.controls.all", locale),
            "secondary",
            pillz == left,
        )
    )
    view.add_item(
        plain_button(
            GoButton,
            f"pillz:go:{choice.duel_id}:{choice.version}:{where}:{pillz}",
            t("pillz.controls.play", locale, pillz=pillz),
            "success",
            place is None,
        )
    )
    # « Voir une carte »: the line-up's characters whole, kept through the controls' edits
    add_card_viewer(view, card_view.viewer(render.line_up_strip(choice), catalog), locale)
    kwargs["view"] = view
    return kwargs


async def open_controls(
    interaction: discord.Interaction[Any], duel_id: int, locale: str, place: int | None, pillz: int
) -> dict[str, Any]:
    services = pillz_of(interaction)
    choice = await services.duels.controls(duel_id, interaction.user.id, guild=here(interaction))
    kwargs = controls_reply(choice, services.duels.catalog, place, pillz, locale)
    # the line-up's picture is sent once, with the controls: their later edits keep it
    line_up = render.line_up_strip(choice)
    strip = MessageSpec(strips=(line_up,))
    kwargs["files"] = await files_with_strips(strip, locale, services_of(interaction).card_images)
    return kwargs


class OpenButton(PersistentButton, template=r"pillz:open:(?P<duel>\d+)"):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        kwargs = await open_controls(interaction, int(self.match["duel"]), locale, None, 0)
        await interaction.response.send_message(**kwargs, ephemeral=True)


class PickSelect(PersistentSelect, template=r"pillz:pick:(?P<duel>\d+):(?P<version>\d+):(?P<pillz>\d+)"):
    async def on_select(self, interaction: discord.Interaction[Any], locale: str, values: list[str]) -> None:
        if len(values) != 1:
            raise BadInput()
        place = _number(values[0], 0, 3)
        kwargs = await self._checked(interaction, locale, place, int(self.match["pillz"]))
        await interaction.response.edit_message(**kwargs)

    async def _checked(
        self, interaction: discord.Interaction[Any], locale: str, place: int, pillz: int
    ) -> dict[str, Any]:
        choice = await pillz_of(interaction).duels.controls(
            int(self.match["duel"]), interaction.user.id, guild=here(interaction)
        )
        if choice.version != int(self.match["version"]):
            raise NotAllowed("pillz.error.stale", button=Text.public("pillz.duel.play_button"))
        return controls_reply(choice, pillz_of(interaction).duels.catalog, place, pillz, locale)


class SetButton(
    PersistentButton,
    template=r"pillz:set:(?P<duel>\d+):(?P<version>\d+):(?P<place>-|\d):(?P<pillz>\d+):(?P<step>-?\d|all)",
):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        choice = await pillz_of(interaction).duels.controls(
            int(self.match["duel"]), interaction.user.id, guild=here(interaction)
        )
        if choice.version != int(self.match["version"]):
            raise NotAllowed("pillz.error.stale", button=Text.public("pillz.duel.play_button"))
        place = None if self.match["place"] == "-" else _number(self.match["place"], 0, 3)
        kwargs = controls_reply(
            choice, pillz_of(interaction).duels.catalog, place, int(self.match["pillz"]), locale
        )
        await interaction.response.edit_message(**kwargs)


class GoButton(
    PersistentButton, template=r"pillz:go:(?P<duel>\d+):(?P<version>\d+):(?P<place>-|\d):(?P<pillz>\d+)"
):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        duels = pillz_of(interaction).duels
        place = _number(self.match["place"], 0, 3)
        pillz = int(self.match["pillz"])
        await defer_update(interaction)  # in a practice duel the AI searches its answer
        duel = await duels.play_place(
            int(self.match["duel"]),
            interaction.user.id,
            int(self.match["version"]),
            place,
            pillz,
            guild=here(interaction),
        )
        assert duel.state is not None
        fighter = duel.state.hands[duel.seat_of(interaction.user.id)][place]
        played = t(
            "pillz.controls.played",
            locale,
            card=text(render.fighter_label(duels.catalog, fighter), locale),
            pillz=pillz,
        )
        await update(interaction, content=played, embeds=[], view=None)


DUEL_ITEMS = (*ANSWER_BUTTONS, ready_button("pillz"), OpenButton, PickSelect, SetButton, GoButton)


# --- commands -------------------------------------------------------------------------------------------


class PillzDuelCommands(CommandsMixin):
    """Mixed into the /pillz GroupCog (cogs/pillz/cog.py)."""

    @app_commands.command(name="challenge", description=desc("cmd.pillz.challenge.description"))
    @app_commands.describe(player=desc("cmd.pillz.challenge.opt.player.description"))
    @app_commands.guild_only()
    async def challenge(self, interaction: discord.Interaction[Any], player: discord.User) -> None:
        await send_challenge(interaction, player, CHALLENGE, ANSWER_BUTTONS)

    @app_commands.command(name="practice", description=desc("cmd.pillz.practice.description"))
    @app_commands.guild_only()
    async def practice(self, interaction: discord.Interaction[Any]) -> None:
        await start_practice(interaction, CHALLENGE)
