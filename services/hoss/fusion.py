"""HOSS fusion as a use case: load the selected copies, plan with the engine's rules, roll, write.

Everything happens in one write unit, so the plan is made on the copies as they are at that instant:
a copy sacrificed by a concurrent fusion is simply gone (`CardUnavailable`), and a copy can never be
sacrificed twice. The sacrificed copy leaves through `ledger.destroy_card` (a ledger row, refused for a
locked copy); the survivor's new star is an attribute change (`ledger.update_card_attrs`, no row).
A fusion request carries an idempotency key (the interaction id), so a double click runs it once and
returns the same outcomes. Rules: engine/hoss/fusion.py; decisions: docs/hoss/collection.md.
"""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from core.clock import Clock
from core.errors import BadInput, CardUnavailable, NotAllowed
from engine.hoss import (
    RARITIES,
    BuffCard,
    CreatureCard,
    FusionCopy,
    FusionNeedsConfirmation,
    FusionPlan,
    HossCatalog,
    Rarity,
    empty_selection_reason,
    fusion_selection,
    plan_fusion,
    roll,
)
from services.hoss.collection import OwnedCopy, face_down_ids, fusion_copy, visible_copies_of
from services.infra import ledger
from store.connection import Connection
from store.db import Database
from store.idempotency import once

GAME = "hoss"
FUSION_REASON = "hoss.fusion"  # the ledger reason of a sacrificed copy (also the label of that reason)


@dataclass(frozen=True)
class PlannedFusion:
    """One pair as the player sees it before confirming."""

    survivor_id: int
    sacrificed_id: int
    card: str
    target_stars: int
    chance_pct: int
    five_as_four: bool
    rarer_sacrificed: bool


@dataclass(frozen=True)
class FusionPreview:
    fusions: tuple[PlannedFusion, ...]
    confirmations: tuple[tuple[str, dict[str, Any]], ...]  # (message key, params) to confirm first

    @property
    def needs_confirmation(self) -> bool:
        return bool(self.confirmations)


@dataclass(frozen=True)
class FusionOutcome:
    survivor_id: int
    sacrificed_id: int
    card: str
    stars_before: int
    stars_after: int  # stars_before + 1 on success (the 5★-as-4★ survivor goes from 4★ to 5★)
    chance_pct: int
    success: bool


@dataclass(frozen=True)
class FusionResult:
    outcomes: tuple[FusionOutcome, ...]
    replayed: bool  # True when this idempotency key had already run: nothing new happened

    @property
    def successes(self) -> int:
        return sum(1 for o in self.outcomes if o.success)


@dataclass(frozen=True)
class FusionProposal:
    """What "fuse this card" selects now, the preview of that selection, and the card's visible copies."""

    ids: tuple[int, ...]
    preview: FusionPreview
    copies: tuple[OwnedCopy, ...]


def copy_attrs(raw: str) -> dict[str, Any]:
    """A copy's attributes with their defaults (a copy minted without them is a Basique 0★)."""
    attrs: dict[str, Any] = json.loads(raw or "{}")
    attrs.setdefault("rarity", "basique")
    attrs.setdefault("stars", 0)
    attrs.setdefault("holo", False)
    if attrs["rarity"] not in RARITIES:
        raise ValueError(f"copy with an unknown rarity: {attrs['rarity']!r}")
    return attrs


def _load(
    conn: Connection, player_id: int, card_ids: Sequence[int], known: frozenset[str]
) -> tuple[list[FusionCopy], dict[int, dict[str, Any]]]:
    """The selected copies, in selection order; a copy not owned (or no longer) is `CardUnavailable`, a copy
    still face down in an opening is refused."""
    unique = sorted(set(card_ids))
    rows: dict[int, sqlite3.Row] = {}
    for start in range(0, len(unique), 500):  # stay far below SQLite's bound-parameter limit
        chunk = unique[start : start + 500]
        marks = ",".join("?" * len(chunk))
        for row in conn.execute(
            f"SELECT id, card_key, attrs, locked_by FROM cards"
            f" WHERE game = ? AND owner_id = ? AND id IN ({marks})",
            (GAME, player_id, *chunk),
        ):
            rows[int(row["id"])] = row
    copies: list[FusionCopy] = []
    attrs_of: dict[int, dict[str, Any]] = {}
    hidden = face_down_ids(conn, player_id)
    for card_id in card_ids:
        row = rows.get(card_id)
        if row is None or row["card_key"] not in known:
            raise CardUnavailable(card=card_id)
        if card_id in hidden:  # the player has not seen it yet: flip it first (as for a sale)
            raise NotAllowed("hoss.error.card.face_down")
        attrs = attrs_of[card_id] = copy_attrs(row["attrs"])
        rarity: Rarity = attrs["rarity"]
        copies.append(
            FusionCopy(
                id=card_id,
                card=row["card_key"],
                rarity=rarity,
                stars=int(attrs["stars"]),
                holo=bool(attrs["holo"]),
                locked=row["locked_by"] is not None,
            )
        )
    return copies, attrs_of


def _preview(plan: FusionPlan) -> FusionPreview:
    fusions = tuple(
        PlannedFusion(
            survivor_id=p.survivor.id,
            sacrificed_id=p.sacrificed.id,
            card=p.survivor.card,
            target_stars=p.target_stars,
            chance_pct=p.chance_pct,
            five_as_four=p.five_as_four,
            rarer_sacrificed=p.rarer_sacrificed,
        )
        for p in plan.pairs
    )
    return FusionPreview(fusions, tuple(plan.confirmations))


def _result(written: tuple[Any, bool]) -> FusionResult:
    stored, fresh = written
    return FusionResult(tuple(FusionOutcome(**o) for o in stored), replayed=not fresh)


