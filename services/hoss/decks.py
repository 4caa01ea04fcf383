"""HOSS decks: four named slots, the active one, validation with reasons, battle setups, deck locks.

A saved deck stores line ids and buff card ids, never copies: each line takes, at the moment it is
used, the best copy the player owns of each card of its family (rulebook, "Le deck"). So a fusion that
improves a copy improves every deck using it, and a card sold since saving can make a deck invalid;
`show` and `deck_setup` always re-check. Validation lists every reason (a `Problem`: message key and
params); saving an invalid deck raises `DeckInvalid` and writes nothing. The engine's `parse_setup`
runs last on every built setup, so a deck the service accepts is one the battle accepts.
Decisions: docs/hoss/collection.md.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from core.clock import Clock, to_db
from core.errors import DomainError, NotAllowed
from core.message_guard import echo
from engine.hoss import (
    BUFFS_PER_DECK,
    LINES_PER_DECK,
    MAX_DEFENDER_LINES,
    RARITIES,
    BuffCard,
    CreatureCard,
    HossCatalog,
    HossSetupError,
    Rarity,
    bp,
    buff_strength_bp,
    copy_bonus_pm,
    parse_setup,
)
from engine.protocol import PlayerSetup
from services.hoss.collection import CreatureStats, creature_stats, face_down_ids
from services.hoss.fusion import GAME, copy_attrs
from services.infra import ledger
from services.infra.games import GameRegistry
from services.infra.keyed_cache import KeyedCache
from services.infra.messages import Text
from services.infra.players import ensure_player
from services.shared.collecting import DeckInvalid, Problem
from services.shared.decks import active_slot
from store.connection import Connection
from store.db import Database, announce

DECK_SLOTS = 4
NAME_MAX = 32
STARTER_SLOT = 1  # where a new player's first deck is built

UNKNOWN_ECHO = 100  # what a refusal quotes of a line or buff the player typed
DECKS_TOPIC = "hoss:decks"  # announced with the player's id by every change of their decks or active slot
KEPT_SETUPS = 256  # players whose active deck's setup is kept


@dataclass(frozen=True)
class OwnedCopy:
    id: int
    card: str
    rarity: Rarity
    stars: int
    holo: bool
    locked_by: str | None

    @property
    def bonus_pm(self) -> int:
        return copy_bonus_pm(self.rarity, self.stars, self.holo)

    def raw(self) -> dict[str, Any]:
        return {"card": self.card, "rarity": self.rarity, "stars": self.stars, "holo": self.holo}


def best_order(copy: OwnedCopy) -> tuple[int, bool, int, int]:
    """Highest bonus; on a tie the holo, then the rarer, then the older copy (lower id): a new identical
    copy never displaces the one a deck already uses (and may have locked)."""
    return (copy.bonus_pm, copy.holo, RARITIES.index(copy.rarity), -copy.id)


@dataclass(frozen=True)
class RankView:
    rank: int
    copy: OwnedCopy  # the best copy owned of this card; its bonus is `copy.bonus_pm`
    stats: CreatureStats  # the collection's effective stats: the engine's own numbers, no synergy or buff


@dataclass(frozen=True)
class LineView:
    line: str
    race: str
    cls: str
    ranks: tuple[RankView, ...]  # Rang 1, owned Rang 2s, reachable Maîtres
    unreachable: tuple[str, ...]  # Maîtres owned without their Rang 2

    @property
    def copies(self) -> tuple[OwnedCopy, ...]:
        return tuple(r.copy for r in self.ranks)

    @property
    def stops_at(self) -> int:
        """The last rank this line can reach."""
        return max(r.rank for r in self.ranks)


@dataclass(frozen=True)
class BuffView:
    effect: str
    copy: OwnedCopy
    strength_bp: int  # the buff's power raised by its copy's bonus


@dataclass(frozen=True)
class DeckView:
    slot: int
    name: str
    active: bool
    lines: tuple[LineView, ...]  # the lines that can be built (an unowned or unknown one is a problem)
    buffs: tuple[BuffView, ...]
    problems: tuple[Problem, ...]
    locks: tuple[str, ...]  # lock names held by the copies the deck uses

    @property
    def valid(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class LockResult:
    locked: tuple[int, ...]  # every copy the lock now holds
    released: tuple[int, ...]  # copies it held before that the deck no longer uses


@dataclass(frozen=True)
class _Evaluation:
    lines: tuple[LineView, ...]
    buffs: tuple[BuffView, ...]
    problems: tuple[Problem, ...]

    @property
    def copies(self) -> tuple[OwnedCopy, ...]:
        return tuple(c for line in self.lines for c in line.copies) + tuple(b.copy for b in self.buffs)


def _check_slot(slot: int) -> None:
    if isinstance(slot, bool) or not isinstance(slot, int) or not 1 <= slot <= DECK_SLOTS:
        raise DomainError("hoss.error.deck.slot", maximum=DECK_SLOTS)


def seen_copies(conn: Connection, player_id: int) -> dict[str, list[OwnedCopy]]:
    """Every copy the player owns and has seen (a face-down copy is not used yet), by card, best first."""
    found: dict[str, list[OwnedCopy]] = {}
    hidden = face_down_ids(conn, player_id)
    rows = conn.execute(
        "SELECT id, card_key, attrs, locked_by FROM cards WHERE game = ? AND owner_id = ?", (GAME, player_id)
    )
    for row in rows:
        if row["id"] in hidden:
            continue
        attrs = copy_attrs(row["attrs"])
        copy = OwnedCopy(
            int(row["id"]), row["card_key"], attrs["rarity"], int(attrs["stars"]), bool(attrs["holo"]), row[3]
        )
        found.setdefault(copy.card, []).append(copy)
    for copies in found.values():
        copies.sort(key=best_order, reverse=True)
    return found


def _best_copies(conn: Connection, player_id: int) -> dict[str, OwnedCopy]:
    """The best copy of each card the player owns and has seen: the one every deck uses."""
    return {card: copies[0] for card, copies in seen_copies(conn, player_id).items()}


def lost_cards(problems: Sequence[Problem], slot: int) -> list[Problem]:
    """A saved deck checked again: a Rang 1 or a buff it names that the player no longer owns (traded,
    given, sold) is said missing from that slot's deck, with the commands that complete it."""
    renamed = {
        "hoss.error.deck.missing_rank1": "hoss.deck.problem.lost_rank1",
        "hoss.error.deck.buff_not_owned": "hoss.deck.problem.lost_buff",
    }
    return [Problem(renamed[p.key], {**p.params, "slot": slot}) if p.key in renamed else p for p in problems]


