"""`KeptReplies`: a reply asked again with equal data is the one rendered before, sent with a fresh view."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from discord_app.render import KeptReplies, RenderedView


@dataclass(frozen=True)
class Page:
    number: int
    lines: tuple[str, ...]


class Renders:
    """A renderer that counts its calls and writes what its data says."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, page: Page, *, view: bool = True) -> dict[str, Any]:
        self.calls += 1
        kwargs: dict[str, Any] = {"embeds": [discord.Embed(description="\n".join(page.lines))]}
        if view:
            buttons = discord.ui.View(timeout=None)
            buttons.add_item(discord.ui.Button(label="›", custom_id=f"page:{page.number + 1}"))
            kwargs["view"] = buttons
        return kwargs


def _components(kwargs: dict[str, Any]) -> list[dict[str, Any]]:
    view: discord.ui.View = kwargs["view"]
    return view.to_components()


def ask(kept: KeptReplies, render: Renders, key: object, lines: tuple[str, ...]) -> dict[str, Any]:
    page = Page(1, lines)
    return kept.reply(key, page, lambda: render(page))


def test_equal_data_under_the_same_key_is_not_rendered_again() -> None:
    kept, render = KeptReplies(), Renders()
    first = kept.reply(("ann", 1), Page(1, ("a", "b")), lambda: render(Page(1, ("a", "b"))))
    again = kept.reply(("ann", 1), Page(1, ("a", "b")), lambda: render(Page(1, ("a", "b"))))
    assert render.calls == 1
    assert again["embeds"][0].to_dict() == first["embeds"][0].to_dict()
    assert (
        _components(again)
        == _components(first)
        == [
            {
                "type": 1,
                "components": [
                    {"type": 2, "style": 2, "label": "›", "custom_id": "page:2", "disabled": False}
                ],
            }
        ]
    )
    assert isinstance(again["view"], RenderedView)
    assert again["view"] is not first["view"]  # each send gets its own view


def test_changed_data_or_another_key_is_rendered() -> None:
    kept, render = KeptReplies(), Renders()
    kept.reply(("ann", 1), Page(1, ("a",)), lambda: render(Page(1, ("a",))))
    changed = kept.reply(("ann", 1), Page(1, ("a", "new")), lambda: render(Page(1, ("a", "new"))))
    assert render.calls == 2
    assert changed["embeds"][0].description == "a\nnew"
    kept.reply(("bob", 1), Page(1, ("a", "new")), lambda: render(Page(1, ("a", "new"))))
    assert render.calls == 3
    kept.reply(("ann", 1), Page(1, ("a", "new")), lambda: render(Page(1, ("a", "new"))))
    assert render.calls == 3  # the latest rendering of ann's page is the one kept


def test_the_oldest_used_reply_goes_first_beyond_the_size() -> None:
    kept, render = KeptReplies(size=2), Renders()
    for key in ("a", "b"):
        ask(kept, render, key, (key,))
    ask(kept, render, "a", ("a",))  # "a" used again: "b" is the oldest
    ask(kept, render, "c", ("c",))
    assert render.calls == 3
    ask(kept, render, "a", ("a",))
    assert render.calls == 3
    ask(kept, render, "b", ("b",))
    assert render.calls == 4


def test_a_reply_without_a_view_stays_without_one() -> None:
    kept, render = KeptReplies(), Renders()
    for _ in range(2):
        kwargs = kept.reply("k", Page(1, ("a",)), lambda: render(Page(1, ("a",)), view=False))
        assert "view" not in kwargs
    assert render.calls == 1


def test_a_rendered_view_is_not_stored_by_discord_py() -> None:
    """Nothing to listen for: its components are answered by the DynamicItems registered at start-up."""
    view = RenderedView([{"type": 1, "components": []}])
    assert view.is_finished()
    assert view.timeout is None
