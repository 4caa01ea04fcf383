"""/dino pack créer|voir|dissoudre|compétences|ajouter|retirer: a player's packs, always private (what a
pack holds is what the opponents' Perception tries to learn)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from cogs.dinocard.common import card_choices, cards_option, dino_of, pack_choices, refused
from cogs.dinocard.economy import ELEMENT_CHOICES
from cogs.shared.mixins import CommandsMixin, send
from discord_app.context import locale_of
from discord_app.translator import choice, desc
from services.dinocard.keys import SKILL_KEYS
from services.dinocard.packs import SKILL_NAMES
from services.dinocard.render.packs import pack_spec, packs_list
from services.infra.messages import Day, MessageSpec, Text
from services.shared.collecting import DeckInvalid

SKILL_CHOICES = [choice("dinocard_skill", s) for s in SKILL_NAMES]


class DinocardPackCommands(CommandsMixin):
    pack = app_commands.Group(name="pack", description=desc("cmd.dino.pack.description"))

    @pack.command(name="create", description=desc("cmd.dino.pack.create.description"))
    @app_commands.describe(
        name=desc("cmd.dino.pack.create.opt.name.description"),
        cards=desc("cmd.dino.pack.create.opt.cards.description"),
        element=desc("cmd.dino.pack.create.opt.element.description"),
    )
    @app_commands.choices(element=ELEMENT_CHOICES)
    async def create(
        self,
        interaction: discord.Interaction[Any],
        name: app_commands.Range[str, 1, 32],
        cards: app_commands.Range[str, 1, 4000] | None = None,
        element: str | None = None,
    ) -> None:
        locale = await locale_of(interaction)
        packs = dino_of(interaction).packs
        try:
            view = await packs.create(
                interaction.user.id, name, cards_option(interaction, cards, locale), element
            )
        except DeckInvalid as exc:
            raise refused("dinocard.error.pack.refused", exc.problems, packs.cards, locale) from exc
        note = Text("dinocard.pack.created", {"name": view.pack.name, "day": Day(view.pack.daily_from)})
        await send(interaction, pack_spec(view, packs.cards, note), locale)

    @create.autocomplete("cards")
    async def create_cards(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await card_choices(interaction, current)

    @pack.command(name="show", description=desc("cmd.dino.pack.show.description"))
    @app_commands.describe(pack=desc("cmd.dino.pack.show.opt.pack.description"))
    @app_commands.autocomplete(pack=pack_choices)
    async def show(
        self, interaction: discord.Interaction[Any], pack: app_commands.Range[str, 1, 40] | None = None
    ) -> None:
        locale = await locale_of(interaction)
        packs = dino_of(interaction).packs
        if pack is None:
            await send(interaction, packs_list(await packs.mine(interaction.user.id)), locale)
            return
        await send(interaction, pack_spec(await packs.show(interaction.user.id, pack), packs.cards), locale)

    @pack.command(name="dissolve", description=desc("cmd.dino.pack.dissolve.description"))
    @app_commands.describe(pack=desc("cmd.dino.pack.dissolve.opt.pack.description"))
    @app_commands.autocomplete(pack=pack_choices)
    async def dissolve(
        self, interaction: discord.Interaction[Any], pack: app_commands.Range[str, 1, 40]
    ) -> None:
        locale = await locale_of(interaction)
        gone = await dino_of(interaction).packs.dissolve(interaction.user.id, pack)
        note = Text("dinocard.pack.dissolved", {"name": gone.name, "count": len(gone.cards)})
        await send(interaction, MessageSpec(content=note), locale)

    @pack.command(name="skills", description=desc("cmd.dino.pack.skills.description"))
    @app_commands.describe(
        pack=desc("cmd.dino.pack.skills.opt.pack.description"),
        skill=desc("cmd.dino.pack.skills.opt.skill.description"),
        points=desc("cmd.dino.pack.skills.opt.points.description"),
    )
    @app_commands.autocomplete(pack=pack_choices)
    @app_commands.choices(skill=SKILL_CHOICES)
    async def skills(
        self,
        interaction: discord.Interaction[Any],
        pack: app_commands.Range[str, 1, 40],
        skill: str,
        points: app_commands.Range[int, 1, 50] = 1,
    ) -> None:
        locale = await locale_of(interaction)
        packs = dino_of(interaction).packs
        view = await packs.spend(interaction.user.id, pack, skill, points)
        note = Text("dinocard.pack.spent", {"points": points, "skill": Text(SKILL_KEYS[skill])})
        await send(interaction, pack_spec(view, packs.cards, note), locale)

    @pack.command(name="add", description=desc("cmd.dino.pack.add.description"))
    @app_commands.describe(
        pack=desc("cmd.dino.pack.add.opt.pack.description"),
        cards=desc("cmd.dino.pack.add.opt.cards.description"),
    )
    @app_commands.autocomplete(pack=pack_choices)
    async def add(
        self,
        interaction: discord.Interaction[Any],
        pack: app_commands.Range[str, 1, 40],
        cards: app_commands.Range[str, 1, 4000],
    ) -> None:
        await self._edit(interaction, pack, cards, adding=True)

    @add.autocomplete("cards")
    async def add_cards(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await card_choices(interaction, current)

    @pack.command(name="remove", description=desc("cmd.dino.pack.remove.description"))
    @app_commands.describe(
        pack=desc("cmd.dino.pack.remove.opt.pack.description"),
        cards=desc("cmd.dino.pack.remove.opt.cards.description"),
    )
    @app_commands.autocomplete(pack=pack_choices)
    async def remove(
        self,
        interaction: discord.Interaction[Any],
        pack: app_commands.Range[str, 1, 40],
        cards: app_commands.Range[str, 1, 4000],
    ) -> None:
        await self._edit(interaction, pack, cards, adding=False)

    @remove.autocomplete("cards")
    async def remove_cards(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await card_choices(interaction, current)

    async def _edit(
        self, interaction: discord.Interaction[Any], pack: str, typed: str, *, adding: bool
    ) -> None:
        locale = await locale_of(interaction)
        packs = dino_of(interaction).packs
        cards = cards_option(interaction, typed, locale) or []
        try:
            if adding:
                view = await packs.edit(interaction.user.id, pack, add=cards)
            else:
                view = await packs.edit(interaction.user.id, pack, remove=cards)
        except DeckInvalid as exc:
            raise refused("dinocard.error.pack.refused", exc.problems, packs.cards, locale) from exc
        note = Text("dinocard.pack.edited", {"name": view.pack.name, "count": len(view.pack.cards)})
        await send(interaction, pack_spec(view, packs.cards, note), locale)
