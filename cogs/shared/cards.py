"""A card shown alone, the same way everywhere: `/card`'s embed (the game's fields, the picture, the
rarity's colour), and « Voir une carte », the select under each game's collection pages that opens one
entry of the player's collection privately with its picture.

The select's custom_id names the game and the collection's owner (`entry:<game>:<owner>`); its values
are what the game's `collection_entry` reads (a card id, or a copy id where copies differ). A click from
anyone but the owner is refused, and the service reads the entry for the clicker only, so a forged id or
value opens nothing of someone else's. Registered by `/card`'s extension (cogs/platform/cards.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from cogs.shared.components import button, check_owner
from core.errors import BadInput, NotAllowed, NotFound
from core.i18n import normalize_locale, t
from core.message_guard import echo
from discord_app.components import PersistentButton, PersistentSelect
from discord_app.context import services_of
from discord_app.permissions import SHOW_OFF, require_here
from discord_app.render import image_file, text, to_discord
from services.community.card_images.spec import CardCopy
from services.infra.messages import Button, Select, Text
from services.shared import card_view
from services.shared.collection import OwnedCard
from services.shared.render.cards import card_spec

OPTION_LIMIT = 25  # Discord's limit on a select's options
AUTOCOMPLETE_LIMIT = 25  # Discord shows at most 25 choices


async def card_choices(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
    """Any game's cards whose name holds what was typed, named in the reader's language with their game
    (`/card`, `/souhaits ajouter`). Runs on every keystroke: a read only, never a write."""
    services = services_of(interaction)
    chosen = await services.players.locale_of(interaction.user.id)
    locale = chosen or normalize_locale(str(interaction.locale), default=services.settings.default_locale)
    choices = []
    for ref in services.cards.search(current, locale, limit=AUTOCOMPLETE_LIMIT):
        game = services.registry.get(ref.game)
        label = f"{ref.name_in(locale)} — {t(game.name_key, locale) if game else ref.game}"
        choices.append(app_commands.Choice(name=label[:100], value=ref.key))
    return choices


def add_entry_select(
    view: discord.ui.View, game: str, owner: int, options: Sequence[tuple[str, str]], locale: str
) -> None:
    """« Voir une carte » under a page of `owner`'s collection: `options` are (label, value) pairs, the
    page's entries (an empty page gets no select)."""
    if not options:
        return
    choices = [
        discord.SelectOption(label=label[:100], value=value) for label, value in options[:OPTION_LIMIT]
    ]
    select = EntrySelect(f"entry:{game}:{owner}", {}, choices)
    select.item.placeholder = t("collection.entry.placeholder", locale)[:150]
    view.add_item(select)


def owned_options(items: Sequence[OwnedCard[Any]], locale: str) -> list[tuple[str, str]]:
    """The options of a page of interchangeable copies: the card's name and count, its id as the value."""
    return [(f"{o.card.name.get(locale)} ×{o.count}", o.card.id) for o in items]


class EntrySelect(PersistentSelect, template=r"entry:(?P<game>[a-z0-9_]{1,32}):(?P<owner>\d+)"):
    async def on_select(self, interaction: discord.Interaction[Any], locale: str, values: list[str]) -> None:
        check_owner(self.match, interaction)
        if len(values) != 1:
            raise BadInput()
        services = services_of(interaction)
        opened = await services.entries.open(self.match["game"], interaction.user.id, values[0], locale)
        ref = services.cards.ref(opened.game, opened.entry.card_id)
        card = services.cards.get(opened.game, opened.entry.card_id)
        if ref is None or card is None:
            raise NotFound("collection.entry.not_owned")
        entry = opened.entry
        note = entry.note or Text("collection.entry.count", {"count": entry.count})
        spec = card_spec(
            ref, card, services.cards.catalog(opened.game), locale, services.registry, opened.image, note
        )
        await interaction.response.send_message(
            **to_discord(spec, locale), files=[image_file(opened.image)], ephemeral=True
        )


class CardViewSelect(PersistentSelect, template=r"cardview:(?P<game>[a-z0-9_]{1,32})"):
    """« Voir une carte » under a hand or a line-up: the chosen card whole, as `/card` shows it, at the
    copy the strip drew (services/shared/card_view.py)."""

    async def on_select(self, interaction: discord.Interaction[Any], locale: str, values: list[str]) -> None:
        if len(values) != 1:
            raise BadInput()
        chosen = card_view.card_of(values[0])
        services = services_of(interaction)
        game = self.match["game"]
        ref = services.cards.ref(game, chosen.card_id)
        card = services.cards.get(game, chosen.card_id)
        if ref is None or card is None:
            raise NotFound("error.card_not_found", name=echo(chosen.card_id))
        copy = CardCopy(chosen.rarity, chosen.stars, chosen.holo)
        image = await services.card_images.image(game, chosen.card_id, copy, locale)
        spec = card_spec(ref, card, services.cards.catalog(game), locale, services.registry, image)
        await interaction.response.send_message(
            **to_discord(spec, locale), files=[image_file(image)], ephemeral=True
        )


def add_card_viewer(view: discord.ui.View, select: Select, locale: str) -> None:
    """The select of `card_view.viewer` on a view a cog builds itself (a duel's private controls)."""
    if not select.options:
        return
    choices = [discord.SelectOption(label=text(o.label, locale)[:100], value=o.value) for o in select.options]
    item = CardViewSelect(select.custom_id, {}, choices)
    item.item.placeholder = text(select.placeholder, locale)[:150]
    view.add_item(item)


class ShowOffButton(PersistentButton, template=r"showoff:(?P<game>[a-z0-9_]{1,32}):(?P<copy>\d+)"):
    """« Montrer » on a private pull: the card in public, once per copy (services/shared/showoff.py)."""

    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        require_here(interaction, SHOW_OFF)  # the post carries the card's picture
        if interaction.channel_id is None:
            raise NotAllowed("showoff.error.not_eligible")
        showoffs = services_of(interaction).showoffs
        posted = await showoffs.show(
            self.match["game"],
            interaction.user.id,
            int(self.match["copy"]),
            interaction.channel_id,
            interaction.guild_id,
        )
        answer = t("showoff.done" if posted else "showoff.already", locale)
        await interaction.response.send_message(answer, ephemeral=True)


def show_off_spec(game: str, copy_id: int, card: str) -> Button:
    """The show-off button as a spec, for a reply written straight as Discord's payload (`rows_of`)."""
    return Button(Text("showoff.button", {"card": card}), f"showoff:{game}:{copy_id}", "success")


def show_off_button(game: str, copy_id: int, card: str, locale: str) -> PersistentButton:
    spec = show_off_spec(game, copy_id, card)
    return button(ShowOffButton, spec.custom_id, spec.label, locale, spec.style)
