"""The Immortal's War duel engine behind the platform protocol (docs/engine.md, docs/immortals/rules-notes.md).

Two seats. At the start, 4 units are drawn from each deck, 8 spells from each player's known spells,
and a terrain; the seat whose drawn units have the higher total Attack engages. Four rounds, each played
in turn (rulebook: « Il a ensuite le choix de lancer un sort puis de choisir alors une première carte
qu'il envoie attaquer son ennemi. Le deuxième joueur choisit à son tour un sort si il le souhaite, puis
une carte pour contrer l'attaque. »): the engaging seat chooses a unit and maybe a spell, public at once
(event `engaged`); the other seat counters with its own, knowing it; then the two units fight (20 turns
of D2 rolls, `rules.fight`), the winner's power is taken from the losing player's vitality. A player at
0 vitality loses at once; after four rounds the higher vitality wins, equal vitality is a draw.

Player extras (`PlayerSetup.extra`), both optional:
- `"xp"`: a list of integers aligned with `deck`, each copy's experience (its level follows from the
  catalog's `level_xp`); all 0 (level 1) when absent;
- `"spells"`: the ids of the spells the player knows (distinct catalog ids); none when absent.
Table option `"terrain"` (one of `catalog.TERRAINS`) fixes the terrain instead of drawing it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError

from engine.errors import DomainError, IllegalAction, InvalidAction
from engine.immortals.catalog import TERRAINS, ImmortalsCatalog
from engine.immortals.progress import deck_problems
from engine.immortals.rules import (
    Side,
    active_families,
    engage_order,
    fight,
    fighter_fields,
    initiative,
    level_of,
    numbers,
    unit_fields,
)
from engine.immortals.sample import sample_player
from engine.immortals.state import (
    ROUNDS,
    SPELLS_DRAWN,
    START_VITALITY,
    UNITS_DRAWN,
    Choose,
    Fighter,
    FightRecord,
    ImmortalsAction,
    ImmortalsState,
    SpellCard,
    Unit,
    built,
    engaged,
    evolve,
    seat_to_act,
    spells_left,
    units_left,
)
from engine.immortals.view import ImmortalsView, choice_token, view_of
from engine.protocol import CATALOG_OPTION, Event, Outcome, PlayerSetup, Setup
from engine.rng import RngState


class ImmortalsSetupError(DomainError):
    """Every setup `new_game` refuses (seats, decks, extras, options, a missing catalog); `reason` says which.

    Services check decks before a duel starts, so a player meets it only through a bug: the message stays
    the generic bad-input one."""

    key = "error.bad_input"


class _Extra(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    xp: tuple[StrictInt, ...] | None = None
    spells: tuple[StrictStr, ...] = Field(default=(), max_length=500)


def _parse_extra(player: PlayerSetup) -> _Extra:
    try:
        extra = _Extra.model_validate(dict(player.extra))
    except (ValidationError, TypeError, ValueError) as error:
        raise ImmortalsSetupError(reason="extra", seat=player.seat) from error
    if extra.xp is not None and (
        len(extra.xp) != len(player.deck) or any(not 0 <= x <= 10**9 for x in extra.xp)
    ):
        raise ImmortalsSetupError(reason="xp", seat=player.seat)
    if len(set(extra.spells)) != len(extra.spells):
        raise ImmortalsSetupError(reason="spells", seat=player.seat)
    return extra


def _draw_side(
    player: PlayerSetup, catalog: ImmortalsCatalog, rng: random.Random
) -> tuple[tuple[Unit, ...], tuple[SpellCard, ...]]:
    """Validate one player's deck and extras, then draw its 4 units and up to 8 spells."""
    extra = _parse_extra(player)
    deck = tuple(player.deck)
    if not all(isinstance(c, str) for c in deck):
        raise ImmortalsSetupError(reason="deck", seat=player.seat)
    xp = extra.xp if extra.xp is not None else (0,) * len(deck)
    levels = [level_of(x, catalog.level_xp) for x in xp]
    problems = deck_problems(list(zip(deck, levels, strict=True)), catalog)
    if problems:
        raise ImmortalsSetupError(reason="deck", seat=player.seat, problems=problems)
    known = catalog.spells_by_id()
    unknown = [spell_id for spell_id in extra.spells if spell_id not in known]
    if unknown:
        raise ImmortalsSetupError(reason="unknown_spell", seat=player.seat, spell=unknown[0])
    families = active_families(deck, catalog)
    cards_by_id = catalog.cards_by_id()
    seat = player.seat
    units = []
    for n, i in enumerate(rng.sample(range(len(deck)), UNITS_DRAWN)):
        card = cards_by_id[deck[i]]
        fields = unit_fields(card, levels[i], catalog, card.family in families, f"u{seat}-{n}", i)
        units.append(built(Unit, fields))
    drawn = rng.sample(extra.spells, min(SPELLS_DRAWN, len(extra.spells)))
    spells = []
    for n, spell_id in enumerate(drawn):
        spell = known[spell_id]
        sid = f"s{seat}-{n}"
        spells.append(
            built(
                SpellCard,
                {
                    "sid": sid,
                    "spell_id": spell.id,
                    "effects": spell.effects,
                    "terrain": spell.terrain,
                    "family": spell.family,
                },
            )
        )
    return tuple(units), tuple(spells)


