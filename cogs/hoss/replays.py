"""`/hoss revoir`: a finished battle told round by round, with its log; without a number, the player's
latest battles in a select, so that nobody has to remember a number (docs/hoss/ranked.md, "Replays").

| custom_id | what |
|---|---|
| `hoss:replaypick:<owner>` (select of battle numbers) | replay that battle (checked again: the player's own) |
"""

from __future__ import annotations

from typing import Any

import discord

from cogs.hoss.lookup import hoss_of
from cogs.shared.components import check_owner, reply
from core.errors import BadInput, NotFound
from core.i18n import format_date
from discord_app.components import PersistentSelect
from discord_app.render import files_of, text
from services.hoss.battle.log import replay_spec
from services.hoss.render.replays import option_label
from services.infra.messages import MessageSpec, Text


async def send_replay(interaction: discord.Interaction[Any], battle: int, locale: str) -> None:
    """The battle replayed from its seed, privately, in the reader's language (its JSON and text logs)."""
    hoss = hoss_of(interaction)
    log = await hoss.ranked.replay(interaction.user.id, battle, interaction.guild_id)
    spec = replay_spec(log, battle, hoss.decks.catalog, locale)
    await interaction.response.send_message(
        **reply(spec, locale, None), files=files_of(spec, locale), ephemeral=True
    )


async def send_choices(interaction: discord.Interaction[Any], locale: str) -> None:
    """The player's latest finished battles in a select, the latest first."""
    past = await hoss_of(interaction).ranked.past_battles(interaction.user.id)
    if not past:
        raise NotFound("hoss.replay.none")
    options = [
        discord.SelectOption(
            label=text(option_label(p), locale)[:100],
            value=str(p.battle_id),
            description=format_date(p.ended_at.date(), locale)[:100],
        )
        for p in past
    ]
    select = ReplaySelect(f"hoss:replaypick:{interaction.user.id}", {}, options)
    select.item.placeholder = text(Text("hoss.replay.choose"), locale)[:150]
    items = discord.ui.View(timeout=None)
    items.add_item(select)
    spec = MessageSpec(content=Text("hoss.replay.pick", {"count": len(past)}))
    await interaction.response.send_message(**reply(spec, locale, items), ephemeral=True)


class ReplaySelect(PersistentSelect, template=r"hoss:replaypick:(?P<owner>\d+)"):
    async def on_select(self, interaction: discord.Interaction[Any], locale: str, values: list[str]) -> None:
        check_owner(self.match, interaction)
        if len(values) != 1 or not values[0].isdigit() or len(values[0]) > 20:
            raise BadInput()
        await send_replay(interaction, int(values[0]), locale)  # the service checks it is one they may see


REPLAY_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (ReplaySelect,)
