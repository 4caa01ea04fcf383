"""Immortal's War duels against a friend or the AI: challenge, practice, the engaging seat's choice then
the counter, timeouts, the end with each player's gains (docs/immortals/commands.md).

Each use case is one write unit: read the duel, apply the choice through the engine, let the AI choose
when its seat is to act (its decision takes about a millisecond, so it runs inside the unit), end the
duel or arm the next choice's timeout, and queue an edit of the public message. Each choice has its own
deadline, armed when that seat's turn comes (the server's choice time, `/setup immortals`, 2 minutes by
default): the engaging seat's when the round starts, the counter's once the attack is engaged; a seat
that has not chosen by then gets the AI's choice for it, and the public message says so. The timeout is a
scheduler job, so a duel never hangs and goes on after a restart.
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from core.errors import BadInput, NotAllowed
from engine.errors import DomainError
from engine.immortals import DECK_MAX, DECK_MIN, ENGINE, Choose, ImmortalsCatalog, ImmortalsState, choose
from engine.protocol import PlayerSetup
from services.community.tournaments.results import match_over
from services.immortals.decks import deck_view
from services.immortals.duel_match import DUELS, RULES, Choice, DuelRow
from services.immortals.economy import ensure_starter, known_spells
from services.immortals.ladder import rating
from services.immortals.names import problem_text
from services.immortals.render import duel as render
from services.immortals.rewards import AI_PLAYER, apply_result
from services.infra.messages import MessageSpec, Text
from services.infra.players import ensure_player
from services.infra.scheduler import Job
from services.shared.collecting import Problem
from services.shared.duels import SecretDuels, timeout_job
from services.shared.matches import Author, StaleMatch
from store.connection import Connection

TIMEOUT_JOB = timeout_job("immortals")  # the tests arm it by name
REFUSALS = {"unit": "immortals.error.unit_used", "spell": "immortals.error.spell_used"}


def practice_deck(
    catalog: ImmortalsCatalog, deck: list[dict[str, Any]], rng: random.Random
) -> dict[str, Any]:
    """The AI's deck mirrors the player's: for each of their units, another unit of the same tier at the
    same experience (distinct units, so no copy rule can fail), and the starter spells."""
    chosen: list[str] = []
    for entry in deck:
        card = catalog.card(entry["card"])
        tier = card.tier if card is not None else 1
        pool = [i for i in catalog.sorted_ids(tier) if i not in chosen]
        pool = pool or [i for i in catalog.sorted_ids() if i not in chosen]
        chosen.append(rng.choice(pool))
    spells = [s.id for s in catalog.spells if s.starter]
    return {"cards": chosen, "xp": [int(e["xp"]) for e in deck], "copies": [], "spells": spells}


class ImmortalsDuels(SecretDuels[ImmortalsCatalog, ImmortalsState, DuelRow, dict[str, Any], Choice]):
    """A practice duel (against the AI, with the player's deck) pays card and player XP, gold and
    fragments (halved by the anti-farm rule like any duel: the AI is one opponent), no combat points."""

    matches = DUELS

    def rating(self, conn: Connection, player: int) -> int:
        return rating(conn, player)

    # --- starting -----------------------------------------------------------------------------------

    def _setup_of(self, conn: Connection, now: datetime, player: int) -> dict[str, Any]:
        """The player's deck (copies, units, XP) and known spells, refused with every reason when the deck
        cannot be played."""
        ensure_player(conn, player, now, self.registry)
        ensure_starter(conn, now, self.registry, player, self.catalog, self.rng)
        deck = deck_view(conn, player, self.catalog)
        if not deck.valid or not deck.copies:
            empty = Problem(
                "immortals.deck.problem.size", {"count": 0, "minimum": DECK_MIN, "maximum": DECK_MAX}
            )
            reasons = Text.lines([problem_text(self.catalog, p) for p in deck.problems or (empty,)])
            raise NotAllowed("immortals.error.no_deck", player=f"<@{player}>", reasons=reasons)
        return {
            "copies": [c.copy_id for c in deck.copies],
            "cards": [c.card.id for c in deck.copies],
            "xp": [c.xp for c in deck.copies],
            "spells": known_spells(conn, player, self.catalog),
        }

    def _practice_setup(self, mine: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        deck = [{"card": c, "xp": x} for c, x in zip(mine["cards"], mine["xp"], strict=True)]
        return practice_deck(self.catalog, deck, rng)

    def _player(self, duel: DuelRow, seat: int, setup: dict[str, Any]) -> PlayerSetup:
        return PlayerSetup(
            seat=seat,
            player_id=duel.seats[seat] or AI_PLAYER,
            deck=tuple(setup["cards"]),
            extra={"xp": list(setup["xp"]), "spells": list(setup["spells"])},
        )

    def public(self, duel: DuelRow, languages: tuple[str, ...] = ()) -> MessageSpec:
        return render.public(duel, self.catalog, languages)

    # --- choosing -----------------------------------------------------------------------------------

    def _refusal(self, duel: DuelRow, seat: int) -> DomainError | None:
        """The other seat is told whose turn it is."""
        if duel.status != "live" or duel.state is None:
            return NotAllowed("immortals.error.over")
        return None if seat in duel.to_act() else self._not_yet(duel, seat)

    def _choice(self, conn: Connection, duel: DuelRow, seat: int, foe_language: str | None) -> Choice:
        assert duel.state is not None
        engager = render.who(duel, duel.state.engager)
        return Choice(duel.id, ENGINE.view(duel.state, seat), engager=engager, foe_language=foe_language)

    def _not_yet(self, duel: DuelRow, seat: int) -> NotAllowed:
        """Why `seat` may not choose now: it has chosen this round, or the engaging seat has not yet."""
        state = duel.state
        assert state is not None
        if state.pending[seat] is not None:
            return NotAllowed("immortals.error.already_chosen", round=state.round)
        return NotAllowed(
            "immortals.error.wait_engage", round=state.round, player=render.who(duel, state.engager)
        )

    async def choose(
        self, duel_id: int, player: int, round_: int, unit_place: int, spell_place: int | None, *, guild: int
    ) -> DuelRow:
        """The seat's choice for `round_` (its attack when it engages, its counter otherwise): the unit and
        spell at these places of its own line-up and drawn spells (what the controls name). A second
        click of the same round is told its choice stands, the counter's click before the attack whose
        turn it is; a click on controls of an earlier round is stale."""
        now = self.clock.now()

        def unit(conn: Connection) -> DuelRow:
            duel = DUELS.load(conn, duel_id, guild=guild)
            seat = duel.seat_of(player)
            state = duel.state
            if state is None or duel.status != "live":
                raise NotAllowed("immortals.error.over")
            if round_ != state.round or seat not in duel.to_act():
                moves = DUELS.moves(conn, duel.id, seat)  # one per round, read for a refusal only
                if 1 <= round_ <= len(moves) and moves[round_ - 1].author == "player":
                    raise NotAllowed("immortals.error.already_chosen", round=round_)
                if round_ == state.round:
                    raise self._not_yet(duel, seat)
                raise StaleMatch(RULES.texts.stale, button=Text.public("immortals.duel.play_button"))
            units, spells = state.units[seat], state.spells[seat]
            if not 0 <= unit_place < len(units) or (
                spell_place is not None and not 0 <= spell_place < len(spells)
            ):
                raise BadInput()
            action = Choose(
                unit=units[unit_place].uid, spell=None if spell_place is None else spells[spell_place].sid
            )
            return self._move(conn, now, duel, seat, action, "player")

        return await self.write_move(unit)

    def _move(
        self, conn: Connection, now: datetime, duel: DuelRow, seat: int, action: Choose, by: Author
    ) -> DuelRow:
        played = self._apply(conn, now, duel, seat, action, by, REFUSALS, "immortals.error.bad_choice")
        return self._settle(conn, now, played)

    def _settle(self, conn: Connection, now: datetime, duel: DuelRow) -> DuelRow:
        """After the start or a move: the AI chooses while its seat is to act (it engages, or counters what
        it sees), then the duel ends or the timeout of the player now to act is armed (every move hands
        the turn on); the public message shows the new state."""
        while (seats := duel.to_act()) and duel.is_ai(seats[0]):
            duel, _ = DUELS.play(conn, now, duel, seats[0], self._ai_choice(duel, seats[0]), "ai")
        state = duel.state
        assert state is not None
        duel = self._finish(conn, now, duel) if state.finished else self._arm(conn, now, duel)
        self._show(conn, now, duel)
        return duel

    def _ai_choice(self, duel: DuelRow, seat: int) -> Choose:
        """The AI's choice: its draws from the duel's seed and version, so a replay is the same."""
        assert duel.state is not None
        return choose(duel.state, seat, random.Random(f"{duel.seed}:{duel.version}:{seat}"))

    def _finish(self, conn: Connection, now: datetime, duel: DuelRow) -> DuelRow:
        state = duel.state
        assert state is not None
        acted = self._acting_seats(conn, duel.id)
        gains = [
            apply_result(
                conn,
                now,
                self.registry,
                self.catalog,
                match_id=duel.id,
                guild_id=duel.guild_id,
                seat=seat,
                player_id=player,
                state=state,
                deck=duel.copies(seat),
                practice=duel.kind == "practice",
                absent=seat not in acted,
            ).to_json()
            for seat, player in enumerate(duel.seats)
            if player is not None
        ]
        result = {
            "winner": state.winner,
            "reason": state.reason,
            "vitality": list(state.vitality),
            "gains": gains,
        }
        if duel.kind == "tournament":
            match_over(conn, now, self.registry, duel.id, state.winner)
        return DUELS.end(conn, now, duel, "over", result=result)

    def on_timeout(self, conn: Connection, job: Job, now: datetime) -> None:
        """The choice's time is up: the AI chooses for the seat to act (it engages, or counters what it
        sees), and the message says so."""
        duel = self._late(conn, job)
        if duel is None or duel.state is None:
            return  # the round ended meanwhile: that timeout was withdrawn
        late = [seat for seat in duel.to_act() if not duel.is_ai(seat)]
        if not late:
            return
        duel = self._note_late(conn, now, duel, duel.state.round, late)
        for seat in late[:-1]:
            duel, _ = DUELS.play(conn, now, duel, seat, self._ai_choice(duel, seat), "timeout")
        self._move(conn, now, duel, late[-1], self._ai_choice(duel, late[-1]), "timeout")
