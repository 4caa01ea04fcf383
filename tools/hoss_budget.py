"""The HOSS balance budget (docs/hoss/balance.md), shared by the catalog generator and the catalog test,
so the numbers the cards were fitted to and the numbers they are checked against are one set."""

from __future__ import annotations

from engine.hoss.catalog import CLASSES
from engine.hoss.rules import DODGE_BP

# Mean dodge of each class against the six attacking classes (rows of the rulebook's dodge table).
CLASS_DODGE = {cls: sum(row) / (len(row) * 10_000) for cls, row in zip(CLASSES, DODGE_BP, strict=True)}
# What one application of a status is worth, in hits of the card that applied it.
STATUS_WEIGHT = {
    "saignement": 0.6,
    "poison": 0.5,
    "embrasement": 0.45,
    "bris": 0.6,
    "gel": 0.5,
    "choc": 0.8,
    "confusion": 0.6,
}
HEAL_WEIGHT = 0.3  # a heal (10 % of an ally's missing PV) is worth about 0.3 of a hit
T1 = 850.0  # power budget of a Rang 1 attacker (DPS_eff x EHP)
D1 = 360.0  # protection budget of a Rang 1 Défenseur (EHP_def)
RANK_SCALE = {1: 1.0, 2: 1.6, 3: 2.4}  # per dimension (PV and DPS); power scales with its square
CLASS_FACTOR = {"lancier": 0.92, "archer": 1.05}
RACE_FACTOR = {"squelette": 0.93}
