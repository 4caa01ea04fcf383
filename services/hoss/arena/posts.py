"""The Arena's two posts in a server's announcements channel: the ranking, one message edited after each
hourly ranking (« Le classement est mis à jour toutes les heures et s'affiche dès que 2 joueurs sont
inscrits »), and the results of the Sunday-midnight close with the rewards paid; each post's « Vérifier »
shows the season's commitment, and its seed once closed (services/hoss/proofs.py).

Both are queued in the outbox by the unit that ranks or closes the season (services/hoss/arena/seasons.py), so a
post exists iff that unit committed: the results are posted exactly once, and a season closed twice
rolls back with its post. Players are named by mention, which pings nobody: the outbox's messages allow
no mention unless they name `ping_users`, and embeds never notify. Decisions: docs/hoss/arena.md, "Posts".
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from engine.hoss import SHOWN_FROM, TOP_PRIZES
from services.hoss.proofs import ARENA, verify_button
from services.infra import guild_settings, outbox
from services.infra.messages import Day, Embed, EmbedField, MessageSpec, Number, Target, Text
from store.connection import Connection

TOP_SHOWN = 20  # lines of the hourly post: ~90 characters each, far inside an embed's 4,096
PAID_SHOWN = len(TOP_PRIZES)  # lines of the results: the prize places; the others are counted


@dataclass(frozen=True)
class Line:
    place: int
    player_id: int
    points: int
    attack_wins: int
    reward: int | None  # set at the close


@dataclass(frozen=True)
class Standings:
    """A season's ranking as posted: its first lines and how many players it holds."""

    season: date
    lines: tuple[Line, ...]
    registered: int
    commitment: str


def standings(conn: Connection, guild_id: int, season: date, shown: int) -> Standings:
    key = (guild_id, season.isoformat())
    rows = conn.execute(
        "SELECT place, player_id, points, attack_wins, reward FROM hoss_arena_entries"
        " WHERE guild_id = ? AND season = ? AND place IS NOT NULL ORDER BY place LIMIT ?",
        (*key, shown),
    ).fetchall()
    (registered,) = conn.execute(
        "SELECT COUNT(*) FROM hoss_arena_entries WHERE guild_id = ? AND season = ?", key
    ).fetchone()
    (commitment,) = conn.execute(
        "SELECT commitment FROM hoss_arena_seasons WHERE guild_id = ? AND season = ?", key
    ).fetchone()
    lines = tuple(
        Line(int(r[0]), int(r[1]), int(r[2]), int(r[3]), None if r[4] is None else int(r[4])) for r in rows
    )
    return Standings(season, lines, int(registered), str(commitment))


@dataclass(frozen=True)
class Final:
    """The server's last closed season, as `/hoss arène classement` shows it until the new week's ranking
    does: its prize places with their rewards, and the asking player's own final line."""

    board: Standings
    me: Line | None  # None: the player did not take part in it


def last_final(conn: Connection, guild_id: int, player_id: int) -> Final | None:
    """The last closed season of this server, or None when none has closed yet."""
    row = conn.execute(
        "SELECT season FROM hoss_arena_seasons WHERE guild_id = ? AND status = 'closed'"
        " ORDER BY season DESC LIMIT 1",
        (guild_id,),
    ).fetchone()
    if row is None:
        return None
    season = date.fromisoformat(str(row[0]))
    mine = conn.execute(
        "SELECT place, player_id, points, attack_wins, reward FROM hoss_arena_entries"
        " WHERE guild_id = ? AND season = ? AND player_id = ? AND place IS NOT NULL",
        (guild_id, season.isoformat(), player_id),
    ).fetchone()
    me = None
    if mine is not None:
        me = Line(
            int(mine[0]), int(mine[1]), int(mine[2]), int(mine[3]), None if mine[4] is None else int(mine[4])
        )
    return Final(standings(conn, guild_id, season, PAID_SHOWN), me)


# -- the units' steps ----------------------------------------------------------------------------------


def post_ranking(
    conn: Connection, now: datetime, guild_id: int, season: date, closes_at: datetime
) -> int | None:
    """After an hourly ranking: the ranking post, new the first time (or when the last one cannot be
    edited any more), else an edit of it. Returns the outbox item queued, None when nothing is shown
    (fewer than 2 players, or no announcements channel, as for the raffle's posts)."""
    channel = guild_settings.read(conn, guild_id).announce_channel_id
    if channel is None:
        return None
    board = standings(conn, guild_id, season, TOP_SHOWN)
    if board.registered < SHOWN_FROM:
        return None
    spec = ranking_spec(board, now, closes_at)
    item = _board_item(conn, guild_id, season)
    if item is not None and outbox.editable(conn, item, channel):
        return outbox.enqueue(conn, now, Target("channel", channel, guild_id=guild_id), spec, edit_of=item)
    posted = outbox.enqueue(conn, now, Target("channel", channel, guild_id=guild_id), spec)
    guard = "board_item IS NULL" if item is None else "board_item = ?"
    updated = conn.execute(
        f"UPDATE hoss_arena_seasons SET board_item = ? WHERE guild_id = ? AND season = ? AND {guard}",
        (posted, guild_id, season.isoformat(), *(() if item is None else (item,))),
    ).rowcount
    if updated != 1:
        raise RuntimeError(f"arena season {guild_id}/{season} changed its ranking post concurrently")
    return posted