def drawn_terrain(seed: int, sizes: Sequence[tuple[int, int]]) -> str:
    """The terrain `new_game` draws from `seed` for two seats whose decks and known spells have `sizes`
    (seat order), without building the duel: the draws before the terrain's, each seat's units then
    spells (`_draw_side`), depend only on how many there are to draw from. The lab tries seeds until one
    draws its terrain, and a whole duel costs far more than this."""
    rng = RngState.first_step(seed, "immortals")
    for deck, spells in sizes:
        rng.sample(range(deck), UNITS_DRAWN)
        rng.sample(range(spells), min(SPELLS_DRAWN, spells))
    return rng.choice(TERRAINS)


def _side(state: ImmortalsState, seat: int, choice: Choose) -> Side:
    """`seat`'s unit and spell for the round (`apply` checked the choice)."""
    for unit in state.units[seat]:
        if unit.uid == choice.unit:
            break
    spell = None
    if choice.spell is not None:
        for spell in state.spells[seat]:
            if spell.sid == choice.spell:
                break
    return Side(unit, spell)


class ImmortalsEngine:
    name: ClassVar[str] = "immortals"
    setup_error: ClassVar[type[DomainError]] = ImmortalsSetupError
    max_steps: ClassVar[int] = 2 * ROUNDS

    # --- setting up -----------------------------------------------------------------------------------

    def new_game(
        self, players: Sequence[PlayerSetup], seed: int, options: Mapping[str, Any]
    ) -> ImmortalsState:
        if sorted(p.seat for p in players) != [0, 1]:
            raise ImmortalsSetupError(reason="two_players")
        catalog = options.get(CATALOG_OPTION)
        if not isinstance(catalog, ImmortalsCatalog):
            raise ImmortalsSetupError(reason="catalog")
        terrain = options.get("terrain")
        if terrain is not None and terrain not in TERRAINS:
            raise ImmortalsSetupError(reason="terrain")
        by_seat = sorted(players, key=lambda p: p.seat)
        rng, rng_state = RngState.from_seed(seed, "immortals").advance()
        sides = [_draw_side(p, catalog, rng) for p in by_seat]
        if terrain is None:  # after the sides' draws, as `drawn_terrain` replays them
            terrain = rng.choice(TERRAINS)
        units = (sides[0][0], sides[1][0])
        engager, totals = engage_order(units, rng)
        return ImmortalsState(
            player_ids=(by_seat[0].player_id, by_seat[1].player_id),
            terrain=terrain,
            engager=engager,
            engage_totals=totals,
            units=units,
            spells=(sides[0][1], sides[1][1]),
            rng=rng_state,
        )

    # --- turns ----------------------------------------------------------------------------------------

    def current_players(self, state: ImmortalsState) -> list[int]:
        seat = seat_to_act(state)
        return [] if seat is None else [seat]

    def legal_actions(self, state: ImmortalsState, player: int) -> list[Choose]:
        if player not in self.current_players(state):
            return []
        spells = [None, *(s.sid for s in spells_left(state, player))]
        return [Choose(unit=u.uid, spell=s) for u in units_left(state, player) for s in spells]

    def is_legal(self, state: ImmortalsState, player: int, action: ImmortalsAction) -> bool:
        if not isinstance(action, Choose) or player != seat_to_act(state):
            return False
        unit, spell = action.unit, action.spell
        # Lists rather than `fought`/`cast` and `any(...)`: two sets and generators per move otherwise.
        history = state.history
        if unit not in [u.uid for u in state.units[player]] or unit in [
            r.fighters[player].uid for r in history
        ]:
            return False
        if spell is None:
            return True
        return spell in [s.sid for s in state.spells[player]] and spell not in [
            r.fighters[player].spell_sid for r in history
        ]

    def apply(
        self, state: ImmortalsState, player: int, action: ImmortalsAction
    ) -> tuple[ImmortalsState, list[Event]]:
        if not self.is_legal(state, player, action):
            raise IllegalAction("error.illegal_action", reason=self._why(state, player, action))
        other = state.pending[1 - player]
        if other is None:
            # The engaging seat's choice: public, the counter chooses knowing it.
            pending = (action, None) if player == 0 else (None, action)
            spell = _side(state, player, action).spell
            data = {
                "seat": player,
                "round": state.round,
                "unit": action.unit,
                "spell": action.spell,
                "spell_id": None if spell is None else spell.spell_id,
            }
            return evolve(state, {"pending": pending}), [Event("engaged", data)]
        # The counter resolves the round from `state`: no state in between with both choices.
        return self._resolve(state, (action, other) if player == 0 else (other, action))

    def _why(self, state: ImmortalsState, player: int, action: Any) -> str:
        if player != seat_to_act(state):
            return "not_your_turn"
        if not isinstance(action, Choose):
            return "unknown_action"
        if not any(u.uid == action.unit for u in units_left(state, player)):
            return "unit"
        return "spell"

    def _resolve(
        self, state: ImmortalsState, choices: tuple[Choose, Choose]
    ) -> tuple[ImmortalsState, list[Event]]:
        pair = (_side(state, 0, choices[0]), _side(state, 1, choices[1]))
        vitality = list(state.vitality)
        fighters = (
            numbers(0, pair, state.terrain, START_VITALITY - vitality[0]),
            numbers(1, pair, state.terrain, START_VITALITY - vitality[1]),
        )
        vitality[0] += fighters[0].healed
        vitality[1] += fighters[1].healed
        first = initiative(fighters, state.engager)
        rng, rng_state = state.rng.advance()
        winner, trace = fight(rng, fighters, first)
        damage = 0
        if winner is not None:
            damage = min(vitality[1 - winner], fighters[winner].power)
            vitality[1 - winner] -= damage
        sides = (fighter_fields(pair[0], fighters[0]), fighter_fields(pair[1], fighters[1]))
        fields = {
            "round": state.round,
            "fighters": (built(Fighter, sides[0]), built(Fighter, sides[1])),
            "initiative": first,
            "trace": trace,
            "winner": winner,
            "damage": damage,
            "vitality": (vitality[0], vitality[1]),
        }
        record = built(FightRecord, fields)
        update: dict[str, Any] = {
            "vitality": record.vitality,
            "pending": (None, None),
            "rng": rng_state,
            "history": (*state.history, record),
        }
        if winner is not None and vitality[1 - winner] == 0:
            update.update(finished=True, winner=winner, reason="ko")
        elif state.round == ROUNDS:
            decided = vitality[0] != vitality[1]
            update.update(
                finished=True,
                winner=(0 if vitality[0] > vitality[1] else 1) if decided else None,
                reason="vitality" if decided else "draw",
            )
        else:
            update["round"] = state.round + 1
        after = evolve(state, update)
        # The record's JSON form (what `record.model_dump(mode="json")` gives), from the fields at hand.
        data = {
            **fields,
            "fighters": [dict(sides[0]), dict(sides[1])],  # copies: each Fighter owns its dict
            "trace": [list(hp) for hp in trace],
            "vitality": list(vitality),
        }
        events = [Event("fight", data)]
        if after.finished:
            events.append(
                Event("ended", {"winner": after.winner, "reason": after.reason, "vitality": vitality})
            )
        return after, events

    # --- the end --------------------------------------------------------------------------------------

    def outcome(self, state: ImmortalsState) -> Outcome | None:
        if not state.finished:
            return None
        reason = f"immortals.outcome.{state.reason}"
        if state.winner is None:
            return Outcome(draw=True, scores=state.vitality, reason=reason)
        return Outcome(winners=(state.winner,), scores=state.vitality, reason=reason)

    # --- what each seat sees --------------------------------------------------------------------------

    def view(self, state: ImmortalsState, player: int) -> ImmortalsView:
        return view_of(state, player, self.current_players(state))

    def hidden_cards(self, state: ImmortalsState, player: int) -> set[str]:
        """The spells `player` drew and has not cast yet (the one it engaged with is public), and the
        token of a pending choice of its that is secret (a counter chosen before the engaging seat, only
        in a duel stored when both seats chose at once)."""
        if player not in (0, 1):
            return set()
        public = engaged(state) if player == state.engager else None
        hidden = {s.sid for s in spells_left(state, player)}
        if public is not None:
            hidden.discard(public.spell or "")
        elif state.pending[player] is not None:
            hidden.add(choice_token(state, player))
        return hidden

    # --- JSON -----------------------------------------------------------------------------------------

    def to_json(self, state: ImmortalsState) -> str:
        return state.model_dump_json()

    def from_json(self, raw: str) -> ImmortalsState:
        return ImmortalsState.model_validate_json(raw)

    def action_to_json(self, action: ImmortalsAction) -> Any:
        return {"kind": "choose", "unit": action.unit, "spell": action.spell}

    def action_from_json(self, raw: Any) -> ImmortalsAction:
        if not isinstance(raw, dict) or set(raw) != {"kind", "unit", "spell"} or raw["kind"] != "choose":
            raise InvalidAction("error.invalid_action", reason="bad_action")
        unit, spell = raw["unit"], raw["spell"]
        if not isinstance(unit, str) or not 1 <= len(unit) <= 64:
            raise InvalidAction("error.invalid_action", reason="bad_action")
        if spell is not None and (not isinstance(spell, str) or not 1 <= len(spell) <= 64):
            raise InvalidAction("error.invalid_action", reason="bad_action")
        return Choose(unit=unit, spell=spell)

    # --- tests, benchmarks, sandbox -------------------------------------------------------------------

    def sample_setup(self, rng: random.Random, catalog: Any) -> Setup:
        if not isinstance(catalog, ImmortalsCatalog):
            raise ImmortalsSetupError(reason="catalog")
        players = tuple(sample_player(catalog, rng, seat) for seat in (0, 1))
        return Setup(players=players, options={CATALOG_OPTION: catalog})
