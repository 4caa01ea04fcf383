#!/usr/bin/env python3
"""Check a HOSS raffle draw from its published record, without the bot or its database.

Usage: `python scripts/verify_raffle.py tombola-2026-01-05.txt` (the file `/hoss raffle verify` attaches).
Exit code 0 when the seed matches its commitment, the ticket list its digest and the winners the draw;
1 otherwise; 2 when the file cannot be read. The algorithm is described in engine/fair_draw.py and
docs/hoss/raffle.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.fair_draw import FairDrawError, check_published, parse_published

MESSAGES = {
    "ok": "OK: the seed matches its commitment, the tickets their digest, and the winners the draw.",
    "commitment": "FAILED: the seed does not match the commitment published before the sales.",
    "digest": "FAILED: the ticket list does not match its published digest.",
    "winners": "FAILED: the winners are not the ones this seed and ticket list draw.",
}


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        published = parse_published(Path(argv[1]).read_text(encoding="utf-8"))
        verdict = check_published(published)
    except (OSError, UnicodeDecodeError, FairDrawError) as exc:
        print(f"Cannot check {argv[1]}: {exc}", file=sys.stderr)
        return 2
    print(MESSAGES[verdict.reason])
    return 0 if verdict.ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
