"""The /hoss buttons and selects: DynamicItems whose custom_id holds only a namespace and opaque values.

Every click is re-read and re-checked: the opening, copy or quote belongs to the clicking player (the
services refuse anything else), buttons that name their owner refuse another player, and confirmations
carry a digest of the copies they were shown, so they act on exactly those or on nothing. Errors go
through the same localized private handler as slash commands.

| custom_id | what |
|---|---|
| `hoss:flip:<opening>:<position>` | turn the next card (the one at `position`) |
| `hoss:flipall:<opening>` | turn every card left |
| `hoss:next:<opening>` | open the player's next booster (sealed, or with face-down cards left) |
| `hoss:sellcard:<opening>` (select of positions) | sell a flipped card on the spot (Argent or rarer: ask first) |
| `hoss:sellok:<opening>:<position>` | confirm selling that Argent-or-rarer card |
| `hoss:sellno:<opening>` | keep it: the opening without the question |
| `hoss:page:<owner>:<filter>:<sort>:<page>` | a collection page |
| `hoss:detail:<owner>` (select of copy ids) | one copy's detail |
| `hoss:sellq:<owner>:<keep>:<filter>:<total>:<digest>` | confirm a bulk sale quote |
| `hoss:fuse:<owner>:<card>:<level>:<confirm>:<digest>` | confirm a fusion preview |
"""

from __future__ import annotations

import io
from typing import Any

import discord

from cogs.hoss.lookup import (
    FILTER_CODE,
    decode_filter,
    decode_sort,
    digest,
    encode_filter,
    encode_sort,
    find_card,
    hoss_of,
)
from cogs.shared.cards import show_off_spec
from cogs.shared.components import button, check_owner, page_buttons, reply
from core.errors import BadInput, NotAllowed
from discord_app.components import PersistentButton, PersistentSelect
from discord_app.context import services_of
from discord_app.deferral import defer_update, update
from discord_app.render import KeptReplies, RenderedView, image_file, rows_of, text, to_discord
from services.hoss.collection import CollectionFilter, CollectionPage
from services.hoss.render import collection as render
from services.hoss.render.collection import confirm_note, starter_note
from services.hoss.sale import SaleQuote, SaleResult
from services.hoss.shop import Opening, SaleToConfirm
from services.hoss.showoff import showable
from services.infra.messages import Button, Select, SelectOption, Text


def chosen_number(values: list[str]) -> int:
    """The one number a select sent back: untrusted input, so checked."""
    if len(values) != 1 or not values[0].isdigit() or len(values[0]) > 18:
        raise BadInput()
    return int(values[0])


# --- boosters -----------------------------------------------------------------------------------------------


def opening_items(
    opening: Opening, locale: str, waiting: int, confirm: SaleToConfirm | None
) -> list[Button | Select]:
    """The opening's buttons and sell select in the order they are placed in rows, as specs: written
    straight as Discord's payload, not as discord.py's items (`discord_app.render.components_of`)."""
    items: list[Button | Select] = []
    if opening.next_position is not None:
        flip_id = f"hoss:flip:{opening.id}:{opening.next_position}"
        items.append(Button(Text("hoss.button.flip"), flip_id, "primary"))
        items.append(Button(Text("hoss.button.flip_all"), f"hoss:flipall:{opening.id}", "secondary"))
    elif waiting:
        items.append(Button(Text("hoss.button.next"), f"hoss:next:{opening.id}", "primary"))
    for shown in showable(opening):
        if shown.copy_id is None or shown.card is None:
            continue
        items.append(show_off_spec("hoss", shown.copy_id, render.card_name(shown.card, locale)))
    options = tuple(
        SelectOption(
            Text("hoss.opening.sell_option", {"name": render.card_name(s.card, locale)}),
            str(s.position),
            render.gold(s.price or 0, locale),
        )
        for s in opening.cards
        if s.flipped and s.owned and s.card is not None
    )
    if options:
        items.append(Select(f"hoss:sellcard:{opening.id}", Text("hoss.opening.sell_placeholder"), options))
    if confirm is not None:
        ok, keep = f"hoss:sellok:{opening.id}:{confirm.position}", f"hoss:sellno:{opening.id}"
        items.append(Button(Text("hoss.button.confirm_sale"), ok, "danger"))
        items.append(Button(Text("hoss.button.keep_card"), keep, "secondary"))
    return items


