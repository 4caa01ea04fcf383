"""Dinocard's side of the lab (`GameSpec.lab`, docs/lab.md): one of the player's packs against each dojo
master, or against one master, or against another of the player's own packs.

The pack is read as a dojo fight reads it (`find_pack`: the player's own active pack, by number or name;
anyone else's reads as unknown), with its skills and no bonus card; a master is the catalog's, locked or
not (the lab pays nothing and counts no victory).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.errors import BadInput
from engine.dinocard import DinocardCatalog, Master, lab_battles
from engine.protocol import PlayerSetup
from services.community.lab.spec import LabGame, LabJob, LabRequest, Opponent
from services.community.lab.stats import Outcome
from services.dinocard.packs import Pack, find_pack
from services.infra.messages import Text
from store.connection import Connection


def play(
    catalog: DinocardCatalog, pack: PlayerSetup, opponent: PlayerSetup, seeds: Sequence[int]
) -> list[Outcome]:
    """The worker's side: one battle per seed (engine/dinocard/lab.py)."""
    return [Outcome(b.won, b.lost, b.length, b.drawn) for b in lab_battles(catalog, pack, opponent, seeds)]


def setup(seat: int, player: int, cards: Sequence[str], skills: Any) -> PlayerSetup:
    """As the dojo builds a seat (services/dinocard/battles.py), without bonus cards."""
    return PlayerSetup(
        seat=seat, player_id=player, deck=tuple(cards), extra={"skills": skills.model_dump(), "bonus": []}
    )


def _named(name: Any) -> Text:
    return Text.per_locale({"fr": name.fr, "en": name.en})


def _master(master: Master, rank: int) -> Opponent:
    return Opponent(
        setup(1, 0, master.pack, master.skills),
        _named(master.name),
        Text("dinocard.lab.master_short", {"rank": rank}),
    )


async def prepare(services: Any, request: LabRequest) -> LabJob:
    battles = services.battles
    catalog: DinocardCatalog = battles.catalog
    if request.deck is None:
        raise BadInput("dinocard.lab.pack_needed")
    ref = str(request.deck)

    def unit(conn: Connection) -> tuple[Pack, Pack | None]:
        mine = find_pack(conn, request.player_id, ref)
        wanted = request.opponent
        if wanted is None or any(m.id == wanted for m in catalog.masters):
            return mine, None
        return mine, find_pack(conn, request.player_id, wanted)  # only the player's own packs

    mine, other = await battles.db.read(unit)
    masters = list(enumerate(catalog.masters, 1))
    if other is not None:
        opponents: tuple[Opponent, ...] = (
            Opponent(
                setup(1, request.player_id, other.cards, other.skills),
                Text("dinocard.lab.own_pack", {"pack": other.id, "name": Text.raw(other.name)}),
                Text("dinocard.lab.pack_short", {"pack": other.id}),
            ),
        )
    else:
        opponents = tuple(
            _master(m, rank) for rank, m in masters if request.opponent is None or m.id == request.opponent
        )
    deck = setup(0, request.player_id, mine.cards, mine.skills)
    names = {card.id: _named(card.name) for card in catalog.cards if card.id in set(mine.cards)}
    subject = Text("dinocard.lab.subject", {"pack": mine.id, "name": Text.raw(mine.name)})
    return LabJob(
        play, catalog, deck, opponents, subject, names, "dinocard.lab.phases", "dinocard.lab.presence"
    )


LAB = LabGame(prepare=prepare)
