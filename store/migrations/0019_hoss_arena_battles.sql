-- HOSS TCG: the battle of each Arena attack (docs/hoss/arena.md, "The attack battle").

-- An attack is drawn and its battle started in one write unit, so every attack of a live season names
-- the battle that decides it. The link is on the attack, not on the battle row: the battle stays an
-- ordinary HOSS battle (driven, timed out, skipped and shown like a ranked one) and its end asks
-- `hoss_arena_attacks` whether it was an attack (services/hoss/arena_results.py). No FOREIGN KEY: the
-- battles' storage may move to another table keeping its ids (docs/architecture.md, "Not moved: HOSS
-- ranked battles"), and this table then needs no rebuild. One attack per battle, one battle per attack.
ALTER TABLE hoss_arena_attacks ADD COLUMN battle_id INTEGER;
CREATE UNIQUE INDEX hoss_arena_attacks_battle ON hoss_arena_attacks (battle_id) WHERE battle_id IS NOT NULL;
