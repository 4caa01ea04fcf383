"""Dinocard behind the platform protocol (docs/engine.md, docs/dinocard/rules-notes.md).

Two seats: seat 0 launched the challenge and watches it, seat 1 is attacked and plays first. `new_game`
computes the whole battle (`battle.py`) from both packs and the seed; the only action, `Advance`, shows
the next step or the rest of the phase, with its events. The result is the engine's `outcome` once the
last step is shown. Cards not shown yet are the hidden cards: a seat's pack and its eggs.

`PlayerSetup.deck`: the pack, catalog ids (20 to 100, at most 3 identical). `PlayerSetup.extra`, all
optional: `"skills"`, the pack's points per skill (`Skills`: daily, life, strategy, bonus, perception),
and `"bonus"`, the bonus cards added for this challenge (at most `bonus_cards(skills)`). Options: the
catalog only.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import orjson
from pydantic import ValidationError

from engine.dinocard import codes as c
from engine.dinocard.battle import COUNTDOWN, MAX_ROUNDS, Battle, Result
from engine.dinocard.catalog import DinocardCard, DinocardCatalog
from engine.dinocard.log import instance_id, public_at
from engine.dinocard.packs import PACK_MAX, bonus_problems, pack_problems
from engine.dinocard.sample import sample_players
from engine.dinocard.skills import MAX_BONUS, Skills, bonus_cards, kept_on_top, start_life
from engine.dinocard.state import ATTACKED, WATCHER, Advance, DinocardAction, DinocardState
from engine.dinocard.table import Stats, stats_of
from engine.dinocard.view import DinocardView, step_events, view_of
from engine.errors import DomainError, IllegalAction, InvalidAction
from engine.protocol import CATALOG_OPTION, Event, Outcome, PlayerSetup, Setup

# Steps of one round: every phase plays a card of each pack that is not empty, so both are empty after
# at most PACK_MAX + MAX_BONUS phases; then the countdown. Three steps per phase.
MAX_STEPS = MAX_ROUNDS * 3 * (PACK_MAX + MAX_BONUS + COUNTDOWN)
EXTRA_KEYS = frozenset({"skills", "bonus"})
STATE_FIELDS = tuple(DinocardState.model_fields)


class DinocardSetupError(DomainError):
    """Every setup `new_game` refuses (seats, packs, extras, a missing catalog); `reason` says which.

    Services check packs with `pack_problems` first, so a player meets it only through a bug."""

    key = "error.bad_input"


def _player(p: PlayerSetup, catalog: DinocardCatalog) -> tuple[tuple[str, ...], Skills]:
    """The seat's cards (pack then bonus) and skills, or the setup error."""
    if not isinstance(p.deck, tuple) or not all(isinstance(card, str) for card in p.deck):
        raise DinocardSetupError(reason="deck")
    extra = p.extra
    if not isinstance(extra, Mapping) or not set(extra) <= EXTRA_KEYS:
        raise DinocardSetupError(reason="extra")
    try:
        skills = Skills.model_validate(extra.get("skills", {}))
    except ValidationError as error:
        raise DinocardSetupError(reason="skills") from error
    bonus = extra.get("bonus", [])
    if not isinstance(bonus, list | tuple) or not all(isinstance(card, str) for card in bonus):
        raise DinocardSetupError(reason="bonus")
    known = catalog.cards_by_id().keys()
    problems = pack_problems(p.deck, known) + bonus_problems(p.deck, bonus, bonus_cards(skills), known)
    if problems:
        raise DinocardSetupError(reason=problems[0].code, card=problems[0].card)
    return (*p.deck, *bonus), skills


_KEPT_STATS: list[tuple[tuple[DinocardCard, ...], dict[str, Stats]]] = []
KEPT_CATALOGS = 8


def stats_by_id(catalog: DinocardCatalog) -> Mapping[str, Stats]:
    """Each card's `Stats` by id, built once per tuple of cards (as `cards_by_id`): a battle's decks are
    looked up by id, not through `stats_of`, whose cache hashes the card's frozen pydantic model, every
    field of it, about 60 times a battle. The last few catalogs' tables are kept, found by identity."""
    cards = catalog.cards
    for kept, table in _KEPT_STATS:
        if kept is cards:
            return table
    table = {card.id: stats_of(card) for card in cards}
    _KEPT_STATS.insert(0, (cards, table))
    del _KEPT_STATS[KEPT_CATALOGS:]
    return table


def compute(
    decks: Sequence[Sequence[str]],
    packs: Sequence[int],
    skills: Sequence[Skills],
    catalog: DinocardCatalog,
    seed: int,
) -> Result:
    """The whole battle of two validated decks (pack then bonus cards) from the seed: pure, replayable."""
    index = stats_by_id(catalog)
    tables: list[tuple[Stats, ...]] = [tuple(index[card] for card in deck) for deck in decks]
    kept = [min(kept_on_top(s), n) for s, n in zip(skills, packs, strict=True)]
    life = [start_life(s) for s in skills]
    return Battle(tables, packs, kept, life, ATTACKED, seed).run()


