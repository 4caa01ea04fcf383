"""What every game's first steps share in Discord: the paged rules summary of `/<game> rules` and its
page buttons.

A game declares its pages in its `GameGuide` (`rules_pages`, message keys of its own locale files); its
cog's `rules` command calls `rules_reply`, which adds the page buttons to the page
`services/shared/render/guide.py` builds. The page buttons are registered once by the platform
(`cogs/platform/help.py`), so a new game adds no item.
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.shared.components import page_buttons, reply
from discord_app.components import PersistentButton
from discord_app.context import services_of
from services.infra.games import GameRegistry
from services.infra.messages import Text
from services.shared.render.guide import _pages, rules_spec


def rules_reply(registry: GameRegistry, game_key: str, page: int, locale: str) -> dict[str, Any]:
    """send_message / edit_message arguments: the page and its "previous" / "next" buttons."""
    pages = len(_pages(registry, game_key))
    page = max(1, min(page, pages))
    view = discord.ui.View(timeout=None)
    for item in page_buttons(
        RulesPageButton,
        f"rules:{game_key}",
        page,
        pages,
        (Text("rules.previous"), Text("rules.next")),
        locale,
    ):
        view.add_item(item)
    return reply(rules_spec(registry, game_key, page), locale, view)


class RulesPageButton(PersistentButton, template=r"rules:(?P<game>[a-z]{1,20}):(?P<page>\d{1,3})"):
    """Any reader may turn the pages: the summary is public information, nothing is written."""

    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        kwargs = rules_reply(
            services_of(interaction).registry, self.match["game"], int(self.match["page"]), locale
        )
        await interaction.response.edit_message(**kwargs)


__all__ = ["RulesPageButton", "rules_reply"]
