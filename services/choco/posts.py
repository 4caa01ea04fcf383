"""What the referee says, queued in the outbox inside the unit that changed the game.

Thread posts carry only public information: the narration of public events, the board and the active
effects (services/choco/render/board.py), never a hand. Hands go to their owner by DM; when a player's DMs are
closed, the outbox posts a private "Voir ma main" button in the game's thread instead, and every referee
post carries a live "Voir ma main" button too.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from engine.choco import ChocoCatalog, ChocoState
from engine.protocol import Event, Outcome
from services.choco.economy import GAME_KEY
from services.choco.game_store import ENGINE, GameRow
from services.choco.render import board as render
from services.infra.messages import Button, CardStrip, Embed, MessageSpec, Select, StripCard, Target, Text
from services.infra.outbox import enqueue
from services.shared import card_view
from store.connection import Connection

COLOR = 0x6B3E26


AI_NAME = Text("choco.practice.ai_name")


def names(game: GameRow) -> tuple[str | Text, str | Text]:
    """Players are named by mention in posts (only the player called to act is pinged); the bot of a
    practice game by its name."""
    first, second = (AI_NAME if p is None else f"<@{p}>" for p in game.seats)
    return (first, second)


def hand_button(game_id: int) -> Button:
    return Button(Text("choco.play.show_hand"), f"choco:hand:{game_id}", "secondary")


def panel_button(game_id: int) -> Button:
    return Button(Text("choco.play.open_panel"), f"choco:panel:{game_id}", "primary")


def deadline_text(game: GameRow) -> Text:
    due = game.pass_at if game.stage == 1 else game.deadline_at  # after the D penalty, the pass is next
    if due is None:
        return Text.raw("")
    stamp = int(due.timestamp())
    return Text("choco.play.deadline", {"when": f"<t:{stamp}:F>", "relative": f"<t:{stamp}:R>"})


def call_text(game: GameRow) -> Text:
    """The call to the next player(s), with their mention and deadline."""
    who = names(game)
    if game.ai_seat is not None and game.ai_seat in game.to_act():
        return Text("choco.practice.call_ai", {"player": who[game.ai_seat]})
    if game.state.turn == 0:
        waiting = [f"<@{game.player(s)}>" for s in ENGINE.current_players(game.state)]
        return Text(
            "choco.play.call_prepare", {"players": ", ".join(waiting), "deadline": deadline_text(game)}
        )
    return Text(
        "choco.play.call_turn",
        {"player": who[game.state.active], "turn": game.state.turn, "deadline": deadline_text(game)},
    )


def board_embed(game: GameRow, catalog: ChocoCatalog, title: Text) -> Embed:
    who = names(game)
    return Embed(
        title=title,
        description=render.board(game.state, catalog, who),
        color=COLOR,
    )


# Events whose line the result already says: a finished game by forfeit gets one forfeit line.
SAID_BY_OUTCOME = frozenset({"forfeit", "disqualified"})


def resolution(
    conn: Connection,
    now: datetime,
    game: GameRow,
    catalog: ChocoCatalog,
    *,
    title: Text,
    before: ChocoState,
    events: Sequence[Event],
    notes: Sequence[Text] = (),
    refused: Sequence[Text] = (),
    outcome: Outcome | None = None,
    after: Sequence[Text] = (),
) -> int:
    """The referee's post in the rulebook's order (II): the board, the active effects, then the
    "Commentaires complémentaires": the turn's account, the refused actions, the result and what follows
    it (`after`: the reward), or the call. The call is also the message's text, since only a message's
    text can notify the player called to act."""
    who = names(game)
    finished = outcome is not None or game.status != "live"
    told = [e for e in events if not (finished and e.kind in SAID_BY_OUTCOME)]
    account = [*notes, *render.narrate(told, before, game.state, catalog, who)]
    lines: list[Text] = []
    if account:
        lines.append(Text("choco.play.account", {"text": Text.lines(account)}))
    lines += refused
    effects = render.active_effects(game.state, catalog, who)
    content: Text | None = None
    if finished:
        lines.append(render.outcome(outcome, who) if outcome is not None else Text("choco.play.ended"))
        lines += after
        pings: tuple[int, ...] = game.players
        buttons: tuple[Button, ...] = ()
    else:
        content = call_text(game)
        lines.append(content)
        pings = tuple(p for s in game.to_act() if (p := game.seats[s]) is not None)
        buttons = (hand_button(game.id), panel_button(game.id))
    comments = Embed(title=Text("choco.play.comments_title"), description=Text.lines(lines), color=COLOR)
    spec = MessageSpec(
        content=content if content is not None else Text.raw(" ".join(f"<@{p}>" for p in game.players)),
        embeds=(
            board_embed(game, catalog, title),
            Embed(description=effects, color=COLOR),
            comments,
        ),
        buttons=buttons,
        ping_users=pings,
        archive_thread=finished and game.thread_id is not None,
    )
    return enqueue(
        conn, now, Target("channel", game.where, players=game.players, guild_id=game.guild_id), spec
    )


def notice(
    conn: Connection,
    now: datetime,
    game: GameRow,
    text: Text,
    *,
    ping: Sequence[int] = (),
    archive: bool = False,
) -> int:
    """A short referee line in the thread (an absence, a referee's act, a fault)."""
    spec = MessageSpec(
        content=text, ping_users=tuple(ping), archive_thread=archive and game.thread_id is not None
    )
    return enqueue(
        conn, now, Target("channel", game.where, players=game.players, guild_id=game.guild_id), spec
    )


def hand_embed(game_id: int, body: Text) -> Embed:
    """A full hand with the longest catalog texts passes a message's 2,000 characters but fits an embed's
    4,096-character description (Discord's Message Resource page, "Embed Limits"); the DM and the private
    `/choco hand` reply both use it (tests/services/choco/render/test_hand_limits.py)."""
    return Embed(title=Text("choco.play.hand_title", {"id": game_id}), description=body, color=COLOR)


def figures_button(game_id: int) -> Button:
    """The hand's picture on demand, under the DM that deals the hand: the « Voir ma main » reply (the
    hand's text, its picture and « Voir une carte »), privately."""
    return Button(Text("choco.play.show_figures"), f"choco:hand:{game_id}", "secondary")


def send_hand(conn: Connection, now: datetime, game: GameRow, seat: int, catalog: ChocoCatalog) -> int | None:
    """The private hand of `seat`, by DM (fallback: a private "Voir ma main" button in the thread); the
    bot's seat has nobody to send it to. The DM is the rulebook's hand (its text: each card's name,
    figures and effect) with « Voir une carte »; the hand's picture is drawn when its owner asks for it
    (`figures_button`), not at every call (docs/choco/referee.md, "Hands by DM")."""
    player = game.seats[seat]
    if player is None:
        return None
    buttons = (figures_button(game.id),) if game.state.sides[seat].hand else ()
    spec = MessageSpec(
        content=Text("choco.play.hand_dm", {"id": game.id, "thread": f"<#{game.where}>"}),
        embeds=(hand_embed(game.id, render.hand(game.state, seat, catalog)),),
        buttons=(*buttons, panel_button(game.id)) if seat in game.to_act() else buttons,
        show_label=Text("choco.play.show_hand"),
        selects=hand_viewers(hand_strip(game, seat), catalog),
    )
    return enqueue(
        conn, now, Target("dm", player, fallback_channel_id=game.where, guild_id=game.guild_id), spec
    )


def hand_strip(game: GameRow, seat: int) -> tuple[CardStrip, ...]:
    """The hand's figures in rows of four, for the hand's owner only (the text above stays, for screen
    readers); an empty hand has no picture."""
    cards = tuple(StripCard(card.card_id) for card in game.state.sides[seat].hand)
    return (CardStrip(hand_file(game.id), GAME_KEY, cards, figures=True),) if cards else ()


def hand_viewers(strips: tuple[CardStrip, ...], catalog: ChocoCatalog) -> tuple[Select, ...]:
    """« Voir une carte » under the hand's picture: any card of it whole (services/shared/card_view.py)."""
    return tuple(card_view.viewer(strip, catalog) for strip in strips)


def hand_file(game_id: int) -> str:
    return f"choco-hand-{game_id}.png"


def remind(conn: Connection, now: datetime, game: GameRow, seat: int, hours: int) -> int:
    spec = MessageSpec(
        content=Text(
            "choco.play.reminder",
            {"id": game.id, "hours": hours, "thread": f"<#{game.where}>", "deadline": deadline_text(game)},
        ),
        buttons=(panel_button(game.id),),
        show_label=Text("choco.play.show_reminder"),
    )
    return enqueue(
        conn,
        now,
        Target("dm", game.player(seat), fallback_channel_id=game.where, guild_id=game.guild_id),
        spec,
    )
