"""/pillz economy commands, as a mixin of the `/pillz` GroupCog: packs, odds, collection, decks and the
leaderboard.

Each command parses its options, calls one economy service (`services.pillz.economy.PillzEconomy`) and
sends the page `services/pillz/render/economy.py` builds. Every reply is private (characters and coins
are the player's business) except the leaderboard, which a server shares. The collection's page buttons
are DynamicItems (`ECONOMY_ITEMS`, registered by the cog's `setup`) whose custom_id holds only the owner,
the filter and the page; a click from anyone else is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs.shared import mixins as shared
from cogs.shared.cards import add_entry_select, owned_options
from cogs.shared.components import NO_VALUE, check_owner, decode_choice, encode_choice, page_buttons, reply
from cogs.shared.mixins import CommandsMixin, send, send_board
from core.errors import BadInput, NotAllowed
from discord_app.components import PersistentButton
from discord_app.context import locale_of, services_of
from discord_app.translator import desc
from engine.pillz import PillzCard, PillzCatalog
from services.infra.catalogs import fold
from services.infra.messages import MessageSpec, Text
from services.pillz import PillzEconomy
from services.pillz.collection import CollectionPage, clan_of
from services.pillz.decks import DeckView, parse_deck
from services.pillz.render.economy import (
    collection_spec,
    deck_spec,
    leaderboard_spec,
    odds_spec,
    purchase_spec,
)
from services.shared.collecting import DeckInvalid, Problem

if TYPE_CHECKING:
    from services.pillz import PillzServices


def economy_of(interaction: discord.Interaction[Any]) -> PillzEconomy:
    services: PillzServices = services_of(interaction).games["pillz"]
    return services.economy


def refused(key: str, problems: tuple[Problem, ...], cards: Mapping[str, PillzCard], locale: str) -> BadInput:
    return shared.refused(key, problems, cards, locale, "pillz.economy.problem")


# --- specs ----------------------------------------------------------------------------------------------


# --- collection pages -----------------------------------------------------------------------------------


PAGE_LABELS = (Text("pillz.button.previous"), Text("pillz.button.next"))


def collection_reply(
    page: CollectionPage, clan: str | None, stars: int | None, owner: int, catalog: PillzCatalog, locale: str
) -> dict[str, Any]:
    view = discord.ui.View(timeout=None)
    codes = f"{encode_choice(clan, clan_ids(catalog))}:{NO_VALUE if stars is None else stars}"
    prefix = f"pillz:page:{owner}:{codes}"
    for item in page_buttons(CollectionPageButton, prefix, page.page, page.pages, PAGE_LABELS, locale):
        view.add_item(item)
    add_entry_select(view, "pillz", owner, owned_options(page.items, locale), locale)
    return reply(collection_spec(page, clan, stars, catalog, locale), locale, view)


def clan_ids(catalog: PillzCatalog) -> list[str]:
    return [c.id for c in catalog.clans]


class CollectionPageButton(
    PersistentButton,
    template=r"pillz:page:(?P<owner>\d+):(?P<clan>-|\d{1,3}):(?P<stars>[-1-5]):(?P<page>\d{1,6})",
):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        check_owner(self.match, interaction)
        economy = economy_of(interaction)
        catalog = economy.collection.catalog
        clan = decode_choice(self.match["clan"], clan_ids(catalog))
        stars = None if self.match["stars"] == NO_VALUE else int(self.match["stars"])
        page = await economy.collection.page(
            interaction.user.id, clan=clan, stars=stars, page=int(self.match["page"]), locale=locale
        )
        await interaction.response.edit_message(
            **collection_reply(page, clan, stars, interaction.user.id, catalog, locale)
        )


ECONOMY_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (CollectionPageButton,)


# --- the commands ---------------------------------------------------------------------------------------


class PillzEconomyCommands(CommandsMixin):
    """Mixed into the `/pillz` GroupCog: discord.py collects these commands from its MRO."""

    @app_commands.command(name="packs", description=desc("cmd.pillz.packs.description"))
    @app_commands.describe(count=desc("cmd.pillz.packs.opt.count.description"))
    async def packs(
        self, interaction: discord.Interaction[Any], count: app_commands.Range[int, 1, 5] = 1
    ) -> None:
        locale = await locale_of(interaction)
        purchase = await economy_of(interaction).shop.buy(interaction.user.id, count, key=interaction.id)
        catalog = economy_of(interaction).shop.catalog
        await send(interaction, purchase_spec(purchase, catalog, locale), locale)

    @app_commands.command(name="odds", description=desc("cmd.pillz.odds.description"))
    async def odds(self, interaction: discord.Interaction[Any]) -> None:
        locale = await locale_of(interaction)
        odds = await economy_of(interaction).shop.odds_for(interaction.user.id)
        await send(interaction, odds_spec(odds, locale), locale)

    @app_commands.command(name="collection", description=desc("cmd.pillz.collection.description"))
    @app_commands.describe(
        clan=desc("cmd.pillz.collection.opt.clan.description"),
        stars=desc("cmd.pillz.collection.opt.stars.description"),
    )
    async def collection(
        self,
        interaction: discord.Interaction[Any],
        clan: app_commands.Range[str, 1, 100] | None = None,
        stars: app_commands.Range[int, 1, 5] | None = None,
    ) -> None:
        locale = await locale_of(interaction)
        economy = economy_of(interaction)
        chosen = clan_of(economy.collection.catalog, clan)
        page = await economy.collection.page(
            interaction.user.id, clan=chosen, stars=stars, page=1, locale=locale
        )
        catalog = economy.collection.catalog
        kwargs = collection_reply(page, chosen, stars, interaction.user.id, catalog, locale)
        await interaction.response.send_message(**kwargs, ephemeral=True)

    @collection.autocomplete("clan")
    async def clan_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        locale = await locale_of(interaction)
        wanted = fold(current)
        clans = economy_of(interaction).collection.catalog.clans
        return [
            app_commands.Choice(name=c.name.get(locale)[:100], value=c.id)
            for c in clans
            if wanted in fold(c.name.get(locale)) or wanted in fold(c.id)
        ][:25]

    @app_commands.command(name="deck", description=desc("cmd.pillz.deck.description"))
    @app_commands.describe(
        slot=desc("cmd.pillz.deck.opt.slot.description"),
        characters=desc("cmd.pillz.deck.opt.characters.description"),
        activate=desc("cmd.pillz.deck.opt.activate.description"),
    )
    async def deck(
        self,
        interaction: discord.Interaction[Any],
        slot: app_commands.Range[int, 1, 4],
        characters: app_commands.Range[str, 1, 1500] | None = None,
        activate: bool = False,
    ) -> None:
        """Save a deck typed as names or ids (and activate it if asked), activate a saved one, or show it."""
        locale = await locale_of(interaction)
        decks = economy_of(interaction).decks
        known = decks.cards
        note: Text | None = None
        try:
            if characters is not None:
                view: DeckView | None = await decks.save(
                    interaction.user.id, slot, parse_deck(characters, known, locale), activate=activate
                )
                note = Text("pillz.deck.saved_active" if activate else "pillz.deck.saved", {"slot": slot})
            elif activate:
                view = await decks.activate(interaction.user.id, slot)
                note = Text("pillz.deck.activated", {"slot": slot})
            else:
                view = await decks.show(interaction.user.id, slot)
        except DeckInvalid as exc:
            key = (
                "pillz.error.deck.refused" if characters is not None else "pillz.error.deck.activate_refused"
            )
            raise refused(key, exc.problems, known, locale) from exc
        if view is None:
            spec = MessageSpec(content=Text("pillz.deck.none", {"slot": slot}))
        else:
            spec = deck_spec(view, decks.catalog, locale, note)
        await send(interaction, spec, locale)

    @app_commands.command(name="leaderboard", description=desc("cmd.pillz.leaderboard.description"))
    async def leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        """Public: this server's ladder, top 10 by Elo rating."""
        await locale_of(interaction)  # the player's first command creates them
        if interaction.guild_id is None:
            raise NotAllowed("pillz.error.guild_only")
        board = await economy_of(interaction).ladder.leaderboard(interaction.guild_id)
        await send_board(interaction, leaderboard_spec(board))
