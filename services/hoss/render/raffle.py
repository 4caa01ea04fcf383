"""The HOSS raffle's window and a ticket, as MessageSpecs of localizable Text."""

from __future__ import annotations

from core.i18n import format_int
from services.hoss.raffle import RaffleWindow, Ticket, stamp, winners_text
from services.hoss.render.collection import gold
from services.infra.messages import Day, Embed, EmbedField, MessageSpec, Text


def window_spec(window: RaffleWindow, locale: str) -> MessageSpec:
    state = "hoss.raffle.window.open" if window.open else "hoss.raffle.window.frozen"
    description = Text(
        state,
        {
            "day": Day(window.day),
            "closes": Text.raw(stamp(window.closes_at)),
            "draw": Text.raw(stamp(window.draw_at)),
        },
    )
    fields = [
        EmbedField(Text("hoss.raffle.label.tickets"), Text.raw(format_int(window.tickets, locale))),
        EmbedField(Text("hoss.raffle.label.pot"), gold(window.pot, locale)),
        EmbedField(Text("hoss.raffle.label.expected"), Text.raw(format_int(window.winners_expected, locale))),
        EmbedField(
            Text("hoss.raffle.label.yours"),
            Text("hoss.raffle.yours.yes" if window.has_ticket else "hoss.raffle.yours.no"),
        ),
    ]
    if window.commitment is not None:
        fields.append(
            EmbedField(Text("hoss.raffle.label.commitment"), Text.raw(f"`{window.commitment}`"), inline=False)
        )
    if window.latest is not None:
        latest = window.latest
        fields.append(
            EmbedField(
                Text("hoss.raffle.label.latest", {"day": Day(latest.day)}),
                Text(
                    "hoss.raffle.latest",
                    {"winners": winners_text(latest), "share": gold(latest.share, locale)},
                ),
                inline=False,
            )
        )
    return MessageSpec(
        embeds=(Embed(title=Text("hoss.raffle.window.title"), description=description, fields=tuple(fields)),)
    )


def ticket_spec(ticket: Ticket, locale: str) -> MessageSpec:
    key = "hoss.raffle.ticket_again" if ticket.replayed else "hoss.raffle.bought"
    return MessageSpec(
        content=Text(
            key,
            {
                "number": format_int(ticket.number, locale),
                "day": Day(ticket.day),
                "balance": gold(ticket.balance, locale),
                "commitment": ticket.commitment,
            },
        )
    )
