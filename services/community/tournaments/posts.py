"""A tournament's posts and DMs, queued in the outbox by the unit that makes the change they tell
(docs/tournaments.md, "Posts"): the announcement at the creation, the picture (bracket or standings)
posted at the start and edited after each match, a post when each round opens and when it closes, the
podium, a cancellation; and to each player, a DM for each of their matches.

Posts go to the server's announcements channel (`/configuration annonces`), else to the channel the
tournament was created in. Players are named by mention, which pings nobody (the outbox allows no
mention unless a message names `ping_users`) and shows their current name; the picture, which cannot
show a mention, writes the name they registered with.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from engine import bracket
from services.community.tournaments import rounds
from services.community.tournaments.store import Entry, TableRow, Tournament
from services.infra import guild_settings, outbox
from services.infra.erased import mention
from services.infra.games import GameRegistry, money
from services.infra.messages import Button, Day, Embed, MessageSpec, Picture, Target, Text
from store.connection import Connection

COLOR = 0xFFD65A
MEDALS = ("🥇", "🥈", "🥉")


def title(t: Tournament, registry: GameRegistry) -> Text:
    """« Tournoi Pillz du 12 janvier 2026 »: its name in posts, DMs and titles."""
    game = registry.name(t.game)
    return Text("tournaments.title", {"game": game, "day": Day(t.day)})


def _heading(t: Tournament, registry: GameRegistry) -> Text:
    return Text("tournaments.heading", {"title": title(t, registry), "number": t.id})


def _stamp(when: datetime) -> str:
    return f"<t:{int(when.timestamp())}:f>"


def _relative(when: datetime) -> str:
    return f"<t:{int(when.timestamp())}:R>"


def channel_of(conn: Connection, t: Tournament) -> int:
    return guild_settings.read(conn, t.guild_id).announce_channel_id or t.channel_id


def _post(
    conn: Connection, now: datetime, t: Tournament, spec: MessageSpec, players: Sequence[int] = ()
) -> int:
    target = Target(
        "channel", channel_of(conn, t), players=tuple(p for p in players if p > 0), guild_id=t.guild_id
    )
    return outbox.enqueue(conn, now, target, spec)


def money_of(t: Tournament, amount: int) -> Text:
    """An amount of the tournament's currency, as a sentence reads it (« 1 500 gallions »)."""
    return money(t.currency or "", amount)


def _fee(t: Tournament) -> Text:
    if not t.fee:
        return Text("tournaments.fee.free")
    return Text("tournaments.fee.paid", {"fee": money_of(t, t.fee)})


def _format(t: Tournament) -> Text:
    if t.format == "elimination":
        return Text("tournaments.format.elimination")
    if t.rounds:
        return Text("tournaments.format.swiss_rounds", {"rounds": t.rounds})
    return Text("tournaments.format.swiss")


def _seeding(t: Tournament) -> Text:
    if t.seeding == "rating":
        return Text("tournaments.seeding.rating")
    return Text("tournaments.seeding.random", {"commitment": t.commitment})


def summary(t: Tournament, registered: int) -> Text:
    """What a tournament is, line by line (the announcement, /tournoi voir)."""
    lines = [
        Text("tournaments.line.format", {"format": _format(t)}),
        Text("tournaments.line.players", {"count": registered, "max": t.max_players}),
        Text("tournaments.line.fee", {"fee": _fee(t)}),
        Text("tournaments.line.round_time", {"hours": t.round_hours}),
        Text("tournaments.line.seeding", {"seeding": _seeding(t)}),
    ]
    if t.status == "open":
        lines.append(
            Text("tournaments.line.registration", {"at": _stamp(t.starts_at), "in": _relative(t.starts_at)})
        )
    elif t.status == "running":
        lines.append(Text("tournaments.line.round", {"round": t.round, "rounds": t.rounds or 0}))
        if t.round_ends_at is not None:
            lines.append(Text("tournaments.line.deadline", {"at": _stamp(t.round_ends_at)}))
    if t.status in ("running", "finished"):
        lines.append(Text("tournaments.line.seed", {"seed": t.seed}))
    return Text.lines(lines)


def announced(conn: Connection, now: datetime, t: Tournament, registry: GameRegistry) -> None:
    embed = Embed(
        title=_heading(t, registry),
        description=Text.lines([summary(t, 0), Text("tournaments.announce.join", {"number": t.id})]),
        color=COLOR,
    )
    _post(conn, now, t, MessageSpec(embeds=(embed,)))