async def opening_reply(
    interaction: discord.Interaction[Any],
    opening: Opening,
    locale: str,
    note: Text | None = None,
    *,
    edit: bool = False,
    confirm: SaleToConfirm | None = None,
) -> dict[str, Any]:
    """The opening with its buttons and the picture of its six cards (face down until flipped); once it
    is all face up, how many boosters wait and a "next" button. `edit`: arguments of edit_message, whose
    `attachments` replace the previous picture. `confirm`: a rare card picked in « Vendre … », asked
    about in the note, with the buttons that sell it or keep it."""
    waiting = 0
    if opening.next_position is None:
        others = await hoss_of(interaction).shop.unopened(interaction.user.id)
        waiting = sum(1 for o in others if o.id != opening.id)
    if confirm is not None:
        note = confirm_note(confirm, locale)
    view = RenderedView(rows_of(opening_items(opening, locale, waiting, confirm), locale))
    spec = render.opening_spec(opening, locale, waiting=waiting, note=note)
    kwargs = reply(spec, locale, view)
    picture = await services_of(interaction).card_images.sheet("hoss", render.opening_cells(opening), locale)
    file = discord.File(io.BytesIO(picture), filename=render.OPENING_IMAGE)
    kwargs["attachments" if edit else "files"] = [file]
    return kwargs


class FlipButton(PersistentButton, template=r"hoss:flip:(?P<opening>\d+):(?P<position>\d+)"):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        shop = hoss_of(interaction).shop
        result = await shop.flip(interaction.user.id, int(self.match["opening"]), int(self.match["position"]))
        await interaction.response.edit_message(
            **await opening_reply(interaction, result.opening, locale, starter_note(result), edit=True)
        )


class FlipAllButton(PersistentButton, template=r"hoss:flipall:(?P<opening>\d+)"):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        result = await hoss_of(interaction).shop.flip_all(interaction.user.id, int(self.match["opening"]))
        await interaction.response.edit_message(
            **await opening_reply(interaction, result.opening, locale, starter_note(result), edit=True)
        )


class NextBoosterButton(PersistentButton, template=r"hoss:next:(?P<opening>\d+)"):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        """Open the next booster (a sealed one's copies are minted now, once however many clicks)."""
        current = int(self.match["opening"])
        opening = await hoss_of(interaction).shop.open_next(interaction.user.id, after=current)
        if opening is None:
            await interaction.response.send_message(
                text(Text("hoss.opening.all_open"), locale), ephemeral=True
            )
            return
        await interaction.response.edit_message(
            **await opening_reply(interaction, opening, locale, edit=True)
        )


async def sold_from_opening(
    interaction: discord.Interaction[Any], locale: str, opening_id: int, position: int, result: SaleResult
) -> None:
    """The opening again, saying what was sold and the balance."""
    after = await hoss_of(interaction).shop.opening(interaction.user.id, opening_id)
    slot = next((s for s in after.cards if s.position == position and s.card is not None), None)
    name = render.card_name(slot.card, locale) if slot is not None and slot.card is not None else ""
    note = render.sold_note(name, result, locale)
    await interaction.response.edit_message(
        **await opening_reply(interaction, after, locale, note, edit=True)
    )


class SellFromOpeningSelect(PersistentSelect, template=r"hoss:sellcard:(?P<opening>\d+)"):
    async def on_select(self, interaction: discord.Interaction[Any], locale: str, values: list[str]) -> None:
        shop = hoss_of(interaction).shop
        opening_id, position = int(self.match["opening"]), chosen_number(values)
        result = await shop.sell_from_opening(interaction.user.id, opening_id, position, key=interaction.id)
        if isinstance(result, SaleToConfirm):  # Argent or rarer: nothing sold yet, ask first
            opening = await shop.opening(interaction.user.id, opening_id)
            await interaction.response.edit_message(
                **await opening_reply(interaction, opening, locale, edit=True, confirm=result)
            )
            return
        await sold_from_opening(interaction, locale, opening_id, position, result)


