"""/pillz duels: challenge a friend, practise against the AI, and the private controls of a move.

The public duel message is posted and edited by the outbox (services/pillz/duels.py); here are the
challenge message, its buttons, and each player's private controls. A move takes two clicks: in the select
of the character to play, the amount of pillz (every amount from 0 to those left, each with its attack and
its chance to win the round), then « Jouer ». After a move that leaves the player to play again (an answer,
then the lead of the next round), the same controls show the next move. The controls carry the duel's
version, the character's place in the line-up and the pillz in their custom ids, so they need no storage
and a stale click is refused by the service.

| custom_id | what |
|---|---|
| `pillz:accept:<duel>` / `pillz:decline:<duel>` | answer a challenge (the challenger may withdraw) |
| `pillz:open:<duel>` | the clicking player's private controls, if it is their move |
| `pillz:bet:<duel>:<version>:<place>` (select of pillz amounts) | choose the character and its pillz |
| `pillz:go:<duel>:<version>:<place>:<pillz>` | play |
| `pillz:cards:<duel>` | « Voir une carte »: a select of the player's line-up, each card whole |
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from cogs.shared import duels as shared
from cogs.shared import rows
from cogs.shared.cards import add_card_viewer
from core.errors import BadInput
from core.i18n import format_percent, t
from discord_app.components import PersistentButton, PersistentSelect
from discord_app.context import services_of
from discord_app.deferral import defer_update, update
from discord_app.render import KeptReplies, RenderedView, files_with_strips, lines_embed, text
from services.infra.messages import MessageSpec
from services.pillz.duel_match import Choice
from services.pillz.render import duel as render
from services.shared import card_view

if TYPE_CHECKING:
    from services.pillz import PillzServices


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


CHALLENGE = shared.DuelCommandTexts.of("pillz")


ANSWER_BUTTONS = shared.answer_buttons(CHALLENGE)


# --- the private controls -------------------------------------------------------------------------------


KEPT_BETS = KeptReplies()
"""The characters' selects of a seat's controls and the lines above them, rendered once per duel version,
seat and language: opening the controls, choosing an amount and the answer after « Jouer » show the same
selects (only the amount marked chosen differs) and the same lines but the last (the move chosen), and
their labels (an attack and a chance per amount) were most of a move's cost. Keyed by the seat: its
rendering never reaches the other seat, whose controls are another key."""


def controls_reply(
    choice: Choice, catalog: Any, place: int | None, pillz: int, locale: str
) -> dict[str, Any]:
    """The controls of a move: one select per unused character (its amounts of pillz, each with the attack
    and the chance to win the round), « Jouer » once an amount is chosen, and « Voir une carte »."""
    left = choice.state.pillz[choice.seat]
    pillz = max(0, min(pillz, left))
    kept = KEPT_BETS.reply(
        (choice.duel_id, choice.version, choice.seat, locale),
        choice,
        lambda: {
            "rows": _bet_selects(choice, catalog, locale),
            "title": text(render.controls_title(choice), locale),
            "lines": [text(line, locale) for line in render.controls_lines(choice, catalog)],
            "cards": t("collection.entry.placeholder", locale),
        },
    )
    picked = text(render.chosen_line(choice, catalog, place, pillz), locale)
    embed = lines_embed(kept["title"], [*kept["lines"], picked], render.COLOR)
    selects: list[dict[str, Any]] = kept["rows"]
    if place is not None:
        chosen = f"pillz:bet:{choice.duel_id}:{choice.version}:{place}"
        selects = [rows.with_default(row, chosen, str(pillz)) for row in selects]
    where = "-" if place is None else str(place)
    go = rows.button(
        f"pillz:go:{choice.duel_id}:{choice.version}:{where}:{pillz}",
        t("pillz.controls.play", locale, pillz=pillz),
        "success",
        place is None,
    )
    cards = rows.button(f"pillz:cards:{choice.duel_id}", kept["cards"], "secondary")
    view = RenderedView([*selects, rows.buttons_row([go, cards])])
    return {"content": None, "embeds": [embed], "view": view}


def _bet_selects(choice: Choice, catalog: Any, locale: str) -> list[dict[str, Any]]:
    """One select per unused character, no amount chosen, as Discord's rows (`KEPT_BETS`)."""
    found = []
    for row in render.bet_rows(choice):
        name = text(render.card_name(catalog, row.fighter.card_id), locale)
        options = [
            (
                t(
                    "pillz.controls.bet",
                    locale,
                    fighter=name,
                    pillz=bet.pillz,
                    attack=bet.attack,
                    percent=format_percent(bet.chance, locale, 0),
                ),
                str(bet.pillz),
            )
            for bet in row.bets
        ]
        custom_id = f"pillz:bet:{choice.duel_id}:{choice.version}:{row.place}"
        placeholder = text(render.fighter_label(catalog, row.fighter), locale)
        found.append(rows.select_row(custom_id, placeholder, options))
    return found


