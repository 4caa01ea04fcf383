"""The private preparation page of a Dinocard challenge: what Perception shows of the opposing pack, the
bonus cards chosen (« la liste de droite »), a page of the collection's free cards that may be added, and
« Lancer le Défi ».

Rulebook: « La page de préparation du combat vous montre aussi les cartes disponibles dans votre
collection. Vous pouvez cliquer sur une de vos cartes pour l'ajouter en tant que cartes bonus pour ce
combat. Les cartes bonus choisies sont visibles dans la liste de droite. » Every control carries the whole
page in its custom_id and asks the service for the page again (`DinocardBattles.prepare`), which checks
the pack, the opponent and the bonus as a launch does; the page keeps no state of its own. Its text is
built by services/dinocard/render/preparation.py; here, its selects and buttons.

| custom_id | what |
|---|---|
| `dino:badd:<page state>` (select of catalog indexes) | add one copy of a card to the bonus |
| `dino:brem:<page state>` (select of places in the bonus) | take a card out of the bonus |
| `dino:bel:<page state>` / `dino:bty:<page state>` (select of indexes, `-` all) | filter by element / type |
| `dino:bpg:<page state>` | another page of the collection (its page in the state) |
| `dino:go:<owner>:<guild>:<pack>:<opponent>:<bonus>` | « Lancer le Défi » (cogs/dinocard/battle.py) |

`<page state>` is `<owner>:<pack>:<opponent>:<bonus>:<element>:<type>:<page>`: `<bonus>` the catalog
indexes of the bonus cards joined by `.` (`-`: none), `<element>` and `<type>` an index or `-`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import discord

from cogs.dinocard.common import dino_of, refused
from cogs.shared import rows
from cogs.shared.components import NO_VALUE, check_owner, decode_choice, encode_choice
from core.errors import BadInput, NotAllowed
from core.i18n import t
from discord_app.components import PersistentButton, PersistentSelect
from discord_app.permissions import PUBLIC_MESSAGE, require_here
from discord_app.render import RenderedView, text, to_discord
from engine.dinocard import CARD_TYPES, ELEMENTS, DinocardCard
from services.dinocard.keys import ELEMENT_KEYS, TYPE_KEYS
from services.dinocard.preparation import Preparation
from services.dinocard.render.preparation import prepare_spec
from services.infra.messages import MessageSpec, Text
from services.shared.collecting import DeckInvalid

MAX_BONUS = 10
BONUS_CODES = r"-|\d{1,3}(?:\.\d{1,3}){0,9}"
STATE = (
    rf"(?P<owner>\d+):(?P<pack>\d+):(?P<opponent>\d+):(?P<bonus>{BONUS_CODES})"
    r":(?P<element>-|\d):(?P<kind>-|\d):(?P<page>\d{1,4})"
)
PAGE_LABELS = (Text("dinocard.button.previous"), Text("dinocard.button.next"))


@dataclass(frozen=True)
class Page:
    """What a control of the page carries: whose page, which challenge, the bonus and the collection's view."""

    owner: int
    pack: int
    opponent: int
    bonus: tuple[str, ...]
    element: str | None
    kind: str | None
    page: int

    def code(self, cards: Mapping[str, DinocardCard]) -> str:
        bonus = bonus_code(self.bonus, cards)
        element, kind = encode_choice(self.element, ELEMENTS), encode_choice(self.kind, CARD_TYPES)
        return f"{self.owner}:{self.pack}:{self.opponent}:{bonus}:{element}:{kind}:{self.page}"

    @staticmethod
    def read(match: Mapping[str, str], cards: Mapping[str, DinocardCard]) -> Page:
        return Page(
            owner=int(match["owner"]),
            pack=int(match["pack"]),
            opponent=int(match["opponent"]),
            bonus=bonus_cards(match["bonus"], cards),
            element=decode_choice(match["element"], ELEMENTS),
            kind=decode_choice(match["kind"], CARD_TYPES),
            page=int(match["page"]),
        )