class ConfirmBoosterSaleButton(PersistentButton, template=r"hoss:sellok:(?P<opening>\d+):(?P<position>\d)"):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        """Sell the card asked about. The key is the message's and the position's: a double click, or a
        click on a copy of the message shown twice, sells once and answers the same."""
        assert interaction.message is not None
        opening_id, position = int(self.match["opening"]), int(self.match["position"])
        key = f"opening:{interaction.message.id}:{position}"
        result = await hoss_of(interaction).shop.sell_from_opening(
            interaction.user.id, opening_id, position, key=key, confirmed=True
        )
        assert isinstance(result, SaleResult)
        await sold_from_opening(interaction, locale, opening_id, position, result)


class KeepCardButton(PersistentButton, template=r"hoss:sellno:(?P<opening>\d+)"):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        """Nothing sold: the opening as it was, without the question."""
        opening = await hoss_of(interaction).shop.opening(interaction.user.id, int(self.match["opening"]))
        await interaction.response.edit_message(
            **await opening_reply(interaction, opening, locale, edit=True)
        )


# --- collection ---------------------------------------------------------------------------------------------

SORT_KEYS = {
    "rarity": "choice.hoss_sort.rarity",
    "rank": "choice.hoss_sort.rank",
    "name": "choice.hoss_sort.name",
    "stars": "choice.hoss_sort.stars",
    "price": "choice.hoss_sort.price",
    "newest": "choice.hoss_sort.newest",
}


PAGE_LABELS = (Text("hoss.button.previous"), Text("hoss.button.next_page"))


KEPT_PAGES = KeptReplies()  # a page asked again as it stands is not rendered again


def collection_reply(
    page: CollectionPage, criteria: CollectionFilter, sort: str, owner: int, locale: str
) -> dict[str, Any]:
    """A collection page's reply: the embed listing its copies, the page buttons, the copies' select."""
    return KEPT_PAGES.reply(
        (owner, criteria, sort, page.page, locale),
        page,
        lambda: _collection_reply(page, criteria, sort, owner, locale),
    )


def _collection_reply(
    page: CollectionPage, criteria: CollectionFilter, sort: str, owner: int, locale: str
) -> dict[str, Any]:
    code, sort_code = encode_filter(criteria), encode_sort(sort)
    view = discord.ui.View(timeout=None)
    prefix = f"hoss:page:{owner}:{code}:{sort_code}"
    for item in page_buttons(CollectionPageButton, prefix, page.page, page.pages, PAGE_LABELS, locale):
        view.add_item(item)
    if page.items:
        options = [
            discord.SelectOption(
                label=f"#{c.copy_id} {render.card_name(c.card, locale)}"[:100],
                description=render.copy_quality(c, locale)[:100],
                value=str(c.copy_id),
            )
            for c in page.items
        ]
        select = CopyDetailSelect(f"hoss:detail:{owner}", {}, options)
        select.item.placeholder = text(Text("hoss.collection.detail_placeholder"), locale)[:150]
        view.add_item(select)
    spec = render.collection_spec(page, criteria, SORT_KEYS[sort], locale)
    return reply(spec, locale, view)


class CollectionPageButton(
    PersistentButton,
    template=rf"hoss:page:(?P<owner>\d+):(?P<filter>{FILTER_CODE}):(?P<sort>\d):(?P<page>\d{{1,6}})",
):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        check_owner(self.match, interaction)
        criteria, sort = decode_filter(self.match["filter"]), decode_sort(self.match["sort"])
        collection = hoss_of(interaction).collection
        page = await collection.list_copies(
            interaction.user.id, criteria, sort=sort, page=int(self.match["page"]), locale=locale
        )
        await interaction.response.edit_message(
            **collection_reply(page, criteria, sort, interaction.user.id, locale)
        )


