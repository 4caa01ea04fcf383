-- HOSS ranked battles move to the shared matches (services/shared/matches.py, services/hoss/battles.py),
-- with three generic additions to the block:
--   * `matches.guild_id` and `matches.channel_id` may be NULL: a match played in direct messages has no
--     server, and a match whose message is shown where its player asked (an interaction's response) has
--     no channel of its own (the message's outbox item knows where it is).
--   * `match_moves.author` may be 'skip' (the AI played a player's seat at that player's request), and
--     `match_moves.data` holds the game's own fields of a move (JSON, e.g. the pause and round it belongs to).
--   * nothing else: HOSS's own fields go to `matches.data` (rank, pause, round, player_deaths) and
--     `matches.result` (status won/lost/draw, counted, reward, gold).
--
-- This is the PostgreSQL version of 0020_hoss_matches.sql: SQLite rebuilds `matches` and `match_moves`
-- under `PRAGMA defer_foreign_keys` to drop a NOT NULL and change a CHECK; PostgreSQL alters them in place.
-- Everything after the rebuild is the same as in that file.
--
-- Ids. `matches.id` is one sequence for every game, so a HOSS battle's id may already be a Pillz duel's
-- or a Chocobataille match's id. Rather than renumbering the colliding battles, a battle keeps its former
-- id as its number (`matches.number`, unique per game, the `MatchRules.numbered` option Chocobataille
-- uses): every reference to a battle outside these tables names that number and keeps working unchanged,
-- colliding or not: the buttons already posted in Discord (hoss:rdecide:<owner>:<battle>:...), the
-- pending outbox items that carry those buttons, the timeout jobs' payloads ({"battle": id, "pause": n}),
-- the ledger's refs (reason 'hoss.ranked', ref = the battle), an Arena attack's battle
-- (hoss_arena_attacks.battle_id), the answers stored under idempotency keys,
-- the log files' names and the battle numbers players see and type (`/hoss battle battle:12`). Renumbering
-- would have rewritten the jobs and left every posted button, pending outbox item and ledger row of a
-- colliding battle naming another game's match (or nothing). The match id is internal: the moves, the
-- rounds and the notices below name it. New battles take the game's next number (the highest + 1).

ALTER TABLE matches ALTER COLUMN guild_id DROP NOT NULL;
ALTER TABLE matches ALTER COLUMN channel_id DROP NOT NULL;
ALTER TABLE match_moves DROP CONSTRAINT match_moves_author_check;
ALTER TABLE match_moves ADD CONSTRAINT match_moves_author_check
    CHECK (author IN ('player', 'ai', 'timeout', 'skip'));
ALTER TABLE match_moves ADD COLUMN data TEXT NOT NULL DEFAULT '{}';  -- JSON: the game's own fields of the move

-- Every battle, live or finished, with its former id as its number (above). Seat 0 is the player, seat 1
-- the AI. The request key is the start's interaction, prefixed so that it cannot meet another game's.
-- `data` and `result` are built by concatenation (no JSON functions), in the form `json.dumps(...,
-- sort_keys=True)` writes them; a finished battle always has its reward (set with its status).
INSERT INTO matches (game, kind, guild_id, channel_id, status, request_key, seed, setup, state, data, version,
                     message_item, deadline_at, deadline_job, result, created_at, updated_at, ended_at, number)
SELECT 'hoss', 'ranked', guild_id, NULL, CASE status WHEN 'live' THEN 'live' ELSE 'over' END,
       'hoss:ranked:' || start_key, seed, '[' || player_setup || ', ' || opponent_setup || ']', state,
       '{"pause": ' || pause || ', "player_deaths": ' || player_deaths || ', "rank": ' || rank
       || ', "round": ' || round || '}',
       version, message_item, deadline_at, timeout_job,
       CASE WHEN status = 'live' THEN NULL ELSE
           '{"counted": ' || CASE counted WHEN 1 THEN 'true' ELSE 'false' END || ', "gold": ' || gold
           || ', "reward": ' || COALESCE(reward, 'null') || ', "status": "' || status || '"}' END,
       created_at, updated_at, ended_at, id
FROM hoss_battles ORDER BY id;

INSERT INTO match_seats (match_id, seat, player_id)
SELECT m.id, 0, b.player_id FROM hoss_battles b JOIN matches m ON m.game = 'hoss' AND m.number = b.id;
INSERT INTO match_seats (match_id, seat, player_id)
SELECT m.id, 1, NULL FROM hoss_battles b JOIN matches m ON m.game = 'hoss' AND m.number = b.id;

-- The decisions of both seats become the match's moves (seq from 1); the pause and the round they belong
-- to go to the move's data. A decision's time was not kept: the battle's last change stands for it.
INSERT INTO match_moves (match_id, seq, seat, action, author, at, data)
SELECT m.id, d.seq + 1, d.seat, d.action, d.by, b.updated_at,
       '{"pause": ' || d.pause || ', "round": ' || d.round || '}'
FROM hoss_battle_decisions d
JOIN hoss_battles b ON b.id = d.battle_id
JOIN matches m ON m.game = 'hoss' AND m.number = d.battle_id
ORDER BY m.id, d.seq;

-- The battle's log stays HOSS's own table, now keyed by the match; `viewed` marks the rounds the player's
-- view already returned (formerly the battle's `viewed_round`: every round up to it). It changes no
-- version: looking at a battle must not make its controls stale.
CREATE TABLE hoss_match_rounds (
    match_id  INTEGER NOT NULL REFERENCES matches(id),
    round     INTEGER NOT NULL CHECK (round >= 1),
    record    TEXT    NOT NULL,
    viewed    INTEGER NOT NULL DEFAULT 0 CHECK (viewed IN (0, 1)),
    PRIMARY KEY (match_id, round)
);
INSERT INTO hoss_match_rounds (match_id, round, record, viewed)
SELECT m.id, r.round, r.record, CASE WHEN r.round <= b.viewed_round THEN 1 ELSE 0 END
FROM hoss_battle_rounds r
JOIN hoss_battles b ON b.id = r.battle_id
JOIN matches m ON m.game = 'hoss' AND m.number = r.battle_id
ORDER BY m.id, r.round;

-- Notices keep their ids (a claimed milestone's ledger ref is the notice id) and now name the match.
CREATE TABLE hoss_match_notices (
    id          INTEGER PRIMARY KEY,
    player_id   INTEGER NOT NULL REFERENCES players(id),
    kind        TEXT    NOT NULL CHECK (kind IN ('milestone')),
    rank        INTEGER NOT NULL CHECK (rank BETWEEN 1 AND 9),
    wins        INTEGER NOT NULL CHECK (wins > 0),
    gold        INTEGER NOT NULL CHECK (gold > 0),
    match_id    INTEGER REFERENCES matches(id),
    created_at  TEXT    NOT NULL,
    claimed_at  TEXT,
    UNIQUE (player_id, kind, rank, wins)
);
INSERT INTO hoss_match_notices (id, player_id, kind, rank, wins, gold, match_id, created_at, claimed_at)
SELECT n.id, n.player_id, n.kind, n.rank, n.wins, n.gold, m.id, n.created_at, n.claimed_at
FROM hoss_notices n LEFT JOIN matches m ON m.game = 'hoss' AND m.number = n.battle_id
ORDER BY n.id;

DROP TABLE hoss_notices;
DROP TABLE hoss_battle_rounds;
DROP TABLE hoss_battle_decisions;
DROP TABLE hoss_battles;

ALTER TABLE hoss_match_rounds RENAME TO hoss_battle_rounds;
ALTER TABLE hoss_match_notices RENAME TO hoss_notices;
CREATE INDEX hoss_notices_pending ON hoss_notices (player_id, id) WHERE claimed_at IS NULL;
