"""The daily raffle of each server (« La tombola »): one 100-gold ticket a day, the draw at 20:00 Paris
time, the pot shared by one winner per full 5,000 gold, and a draw anyone can recompute.

A raffle is named by its server and its *draw day*, the Paris date of its 20:00 draw. A ticket bought
before 19:59 is in that day's draw; from 19:59 to 20:00 the list is frozen and sales are refused; from
20:00 on, tickets go to the next day's draw. The raffle's secret seed and its published commitment are
created with the raffle, before its first ticket, and so is its draw job (a day without a raffle has
none; a draw missed while the bot was down runs at start-up, once); the draw reveals the seed and
credits the winners through the ledger in the same unit. Decisions are in docs/hoss/raffle.md.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from core.clock import Clock, to_db
from core.errors import NotAllowed, NotFound
from engine import fair_draw
from engine.hoss import TICKET_PRICE, split
from services.hoss.gold import CURRENCY, GOLD
from services.hoss.proofs import RAFFLE, Proof, raffle_proof, verify_button
from services.infra import guild_settings, ledger, outbox
from services.infra.erased import ERASED, is_erased, mention
from services.infra.games import GameRegistry
from services.infra.messages import Button, Day, Embed, EmbedField, MessageSpec, Number, Target, Text
from services.infra.players import ensure_player
from services.infra.recurrence import resolve_wall_time
from services.infra.scheduler import Job, Scheduler, schedule
from store.connection import Connection
from store.db import Database
from store.idempotency import once

DRAW_JOB = "hoss.raffle.draw"
CLOSES_AT = time(19, 59)  # « Les inscriptions ferment à 19 h 59 »
DRAWN_AT = time(20, 0)  # « et le tirage a lieu à 20 h »
REASON_TICKET = "hoss.raffle.ticket"
REASON_PRIZE = "hoss.raffle.prize"
SHOWN_WINNERS = 10  # how many of the latest winners the raffle window names; the rest are counted


class RaffleClosed(NotAllowed):
    key = "hoss.raffle.error.closed"


class AlreadyHasTicket(NotAllowed):
    key = "hoss.raffle.error.already"


@dataclass(frozen=True)
class DrawRecord:
    """A drawn raffle as it is published: enough to recompute the draw (`entries` in ticket order)."""

    guild_id: int
    day: date
    tickets: int
    carried_in: int
    pot: int
    share: int
    carried_out: int
    winners: tuple[int, ...]  # player ids, in the order drawn
    seed: str
    commitment: str
    digest: str
    entries: tuple[str, ...]  # "<ticket number>:<player id>", in ticket order


@dataclass(frozen=True)
class RaffleWindow:
    day: date  # the draw day tickets bought now go to
    open: bool  # False during the frozen minute before the draw
    closes_at: datetime
    draw_at: datetime
    commitment: str | None  # None until the day's raffle exists (its first ticket or view creates it)
    tickets: int
    pot: int  # the tickets' gold plus what the server's last draw carried
    winners_expected: int
    has_ticket: bool  # this player already has a ticket for `day`, in this server or another
    latest: DrawRecord | None  # the server's last draw


@dataclass(frozen=True)
class Ticket:
    day: date
    number: int
    balance: int
    commitment: str
    replayed: bool


@dataclass(frozen=True)
class Verification:
    record: DrawRecord
    verdict: fair_draw.Verdict


def schedule_of(day: date, zone: ZoneInfo) -> tuple[datetime, datetime]:
    """When `day`'s sales close and its draw happens (UTC), on Paris wall-clock time."""
    return resolve_wall_time(day, CLOSES_AT, zone), resolve_wall_time(day, DRAWN_AT, zone)


def sales_day(now: datetime, zone: ZoneInfo) -> tuple[date, bool]:
    """The draw day a ticket bought at `now` belongs to, and whether sales are open."""
    today = now.astimezone(zone).date()
    closes, draws = schedule_of(today, zone)
    if now < closes:
        return today, True
    if now < draws:
        return today, False
    return today + timedelta(days=1), True


