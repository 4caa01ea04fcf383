"""A private reply's selects and buttons written straight as Discord's action rows, for controls that are
sent again and again with only their selection changed (a duel's controls: every pick edits them).

Built as discord.py's items (a `View`, a `DynamicItem` around each select and button, a `SelectOption` per
option), such a reply is only written back by discord.py to these dicts when sent, since the bot keeps no
view (every click is answered by the persistent items registered at start-up): so the rows are written
here as discord.py writes them for the same items, to the byte (`tests/platform/test_control_rows.py`):
one select a row, buttons side by side in a row of their own.
A caller keeps the rows of what stays (the options and their labels) and marks the selection in a copy
(`with_default`), so the kept rows are never changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from discord_app.render import STYLES

SELECT_TYPE, BUTTON_TYPE, ROW_TYPE = 3, 2, 1
LABEL_LIMIT, OPTION_LIMIT, PLACEHOLDER_LIMIT = 80, 100, 150  # Discord's limits, as discord.py cuts them


def select_row(
    custom_id: str, placeholder: str, options: Iterable[tuple[str, str]], chosen: str | None = None
) -> dict[str, Any]:
    """A row holding one string select: `options` as (label, value), the option of value `chosen`
    marked as the current choice."""
    menu: dict[str, Any] = {
        "type": SELECT_TYPE,
        "custom_id": custom_id,
        "min_values": 1,
        "max_values": 1,
        "disabled": False,
        "required": True,
    }
    if placeholder:
        menu["placeholder"] = placeholder[:PLACEHOLDER_LIMIT]
    menu["options"] = [
        {"label": label[:OPTION_LIMIT], "value": value, "default": value == chosen}
        for label, value in options
    ] or [{"label": "-", "value": "-", "default": False}]  # as `PersistentSelect` fills an empty select
    return {"type": ROW_TYPE, "components": [menu]}


def button(custom_id: str, label: str, style: str, disabled: bool = False) -> dict[str, Any]:
    """A button; `style` names a `discord_app.render.STYLES`."""
    component: dict[str, Any] = {"type": BUTTON_TYPE, "style": STYLES[style].value, "disabled": disabled}
    if label:
        component["label"] = label[:LABEL_LIMIT]
    component["custom_id"] = custom_id
    return component


def buttons_row(buttons: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Up to five buttons side by side."""
    if not 1 <= len(buttons) <= 5:
        raise ValueError("a row holds one to five buttons")
    return {"type": ROW_TYPE, "components": list(buttons)}


def with_default(row: dict[str, Any], custom_id: str, value: str | None) -> dict[str, Any]:
    """`row` with the option `value` marked chosen if it holds the select `custom_id` (a copy: the kept
    row stays as it is); any other row as it is."""
    (select,) = row["components"]
    if select.get("custom_id") != custom_id:
        return row
    options = [{**o, "default": o["value"] == value} for o in select["options"]]
    return {**row, "components": [{**select, "options": options}]}


__all__ = ["button", "buttons_row", "select_row", "with_default"]
