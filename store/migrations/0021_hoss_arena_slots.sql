-- HOSS TCG: the deck slots a player registered in the Arena (docs/hoss/arena.md, "Cancelling changes").
-- « Pour quitter l'Arène après une modification, tu enregistres tes deux decks complets ou tu annules les
-- changements »: cancelling puts the registered decks back into the slots they were registered from.
-- NULL for a registration made before this migration: its slots were not kept, so it cannot be cancelled
-- back (saving it again records them).
ALTER TABLE hoss_arena_entries ADD COLUMN slot_a INTEGER CHECK (slot_a >= 1);
ALTER TABLE hoss_arena_entries ADD COLUMN slot_b INTEGER CHECK (slot_b >= 1);
