#!/usr/bin/env python3
"""Check a HOSS raffle draw, or an Arena season's opponent draws, from its published record, without the
bot or its database.

Usage: `python scripts/verify_raffle.py tombola-2026-01-05.txt` (the file `/hoss raffle verify` attaches),
or `python scripts/verify_raffle.py arene-2026-01-05.txt` (the file `/hoss arena verify` attaches).
Exit code 0 when the seed matches its commitment and the draws are the ones it gives (raffle: the ticket
list matches its digest and the winners the draw; Arena: every attack's defender is the one drawn among
its candidates); 1 otherwise; 2 when the file cannot be read. The algorithms are described in
engine/fair_draw.py, engine/hoss/arena_draws.py, docs/hoss/raffle.md and docs/hoss/arena.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.fair_draw import FairDrawError, Verdict, check_published, parse_published
from engine.hoss import parse_season, verify_season

MESSAGES = {
    "ok": "OK: the seed matches its commitment, the tickets their digest, and the winners the draw.",
    "commitment": "FAILED: the seed does not match the commitment published before the sales.",
    "digest": "FAILED: the ticket list does not match its published digest.",
    "winners": "FAILED: the winners are not the ones this seed and ticket list draw.",
    "opponents": "FAILED: an attack's defender is not the one this seed draws among its candidates.",
}
ARENA_OK = "OK: the seed matches its commitment, and every attack drew its defender among its candidates."


def check(text: str) -> tuple[Verdict, str]:
    """An Arena record has `attack` lines, a raffle record `entry` lines."""
    if any(line.startswith("attack ") for line in text.splitlines()):
        verdict = verify_season(parse_season(text))
        return verdict, ARENA_OK if verdict.ok else MESSAGES[verdict.reason]
    verdict = check_published(parse_published(text))
    return verdict, MESSAGES[verdict.reason]


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        verdict, message = check(Path(argv[1]).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, FairDrawError) as exc:
        print(f"Cannot check {argv[1]}: {exc}", file=sys.stderr)
        return 2
    print(message)
    return 0 if verdict.ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
