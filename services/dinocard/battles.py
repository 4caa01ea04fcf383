"""Dinocard challenges and dojo fights: prepared (services/dinocard/preparation.py), computed in advance,
watched step by step, settled.

A battle is a match of the shared block (`services/shared/matches.py`, game 'dinocard', kind 'defi' or
'dojo', numbered): seat 0 the challenger, who watches; seat 1 the attacked pack's owner, or nobody for a
dojo master. Launching is one write unit: the checks (own active pack, the 5-level window, today's
challenges, the bonus cards), the battle computed whole by the engine from both packs and a fresh seed
(the match's state), the public message queued, and a job that finishes the battle if nobody watches it
to the end. Watching is the engine's `Advance` (the seat-0 move); the result counts only once the last
step is shown — by the player, « Tout voir » or that job — so nothing the challenger can see (XP, coins,
a notice) tells the result early. Then the challenger's pack gains XP (a defended pack gains or loses
nothing), the owner of the attacked pack is told by DM if they allow it, and the message gets the log.
Decisions: docs/dinocard/decisions.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from core.errors import BadInput, NotAllowed, NotFound
from engine.dinocard import ENGINE, WATCHER, Advance, DinocardState, Master, Skills
from engine.protocol import CATALOG_OPTION, SPECTATOR, Event, PlayerSetup
from services.dinocard.packs import Pack, find_pack, pack_by_id, use_daily
from services.dinocard.preparation import DinocardPreparation
from services.dinocard.render import battle as render
from services.dinocard.results import (
    KIND_CHALLENGE,
    KIND_DOJO,
    MATCHES,
    RULES,
    beaten,
    pack_names,
    players,
    result_text,
    settle,
)
from services.infra.messages import MessageSpec, Target
from services.infra.outbox import enqueue
from services.infra.scheduler import Job, Scheduler
from services.shared.matches import Author, Match, Played
from store.connection import Connection

FINISH_JOB = "dinocard:finish"
WATCH_TIME = timedelta(minutes=15)  # then the battle is shown to its end and settled anyway
PACE = timedelta(seconds=5)  # between two phases « Tout voir » shows


@dataclass(frozen=True)
class Shown:
    """A battle as the public message shows it, and whether the caller should edit the message now."""

    match: Match[DinocardState]
    spec: MessageSpec


def play_out(
    conn: Connection,
    now: datetime,
    match: Match[DinocardState],
    author: Author,
    *,
    paced: bool = False,
) -> tuple[Match[DinocardState], list[tuple[DinocardState, list[Event]]]]:
    """Every step left, a phase at a time, logged and saved at once (one save), and the battle settled;
    with each phase's state and events, for the edits that show them. `paced`: the public message shows
    the phases PACE apart, and the owner's notice waits for the last one."""
    assert match.state is not None
    state = match.state
    played: list[Played] = []
    phases: list[tuple[DinocardState, list[Event]]] = []
    while not state.finished:
        action = Advance(ENGINE.to_phase_end(state))
        state, events = ENGINE.apply(state, WATCHER, action)
        played.append(Played(WATCHER, ENGINE.action_to_json(action), author))
        phases.append((state, events))
    MATCHES.record(conn, now, match.id, played)
    match = MATCHES.save(conn, match, now, state=state)
    return settle(conn, now, match, shown_at=now + (len(phases) - 1) * PACE if paced else now), phases