# --- the picture --------------------------------------------------------------------------------------------


def picture(
    t: Tournament, registry: GameRegistry, entries: Sequence[Entry], rows: Sequence[TableRow]
) -> Picture:
    """The bracket or the standings as they stand, as data for the drawing (card_images/tournament.py)."""
    names = {e.player_id: e.name for e in entries}
    heading = _heading(t, registry).to_json()
    if t.format == "swiss":
        subtitle = Text(
            "tournaments.picture.after_round", {"round": max(t.round, 0), "rounds": t.rounds or 0}
        )
        records = _records(rows)
        data_rows = [
            [place, names.get(s.player, ""), s.points, s.buchholz, *records.get(s.player, (0, 0, 0))]
            for place, s in enumerate(rounds.standings(entries, rows), start=1)
        ]
        data: dict[str, Any] = {"title": heading, "subtitle": subtitle.to_json(), "rows": data_rows}
        return Picture(f"tournoi-{t.id}.png", "standings", data)
    size = bracket.size_for(len(entries))
    tables = [[r.round, r.table, _name(names, r.first), _name(names, r.second), _seat_won(r)] for r in rows]
    subtitle = Text("tournaments.picture.bracket", {"count": len(entries)})
    data = {
        "title": heading,
        "subtitle": subtitle.to_json(),
        "size": size,
        "rounds": bracket.rounds_for(len(entries)),
        "tables": tables,
    }
    return Picture(f"tournoi-{t.id}.png", "bracket", data)


def _name(names: dict[int, str], player: int | None) -> str | None:
    return None if player is None else names.get(player, "")


def _seat_won(row: TableRow) -> int:
    if not row.decided or row.winner is None:
        return -1
    return 0 if row.winner == row.first else 1


def _records(rows: Sequence[TableRow]) -> dict[int, tuple[int, int, int]]:
    """Wins, draws and losses of each player (a bye is a win)."""
    counts: dict[int, list[int]] = {}
    for row in rows:
        if not row.decided:
            continue
        for player, mine in ((row.first, row.first_points), (row.second, row.second_points)):
            if player is None:
                continue
            record = counts.setdefault(player, [0, 0, 0])
            record[{2: 0, 1: 1}.get(mine or 0, 2)] += 1
    return {player: (w, d, lost) for player, (w, d, lost) in counts.items()}


def picture_spec(
    t: Tournament, registry: GameRegistry, entries: Sequence[Entry], rows: Sequence[TableRow]
) -> MessageSpec:
    shown = picture(t, registry, entries, rows)
    embed = Embed(title=_heading(t, registry), color=COLOR, image=shown.filename)
    return MessageSpec(embeds=(embed,), pictures=(shown,))


def show_picture(
    conn: Connection,
    now: datetime,
    t: Tournament,
    registry: GameRegistry,
    entries: Sequence[Entry],
    rows: Sequence[TableRow],
) -> int | None:
    """The picture post edited to the tournament as it stands; a new post when it cannot be edited (the
    first time, or a post deleted since). Returns a new post's item (to save on the tournament)."""
    spec = picture_spec(t, registry, entries, rows)
    channel = channel_of(conn, t)
    target = Target("channel", channel, guild_id=t.guild_id)
    if t.post_item is not None and outbox.editable(conn, t.post_item, channel):
        outbox.enqueue(conn, now, target, spec, edit_of=t.post_item)
        return None
    return outbox.enqueue(conn, now, target, spec)


# --- rounds -------------------------------------------------------------------------------------------------


def _table_line(row: TableRow) -> Text:
    first, second = row.first, row.second
    if first is None or second is None:
        return Text(
            "tournaments.table.bye", {"table": row.table + 1, "player": mention(first or second or 0)}
        )
    return Text(
        "tournaments.table.pair", {"table": row.table + 1, "first": mention(first), "second": mention(second)}
    )


def started(conn: Connection, now: datetime, t: Tournament, registry: GameRegistry, count: int) -> None:
    """The start, with the seed revealed: the seeding can be checked against the announced commitment."""
    text = Text(
        "tournaments.started",
        {"title": title(t, registry), "number": t.id, "count": count, "rounds": t.rounds or 0},
    )
    seed = Text("tournaments.podium.seed", {"seed": t.seed, "commitment": t.commitment})
    _post(conn, now, t, MessageSpec(content=Text.lines([text, seed])))


