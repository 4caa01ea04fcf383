"""/choco economy commands, as a mixin of the `/choco` GroupCog: frogs, odds, collection, decks, leagues,
the leaderboard, character names and the daily allowance.

Each command parses its options, calls one economy service (`services.choco.economy.EconomyServices`) and
sends the page `services/choco/render/economy.py` builds. Every reply is private (cards and galleons are
the player's business) except the leaderboard, which a server shares. The collection's page buttons are
DynamicItems (`ECONOMY_ITEMS`, registered by the cog's `setup`) whose custom_id holds only the owner, the
filter and the page; a click from anyone else is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

from cogs.choco.lookup import choco_of, member_since
from cogs.shared import mixins as shared
from cogs.shared.cards import add_entry_select, owned_options
from cogs.shared.components import check_owner, decode_choice, encode_choice, key_choice, page_buttons, reply
from cogs.shared.mixins import CommandsMixin, send, send_board
from core.errors import BadInput, NotAllowed
from core.message_guard import echo
from discord_app.components import PersistentButton
from discord_app.context import locale_of, services_of
from discord_app.translator import desc
from engine.choco import CARD_TYPES, RARITIES, ChocoCard
from services.choco import EconomyServices
from services.choco.collection import CollectionPage
from services.choco.decks import DeckView, parse_deck
from services.choco.economy import GAME_KEY, LEAGUE_KEYS, LEAGUES
from services.choco.names import RARITY_KEYS, TYPE_KEYS
from services.choco.render.economy import (
    collection_spec,
    daily_text,
    deck_spec,
    leaderboard_spec,
    leagues_spec,
    odds_spec,
    purchase_spec,
)
from services.infra.messages import MessageSpec, Text
from services.shared.collecting import DeckInvalid, Problem

Choice = app_commands.Choice


def economy_of(interaction: discord.Interaction[Any]) -> EconomyServices:
    return choco_of(interaction).economy


RARITY_CHOICES = [key_choice(RARITY_KEYS[r], r) for r in RARITIES]
TYPE_CHOICES = [key_choice(TYPE_KEYS[c], c) for c in CARD_TYPES]
LEAGUE_CHOICES = [key_choice(LEAGUE_KEYS[league], league) for league in LEAGUES]


def refused(key: str, problems: tuple[Problem, ...], cards: Mapping[str, ChocoCard], locale: str) -> BadInput:
    return shared.refused(key, problems, cards, locale, "choco.economy.problem")


def guild_of(interaction: discord.Interaction[Any]) -> int:
    if interaction.guild_id is None:
        raise NotAllowed("choco.error.guild_only")
    return interaction.guild_id


# --- specs ----------------------------------------------------------------------------------------------


# --- collection pages -----------------------------------------------------------------------------------


PAGE_LABELS = (Text("choco.button.previous"), Text("choco.button.next"))


def collection_reply(
    page: CollectionPage, rarity: str | None, kind: str | None, owner: int, locale: str
) -> dict[str, Any]:
    view = discord.ui.View(timeout=None)
    prefix = f"choco:page:{owner}:{encode_choice(rarity, RARITIES)}:{encode_choice(kind, CARD_TYPES)}"
    for item in page_buttons(CollectionPageButton, prefix, page.page, page.pages, PAGE_LABELS, locale):
        view.add_item(item)
    add_entry_select(view, "choco", owner, owned_options(page.items, locale), locale)
    return reply(collection_spec(page, rarity, kind, locale), locale, view)


class CollectionPageButton(
    PersistentButton,
    template=r"choco:page:(?P<owner>\d+):(?P<rarity>[-0-5]):(?P<kind>[-0-2]):(?P<page>\d{1,6})",
):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        check_owner(self.match, interaction)
        rarity = decode_choice(self.match["rarity"], RARITIES)
        kind = decode_choice(self.match["kind"], CARD_TYPES)
        page = await economy_of(interaction).collection.page(
            interaction.user.id, rarity=rarity, card_type=kind, page=int(self.match["page"]), locale=locale
        )
        await interaction.response.edit_message(
            **collection_reply(page, rarity, kind, interaction.user.id, locale)
        )


ECONOMY_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (CollectionPageButton,)


# --- the commands ---------------------------------------------------------------------------------------


class ChocoEconomyCommands(CommandsMixin):
    """Mixed into the `/choco` GroupCog: discord.py collects these commands from its MRO."""

    @app_commands.command(name="frogs", description=desc("cmd.choco.frogs.description"))
    @app_commands.describe(count=desc("cmd.choco.frogs.opt.count.description"))
    async def frogs(
        self, interaction: discord.Interaction[Any], count: app_commands.Range[int, 1, 10] = 1
    ) -> None:
        locale = await locale_of(interaction)
        purchase = await economy_of(interaction).shop.buy(interaction.user.id, count, key=interaction.id)
        await send(interaction, purchase_spec(purchase, locale), locale)

    @app_commands.command(name="odds", description=desc("cmd.choco.odds.description"))
    async def odds(self, interaction: discord.Interaction[Any]) -> None:
        locale = await locale_of(interaction)
        odds = await economy_of(interaction).shop.odds_for(interaction.user.id)
        await send(interaction, odds_spec(odds, locale), locale)

    @app_commands.command(name="collection", description=desc("cmd.choco.collection.description"))
    @app_commands.describe(
        rarity=desc("cmd.choco.collection.opt.rarity.description"),
        kind=desc("cmd.choco.collection.opt.kind.description"),
    )
    @app_commands.choices(rarity=RARITY_CHOICES, kind=TYPE_CHOICES)
    async def collection(
        self,
        interaction: discord.Interaction[Any],
        rarity: Choice[str] | None = None,
        kind: Choice[str] | None = None,
    ) -> None:
        locale = await locale_of(interaction)
        chosen_rarity = rarity.value if rarity is not None else None
        chosen_kind = kind.value if kind is not None else None
        page = await economy_of(interaction).collection.page(
            interaction.user.id, rarity=chosen_rarity, card_type=chosen_kind, page=1, locale=locale
        )
        kwargs = collection_reply(page, chosen_rarity, chosen_kind, interaction.user.id, locale)
        await interaction.response.send_message(**kwargs, ephemeral=True)

    @app_commands.command(name="deck", description=desc("cmd.choco.deck.description"))
    @app_commands.describe(
        league=desc("cmd.choco.deck.opt.league.description"),
        cards=desc("cmd.choco.deck.opt.cards.description"),
        auto=desc("cmd.choco.deck.opt.auto.description"),
    )
    @app_commands.choices(league=LEAGUE_CHOICES)
    async def deck(
        self,
        interaction: discord.Interaction[Any],
        league: Choice[str],
        cards: app_commands.Range[str, 1, 1500] | None = None,
        auto: bool = False,
    ) -> None:
        """Save a deck typed as ids or names, or build the strongest one (`auto`), or show the saved one."""
        locale = await locale_of(interaction)
        decks = economy_of(interaction).decks
        known = decks.cards
        note: Text | None = None
        if cards is not None and auto:
            raise BadInput("choco.error.deck.cards_and_auto")
        try:
            if cards is not None:
                view: DeckView | None = await decks.save(
                    interaction.user.id, league.value, parse_deck(cards, known, locale)
                )
                note = Text("choco.deck.saved", {"league": Text(LEAGUE_KEYS[league.value])})
            elif auto:
                view = await decks.auto(interaction.user.id, league.value)
                note = Text("choco.deck.auto_saved", {"league": Text(LEAGUE_KEYS[league.value])})
            else:
                view = await decks.show(interaction.user.id, league.value)
        except DeckInvalid as exc:
            key = "choco.error.deck.auto_refused" if auto else "choco.error.deck.refused"
            raise refused(key, exc.problems, known, locale) from exc
        if view is None:
            spec = MessageSpec(content=Text("choco.deck.none", {"league": Text(LEAGUE_KEYS[league.value])}))
        else:
            spec = deck_spec(view, known, locale, note)
        await send(interaction, spec, locale)

    @app_commands.command(name="leagues", description=desc("cmd.choco.leagues.description"))
    async def leagues(self, interaction: discord.Interaction[Any]) -> None:
        locale = await locale_of(interaction)
        economy = economy_of(interaction)
        open_ = await economy.leagues.open_leagues(
            interaction.user.id, guild_of(interaction), member_since(interaction)
        )
        await send(
            interaction,
            leagues_spec({str(k): v for k, v in open_.items()}, economy.leagues.cards, locale),
            locale,
        )

    @app_commands.command(name="leaderboard", description=desc("cmd.choco.leaderboard.description"))
    async def leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        """Public: both boards of this server (hRP by mention, inRP by character name), top 10 each."""
        await locale_of(interaction)  # the player's first command creates them
        board = await economy_of(interaction).leagues.leaderboard(guild_of(interaction))
        await send_board(interaction, leaderboard_spec(board))

    @app_commands.command(name="character", description=desc("cmd.choco.character.description"))
    @app_commands.describe(name=desc("cmd.choco.character.opt.name.description"))
    async def character(
        self, interaction: discord.Interaction[Any], name: app_commands.Range[str, 1, 100] | None = None
    ) -> None:
        """Set the character name shown on this server's inRP board; without a name, clear it."""
        locale = await locale_of(interaction)
        stored = await economy_of(interaction).leagues.set_character(
            guild_of(interaction), interaction.user.id, name
        )
        note = (
            Text("choco.character.cleared")
            if stored is None
            else Text("choco.character.set", {"name": echo(discord.utils.escape_markdown(stored), 100)})
        )
        await send(interaction, MessageSpec(content=note), locale)

    @app_commands.command(name="daily", description=desc("cmd.choco.daily.description"))
    async def daily(self, interaction: discord.Interaction[Any]) -> None:
        locale = await locale_of(interaction)
        # the platform's daily reward (`/quotidien`), shown as the game always showed its allowance
        (claim,) = await services_of(interaction).daily.claim(interaction.user.id, GAME_KEY)
        await send(interaction, MessageSpec(content=daily_text(claim, locale)), locale)
