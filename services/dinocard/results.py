"""How a Dinocard battle ends once its last step is shown: the battles' match rules, the settlement (the
challenger's pack record and XP, the coins, the dojo progress), the notice to the attacked pack's owner,
and the result as the battle message states it. Apart from `battles.py`, which launches and shows them.

A defended pack gains or loses nothing (rulebook); the owner of the attacked pack is told by DM unless
they turned the notices off (`/dino alertes`); the outbox turns a DM to closed DMs into nothing more
(the owner still sees the battle in `/dino revoir`). Decisions: docs/dinocard/decisions.md.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from engine.dinocard import ENGINE, DinocardState, gain_xp, xp_for_win
from services.dinocard.economy import DINO_GOLD
from services.dinocard.keys import OUTCOME_KEYS
from services.dinocard.packs import pack_by_id, save_pack
from services.infra import ledger
from services.infra.messages import MessageSpec, Target, Text
from services.infra.outbox import enqueue
from services.shared.matches import Match, Matches, MatchRules, MatchTexts
from store.connection import Connection

KIND_CHALLENGE = "defi"
KIND_DOJO = "dojo"
KIND_TOURNAMENT = (
    "tournoi"  # a tournament's battle: neither pack gains or loses anything (docs/dinocard/decisions.md)
)
WIN_COINS = 20  # a won challenge
DOJO_COINS = 50  # per master's rank (1st: 50, 6th: 300), the first win against each
REASON_WIN = "dinocard.win"
REASON_DOJO = "dinocard.dojo"
KEPT_STATES = 64  # about the battles watched at once in one process (services/shared/kept_states.py)
RULES: MatchRules[DinocardState] = MatchRules(
    "dinocard",
    ENGINE,
    MatchTexts(
        stale="dinocard.error.battle.stale",
        not_found="dinocard.error.battle.not_found",
        not_player="dinocard.error.battle.not_watcher",
        not_your_turn="dinocard.error.battle.over",
    ),
    numbered=True,
    kept_states=KEPT_STATES,  # a step's click finds the state the previous one saved
)
MATCHES: Matches[DinocardState, Match[DinocardState]] = Matches(RULES, Match)


def settle(
    conn: Connection, now: datetime, match: Match[DinocardState], *, shown_at: datetime | None = None
) -> Match[DinocardState]:
    """The result counts: the challenger's pack record and XP, the coins, the dojo progress, the owner's
    notice. One save (`end`), with the result the message shows. `shown_at`: when the public message shows
    the end (« Tout voir » shows the phases 5 s apart); the owner's notice waits for it, so that it does
    not tell the result while the channel still watches the first phases."""
    state = match.state
    assert state is not None
    assert state.finished
    challenger = match.seats[0]
    assert challenger is not None
    won = state.winner == 0
    result: dict[str, Any] = {"winner": state.winner, "reason": state.reason, "life": list(state.life)}
    if match.kind == KIND_CHALLENGE:
        result |= _challenge_result(conn, now, match, won, shown_at or now)
    elif match.kind == KIND_DOJO:
        result |= _dojo_result(conn, now, match, challenger, won)
    return MATCHES.end(conn, now, match, "over", result=result)


def _challenge_result(
    conn: Connection, now: datetime, match: Match[DinocardState], won: bool, shown_at: datetime
) -> dict[str, Any]:
    pack_id, _ = match.data["packs"]
    level, opponent_level = match.data["levels"]
    pack = pack_by_id(conn, int(pack_id))
    out: dict[str, Any] = {"xp": 0, "coins": 0}
    if pack is not None and pack.status == "active":
        changes: dict[str, object] = {"wins": pack.wins + 1} if won else {"losses": pack.losses + 1}
        if won:
            gained = xp_for_win(int(level), int(opponent_level))
            new_level, xp = gain_xp(pack.level, pack.xp, gained)
            changes |= {"level": new_level, "xp": xp}
            out |= {"xp": gained, "level": new_level, "level_up": new_level > pack.level}
        save_pack(conn, now, pack, **changes)
    if won:
        challenger = match.seats[0]
        assert challenger is not None
        ledger.credit(
            conn,
            now,
            challenger,
            DINO_GOLD,
            WIN_COINS,
            ledger.Movement(REASON_WIN, ref=str(match.number)),
        )
        out["coins"] = WIN_COINS
    _tell_owner(conn, now, match, won, shown_at)
    return out


def _dojo_result(
    conn: Connection, now: datetime, match: Match[DinocardState], player: int, won: bool
) -> dict[str, Any]:
    index = int(match.data["master"])
    if not won:
        return {"coins": 0}
    claimed = conn.execute(
        "UPDATE dinocard_profiles SET dojo_beaten = ? WHERE player_id = ? AND dojo_beaten = ?",
        (index + 1, player, index),
    ).rowcount
    if claimed != 1:
        return {"coins": 0}
    coins = DOJO_COINS * (index + 1)
    ledger.credit(conn, now, player, DINO_GOLD, coins, ledger.Movement(REASON_DOJO, ref=str(match.number)))
    return {"coins": coins, "beaten": index + 1}


def _tell_owner(
    conn: Connection, now: datetime, match: Match[DinocardState], won: bool, shown_at: datetime
) -> None:
    """The attacked pack's owner learns the result by DM, unless they turned the notices off; with their
    DMs closed, a private « show » button in the channel where the battle was launched stands for it. The
    DM leaves when the public message reaches the end (`shown_at`), not before."""
    owner = match.seats[1]
    if owner is None:
        return
    row = conn.execute("SELECT notify FROM dinocard_profiles WHERE player_id = ?", (owner,)).fetchone()
    if row is not None and not row[0]:
        return
    names = match.data["names"]
    key = "dinocard.notice.defence_lost" if won else "dinocard.notice.defence_held"
    if match.state is not None and match.state.winner < 0:
        key = "dinocard.notice.defence_draw"
    spec = MessageSpec(
        content=Text(
            key,
            {
                "challenger": f"<@{match.seats[0]}>",
                "pack": names[1],
                "attacker": names[0],
                "number": match.number,
            },
        ),
        show_label=Text("dinocard.notice.show"),
    )
    target = Target("dm", owner, fallback_channel_id=match.channel_id, guild_id=match.guild_id)
    enqueue(conn, now, target, spec, not_before=shown_at if shown_at > now else None)


def beaten(conn: Connection, player: int) -> int:
    row = conn.execute("SELECT dojo_beaten FROM dinocard_profiles WHERE player_id = ?", (player,)).fetchone()
    return 0 if row is None else int(row[0])


def pack_names(match: Match[DinocardState]) -> list[Text]:
    """Each seat's pack as the public message names it (a dojo master's in the reader's language)."""
    names = match.data["names"]
    english = match.data.get("names_en", names)
    return [Text.per_locale({"fr": str(fr), "en": str(en)}) for fr, en in zip(names, english, strict=True)]


