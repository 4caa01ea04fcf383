"""Dinocard packs: decks of the player's own copies, with a level, experience and skill points.

A pack lists catalog ids in the player's order (the order « Stratégie » keeps on top) and holds one
physical copy per entry: each copy is locked to the pack in `cards.locked_by` (`dinocard:pack:<id>`)
through `ledger.set_card_lock`, whose UPDATE only takes an unlocked copy. So a copy is never in two
packs, and a sale, a fusion or a future trade, which all refuse a locked copy, cannot take it either.
Every change of a pack is one write unit: the rule check (`engine.dinocard.pack_problems`, plus the free
copies the player owns), the locks, and the row saved against the version read. Dissolving unlocks every
copy; the cards stay in the collection, the level and skill points are lost. Decisions:
docs/dinocard/economy.md.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from core.clock import to_db
from core.errors import BadInput, NotAllowed, NotFound
from core.message_guard import echo
from engine.dinocard import (
    MAX_COPIES,
    PACK_MAX,
    PACK_MIN,
    DinocardCard,
    Skills,
    daily_challenges,
    pack_problems,
)
from services.dinocard.economy import GAME_KEY, DinocardService
from services.infra import ledger
from services.infra.catalogs import fold
from services.infra.players import summary_changed
from services.shared.collecting import DeckInvalid, Problem
from services.shared.decks import DeckText
from services.shared.decks import parse_deck as shared_parse
from store.connection import Connection

LOCK_PREFIX = "dinocard:pack:"
NAME_MAX = 32
AUTO_SIZE = 30  # a pack built from an element: its first 30 free copies, at most 3 identical
SKILL_NAMES = ("daily", "life", "strategy", "bonus", "perception")
DECK_TEXT = DeckText(
    "dinocard.error.pack.unknown_card",
    "dinocard.error.pack.too_long",
    PACK_MAX,
    max_items=PACK_MAX + 20,
    counts=True,
)
PROBLEM_KEYS = {
    "too_small": "dinocard.pack.problem.too_small",
    "too_large": "dinocard.pack.problem.too_large",
    "too_many_copies": "dinocard.pack.problem.copies",
    "unknown_card": "dinocard.pack.problem.unknown",
}


def lock_of(pack_id: int) -> str:
    return f"{LOCK_PREFIX}{pack_id}"


def parse_cards(text: str, cards: Mapping[str, DinocardCard], locale: str | None = None) -> list[str]:
    """Ids or names separated by commas, each maybe followed by « x2 »; repeats kept for the checks; an
    unknown name is refused with the nearest names in `locale`."""
    return shared_parse(text, cards, DECK_TEXT, locale)


@dataclass(frozen=True)
class Pack:
    id: int
    owner_id: int
    name: str
    cards: tuple[str, ...]
    level: int
    xp: int
    skills: Skills
    wins: int
    losses: int
    daily_from: date
    status: str
    version: int

    @property
    def points_left(self) -> int:
        """One skill point per level (a new pack at level 1 has one)."""
        return self.level - self.skills.points


@dataclass(frozen=True)
class PackView:
    pack: Pack
    daily_left: int  # challenges it may still launch today (0 before `daily_from`)
    daily_total: int
    opens: date | None = None  # its first day of challenges, while it is still ahead


def _row(row: sqlite3.Row | tuple[object, ...]) -> Pack:
    (pid, owner, name, cards, level, xp, skills, wins, losses, daily_from, status, version) = row
    return Pack(
        id=int(str(pid)),
        owner_id=int(str(owner)),
        name=str(name),
        cards=tuple(json.loads(str(cards))),
        level=int(str(level)),
        xp=int(str(xp)),
        skills=Skills.model_validate(json.loads(str(skills))),
        wins=int(str(wins)),
        losses=int(str(losses)),
        daily_from=date.fromisoformat(str(daily_from)),
        status=str(status),
        version=int(str(version)),
    )


COLUMNS = "id, owner_id, name, cards, level, xp, skills, wins, losses, daily_from, status, version"


def pack_by_id(conn: Connection, pack_id: int) -> Pack | None:
    row = conn.execute(f"SELECT {COLUMNS} FROM dinocard_packs WHERE id = ?", (pack_id,)).fetchone()
    return None if row is None else _row(tuple(row))


def active_packs(conn: Connection, owner: int) -> list[Pack]:
    rows = conn.execute(
        f"SELECT {COLUMNS} FROM dinocard_packs WHERE owner_id = ? AND status = 'active' ORDER BY id", (owner,)
    ).fetchall()
    return [_row(tuple(r)) for r in rows]


def find_pack(conn: Connection, owner: int, ref: str) -> Pack:
    """The owner's active pack named by its number or its name (case and accents ignored); anyone else's,
    or a dissolved one, reads as unknown."""
    wanted = ref.strip().lstrip("#")
    if not wanted.isdigit():  # a name as written (no name is a number): the unique index finds it
        # Active names are unique per owner even folded (`create`), so the pack named exactly is the one
        # the folded comparison below would find; only another spelling pays a fold per pack.
        exact = conn.execute(
            f"SELECT {COLUMNS} FROM dinocard_packs WHERE owner_id = ? AND status = 'active' AND name = ?",
            (owner, wanted),
        ).fetchone()
        if exact is not None:
            return _row(tuple(exact))
    folded = fold(wanted)
    rows = conn.execute(
        "SELECT id, name FROM dinocard_packs WHERE owner_id = ? AND status = 'active' ORDER BY id", (owner,)
    ).fetchall()
    for pack_id, name in rows:  # only the pack named is read whole (a player may keep many)
        if wanted == str(pack_id) or folded == fold(str(name)):
            pack = pack_by_id(conn, int(pack_id))
            if pack is not None:
                return pack
    raise NotFound("dinocard.error.pack.not_found", pack=echo(ref, NAME_MAX))


def opponent_pack(conn: Connection, pack_id: int, challenger: int) -> Pack:
    """Another player's active pack, by its number (the challenger may not see inside it)."""
    pack = pack_by_id(conn, pack_id)
    if pack is None or pack.status != "active":
        raise NotFound("dinocard.error.pack.not_found", pack=str(pack_id))
    if pack.owner_id == challenger:
        raise BadInput("dinocard.error.challenge.own_pack")
    return pack


