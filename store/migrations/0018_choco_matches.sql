-- Chocobataille games and challenges move to the shared matches (services/shared/matches.py,
-- services/choco/game_store.py), with two additions to the block:
--   * `matches.number`: a game's own number, shown to players ("partie n° 12") and carried by its buttons
--     and jobs; given when the match starts, consecutive within the game (MatchRules.numbered). Match ids
--     are one sequence for every game, so a Chocobataille game keeps the number players know here.
--   * `match_jobs`: several pending jobs per match (a deadline stage and its reminders), withdrawn
--     together; the `deadline_job` column stays the one job of a simpler game (or a challenge's expiry).
-- The SQL stays plain enough for PostgreSQL (no JSON functions: the JSON is built by concatenation).

ALTER TABLE matches ADD COLUMN number INTEGER;
CREATE UNIQUE INDEX matches_number ON matches (game, number) WHERE number IS NOT NULL;
CREATE INDEX matches_thread ON matches (thread_id) WHERE thread_id IS NOT NULL;

CREATE TABLE match_jobs (
    match_id  INTEGER NOT NULL REFERENCES matches(id),
    job_id    INTEGER NOT NULL REFERENCES jobs(id),
    PRIMARY KEY (match_id, job_id)
);

-- Every game, live or finished, with its number = its former id: the buttons already posted
-- (choco:hand:N, choco:panel:N...), the pending jobs ({"game": N}) and the thread names keep naming it.
-- The league is the match's kind; the clock's own fields go to `data`, the outcome to `result`. A game
-- comes with the challenge that made it (its request key and expiry), as a challenge accepted today is
-- the match it started.
INSERT INTO matches (game, kind, guild_id, channel_id, thread_id, status, request_key, seed, setup, state,
                     data, version, deadline_at, result, created_at, updated_at, expires_at, ended_at,
                     number)
SELECT 'choco', g.league, g.guild_id, g.channel_id, g.thread_id, g.status, c.request_key, g.seed, g.decks,
       g.state,
       '{"faulted_turn": ' || COALESCE(CAST(g.faulted_turn AS TEXT), 'null')
       || ', "pass_at": ' || CASE WHEN g.pass_at IS NULL THEN 'null' ELSE '"' || g.pass_at || '"' END
       || ', "stage": ' || g.stage
       || ', "turn_started_at": '
       || CASE WHEN g.turn_started_at IS NULL THEN 'null' ELSE '"' || g.turn_started_at || '"' END || '}',
       g.version, g.deadline_at,
       CASE WHEN g.result IS NULL THEN NULL ELSE
           '{"result": "' || g.result || '", "reward_card": ' || COALESCE(CAST(g.reward_card AS TEXT), 'null')
           || ', "winner": ' || COALESCE(CAST(g.winner_seat AS TEXT), 'null') || '}' END,
       g.created_at, g.updated_at, c.expires_at, g.ended_at, g.id
FROM choco_games g LEFT JOIN choco_challenges c ON c.game_id = g.id
ORDER BY g.id;

INSERT INTO match_seats (match_id, seat, player_id)
SELECT m.id, 0, g.seat0_id FROM choco_games g JOIN matches m ON m.game = 'choco' AND m.number = g.id;
INSERT INTO match_seats (match_id, seat, player_id)
SELECT m.id, 1, g.seat1_id FROM choco_games g JOIN matches m ON m.game = 'choco' AND m.number = g.id;

-- Challenges never accepted (pending, declined, withdrawn, expired) become matches of that status. A
-- challenge pending now has no expiry job (it expired at the first click after its 24 hours): it still
-- expires that way.
INSERT INTO matches (game, kind, guild_id, channel_id, status, request_key, created_at, updated_at,
                     expires_at, ended_at)
SELECT 'choco', league, guild_id, channel_id, status, request_key, created_at,
       COALESCE(decided_at, created_at), expires_at, decided_at
FROM choco_challenges WHERE game_id IS NULL
ORDER BY id;

-- The challenge buttons already posted carry a challenge's former id (choco:accept:N): this table maps it
-- to its match. Every match made from now on has an id above every former challenge id (one matches row
-- per former challenge, and ids only grow), so a button's id is either a former challenge or a match.
CREATE TABLE choco_legacy_challenges (
    challenge_id  INTEGER PRIMARY KEY,
    match_id      INTEGER NOT NULL REFERENCES matches(id)
);
INSERT INTO choco_legacy_challenges (challenge_id, match_id)
SELECT c.id, m.id FROM choco_challenges c
JOIN matches m ON m.game = 'choco' AND m.request_key = c.request_key;

INSERT INTO match_seats (match_id, seat, player_id)
SELECT l.match_id, 0, c.challenger_id FROM choco_challenges c
JOIN choco_legacy_challenges l ON l.challenge_id = c.id WHERE c.game_id IS NULL;
INSERT INTO match_seats (match_id, seat, player_id)
SELECT l.match_id, 1, c.challenged_id FROM choco_challenges c
JOIN choco_legacy_challenges l ON l.challenge_id = c.id WHERE c.game_id IS NULL;

-- The game's pending jobs become the match's.
INSERT INTO match_jobs (match_id, job_id)
SELECT m.id, j.job_id FROM choco_game_jobs j JOIN matches m ON m.game = 'choco' AND m.number = j.game_id;

-- The game's own tables now name the match. The log stays the game's own (penalties keep the state they
-- were applied to, referee acts have no engine action): it is not the block's move list.
CREATE TABLE choco_match_absences (
    id          INTEGER PRIMARY KEY,
    match_id    INTEGER NOT NULL REFERENCES matches(id),
    player_id   INTEGER NOT NULL REFERENCES players(id),
    starts_at   TEXT    NOT NULL,
    until       TEXT    NOT NULL,
    hours       INTEGER NOT NULL CHECK (hours > 0),
    reason      TEXT    NOT NULL,
    created_at  TEXT    NOT NULL
);
INSERT INTO choco_match_absences (id, match_id, player_id, starts_at, until, hours, reason, created_at)
SELECT a.id, m.id, a.player_id, a.starts_at, a.until, a.hours, a.reason, a.created_at
FROM choco_absences a JOIN matches m ON m.game = 'choco' AND m.number = a.game_id;

CREATE TABLE choco_match_log (
    match_id  INTEGER NOT NULL REFERENCES matches(id),
    seq       INTEGER NOT NULL CHECK (seq >= 1),
    at        TEXT    NOT NULL,
    actor_id  INTEGER,                           -- NULL for the bot's own acts (deadlines)
    kind      TEXT    NOT NULL,
    data      TEXT    NOT NULL DEFAULT '{}',
    PRIMARY KEY (match_id, seq)
);
INSERT INTO choco_match_log (match_id, seq, at, actor_id, kind, data)
SELECT m.id, l.seq, l.at, l.actor_id, l.kind, l.data
FROM choco_game_log l JOIN matches m ON m.game = 'choco' AND m.number = l.game_id;

CREATE TABLE choco_match_drafts (
    match_id    INTEGER NOT NULL REFERENCES matches(id),
    seat        INTEGER NOT NULL CHECK (seat IN (0, 1)),
    version     INTEGER NOT NULL,
    steps       TEXT    NOT NULL DEFAULT '[]',
    updated_at  TEXT    NOT NULL,
    PRIMARY KEY (match_id, seat)
);
INSERT INTO choco_match_drafts (match_id, seat, version, steps, updated_at)
SELECT m.id, d.seat, d.version, d.steps, d.updated_at
FROM choco_drafts d JOIN matches m ON m.game = 'choco' AND m.number = d.game_id;

DROP TABLE choco_drafts;
DROP TABLE choco_game_log;
DROP TABLE choco_absences;
DROP TABLE choco_game_jobs;
DROP TABLE choco_challenges;
DROP TABLE choco_games;

ALTER TABLE choco_match_absences RENAME TO choco_absences;
ALTER TABLE choco_match_log RENAME TO choco_game_log;
ALTER TABLE choco_match_drafts RENAME TO choco_drafts;
CREATE INDEX choco_absences_by_match ON choco_absences (match_id, player_id);