class RaffleService:
    def __init__(
        self, db: Database, clock: Clock, rng: random.Random, scheduler: Scheduler, *, registry: GameRegistry
    ) -> None:
        self.registry = registry
        self.db = db
        self.clock = clock
        self.rng = rng  # SystemRandom in production: the seed must be unpredictable
        self.zone: ZoneInfo = scheduler.zone
        scheduler.on(DRAW_JOB, self.on_draw)

    # -- time ------------------------------------------------------------------------------------------

    def schedule_of(self, day: date) -> tuple[datetime, datetime]:
        return schedule_of(day, self.zone)

    def sales_day(self, now: datetime) -> tuple[date, bool]:
        return sales_day(now, self.zone)

    # -- units -----------------------------------------------------------------------------------------

    def _ensure_raffle(self, conn: Connection, now: datetime, guild_id: int, day: date) -> str:
        """The day's raffle of the server, created with its seed and published commitment if new."""
        row = conn.execute(
            "SELECT commitment, status FROM hoss_raffles WHERE guild_id = ? AND day = ?",
            (guild_id, day.isoformat()),
        ).fetchone()
        if row is not None:
            if row[1] != "open":
                raise RaffleClosed()
            return str(row[0])
        seed = f"{self.rng.getrandbits(8 * fair_draw.SEED_BYTES):0{2 * fair_draw.SEED_BYTES}x}"
        commitment = fair_draw.commitment(seed)
        conn.execute(
            "INSERT INTO hoss_raffles (guild_id, day, seed, commitment, opened_at) VALUES (?, ?, ?, ?, ?)",
            (guild_id, day.isoformat(), seed, commitment, to_db(now)),
        )
        _, draws = self.schedule_of(day)
        payload = {"guild": guild_id, "day": day.isoformat()}
        schedule(conn, now, DRAW_JOB, draws, payload, period_key=f"{guild_id}:{day.isoformat()}")
        channel = guild_settings.read(conn, guild_id).announce_channel_id
        if channel is not None:
            outbox.enqueue(
                conn,
                now,
                Target("channel", channel, guild_id=guild_id),
                commitment_post(day, draws, commitment),
            )
        return commitment

    async def window(self, guild_id: int, player_id: int) -> RaffleWindow:
        now = self.clock.now()
        day, is_open = self.sales_day(now)

        def unit(conn: Connection) -> RaffleWindow:
            commitment = self._ensure_raffle(conn, now, guild_id, day) if is_open else None
            tickets = _ticket_count(conn, guild_id, day)
            carried = _pending_carry(conn, guild_id, day)
            closes, draws = self.schedule_of(day)
            return RaffleWindow(
                day=day,
                open=is_open,
                closes_at=closes,
                draw_at=draws,
                commitment=commitment or _commitment(conn, guild_id, day),
                tickets=tickets,
                pot=tickets * TICKET_PRICE + carried,
                winners_expected=split(tickets, carried).winners,
                has_ticket=has_ticket(conn, player_id, day),
                latest=_latest_draw(conn, guild_id),
            )

        return await self.db.write(unit)

    async def buy(self, guild_id: int, player_id: int, *, key: str | int) -> Ticket:
        """One ticket for 100 gold in this server's raffle; one per player and draw day in all servers."""
        now = self.clock.now()
        day, is_open = self.sales_day(now)
        purchase_key = f"hoss:raffle:{day.isoformat()}:{key}"  # a post's button is clicked on many days

        def purchase(conn: Connection) -> dict[str, object]:
            if not is_open:
                raise RaffleClosed()
            commitment = self._ensure_raffle(conn, now, guild_id, day)
            if has_ticket(conn, player_id, day):
                raise AlreadyHasTicket()
            balance = ledger.debit(
                conn, now, player_id, CURRENCY, TICKET_PRICE, ledger.Movement(REASON_TICKET, ref=purchase_key)
            )
            number = int(
                conn.execute(
                    "INSERT INTO hoss_raffle_tickets (guild_id, day, number, player_id, bought_at)"
                    " SELECT ?, ?, COALESCE(MAX(number), 0) + 1, ?, ? FROM hoss_raffle_tickets"
                    " WHERE guild_id = ? AND day = ? RETURNING number",
                    (guild_id, day.isoformat(), player_id, to_db(now), guild_id, day.isoformat()),
                ).fetchone()[0]
            )
            return {
                "player": player_id,
                "day": day.isoformat(),
                "number": number,
                "balance": balance,
                "commitment": commitment,
            }

        def unit(conn: Connection) -> Ticket:
            ensure_player(conn, player_id, now, self.registry)
            stored, fresh = once(conn, purchase_key, now, lambda: purchase(conn))
            if stored["player"] != player_id:
                raise NotAllowed()
            return Ticket(
                day=date.fromisoformat(stored["day"]),
                number=int(stored["number"]),
                balance=int(stored["balance"]),
                commitment=str(stored["commitment"]),
                replayed=not fresh,
            )

        return await self.db.write(unit)

    def on_draw(self, conn: Connection, job: Job, now: datetime) -> None:
        """A raffle's 20:00 job (scheduled with the raffle, so a draw missed while the bot was down runs
        at start-up, once: its tickets were frozen at its 19:59)."""
        guild_id, day = int(job.payload["guild"]), date.fromisoformat(str(job.payload["day"]))
        row = conn.execute(
            "SELECT status FROM hoss_raffles WHERE guild_id = ? AND day = ?", (guild_id, day.isoformat())
        ).fetchone()
        if row is not None and row[0] == "open":
            self._draw(conn, now, guild_id, day)

    def _draw(self, conn: Connection, now: datetime, guild_id: int, day: date) -> None:
        seed, commitment = conn.execute(
            "SELECT seed, commitment FROM hoss_raffles WHERE guild_id = ? AND day = ?",
            (guild_id, day.isoformat()),
        ).fetchone()
        entries = _entries(conn, guild_id, day)
        carried = _take_carry(conn, guild_id, day)
        division = split(len(entries), carried)
        picked = fair_draw.draw(str(seed), entries, division.winners)
        drawn = [_ticket_of(entries[position]) for position in picked]  # (number, player), in draw order
        conn.executemany(
            "UPDATE hoss_raffle_tickets SET winner = ? WHERE guild_id = ? AND day = ? AND number = ?",
            [(place, guild_id, day.isoformat(), number) for place, (number, _) in enumerate(drawn, start=1)],
        )
        why = ledger.Movement(REASON_PRIZE, ref=f"{guild_id}:{day.isoformat()}")
        paid = [player for _, player in drawn if not is_erased(player)]
        for player in paid:
            ledger.credit(conn, now, player, GOLD, division.share, why)
        # A winning ticket whose player erased their data since buying it: its share stays in the pot
        # for the server's next draw (docs/privacy.md), never paid to nobody.
        unpaid = division.share * (len(drawn) - len(paid))
        record = DrawRecord(
            guild_id=guild_id,
            day=day,
            tickets=division.tickets,
            carried_in=carried,
            pot=division.pot,
            share=division.share,
            carried_out=division.carried + unpaid,
            winners=tuple(player for _, player in drawn),
            seed=str(seed),
            commitment=str(commitment),
            digest=fair_draw.entries_digest(entries),
            entries=tuple(entries),
        )
        updated = conn.execute(
            "UPDATE hoss_raffles SET status = 'drawn', tickets = ?, carried_in = ?, pot = ?, share = ?,"
            " carried_out = ?, entries_digest = ?, drawn_at = ? WHERE guild_id = ? AND day = ? AND status = 'open'",
            (
                record.tickets,
                record.carried_in,
                record.pot,
                record.share,
                record.carried_out,
                record.digest,
                to_db(now),
                guild_id,
                day.isoformat(),
            ),
        ).rowcount
        if updated != 1:
            raise RuntimeError(f"raffle {guild_id}/{day} was drawn twice")  # rolls the whole unit back
        channel = guild_settings.read(conn, guild_id).announce_channel_id
        if channel is not None:
            outbox.enqueue(
                conn,
                now,
                Target("channel", channel, players=record.winners, guild_id=guild_id),
                results_post(record),
            )
        dm = winner_dm(record)
        for player in paid:
            outbox.enqueue(
                conn, now, Target("dm", player, fallback_channel_id=channel, guild_id=guild_id), dm
            )

    async def proof(self, guild_id: int, day: date) -> Proof:
        """What « Vérifier » shows of this server's raffle of `day` (its seed only once drawn)."""
        return await self.db.read(lambda conn: raffle_proof(conn, guild_id, day))

    async def latest(self, guild_id: int) -> DrawRecord | None:
        return await self.db.read(lambda conn: _latest_draw(conn, guild_id))

    async def verify(self, guild_id: int, day: date) -> Verification:
        """Recompute a published draw of this server from what was published."""

        def unit(conn: Connection) -> DrawRecord | None:
            return _record(conn, guild_id, day)

        record = await self.db.read(unit)
        if record is None:
            raise NotFound("hoss.raffle.error.no_draw", day=day)
        verdict = fair_draw.check_published(published(record))
        if not verdict.ok and any(is_erased(_ticket_of(entry)[1]) for entry in record.entries):
            # a ticket's player erased their data since the draw: its entry no longer reads as published
            verdict = fair_draw.Verdict(False, ERASED)
        return Verification(record, verdict)