class DinocardBattles(DinocardPreparation):
    def __init__(self, *args: Any, scheduler: Scheduler | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if scheduler is not None:
            scheduler.on(FINISH_JOB, self.on_finish)

    # --- launching -------------------------------------------------------------------------------------

    def _compute(
        self, seats: Sequence[tuple[int, Sequence[str], Skills, Sequence[str]]]
    ) -> tuple[int, list[dict[str, Any]], DinocardState]:
        seed = self.rng.getrandbits(62)
        setups = [
            PlayerSetup(
                seat=seat,
                player_id=player,
                deck=tuple(cards),
                extra={"skills": skills.model_dump(), "bonus": list(bonus)},
            )
            for seat, (player, cards, skills, bonus) in enumerate(seats)
        ]
        state = ENGINE.new_game(setups, seed, {CATALOG_OPTION: self.catalog})
        setup = [{"player": s.player_id, "deck": list(s.deck), "extra": s.extra} for s in setups]
        return seed, setup, state

    def _open(
        self,
        conn: Connection,
        now: datetime,
        *,
        guild: int | None,
        channel: int,
        seats: tuple[int, int | None],
        kind: str,
        key: str,
        computed: tuple[int, list[dict[str, Any]], DinocardState],
        data: dict[str, Any],
    ) -> Match[DinocardState]:
        seed, setup, state = computed
        match = MATCHES.create(
            conn,
            now,
            guild_id=guild,
            channel_id=channel,
            seats=seats,
            kind=kind,
            status="live",
            request_key=key,
            expires_at=now + WATCH_TIME,
            deadline_job=FINISH_JOB,
            seed=seed,
            setup=setup,
            state=state,
            data=data,
        )
        # The message is queued and named without a save (`set_message`: which message shows the battle
        # is not its state), so its buttons carry the version created; a save only to name it wrote the
        # battle's whole state a second time (issue 39).
        target = Target("channel", channel, players=(seats[0],), guild_id=guild)
        item = enqueue(conn, now, target, self.spec_of(match, controls=True))
        MATCHES.set_message(conn, match.id, item)
        return replace(match, message_item=item)

    async def launch(
        self,
        player: int,
        pack_id: int,
        opponent_id: int,
        bonus: Sequence[str],
        *,
        guild: int | None,
        channel: int,
        key: str,
    ) -> Match[DinocardState]:
        """« Lancer le Défi »: one battle per preparation message (`key`), whatever the clicks."""
        now = self.clock.now()

        def unit(conn: Connection) -> Match[DinocardState]:
            self.welcome(conn, now, player)
            request = f"dinocard:launch:{key}"
            existing = MATCHES.by_request(conn, request)
            if existing is not None:
                if existing.seats[0] != player:
                    raise NotFound(RULES.texts.not_found, id=existing.id)
                return existing
            mine = pack_by_id(conn, pack_id)
            if mine is None or mine.owner_id != player or mine.status != "active":
                raise NotFound("dinocard.error.pack.not_found", pack=str(pack_id))
            opponent = self._checked(conn, player, mine, opponent_id, bonus)
            use_daily(conn, mine, self.today(now))
            computed = self._compute(
                [
                    (player, mine.cards, mine.skills, tuple(bonus)),
                    (opponent.owner_id, opponent.cards, opponent.skills, ()),
                ]
            )
            data = {
                "packs": [mine.id, opponent.id],
                "names": [mine.name, opponent.name],
                "levels": [mine.level, opponent.level],
            }
            return self._open(
                conn,
                now,
                guild=guild,
                channel=channel,
                seats=(player, opponent.owner_id),
                kind=KIND_CHALLENGE,
                key=request,
                computed=computed,
                data=data,
            )

        return await self.db.write(unit)

    def masters(self) -> tuple[Master, ...]:
        return self.catalog.masters

    async def dojo_progress(self, player: int) -> int:
        """How many masters the player has beaten (the next one is the one they may face)."""
        now = self.clock.now()

        def unit(conn: Connection) -> int:
            self.welcome(conn, now, player)
            return beaten(conn, player)

        return await self.db.write(unit)

    async def dojo(
        self, player: int, pack_ref: str, master_id: str, *, guild: int | None, channel: int, key: str
    ) -> Match[DinocardState]:
        """A fight against a dojo master: always available, no daily challenge used, no XP; each master
        opens once the one before is beaten."""
        now = self.clock.now()

        def unit(conn: Connection) -> Match[DinocardState]:
            self.welcome(conn, now, player)
            request = f"dinocard:dojo:{key}"
            existing = MATCHES.by_request(conn, request)
            if existing is not None:
                return existing
            mine = find_pack(conn, player, pack_ref)
            index = next((i for i, m in enumerate(self.catalog.masters) if m.id == master_id), None)
            if index is None:
                raise BadInput("dinocard.error.dojo.unknown")
            if index > beaten(conn, player):
                raise NotAllowed("dinocard.error.dojo.locked")
            master = self.catalog.masters[index]
            computed = self._compute(
                [(player, mine.cards, mine.skills, ()), (0, master.pack, master.skills, ())]
            )
            data = {
                "packs": [mine.id, None],
                "names": [mine.name, master.name.fr],
                "names_en": [mine.name, master.name.en],
                "levels": [mine.level, master.level],
                "master": index,
            }
            return self._open(
                conn,
                now,
                guild=guild,
                channel=channel,
                seats=(player, None),
                kind=KIND_DOJO,
                key=request,
                computed=computed,
                data=data,
            )

        return await self.db.write(unit)

    # --- watching ---------------------------------------------------------------------------------------

    def spec_of(
        self,
        match: Match[DinocardState],
        *,
        controls: bool,
        log: bool = False,
        events: Sequence[Event] | None = None,
    ) -> MessageSpec:
        """The public message of the battle now; `events`: those of the steps just shown (default: the last
        step's), filtered for a spectator here."""
        assert match.state is not None
        assert match.number is not None
        view = ENGINE.view(match.state, SPECTATOR)
        if events is not None:
            shown = tuple(e.to_json() for e in events if e.visible(SPECTATOR))
            view = view.model_copy(update={"events": shown})
        summary = result_text(match) if match.result is not None else None
        text = None
        if log and view.finished and match.seed is not None:
            names = [str(n) for n in match.data["names"]]
            text = render.log_text(ENGINE.view(match.state, WATCHER), names, match.seed, self.cards)
        return render.battle_spec(
            number=match.number,
            view=view,
            who=pack_names(match),
            players=players(match),
            levels=list(match.data["levels"]),
            cards=self.cards,
            controls=(match.id, match.version) if controls else None,
            summary=summary,
            log=text,
        )

    async def advance(
        self, match_id: int, player: int, version: int, mode: str, *, guild: int | None
    ) -> MessageSpec:
        """The watcher's « Suivant » (`step`), « Fin de la phase » (`phase`) or « Tout voir » (`all`): the
        message to show now. « Tout voir » shows the rest phase by phase through timed edits."""
        now = self.clock.now()

        def unit(conn: Connection) -> MessageSpec:
            match = MATCHES.load(conn, match_id, guild=guild)
            if match.seat_of(player) != WATCHER:
                raise NotAllowed(RULES.texts.not_player)
            if match.status != "live" or match.state is None:
                raise NotAllowed("dinocard.error.battle.over")
            if version != match.version:
                raise MATCHES.stale()
            if mode == "all":
                return self._to_end(conn, now, match, "player")
            if mode not in ("step", "phase"):
                raise BadInput()
            steps = 1 if mode == "step" else ENGINE.to_phase_end(match.state)
            match, events = MATCHES.play(conn, now, match, WATCHER, Advance(steps), "player", version=version)
            assert match.state is not None
            if match.state.finished:
                match = settle(conn, now, match)
            return self.spec_of(match, controls=True, log=True, events=events)

        return await self.db.write(unit)

    def _to_end(
        self, conn: Connection, now: datetime, match: Match[DinocardState], author: Author
    ) -> MessageSpec:
        """Show every step left, one phase per edit of the public message, PACE apart, and settle. Returns
        the first phase's message, which the click shows at once; a job (no click) queues it too."""
        edited = match.message_item is not None and match.channel_id is not None
        match, phases = play_out(conn, now, match, author, paced=edited)
        specs = [
            self.spec_of(replace(match, state=s, result=None), controls=False, events=e)
            for s, e in phases[:-1]
        ]
        specs.append(self.spec_of(match, controls=False, log=True, events=phases[-1][1]))
        queued = specs if author == "timeout" else specs[1:]
        if match.message_item is not None and match.channel_id is not None:
            target = Target(
                "channel", match.channel_id, players=(match.seats[0] or 0,), guild_id=match.guild_id
            )
            first = 0 if author == "timeout" else 1
            for index, spec in enumerate(queued, start=first):
                enqueue(conn, now, target, spec, edit_of=match.message_item, not_before=now + index * PACE)
        return specs[0]

    def on_finish(self, conn: Connection, job: Job, now: datetime) -> None:
        """Nobody watched to the end within WATCH_TIME: show the rest and settle (the owner is told)."""
        match = MATCHES.load_trusted(conn, int(job.payload["match"]))
        if match.status != "live" or match.deadline_job != job.id:
            return
        self._to_end(conn, now, match, "timeout")

    # --- the end ----------------------------------------------------------------------------------------

    # --- notices, replay, leaderboard -------------------------------------------------------------------

    async def set_notify(self, player: int, on: bool) -> None:
        now = self.clock.now()

        def unit(conn: Connection) -> None:
            self.welcome(conn, now, player)
            conn.execute("UPDATE dinocard_profiles SET notify = ? WHERE player_id = ?", (int(on), player))

        await self.db.write(unit)

    async def replay(
        self, viewer: int, number: int, *, guild: int | None
    ) -> tuple[Match[DinocardState], MessageSpec]:
        """A finished battle recomputed from its setup and seed (the same log, proof it replays), with its
        log file. Its challenger may replay it anywhere; anyone may in the server it was fought in. A live
        one is refused until its end (its seed must not leave the bot before)."""

        def unit(conn: Connection) -> Match[DinocardState]:
            try:
                return MATCHES.number_trusted(conn, number)
            except NotFound:
                raise NotFound(RULES.texts.not_found, id=number) from None

        match = await self.db.read(unit)
        mine = match.seats[0] == viewer
        if not mine and (match.guild_id is None or match.guild_id != guild):
            raise NotFound(RULES.texts.not_found, id=number)
        if match.status == "live":
            raise NotAllowed("dinocard.error.battle.replay_live", number=number)
        assert match.seed is not None
        assert match.state is not None
        setups = [
            PlayerSetup(seat=i, player_id=int(s["player"]), deck=tuple(s["deck"]), extra=s["extra"])
            for i, s in enumerate(match.setup)
        ]
        state = ENGINE.new_game(setups, match.seed, {CATALOG_OPTION: self.catalog})
        if state.log != match.state.log:
            raise RuntimeError(f"battle {number} does not replay from its seed")
        return match, self.spec_of(match, controls=False, log=True)

    async def leaderboard(self) -> list[tuple[int, Pack]]:
        """The ten best packs (level, then XP, then wins), every player's."""

        def unit(conn: Connection) -> list[tuple[int, Pack]]:
            rows = conn.execute(
                "SELECT id FROM dinocard_packs WHERE status = 'active' ORDER BY level DESC, xp DESC, wins DESC, id"
                " LIMIT 10"
            ).fetchall()
            packs = [pack_by_id(conn, int(r[0])) for r in rows]
            return [(rank, p) for rank, p in enumerate(packs, start=1) if p is not None]

        return await self.db.read(unit)

    async def opponents(self, player: int, pack_ref: str, query: str) -> list[Pack]:
        """Other players' packs the player's pack may challenge (autocomplete), lowest level first."""

        def unit(conn: Connection) -> list[Pack]:
            try:
                mine = find_pack(conn, player, pack_ref)
            except NotFound:
                return []
            rows = conn.execute(
                "SELECT id FROM dinocard_packs WHERE status = 'active' AND owner_id <> ? AND level <= ?"
                " ORDER BY level, id LIMIT 200",
                (player, mine.level + 5),
            ).fetchall()
            packs = [p for r in rows if (p := pack_by_id(conn, int(r[0]))) is not None]
            return [p for p in packs if query.lower() in f"{p.id} {p.name}".lower()][:25]

        return await self.db.read(unit)