class FusionService:
    def __init__(self, db: Database, clock: Clock, catalog: HossCatalog, rng: random.Random) -> None:
        self.db = db
        self.clock = clock
        self.rng = rng
        self.known = catalog.ids()
        self.cards: dict[str, CreatureCard | BuffCard] = {card.id: card for card in catalog.cards}

    def _select(
        self, conn: Connection, player_id: int, card_id: str, level: str, required: bool = True
    ) -> tuple[list[OwnedCopy], list[int]]:
        """(the player's visible copies of `card_id`, the ids "fuse this card" at `level` selects among them,
        by engine.hoss.fusion's rules); when nothing is selected, refused with the reason if `required`."""
        copies = visible_copies_of(conn, self.cards, player_id, card_id)
        ids = fusion_selection([fusion_copy(c) for c in copies], level)
        if not ids and required:
            raise BadInput(empty_selection_reason(level))
        return copies, ids

    async def selection(
        self, player_id: int, card_id: str, level: str, *, required: bool = True
    ) -> list[int]:
        """The copy ids "fuse this card" selects now (level "a", "0".."4" or "f"), for `fuse`. When nothing
        fuses: `hoss.error.fuse.nothing` (or `hoss.error.fuse.no_five_as_four`), or [] if not `required`
        (a confirmation button then finds its preview stale)."""
        return await self.db.read(lambda conn: self._select(conn, player_id, card_id, level, required)[1])

    async def propose(self, player_id: int, card_id: str, level: str) -> FusionProposal:
        """`selection` and its `preview` in one read, with the card's visible copies for display."""

        def unit(conn: Connection) -> FusionProposal:
            copies, ids = self._select(conn, player_id, card_id, level)
            # the selected copies are among those just read, visible and owned: planned from them rather
            # than read again (the fusion's own unit loads and checks them again)
            by_id = {c.copy_id: fusion_copy(c) for c in copies}
            loaded = [by_id[i] for i in ids]
            return FusionProposal(tuple(ids), _preview(plan_fusion(loaded)), tuple(copies))

        return await self.db.read(unit)

    async def preview(self, player_id: int, card_ids: Sequence[int]) -> FusionPreview:
        """What `fuse` would do with this selection now: pairs, chances, what needs confirming.

        Raises the same `FusionError`s as `fuse`. Advisory: `fuse` plans again in its own unit.
        """
        ids = list(card_ids)

        def unit(conn: Connection) -> FusionPreview:
            copies, _ = _load(conn, player_id, ids, self.known)
            return _preview(plan_fusion(copies))

        return await self.db.read(unit)

    async def fuse(
        self, player_id: int, card_ids: Sequence[int], *, key: str | int, confirm: bool = False
    ) -> FusionResult:
        """Run every fusion of the selection at once, each with its own roll, in one write unit.

        `key` is the interaction id: a second call with the same key returns the first call's outcomes
        and changes nothing. Without `confirm`, a plan that needs confirmation (a 5★ standing in as a
        4★, or a rarer copy lost for a holo) raises `FusionNeedsConfirmation` and changes nothing.
        """
        ids = list(card_ids)
        now = self.clock.now()
        idem_key = f"hoss:fusion:{player_id}:{key}"

        def unit(conn: Connection) -> tuple[Any, bool]:
            return once(conn, idem_key, now, lambda: self._run(conn, now, player_id, ids, confirm, str(key)))

        return _result(await self.db.write(unit))

    async def fuse_shown(
        self,
        player_id: int,
        card_id: str,
        level: str,
        shown: Callable[[list[int]], bool],
        *,
        key: str | int,
        confirm: bool = False,
    ) -> FusionResult:
        """A preview's confirmation: select the copies "fuse this card" at `level` picks now and fuse them
        only if `shown(ids)` says they are exactly the previewed ones (else `hoss.error.fuse.stale`).

        The selection is made in the fusion's own write unit: a separate read before it cost the click a
        read of the copies, which the unit made again. Otherwise `fuse`, key and confirmation alike."""
        now = self.clock.now()
        idem_key = f"hoss:fusion:{player_id}:{key}"

        def unit(conn: Connection) -> tuple[Any, bool]:
            ids = self._select(conn, player_id, card_id, level, required=False)[1]
            if not shown(ids):
                raise NotAllowed("hoss.error.fuse.stale")
            return once(conn, idem_key, now, lambda: self._run(conn, now, player_id, ids, confirm, str(key)))

        return _result(await self.db.write(unit))

    def _run(
        self,
        conn: Connection,
        now: datetime,
        player_id: int,
        ids: list[int],
        confirm: bool,
        ref: str,
    ) -> list[dict[str, Any]]:
        copies, attrs_of = _load(conn, player_id, ids, self.known)
        plan = plan_fusion(copies)
        if plan.confirmations and not confirm:
            raise FusionNeedsConfirmation(plan)
        outcomes: list[dict[str, Any]] = []
        for pair in plan.pairs:
            success = roll(self.rng, pair.chance_pct)
            survivor, sacrificed = pair.survivor, pair.sacrificed
            why = ledger.Movement(FUSION_REASON, ref=f"{ref}:{survivor.id}")
            ledger.destroy_card(conn, now, sacrificed.id, player_id, why)
            if success:
                attrs = {**attrs_of[survivor.id], "stars": pair.target_stars}
                ledger.update_card_attrs(conn, survivor.id, player_id, attrs)
            outcome = FusionOutcome(
                survivor_id=survivor.id,
                sacrificed_id=sacrificed.id,
                card=survivor.card,
                stars_before=survivor.stars,
                stars_after=pair.target_stars if success else survivor.stars,
                chance_pct=pair.chance_pct,
                success=success,
            )
            outcomes.append(asdict(outcome))
        return outcomes