# -- reads -------------------------------------------------------------------------------------------


def _ticket_count(conn: Connection, guild_id: int, day: date) -> int:
    row = conn.execute(
        "SELECT COUNT(*) FROM hoss_raffle_tickets WHERE guild_id = ? AND day = ?", (guild_id, day.isoformat())
    ).fetchone()
    return int(row[0])


def _entries(conn: Connection, guild_id: int, day: date) -> list[str]:
    """The published entries, "<number>:<player id>" in ticket order, written by the database."""
    rows = conn.execute(
        "SELECT CAST(number AS TEXT) || ':' || CAST(player_id AS TEXT) FROM hoss_raffle_tickets"
        " WHERE guild_id = ? AND day = ? ORDER BY number",
        (guild_id, day.isoformat()),
    ).fetchall()
    return [row[0] for row in rows]


def _ticket_of(entry: str) -> tuple[int, int]:
    number, player = entry.split(":")
    return int(number), int(player)


def has_ticket(conn: Connection, player_id: int, day: date) -> bool:
    row = conn.execute(
        "SELECT 1 FROM hoss_raffle_tickets WHERE player_id = ? AND day = ?", (player_id, day.isoformat())
    ).fetchone()
    return row is not None


def _commitment(conn: Connection, guild_id: int, day: date) -> str | None:
    row = conn.execute(
        "SELECT commitment FROM hoss_raffles WHERE guild_id = ? AND day = ?", (guild_id, day.isoformat())
    ).fetchone()
    return None if row is None else str(row[0])