async def open_controls(
    interaction: discord.Interaction[Any], duel_id: int, locale: str, place: int | None, pillz: int
) -> dict[str, Any]:
    choice: Choice = await shared.controls_of(interaction, CHALLENGE, duel_id)
    kwargs = controls_reply(choice, pillz_of(interaction).duels.catalog, place, pillz, locale)
    # the line-up's picture is sent once, with the controls: their later edits keep it
    line_up = render.line_up_strip(choice)
    strip = MessageSpec(strips=(line_up,))
    kwargs["files"] = await files_with_strips(strip, locale, services_of(interaction).card_images)
    return kwargs


class OpenButton(PersistentButton, template=r"pillz:open:(?P<duel>\d+)"):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        kwargs = await open_controls(interaction, int(self.match["duel"]), locale, None, 0)
        await interaction.response.send_message(**kwargs, ephemeral=True)


class BetSelect(PersistentSelect, template=r"pillz:bet:(?P<duel>\d+):(?P<version>\d+):(?P<place>\d)"):
    """An amount of pillz chosen in a character's select: the controls show that move, ready to play."""

    async def on_select(self, interaction: discord.Interaction[Any], locale: str, values: list[str]) -> None:
        if len(values) != 1:
            raise BadInput()
        place = _number(self.match["place"], 0, 3)
        pillz = _number(values[0], 0, 99)
        choice: Choice = await shared.controls_of(interaction, CHALLENGE, int(self.match["duel"]))
        if choice.version != int(self.match["version"]):
            raise shared.stale(CHALLENGE)
        kwargs = controls_reply(choice, pillz_of(interaction).duels.catalog, place, pillz, locale)
        await interaction.response.edit_message(**kwargs)


class CardsButton(PersistentButton, template=r"pillz:cards:(?P<duel>\d+)"):
    """« Voir une carte » on the controls (their rows hold the characters' selects): the line-up's
    characters in a select of their own, each opened whole with its picture."""

    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        choice: Choice = await shared.controls_of(interaction, CHALLENGE, int(self.match["duel"]))
        view = discord.ui.View(timeout=None)
        catalog = pillz_of(interaction).duels.catalog
        add_card_viewer(view, card_view.viewer(render.line_up_strip(choice), catalog), locale)
        content = t("pillz.controls.cards", locale)
        await interaction.response.send_message(content=content, view=view, ephemeral=True)


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
            guild=shared.here(interaction),
        )
        assert duel.state is not None
        seat = duel.seat_of(interaction.user.id)
        fighter = duel.state.hands[seat][place]
        played = t(
            "pillz.controls.played",
            locale,
            card=text(render.fighter_label(duels.catalog, fighter), locale),
            pillz=pillz,
        )
        if duel.status == "live" and seat in duel.to_act():  # an answer, then the next round's lead
            choice: Choice = await shared.controls_of(interaction, CHALLENGE, duel.id)
            following = controls_reply(choice, duels.catalog, None, 0, locale)
            following["content"] = played
            await update(interaction, **following)
            return
        await update(interaction, content=played, embeds=[], view=None)


DUEL_ITEMS = (*ANSWER_BUTTONS, shared.ready_button("pillz"), OpenButton, BetSelect, GoButton, CardsButton)


# --- commands -------------------------------------------------------------------------------------------


class PillzDuelCommands(shared.DuelCommands, texts=CHALLENGE, buttons=ANSWER_BUTTONS):
    """Mixed into the /pillz GroupCog (cogs/pillz/cog.py): `challenge` and `practice`."""
