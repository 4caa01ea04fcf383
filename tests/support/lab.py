"""The lab's service tests' helpers: an in-process stand-in for the process pool, and a fixed seed source."""

from __future__ import annotations

import random
from concurrent.futures import Executor, Future
from typing import Any

import pytest

from core.errors import DomainError
from discord_app.render import text
from services.community.lab.service import LabService
from services.community.lab.spec import LabRequest
from services.infra.messages import Text


class InlineExecutor(Executor):
    """Runs each call at once, in the caller."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:
            future.set_exception(exc)
        return future


class FixedSeed(random.Random):
    """A game service's seed source that gives one chosen seed: a lab's battle started again through the
    game's normal path."""

    def __init__(self, seed: int) -> None:
        super().__init__(0)
        self.lab_seed = seed

    def getrandbits(self, k: int, /) -> int:
        return self.lab_seed


def said(error: DomainError, locale: str = "fr") -> str:
    """A refusal as its reader reads it, with plain spaces (the catalog's typography put back)."""
    return text(Text(error.key, error.params), locale).replace("\u202f", " ").replace("\u00a0", " ")


Refusal = tuple[type[DomainError], LabRequest, str, str]  # what is raised, its key and words it says


async def refuses(lab: LabService, game: str, refusals: list[Refusal]) -> None:
    """Each request is refused with its key, saying its words in French, filled in English too."""
    for kind, request, key, words in refusals:
        with pytest.raises(kind) as raised:
            await lab.run(game, request)
        assert raised.value.key == key, request
        assert words in said(raised.value), said(raised.value)
        assert "{" not in said(raised.value, "en")