def _carry_source(conn: Connection, guild_id: int, day: date) -> tuple[str, int] | None:
    row = conn.execute(
        "SELECT day, carried_out FROM hoss_raffles WHERE guild_id = ? AND status = 'drawn' AND day < ?"
        " AND carry_taken = 0 AND carried_out > 0 ORDER BY day DESC LIMIT 1",
        (guild_id, day.isoformat()),
    ).fetchone()
    return None if row is None else (str(row[0]), int(row[1]))


def _pending_carry(conn: Connection, guild_id: int, day: date) -> int:
    source = _carry_source(conn, guild_id, day)
    return 0 if source is None else source[1]


def _take_carry(conn: Connection, guild_id: int, day: date) -> int:
    """What the server's previous draw left in the pot, marked as taken in the same unit (paid once)."""
    source = _carry_source(conn, guild_id, day)
    if source is None:
        return 0
    taken = conn.execute(
        "UPDATE hoss_raffles SET carry_taken = 1 WHERE guild_id = ? AND day = ? AND carry_taken = 0",
        (guild_id, source[0]),
    ).rowcount
    if taken != 1:
        raise RuntimeError("a raffle's remainder was carried twice")
    return source[1]


def _record(conn: Connection, guild_id: int, day: date) -> DrawRecord | None:
    row = conn.execute(
        "SELECT tickets, carried_in, pot, share, carried_out, seed, commitment, entries_digest"
        " FROM hoss_raffles WHERE guild_id = ? AND day = ? AND status = 'drawn'",
        (guild_id, day.isoformat()),
    ).fetchone()
    if row is None:
        return None
    winners = conn.execute(
        "SELECT player_id FROM hoss_raffle_tickets WHERE guild_id = ? AND day = ? AND winner IS NOT NULL"
        " ORDER BY winner",
        (guild_id, day.isoformat()),
    ).fetchall()
    return DrawRecord(
        guild_id=guild_id,
        day=day,
        tickets=int(row[0]),
        carried_in=int(row[1]),
        pot=int(row[2]),
        share=int(row[3]),
        carried_out=int(row[4]),
        winners=tuple(int(w[0]) for w in winners),
        seed=str(row[5]),
        commitment=str(row[6]),
        digest=str(row[7]),
        entries=tuple(_entries(conn, guild_id, day)),
    )


