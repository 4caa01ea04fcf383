"""What an Immortal's War choice's write unit runs (issue 39): the seat's earlier moves are read only to
word a refusal (a choice already made, a stale round), not for every choice."""

from __future__ import annotations

import pytest

from core.errors import NotAllowed
from services.immortals import ImmortalsServices
from store.db import Database
from tests.support.statements import trace_writes

pytestmark = pytest.mark.sqlite_only("the unit's statements counted by SQLite's trace callback")

GUILD, CHANNEL = 500, 600
ALICE, BOB = 11, 12
MOVES_READ = "SELECT seq, seat, action, author, data FROM match_moves"


async def test_a_choice_reads_the_seats_moves_only_to_refuse(
    services: ImmortalsServices, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    challenge = await services.duels.challenge(GUILD, CHANNEL, ALICE, BOB, key="c1")
    duel = await services.duels.answer(challenge.id, BOB, True, guild=GUILD)
    assert duel.state is not None
    first = duel.seats[duel.state.engager]
    assert first is not None
    statements = trace_writes(db, monkeypatch)
    await services.duels.choose(duel.id, first, 1, 0, None, guild=GUILD)
    assert not [s for s in statements if s.startswith(MOVES_READ)]
    with pytest.raises(NotAllowed) as again:  # a second click of the round: its choice stands
        await services.duels.choose(duel.id, first, 1, 0, None, guild=GUILD)
    assert again.value.key == "immortals.error.already_chosen"
    assert len([s for s in statements if s.startswith(MOVES_READ)]) == 1