def _stored(conn: Connection, player_id: int, slot: int) -> tuple[str, list[str], list[str]]:
    row = conn.execute(
        "SELECT name, lines, buffs FROM hoss_decks WHERE player_id = ? AND slot = ?", (player_id, slot)
    ).fetchone()
    if row is None:
        raise DomainError("hoss.error.deck.empty_slot", slot=slot)
    return row["name"], json.loads(row["lines"]), json.loads(row["buffs"])


def _active_slot(conn: Connection, player_id: int) -> int | None:
    return active_slot(conn, "hoss_profiles", player_id)


def _activate(conn: Connection, player_id: int, slot: int) -> None:
    conn.execute(
        "INSERT INTO hoss_profiles (player_id, active_slot) VALUES (?, ?)"
        " ON CONFLICT (player_id) DO UPDATE SET active_slot = excluded.active_slot",
        (player_id, slot),
    )
    announce(conn, DECKS_TOPIC, str(player_id))


class DeckRules:
    """The deck rules over a catalog: which copies a deck uses and every reason it cannot play. Reads
    the connection it is given; `DeckService` adds the use cases."""

    def __init__(self, catalog: HossCatalog) -> None:
        self.catalog = catalog
        self.creatures = {c.id: c for c in catalog.cards if isinstance(c, CreatureCard)}
        self.buff_cards = {c.id: c for c in catalog.cards if isinstance(c, BuffCard)}
        self.first = {c.line: c for c in self.creatures.values() if c.rank == 1}
        self.children: dict[str, list[CreatureCard]] = {}
        for card in sorted(self.creatures.values(), key=lambda c: c.id):
            if card.parent is not None:
                self.children.setdefault(card.parent, []).append(card)

    # --- rules ----------------------------------------------------------------------------------------

    def _line(self, line: str, best: dict[str, OwnedCopy]) -> LineView | None:
        """The copies a line uses now, or None when its Rang 1 is not owned; it stops at the last rank owned."""
        first = self.first[line]
        if first.id not in best:
            return None
        seconds = [c for c in self.children.get(first.id, []) if c.id in best]
        thirds = [m for s in seconds for m in self.children.get(s.id, []) if m.id in best]
        masters = [m for s in self.children.get(first.id, []) for m in self.children.get(s.id, [])]
        unreachable = tuple(m.id for m in masters if m.id in best and m not in thirds)
        ranks = tuple(
            RankView(c.rank, best[c.id], creature_stats(c, best[c.id].bonus_pm))
            for c in (first, *seconds, *thirds)
        )
        return LineView(line, first.race, first.cls, ranks, unreachable)

    def _evaluate(
        self, player_id: int, lines: Sequence[str], buffs: Sequence[str], best: dict[str, OwnedCopy]
    ) -> _Evaluation:
        problems: list[Problem] = []

        def problem(key: str, **params: Any) -> None:
            problems.append(Problem(key, params))

        if len(lines) != LINES_PER_DECK:
            problem("hoss.error.deck.line_count", expected=LINES_PER_DECK, count=len(lines))
        built: list[LineView] = []
        defenders = 0
        for line, count in Counter(lines).items():
            if line not in self.first:
                problem("hoss.error.deck.unknown_line", line=echo(line, UNKNOWN_ECHO))
                continue
            if count > 1:
                problem("hoss.error.deck.duplicate_line", line=line)
            defenders += self.first[line].cls == "defenseur"
            resolved = self._line(line, best)
            if resolved is None:
                problem("hoss.error.deck.missing_rank1", line=line)
            else:
                built.append(resolved)
        if defenders > MAX_DEFENDER_LINES:
            problem("hoss.error.deck.too_many_defenders", maximum=MAX_DEFENDER_LINES, count=defenders)
        if len(buffs) != BUFFS_PER_DECK:
            problem("hoss.error.deck.buff_count", expected=BUFFS_PER_DECK, count=len(buffs))
        buff_views: list[BuffView] = []
        for buff, count in Counter(buffs).items():
            if buff not in self.buff_cards:
                problem("hoss.error.deck.unknown_buff", buff=echo(buff, UNKNOWN_ECHO))
                continue
            if count > 1:
                problem("hoss.error.deck.duplicate_buff", buff=buff)
            if buff in best:
                power = bp(self.buff_cards[buff].power)
                buff_views.append(
                    BuffView(
                        self.buff_cards[buff].effect, best[buff], buff_strength_bp(power, best[buff].bonus_pm)
                    )
                )
            else:
                problem("hoss.error.deck.buff_not_owned", buff=buff)
        if not problems:
            try:  # the engine has the last word: a deck we accept is a deck the battle accepts
                parse_setup(self._setup(player_id, built, buff_views), self.catalog)
            except HossSetupError as exc:
                problem(exc.key, **exc.params)
        return _Evaluation(tuple(built), tuple(buff_views), tuple(problems))

    def _setup(
        self, player_id: int, lines: Sequence[LineView], buffs: Sequence[BuffView], seat: int = 0
    ) -> PlayerSetup:
        """Exactly the `PlayerSetup.extra` of engine/hoss/deck.py, one (best) copy per card."""
        copies = [b.copy for b in buffs]
        extra = {
            "lines": [{"copies": [c.raw() for c in line.copies]} for line in lines],
            "buffs": [c.raw() for c in copies],
        }
        deck = tuple(c.card for line in lines for c in line.copies) + tuple(c.card for c in copies)
        return PlayerSetup(seat=seat, player_id=player_id, deck=deck, extra=extra)

    def copies_in_use(
        self, player_id: int, lines: Sequence[str], buffs: Sequence[str], best: dict[str, OwnedCopy]
    ) -> tuple[OwnedCopy, ...]:
        """The copies a deck plays with these best copies: every rank its lines reach, and its buffs."""
        return self._evaluate(player_id, lines, buffs, best).copies

    def named(self, problem: Problem) -> Text:
        """A deck problem for a message composed here: its line and buff named in every language."""
        params = dict(problem.params)
        for param, cards in (("line", self.first), ("buff", self.buff_cards)):
            card = cards.get(str(params.get(param, "")))
            if card is not None:
                params[param] = Text.per_locale({"fr": card.name.fr, "en": card.name.en})
        return Text(problem.key, params)

    def _view(self, conn: Connection, player_id: int, slot: int) -> DeckView:
        name, lines, buffs = _stored(conn, player_id, slot)
        evaluation = self._evaluate(player_id, lines, buffs, _best_copies(conn, player_id))
        problems = tuple(lost_cards(evaluation.problems, slot))
        locks = tuple(sorted({c.locked_by for c in evaluation.copies if c.locked_by is not None}))
        active = _active_slot(conn, player_id) == slot
        return DeckView(slot, name, active, evaluation.lines, evaluation.buffs, problems, locks)

    def _playable(self, conn: Connection, player_id: int, slot: int) -> _Evaluation:
        """The deck in `slot` as it can be played now; `DeckInvalid` with every reason otherwise."""
        _, lines, buffs = _stored(conn, player_id, slot)
        evaluation = self._evaluate(player_id, lines, buffs, _best_copies(conn, player_id))
        if evaluation.problems:
            raise DeckInvalid(lost_cards(evaluation.problems, slot))
        return evaluation

    def _best_deck(self, player_id: int, best: dict[str, OwnedCopy]) -> tuple[list[str], list[str]] | None:
        """The strongest valid deck the player's cards make, or None when they make none.

        Lines: the most ranks owned first, then the highest bonus of their copies, at most
        `MAX_DEFENDER_LINES` Defenders; buffs: the highest bonus, different effects first. The deck is
        then evaluated like any typed deck, so an auto deck is one `save` would accept."""

        def line_order(line: LineView) -> tuple[int, int, str]:
            return (len(line.ranks), sum(c.bonus_pm for c in line.copies), line.line)

        owned = [view for line in sorted(self.first) if (view := self._line(line, best)) is not None]
        lines: list[str] = []
        defenders = 0
        for view in sorted(owned, key=line_order, reverse=True):
            if view.cls == "defenseur" and defenders >= MAX_DEFENDER_LINES:
                continue
            defenders += view.cls == "defenseur"
            lines.append(view.line)
            if len(lines) == LINES_PER_DECK:
                break
        buffs: list[str] = []
        effects: set[str] = set()
        owned_buffs = sorted(
            (best[b] for b in self.buff_cards if b in best),
            key=lambda c: (best_order(c), c.card),
            reverse=True,
        )
        for distinct in (True, False):
            for copy in owned_buffs:
                effect = self.buff_cards[copy.card].effect
                if (
                    len(buffs) < BUFFS_PER_DECK
                    and copy.card not in buffs
                    and (effect not in effects or not distinct)
                ):
                    buffs.append(copy.card)
                    effects.add(effect)
        if self._evaluate(player_id, lines, buffs, best).problems:
            return None
        return lines, buffs


