"""The Arena's opponent draws, checkable by anyone once the season is over (the raffle's scheme,
engine/fair_draw.py, applied to matchmaking).

At its opening a season publishes the commitment to a secret seed (in the ranking post and the
registration reply). Each attack draws its defender with `fair_draw.uniform(seed, "arena:<attacker>:<n>",
len(candidates))` among its recorded candidates (the matchmaking window of the last hourly ranking, less
the last hour's opponents, in ranking order). At the close the seed is revealed, and the season's record
lists every attack: with it, anyone recomputes each draw.

The record is a text file, one field per line, `#` lines are comments:

    commitment <64 hex>
    seed <64 hex>
    attack <attacker> <n> <defender> <candidate>,<candidate>,...   (one line per attack, in order)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine import fair_draw


def attack_label(attacker: int, number: int) -> str:
    """The label of the `number`-th attack of `attacker` in a season (numbers start at 1)."""
    return f"arena:{attacker}:{number}"


def drawn_opponent(seed: str, attacker: int, number: int, candidates: Sequence[int]) -> int:
    """Whom that attack draws among its candidates (uniform, no modulo bias)."""
    return candidates[fair_draw.uniform(seed, attack_label(attacker, number), len(candidates))]


@dataclass(frozen=True)
class DrawnAttack:
    attacker: int
    number: int
    defender: int
    candidates: tuple[int, ...]


@dataclass(frozen=True)
class SeasonRecord:
    commitment: str
    seed: str
    attacks: tuple[DrawnAttack, ...]


def verify_season(record: SeasonRecord) -> fair_draw.Verdict:
    """The seed matches the published commitment, and every attack drew the defender it names; the first
    failure is the reason ("commitment" or "opponents")."""
    if fair_draw.commitment(record.seed) != record.commitment.lower():
        return fair_draw.Verdict(False, "commitment")
    for attack in record.attacks:
        if attack.defender not in attack.candidates or attack.defender != drawn_opponent(
            record.seed, attack.attacker, attack.number, attack.candidates
        ):
            return fair_draw.Verdict(False, "opponents")
    return fair_draw.Verdict(True, "ok")


def format_season(record: SeasonRecord, comments: Sequence[str] = ()) -> str:
    lines = [f"# {comment}" for comment in comments]
    lines += [f"commitment {record.commitment}", f"seed {record.seed}"]
    lines += [
        f"attack {a.attacker} {a.number} {a.defender} {','.join(str(c) for c in a.candidates)}"
        for a in record.attacks
    ]
    return "\n".join(lines) + "\n"


def _attack(number: int, value: str) -> DrawnAttack:
    parts = value.split()
    try:
        if len(parts) != 4:
            raise ValueError
        attacker, n, defender = int(parts[0]), int(parts[1]), int(parts[2])
        candidates = tuple(int(c) for c in parts[3].split(","))
    except ValueError:
        raise fair_draw.FairDrawError(
            f"line {number}: an attack is <attacker> <n> <defender> <candidates>"
        ) from None
    return DrawnAttack(attacker, n, defender, candidates)


def parse_season(text: str) -> SeasonRecord:
    fields: dict[str, str] = {}
    attacks: list[DrawnAttack] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        name, _, value = line.partition(" ")
        if name in ("commitment", "seed") and name not in fields:
            fields[name] = value.strip()
        elif name == "attack":
            attacks.append(_attack(number, value))
        else:
            raise fair_draw.FairDrawError(f"line {number}: unexpected {name!r}")
    missing = [name for name in ("commitment", "seed") if name not in fields]
    if missing:
        raise fair_draw.FairDrawError(f"missing {', '.join(missing)}")
    return SeasonRecord(fields["commitment"], fields["seed"], tuple(attacks))
