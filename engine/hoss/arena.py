"""The Arena's rules on plain values (« L'Arène »): registration, the points table, matchmaking, ranking
and the weekly payout. Services read the database and the clock and call these.

Every number is the rulebook's; decisions where it is silent are in docs/hoss/arena.md:

- a tie pays each side the smaller of its two amounts (attacker 5 gold, defender 1) and changes no
  points;
- ranking ties in points are broken by more attacks won this season, then by who reached their points
  first, then by the smaller player id (a last resort that is arbitrary but fixed);
- at the ends of the ranking the window is cut, not widened: the leader draws among the 30 below only;
- the two registered decks may not share a physical copy (the same collection row), whatever its card.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

ARENA_MIN_RANK = 5  # « Dès le Rang 5, l'Arène s'ouvre »
ARENA_DECKS = 2  # « deux decks de 6 lignes complètes (Rang 1, 2 et 3) et 2 buffs »
WINDOW = 30  # « parmi les 30 au-dessus et les 30 en dessous de toi au classement »
REMATCH_COOLDOWN_MINUTES = 60  # « mais pas deux fois le même dans l'heure »
SHOWN_FROM = 2  # « s'affiche dès que 2 joueurs sont inscrits »
TOP_PRIZES = (3_000, 2_000, 1_500, 1_000, 1_000, 600, 600, 600, 600, 600)  # « du 6e au 10e »
PARTICIPATION_GOLD = 150  # « les autres participants touchent 150 or de participation »


class ArenaResult(StrEnum):
    """A battle's result from the attacker's side; an abandoned battle is a `LOSS`."""

    WIN = "win"
    LOSS = "loss"
    TIE = "tie"


@dataclass(frozen=True)
class Award:
    points: int
    gold: int


# (attacker, defender) for each result: the rulebook's table, and the tie decided above.
AWARDS: Mapping[ArenaResult, tuple[Award, Award]] = {
    ArenaResult.WIN: (Award(points=2, gold=50), Award(points=-1, gold=1)),
    ArenaResult.LOSS: (Award(points=-1, gold=5), Award(points=1, gold=10)),
    ArenaResult.TIE: (Award(points=0, gold=5), Award(points=0, gold=1)),
}


@dataclass(frozen=True)
class Settlement:
    """Both players' points after a battle and the gold each is paid."""

    attacker_points: int
    defender_points: int
    attacker_gold: int
    defender_gold: int


def settle(attacker_points: int, defender_points: int, result: ArenaResult) -> Settlement:
    """Apply the points table; « Personne ne descend sous 0 point »."""
    attacker, defender = AWARDS[result]
    return Settlement(
        attacker_points=max(0, attacker_points + attacker.points),
        defender_points=max(0, defender_points + defender.points),
        attacker_gold=attacker.gold,
        defender_gold=defender.gold,
    )


@dataclass(frozen=True)
class Standing:
    """One registered player's season so far; `reached_at` orders who got to their points first (any
    increasing number: the service stores the time of the last points change, or of registration)."""

    player_id: int
    points: int
    attack_wins: int
    reached_at: int


def ranking_key(standing: Standing) -> tuple[int, int, int, int]:
    return (-standing.points, -standing.attack_wins, standing.reached_at, standing.player_id)


def rank(standings: Collection[Standing]) -> list[Standing]:
    """The season's ranking, first place first, every tie broken (see the module's decisions)."""
    return sorted(standings, key=ranking_key)


def opponents(ranking: Sequence[int], attacker: int, recent: Collection[int]) -> list[int]:
    """Who `attacker` may draw: up to 30 above and 30 below in `ranking` (player ids, first place
    first), less those they attacked within the hour (`recent`), in ranking order."""
    try:
        place = ranking.index(attacker)
    except ValueError:
        raise ValueError("the attacker is not in the ranking") from None
    window = [*ranking[max(0, place - WINDOW) : place], *ranking[place + 1 : place + 1 + WINDOW]]
    return [player for player in window if player not in recent]


def season_payouts(ranking: Sequence[int]) -> list[tuple[int, int]]:
    """(player id, gold) for every participant at Sunday midnight, in ranking order."""
    return [
        (player, TOP_PRIZES[place] if place < len(TOP_PRIZES) else PARTICIPATION_GOLD)
        for place, player in enumerate(ranking)
    ]


def shared_copies(first: Collection[int], second: Collection[int]) -> set[int]:
    """The physical copies (collection row ids) both decks use; registration needs none."""
    return set(first) & set(second)


COMPLETE_LINE = frozenset({1, 2, 3})  # « 6 lignes complètes (Rang 1, 2 et 3) »


def incomplete_lines(ranks_per_line: Sequence[Collection[int]]) -> list[int]:
    """Positions of the lines that do not own a Rang 1, a Rang 2 and a Rang 3 copy."""
    return [i for i, ranks in enumerate(ranks_per_line) if not set(ranks) >= COMPLETE_LINE]
