"""/hoss deck: what a player types (lines and buffs by id or name), turned into line and buff ids for the
deck service; the deck's page is built in services/hoss/render/decks.py."""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.hoss.lookup import HossCard, find_card, hoss_of
from core.errors import NotFound
from engine.hoss import BuffCard, CreatureCard
from services.infra.catalogs import fold

# --- what is typed --------------------------------------------------------------------------------------------------


def split_list(raw: str) -> list[str]:
    return [part.strip() for part in re.split(r"[,;\n]", raw) if part.strip()]


def deck_lines(interaction: discord.Interaction[Any], raw: str, locale: str) -> list[str]:
    """Line ids from what was typed: a line id, or the id or name of any card of the line. Anything else
    goes through unchanged, so the deck service names it in its "unknown line" reason."""
    hoss = hoss_of(interaction)
    lines = set(hoss.decks.first)
    result = []
    for token in split_list(raw):
        card = _lookup(interaction, token, locale)
        if token in lines:
            result.append(token)
        elif isinstance(card, CreatureCard):
            result.append(card.line)
        else:
            result.append(token)
    return result


def deck_buffs(interaction: discord.Interaction[Any], raw: str, locale: str) -> list[str]:
    buffs = hoss_of(interaction).decks.buff_cards
    by_effect: dict[str, str] = {card.effect: card.id for card in buffs.values()}
    result = []
    for token in split_list(raw):
        card = _lookup(interaction, token, locale)
        if isinstance(card, BuffCard):
            result.append(card.id)
        else:
            result.append(by_effect.get(fold(token).replace(" ", "_"), token))
    return result


def _lookup(interaction: discord.Interaction[Any], token: str, locale: str) -> HossCard | None:
    try:
        return find_card(interaction, token, locale)
    except NotFound:
        return None


# --- how a deck is shown -------------------------------------------------------------------------------------------
