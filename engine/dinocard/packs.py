"""Pack rules (rulebook: "Un pack est soumis à quelques règles"): 20 to 100 cards, at most 3 identical.

Pure functions the services call before saving a pack or launching a challenge, and that `new_game` and
the catalog's masters use: every problem is listed, so a refusal can name them all at once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass

PACK_MIN = 20
PACK_MAX = 100
MAX_COPIES = 3


@dataclass(frozen=True, slots=True)
class PackProblem:
    """`code`: too_small, too_large, too_many_copies, unknown_card or too_many_bonus; `card` and `count`
    say which card and how many (the pack's size for a size problem)."""

    code: str
    card: str = ""
    count: int = 0

    def describe(self) -> str:
        return f"{self.code} {self.card} {self.count}".replace("  ", " ").strip()


def pack_problems(pack: Sequence[str], known: Collection[str]) -> tuple[PackProblem, ...]:
    """Every reason `pack` (catalog ids, a card owned twice appearing twice) cannot be played; () if it can.

    Unknown cards come first in the order of the pack, then copies over the limit in the order each card
    first appears, then the size.
    """
    problems: list[PackProblem] = []
    counts = Counter(pack)
    problems += [PackProblem("unknown_card", card) for card in counts if card not in known]
    problems += [PackProblem("too_many_copies", c, n) for c, n in counts.items() if n > MAX_COPIES]
    if len(pack) < PACK_MIN:
        problems.append(PackProblem("too_small", count=len(pack)))
    if len(pack) > PACK_MAX:
        problems.append(PackProblem("too_large", count=len(pack)))
    return tuple(problems)


def bonus_problems(
    pack: Sequence[str], bonus: Sequence[str], allowed: int, known: Collection[str]
) -> tuple[PackProblem, ...]:
    """What is wrong with the bonus cards added for one challenge: at most `allowed` (the « Cartes bonus »
    skill, `skills.bonus_cards`), known cards, and still at most 3 identical cards with the pack's."""
    problems: list[PackProblem] = []
    problems += [PackProblem("unknown_card", card) for card in dict.fromkeys(bonus) if card not in known]
    if len(bonus) > allowed:
        problems.append(PackProblem("too_many_bonus", count=len(bonus)))
    counts = Counter(pack)
    counts.update(bonus)
    problems += [
        PackProblem("too_many_copies", c, counts[c]) for c in dict.fromkeys(bonus) if counts[c] > MAX_COPIES
    ]
    return tuple(problems)


def bonus_room(pack: Sequence[str], bonus: Sequence[str]) -> dict[str, int]:
    """How many more copies of each card of the pack or the bonus the bonus may take (0 for a card
    already at 3): at most 3 identical with the pack's, so a card in neither may take `MAX_COPIES`. What
    the preparation page offers to add."""
    counts = Counter(pack)
    counts.update(bonus)
    return {card: max(0, MAX_COPIES - n) for card, n in counts.items()}
