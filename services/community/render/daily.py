"""What /daily and /cooldowns answer: each game's claim, and every timer as a Discord relative time."""

from __future__ import annotations

from services.community.daily import DailyClaim
from services.community.reminders import Cooldown
from services.infra import games
from services.infra.games import GameRegistry
from services.infra.messages import Embed, EmbedField, MessageSpec, Text
from services.infra.timers import relative


def claim_line(claim: DailyClaim, registry: GameRegistry) -> Text:
    """One game's claim: what it paid and the streak, or when the next one opens."""
    params: dict[str, object] = {
        "game": registry.name(claim.game),
        "amount": games.money(claim.currency, claim.amount),
        "balance": games.money(claim.currency, claim.balance),
        "streak": claim.streak,
    }
    if claim.credited:
        return Text("daily.credited", params)
    return Text("daily.already", {**params, "next": relative(claim.next_at)})


def daily_spec(claims: list[DailyClaim], registry: GameRegistry) -> MessageSpec:
    if not claims:
        return MessageSpec(content=Text("daily.none"))
    return MessageSpec(content=Text.lines([claim_line(c, registry) for c in claims]))


def cooldowns_spec(found: list[Cooldown], reminders_on: bool, registry: GameRegistry) -> MessageSpec:
    """A field per game, a line per timer; the footer says whether reminders are on."""
    fields: list[EmbedField] = []
    for spec in registry.all_games():
        lines = [
            Text("cooldowns.line", {"label": c.timer.label, "status": c.timer.status})
            for c in found
            if c.game.key == spec.key
        ]
        if lines:
            fields.append(EmbedField(Text(spec.name_key), Text.lines(lines), inline=False))
    footer = Text("cooldowns.reminders_on" if reminders_on else "cooldowns.reminders_off")
    if not fields:
        return MessageSpec(content=Text.lines([Text("cooldowns.none"), footer]))
    return MessageSpec(content=footer, embeds=(Embed(title=Text("cooldowns.title"), fields=tuple(fields)),))
