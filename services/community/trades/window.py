"""How a trade is shown: the window each party sees (privately, as a reply or a DM), the notices sent when
it ends, and a server's trade log. One renderer for the replies and the DMs the outbox delivers later, so
both parties always read the same offers.

A window names the two parties by mention (embeds never ping) and each copy by its name in both languages
(`Text.per_locale`): a DM is rendered in the reader's language when it is delivered. When the other party
reads another language, each card's name in theirs stands beside it where it differs
(services/community/card_names.py): the window, its DMs and the notices of its end; the log, read by one
player or a server's admins about many trades, names cards in its reader's language only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from services.community.card_names import named
from services.community.trades.store import ERASED, Trade, TradeItem
from services.infra.catalogs import CardIndex
from services.infra.erased import mention
from services.infra.games import GameRegistry, money
from services.infra.messages import Button, Embed, EmbedField, MessageSpec, Number, Text

MAX_LOG_LINES = 15
STATUS_KEYS = {
    "open": "trades.status.open",
    "done": "trades.status.done",
    "cancelled": "trades.status.cancelled",
    "expired": "trades.status.expired",
}
ERASED_KEYS = {  # the status and the other party's notice of a trade a party's erasure cancelled
    "status": "trades.status.erased",
    "trade": "trades.notice.trade.erased",
    "gift": "trades.notice.gift.erased",
}
ENDED_KEYS = {
    ("trade", "done"): "trades.notice.trade.done",
    ("trade", "cancelled"): "trades.notice.trade.cancelled",
    ("trade", "expired"): "trades.notice.trade.expired",
    ("gift", "done"): "trades.notice.gift.done",
    ("gift", "cancelled"): "trades.notice.gift.cancelled",
    ("gift", "expired"): "trades.notice.gift.expired",
}
LOG_KEYS = {"trade": "trades.log.trade", "gift": "trades.log.gift"}


def confirm_id(trade: Trade) -> str:
    """The confirm button names the version it confirms: a click on a window drawn before an offer changed
    is refused (the other party must see what they agree to)."""
    return f"trade:confirm:{trade.id}:{trade.version}"


def cancel_id(trade: Trade) -> str:
    return f"trade:cancel:{trade.id}"


def item_text(item: TradeItem, game: str, cards: CardIndex, others: Iterable[str] = ()) -> Text:
    """One item of an offer; a card's name with its name in `others` (the other party's language)."""
    if item.card_id is None:
        return Text("trades.item.amount", {"amount": money(item.currency or "", item.amount)})
    card = cards.get(game, item.card_key or "")
    name = named(card.name, others) if card is not None else Text.raw(item.card_key or "?")
    return Text("trades.item.card", {"name": name, "copy": item.card_id, "value": Number(item.value)})


def _side(trade: Trade, player_id: int, cards: CardIndex, title: str, others: Iterable[str]) -> EmbedField:
    lines = [item_text(i, trade.game, cards, others) for i in trade.offered_by(player_id)]
    if trade.kind == "trade" and trade.status == "open":
        mark = "trades.window.confirmed" if trade.has_confirmed(player_id) else "trades.window.waiting"
        lines.append(Text(mark))
    body = Text.lines(lines) if lines else Text("trades.window.nothing")
    return EmbedField(Text(title, {"name": mention(player_id)}), body, inline=False)


def status_text(trade: Trade) -> Text:
    if trade.status == "open":
        key = "trades.window.open" if trade.kind == "trade" else "trades.window.gift_open"
        return Text(key, {"expires": f"<t:{int(trade.expires_at.timestamp())}:R>"})
    if trade.end_reason == ERASED:
        return Text(ERASED_KEYS["status"])
    return Text(STATUS_KEYS[trade.status])


def window(
    trade: Trade,
    viewer: int,
    cards: CardIndex,
    registry: GameRegistry,
    warnings: Sequence[Text] = (),
    other_language: str | None = None,
) -> MessageSpec:
    """The trade as `viewer` sees it: their offer first, then the other party's; Confirm and Cancel while
    it is open. A gift shows the giver's offer and its recipient (who has nothing to confirm).
    `warnings` are about the viewer's own decks (services/community/trades/decks.py), theirs only.
    `other_language`: the other party's, whose card names stand beside the viewer's where they differ."""
    title = "trades.window.title" if trade.kind == "trade" else "trades.window.gift_title"
    others = () if other_language is None else (other_language,)
    if trade.kind == "trade":
        fields = [
            _side(trade, viewer, cards, "trades.window.you", others),
            _side(trade, trade.other(viewer), cards, "trades.window.them", others),
        ]
    else:
        giver = "trades.window.you" if viewer == trade.proposer_id else "trades.window.them"
        fields = [
            _side(trade, trade.proposer_id, cards, giver, others),
            EmbedField(Text("trades.window.recipient"), mention(trade.partner_id), inline=False),
        ]
    embed = Embed(
        title=Text(title, {"id": trade.id, "game": registry.name(trade.game)}),
        description=status_text(trade),
        fields=tuple(fields),
    )
    embeds: tuple[Embed, ...] = (embed,)
    if warnings:
        embeds += (Embed(title=Text("trades.decks.title"), description=Text.lines(list(warnings))),)
    buttons: tuple[Button, ...] = ()
    if trade.status == "open" and (trade.kind == "trade" or viewer == trade.proposer_id):
        buttons = (
            Button(Text("trades.button.confirm"), confirm_id(trade), "success"),
            Button(Text("trades.button.cancel"), cancel_id(trade), "danger"),
        )
    return MessageSpec(embeds=embeds, buttons=buttons, show_label=Text("trades.button.show"))


def changed_notice(
    trade: Trade,
    viewer: int,
    actor: int,
    cards: CardIndex,
    registry: GameRegistry,
    warnings: Sequence[Text] = (),
    other_language: str | None = None,
) -> MessageSpec:
    """The DM a party gets when the other one changed an offer or confirmed: the whole window again."""
    spec = window(trade, viewer, cards, registry, warnings, other_language)
    return MessageSpec(
        content=Text("trades.notice.changed", {"name": mention(actor), "id": trade.id}),
        embeds=spec.embeds,
        buttons=spec.buttons,
        show_label=spec.show_label,
    )


def ended_notice(
    trade: Trade, viewer: int, cards: CardIndex, registry: GameRegistry, other_language: str | None = None
) -> MessageSpec:
    """The DM each party gets when the trade ends: what moved (done) or that nothing did."""
    received = trade.kind == "gift" and viewer == trade.partner_id
    if received:
        key = "trades.notice.gift.received"
    elif trade.end_reason == ERASED:
        key = ERASED_KEYS[trade.kind]
    else:
        key = ENDED_KEYS[trade.kind, trade.status]
    spec = window(trade, viewer, cards, registry, other_language=other_language)
    return MessageSpec(
        content=Text(key, {"id": trade.id, "name": mention(trade.other(viewer))}),
        embeds=spec.embeds,
        show_label=spec.show_label,
    )


def log(trades: list[Trade], cards: CardIndex, registry: GameRegistry, title: Text) -> MessageSpec:
    """A server's or a player's trade log, newest first: who gave what to whom, and how it ended."""
    lines = []
    for trade in trades[:MAX_LOG_LINES]:
        given = [
            Text(
                "trades.log.gave",
                {
                    "name": mention(giver),
                    "items": Text.lines([item_text(i, trade.game, cards) for i in trade.offered_by(giver)]),
                },
            )
            for giver in (trade.proposer_id, trade.partner_id)
            if trade.offered_by(giver)
        ]
        head = Text(
            LOG_KEYS[trade.kind],
            {
                "id": trade.id,
                "game": registry.name(trade.game),
                "from": mention(trade.proposer_id),
                "to": mention(trade.partner_id),
                "status": status_text(trade) if trade.status != "open" else Text(STATUS_KEYS["open"]),
                "date": f"<t:{int(trade.created_at.timestamp())}:f>",
            },
        )
        lines.append(Text.lines([head, *given]))
    body = Text.lines(lines) if lines else Text("trades.log.empty")
    return MessageSpec(embeds=(Embed(title=title, description=body),))
