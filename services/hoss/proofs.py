"""The provably-fair details of HOSS's draws, behind the « Vérifier » button of their posts (issue 35): a
raffle's commitment, then once drawn its seed and its ticket list's fingerprint; an Arena season's
commitment, then once closed its seed. The posts say what players look for (winners, places, gold); the
proof is one click away, for whoever wants it, in a private reply.

What is shown is what is public at the click: a seed is revealed only once its draw is made (the raffle's
20:00 draw, the season's close), exactly as the posts revealed it before; until then the commitment alone.
A post's button names its day (the draw's, the season's Monday); the server is the click's, so a forged
button reaches only this server's draws. Decisions: docs/hoss/raffle.md and docs/hoss/arena.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from core.errors import BadInput, NotFound
from services.infra.messages import Button, Day, MessageSpec, Text
from store.connection import Connection

RAFFLE = "raffle"
ARENA = "arena"
DAY_DIGITS = 8  # the day in a button's custom_id: YYYYMMDD


@dataclass(frozen=True)
class Proof:
    kind: str  # RAFFLE or ARENA
    day: date  # the raffle's draw day, or the season's Monday
    commitment: str
    seed: str | None  # revealed once drawn (the raffle) or closed (the season)
    digest: str | None = None  # the raffle's ticket list, once drawn


def verify_button(kind: str, day: date) -> Button:
    """« Vérifier » on a post of `kind` about `day`."""
    return Button(Text("hoss.proof.button"), f"hoss:proof:{kind}:{day:%Y%m%d}", "secondary")


def day_of(digits: str) -> date:
    """A button's day back from its custom_id (untrusted: a forged one is a bad input)."""
    if len(digits) != DAY_DIGITS or not digits.isdigit():
        raise BadInput()
    try:
        return date(int(digits[:4]), int(digits[4:6]), int(digits[6:]))
    except ValueError:
        raise BadInput() from None


def raffle_proof(conn: Connection, guild_id: int, day: date) -> Proof:
    row = conn.execute(
        "SELECT status, seed, commitment, entries_digest FROM hoss_raffles WHERE guild_id = ? AND day = ?",
        (guild_id, day.isoformat()),
    ).fetchone()
    if row is None:
        raise NotFound("hoss.raffle.error.no_draw", day=day)
    drawn = row[0] == "drawn"
    return Proof(RAFFLE, day, str(row[2]), str(row[1]) if drawn else None, str(row[3]) if drawn else None)


def arena_proof(conn: Connection, guild_id: int, season: date) -> Proof:
    row = conn.execute(
        "SELECT status, seed, commitment FROM hoss_arena_seasons WHERE guild_id = ? AND season = ?",
        (guild_id, season.isoformat()),
    ).fetchone()
    if row is None:
        raise NotFound("hoss.proof.no_season", season=Day(season))
    return Proof(ARENA, season, str(row[2]), str(row[1]) if row[0] == "closed" else None)


def proof_spec(proof: Proof) -> MessageSpec:
    """The private reply to « Vérifier »."""
    day = proof.day.isoformat()  # the verify commands' option, typed as shown
    if proof.kind == RAFFLE:
        if proof.seed is None:
            text = Text("hoss.proof.raffle_pending", {"day": Day(proof.day), "commitment": proof.commitment})
        else:
            values = {
                "seed": proof.seed,
                "commitment": proof.commitment,
                "digest": proof.digest,
                "day_arg": day,
            }
            text = Text.lines(
                [
                    Text("hoss.proof.raffle_title", {"day": Day(proof.day)}),
                    Text("hoss.raffle.post.proof", values),
                ]
            )
    elif proof.seed is None:
        text = Text("hoss.proof.arena_open", {"season": Day(proof.day), "commitment": proof.commitment})
    else:
        params: dict[str, object] = {
            "season": Day(proof.day),
            "seed": proof.seed,
            "commitment": proof.commitment,
            "day_arg": day,
        }
        title = Text("hoss.proof.arena_title", {"season": Day(proof.day)})
        text = Text.lines([title, Text("hoss.arena.post.seed_note"), Text("hoss.proof.arena_closed", params)])
    return MessageSpec(content=text)