def _latest_draw(conn: Connection, guild_id: int) -> DrawRecord | None:
    row = conn.execute(
        "SELECT day FROM hoss_raffles WHERE guild_id = ? AND status = 'drawn' ORDER BY day DESC LIMIT 1",
        (guild_id,),
    ).fetchone()
    return None if row is None else _record(conn, guild_id, date.fromisoformat(row[0]))


def published(record: DrawRecord) -> fair_draw.Published:
    """What the draw publishes; the winners' entries in draw order (one ticket a day per player, so a
    player id names its entry)."""
    by_player = {int(e.split(":")[1]): e for e in record.entries}
    return fair_draw.Published(
        commitment=record.commitment,
        seed=record.seed,
        digest=record.digest,
        winners=tuple(by_player[player] for player in record.winners),
        entries=record.entries,
    )


# -- messages ----------------------------------------------------------------------------------------


def stamp(when: datetime) -> str:
    return f"<t:{int(when.timestamp())}:t>"


BUY_BUTTON = Button(Text("hoss.raffle.button.buy"), "hoss:raffle:buy", "success")


def commitment_post(day: date, draws: datetime, commitment: str) -> MessageSpec:
    """The raffle opens: its day and draw time, the 🎟️ button, and « Vérifier » for its commitment
    (services/hoss/proofs.py: the proof one click away, not in the post)."""
    return MessageSpec(
        content=Text("hoss.raffle.post.commitment", {"day": Day(day), "draw": stamp(draws)}),
        buttons=(BUY_BUTTON, verify_button(RAFFLE, day)),
    )


def winners_text(record: DrawRecord) -> Text:
    """The first winners named, the others counted, so a draw of 2,000 winners still fits a field."""
    if not record.winners:
        return Text("hoss.raffle.none")
    names = [mention(player) for player in record.winners[:SHOWN_WINNERS]]
    more = len(record.winners) - len(names)
    if more > 0:
        names.append(Text("hoss.raffle.more_winners", {"count": Number(more)}))
    return Text.lines(names)


def result_fields(record: DrawRecord) -> tuple[EmbedField, ...]:
    return (
        EmbedField(Text("hoss.raffle.label.winners"), winners_text(record)),
        EmbedField(
            Text("hoss.raffle.label.share"), Text("hoss.raffle.gold", {"amount": Number(record.share)})
        ),
        EmbedField(
            Text("hoss.raffle.label.carried"),
            Text("hoss.raffle.gold", {"amount": Number(record.carried_out)}),
        ),
    )


def results_post(record: DrawRecord) -> MessageSpec:
    """The draw's results, what players look for: the draw in one line, then the winners and each one's
    share (and what is carried over). The proof (the revealed seed, the commitment published before the
    sales, the ticket list's fingerprint, the command that checks them) is behind « Vérifier »."""
    summary = Text(
        "hoss.raffle.post.results",
        {"day": Day(record.day), "tickets": Number(record.tickets), "pot": Number(record.pot)},
    )
    embed = Embed(title=Text("hoss.raffle.post.title"), description=summary, fields=result_fields(record))
    return MessageSpec(
        embeds=(embed,),
        buttons=(BUY_BUTTON, verify_button(RAFFLE, record.day)),  # tickets for the next draw; the proof
    )


def winner_dm(record: DrawRecord) -> MessageSpec:
    return MessageSpec(
        content=Text("hoss.raffle.dm.won", {"day": Day(record.day), "amount": Number(record.share)}),
        show_label=Text("hoss.raffle.dm.show"),
    )