def round_opened(
    conn: Connection, now: datetime, t: Tournament, registry: GameRegistry, rows: Sequence[TableRow]
) -> None:
    assert t.round_ends_at is not None
    head = Text(
        "tournaments.round.opened", {"round": t.round, "rounds": t.rounds or 0, "at": _stamp(t.round_ends_at)}
    )
    lines = [_table_line(row) for row in rows if row.round == t.round]
    embed = Embed(title=_heading(t, registry), description=Text.lines([head, *lines]), color=COLOR)
    _post(conn, now, t, MessageSpec(embeds=(embed,)))


_REASONS = {
    "played": "tournaments.result.won",
    "absent": "tournaments.result.absent",
    "walkover": "tournaments.result.walkover",
    "coin": "tournaments.result.coin",
    "draw_coin": "tournaments.result.draw_coin",
}


def result_line(row: TableRow) -> Text:
    """A decided table in words, with why (docs/tournaments.md, "Deadlines")."""
    if row.first is None or row.second is None or row.reason == "bye":
        return Text("tournaments.result.bye", {"player": mention(row.first or row.second or 0)})
    if row.reason == "draw":
        return Text("tournaments.result.draw", {"first": mention(row.first), "second": mention(row.second)})
    if row.reason == "both_absent":
        return Text(
            "tournaments.result.both_absent", {"first": mention(row.first), "second": mention(row.second)}
        )
    winner = row.winner or 0
    loser = row.second if winner == row.first else row.first
    return Text(
        _REASONS.get(row.reason or "", "tournaments.result.won"),
        {"winner": mention(winner), "loser": mention(loser or 0)},
    )


def round_closed(
    conn: Connection, now: datetime, t: Tournament, registry: GameRegistry, rows: Sequence[TableRow]
) -> None:
    head = Text("tournaments.round.closed", {"round": t.round, "rounds": t.rounds or 0})
    lines = [result_line(row) for row in rows if row.round == t.round]
    embed = Embed(title=_heading(t, registry), description=Text.lines([head, *lines]), color=COLOR)
    _post(conn, now, t, MessageSpec(embeds=(embed,)))


def podium(
    conn: Connection,
    now: datetime,
    t: Tournament,
    registry: GameRegistry,
    places: Sequence[int],
    paid: Sequence[int],
) -> None:
    lines = [Text("tournaments.podium.head", {"title": title(t, registry)})]
    for index, player in enumerate(places[:3]):
        prize = (
            Text("tournaments.podium.prize", {"amount": money_of(t, paid[index])})
            if index < len(paid) and paid[index]
            else Text.raw("")
        )
        lines.append(
            Text(
                "tournaments.podium.line", {"medal": MEDALS[index], "player": mention(player), "prize": prize}
            )
        )
    lines.append(Text("tournaments.podium.seed", {"seed": t.seed, "commitment": t.commitment}))
    embed = Embed(title=_heading(t, registry), description=Text.lines(lines), color=COLOR)
    _post(conn, now, t, MessageSpec(embeds=(embed,)), players=places[:3])


def cancelled(
    conn: Connection, now: datetime, t: Tournament, registry: GameRegistry, *, too_few: bool
) -> None:
    key = "tournaments.cancelled.too_few" if too_few else "tournaments.cancelled.by_manager"
    refund = Text("tournaments.cancelled.refund") if t.fee else Text.raw("")
    _post(
        conn,
        now,
        t,
        MessageSpec(content=Text(key, {"title": title(t, registry), "number": t.id, "refund": refund})),
    )


# --- DMs ----------------------------------------------------------------------------------------------------


def match_dm(
    conn: Connection,
    now: datetime,
    t: Tournament,
    registry: GameRegistry,
    row: TableRow,
    player: int,
    buttons: tuple[Button, ...],
    *,
    at_once: bool,
) -> None:
    """A player's message about their match of the round: get ready before the deadline, or (a game
    whose matches are decided at once) watch it."""
    if player <= 0:
        return
    opponent = row.second if player == row.first else row.first
    assert t.round_ends_at is not None
    params = {
        "title": title(t, registry),
        "round": row.round,
        "opponent": mention(opponent or 0),
        "channel": f"<#{t.channel_id}>",
        "at": _stamp(t.round_ends_at),
        "in": _relative(t.round_ends_at),
    }
    key = "tournaments.dm.watch" if at_once else "tournaments.dm.ready"
    spec = MessageSpec(content=Text(key, params), buttons=buttons, show_label=Text("tournaments.dm.show"))
    target = Target("dm", player, fallback_channel_id=t.channel_id, guild_id=t.guild_id)
    outbox.enqueue(conn, now, target, spec)
