"""What /hoss shows, as MessageSpecs of localizable Text: openings, odds, the collection, a copy's detail,
sale quotes, fusion previews and outcomes, decks. Pure functions of the services' results; no I/O.

Card names come from the catalog in the reader's language; numbers are formatted for that language.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache
from typing import Any

from core.i18n import format_int, format_percent
from engine.hoss import RARITIES, BuffCard, CreatureCard, OddsTable
from services.community.card_images.service import CardImage
from services.community.card_images.spec import CardCopy
from services.hoss import BUFF_KEYS, CLASS_KEYS, RACE_KEYS, RANK_KEYS, STATUS_KEYS
from services.hoss.card_image import HOLO_COLOR, RARITY_COLORS
from services.hoss.collection import CollectionFilter, CollectionPage, CopyDetail, CreatureStats, OwnedCopy
from services.hoss.fusion import FusionPreview, FusionResult
from services.hoss.keys import RARITY_KEYS as RARITY_KEYS
from services.hoss.sale import SaleQuote, SaleResult
from services.hoss.shop import FlipResult, Opening, OpeningCard, Purchase, SaleToConfirm, ShopOffer
from services.infra.messages import Embed, EmbedField, MessageSpec, Text, render_text

SALE_REFUSAL_KEYS = (
    "hoss.sale.refused.not_yours",
    "hoss.sale.refused.locked",
    "hoss.sale.refused.face_down",
    "hoss.sale.refused.floor",
)
OPENING_IMAGE = "booster.png"
QUOTE_LISTED = 15  # card lines a sale quote lists before "and N more"


# --- numbers -----------------------------------------------------------------------------------------


def number(value: float, locale: str, digits: int = 1) -> str:
    """12.5 → "12,5" in French, "12.5" in English; whole numbers grouped (25 000)."""
    rounded = round(value, digits)
    if rounded == int(rounded):
        return format_int(int(rounded), locale)
    text = f"{rounded:.{digits}f}".rstrip("0")
    return text.replace(".", ",") if locale == "fr" else text


def percent(value: float, locale: str) -> str:
    """A chance (a fraction) as a percentage with at most one decimal: 0.125 → « 12,5 % », "12.5%"."""
    return format_percent(value, locale)


def odds_percent(value: Fraction, locale: str) -> str:
    """An exact probability: exact when it is a short decimal (96.875 %), else 3 significant digits."""
    hundred = value * 100
    for digits in range(5):
        if (hundred * 10**digits).denominator == 1:
            return format_percent(float(value), locale, digits)
    significant = float(f"{float(hundred):.3g}")
    decimals = max(0, 2 - int(f"{significant:e}".split("e")[1]))
    return format_percent(significant / 100, locale, decimals)


def gold(amount: int, locale: str) -> Text:
    return Text("hoss.gold_amount", {"amount": format_int(amount, locale)})


# --- cards and copies --------------------------------------------------------------------------------


def card_name(card: CreatureCard | BuffCard, locale: str) -> str:
    return card.name.get(locale)


def copy_label(copy: OwnedCopy, locale: str) -> Text:
    """ "Or 2★ holo" — what distinguishes two copies of one card."""
    key = "hoss.copy.quality_holo" if copy.holo else "hoss.copy.quality"
    return Text(key, {"rarity": Text(RARITY_KEYS[copy.rarity]), "stars": copy.stars})


def copy_quality(copy: OwnedCopy, locale: str) -> str:
    """`copy_label` written out, once per language and quality (a page's select lists 24 of them)."""
    return _quality_text(copy.rarity, copy.stars, copy.holo, locale)


def kind_label(card: CreatureCard | BuffCard) -> Text:
    if isinstance(card, BuffCard):
        return Text("hoss.copy.buff_kind")
    return Text(
        "hoss.copy.creature_kind",
        {
            "rank": Text(RANK_KEYS[card.rank]),
            "race": Text(RACE_KEYS[card.race]),
            "cls": Text(CLASS_KEYS[card.cls]),
        },
    )


def copy_line(copy: OwnedCopy, locale: str, *, plain: bool = False) -> Text:
    """A copy on one line of a message, or `plain` (no markdown) for an autocomplete choice, written in
    the reader's language: its name, quality, kind and price are each written once per language, and the
    line itself once per copy as it stands (a page turned back, the same page asked again: 10 lines took
    41 µs of a page's rendering)."""
    key = "hoss.copy.line_locked" if copy.locked else "hoss.copy.line"
    if plain:
        key = "hoss.copy.choice"
    card = copy.card
    kind = ("", "", "") if isinstance(card, BuffCard) else (card.rank, card.race, card.cls)
    return Text.raw(
        _line(
            key,
            copy.copy_id,
            card_name(card, locale),
            _quality_text(copy.rarity, copy.stars, copy.holo, locale),
            _kind_text(*kind, locale),
            _gold_text(copy.price, locale),
            locale,
        )
    )


@lru_cache(maxsize=8192)
def _line(key: str, copy_id: int, name: str, quality: str, kind: str, price: str, locale: str) -> str:
    params = {"id": copy_id, "name": name, "quality": quality, "kind": kind, "price": price}
    return render_text(Text(key, params), locale)


@lru_cache(maxsize=4096)
def _gold_text(amount: int, locale: str) -> str:
    """`gold` written out: a page's prices are a few dozen amounts, the same from page to page."""
    return render_text(gold(amount, locale), locale)


@lru_cache(maxsize=512)
def _quality_text(rarity: str, stars: int, holo: bool, locale: str) -> str:
    key = "hoss.copy.quality_holo" if holo else "hoss.copy.quality"
    return render_text(Text(key, {"rarity": Text(RARITY_KEYS[rarity]), "stars": stars}), locale)


@lru_cache(maxsize=512)
def _kind_text(rank: Any, race: str, cls: str, locale: str) -> str:
    """A creature's rank, race and class (all empty: a buff), as `kind_label` writes them."""
    if not race:
        return render_text(Text("hoss.copy.buff_kind"), locale)
    params = {"rank": Text(RANK_KEYS[rank]), "race": Text(RACE_KEYS[race]), "cls": Text(CLASS_KEYS[cls])}
    return render_text(Text("hoss.copy.creature_kind", params), locale)


# --- boosters ----------------------------------------------------------------------------------------


def _slot_line(slot: OpeningCard, locale: str) -> Text:
    number_ = slot.position + 1
    if not slot.flipped or slot.card is None or slot.rarity is None:
        return Text("hoss.opening.face_down", {"position": number_})
    quality_key = "hoss.copy.quality_holo" if slot.holo else "hoss.copy.quality"
    params: dict[str, Any] = {
        "position": number_,
        "name": card_name(slot.card, locale),
        "quality": Text(quality_key, {"rarity": Text(RARITY_KEYS[slot.rarity]), "stars": 0}),
        "kind": kind_label(slot.card),
        "price": gold(slot.price or 0, locale),
    }
    return Text("hoss.opening.card" if slot.owned else "hoss.opening.sold", params)


def opening_spec(opening: Opening, locale: str, *, waiting: int = 0, note: Text | None = None) -> MessageSpec:
    """One booster: its six slots in the service's order, face down until flipped."""
    if opening.race is not None:
        title = Text("hoss.opening.title_race", {"race": Text(RACE_KEYS[opening.race]), "tier": opening.tier})
    else:
        title = Text("hoss.opening.title", {"tier": opening.tier})
    lines = [_slot_line(slot, locale) for slot in opening.cards]
    fields: list[EmbedField] = []
    if waiting:
        fields.append(
            EmbedField(
                Text("hoss.opening.waiting_label"), Text.raw(format_int(waiting, locale)), inline=False
            )
        )
    embed = Embed(
        title=title,
        description=Text.lines(lines),
        fields=tuple(fields),
        color=opening_color(opening),
        image=OPENING_IMAGE,
    )
    return MessageSpec(content=note, embeds=(embed,))


def opening_cells(opening: Opening) -> list[tuple[str, CardCopy] | None]:
    """The booster's cards as its image shows them: the flipped ones as drawn copies (a booster's cards
    have no star yet), None for those still face down."""
    return [
        (slot.card.id, CardCopy(slot.rarity, 0, bool(slot.holo)))
        if slot.flipped and slot.card is not None and slot.rarity is not None
        else None
        for slot in opening.cards
    ]


def opening_color(opening: Opening) -> int | None:
    """The embed's colour: the rarest card flipped so far (holo above all), none while all are face down."""
    flipped = [s for s in opening.cards if s.flipped and s.rarity is not None]
    if not flipped:
        return None
    if any(s.holo for s in flipped):
        return HOLO_COLOR
    rarest = max(RARITIES.index(s.rarity) for s in flipped if s.rarity is not None)
    return RARITY_COLORS[RARITIES[rarest]]


def purchase_note(purchase: Purchase, locale: str) -> Text:
    return Text(
        "hoss.booster.bought",
        {
            "tier": purchase.tier,
            "count": purchase.count,
            "total": gold(purchase.total, locale),
            "balance": gold(purchase.balance, locale),
        },
    )


def sold_note(card: str, result: SaleResult, locale: str) -> Text:
    return Text(
        "hoss.sale.sold_one",
        {"name": card, "total": gold(result.total, locale), "balance": gold(result.balance, locale)},
    )


# --- odds --------------------------------------------------------------------------------------------


def odds_spec(table: OddsTable, offer: ShopOffer, locale: str) -> MessageSpec:
    rarities = [
        Text(
            "hoss.odds.rarity_line" if r.at_least < 1 else "hoss.odds.rarity_line_base",
            {
                "rarity": Text(RARITY_KEYS[r.rarity]),
                "chance": odds_percent(r.chance, locale),
                "one_in": format_int(round(1 / r.at_least), locale),
            },
        )
        for r in table.rarities
    ]
    tiers = []
    for tier in table.tiers:
        key = "hoss.odds.tier_line" if tier.tier in offer.unlocked else "hoss.odds.tier_line_locked"
        params = {
            "tier": tier.tier,
            "r1": odds_percent(tier.ranks[0], locale),
            "r2": odds_percent(tier.ranks[1], locale),
            "r3": odds_percent(tier.ranks[2], locale),
            "price": gold(tier.price, locale),
            "race_price": gold(tier.race_price, locale),
        }
        tiers.append(Text(key, params))
    if offer.race_unlocked:
        race = Text("hoss.odds.race_unlocked", {"price": gold(offer.race_price, locale)})
    else:
        race = Text("hoss.odds.race_locked", {"wins": offer.rank1_wins, "needed": offer.race_unlock_wins})
    yours = Text(
        "hoss.odds.offer" if len(offer.unlocked) > 1 else "hoss.odds.offer_one",
        {"tier": offer.tier, "balance": gold(offer.balance, locale), "max": offer.max_count},
    )
    fields = (
        EmbedField(Text("hoss.odds.rarities"), Text.lines(rarities), inline=False),
        EmbedField(
            Text("hoss.odds.holo"),
            Text("hoss.odds.holo_line", {"one_in": format_int(round(1 / table.holo), locale)}),
            inline=False,
        ),
        EmbedField(Text("hoss.odds.tiers"), Text.lines(tiers), inline=False),
        EmbedField(Text("hoss.odds.yours"), Text.lines([yours, race]), inline=False),
    )
    return MessageSpec(embeds=(Embed(title=Text("hoss.odds.title"), fields=fields),))


# --- collection --------------------------------------------------------------------------------------


def filter_text(criteria: CollectionFilter, sort_key: str | None = None) -> Text | None:
    parts: list[Text] = []
    if criteria.race is not None:
        parts.append(Text(RACE_KEYS[criteria.race]))
    if criteria.cls is not None:
        parts.append(Text(CLASS_KEYS[criteria.cls]))
    if criteria.rank is not None:
        parts.append(Text(RANK_KEYS[criteria.rank]))
    if criteria.rarity is not None:
        parts.append(Text(RARITY_KEYS[criteria.rarity]))
    if criteria.stars is not None:
        parts.append(Text("hoss.filter.stars", {"stars": criteria.stars}))
    if criteria.holo is not None:
        parts.append(Text("hoss.filter.holo" if criteria.holo else "hoss.filter.not_holo"))
    if criteria.kind is not None:
        parts.append(Text("hoss.copy.buff_kind" if criteria.kind == "buff" else "hoss.filter.creatures"))
    if sort_key is not None:
        parts.append(Text("hoss.filter.sorted", {"sort": Text(sort_key)}))
    if not parts:
        return None
    return Text.lines(parts)


def collection_spec(
    page: CollectionPage, criteria: CollectionFilter, sort_key: str, locale: str
) -> MessageSpec:
    lines = [copy_line(c, locale) for c in page.items]
    body = Text.lines(lines) if lines else Text("hoss.collection.empty")
    fields = [
        EmbedField(
            Text("hoss.collection.filters"), filter_text(criteria, sort_key) or Text.raw("—"), inline=False
        )
    ]
    if page.face_down:
        fields.append(
            EmbedField(
                Text("hoss.collection.face_down_label"),
                Text("hoss.collection.face_down", {"count": format_int(page.face_down, locale)}),
            )
        )
    sizes = {"page": page.page, "pages": page.pages, "total": page.total}
    title = Text("hoss.collection.title", {name: format_int(n, locale) for name, n in sizes.items()})
    return MessageSpec(embeds=(Embed(title=title, description=body, fields=tuple(fields)),))


def _stats_fields(stats: CreatureStats, card: CreatureCard, locale: str) -> list[EmbedField]:
    fields = [EmbedField(Text("hoss.label.pv"), Text.raw(number(stats.pv, locale)))]
    if card.cls == "defenseur":
        fields += [
            EmbedField(Text("hoss.label.block"), Text.raw(percent(stats.block, locale))),
            EmbedField(Text("hoss.label.reduction"), Text.raw(percent(stats.damage_reduction, locale))),
        ]
    else:
        fields += [
            EmbedField(Text("hoss.label.atk"), Text.raw(number(stats.atk, locale))),
            EmbedField(
                Text("hoss.label.interval"),
                Text("hoss.seconds", {"value": number(stats.interval_s, locale, 2)}),
            ),
            EmbedField(
                Text("hoss.label.crit"),
                Text(
                    "hoss.detail.crit",
                    {
                        "chance": percent(stats.crit_chance, locale),
                        "mult": number(stats.crit_multiplier, locale, 2),
                    },
                ),
            ),
        ]
    dodge = [
        Text("hoss.detail.dodge_line", {"cls": Text(CLASS_KEYS[cls]), "chance": percent(chance, locale)})
        for cls, chance in stats.dodge.items()
    ]
    fields.append(EmbedField(Text("hoss.detail.dodge"), Text.lines(dodge), inline=False))
    extra = []
    if stats.heal_chance:
        extra.append(Text("hoss.detail.heal", {"chance": percent(stats.heal_chance, locale)}))
    if stats.deflect_chance:
        extra.append(Text("hoss.detail.deflect", {"chance": percent(stats.deflect_chance, locale)}))
    extra += [
        Text("hoss.status_chance", {"status": Text(STATUS_KEYS[s]), "chance": number(c * 100, locale)})
        for s, c in sorted(stats.statuses.items())
    ]
    if extra:
        fields.append(EmbedField(Text("hoss.label.statuses"), Text.lines(extra), inline=False))
    return fields


def copy_art(copy: OwnedCopy) -> CardCopy:
    """The copy as the card images draw it: its rarity, stars and finish."""
    return CardCopy(copy.rarity, copy.stars, copy.holo)


def detail_spec(detail: CopyDetail, locale: str, image: CardImage | None = None) -> MessageSpec:
    """A copy's detail; with its picture, the embed shows it and takes the rarity's colour."""
    copy = detail.copy
    fields = [
        EmbedField(Text("hoss.detail.quality"), copy_label(copy, locale)),
        EmbedField(Text("hoss.detail.bonus"), Text.raw("+" + percent(detail.bonus, locale))),
        EmbedField(Text("hoss.detail.price"), gold(copy.price, locale)),
    ]
    if copy.locked:
        fields.append(EmbedField(Text("hoss.detail.locked_label"), Text("hoss.detail.locked")))
    if isinstance(copy.card, BuffCard) and detail.buff_strength is not None:
        power = number(detail.buff_strength * 100, locale)
        fields.append(
            EmbedField(Text("hoss.label.buff"), Text(BUFF_KEYS[copy.card.effect], {"power": power}))
        )
    elif isinstance(copy.card, CreatureCard) and detail.creature is not None:
        fields.append(EmbedField(Text("hoss.label.rank"), kind_label(copy.card)))
        fields += _stats_fields(detail.creature, copy.card, locale)
        if detail.evolution_chance is not None:
            fields.append(
                EmbedField(Text("hoss.detail.evolution"), Text.raw(percent(detail.evolution_chance, locale)))
            )
    title = Text("hoss.detail.title", {"id": copy.copy_id, "name": card_name(copy.card, locale)})
    color = HOLO_COLOR if copy.holo else image.color if image is not None else None
    return MessageSpec(
        embeds=(
            Embed(
                title=title,
                description=Text("hoss.detail.outside_battle"),
                fields=tuple(fields[:25]),
                color=color,
                image=image.filename if image is not None else None,
            ),
        )
    )


# --- sales -------------------------------------------------------------------------------------------


def refusals_text(quote: SaleQuote, locale: str) -> Text | None:
    counts = Counter(r.reason for r in quote.refused)
    lines = [
        Text("hoss.sale.refused_line", {"count": format_int(counts[key], locale), "reason": Text(key)})
        for key in SALE_REFUSAL_KEYS
        if counts[key]
    ]
    return Text.lines(lines) if lines else None


def quote_spec(
    quote: SaleQuote, copies: Iterable[OwnedCopy], criteria: CollectionFilter, locale: str
) -> MessageSpec:
    """The bulk sale before its confirmation: what goes, for how much, and what stays and why."""
    quoted = set(quote.copy_ids)
    groups = Counter((card_name(c.card, locale), c.rarity) for c in copies if c.copy_id in quoted)
    lines = [
        Text(
            "hoss.sale.quote_line",
            {"count": format_int(n, locale), "name": name, "rarity": Text(RARITY_KEYS[rarity])},
        )
        for (name, rarity), n in sorted(groups.items(), key=lambda item: (-item[1], item[0]))
    ]
    if len(lines) > QUOTE_LISTED:
        lines = [
            *lines[:QUOTE_LISTED],
            Text("hoss.sale.quote_more", {"count": format_int(len(lines) - QUOTE_LISTED, locale)}),
        ]
    if quote.count:
        title = Text(
            "hoss.sale.quote_title",
            {"count": format_int(quote.count, locale), "total": gold(quote.total, locale)},
        )
    else:
        title = Text("hoss.sale.quote_nothing")
    fields = []
    criteria_text = filter_text(criteria)
    if criteria_text is not None:
        fields.append(EmbedField(Text("hoss.collection.filters"), criteria_text, inline=False))
    refused = refusals_text(quote, locale)
    if refused is not None:
        fields.append(EmbedField(Text("hoss.sale.kept"), refused, inline=False))
    description = Text.lines(lines) if lines else None
    return MessageSpec(embeds=(Embed(title=title, description=description, fields=tuple(fields)),))


def sale_done(result: SaleResult, locale: str) -> MessageSpec:
    return MessageSpec(
        content=Text(
            "hoss.sale.done",
            {
                "count": format_int(len(result.copy_ids), locale),
                "total": gold(result.total, locale),
                "balance": gold(result.balance, locale),
            },
        )
    )


# --- fusion ------------------------------------------------------------------------------------------


def _copy_brief(copy: OwnedCopy | None, copy_id: int, locale: str) -> Text:
    if copy is None:
        return Text("hoss.fuse.copy_unknown", {"id": copy_id})
    return Text("hoss.fuse.copy", {"id": copy_id, "quality": copy_label(copy, locale)})


def fusion_preview_spec(
    preview: FusionPreview, card: CreatureCard | BuffCard, copies: dict[int, OwnedCopy], locale: str
) -> MessageSpec:
    lines = [
        Text(
            "hoss.fuse.pair",
            {
                "survivor": _copy_brief(copies.get(p.survivor_id), p.survivor_id, locale),
                "sacrificed": _copy_brief(copies.get(p.sacrificed_id), p.sacrificed_id, locale),
                "stars": p.target_stars,
                "chance": p.chance_pct,
            },
        )
        for p in preview.fusions
    ]
    fields = []
    if preview.needs_confirmation:
        warnings = [Text(key, dict(params)) for key, params in preview.confirmations]
        fields.append(EmbedField(Text("hoss.fuse.warning"), Text.lines(warnings), inline=False))
    count = format_int(len(preview.fusions), locale)
    title = Text("hoss.fuse.preview_title", {"name": card_name(card, locale), "count": count})
    embed = Embed(title=title, description=Text.lines(lines), fields=tuple(fields))
    return MessageSpec(content=Text("hoss.fuse.lost_anyway"), embeds=(embed,))


def fusion_result_spec(result: FusionResult, card: CreatureCard | BuffCard, locale: str) -> MessageSpec:
    lines = []
    for o in result.outcomes:
        params = {
            "id": o.survivor_id,
            "before": o.stars_before,
            "after": o.stars_after,
            "chance": o.chance_pct,
            "sacrificed": o.sacrificed_id,
        }
        lines.append(Text("hoss.fuse.success" if o.success else "hoss.fuse.failure", params))
    title = Text(
        "hoss.fuse.result_title",
        {
            "name": card_name(card, locale),
            "successes": format_int(result.successes, locale),
            "count": format_int(len(result.outcomes), locale),
        },
    )
    return MessageSpec(embeds=(Embed(title=title, description=Text.lines(lines)),))


def starter_note(result: FlipResult) -> Text | None:
    """The first deck these cards made possible, built and made active for the player: what to do next."""
    if result.starter_slot is None:
        return None
    return Text("hoss.guide.starter_built", {"slot": result.starter_slot})


def confirm_note(sale: SaleToConfirm, locale: str) -> Text:
    params = {
        "name": card_name(sale.card, locale),
        "rarity": Text(RARITY_KEYS[sale.rarity]),
        "price": gold(sale.price, locale),
    }
    return Text("hoss.opening.confirm_sale", params)