class DeckService(DeckRules):
    """The active deck's setup is kept per player between two ranked starts (`deck_setup`: 0.86 ms of the
    loop's CPU per start, each rank's stats worked out and the setup checked), until a copy of theirs
    changes (`ledger.CARDS_TOPIC`, a flip included) or their decks do (`DECKS_TOPIC`): the commit makes
    every process forget that player, so another process may use it a few milliseconds late, as the read
    before the start's unit always could."""

    def __init__(self, db: Database, clock: Clock, catalog: HossCatalog, *, registry: GameRegistry) -> None:
        self.registry = registry
        super().__init__(catalog)
        self.db = db
        self.clock = clock
        self.setups: KeyedCache[PlayerSetup] = KeyedCache(KEPT_SETUPS)
        for topic in (ledger.CARDS_TOPIC, DECKS_TOPIC):
            db.subscribe_keys(topic, self.setups.changed)

    def auto_in(self, conn: Connection, now: datetime, player_id: int, slot: int) -> bool:
        """Build the strongest valid deck into `slot` and make it active, inside the caller's unit; False
        (nothing written) when the player's cards make no valid deck."""
        deck = self._best_deck(player_id, _best_copies(conn, player_id))
        if deck is None:
            return False
        ensure_player(conn, player_id, now, self.registry)
        self.write_in(conn, now, player_id, slot, None, *deck)
        _activate(conn, player_id, slot)
        return True

    def starter_in(self, conn: Connection, now: datetime, player_id: int) -> int | None:
        """A new player's first deck, built for them as soon as their cards make one (the shop calls this
        after each card turned over): slot 1, active. Returns the slot when built by this call; None when
        the player already has a saved deck (theirs is never replaced) or their cards make none yet."""
        if conn.execute("SELECT 1 FROM hoss_decks WHERE player_id = ? LIMIT 1", (player_id,)).fetchone():
            return None
        return STARTER_SLOT if self.auto_in(conn, now, player_id, STARTER_SLOT) else None

    # --- use cases ------------------------------------------------------------------------------------

    async def auto(self, player_id: int, slot: int) -> DeckView:
        """`/hoss deck auto`: the strongest valid deck of the player's cards, saved in `slot` (replacing
        it) and made active; refused, saying what is missing, when the cards make none."""
        _check_slot(slot)
        now = self.clock.now()

        def unit(conn: Connection) -> DeckView:
            if not self.auto_in(conn, now, player_id, slot):
                best = _best_copies(conn, player_id)
                lines = sum(1 for line in self.first if self.first[line].id in best)
                buffs = sum(1 for b in self.buff_cards if b in best)
                raise DomainError(
                    "hoss.error.deck.auto_impossible",
                    lines=lines,
                    buffs=buffs,
                    needed_lines=LINES_PER_DECK,
                    needed_buffs=BUFFS_PER_DECK,
                )
            return self._view(conn, player_id, slot)

        return await self.db.write(unit)

    async def save(
        self, player_id: int, slot: int, name: str, lines: Sequence[str], buffs: Sequence[str]
    ) -> DeckView:
        """Validate against the cards owned now and store; an invalid deck raises `DeckInvalid`, nothing changes.

        Saving over a slot replaces it (saving twice is harmless, so no idempotency key is needed).
        """
        _check_slot(slot)
        clean = " ".join(str(name).split())
        if not 1 <= len(clean) <= NAME_MAX:
            raise DomainError("hoss.error.deck.name", maximum=NAME_MAX)
        lines, buffs = [str(x) for x in lines], [str(x) for x in buffs]
        now = self.clock.now()

        def unit(conn: Connection) -> DeckView:
            evaluation = self._evaluate(player_id, lines, buffs, _best_copies(conn, player_id))
            if evaluation.problems:
                raise DeckInvalid(evaluation.problems)
            ensure_player(conn, player_id, now, self.registry)
            self.write_in(conn, now, player_id, slot, clean, lines, buffs)
            if _active_slot(conn, player_id) is None:  # a player's only deck is the one they play
                _activate(conn, player_id, slot)
            return self._view(conn, player_id, slot)

        return await self.db.write(unit)

    def write_in(
        self,
        conn: Connection,
        now: datetime,
        player_id: int,
        slot: int,
        name: str | None,
        lines: Sequence[str],
        buffs: Sequence[str],
    ) -> None:
        """Store a slot as given, inside the caller's unit: `save` after its checks, and the Arena putting
        back the decks a player registered (which passed those checks when they were registered). No
        `name` keeps the slot's (or names a new one after its number)."""
        if name is None:
            row = conn.execute(
                "SELECT name FROM hoss_decks WHERE player_id = ? AND slot = ?", (player_id, slot)
            ).fetchone()
            name = str(row[0]) if row is not None else f"Deck {slot}"
        conn.execute(
            "INSERT INTO hoss_decks (player_id, slot, name, lines, buffs, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (player_id, slot) DO UPDATE SET"
            " name = excluded.name, lines = excluded.lines, buffs = excluded.buffs,"
            " updated_at = excluded.updated_at",
            (player_id, slot, name, json.dumps(list(lines)), json.dumps(list(buffs)), to_db(now)),
        )
        announce(conn, DECKS_TOPIC, str(player_id))

    async def delete(self, player_id: int, slot: int) -> bool:
        """Empty a slot (and forget it as the active deck); False when it was already empty."""
        _check_slot(slot)

        def unit(conn: Connection) -> bool:
            conn.execute(
                "UPDATE hoss_profiles SET active_slot = NULL WHERE player_id = ? AND active_slot = ?",
                (player_id, slot),
            )
            cursor = conn.execute(
                "DELETE FROM hoss_decks WHERE player_id = ? AND slot = ?", (player_id, slot)
            )
            announce(conn, DECKS_TOPIC, str(player_id))
            return cursor.rowcount == 1

        return await self.db.write(unit)

    async def show(self, player_id: int, slot: int) -> DeckView:
        """The deck with the copies it uses now, their bonus and stats, and whether it is still valid."""
        _check_slot(slot)
        return await self.db.read(lambda conn: self._view(conn, player_id, slot))

    async def decks(self, player_id: int) -> list[DeckView]:
        """Every saved deck, by slot, as `show` gives it (for choosing the active deck)."""

        def unit(conn: Connection) -> list[DeckView]:
            rows = conn.execute("SELECT slot FROM hoss_decks WHERE player_id = ? ORDER BY slot", (player_id,))
            return [self._view(conn, player_id, int(slot)) for (slot,) in rows.fetchall()]

        return await self.db.read(unit)

    async def set_active(self, player_id: int, slot: int) -> None:
        """Choose the deck to play. Any saved deck may be chosen; `deck_setup` says if it became invalid."""
        _check_slot(slot)
        now = self.clock.now()

        def unit(conn: Connection) -> None:
            _stored(conn, player_id, slot)
            ensure_player(conn, player_id, now, self.registry)
            _activate(conn, player_id, slot)

        await self.db.write(unit)

    async def deck_setup(self, player_id: int, slot: int | None = None, *, seat: int = 0) -> PlayerSetup:
        """The engine setup of a deck (the active one by default, kept: the class's doc) from the best
        copies owned now."""
        if slot is not None:
            _check_slot(slot)

        def unit(conn: Connection) -> PlayerSetup:
            chosen = slot if slot is not None else _active_slot(conn, player_id)
            if chosen is None:
                raise DomainError("hoss.error.deck.no_active")
            try:
                evaluation = self._playable(conn, player_id, chosen)
            except DeckInvalid as exc:  # every reason, named: the error handler shows one key's text
                reasons = Text.lines([self.named(p) for p in exc.problems])
                raise NotAllowed("hoss.error.deck.unplayable", slot=chosen, reasons=reasons) from exc
            return self._setup(player_id, evaluation.lines, evaluation.buffs, seat)

        if slot is None and seat == 0:
            return await self.setups.get_or_read(player_id, lambda: self.db.read(unit))
        return await self.db.read(unit)

    async def lock(self, player_id: int, slot: int, lock_name: str) -> LockResult:
        """Lock the copies the (valid) deck uses now under `lock_name`; locking again follows the deck.

        Copies already held by this lock and no longer used are released, so re-locking after a fusion
        or a new best copy moves the lock to the copies the deck really plays. A copy held by another
        lock is refused: two locked decks never share a copy.
        """
        _check_slot(slot)
        if not lock_name:
            raise ValueError("a lock needs a name")

        return await self.db.write(lambda conn: self.lock_in(conn, player_id, slot, lock_name))

    def lock_in(self, conn: Connection, player_id: int, slot: int, lock_name: str) -> LockResult:
        """`lock` inside the caller's write unit (the Arena locks both decks with its registration)."""
        evaluation = self._playable(conn, player_id, slot)
        for copy in evaluation.copies:
            if copy.locked_by not in (None, lock_name):
                raise DomainError("hoss.error.deck.locked_elsewhere", copy=copy.id)
        target = {c.id for c in evaluation.copies}
        held = set(self._held(conn, player_id, lock_name))
        ledger.set_card_lock(conn, sorted(held - target), player_id, None)
        ledger.set_card_lock(conn, sorted(target - held), player_id, lock_name)
        return LockResult(tuple(sorted(target)), tuple(sorted(held - target)))

    def playable_in(self, conn: Connection, player_id: int, slot: int) -> tuple[DeckView, PlayerSetup]:
        """The deck in `slot` as it plays now and its battle setup, inside the caller's unit; `DeckInvalid`
        with every reason otherwise."""
        evaluation = self._playable(conn, player_id, slot)
        return self._view(conn, player_id, slot), self._setup(player_id, evaluation.lines, evaluation.buffs)

    def release_in(self, conn: Connection, player_id: int, lock_name: str) -> tuple[int, ...]:
        held = self._held(conn, player_id, lock_name)
        ledger.set_card_lock(conn, held, player_id, None)
        return tuple(held)

    async def unlock(self, player_id: int, lock_name: str) -> tuple[int, ...]:
        """Release every copy of the player held by `lock_name`; returns their ids."""

        return await self.db.write(lambda conn: self.release_in(conn, player_id, lock_name))

    @staticmethod
    def _held(conn: Connection, player_id: int, lock_name: str) -> list[int]:
        rows = conn.execute(
            "SELECT id FROM cards WHERE game = ? AND owner_id = ? AND locked_by = ? ORDER BY id",
            (GAME, player_id, lock_name),
        )
        return [int(r[0]) for r in rows]
