"""/immortals economy commands, as a mixin of the `/immortals` GroupCog: collection, deck, spells,
learning a spell, recruiting a unit, and the ranking.

Each command parses its options, calls one service and sends the page
`services/immortals/render/economy.py` builds. Every reply is private (units, spells and currencies are
the player's business) except the ranking, which a server shares.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from cogs.immortals.duel import immortals_of
from cogs.shared import mixins as shared
from cogs.shared.cards import add_entry_select
from cogs.shared.components import reply
from cogs.shared.mixins import CommandsMixin, send, send_board
from core.errors import NotAllowed
from discord_app.context import locale_of
from discord_app.translator import desc
from services.immortals.decks import parse_deck
from services.immortals.economy import GAME_KEY
from services.immortals.names import spell_text, unit_line
from services.immortals.render.economy import book_spec, collection_spec, deck_spec, leaderboard_spec
from services.immortals.showoff import rare
from services.immortals.spells import RECRUIT_PRICE
from services.infra.messages import MessageSpec, Text
from services.shared.collecting import DeckInvalid
from services.shared.shop import MintedCard
from services.shared.showoff import show_off_buttons


class ImmortalsEconomyCommands(CommandsMixin):
    """Mixed into the `/immortals` GroupCog: discord.py collects these commands from its MRO."""

    @app_commands.command(name="collection", description=desc("cmd.immortals.collection.description"))
    @app_commands.describe(page=desc("cmd.immortals.collection.opt.page.description"))
    async def collection(
        self, interaction: discord.Interaction[Any], page: app_commands.Range[int, 1, 1000] = 1
    ) -> None:
        locale = await locale_of(interaction)
        decks = immortals_of(interaction).decks
        shown = await decks.collection(interaction.user.id, page)
        view = discord.ui.View(timeout=None)
        options = [(f"{c.card.name.get(locale)} · {c.level}", str(c.copy_id)) for c in shown.items]
        add_entry_select(view, "immortals", interaction.user.id, options, locale)
        await interaction.response.send_message(
            **reply(collection_spec(shown, decks.catalog), locale, view), ephemeral=True
        )

    @app_commands.command(name="deck", description=desc("cmd.immortals.deck.description"))
    @app_commands.describe(units=desc("cmd.immortals.deck.opt.units.description"))
    async def deck(
        self, interaction: discord.Interaction[Any], units: app_commands.Range[str, 1, 1500] | None = None
    ) -> None:
        """Show the deck, or save a new one typed as unit names (« Diablotin x2 » for two copies)."""
        locale = await locale_of(interaction)
        decks = immortals_of(interaction).decks
        note: Text | None = None
        try:
            if units is None:
                view = await decks.show(interaction.user.id)
            else:
                view = await decks.save(interaction.user.id, parse_deck(units, decks.catalog, locale))
                note = Text("immortals.deck.saved")
        except DeckInvalid as exc:
            known = decks.catalog.cards_by_id()
            raise shared.refused(
                "immortals.error.deck.refused", exc.problems, known, locale, "immortals.economy.problem"
            ) from exc
        await send(interaction, deck_spec(view, decks.catalog, locale, note), locale)

    @app_commands.command(name="spells", description=desc("cmd.immortals.spells.description"))
    async def spells(self, interaction: discord.Interaction[Any]) -> None:
        locale = await locale_of(interaction)
        service = immortals_of(interaction).spells
        book = await service.book(interaction.user.id)
        await send(interaction, book_spec(book, service.catalog), locale)

    @app_commands.command(name="learn", description=desc("cmd.immortals.learn.description"))
    @app_commands.describe(spell=desc("cmd.immortals.learn.opt.spell.description"))
    async def learn(
        self, interaction: discord.Interaction[Any], spell: app_commands.Range[str, 1, 100]
    ) -> None:
        locale = await locale_of(interaction)
        service = immortals_of(interaction).spells
        learnt, left = await service.learn(interaction.user.id, spell)
        note = Text(
            "immortals.spells.learnt", {"spell": spell_text(service.catalog, learnt), "fragments": left}
        )
        await send(interaction, MessageSpec(content=note), locale)

    @app_commands.command(name="recruit", description=desc("cmd.immortals.recruit.description"))
    async def recruit(self, interaction: discord.Interaction[Any]) -> None:
        locale = await locale_of(interaction)
        service = immortals_of(interaction).spells
        bought = await service.recruit(interaction.user.id, key=interaction.id)
        note = Text(
            "immortals.recruit.done",
            {"unit": unit_line(service.catalog, bought.card, 1), "price": RECRUIT_PRICE, "gold": bought.gold},
        )
        pulled = (MintedCard(bought.copy_id, bought.card),)
        buttons = show_off_buttons(GAME_KEY, pulled, rare)
        await send(interaction, MessageSpec(content=note, buttons=buttons), locale)

    @app_commands.command(name="leaderboard", description=desc("cmd.immortals.leaderboard.description"))
    async def leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        """Public: this server's ranking by combat points."""
        await locale_of(interaction)
        if interaction.guild_id is None:
            raise NotAllowed("immortals.error.guild_only")
        board = await immortals_of(interaction).ladder.leaderboard(interaction.guild_id)
        await send_board(interaction, leaderboard_spec(board))
