"""Spells and recruits: the two uses of the game's currencies.

- Soul fragments (« Fragments d'âme ») teach a spell: any spell the player does not know yet, for
  `SPELL_PRICE` fragments. Every player knows the catalog's starter spells from sign-up.
- Gold recruits a unit: one random unit for `RECRUIT_PRICE` gold, its tier drawn by `RECRUIT_TIERS`
  (then a unit of that tier uniformly), minted through the ledger at level 1.

Both are one write unit: the guarded debit and what it buys together; a recruit runs once per
interaction (`purchase_once`), a spell cannot be learnt twice (the row's key). Decisions:
docs/immortals/economy.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.errors import BadInput, NotAllowed
from core.message_guard import echo
from engine.immortals import ImmortalsCard, ImmortalsSpell
from services.immortals.economy import (
    FRAGMENTS,
    FRAGMENTS_CURRENCY,
    GAME_KEY,
    GOLD_CURRENCY,
    ImmortalsService,
    known_spells,
    learn,
)
from services.infra import ledger
from services.infra.catalogs import fold
from services.shared.shop import mint_all, purchase_once
from store.connection import Connection

SPELL_PRICE = 10
RECRUIT_PRICE = 150
RECRUIT_TIERS = ((1, 70), (2, 25), (3, 5))  # (tier, weight in percent)
REASON_SPELL = "immortals.reason.spell"
REASON_RECRUIT = "immortals.reason.recruit"


@dataclass(frozen=True)
class SpellBook:
    known: tuple[ImmortalsSpell, ...]
    unknown: tuple[ImmortalsSpell, ...]
    fragments: int
    price: int = SPELL_PRICE


@dataclass(frozen=True)
class Recruit:
    copy_id: int
    card: ImmortalsCard
    gold: int  # left after paying
    replayed: bool


class ImmortalsSpells(ImmortalsService):
    def spell_of(self, value: str) -> ImmortalsSpell:
        """A spell from typed input: its id, or its name in either language (case and accents ignored)."""
        wanted = fold(value)
        for spell in self.catalog.spells:
            if value == spell.id or wanted in (fold(spell.id), fold(spell.name.fr), fold(spell.name.en)):
                return spell
        raise BadInput("immortals.error.spell_unknown", spell=echo(value, 64))

    async def book(self, player_id: int) -> SpellBook:
        now = self.clock.now()

        def unit(conn: Connection) -> SpellBook:
            self.welcome(conn, now, player_id)
            known = set(known_spells(conn, player_id, self.catalog))
            return SpellBook(
                tuple(s for s in self.catalog.spells if s.id in known),
                tuple(s for s in self.catalog.spells if s.id not in known),
                ledger.balance(conn, player_id, FRAGMENTS),
            )

        return await self.db.write(unit)

    async def learn(self, player_id: int, spell_id: str) -> tuple[ImmortalsSpell, int]:
        """Pay the fragments and learn the spell; refused when it is already known or not affordable.
        Returns the spell and the fragments left."""
        spell = self.spell_of(spell_id)
        now = self.clock.now()

        def unit(conn: Connection) -> tuple[ImmortalsSpell, int]:
            self.welcome(conn, now, player_id)
            if not learn(conn, now, player_id, spell.id):
                raise NotAllowed("immortals.error.spell_known")
            why = ledger.Movement(REASON_SPELL, ref=spell.id)
            left = ledger.debit(conn, now, player_id, FRAGMENTS_CURRENCY, SPELL_PRICE, why)
            return spell, left

        return await self.db.write(unit)

    async def recruit(self, player_id: int, *, key: str | int) -> Recruit:
        """One random unit for the price, once per interaction (a double click recruits once)."""
        now = self.clock.now()

        def unit(conn: Connection) -> Recruit:
            def purchase() -> dict[str, Any]:
                self.welcome(conn, now, player_id)
                why = ledger.Movement(REASON_RECRUIT, ref=str(key))
                left = ledger.debit(conn, now, player_id, GOLD_CURRENCY, RECRUIT_PRICE, why)
                pairs = mint_all(conn, now, player_id, GAME_KEY, [self._draw()], why)
                return {"player": player_id, "copies": pairs, "gold": left}

            stored, replayed = purchase_once(conn, now, player_id, f"immortals:recruit:{key}", purchase)
            ((copy_id, card_id),) = stored["copies"]
            return Recruit(int(copy_id), self.cards[card_id], int(stored["gold"]), replayed)

        return await self.db.write(unit)

    def _draw(self) -> str:
        tiers = [t for t, _ in RECRUIT_TIERS]
        tier = self.rng.choices(tiers, weights=[w for _, w in RECRUIT_TIERS])[0]
        pool = sorted(c.id for c in self.catalog.cards if c.tier == tier)
        return self.rng.choice(pool)