def free_counts(conn: Connection, owner: int) -> Counter[str]:
    """Copies the player owns that are in no pack (nor locked by anything else): counted from the index of
    the free copies alone (migration 0038, whose condition the statement repeats word for word)."""
    rows = conn.execute(
        "SELECT card_key, COUNT(*) FROM cards WHERE owner_id = ? AND game = 'dinocard' AND locked_by IS NULL"
        " GROUP BY card_key",
        (owner,),
    )
    return Counter({str(k): int(n) for k, n in rows})


def traded_counts(conn: Connection, owner: int) -> Counter[str]:
    """Copies the player owns that an open trade or gift holds: locked, but by no pack of theirs."""
    rows = conn.execute(
        "SELECT card_key, COUNT(*) FROM cards WHERE owner_id = ? AND game = ? AND locked_by IS NOT NULL"
        " AND locked_by NOT LIKE ? GROUP BY card_key",
        (owner, GAME_KEY, f"{LOCK_PREFIX}%"),
    )
    return Counter({str(k): int(n) for k, n in rows})


def shortages(
    wanted: Mapping[str, int],
    free: Mapping[str, int],
    traded: Mapping[str, int],
    known: Mapping[str, DinocardCard],
) -> list[Problem]:
    """A problem per card asked more often than the player has free copies: held by a trade when one
    holds some (« dans un échange »: a copy may come back), else only in their packs (« hors packs »)."""
    found: list[Problem] = []
    for card, count in wanted.items():
        left = free.get(card, 0)
        if card not in known or left >= count:
            continue
        params: dict[str, object] = {"card": card, "count": count, "free": left}
        if traded.get(card, 0):
            found.append(Problem("dinocard.pack.problem.copies_traded", params | {"traded": traded[card]}))
        else:
            found.append(Problem("dinocard.pack.problem.copies_free", params))
    return found


def problems(
    cards: Sequence[str],
    free: Mapping[str, int],
    known: Mapping[str, DinocardCard],
    traded: Mapping[str, int] | None = None,
) -> list[Problem]:
    """Every reason `cards` cannot be a pack of a player with `free` unlocked copies and `traded` copies
    an open trade holds (rulebook's rules: 20 to 100 cards, at most 3 identical, a copy in one pack only,
    « ni dans un autre pack ni en cours d'échange »)."""
    found: list[Problem] = []
    for problem in pack_problems(cards, set(known)):
        params: dict[str, object] = {"count": problem.count}
        if problem.card:
            params["card"] = problem.card
        params |= {"too_small": {"minimum": PACK_MIN}, "too_large": {"maximum": PACK_MAX}}.get(
            problem.code, {}
        )
        params |= {"maximum": MAX_COPIES} if problem.code == "too_many_copies" else {}
        found.append(Problem(PROBLEM_KEYS[problem.code], params))
    return found + shortages(Counter(cards), free, traded or {}, known)


