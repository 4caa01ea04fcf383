"""/hoss: boosters and their opening, the odds, the collection, sales, fusion, decks, ranked battles, the
raffle (`cogs/hoss/raffle.py`) and the Arena (`cogs/hoss/arena.py`).

Each command parses its options, calls the HOSS services (`services.hoss.HossServices`) and sends the
page `services/hoss/render/` builds; buttons and selects are in `cogs/hoss/views.py`, the ranked battles'
in `cogs/hoss/battle.py`. Every reply is private (cards and gold are the player's business) except the
battle message, which shows the board but never the hand. Domain errors go to the global handler. After
each /hoss command, unclaimed milestone notices are shown privately with their OK button.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from cogs.hoss.arena import ARENA_ITEMS, ArenaCommands
from cogs.hoss.battle import (
    BATTLE_ITEMS,
    ladder_reply,
    notice_reply,
    show_battle,
    show_privately,
    start_battle,
)
from cogs.hoss.decks import deck_buffs, deck_lines
from cogs.hoss.lookup import find_card, hoss_of, hoss_refs
from cogs.hoss.raffle import RAFFLE_ITEMS, RaffleCommands
from cogs.hoss.replays import REPLAY_ITEMS, send_choices, send_replay
from cogs.hoss.views import DYNAMIC_ITEMS, collection_reply, fusion_button, opening_reply, quote_button
from cogs.shared.components import key_choice, reply
from cogs.shared.guide import rules_reply
from cogs.shared.lab import LabRequest, lab_reply
from cogs.shared.mixins import send, send_board
from core.errors import BadInput, NotAllowed, NotFound
from core.i18n import normalize_locale
from discord_app import deferral
from discord_app.after_command import add_after_command, remove_after_command
from discord_app.context import locale_of, public_locale_of, services_of
from discord_app.option_checks import Id
from discord_app.permissions import BATTLE_MESSAGE, require_here
from discord_app.render import text
from discord_app.translator import choice, desc
from services.hoss import CLASS_KEYS, RACE_KEYS, RANK_KEYS
from services.hoss.collection import CollectionFilter
from services.hoss.render import collection as render
from services.hoss.render.battle import standings_spec
from services.hoss.render.decks import deck_list_spec, deck_spec, problem_text
from services.infra.messages import MessageSpec, Text
from services.shared.collecting import DeckInvalid
from services.shared.render.problems import listing

AUTOCOMPLETE_LIMIT = 25
F = TypeVar("F", bound=Callable[..., Any])
Choice = app_commands.Choice


RACE_CHOICES = [key_choice(key, race) for race, key in RACE_KEYS.items()]
CLASS_CHOICES = [key_choice(key, cls) for cls, key in CLASS_KEYS.items()]
RANK_CHOICES = [key_choice(key, rank) for rank, key in RANK_KEYS.items()]
RARITY_CHOICES = [key_choice(key, rarity) for rarity, key in render.RARITY_KEYS.items()]
KIND_CHOICES = [choice("hoss_kind", "creature"), choice("hoss_kind", "buff")]
SORT_CHOICES = [choice("hoss_sort", s) for s in ("rarity", "rank", "name", "stars", "price", "newest")]
FILTER_OPTIONS = ("race", "cls", "rank", "rarity", "stars", "holo", "kind")


def filter_options(path: str, *extra: str) -> Callable[[F], F]:
    """The collection filters as options of a command (`path` like "sell.duplicates")."""

    def apply(func: F) -> F:
        names = (*FILTER_OPTIONS, *extra)
        described = {name: desc(f"cmd.hoss.{path}.opt.{name}.description") for name in names}
        func = app_commands.describe(**described)(func)
        func = app_commands.rename(cls="class")(func)
        return app_commands.choices(
            race=RACE_CHOICES, cls=CLASS_CHOICES, rank=RANK_CHOICES, rarity=RARITY_CHOICES, kind=KIND_CHOICES
        )(func)

    return apply


def make_filter(
    race: Choice[str] | None,
    cls: Choice[str] | None,
    rank: Choice[int] | None,
    rarity: Choice[str] | None,
    stars: int | None,
    holo: bool | None,
    kind: Choice[str] | None,
) -> CollectionFilter:
    def value(option: Choice[Any] | None) -> Any:
        return None if option is None else option.value

    return CollectionFilter(
        race=value(race),
        cls=value(cls),
        rank=value(rank),
        rarity=value(rarity),
        stars=stars,
        holo=holo,
        kind=value(kind),
    )


async def reader_locale(interaction: discord.Interaction[Any]) -> str:
    """The reader's language for autocomplete, which only reads (no player is created)."""
    services = services_of(interaction)
    chosen = await services.players.locale_of(interaction.user.id)
    return chosen or normalize_locale(str(interaction.locale), default=services.settings.default_locale)