def post_results(conn: Connection, now: datetime, guild_id: int, season: date) -> int | None:
    """In the close's unit, after the payout: the ranking post edited one last time to say the season is
    over, and the results post with the rewards paid (its « Vérifier » reveals the seed). Returns the
    results' item."""
    item = _board_item(conn, guild_id, season)
    if item is not None:
        board_channel = int(conn.execute("SELECT target_id FROM outbox WHERE id = ?", (item,)).fetchone()[0])
        if outbox.editable(conn, item, board_channel):
            final = standings(conn, guild_id, season, TOP_SHOWN)
            outbox.enqueue(
                conn,
                now,
                Target("channel", board_channel, guild_id=guild_id),
                closed_spec(final, now),
                edit_of=item,
            )
    channel = guild_settings.read(conn, guild_id).announce_channel_id
    if channel is None:
        return None
    results = standings(conn, guild_id, season, PAID_SHOWN)
    others = conn.execute(
        "SELECT COUNT(*), MIN(reward) FROM hoss_arena_entries WHERE guild_id = ? AND season = ? AND place > ?",
        (guild_id, season.isoformat(), PAID_SHOWN),
    ).fetchone()
    winners = tuple(line.player_id for line in results.lines)
    spec = results_spec(results, int(others[0]), int(others[1] or 0))
    return outbox.enqueue(conn, now, Target("channel", channel, players=winners, guild_id=guild_id), spec)


def _board_item(conn: Connection, guild_id: int, season: date) -> int | None:
    row = conn.execute(
        "SELECT board_item FROM hoss_arena_seasons WHERE guild_id = ? AND season = ?",
        (guild_id, season.isoformat()),
    ).fetchone()
    return None if row is None or row[0] is None else int(row[0])


# -- messages ------------------------------------------------------------------------------------------


def _stamp(when: datetime, style: str) -> str:
    return f"<t:{int(when.timestamp())}:{style}>"


def _title(key: str, season: date) -> Text:
    return Text(key, {"start": Day(season), "end": Day(season + timedelta(days=6))})


def _line(line: Line, *, paid: bool = False) -> Text:
    params = {
        "place": Number(line.place),
        "player": Text.raw(f"<@{line.player_id}>"),
        "points": Number(line.points),
        "wins": Number(line.attack_wins),
    }
    if not paid or line.reward is None:
        return Text("hoss.arena.post.line", params)
    return Text("hoss.arena.post.paid_line", {**params, "gold": Number(line.reward)})


def _ranking_lines(board: Standings) -> list[Text]:
    lines = [_line(line) for line in board.lines]
    if board.registered > len(board.lines):
        lines.append(Text("hoss.arena.post.more", {"count": Number(board.registered - len(board.lines))}))
    return lines


def _registered(board: Standings) -> EmbedField:
    return EmbedField(
        Text("hoss.arena.post.label.registered"),
        Text("hoss.arena.post.registered", {"count": Number(board.registered)}),
    )


def ranking_spec(board: Standings, now: datetime, closes_at: datetime) -> MessageSpec:
    """The hourly post: the first `TOP_SHOWN` places, the others counted, when it was updated, when the
    season closes; « Vérifier » shows the commitment to the seed every opponent draw of the season uses."""
    fields = (
        _registered(board),
        EmbedField(Text("hoss.arena.post.label.updated"), Text.raw(_stamp(now, "f"))),
        EmbedField(
            Text("hoss.arena.post.label.closes"),
            Text(
                "hoss.arena.post.closes", {"when": _stamp(closes_at, "f"), "relative": _stamp(closes_at, "R")}
            ),
        ),
    )
    description = Text.lines(_ranking_lines(board))
    return MessageSpec(
        embeds=(
            Embed(
                title=_title("hoss.arena.post.title", board.season), description=description, fields=fields
            ),
        ),
        buttons=(verify_button(ARENA, board.season),),
    )


def closed_spec(board: Standings, closed_at: datetime) -> MessageSpec:
    """The hourly post's last version: the final ranking, marked closed, pointing at the results."""
    fields = (
        _registered(board),
        EmbedField(
            Text("hoss.arena.post.label.closed"),
            Text("hoss.arena.post.closed", {"when": _stamp(closed_at, "f")}),
        ),
    )
    description = Text.lines(_ranking_lines(board))
    return MessageSpec(
        embeds=(
            Embed(
                title=_title("hoss.arena.post.title", board.season), description=description, fields=fields
            ),
        ),
        buttons=(verify_button(ARENA, board.season),),
    )


def results_spec(board: Standings, others: int, others_gold: int) -> MessageSpec:
    """The close's post: the prize places with the gold each was paid, the other participants counted
    with their participation gold, the tie-break rule; « Vérifier » reveals the season's seed beside its
    commitment (with each attack's recorded candidates, anyone recomputes whom it drew:
    engine/fair_draw.py)."""
    lines = [_line(line, paid=True) for line in board.lines]
    if others:
        lines.append(Text("hoss.arena.post.others", {"count": Number(others), "gold": Number(others_gold)}))
    lines += [Text.raw(""), Text("hoss.arena.post.tie_break")]
    embed = Embed(
        title=_title("hoss.arena.post.results_title", board.season),
        description=Text.lines(lines),
        fields=(_registered(board),),
    )
    return MessageSpec(embeds=(embed,), buttons=(verify_button(ARENA, board.season),))