class CopyDetailSelect(PersistentSelect, template=r"hoss:detail:(?P<owner>\d+)"):
    async def on_select(self, interaction: discord.Interaction[Any], locale: str, values: list[str]) -> None:
        check_owner(self.match, interaction)
        detail = await hoss_of(interaction).collection.detail(interaction.user.id, chosen_number(values))
        copy = detail.copy
        images = services_of(interaction).card_images
        image = await images.image("hoss", copy.card.id, render.copy_art(copy), locale)
        await interaction.response.send_message(
            **to_discord(render.detail_spec(detail, locale, image), locale),
            files=[image_file(image)],
            ephemeral=True,
        )


# --- bulk sale ----------------------------------------------------------------------------------------------


def quote_button(
    quote: SaleQuote, criteria: CollectionFilter, keep: int, owner: int, locale: str
) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if quote.count:
        custom_id = (
            f"hoss:sellq:{owner}:{keep}:{encode_filter(criteria)}:{quote.total}:{digest(quote.copy_ids)}"
        )
        view.add_item(
            button(ConfirmSaleButton, custom_id, Text("hoss.button.confirm_sale"), locale, "danger")
        )
    return view


class ConfirmSaleButton(
    PersistentButton,
    template=rf"hoss:sellq:(?P<owner>\d+):(?P<keep>[01]):(?P<filter>{FILTER_CODE}):(?P<total>\d{{1,12}}):(?P<digest>[0-9a-f]{{10}})",
):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        """Quote again and sell exactly the quoted copies for the quoted total, or nothing."""
        check_owner(self.match, interaction)
        await defer_update(interaction)  # quoting and selling thousands of copies takes a while
        sale = hoss_of(interaction).sale
        criteria = decode_filter(self.match["filter"])
        quote = await sale.quote_matching(
            interaction.user.id, criteria, keep_per_card=int(self.match["keep"])
        )
        total = int(self.match["total"])
        if digest(quote.copy_ids) != self.match["digest"] or quote.total != total:
            raise NotAllowed("hoss.error.sale.stale")
        assert interaction.message is not None
        result = await sale.sell_quoted(
            interaction.user.id, list(quote.copy_ids), total, key=interaction.message.id
        )
        await update(interaction, **reply(render.sale_done(result, locale), locale, None))


# --- fusion -------------------------------------------------------------------------------------------------


def fusion_button(
    owner: int, card: str, level: str, ids: list[int], confirm: bool, locale: str
) -> discord.ui.View:
    custom_id = f"hoss:fuse:{owner}:{card}:{level}:{int(confirm)}:{digest(ids)}"
    label = Text("hoss.button.fuse_confirm" if confirm else "hoss.button.fuse")
    view = discord.ui.View(timeout=None)
    view.add_item(button(ConfirmFusionButton, custom_id, label, locale, "danger" if confirm else "success"))
    return view


class ConfirmFusionButton(
    PersistentButton,
    template=r"hoss:fuse:(?P<owner>\d+):(?P<card>[a-z0-9_-]{1,64}):(?P<level>[a0-4f]):(?P<confirm>[01]):(?P<digest>[0-9a-f]{10})",
):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        """Select the copies again; fuse them only if they are still exactly the previewed ones."""
        check_owner(self.match, interaction)
        hoss = hoss_of(interaction)
        card = find_card(interaction, self.match["card"], locale)
        assert interaction.message is not None
        result = await hoss.fusion.fuse_shown(
            interaction.user.id,
            card.id,
            self.match["level"],
            lambda ids: digest(ids) == self.match["digest"],
            key=interaction.message.id,
            confirm=self.match["confirm"] == "1",
        )
        await interaction.response.edit_message(
            **reply(render.fusion_result_spec(result, card, locale), locale, None)
        )


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    FlipButton,
    FlipAllButton,
    NextBoosterButton,
    SellFromOpeningSelect,
    ConfirmBoosterSaleButton,
    KeepCardButton,
    CollectionPageButton,
    CopyDetailSelect,
    ConfirmSaleButton,
    ConfirmFusionButton,
)
