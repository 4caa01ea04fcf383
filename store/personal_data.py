"""What every column of the schema holds about players: the one declaration `/privacy export` and
`/privacy delete` follow (services/community/privacy.py, docs/privacy.md).

Every column of every table is listed here, in one of six classes, and nowhere else is a column's meaning
for privacy guessed (from its name, a foreign key or a primary key). `tests/services/store/test_personal_data.py`
reads the live schema (SQLite, and PostgreSQL in CI) and fails on a column that is missing here or listed
here but gone: whoever adds a column says what it holds.

Decision: one declaration for the whole schema, in the store, beside the migrations that create the
tables, rather than a part in each game's `GameSpec`: a reviewer reads what the bot keeps about people in
one page, and the check that nothing is forgotten is one comparison.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Holds(Enum):
    """What a column holds about players, and so what the export and the erasure do with it."""

    OWNER = "owner"  # the id of the player the row belongs to: exported; the row is deleted at erasure
    PLAYER = "player"  # a player's id in a row others share: exported; replaced by the anonymous id
    KEPT = "kept"  # a player's id kept at erasure (a server's ban must still stop its person): exported
    TYPED = "typed"  # words a player typed (a pack's name, an absence's reason): blanked with their id
    TEXT = "text"  # text that may quote a player's id or mention (JSON, keys, payloads): ids rewritten
    NOTHING = "nothing"  # nothing about a player: counters, times, codes, other ids

    @property
    def is_id(self) -> bool:
        return self in (Holds.OWNER, Holds.PLAYER, Holds.KEPT)


@dataclass(frozen=True)
class Table:
    """One table's columns by class; `hidden` is a condition (SQL, each `?` the one asking) on the rows
    the export leaves out although they name the player: what they may not see."""

    columns: dict[str, Holds]
    hidden: str | None = None

    def of(self, *classes: Holds) -> list[str]:
        return [name for name, holds in self.columns.items() if holds in classes]


def _table(hidden: str | None = None, **classes: str) -> Table:
    columns: dict[str, Holds] = {}
    for holds, names in classes.items():
        for name in names.split():
            if name in columns:
                raise ValueError(f"column {name} declared twice")
            columns[name] = Holds(holds)
    return Table(columns, hidden)


# A row tied to a match still pending or live: a game's log may hold what its players may not see yet.
_LIVE_MATCH = "match_id IN (SELECT id FROM matches WHERE status IN ('pending', 'live'))"
# A gift not (yet) delivered is its giver's alone: its recipient hears of it only when it arrives.
_UNDELIVERED_GIFT = "kind = 'gift' AND status <> 'done' AND partner_id = ?"

TABLES: dict[str, Table] = {
    "admin_audit": _table(nothing="id at guild_id action game", player="actor_id target_id", text="details"),
    "cards": _table(nothing="id game card_key attrs locked_by created_at", player="owner_id"),
    "choco_absences": _table(
        _LIVE_MATCH,
        nothing="id match_id starts_at until hours created_at",
        player="player_id",
        typed="reason",
    ),
    "choco_characters": _table(nothing="guild_id updated_at", owner="player_id", typed="name"),
    "choco_decks": _table(nothing="league cards updated_at", owner="player_id"),
    "choco_drafts": _table(nothing="match_id seat version updated_at", text="steps"),
    "choco_game_log": _table(_LIVE_MATCH, nothing="match_id seq at kind", player="actor_id", text="data"),
    "choco_guild_settings": _table(
        nothing="guild_id referee_role_id min_member_days reminder_hours absence_cap_hours forgive_downtime"
        " updated_at"
    ),
    "choco_legacy_challenges": _table(nothing="challenge_id match_id"),
    "choco_results": _table(
        nothing="guild_id league wins losses draws absence_forfeits cards_lost", owner="player_id"
    ),
    "daily_claims": _table(nothing="game day streak amount claimed_at", owner="player_id"),
    "dinocard_launches": _table(nothing="pack_id day used"),
    "lab_cooldowns": _table(nothing="ready_at", owner="player_id"),
    "drop_entries": _table(nothing="drop_id position entered_at", player="player_id"),
    "drop_settings": _table(nothing="guild_id rhythm games last_active_at next_job updated_at"),
    "drops": _table(
        nothing="id guild_id channel_id game prize status seed commitment digest entrants skipped copy_id"
        " won_day message_item day opened_at closes_at closed_at",
        player="winner_id",
    ),
    "dinocard_packs": _table(
        nothing="id cards level xp skills wins losses daily_from status version created_at updated_at",
        player="owner_id",
        typed="name",
    ),
    "dinocard_profiles": _table(nothing="starter_given notify dojo_beaten created_at", owner="player_id"),
    "game_pauses": _table(nothing="guild_id game paused_at", player="paused_by"),
    "guild_bans": _table(nothing="guild_id banned_at", kept="player_id", player="banned_by", text="reason"),
    "guild_settings": _table(
        nothing="guild_id announce_channel_id games_channel_id deadline_preset updated_at locale"
    ),
    "guild_players": _table(nothing="guild_id first_seen last_day", owner="player_id"),
    "heartbeats": _table(nothing="process started_at last_seen shard_count shard_ids"),
    "hoss_arena_attacks": _table(
        nothing="id guild_id season number status battle_ref drawn_at settled_at battle_id",
        player="attacker_id defender_id",
        text="candidates",
    ),
    "hoss_arena_entries": _table(
        nothing="guild_id season points attack_wins reached_at registered_at saved_at deck_a deck_b place"
        " reward slot_a slot_b",
        owner="player_id",
    ),
    "hoss_arena_seasons": _table(
        nothing="guild_id season status seed commitment opened_at ranked_at board_item closed_at"
    ),
    "hoss_battle_rounds": _table(nothing="match_id round viewed", text="record"),
    "hoss_decks": _table(nothing="slot lines buffs updated_at", owner="player_id", typed="name"),
    "hoss_notices": _table(
        _LIVE_MATCH, nothing="id kind rank wins gold match_id created_at claimed_at", owner="player_id"
    ),
    "hoss_opening_cards": _table(nothing="opening_id position card_id flipped"),
    "hoss_openings": _table(
        nothing="id booster_index kind race tier created_at sealed", player="player_id", text="purchase_key"
    ),
    "hoss_profiles": _table(nothing="active_slot", owner="player_id"),
    "hoss_raffle_tickets": _table(nothing="guild_id day number bought_at winner", player="player_id"),
    "hoss_raffles": _table(
        nothing="guild_id day seed commitment status opened_at tickets carried_in pot share carried_out"
        " carry_taken entries_digest drawn_at"
    ),
    "hoss_rank_progress": _table(nothing="rank wins losses", owner="player_id"),
    "idempotency": _table(nothing="created_at", text="key result"),
    "immortals_card_xp": _table(nothing="card_id xp"),
    "immortals_guild_settings": _table(nothing="guild_id choice_seconds updated_at"),
    "immortals_profiles": _table(
        nothing="starter_given deck xp combat_points duels wins draws losses created_at", owner="player_id"
    ),
    "immortals_results": _table(
        _LIVE_MATCH,
        nothing="id match_id guild_id outcome gains recorded_at",
        player="player_id opponent_id",
    ),
    "immortals_spells": _table(nothing="spell learned_at", owner="player_id"),
    "jobs": _table(
        nothing="id kind due_at state attempts created_at fired_at", text="payload period_key last_error"
    ),
    "ledger": _table(
        nothing="id at currency card_id delta balance_after reason", player="player_id", text="ref"
    ),
    "match_jobs": _table(nothing="match_id job_id"),
    "match_moves": _table(nothing="match_id seq seat at", text="action author data"),
    "match_seats": _table(_LIVE_MATCH, nothing="match_id seat", player="player_id"),
    "matches": _table(
        nothing="id game kind guild_id channel_id thread_id status seed version message_item deadline_at"
        " deadline_job created_at updated_at expires_at ended_at number",
        text="request_key setup state data result",
    ),
    "outbox": _table(
        nothing="id created_at target_kind fallback_channel_id state attempts next_attempt_at sent_message_id"
        " edit_of not_before claimed_until claimed_by guild_id",
        player="target_id",  # a channel's id, or the player's of a DM (Discord's ids are unique across kinds)
        text="payload last_error undeliverable players",
    ),
    "outbox_nonce_prefix": _table(nothing="id prefix"),
    "pillz_decks": _table(nothing="slot cards updated_at", owner="player_id"),
    "pillz_friend_results": _table(
        nothing="duel_id guild_id winner_seat rewarded day recorded_at",
        player="seat0_id seat1_id pair_low pair_high",
        text="rewards",
    ),
    "pillz_guild_settings": _table(nothing="guild_id choice_seconds updated_at"),
    "pillz_profiles": _table(
        nothing="starter_given active_slot rating games wins draws losses created_at", owner="player_id"
    ),
    "players": _table(nothing="created_at locale dms_closed last_locale reminders wish_alerts", owner="id"),
    "rate_limit_pauses": _table(nothing="scope until_s set_by"),
    "schema_migrations": _table(nothing="version name applied_at checksum"),
    "showoff_log": _table(nothing="id guild_id game card_key copy shown_at", owner="player_id"),
    "tournament_entries": _table(
        nothing="tournament_id registered_at fee_paid seed_rank status place prize",
        player="player_id",
        typed="name",
    ),
    "tournament_tables": _table(
        nothing="tournament_id round table_no match_id status first_points second_points reason decided_at",
        player="first_id second_id winner_id",
    ),
    "tournaments": _table(
        nothing="id guild_id channel_id game format seeding max_players rounds round_hours fee currency pot status"
        " round round_ends_at round_job seed commitment post_item version created_at starts_at day started_at"
        " ended_at",
        player="created_by",
        text="request_key",
    ),
    "trade_items": _table(nothing="id trade_id card_id currency amount value", player="giver_id"),
    "trades": _table(
        _UNDELIVERED_GIFT,
        nothing="id kind game guild_id channel_id status version proposer_confirmed partner_confirmed"
        " expiry_job created_at expires_at ended_at end_reason",
        player="proposer_id partner_id ended_by",
    ),
    "wallets": _table(nothing="currency balance", owner="player_id"),
    "wish_notices": _table(nothing="game card_key day", owner="player_id"),
    "wishlists": _table(nothing="game card_key added_at", owner="player_id"),
}
