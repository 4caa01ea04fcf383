-- HOSS boosters bought sealed: a purchase of several boosters mints the first one's six copies, and the
-- others wait with their cards already drawn, minted when the player opens them (services/hoss/sealed.py).
-- `sealed` holds the six drawn cards, in opening order, as JSON `[[card id, rarity, holo], ...]`; it is
-- NULL once the booster is open, and for every booster bought before this migration (all minted).
ALTER TABLE hoss_openings ADD COLUMN sealed TEXT;
CREATE INDEX hoss_openings_sealed ON hoss_openings (player_id, id) WHERE sealed IS NOT NULL;
