"""HOSS TCG: creature lines that evolve, fighting in real time in five-second rounds.

The rules are the rulebook's (`../shared/rules/hoss-tcg.txt`); every decision where it is silent is in
docs/hoss/rules-notes.md. Map of the package:

- `rules.py` the rulebook's tables; `bonus.py` rarity/stars/holo, attack speed, Gel slowdown;
- `fighters.py` runtime creatures and sides; `targeting.py`, `defender.py`, `damage.py`, `statuses.py`
  one hit and its consequences; `battle.py` the round simulator; `flow.py` draws, evolution, pauses;
- `state.py` the serializable state at decision points; `convert.py` state <-> battle; `actions.py`
  decisions; `deck.py` setup validation; `log.py` the battle log;
- `engine.py` the platform protocol, `view.py` its typed views; `simulate.py` the fast path for AI policies and bulk runs;
  `sample.py` a small built-in catalog and random decks.

`__all__` is the game's public API: services, cogs and the sandbox import `engine.hoss` only, never one
of its modules (an import-linter contract in pyproject.toml fails the build otherwise). Tests may import
the modules.
"""

from engine.hoss.actions import ChoosePath, HossAction, Move, Pass, Place, Play, moves_of
from engine.hoss.ai import strong_policy
from engine.hoss.arena import (
    ARENA_MIN_RANK,
    REMATCH_COOLDOWN_MINUTES,
    SHOWN_FROM,
    TOP_PRIZES,
    WINDOW,
    ArenaResult,
    Settlement,
    Standing,
    incomplete_lines,
    opponents,
    rank,
    season_payouts,
    settle,
    shared_copies,
)
from engine.hoss.arena_draws import (
    DrawnAttack,
    SeasonRecord,
    drawn_opponent,
    format_season,
    parse_season,
    verify_season,
)
from engine.hoss.battle import Battle, Record
from engine.hoss.bonus import buff_strength_bp, copy_bonus_pm
from engine.hoss.boosters import CARDS_PER_BOOSTER, TIERS, BoosterPool, DrawnCard, draw_booster
from engine.hoss.catalog import (
    ATTACKING_CLASSES,
    CLASSES,
    RACES,
    RARITIES,
    BuffCard,
    CreatureCard,
    HossCatalog,
    Race,
    Rarity,
)
from engine.hoss.convert import from_state, to_state
from engine.hoss.deck import (
    BUFFS_PER_DECK,
    LINES_PER_DECK,
    MAX_DEFENDER_LINES,
    HossSetupError,
    KnownCopies,
    bp,
    card_spec,
    parse_setup,
)
from engine.hoss.economy import (
    MAX_BOOSTERS_PER_PURCHASE,
    MIN_DISTINCT_RANK1,
    RACE_BOOSTER_UNLOCK_WINS,
    OddsTable,
    Selling,
    booster_price,
    floor_refusals,
    highest_unlocked_rank,
    odds_table,
    race_booster_unlocked,
    sale_price,
    unlocked_tiers,
)
from engine.hoss.engine import MOVE_PAUSES_OPTION, HossEngine, new_battle, start_parsed
from engine.hoss.fighters import fighter_stats
from engine.hoss.fusion import (
    FusionCopy,
    FusionNeedsConfirmation,
    FusionPlan,
    empty_selection_reason,
    fusable,
    fusion_selection,
    plan_fusion,
    roll,
)
from engine.hoss.lab import lab_battles, ranked_opponent
from engine.hoss.raffle import GOLD_PER_WINNER, TICKET_PRICE, RaffleSplit, split
from engine.hoss.ranks import (
    MAX_RANK,
    RANK_UNLOCK_WINS,
    RANKS,
    battle_reward,
    highest_unlocked,
    milestone_gold,
    opponent_setup,
    playable_ranks,
)
from engine.hoss.rules import BP, CLASS, ELEMENT, RACE, STATUSES
from engine.hoss.simulate import Policy
from engine.hoss.state import CardSpec, DeckSpec, HossState
from engine.hoss.view import HossView, SeatView

ENGINE = HossEngine()

__all__ = [
    "ARENA_MIN_RANK",
    "ATTACKING_CLASSES",
    "BP",
    "BUFFS_PER_DECK",
    "CARDS_PER_BOOSTER",
    "CLASS",
    "CLASSES",
    "ELEMENT",
    "ENGINE",
    "GOLD_PER_WINNER",
    "LINES_PER_DECK",
    "MAX_BOOSTERS_PER_PURCHASE",
    "MAX_DEFENDER_LINES",
    "MAX_RANK",
    "MIN_DISTINCT_RANK1",
    "MOVE_PAUSES_OPTION",
    "RACE",
    "RACES",
    "RACE_BOOSTER_UNLOCK_WINS",
    "RANKS",
    "RANK_UNLOCK_WINS",
    "RARITIES",
    "REMATCH_COOLDOWN_MINUTES",
    "SHOWN_FROM",
    "STATUSES",
    "TICKET_PRICE",
    "TIERS",
    "TOP_PRIZES",
    "WINDOW",
    "ArenaResult",
    "Battle",
    "BoosterPool",
    "BuffCard",
    "CardSpec",
    "ChoosePath",
    "CreatureCard",
    "DeckSpec",
    "DrawnAttack",
    "DrawnCard",
    "FusionCopy",
    "FusionNeedsConfirmation",
    "FusionPlan",
    "HossAction",
    "HossCatalog",
    "HossEngine",
    "HossSetupError",
    "HossState",
    "HossView",
    "KnownCopies",
    "Move",
    "OddsTable",
    "Pass",
    "Place",
    "Play",
    "Policy",
    "Race",
    "RaffleSplit",
    "Rarity",
    "Record",
    "SeasonRecord",
    "SeatView",
    "Selling",
    "Settlement",
    "Standing",
    "battle_reward",
    "booster_price",
    "bp",
    "buff_strength_bp",
    "card_spec",
    "copy_bonus_pm",
    "draw_booster",
    "drawn_opponent",
    "empty_selection_reason",
    "fighter_stats",
    "floor_refusals",
    "format_season",
    "from_state",
    "fusable",
    "fusion_selection",
    "highest_unlocked",
    "highest_unlocked_rank",
    "incomplete_lines",
    "lab_battles",
    "milestone_gold",
    "moves_of",
    "new_battle",
    "odds_table",
    "opponent_setup",
    "opponents",
    "parse_season",
    "parse_setup",
    "plan_fusion",
    "playable_ranks",
    "race_booster_unlocked",
    "rank",
    "ranked_opponent",
    "roll",
    "sale_price",
    "season_payouts",
    "settle",
    "shared_copies",
    "split",
    "start_parsed",
    "strong_policy",
    "to_state",
    "unlocked_tiers",
    "verify_season",
]
