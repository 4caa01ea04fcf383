"""Challenges between two players, for every two-seat game: challenge, accept, decline, withdraw, expiry.

A challenge is a match still 'pending' (services/shared/matches.py): accepting it starts the match under
the same id, so the challenge's buttons and the game's name one thing. Only the first answer counts,
as every save is guarded by the version; a later click (a double click, a forged button) is refused
privately. Expiry is a scheduler job armed with the challenge, so a challenge nobody answers ends on
time even across restarts; an answer arriving after the expiry time but before its job ran expires the
challenge itself, so the outcome never depends on which of the two ran first. A game may answer a later
click with the challenge as it stands (`answered_returns`) instead of a refusal: Chocobataille shows the
second clicker the game the first one started.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Generic, TypeVar

from core.errors import BadInput, NotAllowed, NotFound
from services.infra.messages import Text
from services.infra.scheduler import Job, Scheduler
from services.shared.matches import Match, Matches
from store.connection import Connection

S = TypeVar("S")
M = TypeVar("M", bound=Match[Any])


@dataclass(frozen=True)
class ChallengeTexts:
    """The message keys of the refusals; a game may keep its own wording."""

    self_challenge: str = "matches.challenge.self"
    not_yours: str = "matches.challenge.not_yours"
    answered: str = "matches.challenge.answered"
    own: str = "matches.challenge.own"
    own_button: str | None = None  # the public challenge's decline button, if `own` quotes it ({button})
    not_found: str | None = None  # None: the match's own `not_found` message


class Challenges(Generic[S, M]):
    """The challenges of one game, on its `Matches`; registers the game's expiry job."""

    def __init__(
        self,
        matches: Matches[S, M],
        scheduler: Scheduler | None,
        ttl: timedelta,
        texts: ChallengeTexts = ChallengeTexts(),
        *,
        answered_returns: bool = False,
    ) -> None:
        self.matches = matches
        self.ttl = ttl
        self.texts = texts
        self.answered_returns = answered_returns
        self.expiry_job = f"{matches.rules.game}:challenge:expire"
        if scheduler is not None:
            scheduler.on(self.expiry_job, self.on_expiry)

    def challenge(
        self,
        conn: Connection,
        now: datetime,
        *,
        request_key: str,
        guild_id: int,
        channel_id: int,
        challenger: int,
        challenged: int,
        kind: str = "",
        prepare: Callable[[], object] | None = None,
        data: Mapping[str, Any] | None = None,
    ) -> M:
        """A pending challenge, made once per interaction: a replay of `request_key` returns the first one
        (to its author only). `prepare` runs before a new one is made (checks that may refuse it); `data`
        is the game's own fields of the challenge (e.g. a friendly game), which its start may read."""
        if challenger == challenged:
            raise BadInput(self.texts.self_challenge)
        found = self.matches.by_request(conn, request_key)
        if found is None:
            if prepare is not None:
                prepare()
            found = self.matches.create(
                conn,
                now,
                guild_id=guild_id,
                channel_id=channel_id,
                seats=(challenger, challenged),
                kind=kind,
                request_key=request_key,
                expires_at=now + self.ttl,
                deadline_job=self.expiry_job,
                data=data,
            )
        if found.seats[0] != challenger:
            raise NotAllowed()
        return found

    def answer(
        self,
        conn: Connection,
        now: datetime,
        match_id: int,
        *,
        guild: int | None,
        player: int,
        accept: bool,
    ) -> tuple[M, bool]:
        """The challenged player accepts or declines; the challenger may withdraw (a refusal from them).
        `guild` is where the click happens (None in DMs, for a game whose rules answer there).

        Returns the match and whether it was accepted: then the caller starts it in the same unit (its
        decks, its first state) with `Matches.start`, whose save is the one that counts."""
        try:
            match = self.matches.load(conn, match_id, guild=guild, player=player)
        except NotFound:
            if self.texts.not_found is None:
                raise
            raise NotFound(self.texts.not_found) from None
        if player not in match.seats:
            raise NotAllowed(self.texts.not_yours)
        if match.status == "expired":
            return match, False  # the expiry job ran first: the answer is that it expired
        if match.status != "pending":
            if self.answered_returns:
                return match, False
            raise NotAllowed(self.texts.answered)
        if match.expires_at is not None and match.expires_at <= now:
            return self.matches.end(conn, now, match, "expired"), False
        if not accept:
            ended = "withdrawn" if player == match.seats[0] else "declined"
            return self.matches.end(conn, now, match, ended), False
        if player == match.seats[0]:
            button = {"button": Text.public(self.texts.own_button)} if self.texts.own_button else {}
            raise NotAllowed(self.texts.own, **button)
        return match, True

    def on_expiry(self, conn: Connection, job: Job, now: datetime) -> None:
        """Nobody answered in time. A job the challenge no longer names (answered meanwhile) does nothing."""
        match = self.matches.load_trusted(conn, int(job.payload["match"]))
        if match.status == "pending" and match.deadline_job == job.id:
            self.matches.end(conn, now, match, "expired")
