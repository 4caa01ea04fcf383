-- The Dinocard copies a player may still put in a pack or add as a challenge's bonus (in no pack, in no
-- trade), counted per card by every preparation page and by a launch with bonus cards
-- (services/dinocard/packs.py `free_counts`): read from this index alone, in card order, instead of
-- every copy the player owns looked up in the table and grouped in a temporary tree. Its statement names
-- the game as written here, so that SQLite chooses it; the index holds every column it names (covering).
CREATE INDEX cards_free_dinocard ON cards (owner_id, card_key, game, locked_by) WHERE game = 'dinocard' AND locked_by IS NULL;
