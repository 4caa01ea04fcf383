"""A pack's levels, experience and five skills (rulebook: "Pour chaque niveau, le pack obtient un point de
compétence"), as pure functions of the points: what each point of each skill gives, the XP a win earns
from the level difference, and the 5-level challenge window. The numbers are decisions (the rulebook
names the skills, not their effects): docs/dinocard/rules-notes.md, "Skills, levels and experience".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

MAX_LEVEL = 50
MAX_POINTS = MAX_LEVEL  # one point per level, so no skill can hold more
START_LIFE = 20
LIFE_PER_POINT = 2
BASE_DAILY = 2  # rulebook: "Chaque pack peut défier au minimum deux adversaires par jour"
MAX_STRATEGY = 10
MAX_BONUS = 10
CHALLENGE_WINDOW = 5  # rulebook: "au maximum 5 niveaux de plus que le vôtre"
XP_BASE = 10
XP_PER_LEVEL = 4
XP_MIN = 2


class Skills(BaseModel):
    """The points a pack spent in each skill; their sum is at most its level."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    daily: int = Field(default=0, ge=0, le=MAX_POINTS)  # Parties quotidiennes
    life: int = Field(default=0, ge=0, le=MAX_POINTS)  # Points de vie
    strategy: int = Field(default=0, ge=0, le=MAX_POINTS)  # Stratégie
    bonus: int = Field(default=0, ge=0, le=MAX_POINTS)  # Cartes bonus
    perception: int = Field(default=0, ge=0, le=MAX_POINTS)  # Perception

    @property
    def points(self) -> int:
        return self.daily + self.life + self.strategy + self.bonus + self.perception


def daily_challenges(skills: Skills) -> int:
    """Challenges a pack may launch per day: two, and one more per point of « Parties quotidiennes »."""
    return BASE_DAILY + skills.daily


def start_life(skills: Skills) -> int:
    """Life at the start of a battle: 20, and 2 more per point of « Points de vie »."""
    return START_LIFE + LIFE_PER_POINT * skills.life


def kept_on_top(skills: Skills) -> int:
    """« Stratégie »: the first N cards of the pack, as the player ordered them, are not shuffled but drawn
    first in that order (N = the points, at most 10); the rest of the pack is shuffled below them."""
    return min(skills.strategy, MAX_STRATEGY)


def bonus_cards(skills: Skills) -> int:
    """« Cartes bonus »: how many cards of the collection may be added to the pack for one challenge."""
    return min(skills.bonus, MAX_BONUS)


def perceived(
    skills: Skills, pack: Sequence[str], kinds: dict[str, tuple[str, str, str]]
) -> dict[str, object]:
    """What « Perception » reveals of an opponent's pack before a challenge, by points (cumulative):

    0: its size; 1: its cards per element; 2: per type; 3: per rarity; 4: which distinct cards it holds
    (sorted ids, no counts); 5 and more: every card with its count. `kinds` maps a card id to its
    (element, type, rarity). Pure, so the preparation page and the tests see the same thing.
    """
    seen: dict[str, object] = {"size": len(pack)}
    for level, (key, field) in enumerate((("elements", 0), ("types", 1), ("rarities", 2)), start=1):
        if skills.perception >= level:
            seen[key] = dict(sorted(Counter(kinds[c][field] for c in pack).items()))
    if skills.perception >= 4:
        seen["cards"] = sorted(set(pack))
    if skills.perception >= 5:
        seen["counts"] = dict(sorted(Counter(pack).items()))
    return seen


def can_challenge(level: int, opponent_level: int) -> bool:
    """A pack may challenge any pack of at most 5 levels more than its own (and any lower one)."""
    return opponent_level <= level + CHALLENGE_WINDOW


def xp_for_win(level: int, opponent_level: int) -> int:
    """XP a win earns: 10, 4 more per level the beaten pack has above the winner (4 less per level below),
    at least 2; 0 outside the challenge window (such a challenge cannot be launched)."""
    if not can_challenge(level, opponent_level):
        return 0
    return max(XP_MIN, XP_BASE + XP_PER_LEVEL * (opponent_level - level))


def xp_to_next(level: int) -> int:
    """The size of the experience bar at `level`: 30, and 10 more per level."""
    return 20 + 10 * level


def gain_xp(level: int, xp: int, gained: int) -> tuple[int, int]:
    """(level, xp) after a win. A full bar gives a level and the bar falls back to zero (rulebook: "sa barre
    retombe à zéro": XP beyond the bar is lost); nothing moves at the maximum level."""
    if level >= MAX_LEVEL:
        return MAX_LEVEL, 0
    xp += gained
    if xp >= xp_to_next(level):
        return level + 1, 0
    return level, xp
