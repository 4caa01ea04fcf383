"""Randomness that lives in the game state, so a stored game resumes exactly and a replay is exact.

Scheme: seed + counter. A state holds an `RngState(seed, counter)` (two integers, tiny in JSON). Each
step that needs chance calls `state.rng.advance()`, which returns a fresh `random.Random` for that step
and the next `RngState`; the engine stores the latter in the new state. We chose this over storing
`Random.getstate()` (625 integers per state, rewritten at every step) because states are saved after
every action and shown in logs; re-seeding costs about 10 µs per step, well below anything else.

Seeds are derived with SHA-256 rather than `hash()`, which is salted per process (PYTHONHASHSEED) and
would make a game resumed after a restart draw different cards.

Python only promises that `Random.random()` keeps its sequence across versions; `shuffle`, `choice`,
`randrange` and `sample` have been stable for years but are not guaranteed. Stored states never depend
on this (they hold the results of past draws); only re-simulating a game from its seed and actions
across a Python upgrade could diverge.
"""

from __future__ import annotations

import _random
import hashlib
import random
from collections.abc import Callable
from json.encoder import encode_basestring_ascii

from pydantic import BaseModel, ConfigDict, Field

_MASK_63 = (1 << 63) - 1


def derive(seed: int, *labels: str | int) -> int:
    """A 63-bit seed from a parent seed and labels, e.g. `derive(game_seed, "shuffle", seat)`.

    Independent streams for independent purposes keep a rule change in one place from shifting every
    later draw. The encoding is JSON so `("a", 1)` and `("a1",)` never collide. The result fits a
    signed 64-bit SQLite integer.

    The payload is the text `json.dumps([seed, *labels], separators=(",", ":"), ensure_ascii=True)`
    writes, put together from the encoder's own pieces: `json.dumps` sets up an encoder per call, half
    the cost of a derivation, and engines derive one stream per step (an Immortal's War duel, five).
    """
    payload = "[" + ",".join([_json_int(seed), *map(_json_label, labels)]) + "]"
    return int.from_bytes(hashlib.sha256(payload.encode()).digest()[:8], "big") & _MASK_63


def _json_int(value: int) -> str:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"an rng seed must be an int, not {type(value).__name__}")
    return int.__repr__(value)  # what json writes for an int (an IntEnum included)


def _json_label(label: str | int) -> str:
    if isinstance(label, str):
        return encode_basestring_ascii(label)
    if isinstance(label, bool) or not isinstance(label, int):
        raise TypeError(f"rng labels must be str or int, not {type(label).__name__}")
    return int.__repr__(label)


class RngState(BaseModel):
    """The random stream of one game; a field of every state that uses chance."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seed: int
    counter: int = Field(default=0, ge=0)

    @classmethod
    def from_seed(cls, seed: int, *labels: str | int) -> RngState:
        """Start a stream; labels let one game seed feed several independent streams."""
        return cls(seed=derive(seed, *labels) if labels else seed)

    def advance(self) -> tuple[random.Random, RngState]:
        """A generator for the current step and the state to store for the next one.

        Forgetting to store the returned `RngState` makes the next step replay the same draws: always
        put it in the new state, even when you used only one number.
        """
        rng = random.Random(derive(self.seed, self.counter))
        return rng, RngState(seed=self.seed, counter=self.counter + 1)

    @staticmethod
    def first_step(seed: int, *labels: str | int) -> random.Random:
        """The generator `from_seed(seed, *labels).advance()` gives first, without building the two
        states: a caller that only replays a stream's first draws (the Immortal's War lab reads four
        candidate seeds' terrains a duel) keeps none of them."""
        return random.Random(derive(derive(seed, *labels) if labels else seed, 0))

    def advance_draws(self) -> tuple[Callable[[], float], RngState]:
        """`advance` for a step that only ever calls `random()`: the same draws, from the generator
        `random.Random` is built on. For an integer seed `random.Random`'s seeding only hands it down to
        that generator, and skipping its Python layer saves a third of a step's seeding (the HOSS
        look-aheads seed a stream per round they simulate)."""
        return _random.Random(derive(self.seed, self.counter)).random, RngState(
            seed=self.seed, counter=self.counter + 1
        )
