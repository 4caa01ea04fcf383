"""The battle log's compact event codes, shared by the simulator (`battle.py`) and its reader (`log.py`).

A log event is a tuple of ints, its code first: cheap to build 10,000 battles in a row, tiny in JSON.
`log.py` turns each into `Event`s with named fields; the layout of each code is written there.
A unit on the rail is named by its instance index, or -1 while it is an egg (its card is hidden).
"""

from __future__ import annotations

TURN = 0
MARKERS = 1
POISON = 2
GROWTH = 3
HEAL_PLAYER = 4
HIT_PLAYER = 5
ENERGY = 6
EGG = 7
GRAVEYARD = 8
CAST = 9
OBJECT = 10
ENCHANT = 11
ARC = 12
HIT_DINOZ = 13
HEAL_DINOZ = 14
OBJECT_DESTROYED = 15
DIED = 16
SHIFT = 17
HATCH = 18
REGEN = 19
COMBAT = 20
ATTACK = 21
POISONED = 22
BOARD = 23
COUNTDOWN = 24
ROUND = 25
END = 26

# Why a card went to the energy zone, or to the graveyard without being played.
UNPAID = 0  # its cost could not be paid
NO_TARGET = 1  # an incantation or enchantment without a target
FED = 2  # put there by an « energy » incantation
RAIL_FULL = 0  # a paid dinoz with no free place on the rail
RESOLVED = 1  # an incantation after its effect

# How a battle ended (the outcome's reason is "dinocard.outcome.<name>").
END_REASONS = ("ko", "double_ko", "life", "tie")
KO, DOUBLE_KO, LIFE, TIE = range(4)

# Per rail slot in a BOARD event: instance (-1: empty), hatched, force, endurance, damage, markers, poisoned.
SLOT_FIELDS = ("card", "hatched", "force", "endurance", "damage", "markers", "poisoned")
RAIL_SIZE = 3
