"""A game's paged rules summary (`/<game> rules`), from the pages its `GameGuide` declares."""

from __future__ import annotations

from core.errors import BadInput
from services.infra.games import GameRegistry
from services.infra.messages import Embed, MessageSpec, Text


def _pages(registry: GameRegistry, game_key: str) -> tuple[tuple[str, str], ...]:
    spec = registry.get(game_key)
    pages = spec.guide.rules_pages if spec is not None and spec.guide is not None else ()
    if not pages:
        raise BadInput()
    return pages


def rules_spec(registry: GameRegistry, game_key: str, page: int) -> MessageSpec:
    """Page `page` (clamped) of a game's rules summary; every page's footer says where the cards' texts
    and the commands are read (in Discord: players never see the bot's source tree)."""
    pages = _pages(registry, game_key)
    page = max(1, min(page, len(pages)))
    spec = registry.get(game_key)
    assert spec is not None
    footer = Text("rules.footer", {"page": page, "pages": len(pages), "game": Text(spec.name_key)})
    title, body = pages[page - 1]
    embed = Embed(title=Text(title), description=Text.lines([Text(body), Text.raw(""), footer]))
    return MessageSpec(embeds=(embed,))
