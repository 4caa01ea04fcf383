"""A spec's buttons and selects are sent as the action rows discord.py writes for the same items, to the
byte, without building discord.py's items (`discord_app.render.components_of`)."""

from __future__ import annotations

import json
from typing import Any

import discord
import pytest

from discord_app.render import STYLES, RenderedView, components_of, text, to_discord
from services.infra.messages import Button, ButtonStyle, MessageSpec, Select, SelectOption, Text

STYLE_CYCLE: tuple[ButtonStyle, ...] = ("primary", "secondary", "success", "danger")


def _buttons(count: int, label: str = "Jouer") -> tuple[Button, ...]:
    return tuple(Button(Text.raw(f"{label} {i}"), f"g:act:{i}", STYLE_CYCLE[i % 4]) for i in range(count))


def _select(name: str, options: int, placeholder: str = "Choisir une carte") -> Select:
    return Select(
        f"g:{name}",
        Text.raw(placeholder),
        tuple(SelectOption(Text.raw(f"Carte {i} : « Archère »"), str(i)) for i in range(options)),
    )


SPECS = {
    "buttons only": MessageSpec(buttons=_buttons(3)),
    "two rows of buttons": MessageSpec(buttons=_buttons(7)),
    "a select under buttons": MessageSpec(buttons=_buttons(5), selects=(_select("pick", 4),)),
    "buttons and two selects": MessageSpec(buttons=_buttons(2), selects=(_select("a", 3), _select("b", 30))),
    "an empty label and placeholder": MessageSpec(
        buttons=(Button(Text.raw(""), "g:empty"),), selects=(_select("c", 2, placeholder=""),)
    ),
    "long labels cut": MessageSpec(
        buttons=_buttons(1, label="x" * 200), selects=(_select("d", 1, "y" * 300),)
    ),
    "a catalog label": MessageSpec(buttons=(Button(Text("collection.entry.placeholder"), "g:cards"),)),
    "a select without options": MessageSpec(selects=(Select("g:none", Text.raw("Rien"), ()),)),
    "three selects and buttons": MessageSpec(
        buttons=_buttons(4), selects=(_select("e", 2), _select("f", 2), _select("g", 2))
    ),
}


def _discord_py_view(spec: MessageSpec, locale: str) -> discord.ui.View:
    """The same items through discord.py's own classes, as the bot built its views before."""
    view = discord.ui.View(timeout=None)
    for button in spec.buttons:
        view.add_item(
            discord.ui.Button(
                label=text(button.label, locale)[:80], custom_id=button.custom_id, style=STYLES[button.style]
            )
        )
    for select in spec.selects:
        options = [
            discord.SelectOption(label=text(o.label, locale)[:100], value=o.value) for o in select.options
        ]
        view.add_item(
            discord.ui.Select(
                custom_id=select.custom_id,
                placeholder=text(select.placeholder, locale)[:150],
                options=options[:25],
            )
        )
    return view


@pytest.mark.parametrize("name", sorted(SPECS))
@pytest.mark.parametrize("locale", ["fr", "en"])
async def test_the_rows_are_discord_pys_to_the_byte(name: str, locale: str) -> None:
    spec = SPECS[name]
    expected = json.dumps(_discord_py_view(spec, locale).to_components())
    assert json.dumps(components_of(spec, locale)) == expected
    view = to_discord(spec, locale)["view"]
    assert json.dumps(view.to_components()) == expected


async def test_too_many_items_are_refused_as_discord_py_refuses_them() -> None:
    too_many = MessageSpec(buttons=_buttons(26))
    too_wide = MessageSpec(selects=tuple(_select(str(i), 1) for i in range(6)))
    for spec, why in ((too_many, "maximum number of children"), (too_wide, "could not find open space")):
        with pytest.raises(ValueError, match=why):
            _discord_py_view(spec, "fr")
        with pytest.raises(ValueError, match=why):
            components_of(spec, "fr")


async def test_a_reply_builds_no_discord_py_item(monkeypatch: pytest.MonkeyPatch) -> None:
    """The view sent is already Discord's payload: no button, select or option object is made, and
    discord.py keeps nothing to listen for (the DynamicItems answer every click)."""
    made: list[str] = []
    for cls in (discord.ui.Button, discord.ui.Select, discord.SelectOption):
        original = cls.__init__

        def counting(self: Any, *args: Any, _original: Any = original, **kwargs: Any) -> None:
            made.append(type(self).__name__)
            _original(self, *args, **kwargs)

        monkeypatch.setattr(cls, "__init__", counting)
    view = to_discord(SPECS["a select under buttons"], "fr")["view"]
    assert made == []
    assert isinstance(view, RenderedView)
    assert view.is_finished()
