"""A tournament's life after its registration: the start, each round opened with the games' matches,
its deadline, its close, the end with the podium paid; and its cancellation. Each step is one write unit
(a scheduler job's, or a manager's command), so a crash at any point leaves the tournament as it was
before the step or after it: no match lost or started twice, no prize paid twice (docs/tournaments.md,
"Crash safety").

Jobs: `tournament:start` (the registration's end), `tournament:deadline` (a round's deadline, withdrawn
when the round closes before), and `results.STEP_JOB` (armed by the round's last result). Each acts only
if the tournament is still where the job was armed (its status, round and pending job).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from engine import seeding
from services.community.tournaments import posts, rounds, store
from services.community.tournaments.results import STEP_JOB, arm_step, show
from services.community.tournaments.store import TableRow, Tournament
from services.infra import ledger, scheduler
from services.infra.games import GameRegistry, TournamentPairing, TournamentPlay
from services.infra.players import summary_changed
from services.infra.scheduler import Job
from store.connection import Connection

START_JOB = "tournament:start"
DEADLINE_JOB = "tournament:deadline"
MIN_PLAYERS = 4
FEE_REASON = "tournament.fee"
REFUND_REASON = "tournament.refund"
PRIZE_REASON = "tournament.prize"


def fee_ref(t: Tournament) -> str:
    return f"tournament:{t.id}"


@dataclass(frozen=True)
class Player:
    """A game's side of the tournaments, as built for this process (`GameSpec.tournament`)."""

    play: TournamentPlay
    at_once: bool