def bonus_code(bonus: tuple[str, ...], cards: Mapping[str, DinocardCard]) -> str:
    ids = list(cards)
    return ".".join(str(ids.index(c)) for c in bonus) or NO_VALUE


def bonus_cards(code: str, cards: Mapping[str, DinocardCard]) -> tuple[str, ...]:
    """The bonus a custom_id names; an index out of the catalog (a forged id) is refused."""
    ids = list(cards)
    indexes = [] if code == NO_VALUE else [int(c) for c in code.split(".")]
    if any(i >= len(ids) for i in indexes):
        raise BadInput()
    return tuple(ids[i] for i in indexes)


def _filters(page: Page, state: str, locale: str) -> list[dict[str, Any]]:
    """The element and type filters, the current one of each marked."""
    elements = [(t("dinocard.prepare.option_all_elements", locale), NO_VALUE)]
    elements += [(t(ELEMENT_KEYS[e], locale), str(i)) for i, e in enumerate(ELEMENTS)]
    kinds = [(t("dinocard.prepare.option_all_types", locale), NO_VALUE)]
    kinds += [(t(TYPE_KEYS[k], locale), str(i)) for i, k in enumerate(CARD_TYPES)]
    element = None if page.element is None else encode_choice(page.element, ELEMENTS)
    kind = None if page.kind is None else encode_choice(page.kind, CARD_TYPES)
    return [
        rows.select_row(f"dino:bel:{state}", t("dinocard.prepare.filter_element", locale), elements, element),
        rows.select_row(f"dino:bty:{state}", t("dinocard.prepare.filter_type", locale), kinds, kind),
    ]


def prepare_reply(
    prep: Preparation, owner: int, guild: int, cards: Mapping[str, DinocardCard], locale: str
) -> dict[str, Any]:
    """The page and its controls: add (while the bonus has room), remove, the two filters, the pages of
    the collection and « Lancer le Défi ». The controls are written straight as Discord's rows
    (cogs/shared/rows.py): the items registered at start-up answer their clicks, so no discord.py item is
    built for a page shown again at every pick."""
    ids = list(cards)
    page = Page(owner, prep.pack.id, prep.opponent_id, prep.bonus, prep.element, prep.kind, prep.choices.page)
    state = page.code(cards)
    found: list[dict[str, Any]] = []
    if prep.choices.items and len(prep.bonus) < prep.bonus_allowed:
        options = [(o.card.name.get(locale), str(ids.index(o.card.id))) for o in prep.choices.items]
        found.append(rows.select_row(f"dino:badd:{state}", t("dinocard.prepare.add", locale), options))
    if prep.bonus:
        chosen = [(cards[c].name.get(locale), str(n)) for n, c in enumerate(prep.bonus)]
        found.append(rows.select_row(f"dino:brem:{state}", t("dinocard.prepare.remove", locale), chosen))
    found += _filters(page, state, locale)
    prefix = "dino:bpg:" + state.rsplit(":", 1)[0]
    current, pages = prep.choices.page, prep.choices.pages
    previous, following = (text(label, locale) for label in PAGE_LABELS)
    launch = f"dino:go:{owner}:{guild}:{prep.pack.id}:{prep.opponent_id}:{bonus_code(prep.bonus, cards)}"
    buttons = [
        rows.button(f"{prefix}:{current - 1}", previous, "secondary", current <= 1),
        rows.button(f"{prefix}:{current + 1}", following, "secondary", current >= pages),
        rows.button(launch, t("dinocard.prepare.launch", locale), "success", not prep.daily_left),
    ]
    kwargs = to_discord(prepare_spec(prep, cards), locale)
    kwargs["view"] = RenderedView([*found, rows.buttons_row(buttons)])
    return kwargs


def here(interaction: discord.Interaction[Any]) -> int:
    return interaction.guild_id or 0


