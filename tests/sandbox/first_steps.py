"""Running a game's first-steps example (examples/first_steps_<game>.txt) as a reader runs it, with what
every such example shows: /help's start page and the game's welcome, once per player (alice's at least). Each game's own test
(tests/sandbox/test_first_steps.py for the first three, tests/e2e/<game>/ for the others) asserts its
own points on the text."""

from __future__ import annotations

import re
from pathlib import Path

from tests.sandbox.examples import EXAMPLES, seed_of, transcript


def example(game: str) -> Path:
    return EXAMPLES / f"first_steps_{game}.txt"


async def run(game: str) -> str:
    """The example run with the seed its first line names."""
    done = await transcript(example(game))
    text = done.text
    assert done.code == 0, text
    assert "Commencer ici: 1. Choisissez un jeu" in text
    welcomed = re.findall(r"\[(\w+) only\] \*\*Bienvenue dans", text)
    assert "alice" in welcomed
    assert len(welcomed) == len(set(welcomed)), welcomed  # once per player and game
    return text


def opened_entry(text: str, label: str, filename: str) -> str:
    """The private answer to « Voir une carte » (`select "label"`): it must carry the card's picture."""
    start = text.index(f'> alice: select "{label}"\n')
    end = text.find("\n> ", start + 1)
    answer = text[start : end if end >= 0 else len(text)]
    assert "[alice only]" in answer, answer
    assert f"[file: {filename}]" in answer, answer
    return answer


def order_of(text: str, *needles: str) -> list[int]:
    return [text.index(n) for n in needles]


__all__ = ["example", "opened_entry", "order_of", "run", "seed_of"]