Stars = app_commands.Range[int, 0, 5]
Slot = app_commands.Range[int, 1, 4]


class HossCog(
    RaffleCommands,
    ArenaCommands,
    commands.GroupCog,
    group_name="hoss",
    group_description=desc("cmd.hoss.description"),
):
    sell = app_commands.Group(name="sell", description=desc("cmd.hoss.sell.description"))
    deck = app_commands.Group(name="deck", description=desc("cmd.hoss.deck.description"))

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="rules", description=desc("cmd.hoss.rules.description"))
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        """The rules summed up in the reader's language, a page at a time (cogs/shared/guide.py)."""
        locale = await locale_of(interaction)
        await interaction.response.send_message(
            **rules_reply(services_of(interaction).registry, "hoss", 1, locale), ephemeral=True
        )

    # --- boosters -------------------------------------------------------------------------------------

    @app_commands.command(name="booster", description=desc("cmd.hoss.booster.description"))
    @app_commands.describe(
        count=desc("cmd.hoss.booster.opt.count.description"),
        kind=desc("cmd.hoss.booster.opt.kind.description"),
        race=desc("cmd.hoss.booster.opt.race.description"),
        rank=desc("cmd.hoss.booster.opt.rank.description"),
    )
    @app_commands.choices(
        kind=[choice("hoss_booster", "normal"), choice("hoss_booster", "race")], race=RACE_CHOICES
    )
    async def booster(
        self,
        interaction: discord.Interaction[Any],
        count: app_commands.Range[int, 1, 10] = 1,
        kind: Choice[str] | None = None,
        race: Choice[str] | None = None,
        rank: app_commands.Range[int, 1, 9] | None = None,
    ) -> None:
        locale = await locale_of(interaction)
        chosen_kind = kind.value if kind is not None else ("race" if race is not None else "normal")
        if chosen_kind == "race" and race is None:
            raise BadInput("hoss.error.booster.race_needed")
        if chosen_kind == "normal" and race is not None:
            raise BadInput("hoss.error.booster.race_for_normal")
        purchase = await hoss_of(interaction).shop.buy(
            interaction.user.id,
            count,
            key=interaction.id,
            race=race.value if race is not None else None,
            tier=rank,
        )
        note = render.purchase_note(purchase, locale)
        kwargs = await opening_reply(interaction, purchase.openings[0], locale, note)
        await interaction.response.send_message(**kwargs, ephemeral=True)

    @app_commands.command(name="open", description=desc("cmd.hoss.open.description"))
    async def open(self, interaction: discord.Interaction[Any]) -> None:
        locale = await locale_of(interaction)
        opening = await hoss_of(interaction).shop.open_next(interaction.user.id)
        if opening is None:
            await send(interaction, MessageSpec(content=Text("hoss.opening.all_open")), locale)
            return
        await interaction.response.send_message(
            **await opening_reply(interaction, opening, locale), ephemeral=True
        )

    @app_commands.command(name="odds", description=desc("cmd.hoss.odds.description"))
    async def odds(self, interaction: discord.Interaction[Any]) -> None:
        locale = await locale_of(interaction)
        shop = hoss_of(interaction).shop
        offer = await shop.offer(interaction.user.id)
        await send(interaction, render.odds_spec(shop.odds(), offer, locale), locale)

    # --- collection -----------------------------------------------------------------------------------

    @app_commands.command(name="collection", description=desc("cmd.hoss.collection.description"))
    @filter_options("collection", "sort")
    @app_commands.choices(sort=SORT_CHOICES)
    async def collection(
        self,
        interaction: discord.Interaction[Any],
        race: Choice[str] | None = None,
        cls: Choice[str] | None = None,
        rank: Choice[int] | None = None,
        rarity: Choice[str] | None = None,
        stars: Stars | None = None,
        holo: bool | None = None,
        kind: Choice[str] | None = None,
        sort: Choice[str] | None = None,
    ) -> None:
        locale = await locale_of(interaction)
        criteria = make_filter(race, cls, rank, rarity, stars, holo, kind)
        order = sort.value if sort is not None else "rarity"
        page = await hoss_of(interaction).collection.list_copies(
            interaction.user.id, criteria, sort=order, page=1, locale=locale
        )
        kwargs = collection_reply(page, criteria, order, interaction.user.id, locale)
        await interaction.response.send_message(**kwargs, ephemeral=True)

    # --- sales ----------------------------------------------------------------------------------------

    @sell.command(name="card", description=desc("cmd.hoss.sell.card.description"))
    @app_commands.describe(copy=desc("cmd.hoss.sell.card.opt.copy.description"))
    async def sell_card(self, interaction: discord.Interaction[Any], copy: Id) -> None:
        locale = await locale_of(interaction)
        hoss = hoss_of(interaction)
        # the sale refuses a copy you cannot see (someone else's, face down) and names the card it sold
        result = await hoss.sale.sell(interaction.user.id, copy, key=interaction.id)
        if result.card_keys:
            card = hoss.sale.cards[result.card_keys[0]]
        else:  # a repeated click answered with a sale stored before its cards were kept
            card = (await hoss.collection.detail(interaction.user.id, copy)).copy.card
        note = render.sold_note(render.card_name(card, locale), result, locale)
        await send(interaction, MessageSpec(content=note), locale)

    @sell_card.autocomplete("copy")
    async def sell_card_copy(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        """The player's copies whose name matches, or their newest copies when nothing is typed."""
        locale = await reader_locale(interaction)
        collection = hoss_of(interaction).collection
        card_ids = None
        if current.strip():
            card_ids = [card.id for card in hoss_refs(interaction, current, locale, limit=5)]
        copies = await collection.search_copies(interaction.user.id, card_ids, limit=AUTOCOMPLETE_LIMIT)
        return [
            app_commands.Choice(
                name=text(render.copy_line(c, locale, plain=True), locale)[:100], value=c.copy_id
            )
            for c in copies
        ]

    async def _quote(
        self, interaction: discord.Interaction[Any], criteria: CollectionFilter, keep: int
    ) -> None:
        locale = await locale_of(interaction)
        await deferral.defer_reply(interaction)  # quoting thousands of copies takes a while
        hoss = hoss_of(interaction)
        quote = await hoss.sale.quote_matching(interaction.user.id, criteria, keep_per_card=keep)
        spec = render.quote_spec(quote, quote.copies, criteria, locale)
        view = quote_button(quote, criteria, keep, interaction.user.id, locale)
        await deferral.reply(interaction, **reply(spec, locale, view))

    @sell.command(name="duplicates", description=desc("cmd.hoss.sell.duplicates.description"))
    @filter_options("sell.duplicates")
    async def sell_duplicates(
        self,
        interaction: discord.Interaction[Any],
        race: Choice[str] | None = None,
        cls: Choice[str] | None = None,
        rank: Choice[int] | None = None,
        rarity: Choice[str] | None = None,
        stars: Stars | None = None,
        holo: bool | None = None,
        kind: Choice[str] | None = None,
    ) -> None:
        """Every copy beyond the best one of each card (among those matching the filters): quote, confirm."""
        await self._quote(interaction, make_filter(race, cls, rank, rarity, stars, holo, kind), keep=1)

    @sell.command(name="filtered", description=desc("cmd.hoss.sell.filtered.description"))
    @filter_options("sell.filtered")
    async def sell_filtered(
        self,
        interaction: discord.Interaction[Any],
        race: Choice[str] | None = None,
        cls: Choice[str] | None = None,
        rank: Choice[int] | None = None,
        rarity: Choice[str] | None = None,
        stars: Stars | None = None,
        holo: bool | None = None,
        kind: Choice[str] | None = None,
    ) -> None:
        """Every copy matching the filters (at least one filter): quote, confirm."""
        criteria = make_filter(race, cls, rank, rarity, stars, holo, kind)
        if criteria == CollectionFilter():
            raise BadInput("hoss.error.sell.no_filter")
        await self._quote(interaction, criteria, keep=0)

    # --- fusion ---------------------------------------------------------------------------------------

    @app_commands.command(name="fuse", description=desc("cmd.hoss.fuse.description"))
    @app_commands.describe(
        card=desc("cmd.hoss.fuse.opt.card.description"),
        stars=desc("cmd.hoss.fuse.opt.stars.description"),
        five_as_four=desc("cmd.hoss.fuse.opt.five_as_four.description"),
    )
    async def fuse(
        self,
        interaction: discord.Interaction[Any],
        card: app_commands.Range[str, 1, 100],
        stars: app_commands.Range[int, 0, 4] | None = None,
        five_as_four: bool = False,
    ) -> None:
        """Preview the fusion of a card's pairs (a chain over every star level, or one level, or a 5★ standing
        in as a 4★); the confirmation button fuses."""
        locale = await locale_of(interaction)
        hoss = hoss_of(interaction)
        chosen = find_card(interaction, card, locale)
        level = "f" if five_as_four else ("a" if stars is None else str(stars))
        proposal = await hoss.fusion.propose(interaction.user.id, chosen.id, level)
        preview, ids = proposal.preview, list(proposal.ids)
        spec = render.fusion_preview_spec(preview, chosen, {c.copy_id: c for c in proposal.copies}, locale)
        view = fusion_button(interaction.user.id, chosen.id, level, ids, preview.needs_confirmation, locale)
        await interaction.response.send_message(**reply(spec, locale, view), ephemeral=True)

    @fuse.autocomplete("card")
    async def fuse_card(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """The player's cards that have something to fuse."""
        locale = await reader_locale(interaction)
        collection = hoss_of(interaction).collection
        card_ids = None
        if current.strip():
            card_ids = [card.id for card in hoss_refs(interaction, current, locale, limit=10)]
        fusable = await collection.fusable_cards(interaction.user.id, card_ids)
        cards = collection.cards
        choices = []
        for card_id, levels in sorted(fusable.items(), key=lambda item: cards[item[0]].name.get(locale)):
            counts = " · ".join(f"{stars}★ ×{n}" for stars, n in sorted(levels.items()))
            label = f"{cards[card_id].name.get(locale)} — {counts}"
            choices.append(app_commands.Choice(name=label[:100], value=card_id))
        return choices[:AUTOCOMPLETE_LIMIT]

    # --- decks ----------------------------------------------------------------------------------------

    def _deck_reply(
        self, interaction: discord.Interaction[Any], view: Any, locale: str, note: Text | None
    ) -> MessageSpec:
        decks = hoss_of(interaction).decks
        return deck_spec(view, decks.catalog, decks.first, locale, note=note)

    @deck.command(name="save", description=desc("cmd.hoss.deck.save.description"))
    @app_commands.describe(
        slot=desc("cmd.hoss.deck.save.opt.slot.description"),
        name=desc("cmd.hoss.deck.save.opt.name.description"),
        lines=desc("cmd.hoss.deck.save.opt.lines.description"),
        buffs=desc("cmd.hoss.deck.save.opt.buffs.description"),
    )
    async def deck_save(
        self,
        interaction: discord.Interaction[Any],
        slot: Slot,
        name: app_commands.Range[str, 1, 32],
        lines: app_commands.Range[str, 1, 1000],
        buffs: app_commands.Range[str, 1, 200],
    ) -> None:
        """Lines and buffs by id or name, separated by commas; an invalid deck is refused with every reason."""
        locale = await locale_of(interaction)
        decks = hoss_of(interaction).decks
        wanted_lines, wanted_buffs = (
            deck_lines(interaction, lines, locale),
            deck_buffs(interaction, buffs, locale),
        )
        try:
            view = await decks.save(interaction.user.id, slot, name, wanted_lines, wanted_buffs)
        except DeckInvalid as exc:  # re-raised whole: the handler would only show the first reason, by id
            reasons = [
                Text("error.reason_line", {"reason": problem_text(p, decks.catalog, decks.first, locale)})
                for p in exc.problems
            ]
            raise BadInput("hoss.error.deck.refused", reasons=listing(reasons)) from exc
        note = Text("hoss.deck.saved", {"slot": slot})
        await send(interaction, self._deck_reply(interaction, view, locale, note), locale)

    @deck.command(name="auto", description=desc("cmd.hoss.deck.auto.description"))
    @app_commands.describe(slot=desc("cmd.hoss.deck.auto.opt.slot.description"))
    async def deck_auto(self, interaction: discord.Interaction[Any], slot: Slot = 1) -> None:
        """The strongest valid deck of the player's cards, saved and made active: a first deck in one step."""
        locale = await locale_of(interaction)
        view = await hoss_of(interaction).decks.auto(interaction.user.id, slot)
        note = Text("hoss.deck.auto_saved", {"slot": slot})
        await send(interaction, self._deck_reply(interaction, view, locale, note), locale)

    @deck.command(name="show", description=desc("cmd.hoss.deck.show.description"))
    @app_commands.describe(slot=desc("cmd.hoss.deck.show.opt.slot.description"))
    async def deck_show(self, interaction: discord.Interaction[Any], slot: Slot) -> None:
        locale = await locale_of(interaction)
        view = await hoss_of(interaction).decks.show(interaction.user.id, slot)
        await send(interaction, self._deck_reply(interaction, view, locale, None), locale)

    @deck.command(name="active", description=desc("cmd.hoss.deck.active.description"))
    @app_commands.describe(slot=desc("cmd.hoss.deck.active.opt.slot.description"))
    async def deck_active(self, interaction: discord.Interaction[Any], slot: Slot) -> None:
        locale = await locale_of(interaction)
        decks = hoss_of(interaction).decks
        await decks.set_active(interaction.user.id, slot)
        view = await decks.show(interaction.user.id, slot)
        key = "hoss.deck.activated" if view.valid else "hoss.deck.activated_invalid"
        note = Text(key, {"slot": slot, "name": view.name})
        await send(interaction, self._deck_reply(interaction, view, locale, note), locale)

    @deck.command(name="list", description=desc("cmd.hoss.deck.list.description"))
    async def deck_list(self, interaction: discord.Interaction[Any]) -> None:
        locale = await locale_of(interaction)
        views = await hoss_of(interaction).decks.decks(interaction.user.id)
        await send(interaction, deck_list_spec(views), locale)

    # --- ranked battles against the AI -----------------------------------------------------------------

    @app_commands.command(name="rank", description=desc("cmd.hoss.rank.description"))
    @app_commands.describe(rank=desc("cmd.hoss.rank.opt.rank.description"))
    async def rank(
        self, interaction: discord.Interaction[Any], rank: app_commands.Range[int, 1, 9] | None = None
    ) -> None:
        """The ladder with a button per playable rank; with `rank`, start a battle there at once."""
        locale = await locale_of(interaction)
        if rank is not None:
            await start_battle(interaction, rank, locale)
            return
        ladder = await hoss_of(interaction).ranked.ladder(interaction.user.id)
        await interaction.response.send_message(
            **ladder_reply(ladder, interaction.user.id, locale), ephemeral=True
        )

    @app_commands.command(name="battle", description=desc("cmd.hoss.battle.description"))
    @app_commands.describe(battle=desc("cmd.hoss.battle.opt.battle.description"))
    async def battle(self, interaction: discord.Interaction[Any], battle: Id | None = None) -> None:
        """Show the player's battle (the live one by default) with its buttons, privately: the channel
        already has its message, which the outbox keeps up to date. A battle left without a public message
        (the bot stopped before recording it) gets one here, and the outbox edits that one from now on."""
        locale = await locale_of(interaction)  # the player's first command creates them
        ranked = hoss_of(interaction).ranked
        battle_id = battle if battle is not None else await ranked.current(interaction.user.id)
        if battle_id is None:
            raise NotFound("hoss.battle.none")
        screen = await ranked.screen(interaction.user.id, battle_id, interaction.guild_id)
        if not screen.attached:
            require_here(interaction, BATTLE_MESSAGE)
            await show_battle(interaction, battle_id, screen.message)
            return
        await show_privately(interaction, screen.message.spec, locale)

    @app_commands.command(name="lab", description=desc("cmd.hoss.lab.description"))
    @app_commands.describe(
        slot=desc("cmd.hoss.lab.opt.slot.description"), rank=desc("cmd.hoss.lab.opt.rank.description")
    )
    async def lab(
        self,
        interaction: discord.Interaction[Any],
        slot: Slot | None = None,
        rank: app_commands.Range[int, 1, 9] | None = None,
    ) -> None:
        """The deck (the active one by default) against the AI of every rank, or of one (docs/lab.md)."""
        opponent = None if rank is None else str(rank)
        await lab_reply(interaction, "hoss", LabRequest(interaction.user.id, slot, opponent))

    @app_commands.command(name="leaderboard", description=desc("cmd.hoss.leaderboard.description"))
    async def leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        """Public: this server's ranked standings, top 10, and the caller's place when below them."""
        await locale_of(interaction)  # the player's first command creates them
        if interaction.guild_id is None:
            raise NotAllowed("hoss.standings.guild_only")
        board = await hoss_of(interaction).standings.leaderboard(interaction.guild_id, interaction.user.id)
        await send_board(interaction, standings_spec(board, await public_locale_of(interaction)))

    @app_commands.command(name="replay", description=desc("cmd.hoss.replay.description"))
    @app_commands.describe(id=desc("cmd.hoss.replay.opt.id.description"))
    async def replay(self, interaction: discord.Interaction[Any], id: Id | None = None) -> None:
        """A finished battle round by round; without a number, the player's latest ones to choose from."""
        locale = await locale_of(interaction)
        if id is None:
            await send_choices(interaction, locale)
            return
        await send_replay(interaction, id, locale)

    async def cog_load(self) -> None:
        add_after_command(self.bot, self.show_notices)

    async def cog_unload(self) -> None:
        remove_after_command(self.bot, self.show_notices)

    async def show_notices(
        self, interaction: discord.Interaction[Any], command: app_commands.Command[Any, ..., Any] | Any
    ) -> None:
        """After every /hoss command: each unclaimed milestone notice, privately, with its OK button."""
        if not getattr(command, "qualified_name", "").startswith("hoss "):
            return
        notices = await hoss_of(interaction).ranked.pending_notices(interaction.user.id)
        if not notices:
            return
        locale = await locale_of(interaction)
        for notice in notices:
            await interaction.followup.send(
                **notice_reply(notice, interaction.user.id, locale), ephemeral=True
            )


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS, *BATTLE_ITEMS, *RAFFLE_ITEMS, *ARENA_ITEMS, *REPLAY_ITEMS)
    await bot.add_cog(HossCog(bot))