async def show(interaction: discord.Interaction[Any], locale: str, page: Page) -> None:
    """The page again, as `page` asks it; the service checks the pack, the opponent and the bonus."""
    battles = dino_of(interaction).battles
    try:
        prep = await battles.prepare(
            interaction.user.id,
            str(page.pack),
            page.opponent,
            page.bonus,
            element=page.element,
            kind=page.kind,
            page=page.page,
            locale=locale,
        )
    except DeckInvalid as exc:
        raise refused("dinocard.error.challenge.refused", exc.problems, battles.cards, locale) from exc
    kwargs = prepare_reply(prep, interaction.user.id, here(interaction), battles.cards, locale)
    await interaction.response.edit_message(**kwargs)


def _page(match: Mapping[str, str], interaction: discord.Interaction[Any]) -> Page:
    check_owner(match, interaction)
    return Page.read(match, dino_of(interaction).battles.cards)


def _one(values: list[str]) -> str:
    if len(values) != 1:
        raise BadInput()
    return values[0]


class AddBonus(PersistentSelect, template=rf"dino:badd:{STATE}"):
    async def on_select(self, interaction: discord.Interaction[Any], locale: str, values: list[str]) -> None:
        page = _page(self.match, interaction)
        (card,) = bonus_cards(_one(values), dino_of(interaction).battles.cards)
        if len(page.bonus) >= MAX_BONUS:
            raise BadInput("dinocard.error.challenge.bonus_count", maximum=MAX_BONUS)
        await show(interaction, locale, replace(page, bonus=(*page.bonus, card)))


class RemoveBonus(PersistentSelect, template=rf"dino:brem:{STATE}"):
    async def on_select(self, interaction: discord.Interaction[Any], locale: str, values: list[str]) -> None:
        page = _page(self.match, interaction)
        place = _one(values)
        if not place.isdigit() or int(place) >= len(page.bonus):
            raise BadInput()
        bonus = page.bonus[: int(place)] + page.bonus[int(place) + 1 :]
        await show(interaction, locale, replace(page, bonus=bonus))


class ElementFilter(PersistentSelect, template=rf"dino:bel:{STATE}"):
    async def on_select(self, interaction: discord.Interaction[Any], locale: str, values: list[str]) -> None:
        page = _page(self.match, interaction)
        await show(interaction, locale, replace(page, element=decode_choice(_one(values), ELEMENTS), page=1))


class TypeFilter(PersistentSelect, template=rf"dino:bty:{STATE}"):
    async def on_select(self, interaction: discord.Interaction[Any], locale: str, values: list[str]) -> None:
        page = _page(self.match, interaction)
        await show(interaction, locale, replace(page, kind=decode_choice(_one(values), CARD_TYPES), page=1))


class BonusPage(PersistentButton, template=rf"dino:bpg:{STATE}"):
    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        await show(interaction, locale, _page(self.match, interaction))


class LaunchButton(
    PersistentButton,
    template=rf"dino:go:(?P<owner>\d+):(?P<guild>\d+):(?P<pack>\d+):(?P<opponent>\d+):(?P<bonus>{BONUS_CODES})",
):
    """« Lancer le Défi »: the preparation message's id is the launch's idempotency key (a double click
    launches one battle)."""

    async def on_click(self, interaction: discord.Interaction[Any], locale: str) -> None:
        if int(self.match["owner"]) != interaction.user.id or int(self.match["guild"]) != here(interaction):
            raise NotAllowed("error.not_your_message")
        battles = dino_of(interaction).battles
        bonus = bonus_cards(self.match["bonus"], battles.cards)
        require_here(interaction, PUBLIC_MESSAGE)
        assert interaction.channel_id is not None
        assert interaction.message is not None
        try:
            match = await battles.launch(
                interaction.user.id,
                int(self.match["pack"]),
                int(self.match["opponent"]),
                list(bonus),
                guild=interaction.guild_id,
                channel=interaction.channel_id,
                key=str(interaction.message.id),
            )
        except DeckInvalid as exc:
            raise refused("dinocard.error.challenge.refused", exc.problems, battles.cards, locale) from exc
        content = Text("dinocard.prepare.launched", {"number": match.number})
        await interaction.response.edit_message(**to_discord(MessageSpec(content=content), locale), view=None)


PREPARATION_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    AddBonus,
    RemoveBonus,
    ElementFilter,
    TypeFilter,
    BonusPage,
    LaunchButton,
)
