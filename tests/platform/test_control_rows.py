"""A duel's controls written as Discord's rows (cogs/shared/rows.py) are what discord.py writes for the
same items, to the byte: the rows the bot sends did not change when it stopped building the items."""

from __future__ import annotations

import json
from typing import Any

import discord
import pytest

from cogs.shared import rows
from discord_app.render import STYLES

OPTIONS = [(f"Carte {i} : « Archère » avec {i} pillz", str(i)) for i in range(13)]


def _select(custom_id: str, placeholder: str, options: list[tuple[str, str]], chosen: str | None) -> Any:
    """The select as the cogs built it with discord.py's classes."""
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=custom_id,
        options=[
            discord.SelectOption(label=label[:100], value=value, default=value == chosen)
            for label, value in options
        ]
        or [discord.SelectOption(label="-", value="-")],
    )
    select.placeholder = placeholder[:150]
    return select


def discord_button(custom_id: str, label: str, style: str, disabled: bool) -> Any:
    """The button discord.py would write, the reference the rows are compared with (here and in the games')."""
    button: discord.ui.Button[Any] = discord.ui.Button(custom_id=custom_id)
    button.label = label[:80]
    button.style = STYLES[style]
    button.disabled = disabled
    return button


CASES: dict[
    str, tuple[list[tuple[str, str, list[tuple[str, str]], str | None]], list[tuple[str, str, str, bool]]]
] = {
    "four selects and two buttons": (
        [(f"pillz:bet:7:3:{p}", f"Perso {p} (P 5 / D 3)", OPTIONS, None) for p in range(4)],
        [
            ("pillz:go:7:3:-:0", "Jouer (0 pillz)", "success", True),
            ("pillz:cards:7", "Voir une carte", "secondary", False),
        ],
    ),
    "an option chosen": (
        [
            ("immortals:unit:7:2:-", "Choisir l'unité", OPTIONS[:4], "2"),
            ("immortals:spell:7:2:2", "Un sort ?", [("Aucun", "-"), ("Force", "0")], "-"),
        ],
        [("immortals:go:7:2:2:-", "Valider", "success", False)],
    ),
    "long labels cut": (
        [("g:long", "y" * 300, [("x" * 200, "0")], "0")],
        [("g:go", "z" * 120, "primary", False)],
    ),
    "an empty select and placeholder": ([("g:none", "", [], None)], [("g:empty", "", "danger", False)]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_rows_are_discord_pys_to_the_byte(name: str) -> None:
    selects, buttons = CASES[name]
    view = discord.ui.View(timeout=None)
    for custom_id, placeholder, options, chosen in selects:
        view.add_item(_select(custom_id, placeholder, options, chosen))
    for custom_id, label, style, disabled in buttons:
        view.add_item(discord_button(custom_id, label, style, disabled))
    written = [rows.select_row(*select) for select in selects]
    written.append(rows.buttons_row([rows.button(*b) for b in buttons]))
    assert json.dumps(written) == json.dumps(view.to_components())


def test_marking_a_choice_copies_the_kept_row() -> None:
    kept = rows.select_row("pillz:bet:7:3:1", "Perso", OPTIONS[:3])
    before = json.dumps(kept)
    marked = rows.with_default(kept, "pillz:bet:7:3:1", "2")
    assert [o["default"] for o in marked["components"][0]["options"]] == [False, False, True]
    assert json.dumps(kept) == before  # the kept row is unchanged
    assert rows.with_default(kept, "pillz:bet:7:3:0", "2") is kept  # another select's row as it is
    assert json.dumps(marked) == json.dumps(rows.select_row("pillz:bet:7:3:1", "Perso", OPTIONS[:3], "2"))


def test_a_row_holds_one_to_five_buttons() -> None:
    with pytest.raises(ValueError, match="one to five"):
        rows.buttons_row([])
    with pytest.raises(ValueError, match="one to five"):
        rows.buttons_row([rows.button(f"g:{i}", str(i), "primary") for i in range(6)])