def lock_copies(conn: Connection, owner: int, cards: Mapping[str, int], lock: str) -> None:
    """Lock `cards[key]` free copies of each card to `lock` (the checks ran: a copy taken meanwhile makes
    `set_card_lock` refuse, and the whole unit rolls back)."""
    for key, count in sorted(cards.items()):
        if count <= 0:
            continue
        ids = [
            int(r[0])
            for r in conn.execute(
                "SELECT id FROM cards WHERE owner_id = ? AND game = ? AND card_key = ? AND locked_by IS NULL"
                " ORDER BY id LIMIT ?",
                (owner, GAME_KEY, key, count),
            )
        ]
        ledger.set_card_lock(conn, ids, owner, lock)


def unlock_copies(conn: Connection, owner: int, cards: Mapping[str, int], lock: str) -> None:
    for key, count in sorted(cards.items()):
        if count <= 0:
            continue
        ids = [
            int(r[0])
            for r in conn.execute(
                "SELECT id FROM cards WHERE owner_id = ? AND card_key = ? AND locked_by = ? ORDER BY id DESC LIMIT ?",
                (owner, key, lock, count),
            )
        ]
        ledger.set_card_lock(conn, ids, owner, None)


def save_pack(conn: Connection, now: datetime, pack: Pack, **changes: object) -> None:
    """Write `changes` if the pack is still at the version read and active; else the click was stale."""
    values = {k: json.dumps(v) if k == "cards" else v for k, v in changes.items()}
    if "skills" in changes:
        skills = changes["skills"]
        assert isinstance(skills, Skills)
        values["skills"] = skills.model_dump_json()
    columns = ", ".join(f"{k} = ?" for k in values)
    cursor = conn.execute(
        f"UPDATE dinocard_packs SET {columns}, version = version + 1, updated_at = ?"
        " WHERE id = ? AND version = ? AND status = 'active'",
        (*values.values(), to_db(now), pack.id, pack.version),
    )
    if cursor.rowcount != 1:
        raise NotAllowed("dinocard.error.pack.stale")
    summary_changed(conn, pack.owner_id)  # its level, or the pack gone from the count


def daily_used(conn: Connection, pack_id: int, day: date) -> int:
    row = conn.execute(
        "SELECT used FROM dinocard_launches WHERE pack_id = ? AND day = ?", (pack_id, day.isoformat())
    ).fetchone()
    return 0 if row is None else int(row[0])


def daily_left(conn: Connection, pack: Pack, day: date) -> int:
    if day < pack.daily_from:
        return 0
    return max(0, daily_challenges(pack.skills) - daily_used(conn, pack.id, day))


def use_daily(conn: Connection, pack: Pack, day: date) -> None:
    """Count one launched challenge for today; refused before the pack's first day or past its allowance
    (the increment itself is guarded, so two launches can never both take the last one)."""
    if day < pack.daily_from:
        raise NotAllowed("dinocard.error.challenge.new_pack", day=pack.daily_from.isoformat())
    allowed = daily_challenges(pack.skills)
    row = conn.execute(
        "INSERT INTO dinocard_launches (pack_id, day, used) VALUES (?, ?, 1) ON CONFLICT (pack_id, day)"
        " DO UPDATE SET used = dinocard_launches.used + 1 WHERE dinocard_launches.used < ? RETURNING used",
        (pack.id, day.isoformat(), allowed),
    ).fetchone()
    if row is None:
        raise NotAllowed("dinocard.error.challenge.no_daily", total=allowed)


def auto_cards(free: Mapping[str, int], known: Mapping[str, DinocardCard], element: str) -> list[str]:
    """A pack built for the player from their free copies of one element: cheapest first, then by id, at
    most 3 of each, 30 cards at most."""
    chosen = sorted(
        (k for k in free if k in known and known[k].element == element),
        key=lambda k: (known[k].cost.total, k),
    )
    cards: list[str] = []
    for key in chosen:
        cards += [key] * min(free[key], MAX_COPIES)
    return cards[:AUTO_SIZE]


