"""Duels of choices made in private controls against a friend or the AI (Pillz, Immortal's War): what
their use cases share around the game's own rules, on the matches and challenges blocks
(services/shared/matches.py, challenges.py). Pillz's seats choose at once and in secret; Immortal's War's
in turn (the engaging seat, then the counter, knowing its attack). The block needs neither to know: the
engine names the seats to act, and the game arms a timeout for them after each move.

A duel is a two-seat match: seat 0 the challenger, seat 1 the challenged player or the AI (None). It is
made by a challenge (accepted, it starts under the same id) or by a practice request (once per
interaction), starts with each seat's setup (the game's deck), posts one public message edited after
each step, and arms a timeout job per the server's choice time (services/shared/choice_time.py): a seat
that does not answer in time gets the AI's choice. The game keeps what differs: a seat's setup and its
refusals, the engine's players, the practice opponent, what a move, a timeout and the end do, and what
the public message shows (`public`). The public message is read in the server's language by both players:
it names each card with its name in each player's language beside it where they differ (`languages`,
services/community/card_names.py).

Each step keeps the number of saves and the draws of `rng` the games made before this block existed:
seeds, practice decks and the AI's draws derive from them, and the sandbox transcripts replay them.

A duel game's message keys, its timeout job and its settings table are named after its key (`<game>.`):
each text table is derived from that prefix by `keyed` with the layout below (`MATCH_KEYS`,
`CHALLENGE_KEYS`, `PUBLIC_KEYS`), and a game whose wording really differs overrides only that entry. The
i18n test reads these keys through `duel_keys`, as it reads the other keys as literals.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, ClassVar, Generic, TypeVar

from core.clock import Clock
from core.errors import BadInput, NotAllowed
from core.i18n import DEFAULT_LOCALE
from engine.errors import DomainError, IllegalAction
from engine.protocol import CATALOG_OPTION, PlayerSetup
from services.community.card_names import reading_languages
from services.infra.games import GameRegistry
from services.infra.keyed_cache import KeyedCache
from services.infra.messages import MessageSpec, Target
from services.infra.players import LOCALE_TOPIC, ensure_player
from services.infra.scheduler import Job, Scheduler
from services.shared.challenges import Challenges, ChallengeTexts
from services.shared.choice_time import ChoiceTime
from services.shared.duel_tournaments import DuelTournament
from services.shared.matches import MATCHES_TOPIC, Author, Match, Matches, MatchTexts
from store.connection import Connection
from store.db import Database

S = TypeVar("S")  # the engine's state
C = TypeVar("C")  # the game's catalog
P = TypeVar("P")  # one seat's setup (its deck, as the match's `setup` stores it)
CH = TypeVar("CH")  # what a seat's private controls show
T = TypeVar("T")
CHALLENGE_TTL = timedelta(hours=1)

# A duel game's message keys: each field of a text table, the game's key followed by its suffix
# (`pillz` + `.error.stale`).
MATCH_KEYS = {
    "stale": ".error.stale",
    "stale_button": ".duel.play_button",
    "not_found": ".error.no_duel",
    "not_player": ".error.not_player",
    "not_your_turn": ".error.not_your_turn",
}
CHALLENGE_KEYS = {
    "self_challenge": ".error.self_challenge",
    "not_yours": ".error.not_your_challenge",
    "answered": ".error.answered",
    "own": ".error.own_challenge",
    "own_button": ".challenge.decline",
}
PUBLIC_KEYS = {  # the public message's frame (services/shared/render/duel.py, `DuelTexts`)
    "ai": ".duel.ai",
    "timeout_note": ".duel.timeout_note",
    "deadline": ".duel.deadline",
    "play_button": ".duel.play_button",
    "title": ".duel.title",
    "title_practice": ".duel.title_practice",
    "seat_player": ".duel.seat_player",
}
CHOICE_TIME_KEY = ".error.choice_time"


def keyed(table: Callable[..., T], game: str, suffixes: Mapping[str, str], /, **overrides: str | None) -> T:
    """The `table` of `game`'s keys: each field `<game>.<suffix>`, but those in `overrides` (a text the
    game words its own way)."""
    return table(**({name: f"{game}{suffix}" for name, suffix in suffixes.items()} | overrides))


def match_texts(game: str, **overrides: str | None) -> MatchTexts:
    return keyed(MatchTexts, game, MATCH_KEYS, **overrides)


def challenge_texts(game: str, **overrides: str | None) -> ChallengeTexts:
    return keyed(ChallengeTexts, game, CHALLENGE_KEYS, **overrides)


def choice_time(game: str) -> ChoiceTime:
    """The server's time per choice, in the game's `<game>_guild_settings` table (its migration's)."""
    return ChoiceTime(f"{game}_guild_settings", f"{game}{CHOICE_TIME_KEY}")


def timeout_job(game: str) -> str:
    return f"{game}:timeout"


def duel_keys(game: str) -> set[str]:
    """Every message key the block derives for `game` (the i18n test checks each is in both catalogs)."""
    suffixes = [*MATCH_KEYS.values(), *CHALLENGE_KEYS.values(), *PUBLIC_KEYS.values(), CHOICE_TIME_KEY]
    return {f"{game}{suffix}" for suffix in suffixes}


@dataclass(frozen=True)
class Duel(Match[S]):
    """A duel: seat 1 is None for the AI; `data` holds the public timeout notes (whose choice the AI
    made, in which round)."""

    @property
    def challenger(self) -> int:
        player = self.seats[0]
        assert player is not None  # seat 0 is always a player
        return player

    @property
    def notes(self) -> tuple[dict[str, Any], ...]:
        return tuple(self.data.get("notes", ()))


R = TypeVar("R", bound=Duel[Any])


def public_target(duel: Duel[Any]) -> Target:
    """The duel's public message; its players hear by DM if the bot may not post there."""
    return Target(
        "channel", duel.channel, players=tuple(p for p in duel.seats if p is not None), guild_id=duel.guild_id
    )


CHOICES_KEPT = 2048  # duels whose controls a process keeps (a few kB each: the duel's state)


class SecretDuels(ABC, Generic[C, S, R, P, CH]):
    """One game's duel use cases; a subclass declares the game's duels (`matches`, its `Matches`) and gives
    the game's parts (the abstract methods). The game's challenge refusals, settings table and timeout
    job are named after its key (`matches.rules.game`); its duels are a tournament's matches too
    (`tournament`, services/shared/duel_tournaments.py)."""

    matches: ClassVar[Matches[Any, Any]]

    def __init__(
        self,
        db: Database,
        clock: Clock,
        catalog: C,
        rng: random.Random,
        scheduler: Scheduler | None,
        default_locale: str = DEFAULT_LOCALE,
        *,
        registry: GameRegistry,
    ) -> None:
        self.registry = registry
        self.db = db
        self.clock = clock
        self.catalog = catalog
        self.rng = rng  # seeds (and a game's draws): used only inside write units (the writer's thread)
        self.scheduler = scheduler
        self.duels: Matches[S, R] = self.matches
        self.game = self.duels.rules.game
        self.choice_time = choice_time(self.game)
        self.timeout_job = timeout_job(self.game)
        self.default_locale = default_locale  # the language of a player the bot knows none of
        self.challenges = Challenges(self.duels, scheduler, CHALLENGE_TTL, challenge_texts(self.game))
        self.tournament: DuelTournament[R] = DuelTournament(self)
        if scheduler is not None:
            scheduler.on(self.timeout_job, self.on_timeout)
        # What each player's controls show, per duel: it changes only with a save of the duel (which
        # announces `MATCHES_TOPIC` with its id) or the opponent's language (`LOCALE_TOPIC`). Kept per
        # player: a seat's choice holds what only that seat may see, and is answered to that player only.
        self.choices: KeyedCache[dict[tuple[int, int], CH]] = KeyedCache(CHOICES_KEPT)
        db.subscribe_keys(MATCHES_TOPIC, self.choices.changed)
        db.subscribe_keys(LOCALE_TOPIC, lambda _player: self.choices.clear())

    # --- the game's parts ---------------------------------------------------------------------------

    @abstractmethod
    def _setup_of(self, conn: Connection, now: datetime, player: int) -> P:
        """The player's setup for a new duel (their starter given if new), refused with every reason
        when it cannot be played."""

    @abstractmethod
    def _practice_setup(self, mine: P, rng: random.Random) -> P:
        """The AI's setup against `mine` in a practice duel."""

    @abstractmethod
    def _player(self, duel: R, seat: int, setup: P) -> PlayerSetup:
        """The engine's player of `seat`."""

    @abstractmethod
    def _settle(self, conn: Connection, now: datetime, duel: R) -> R:
        """After the start or a move: the AI's own choices, the end or the timeout, the public message."""

    @abstractmethod
    def public(self, duel: R, languages: tuple[str, ...] = ()) -> MessageSpec:
        """The duel's public message; `languages`: its players' (`languages`)."""

    @abstractmethod
    def on_timeout(self, conn: Connection, job: Job, now: datetime) -> None:
        """The timeout job: the AI chooses for the late seats."""

    @abstractmethod
    def rating(self, conn: Connection, player: int) -> int:
        """The player's rating in the game (a tournament seeded by rating)."""

    @abstractmethod
    def _refusal(self, duel: R, seat: int) -> DomainError | None:
        """Why `seat` may not open its controls now (in the game's words), None when it is to act."""

    @abstractmethod
    def _choice(self, conn: Connection, duel: R, seat: int, foe_language: str | None) -> CH:
        """What the controls of `seat`, to act, show; `foe_language`: its opponent's (None: the AI)."""

    # --- starting -----------------------------------------------------------------------------------

    async def challenge(
        self, guild_id: int, channel_id: int, challenger: int, challenged: int, *, key: str | int
    ) -> R:
        now = self.clock.now()

        def prepare(conn: Connection) -> None:
            self._setup_of(conn, now, challenger)
            ensure_player(conn, challenged, now, self.registry)

        def unit(conn: Connection) -> R:
            ensure_player(conn, challenger, now, self.registry)
            return self.challenges.challenge(
                conn,
                now,
                request_key=f"{self.game}:challenge:{key}",
                guild_id=guild_id,
                channel_id=channel_id,
                challenger=challenger,
                challenged=challenged,
                kind="friend",
                prepare=lambda: prepare(conn),
            )

        return await self.db.write(unit)

    async def answer(self, duel_id: int, player: int, accept: bool, *, guild: int) -> R:
        """The challenged player accepts (the duel starts) or declines; the challenger may withdraw. Only the
        first answer counts: a later click (a double click, a forged button) is refused privately."""
        now = self.clock.now()

        def unit(conn: Connection) -> R:
            duel, accepted = self.challenges.answer(
                conn, now, duel_id, guild=guild, player=player, accept=accept
            )
            if not accepted:
                return duel
            challenged = duel.seats[1]
            assert challenged is not None
            try:
                theirs = self._setup_of(conn, now, duel.challenger)
            except DomainError as exc:  # their reasons name their deck's cards: for them only
                raise NotAllowed("matches.challenge.challenger_deck", player=f"<@{duel.challenger}>") from exc
            return self._start(conn, now, duel, (theirs, self._setup_of(conn, now, challenged)))

        return await self.db.write(unit)

    async def practice(self, guild_id: int, channel_id: int, player: int, *, key: str | int) -> R:
        """A duel against the AI with the player's setup, made once per interaction."""
        now = self.clock.now()
        request = f"{self.game}:practice:{key}"

        def unit(conn: Connection) -> R:
            ensure_player(conn, player, now, self.registry)
            duel = self.duels.by_request(conn, request)
            if duel is None:
                mine = self._setup_of(conn, now, player)
                duel = self.duels.create(
                    conn,
                    now,
                    guild_id=guild_id,
                    channel_id=channel_id,
                    seats=(player, None),
                    kind="practice",
                    request_key=request,
                )
                opponent = self._practice_setup(mine, random.Random(f"{duel.id}:{self.rng.getrandbits(32)}"))
                duel = self._start(conn, now, duel, (mine, opponent))
            if duel.challenger != player:
                raise NotAllowed()
            return duel

        return await self.db.write(unit)

    def _start(self, conn: Connection, now: datetime, duel: R, setups: tuple[P, P]) -> R:
        seed = self.rng.getrandbits(62)
        players = [self._player(duel, seat, setups[seat]) for seat in (0, 1)]
        state = self.duels.rules.engine.new_game(players, seed, {CATALOG_OPTION: self.catalog})
        duel = self.duels.start(conn, now, duel, seed=seed, setup=[setups[0], setups[1]], state=state)
        duel = self.duels.post(
            conn, now, duel, public_target(duel), self.public(duel, self.languages(conn, duel))
        )
        return self._settle(conn, now, duel)

    # --- playing ------------------------------------------------------------------------------------

    async def controls(self, duel_id: int, player: int, *, guild: int) -> CH:
        """The private controls of the player's seat when it is to act, refused privately otherwise; read
        once per version of the duel (`choices`): opening the controls, then choosing in them, read it
        once. A refusal is not kept: it is read again."""
        kept = self.choices.get(duel_id)
        if kept is not None and (player, guild) in kept:
            return kept[(player, guild)]

        def unit(conn: Connection) -> CH:
            duel = self.duels.load(conn, duel_id, guild=guild)
            seat = duel.seat_of(player)
            refusal = self._refusal(duel, seat)
            if refusal is not None:
                raise refusal
            return self._choice(conn, duel, seat, self.foe_language(conn, duel, seat))

        generation = self.choices.generation
        choice = await self.db.read(unit)
        self.choices.put(duel_id, {**(self.choices.get(duel_id) or {}), (player, guild): choice}, generation)
        return choice

    async def write_move(self, unit: Callable[[Connection], R]) -> R:
        """Run a player's move, `unit` (a write that saves the duel or raises), and keep the controls of
        the players it leaves to act (`choices`), worked out from the duel it saved in the same
        transaction: their next « Jouer », or the same seat's next move at once, then reads nothing.
        They are kept only when that save is the one forgetting since the move was queued (the commit's
        announcement, heard before the write returns on SQLite): after any other save of a duel, or one
        heard later (another process's, PostgreSQL's notifications), the controls are read as before."""
        generation = self.choices.generation
        found: dict[tuple[int, int], CH] = {}

        def run(conn: Connection) -> R:
            duel = unit(conn)
            found.clear()  # a unit run again (a serialization failure) keeps only its last run's
            found.update(self._next_choices(conn, duel))
            return duel

        duel = await self.db.write(run)
        if found and self.choices.generation == generation + 1:
            self.choices.put(duel.id, found, generation + 1)
        return duel

    def _next_choices(self, conn: Connection, duel: R) -> dict[tuple[int, int], CH]:
        """The controls of each player `duel` leaves to act, as `controls` reads them (none for the AI)."""
        found: dict[tuple[int, int], CH] = {}
        if duel.status != "live" or duel.guild_id is None:
            return found
        for seat in duel.to_act():
            player = duel.seats[seat]
            if player is not None and self._refusal(duel, seat) is None:
                foe = self.foe_language(conn, duel, seat)
                found[(player, duel.guild_id)] = self._choice(conn, duel, seat, foe)
        return found

    # --- steps the games' parts use -----------------------------------------------------------------

    def _apply(
        self,
        conn: Connection,
        now: datetime,
        duel: R,
        seat: int,
        action: Any,
        by: Author,
        refusals: Mapping[str, str],
        fallback: str,
        **params: Any,
    ) -> R:
        """Play `action` for `seat`; the engine's refusal becomes the game's sentence for its reason (a raw
        reason never reaches a player), with `params`."""
        try:
            played, _ = self.duels.play(conn, now, duel, seat, action, by)
        except IllegalAction as error:
            reason = str(error.params.get("reason", ""))
            raise BadInput(refusals.get(reason, fallback), **params) from error
        return played

    def _arm(self, conn: Connection, now: datetime, duel: R) -> R:
        """The timeout of the seats to act, after the server's choice time (one save)."""
        due = now + self.choice_time.read(conn, duel.server)
        return self.duels.arm(conn, now, duel, self.timeout_job, due, {"duel": duel.id})

    def _show(self, conn: Connection, now: datetime, duel: R) -> None:
        self.duels.show(conn, now, duel, public_target(duel), self.public(duel, self.languages(conn, duel)))

    def languages(self, conn: Connection, duel: R) -> tuple[str, ...]:
        """The languages the duel's players read, seat 0's first (the AI reads none)."""
        players = [p for p in duel.seats if p is not None]
        found = reading_languages(conn, players, self.default_locale)
        return tuple(dict.fromkeys(found[p] for p in players))

    def foe_language(self, conn: Connection, duel: R, seat: int) -> str | None:
        """The language of the player `seat` plays against, whose card names stand beside its own in its
        private controls; None against the AI."""
        foe = duel.seats[1 - seat]
        return None if foe is None else reading_languages(conn, (foe,), self.default_locale)[foe]

    def _late(self, conn: Connection, job: Job) -> R | None:
        """The duel a timeout job names, if that job is still its pending one (else it was withdrawn: the
        seat answered meanwhile, or the round ended)."""
        duel = self.duels.load_trusted(conn, int(job.payload["duel"]))
        if duel.status != "live" or duel.deadline_job != job.id or duel.state is None:
            return None
        return duel

    def _note_late(self, conn: Connection, now: datetime, duel: R, round_: int, seats: list[int]) -> R:
        """Note for the public message that the AI chose for these seats in `round_` (one save)."""
        notes = [*duel.notes, *({"round": round_, "seat": seat} for seat in seats)]
        return self.duels.save(conn, duel, now, data={**duel.data, "notes": notes})

    def _acting_seats(self, conn: Connection, duel_id: int) -> set[int]:
        """The seats whose player made at least one move themselves (not the AI on a timeout)."""
        return {move.seat for move in self.duels.moves(conn, duel_id) if move.author == "player"}

    # --- reading and settings -----------------------------------------------------------------------

    async def live(self, player: int) -> list[R]:
        return await self.db.read(lambda conn: self.duels.live_of(conn, player))

    async def get(self, duel_id: int) -> R:
        """A duel by id for the bot's own callers (tests, the sandbox); never with an id from a click."""
        return await self.db.read(lambda conn: self.duels.load_trusted(conn, duel_id))

    async def set_choice_time(self, guild_id: int, seconds: int) -> int:
        """The server's time per choice, from the next timeout armed on."""
        return await self.choice_time.save(self.db, self.clock, guild_id, seconds)

    async def choice_seconds(self, guild_id: int) -> int:
        return await self.choice_time.seconds(self.db, guild_id)


__all__ = [
    "CHALLENGE_KEYS",
    "CHALLENGE_TTL",
    "MATCH_KEYS",
    "PUBLIC_KEYS",
    "Duel",
    "SecretDuels",
    "challenge_texts",
    "choice_time",
    "duel_keys",
    "keyed",
    "match_texts",
    "public_target",
    "timeout_job",
]