class DinocardEngine:
    name: ClassVar[str] = "dinocard"
    setup_error: ClassVar[type[DomainError]] = DinocardSetupError
    max_steps: ClassVar[int] = MAX_STEPS

    def new_game(
        self, players: Sequence[PlayerSetup], seed: int, options: Mapping[str, Any]
    ) -> DinocardState:
        catalog = options.get(CATALOG_OPTION)
        if not isinstance(catalog, DinocardCatalog):
            raise DinocardSetupError(reason="catalog")
        if set(options) != {CATALOG_OPTION}:
            raise DinocardSetupError(reason="option")
        if sorted(p.seat for p in players) != [0, 1]:
            raise DinocardSetupError(reason="two_players")
        by_seat = sorted(players, key=lambda p: p.seat)
        parsed = [_player(p, catalog) for p in by_seat]
        decks = (parsed[0][0], parsed[1][0])
        skills = [parsed[0][1], parsed[1][1]]
        result = compute(decks, [len(p.deck) for p in by_seat], skills, catalog, seed)
        # Built without pydantic's validation: every field is this function's own tuples of ints and
        # strings, as validation would leave them, and validating the log's 400-odd events took a fifth
        # of a launch's battle (tests/engine/dinocard/test_new_game_cost.py checks the two are equal).
        return DinocardState.model_construct(
            player_ids=(by_seat[0].player_id, by_seat[1].player_id),
            decks=decks,
            first=ATTACKED,
            start_life=(start_life(skills[0]), start_life(skills[1])),
            opening=result.opening,
            log=result.log,
            public_at=public_at(result.log, [len(d) for d in decks]),
            winner=result.winner,
            reason=c.END_REASONS[result.reason],
            life=result.life,
            rounds=result.rounds,
        )

    # --- watching ---------------------------------------------------------------------------------------

    def current_players(self, state: DinocardState) -> list[int]:
        return [] if state.finished else [WATCHER]

    def to_phase_end(self, state: DinocardState) -> int:
        """Steps from the next one to the end of its phase (its combat) or of the battle."""
        for index in range(state.shown, len(state.log)):
            if state.log[index][0][0] == c.COMBAT:
                return index - state.shown + 1
        return len(state.log) - state.shown

    def legal_actions(self, state: DinocardState, player: int) -> list[Advance]:
        if state.finished or player != WATCHER:
            return []
        rest = self.to_phase_end(state)
        return [Advance(1), Advance(rest)] if rest > 1 else [Advance(1)]

    def is_legal(self, state: DinocardState, player: int, action: DinocardAction) -> bool:
        if state.finished or player != WATCHER or not isinstance(action, Advance):
            return False
        return action.steps == 1 or action.steps == self.to_phase_end(state)

    def apply(
        self, state: DinocardState, player: int, action: DinocardAction
    ) -> tuple[DinocardState, list[Event]]:
        if not self.is_legal(state, player, action):
            raise IllegalAction("error.illegal_action", reason="not_now")
        end = state.shown + action.steps
        events = [
            Event.from_json(raw)
            for index in range(state.shown, end)
            for raw in step_events(state, index, None)
        ]
        return state.model_copy(update={"shown": end, "finished": end == len(state.log)}), events

    def outcome(self, state: DinocardState) -> Outcome | None:
        if not state.finished:
            return None
        reason = f"dinocard.outcome.{state.reason}"
        if state.winner < 0:
            return Outcome(draw=True, scores=state.life, reason=reason)
        return Outcome(winners=(state.winner,), scores=state.life, reason=reason)

    # --- what each seat sees ----------------------------------------------------------------------------

    def view(self, state: DinocardState, player: int) -> DinocardView:
        return view_of(state, player)

    def hidden_cards(self, state: DinocardState, player: int) -> set[str]:
        """The seat's cards no public event named yet: its pack still to play and its eggs."""
        if state.finished or player not in (0, 1):
            return set()
        return {instance_id(player, i) for i, at in enumerate(state.public_at[player]) if at >= state.shown}

    # --- JSON -------------------------------------------------------------------------------------------

    def to_json(self, state: DinocardState) -> str:
        """`model_dump_json`'s very text, written by orjson from the fields (tuples of ints and strings, a
        bool): a battle's state is 10 to 20 kB, written at its launch and at every « Suivant », and
        pydantic's serializer took 2.4 times as long for it."""
        return orjson.dumps({name: getattr(state, name) for name in STATE_FIELDS}).decode()

    def from_json(self, raw: str) -> DinocardState:
        return DinocardState.model_validate_json(raw)

    def action_to_json(self, action: DinocardAction) -> Any:
        return {"kind": "advance", "steps": action.steps}

    def action_from_json(self, raw: Any) -> DinocardAction:
        if not isinstance(raw, dict) or set(raw) != {"kind", "steps"} or raw["kind"] != "advance":
            raise InvalidAction("error.invalid_action", reason="bad_action")
        steps = raw["steps"]
        if isinstance(steps, bool) or not isinstance(steps, int) or not 1 <= steps <= MAX_STEPS:
            raise InvalidAction("error.invalid_action", reason="bad_action")
        return Advance(steps)

    # --- tests, benchmarks, sandbox ---------------------------------------------------------------------

    def sample_setup(self, rng: random.Random, catalog: Any) -> Setup:
        if not isinstance(catalog, DinocardCatalog):
            raise DinocardSetupError(reason="catalog")
        return Setup(players=sample_players(catalog, rng), options={CATALOG_OPTION: catalog})