class Flow:
    def __init__(
        self, games: Mapping[str, Player], registry: GameRegistry, sched: scheduler.Scheduler | None
    ) -> None:
        self.games = dict(games)
        self.registry = registry
        if sched is not None:
            sched.on(START_JOB, self.on_start)
            sched.on(DEADLINE_JOB, self.on_deadline)
            sched.on(STEP_JOB, self.on_step)

    # --- jobs -----------------------------------------------------------------------------------------------

    def on_start(self, conn: Connection, job: Job, now: datetime) -> None:
        t = store.load_trusted(conn, int(job.payload["tournament"]))
        if t.status == "open" and t.round_job == job.id:
            self.start(conn, now, t)

    def on_deadline(self, conn: Connection, job: Job, now: datetime) -> None:
        t = store.load_trusted(conn, int(job.payload["tournament"]))
        if t.status != "running" or t.round != int(job.payload["round"]) or t.round_job != job.id:
            return
        game = self.games[t.game]
        rows = store.tables(conn, t.id, t.round)
        for row in rows:
            if row.decided or row.match_id is None:
                continue
            ready = game.play.at_deadline(conn, now, row.match_id)
            if ready is not None:
                decision = rounds.by_attendance(t, row, ready)
                store.decide(
                    conn,
                    now,
                    t.id,
                    row,
                    points=decision.points,
                    winner=decision.winner,
                    reason=decision.reason,
                )
        t = store.save(conn, t, round_job=None)
        t = show(conn, now, t, self.registry)
        if all(r.decided for r in store.tables(conn, t.id, t.round)):
            self.advance(conn, now, t)

    def on_step(self, conn: Connection, job: Job, now: datetime) -> None:
        t = store.load_trusted(conn, int(job.payload["tournament"]))
        if t.status != "running" or t.round != int(job.payload["round"]):
            return
        if all(r.decided for r in store.tables(conn, t.id, t.round)):
            self.advance(conn, now, t)

    # --- steps ----------------------------------------------------------------------------------------------

    def start(self, conn: Connection, now: datetime, t: Tournament) -> Tournament:
        """The registration's end: too few players cancels it (fees refunded); else the seeding, revealed
        with the seed, and the first round."""
        entries = store.entries(conn, t.id)
        if len(entries) < MIN_PLAYERS:
            return self.cancel(conn, now, t, too_few=True)
        registered = [e.player_id for e in entries]
        ratings = None
        if t.seeding == "rating":
            ratings = {p: self.games[t.game].play.rating(conn, p) for p in registered}
        for rank, player in enumerate(seeding.seeding(t.seed, registered, ratings), start=1):
            store.set_entry(conn, t.id, player, seed_rank=rank)
        planned = rounds.rounds_of(t, len(entries))
        if t.format == "swiss":
            planned = min(planned, len(entries) - 1)
        t = store.save(conn, t, status="running", started_at=now, rounds=planned, round_job=None)
        posts.started(conn, now, t, self.registry, len(entries))
        return self.open_round(conn, now, t, 1)

    def open_round(self, conn: Connection, now: datetime, t: Tournament, number: int) -> Tournament:
        """Round `number`: its tables (pairing or bracket), each match started by its game or decided at
        once (a bye, a walkover, a game computed at once), the deadline job, the posts and the DMs."""
        game = self.games[t.game]
        entries = store.entries(conn, t.id)
        done = store.tables(conn, t.id)
        if t.format == "swiss":
            pairs: list[tuple[int | None, int | None]] = list(rounds.swiss_pairs(entries, done))
        else:
            pairs = rounds.elimination_pairs(entries, done, number)
        deadline = now + timedelta(hours=t.round_hours)
        job = scheduler.schedule(conn, now, DEADLINE_JOB, deadline, {"tournament": t.id, "round": number})
        t = store.save(conn, t, round=number, round_ends_at=deadline, round_job=job)
        rows = [store.add_table(conn, t.id, number, index, a, b) for index, (a, b) in enumerate(pairs)]
        for row in rows:
            self._open_table(conn, now, t, row, entries, game)
        opened = store.tables(conn, t.id, number)
        posts.round_opened(conn, now, t, self.registry, opened)
        t = show(conn, now, t, self.registry)
        if all(r.decided for r in opened):
            arm_step(conn, now, t)
        return t

    def _open_table(
        self,
        conn: Connection,
        now: datetime,
        t: Tournament,
        row: TableRow,
        entries: list[store.Entry],
        game: Player,
    ) -> None:
        decision = rounds.at_once(t, row, entries)
        if decision is None:
            assert row.first is not None
            assert row.second is not None
            assert t.round_ends_at is not None
            pairing = TournamentPairing(
                t.id,
                row.round,
                row.table,
                t.guild_id,
                t.channel_id,
                (row.first, row.second),
                t.round_ends_at,
                posts.title(t, self.registry),
            )
            opened = game.play.open_match(conn, now, pairing)
            if opened.match_id is None:
                decision = rounds.by_attendance(t, row, opened.present or (False, False))
            else:
                row = store.set_match(conn, t.id, row, opened.match_id)
                if opened.decided:
                    decision = rounds.played_out(t, row, opened.winner)
                for player in pairing.players:
                    buttons = game.play.buttons(opened.match_id)
                    posts.match_dm(conn, now, t, self.registry, row, player, buttons, at_once=game.at_once)
        if decision is not None:
            store.decide(
                conn, now, t.id, row, points=decision.points, winner=decision.winner, reason=decision.reason
            )

    def advance(self, conn: Connection, now: datetime, t: Tournament) -> Tournament:
        """Every table of the round is decided: its post, then the next round or the end."""
        if t.round_job is not None:
            scheduler.cancel(conn, t.round_job)
            t = store.save(conn, t, round_job=None)
        posts.round_closed(conn, now, t, self.registry, store.tables(conn, t.id, t.round))
        if t.round >= (t.rounds or 0):
            return self.finish(conn, now, t)
        return self.open_round(conn, now, t, t.round + 1)

    def finish(self, conn: Connection, now: datetime, t: Tournament) -> Tournament:
        """The final places, the pot paid to the podium through the ledger, the titles on /profile."""
        entries = store.entries(conn, t.id)
        places = rounds.final_places(t, entries, store.tables(conn, t.id))
        playing = {e.player_id for e in entries if e.playing}
        for place, player in enumerate(places, start=1):
            store.set_entry(conn, t.id, player, place=place)
        podium = places[:3]
        paid = rounds.prizes(t.pot, podium, [p > 0 and p in playing for p in podium])
        for place, (player, amount) in enumerate(zip(podium, paid, strict=True), start=1):
            store.set_entry(conn, t.id, player, prize=amount)
            if amount and t.currency is not None:
                why = ledger.Movement(PRIZE_REASON, ref=f"{fee_ref(t)}:{place}")
                ledger.credit(conn, now, player, t.currency, amount, why)
            if player > 0:
                summary_changed(conn, player)  # a title on their /profile
        t = store.save(conn, t, status="finished", ended_at=now, pot=t.pot - sum(paid), round_job=None)
        t = show(conn, now, t, self.registry)
        posts.podium(conn, now, t, self.registry, podium, paid)
        return t

    def cancel(self, conn: Connection, now: datetime, t: Tournament, *, too_few: bool = False) -> Tournament:
        """Cancelled (by a manager, or too few players at the start): the fees refunded to every player
        still there, the matches not started yet ended, the pending job withdrawn, a post."""
        kept = 0
        for e in store.entries(conn, t.id):
            if e.fee_paid and t.currency is not None and e.player_id > 0:
                why = ledger.Movement(REFUND_REASON, ref=fee_ref(t))
                ledger.credit(conn, now, e.player_id, t.currency, e.fee_paid, why)
            else:
                kept += e.fee_paid
        if t.status == "running":
            play = self.games[t.game].play
            for row in store.tables(conn, t.id, t.round):
                if not row.decided and row.match_id is not None:
                    play.at_deadline(conn, now, row.match_id)
        if t.round_job is not None:
            scheduler.cancel(conn, t.round_job)
        t = store.save(conn, t, status="cancelled", ended_at=now, pot=kept, round_job=None)
        posts.cancelled(conn, now, t, self.registry, too_few=too_few)
        return t
