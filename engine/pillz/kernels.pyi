"""Types of engine/pillz/kernels.pyx (Cython: mypy reads this stub instead)."""

# a pair's figures (`rules.figures`)
Figures = tuple[int, int, int, int, int, int, int, int, int, int]

def before_last_values(
    pairs: list[Figures],
    keys: list[tuple[int, int, int, int, int, int, int]],
    bets: list[tuple[tuple[int, float], ...]],
    width: int,
    max_me: int,
    max_foe: int,
    lead: bool,
) -> list[list[float]]: ...
def evaluator_totals(
    figures: list[list[Figures]],
    kept_me: list[list[tuple[int, int]]],
    kept_foe: list[list[tuple[int, int]]],
    last: list[list[Figures]],
    bets: list[tuple[int, float]],
    position: tuple[int, int, int, int, int, int, int, int, int, int],
) -> list[list[float]]: ...
