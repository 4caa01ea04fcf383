"""What every duel of choices in private controls shows the same way (services/shared/duels.py): a seat as the
channel reads it, the timeout notes of a round, and the public message's frame (title, the seats'
fields, the deadline, the button that opens a player's private controls, the ping of the players to
act). The game writes its own lines: what a round, a fight or the result shows, and each seat's numbers
and line-up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from services.infra.messages import Button, Embed, EmbedField, MessageSpec, Text
from services.shared.duels import PUBLIC_KEYS, Duel, keyed


@dataclass(frozen=True)
class DuelTexts:
    """The game's message keys for what the frame shows."""

    ai: str  # the AI's name where a player's mention would be
    timeout_note: str  # {round}, {player}: the AI chose for a late player
    deadline: str  # {relative}: when the seats to act time out
    play_button: str  # the button that opens a player's controls
    title: str  # {id}
    title_practice: str  # {id}
    seat_player: str  # {player}: the player above their line-up, in their seat's field

    @staticmethod
    def of(game: str, **overrides: str) -> DuelTexts:
        """The game's keys, `<game>.duel.ai`... (services/shared/duels.py, `PUBLIC_KEYS`)."""
        return keyed(DuelTexts, game, PUBLIC_KEYS, **overrides)


def who(duel: Duel[Any], seat: int, texts: DuelTexts) -> Text:
    """A seat as everyone in the channel reads it: the player's mention (shown as their name), or the AI;
    never « vous »."""
    player = duel.seats[seat]
    return Text(texts.ai) if player is None else Text.raw(f"<@{player}>")


def timeout_notes(duel: Duel[Any], round_number: int, texts: DuelTexts) -> list[Text]:
    return [
        Text(texts.timeout_note, {"round": note["round"], "player": who(duel, int(note["seat"]), texts)})
        for note in duel.notes
        if note["round"] == round_number
    ]


def public_message(
    duel: Duel[Any],
    texts: DuelTexts,
    *,
    color: int,
    seats: Sequence[tuple[Text, Text]],
    lines: Sequence[Text],
    playing: bool,
) -> MessageSpec:
    """The public message around the game's `lines` and each seat's field (`seats`: its numbers, its
    line-up); while `playing`, the deadline and the button that opens the controls (custom_id
    `<game>:open:<duel>`) follow them."""
    shown = list(lines)
    buttons: tuple[Button, ...] = ()
    if playing:
        if duel.deadline_at is not None:
            shown.append(Text(texts.deadline, {"relative": f"<t:{int(duel.deadline_at.timestamp())}:R>"}))
        buttons = (Button(Text(texts.play_button), f"{duel.game}:open:{duel.id}", "primary"),)
    title = texts.title_practice if duel.kind == "practice" else texts.title
    pings = tuple(p for s in duel.to_act() if (p := duel.seats[s]) is not None)
    return MessageSpec(
        embeds=(
            Embed(
                title=Text(title, {"id": duel.id}),
                description=Text.lines(shown),
                fields=tuple(
                    # A field's name shows a mention as `<@id>`, not as a name: the value names the player.
                    EmbedField(
                        name, Text.lines([Text(texts.seat_player, {"player": who(duel, s, texts)}), line_up])
                    )
                    for s, (name, line_up) in enumerate(seats)
                ),
                color=color,
            ),
        ),
        buttons=buttons,
        content=Text.lines([Text.raw(f"<@{p}>") for p in pings]) if pings else None,
        ping_users=pings,
    )


__all__ = ["DuelTexts", "public_message", "timeout_notes", "who"]
