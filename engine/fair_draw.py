"""A commit–reveal draw that anyone can recompute from what the bot publishes.

Before sales open the bot publishes `commitment(seed)`; after they close it publishes the seed and the
ordered list of entries (tickets, or a season's matchmaking draws). The result is a pure function of the
seed and that list, so a player can check that the bot neither chose the seed after seeing the entries
nor changed the list afterwards.

The algorithm uses SHA-256 only, never Python's `random`, so it can be re-implemented in any language
from this description (docs/hoss/raffle.md states it step by step):

- `seed` is 32 bytes written as 64 lowercase hex characters; `commitment` is SHA-256 of those 32 bytes.
- `entries_digest` is SHA-256 of the entries joined with "\\n" (UTF-8), in hex.
- `uniform(seed, label, bound)`: for attempt 0, 1, ...: `x` = SHA-256(seed bytes ‖ UTF-8 of
  "<label>:<attempt>") read as a big-endian 256-bit integer; accept `x mod bound` when `x` is below the
  largest multiple of `bound` under 2^256 (rejection sampling: no modulo bias).
- `draw(seed, entries, k)`: a partial Fisher–Yates shuffle of the positions 0..n-1: for i in 0..k-1,
  `j = i + uniform(seed, "draw:<entries_digest>:<i>", n - i)`, swap positions i and j; the winners are
  the first k positions, in draw order. The digest in the label makes any change to the list change
  the draw, on top of the published digest no longer matching.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

SEED_BYTES = 32
_SPACE = 1 << 256


class FairDrawError(ValueError):
    """A seed, a commitment or a winner count that the draw cannot use (bad published data)."""


def seed_bytes(seed: str) -> bytes:
    """The 32 bytes a seed's hex text stands for; rejects anything else (a typo in a verification)."""
    try:
        raw = bytes.fromhex(seed)
    except ValueError as exc:
        raise FairDrawError("a seed is 64 hexadecimal characters") from exc
    if len(raw) != SEED_BYTES or seed != raw.hex():
        raise FairDrawError("a seed is 64 lowercase hexadecimal characters")
    return raw


def commitment(seed: str) -> str:
    """What the bot publishes before the draw: SHA-256 of the seed's bytes, in hex."""
    return hashlib.sha256(seed_bytes(seed)).hexdigest()


def entries_digest(entries: Sequence[str]) -> str:
    """A fingerprint of the ordered entry list, published with the result."""
    for entry in entries:
        if "\n" in entry:
            raise FairDrawError("an entry cannot contain a line break")
    return hashlib.sha256("\n".join(entries).encode()).hexdigest()


def uniform(seed: str, label: str, bound: int) -> int:
    """An integer in [0, bound) derived from the seed and a label, without modulo bias."""
    if bound < 1:
        raise FairDrawError("the bound of a draw must be at least 1")
    raw = seed_bytes(seed)
    limit = _SPACE - _SPACE % bound
    attempt = 0
    while True:
        digest = hashlib.sha256(raw + f"{label}:{attempt}".encode()).digest()
        value = int.from_bytes(digest, "big")
        if value < limit:
            return value % bound
        attempt += 1  # happens with probability below bound / 2^256


def draw(seed: str, entries: Sequence[str], count: int) -> list[int]:
    """The positions (in `entries`) of `count` distinct winners, in the order they were drawn."""
    n = len(entries)
    if not 0 <= count <= n:
        raise FairDrawError("cannot draw more winners than there are entries")
    digest = entries_digest(entries)
    positions = list(range(n))
    for i in range(count):
        j = i + uniform(seed, f"draw:{digest}:{i}", n - i)
        positions[i], positions[j] = positions[j], positions[i]
    return positions[:count]


@dataclass(frozen=True)
class Verdict:
    """The answer to "was this draw fair?", with the first reason it was not."""

    ok: bool
    reason: str  # "ok", "commitment", "digest" or "winners"


def verify(
    seed: str, published_commitment: str, entries: Sequence[str], digest: str, winners: Sequence[int]
) -> Verdict:
    """Recompute a published draw: the seed matches its commitment, the list its digest, the winners."""
    if commitment(seed) != published_commitment.lower():
        return Verdict(False, "commitment")
    if entries_digest(entries) != digest.lower():
        return Verdict(False, "digest")
    if draw(seed, entries, len(winners)) != list(winners):
        return Verdict(False, "winners")
    return Verdict(True, "ok")


# -- the published record, as a text file anyone can check ----------------------------------------------
#
# One field per line, `#` lines are comments:
#
#     commitment <64 hex>
#     seed <64 hex>
#     digest <64 hex>
#     winner <entry>          (one line per winner, in the order drawn)
#     entry <entry>           (one line per entry, in order)


@dataclass(frozen=True)
class Published:
    commitment: str
    seed: str
    digest: str
    winners: tuple[str, ...]
    entries: tuple[str, ...]


def format_published(published: Published, comments: Sequence[str] = ()) -> str:
    lines = [f"# {comment}" for comment in comments]
    lines += [f"commitment {published.commitment}", f"seed {published.seed}", f"digest {published.digest}"]
    lines += [f"winner {winner}" for winner in published.winners]
    lines += [f"entry {entry}" for entry in published.entries]
    return "\n".join(lines) + "\n"


def parse_published(text: str) -> Published:
    fields: dict[str, str] = {}
    winners: list[str] = []
    entries: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        name, _, value = line.partition(" ")
        if name in ("commitment", "seed", "digest") and name not in fields:
            fields[name] = value.strip()
        elif name == "winner":
            winners.append(value)
        elif name == "entry":
            entries.append(value)
        else:
            raise FairDrawError(f"line {number}: unexpected {name!r}")
    missing = [name for name in ("commitment", "seed", "digest") if name not in fields]
    if missing:
        raise FairDrawError(f"missing {', '.join(missing)}")
    return Published(fields["commitment"], fields["seed"], fields["digest"], tuple(winners), tuple(entries))


def check_published(published: Published) -> Verdict:
    """Recompute a published record; a winner that is not an entry is a wrong draw."""
    positions = {entry: i for i, entry in enumerate(published.entries)}
    if any(winner not in positions for winner in published.winners):
        return Verdict(False, "winners")
    chosen = [positions[winner] for winner in published.winners]
    return verify(published.seed, published.commitment, published.entries, published.digest, chosen)
