"""Chocobataille on the platform: its galleons, its catalog, how /card shows its cards, and its services.

The rules are in engine/choco/; the economy (frogs, collection, decks, leagues) in services/choco/economy.py
and its neighbours; the refereed games in services/choco/games.py, choco_panel.py and choco_referee.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from engine.cards import LocalizedText
from engine.choco import ENGINE as CHOCO_ENGINE
from engine.choco.catalog import ChocoCard, ChocoCatalog
from services.choco.economy import CURRENCY, EconomyServices
from services.choco.leagues import profile_summary
from services.platform.games import GameContext, GameSpec
from services.platform.messages import Text

if TYPE_CHECKING:
    from services.choco.clock import ChocoClock
    from services.choco.games import ChocoGames
    from services.choco.panel import ChocoPanel
    from services.choco.referee import ChocoReferee

TYPE_KEYS = {
    "normal": "choco.type.normal",
    "effect": "choco.type.effect",
    "pure": "choco.type.pure",
}
RARITY_KEYS = {
    "bronze_1": "choco.rarity.bronze_1",
    "bronze_2": "choco.rarity.bronze_2",
    "argent_1": "choco.rarity.argent_1",
    "argent_2": "choco.rarity.argent_2",
    "or_1": "choco.rarity.or_1",
    "or_2": "choco.rarity.or_2",
}
TRIGGER_KEYS = {
    "on_place": "choco.trigger.on_place",
    "continuous": "choco.trigger.continuous",
    "from_hand": "choco.trigger.from_hand",
}


def localized(text: LocalizedText, locale: str) -> Text:
    """A catalog text (already in both languages) in the reader's language."""
    return Text.raw(text.get(locale))


def card_fields(card: Any, locale: str) -> list[tuple[Text, Text]]:
    assert isinstance(card, ChocoCard)
    fields = [
        (Text("choco.label.type"), Text(TYPE_KEYS[card.type])),
        (Text("choco.label.rarity"), Text(RARITY_KEYS[card.rarity])),
    ]
    if card.pa is not None and card.pv is not None:
        fields += [
            (Text("choco.label.pa"), Text.raw(str(card.pa))),
            (Text("choco.label.pv"), Text.raw(str(card.pv))),
        ]
    if card.effect is not None:
        effect = card.effect
        value = Text(
            "choco.effect_value",
            {
                "name": localized(effect.name, locale),
                "trigger": Text(TRIGGER_KEYS[effect.trigger]),
                "text": localized(effect.text, locale),
            },
        )
        fields.append((Text("choco.label.effect"), value))
    return fields


@dataclass(frozen=True)
class ChocoServices:
    """Every Chocobataille use case, built once by the container (see `GameSpec.build`)."""

    economy: EconomyServices
    games: ChocoGames
    clock: ChocoClock
    panel: ChocoPanel
    referee: ChocoReferee

    async def on_startup(self, last_seen: datetime | None) -> None:
        """Called by the bot before the scheduler starts (see discord_app/bot.py)."""
        await self.clock.on_startup(last_seen)

    @staticmethod
    def build(ctx: GameContext) -> ChocoServices:
        # Imported here: the game services render cards with the names declared in this module.
        from services.choco.clock import ChocoClock
        from services.choco.games import ChocoGames
        from services.choco.panel import ChocoPanel
        from services.choco.referee import ChocoReferee

        catalog: ChocoCatalog = ctx.catalog
        games = ChocoGames(ctx.db, ctx.clock, catalog, ctx.rng, ctx.scheduler)
        return ChocoServices(
            economy=EconomyServices.build(ctx),
            games=games,
            clock=ChocoClock(ctx.db, ctx.clock, catalog, ctx.rng, ctx.scheduler),
            panel=ChocoPanel(ctx.db, ctx.clock, catalog, games),
            referee=ChocoReferee(ctx.db, ctx.clock, catalog, ctx.rng),
        )


GAME = GameSpec(
    key="choco",
    name_key="choco.name",
    command_group="choco",
    catalog_model=ChocoCatalog,
    card_fields=card_fields,
    currencies=(CURRENCY,),
    profile_summary=profile_summary,
    engine=CHOCO_ENGINE,
    build=ChocoServices.build,
)
