"""/pillz economy commands, as a mixin of the `/pillz` GroupCog: packs, odds, collection, decks and the
leaderboard.

Each command parses its options, calls one economy service (`services.pillz.economy.PillzEconomy`) and
renders the result here. Every reply is private (characters and coins are the player's business) except
the leaderboard, which a server shares. The collection's page buttons are DynamicItems (`ECONOMY_ITEMS`,
registered by the cog's `setup`) whose custom_id holds only the owner, the filter and the page; a click
from anyone else is refused.
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
from core.i18n import format_decimal, format_int
from discord_app.components import PersistentButton
from discord_app.context import locale_of, services_of
from discord_app.translator import desc
from engine.pillz import PillzCard, PillzCatalog
from services.infra.catalogs import fold
from services.infra.messages import Embed, EmbedField, MessageSpec, Number, Text
from services.pillz import PillzEconomy
from services.pillz.collection import CollectionPage, clan_of
from services.pillz.decks import DeckView, parse_deck
from services.pillz.ladder import Leaderboard
from services.pillz.names import ability_text, clan_name, stars_text
from services.pillz.showoff import rare
from services.shared.collecting import DeckInvalid, Problem
from services.shared.render import problems as shared_problems
from services.shared.render.ladder import ladder_spec
from services.shared.shop import Odds, Purchase, TierOdds
from services.shared.showoff import show_off_buttons

if TYPE_CHECKING:
    from services.pillz import PillzServices


def economy_of(interaction: discord.Interaction[Any]) -> PillzEconomy:
    services: PillzServices = services_of(interaction).games["pillz"]
    return services.economy


def coins(amount: int, locale: str) -> Text:
    return Text("pillz.gold_amount", {"amount": format_int(amount, locale)})


def character_line(card: PillzCard, catalog: PillzCatalog, locale: str, count: int | None = None) -> Text:
    """One character with its stats: name (👑 for a leader), stars, clan, P/D, its ability if any."""
    params: dict[str, Any] = {
        "name": ("👑 " if card.leader else "") + card.name.get(locale),
        "stars": stars_text(card.stars),
        "clan": clan_name(catalog, card.clan, locale),
        "power": card.power,
        "damage": card.damage,
    }
    ability = ability_text(card, locale)
    line = (
        Text("pillz.economy.line", params)
        if ability is None
        else Text("pillz.economy.line_ability", params | {"ability": ability})
    )
    return line if count is None else Text("pillz.economy.copies", {"count": count, "line": line})


def problem_lines(
    problems: tuple[Problem, ...] | list[Problem], cards: Mapping[str, PillzCard], locale: str
) -> Text:
    return shared_problems.problem_lines(problems, cards, locale, "pillz.economy.problem")


def refused(key: str, problems: tuple[Problem, ...], cards: Mapping[str, PillzCard], locale: str) -> BadInput:
    return shared.refused(key, problems, cards, locale, "pillz.economy.problem")


# --- specs ----------------------------------------------------------------------------------------------


def purchase_spec(purchase: Purchase[PillzCard], catalog: PillzCatalog, locale: str) -> MessageSpec:
    note = Text(
        "pillz.packs.paid",
        {"total": coins(purchase.total, locale), "balance": coins(purchase.balance, locale)},
    )
    fields = tuple(
        EmbedField(
            Text("pillz.packs.pack", {"number": n}),
            Text.lines([character_line(c.card, catalog, locale) for c in pack]),
            inline=False,
        )
        for n, pack in enumerate(purchase.packs, start=1)
    )
    embed = Embed(title=Text("pillz.packs.title", {"count": purchase.count}), fields=fields)
    return MessageSpec(content=note, embeds=(embed,), buttons=show_off_buttons("pillz", purchase.cards, rare))


def odds_spec(odds: Odds[TierOdds[int]], locale: str) -> MessageSpec:
    lines = [
        Text(
            "pillz.odds.line",
            {
                "stars": stars_text(s.tier),
                "percent": format_decimal(s.per_mille / 10, locale),
                "cards": s.cards,
            },
        )
        for s in odds.tiers
    ]
    price = Text(
        "pillz.odds.price",
        {"price": coins(odds.price, locale), "cards": odds.cards_per_pack, "maximum": odds.max_count},
    )
    fields = [EmbedField(Text("pillz.odds.how"), price, inline=False)]
    if odds.balance is not None:
        fields.append(EmbedField(Text("pillz.odds.balance"), coins(odds.balance, locale), inline=False))
    embed = Embed(title=Text("pillz.odds.title"), description=Text.lines(lines), fields=tuple(fields))
    return MessageSpec(embeds=(embed,))


def collection_spec(
    page: CollectionPage, clan: str | None, stars: int | None, catalog: PillzCatalog, locale: str
) -> MessageSpec:
    filters = [clan_name(catalog, clan, locale)] if clan is not None else []
    filters += [stars_text(stars)] if stars is not None else []
    lines = [character_line(o.card, catalog, locale, o.count) for o in page.items]
    body = Text.lines(lines) if lines else None
    fields = [EmbedField(Text("pillz.collection.filter"), Text.raw(" · ".join(filters)))] if filters else []
    fields.append(
        EmbedField(
            Text("pillz.collection.page_label"),
            Text("pillz.collection.page", {"page": page.page, "pages": page.pages}),
        )
    )
    embed = Embed(
        title=Text("pillz.collection.title", {"cards": page.cards, "copies": page.copies}),
        description=body or Text("pillz.collection.empty"),
        fields=tuple(fields),
    )
    note = Text("pillz.collection.starter", {"count": len(page.starter)}) if page.starter else None
    return MessageSpec(content=note, embeds=(embed,))


def deck_spec(view: DeckView, catalog: PillzCatalog, locale: str, note: Text | None) -> MessageSpec:
    cards = {c.id: c for c in catalog.cards}
    lines = [character_line(cards[c], catalog, locale) if c in cards else Text.raw(c) for c in view.cards]
    status = problem_lines(view.problems, cards, locale) if view.problems else Text("pillz.deck.valid")
    embed = Embed(
        title=Text("pillz.deck.title", {"slot": view.slot, "count": len(view.cards)}),
        description=Text.lines(lines),
        fields=(
            EmbedField(Text("pillz.deck.status"), status, inline=False),
            EmbedField(
                Text("pillz.deck.active_label"),
                Text("pillz.deck.active" if view.active else "pillz.deck.inactive"),
                inline=False,
            ),
        ),
    )
    return MessageSpec(content=note, embeds=(embed,))


def leaderboard_spec(board: Leaderboard) -> MessageSpec:
    lines = [
        Text(
            "pillz.leaderboard.line",
            {
                "rank": e.rank,
                "who": f"<@{e.player_id}>",
                "rating": Number(e.rating),
                "games": e.games,
                "wins": e.wins,
                "draws": e.draws,
                "losses": e.losses,
            },
        )
        for e in board.entries
    ]
    return ladder_spec("pillz", board.players, lines)


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
