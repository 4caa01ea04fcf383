-- Discord's global rate limit, shared by a fleet (services/infra/rate_limits.py): when a process is told by a
-- global 429 to wait, the instant it may send again is written here, and every process waits for it too.
-- One row per scope ('global' only today); `until_s` is a wall-clock instant in seconds since the epoch.
CREATE TABLE rate_limit_pauses (
    scope    TEXT PRIMARY KEY,
    until_s  REAL NOT NULL,
    set_by   TEXT NOT NULL
);
