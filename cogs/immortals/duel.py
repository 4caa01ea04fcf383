"""/immortals duels: challenge a friend, practise against the AI, and each player's private controls.

The public duel message is posted and edited by the outbox (services/immortals/duels.py); here are the
challenge message, its buttons, and the private controls of the seat whose turn it is (to engage, or to
counter the attack they show): a select for the unit, a select for the spell (or none), and a button that
validates the choice. The controls carry the round and the selection
in their custom ids, so they need no storage; the service re-checks every click.

| custom_id | what |
|---|---|
| `immortals:accept:<duel>` / `immortals:decline:<duel>` | answer a challenge (the challenger may withdraw) |
| `immortals:open:<duel>` | the clicking player's private controls, when it is their turn to engage or counter |
| `immortals:unit:<duel>:<round>:<spell>` (select of unit places) | choose the unit |
| `immortals:spell:<duel>:<round>:<unit>` (select of spell places, `-` none) | choose the spell |
| `immortals:go:<duel>:<round>:<unit>:<spell>` | validate the choice |
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import partial
from typing import TYPE_CHECKING, Any

import discord

from cogs.shared import duels as shared
from cogs.shared import rows
from core.errors import BadInput
from core.i18n import t
from discord_app.components import PersistentButton, PersistentSelect
from discord_app.context import services_of
from discord_app.deferral import defer_update, update
from discord_app.render import KeptReplies, RenderedView, lines_embed, text
from services.immortals.duel_match import Choice
from services.immortals.names import spell_name, unit_name
from services.immortals.render import duel as render
from services.infra.messages import Text

if TYPE_CHECKING:
    from services.immortals import ImmortalsServices

NONE = "-"


def immortals_of(interaction: discord.Interaction[Any]) -> ImmortalsServices:
    services: ImmortalsServices = services_of(interaction).games["immortals"]
    return services


def _place(value: str, high: int) -> int | None:
    """A place from a custom id or a select value: `-` for none, else 0 to `high`."""
    if value == NONE:
        return None
    if not value.isdigit() or len(value) > 2 or not 0 <= int(value) <= high:
        raise BadInput()
    return int(value)


# --- the challenge --------------------------------------------------------------------------------------


CHALLENGE = shared.DuelCommandTexts.of("immortals")


ANSWER_BUTTONS = shared.answer_buttons(CHALLENGE)


# --- the private controls -------------------------------------------------------------------------------


KEPT_CONTROLS = KeptReplies()
"""What a seat's controls show that stays while it chooses, rendered once per choice and language: the
lines above the selects and the selects' labels. Opening the controls, choosing the unit and the spell
show them again with only the selection changed (the last line, the options marked chosen). Keyed by the
seat: its rendering never reaches the other seat, whose controls are another key."""


def controls_reply(
    choice: Choice, catalog: Any, unit: int | None, spell: int | None, locale: str
) -> dict[str, Any]:
    view = choice.view
    seat, duel_id, round_ = view.seat, choice.duel_id, view.round
    kept = KEPT_CONTROLS.reply(
        (duel_id, seat, locale), choice, lambda: _kept_controls(choice, catalog, locale)
    )
    picked = text(render.chosen_line(choice, catalog, unit, spell), locale)
    spell_code = NONE if spell is None else str(spell)
    unit_code = NONE if unit is None else str(unit)
    found = [
        rows.select_row(
            f"immortals:unit:{duel_id}:{round_}:{spell_code}", kept["pick"], kept["units"], unit_code
        )
    ]
    if len(kept["spells"]) > 1:
        found.append(
            rows.select_row(
                f"immortals:spell:{duel_id}:{round_}:{unit_code}",
                kept["pick_spell"],
                kept["spells"],
                spell_code,
            )
        )
    go = rows.button(
        f"immortals:go:{duel_id}:{round_}:{unit_code}:{spell_code}", kept["validate"], "success", unit is None
    )
    return {
        "content": None,
        "embeds": [lines_embed(kept["title"], [*kept["lines"], picked], render.COLOR)],
        "view": RenderedView([*found, rows.buttons_row([go])]),
    }


KEPT_LINES: OrderedDict[Hashable, tuple[object, str]] = OrderedDict()
"""The controls' lines of the units and spells and the selects' labels, rendered, by their key and
language (`render.Entry`; a unit's label's key is the unit and terrain, a spell's its id): a unit's line
and a spell's stay the same through a whole duel but for « used », and both seats' controls show both
line-ups, so each is rendered about once a duel instead of at every choice."""
LINES_KEPT = 4096


def _kept_line(catalog: Any, key: Hashable, build: Callable[[], Text], locale: str) -> str:
    """The line `build` makes, rendered once per key, language and catalog."""
    found = KEPT_LINES.get((key, locale))
    if found is not None and found[0] is catalog:
        return found[1]
    line = text(build(), locale)
    KEPT_LINES[(key, locale)] = (catalog, line)
    if len(KEPT_LINES) > LINES_KEPT:
        KEPT_LINES.popitem(last=False)
    return line


def _kept_controls(choice: Choice, catalog: Any, locale: str) -> dict[str, Any]:
    """`KEPT_CONTROLS`'s texts: the lines above the selects, the units and spells left (label, place)."""
    view = choice.view
    done = set(view.fought[view.seat])
    spells = [(t("immortals.controls.no_spell", locale), NONE)]
    spells += [
        (
            _kept_line(catalog, ("spell name", s.spell_id), partial(spell_name, catalog, s.spell_id), locale),
            str(i),
        )
        for i, s in enumerate(view.spells)
        if not s.used
    ]
    return {
        "title": text(render.controls_title(choice), locale),
        "lines": [
            text(build(), locale) if key is None else _kept_line(catalog, key, build, locale)
            for key, build in render.controls_entries(choice, catalog)
        ],
        "units": [
            (
                _kept_line(
                    catalog,
                    ("label", u, view.terrain),
                    partial(render.unit_label, catalog, u, view.terrain),
                    locale,
                ),
                str(i),
            )
            for i, u in enumerate(view.units[view.seat])
            if u.uid not in done
        ],
        "spells": spells,
        "pick": t("immortals.controls.pick", locale),
        "pick_spell": t("immortals.controls.pick_spell", locale),
        "validate": t("immortals.controls.validate", locale),
    }


async def _controls(interaction: discord.Interaction[Any], duel: int, round_: int | None) -> Choice:
    choice: Choice = await shared.controls_of(interaction, CHALLENGE, duel)
    if round_ is not None and choice.view.round != round_:
        raise shared.stale(CHALLENGE)
    return choice


class OpenButton(PersistentButton, template=r"immortals:open:(?P<duel>\d+)"):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        choice = await _controls(interaction, int(self.match["duel"]), None)
        kwargs = controls_reply(choice, immortals_of(interaction).duels.catalog, None, None, locale)
        await interaction.response.send_message(**kwargs, ephemeral=True)


class UnitSelect(PersistentSelect, template=r"immortals:unit:(?P<duel>\d+):(?P<round>\d+):(?P<spell>-|\d+)"):
    async def on_select(self, interaction: discord.Interaction[Any], locale: str, values: list[str]) -> None:
        if len(values) != 1:
            raise BadInput()
        choice = await _controls(interaction, int(self.match["duel"]), int(self.match["round"]))
        unit = _place(values[0], len(choice.view.units[choice.view.seat]) - 1)
        spell = _place(self.match["spell"], len(choice.view.spells) - 1)
        catalog = immortals_of(interaction).duels.catalog
        await interaction.response.edit_message(**controls_reply(choice, catalog, unit, spell, locale))


class SpellSelect(PersistentSelect, template=r"immortals:spell:(?P<duel>\d+):(?P<round>\d+):(?P<unit>-|\d+)"):
    async def on_select(self, interaction: discord.Interaction[Any], locale: str, values: list[str]) -> None:
        if len(values) != 1:
            raise BadInput()
        choice = await _controls(interaction, int(self.match["duel"]), int(self.match["round"]))
        unit = _place(self.match["unit"], len(choice.view.units[choice.view.seat]) - 1)
        spell = _place(values[0], len(choice.view.spells) - 1)
        catalog = immortals_of(interaction).duels.catalog
        await interaction.response.edit_message(**controls_reply(choice, catalog, unit, spell, locale))


class GoButton(
    PersistentButton, template=r"immortals:go:(?P<duel>\d+):(?P<round>\d+):(?P<unit>-|\d+):(?P<spell>-|\d+)"
):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        duels = immortals_of(interaction).duels
        unit = _place(self.match["unit"], 29)
        if unit is None:
            raise BadInput()
        spell = _place(self.match["spell"], 29)
        await defer_update(interaction)
        duel = await duels.choose(
            int(self.match["duel"]),
            interaction.user.id,
            int(self.match["round"]),
            unit,
            spell,
            guild=shared.here(interaction),
        )
        assert duel.state is not None
        seat = duel.seat_of(interaction.user.id)
        picked = text(unit_name(duels.catalog, duel.state.units[seat][unit].card_id), locale)
        key = (
            "immortals.controls.done_engage"
            if seat == duel.state.engager
            else "immortals.controls.done_counter"
        )
        done = t(key, locale, unit=picked, round=self.match["round"])
        await update(interaction, content=done, embeds=[], view=None)


DUEL_ITEMS = (
    *ANSWER_BUTTONS,
    shared.ready_button("immortals"),
    OpenButton,
    UnitSelect,
    SpellSelect,
    GoButton,
)


# --- commands -------------------------------------------------------------------------------------------


class ImmortalsDuelCommands(shared.DuelCommands, texts=CHALLENGE, buttons=ANSWER_BUTTONS):
    """Mixed into the /immortals GroupCog (cogs/immortals/cog.py): `challenge` and `practice`."""