def players(match: Match[DinocardState]) -> list[Text]:
    """Who plays each seat in a public message: a player's mention (Discord shows it as their name), or
    the dojo master's label; never « vous », since everyone in the channel reads it."""
    return [
        Text("dinocard.battle.master") if seat is None else Text.raw(f"<@{seat}>") for seat in match.seats
    ]


def result_text(match: Match[DinocardState]) -> Text:
    result = match.result or {}
    winner = int(result.get("winner", -1))
    packs, who = pack_names(match), players(match)
    params = {
        "winner": Text("dinocard.battle.pack_of", {"pack": packs[winner], "player": who[winner]})
        if winner >= 0
        else "",
        "reason": Text(OUTCOME_KEYS[str(result.get("reason", "ko"))]),
        "xp": int(result.get("xp", 0)),
        "coins": int(result.get("coins", 0)),
        "level": int(result.get("level", 0)),
    }
    if winner < 0:
        return Text("dinocard.battle.summary_draw", params)
    if match.kind == KIND_DOJO:
        return Text("dinocard.battle.summary_dojo", params)
    if match.kind == KIND_TOURNAMENT:
        return Text("dinocard.battle.summary_tournament", params)
    key = "dinocard.battle.summary_win" if winner == 0 else "dinocard.battle.summary_loss"
    if winner == 0 and result.get("level_up"):
        key = "dinocard.battle.summary_level"
    return Text(key, params)