class DinocardPacks(DinocardService):
    def _view(self, conn: Connection, pack: Pack, now: datetime) -> PackView:
        today = self.today(now)
        opens = pack.daily_from if today < pack.daily_from else None
        return PackView(pack, daily_left(conn, pack, today), daily_challenges(pack.skills), opens)

    async def create(
        self, owner: int, name: str, cards: Sequence[str] | None, element: str | None = None
    ) -> PackView:
        """A new pack from `cards` (ids in the player's order) or, without them, from the free copies of
        `element`. Its daily challenges start the next day."""
        clean = " ".join(name.split())[:NAME_MAX]
        if not clean or clean.isdigit():
            raise BadInput("dinocard.error.pack.name")
        if cards is None and element is None:
            raise BadInput("dinocard.error.pack.what")
        now = self.clock.now()

        def unit(conn: Connection) -> PackView:
            self.welcome(conn, now, owner)
            if any(fold(p.name) == fold(clean) for p in active_packs(conn, owner)):
                raise BadInput("dinocard.error.pack.name_taken", name=echo(clean, 100))
            free = free_counts(conn, owner)
            wanted = list(cards) if cards is not None else auto_cards(free, self.cards, str(element))
            found = problems(wanted, free, self.cards, traded_counts(conn, owner))
            if found:
                raise DeckInvalid(found)
            daily_from = self.today(now) + timedelta(days=1)
            row = conn.execute(
                "INSERT INTO dinocard_packs (owner_id, name, cards, daily_from, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                (owner, clean, json.dumps(wanted), daily_from.isoformat(), to_db(now), to_db(now)),
            ).fetchone()
            pack_id = int(row[0])
            summary_changed(conn, owner)
            lock_copies(conn, owner, Counter(wanted), lock_of(pack_id))
            pack = pack_by_id(conn, pack_id)
            assert pack is not None
            return self._view(conn, pack, now)

        return await self.db.write(unit)

    async def show(self, owner: int, ref: str) -> PackView:
        now = self.clock.now()

        def unit(conn: Connection) -> PackView:
            self.welcome(conn, now, owner)
            return self._view(conn, find_pack(conn, owner, ref), now)

        return await self.db.write(unit)

    async def mine(self, owner: int) -> list[PackView]:
        now = self.clock.now()

        def unit(conn: Connection) -> list[PackView]:
            self.welcome(conn, now, owner)
            return [self._view(conn, p, now) for p in active_packs(conn, owner)]

        return await self.db.write(unit)

    async def dissolve(self, owner: int, ref: str) -> Pack:
        """The pack is gone for good: its copies are unlocked (still in the collection), its levels and
        skill points are lost."""
        now = self.clock.now()

        def unit(conn: Connection) -> Pack:
            self.welcome(conn, now, owner)
            pack = find_pack(conn, owner, ref)
            save_pack(conn, now, pack, status="dissolved")
            unlock_copies(conn, owner, Counter(pack.cards), lock_of(pack.id))
            return pack

        return await self.db.write(unit)

    async def edit(
        self, owner: int, ref: str, add: Sequence[str] = (), remove: Sequence[str] = ()
    ) -> PackView:
        """Add cards at the end of the pack and/or remove some (the last copies of each), then check the
        whole pack again; the copies follow (locked or unlocked) in the same unit."""
        now = self.clock.now()

        def unit(conn: Connection) -> PackView:
            self.welcome(conn, now, owner)
            pack = find_pack(conn, owner, ref)
            cards = list(pack.cards)
            for card in remove:
                if card not in cards:
                    raise DeckInvalid([Problem("dinocard.pack.problem.not_in_pack", {"card": card})])
                del cards[len(cards) - 1 - cards[::-1].index(card)]
            cards += list(add)
            before, after = Counter(pack.cards), Counter(cards)
            free = free_counts(conn, owner) + before  # the pack's own copies stay available to it
            found = problems(cards, free, self.cards, traded_counts(conn, owner))
            if found:
                raise DeckInvalid(found)
            save_pack(conn, now, pack, cards=cards)
            unlock_copies(conn, owner, before - after, lock_of(pack.id))
            lock_copies(conn, owner, after - before, lock_of(pack.id))
            updated = pack_by_id(conn, pack.id)
            assert updated is not None
            return self._view(conn, updated, now)

        return await self.db.write(unit)

    async def spend(self, owner: int, ref: str, skill: str, points: int) -> PackView:
        """Spend skill points (one per level) in one of the five skills; points spent stay spent."""
        if skill not in SKILL_NAMES:
            raise BadInput("dinocard.error.skill.unknown")
        if isinstance(points, bool) or not 1 <= points <= 50:
            raise BadInput("dinocard.error.skill.points", maximum=50)
        now = self.clock.now()

        def unit(conn: Connection) -> PackView:
            self.welcome(conn, now, owner)
            pack = find_pack(conn, owner, ref)
            if points > pack.points_left:
                raise NotAllowed("dinocard.error.skill.not_enough", left=pack.points_left)
            skills = pack.skills.model_copy(update={skill: getattr(pack.skills, skill) + points})
            save_pack(conn, now, pack, skills=skills)
            updated = pack_by_id(conn, pack.id)
            assert updated is not None
            return self._view(conn, updated, now)

        return await self.db.write(unit)


def anonymise(conn: Connection, player_id: int, anonymous: int) -> None:
    """At a player's erasure, before the platform blanks the names they typed: their packs are dissolved
    (their copies are gone with the rest of their cards), so that two packs of one anonymous owner, both
    named "" then, do not meet under the active packs' unique name (docs/privacy.md)."""
    conn.execute(
        "UPDATE dinocard_packs SET status = 'dissolved' WHERE owner_id = ? AND status = 'active'",
        (player_id,),
    )
