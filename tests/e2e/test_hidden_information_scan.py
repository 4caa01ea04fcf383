"""Hidden information over seeded whole games of every game, as users see them through Discord.

After every step (a move, a refused step, a deadline forced by moving the clock, a click by an outsider)
every message the emulator delivered since the previous step is scanned (tests/e2e/leak_scan.py): public
posts, thread messages, every version of every edit, embeds, components, attached files, DMs and
ephemeral replies, each against the readers allowed to see it. The secrets of the moment come from the
database: the hands and piles and their order, a pending bet, the seeds of live games. Negative controls
prove the scan reports a hand card posted in a thread and a seed in a file even when the message was
edited afterwards, a hand's picture posted in a thread (by the card names its PNG carries), a draw
order, and a pending bet.

The scans of Chocobataille, Pillz and HOSS are here; a later game's scan is a test in its own
`tests/e2e/<game>/` built on tests/e2e/leak_scan.py, and `test_every_game_has_a_scan` fails for a game
that has none.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from datetime import timedelta
from pathlib import Path

import pytest

from emulator.messages import UploadedFile, fill_message
from emulator.world import User
from engine.choco.state import Card
from engine.choco.turn import summons_allowed
from engine.hoss import ENGINE as HOSS
from engine.hoss.fighters import line_index_of
from engine.hoss.state import HossState, LineSpec
from sandbox.harness import BotHarness
from services.choco.game_store import GameRow
from services.hoss.battle import battles as hoss_battles
from services.hoss.battle.ranked import RankedService
from services.infra.messages import StripCard
from tests.e2e.choco.helpers import (
    Watch,
    challenge_accepted,
    choco,
    names,
    notation,
    policy,
    public_ids,
    reward_of,
    with_bronze_deck,
)
from tests.e2e.conftest import run_harness
from tests.e2e.hoss.helpers import decide_once, hoss, start_rank_1, with_deck
from tests.e2e.leak_scan import (
    EVERYONE,
    Allowed,
    LeakScan,
    Moment,
    Secret,
    check,
    names_secret,
    order_secret,
    seeds,
)
from tests.e2e.pillz.helpers import (
    PillzSecrets,
    distinct_bet,
    duel_message,
    first_unused,
    friend_duel,
    move,
    pillz,
    play_duel,
)
from tests.support.registries import every_game

pytestmark = pytest.mark.sweep

E2E = Path(__file__).resolve().parent
SCANNED_HERE = frozenset({"choco", "hoss", "pillz"})  # the scans below; later games scan in their own package
SEED = 23  # the games' draws: the same steps give the same games, and the same findings
MAX_TURNS = 200


@pytest.fixture
async def seeded(tmp_path: Path) -> AsyncIterator[BotHarness]:
    async for h in run_harness(BotHarness(tmp_path / "bot.sqlite3", owners=("olivia",), seed=SEED)):
        yield h


# --- Chocobataille -------------------------------------------------------------------------------------


class ChocoSecrets:
    """A game's secrets now: each hand (its owner's; at turn 0 the secret placements too), each pioche
    (nobody's) and its next three cards in order, the seeds while live. A card public now or before (board,
    graveyard, a public log event, the reward) is no longer secret."""

    def __init__(self, h: BotHarness, game_id: int) -> None:
        self.h = h
        self.game_id = game_id
        self.watch = Watch(h)
        self.revealed: set[str] = set()

    def words(self, card_id: str) -> set[str]:
        return names(self.watch.catalog, card_id)

    async def moment(self) -> Moment:
        game = await choco(self.h).games.get(self.game_id)
        state = game.state
        reward = await reward_of(self.h, game.id) if game.status == "over" else set()
        self.revealed |= public_ids(state) | reward | await self.watch.named(game.id, state)
        allowed: Allowed = {EVERYONE: {w for c in self.revealed for w in self.words(c)}}
        secrets: list[Secret] = []
        for seat, side in enumerate(state.sides):
            user = game.player(seat)
            own = {c.card_id for c in side.hand}
            if state.turn == 0:
                own |= {c.card_id for c in (*side.front, *side.reserve)}
            # the owner's own cards by name, and by id (the values of « Voir une carte » under the hand)
            allowed[user] = {w for c in own for w in self.words(c)} | own
            for card in sorted(own - self.revealed):
                secrets.append(names_secret(f"seat {seat}'s hand: {card}", self.words(card), [card], [user]))
            for card in sorted({c.card_id for c in side.pioche} - self.revealed):
                secrets.append(names_secret(f"seat {seat}'s pioche: {card}", self.words(card), [card]))
            upcoming = [{*self.words(c.card_id), c.card_id} for c in side.pioche[:3]]
            if len(upcoming) == 3:  # the owner's own hand may list the same names in that order
                order = [c.card_id for c in side.pioche[:3]]
                # so may another reader's hand that holds those cards in that order (its picture lists
                # the names close together): the match is their own cards, not this pioche
                readers = [
                    user,
                    *(
                        game.player(s)
                        for s in range(len(state.sides))
                        if s != seat and holds_in_order(state.sides[s].hand, order)
                    ),
                ]
                secrets.append(order_secret(f"seat {seat}'s draw order {order}", upcoming, readers))
        if game.status == "live":
            secrets += seeds(f"game {game.id}", game.seed, state.rng.seed)
        return secrets, allowed


def holds_in_order(hand: Sequence[Card], order: Sequence[str]) -> bool:
    """Whether `order`'s card ids appear in `hand`, in that order (other cards between them)."""
    ids = iter(c.card_id for c in hand)
    return all(any(held == wanted for held in ids) for wanted in order)


async def declare(h: BotHarness, user: User, game_id: int, text: str) -> bool:
    """Declares in the game's thread in the text form; True when the turn was played."""
    before = await choco(h).games.get(game_id)
    assert before.thread_id is not None
    thread = h.emu.world.channels[before.thread_id]
    await h.emu.run_command(user, "choco jouer", {"actions": text}, channel=thread)
    await h.settle()
    after = await choco(h).games.get(game_id)
    return (after.state.turn, after.state.active, after.status) != (
        before.state.turn,
        before.state.active,
        before.status,
    )


def wizards_in_hand(game: GameRow) -> list[int]:
    return [i for i, c in enumerate(game.state.sides[game.state.active].hand, 1) if not c.pure]


async def refused_steps(h: BotHarness, user: User, game: GameRow) -> None:
    """Cards not held (a position beyond the hand, a catalog name) are refused as a whole; then a turn
    whose second summon (one allowed) and attack by a card still in hand are ignored steps: the first
    summon is played, the two other cards stay in the hand."""
    wizards = wizards_in_hand(game)
    held = {c.card_id for side in game.state.sides for c in (*side.hand, *side.pioche)}
    stranger = next(c for c in choco(h).economy.decks.catalog.cards if c.id not in held)
    for text in ("invoque M9 front", f"invoque {stranger.name.fr} front"):
        assert not await declare(h, user, game.id, text), text
    first, second, attacker = wizards[0], wizards[1], wizards[-1]
    text = f"invoque M{first} front; invoque M{second} réserve; attaque M{attacker} > AF1"
    assert await declare(h, user, game.id, text)
    after = await choco(h).games.get(game.id)
    hand = after.state.sides[after.seat_of(user.id)].hand
    assert {c.uid for c in hand} >= {
        game.state.sides[game.state.active].hand[i - 1].uid for i in (second, attacker)
    }


async def test_a_chocobataille_game_shows_no_hand_pioche_or_seed(seeded: BotHarness) -> None:
    """A whole game with its preparatory turn forced by the deadline, refused steps, a 24 h penalty and a
    passed turn, the hand shown on demand and the referee's log: nothing a reader may not know."""
    h = seeded
    alice, bob, olivia = h.user("alice"), h.user("bob", locale="en"), h.user("olivia")
    await with_bronze_deck(h, alice, wizards_only=False)
    await with_bronze_deck(h, bob, wizards_only=False, offset=1)
    scan = LeakScan(h.emu)
    game = await challenge_accepted(h, alice, bob, channel=h.games_channel)
    assert game.thread_id is not None
    thread = h.emu.world.channels[game.thread_id]
    tracker = ChocoSecrets(h, game.id)
    await check(scan, tracker)

    wizard = next(i for i, c in enumerate(game.state.sides[game.seat_of(alice.id)].hand, 1) if not c.pure)
    await declare(h, alice, game.id, f"invoque M{wizard} front")
    await check(scan, tracker)
    assert await h.advance(timedelta(hours=72, minutes=1)) >= 1  # bob never places: the bot does
    await check(scan, tracker)
    game = await choco(h).games.get(game.id)
    assert game.state.turn >= 1, "the preparatory turn ended on its deadline"

    users = {alice.id: alice, bob.id: bob}
    timeouts = 0
    refused_at: int | None = None
    for turn in range(MAX_TURNS):
        game = await choco(h).games.get(game.id)
        if game.status != "live":
            break
        user = users[game.player(game.state.active)]
        one_summon = summons_allowed(game.state, game.state.active) == 1
        if refused_at is None and turn >= 1 and one_summon and len(wizards_in_hand(game)) >= 2:
            refused_at = turn
            await refused_steps(h, user, game)
            await check(scan, tracker)
            await h.emu.run_command(user, "choco main", channel=thread)
            await h.emu.run_command(olivia, "choco arbitre-journal", channel=thread)
            await h.settle()
            await check(scan, tracker)
            continue
        if (
            refused_at is not None and turn >= refused_at + 2 and timeouts == 0 and user is alice
        ):  # alice lets D pass (a pioche card destroyed), then 3 D (turn passed); not bob, whose forced
            # preparatory placement was already a passed turn: a second one would disqualify him
            timeouts += await h.advance(timedelta(hours=24, minutes=1))
            await check(scan, tracker)
            timeouts += await h.advance(timedelta(hours=48))
            await check(scan, tracker)
            continue
        text = notation(game, policy(game.state, game.state.active)) or "fin"
        assert await declare(h, user, game.id, text), text
        await check(scan, tracker)
    game = await choco(h).games.get(game.id)
    assert game.status == "over"
    assert game.state.turn > 5
    assert refused_at is not None
    assert timeouts >= 2
    assert scan.pieces > 200
    assert scan.files >= 1
    assert scan.findings == [], "\n" + scan.report()


# --- Pillz ---------------------------------------------------------------------------------------------


async def test_pillz_duels_show_no_pending_bet_deck_or_seed(seeded: BotHarness) -> None:
    """A friend duel (an outsider clicking its controls, a move left to the AI on the deadline) and a
    practice duel: no pending bet, card left in a deck or seed reaches a reader who may not know it."""
    h = seeded
    zoe = h.user("zoe", locale="en")
    scan = LeakScan(h.emu)
    alice, bob, duel_id = await friend_duel(h)
    h.user("carl")
    everybody = set(h.emu.world.users)  # every reader: a secret they all may know is public-only
    friend = PillzSecrets(h, duel_id, everybody)
    await check(scan, friend)
    refused = await h.emu.click(zoe, "Jouer", message=duel_message(h, duel_id))
    assert refused.message is not None
    assert refused.message.ephemeral
    await check(scan, friend)
    timeouts = await play_duel(h, scan, friend, {alice.id: alice, bob.id: bob})

    carl = h.user("carl")
    await h.emu.run_command(carl, "pillz entraînement")
    await h.settle()
    (practice,) = await pillz(h).duels.live(carl.id)
    alone = PillzSecrets(h, practice.id, everybody)
    await check(scan, alone)
    timeouts += await play_duel(h, scan, alone, {carl.id: carl})

    assert timeouts >= 1
    assert friend.bets_checked + alone.bets_checked >= 4
    assert scan.findings == [], "\n" + scan.report()


# --- HOSS ----------------------------------------------------------------------------------------------


class HossSecrets:
    """A ranked battle's secrets now: the lines not yet in play (the player's are theirs, the AI's
    nobody's), each pile's next cards in order, the seeds while live. Once over, its log may say all."""

    def __init__(self, h: BotHarness, player: User) -> None:
        self.h = h
        self.player = player
        self.battle_id: int | None = None

    def words(self, line: LineSpec) -> set[str]:
        catalog = hoss(self.h).decks.catalog
        found: set[str] = set()
        for copy in (line.r1, *line.r2, *line.r3):
            card = catalog.card(copy.card)
            assert card is not None
            found |= {card.name.fr, card.name.en, copy.card}
        return found

    async def moment(self) -> Moment:
        assert self.h.bot is not None
        self.battle_id = await hoss(self.h).ranked.current(self.player.id) or self.battle_id
        assert self.battle_id is not None
        battle_id = self.battle_id
        row = await self.h.bot.services.db.read(lambda conn: hoss_battles.load(conn, battle_id))
        assert row is not None
        state: HossState = HOSS.from_json(row.state)
        catalog = hoss(self.h).decks.catalog
        public: set[str] = set()
        for seat in state.seats:
            for fighter in seat.fighters:
                public |= self.words(seat.deck.lines[line_index_of(fighter.uid)])
            for buff in seat.deck.buffs:
                card = catalog.card(buff.card)
                assert card is not None
                public |= {card.name.fr, card.name.en}
        mine = {w for line in state.seats[0].deck.lines for w in self.words(line)}
        allowed: Allowed = {EVERYONE: public, self.player.id: mine}
        secrets: list[Secret] = []
        if not row.live:
            return secrets, allowed
        for index, seat in enumerate(state.seats):
            owners = [self.player.id] if index == 0 else []
            for uid in (*seat.hand, *seat.pile):
                line = seat.deck.lines[line_index_of(uid)]
                secrets.append(
                    names_secret(f"seat {index}'s unplayed line {uid}", self.words(line), [], owners)
                )
            upcoming = [self.words(seat.deck.lines[line_index_of(uid)]) for uid in seat.pile[:3]]
            if len(upcoming) >= 2:
                secrets.append(order_secret(f"seat {index}'s pile order {seat.pile[:3]}", upcoming, owners))
        secrets += seeds(f"battle {row.id}", row.seed, state.rng.seed)
        return secrets, allowed


async def test_a_hoss_ranked_battle_shows_no_unplayed_line_or_seed(
    seeded: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Decisions, an outsider's click and replay request, the battle shown again (privately), the rest
    left to the AI on the deadline and its log; then a second battle shown privately and skipped to its
    end from there: the seed and the lines not yet in play stay secret while a battle is live."""
    monkeypatch.setattr(RankedService, "pace", timedelta(0))
    h = seeded
    alice, zoe = h.user("alice"), h.user("zoe", locale="en")
    await with_deck(h, alice)
    scan = LeakScan(h.emu)
    tracker = HossSecrets(h, alice)
    public = await start_rank_1(h, alice)
    await check(scan, tracker)
    for _ in range(2):
        await decide_once(h, alice)
        await check(scan, tracker)
    battle = tracker.battle_id
    assert battle is not None
    await h.emu.click(zoe, "Décider", message=public)
    await h.emu.run_command(zoe, "hoss revoir", {"id": battle})
    await h.emu.run_command(alice, "hoss combat")
    await h.settle()
    await check(scan, tracker)
    assert await h.advance(timedelta(minutes=2, seconds=1)) == 1  # the AI plays the rest for alice
    await h.settle()
    await check(scan, tracker)
    assert await hoss(h).ranked.current(alice.id) is None
    await start_rank_1(h, alice)
    tracker.battle_id = None
    await check(scan, tracker)
    private = (await h.emu.run_command(alice, "hoss combat")).message
    assert private is not None
    await check(scan, tracker)
    await h.emu.click(alice, "Passer à la fin", message=private)
    await h.settle()
    await check(scan, tracker)
    assert await hoss(h).ranked.current(alice.id) is None
    assert scan.files >= 2
    assert scan.pieces > 30
    assert scan.findings == [], "\n" + scan.report()


# --- every game --------------------------------------------------------------------------------------


def scanned_in_own_package(game: str) -> bool:
    """A test module of the game's own e2e package scans its messages with `LeakScan`."""
    return any("LeakScan(" in path.read_text("utf-8") for path in (E2E / game).glob("test_*.py"))


def test_every_game_has_a_scan() -> None:
    missing = [
        g.key
        for g in every_game().all_games()
        if g.key not in SCANNED_HERE and not scanned_in_own_package(g.key)
    ]
    assert missing == [], f"games whose messages no seeded whole game scans: {missing}"
    assert scanned_in_own_package("pillz") is False  # the check reads files: it can answer no


# --- negative controls ---------------------------------------------------------------------------------


async def test_the_scan_reports_a_hand_card_a_seed_in_a_file_and_a_draw_order(seeded: BotHarness) -> None:
    """Each injected secret is reported, the first two although the message was edited to hide it: a
    hand card posted in the game's thread, the seed in an attached file, the next three draws."""
    h = seeded
    alice, bob, zoe = h.user("alice"), h.user("bob"), h.user("zoe")
    await with_bronze_deck(h, alice)
    await with_bronze_deck(h, bob, wizards_only=False)
    game = await challenge_accepted(h, alice, bob, channel=h.games_channel)
    assert game.thread_id is not None
    thread = h.emu.world.channels[game.thread_id]
    scan = LeakScan(h.emu)
    tracker = ChocoSecrets(h, game.id)
    await check(scan, tracker)
    assert scan.findings == []
    assert scan.pieces > 0

    hand = game.state.sides[game.seat_of(bob.id)].hand
    card = next(c.card_id for c in hand if c.card_id not in tracker.revealed)
    said = await h.emu.post_message(
        zoe, f"Psst, il a {sorted(tracker.words(card))[0]} en main", channel=thread
    )
    fill_message(said, {"content": "rien"}, [], h.emu.world.ids, editing=True)
    await check(scan, tracker)
    assert scan.findings
    assert {(f.piece.message.id, f.piece.version) for f in scan.findings} == {(said.id, 0)}
    assert any(f.secret.what == f"seat 1's hand: {card}" for f in scan.findings)
    before = len(scan.findings)

    upload = UploadedFile("files[0]", "notes.json", json.dumps({"s": f"{game.seed:#x}"}).encode())
    posted = h.emu.create_message(thread, zoe, {"content": "le journal"}, [upload])
    fill_message(posted, {"attachments": []}, [], h.emu.world.ids, editing=True)
    assert posted.attachments == []
    await check(scan, tracker)
    (found,) = scan.findings[before:]
    assert found.secret.what == f"game {game.id} seed {game.seed}"
    assert found.piece.part == "file notes.json"

    # a hand's picture posted where others see it is reported by the names its PNG description carries
    assert h.bot is not None
    picture = await h.bot.services.card_images.strip("choco", [StripCard(c.card_id) for c in hand], "fr")
    strip_name = f"choco-hand-{game.id}.png"
    h.emu.create_message(
        thread, zoe, {"content": "regardez"}, [UploadedFile("files[0]", strip_name, picture)]
    )
    await check(scan, tracker)
    leaked = [f for f in scan.findings[before + 1 :] if f.piece.part == f"file {strip_name}"]
    assert any(f.secret.what == f"seat 1's hand: {card}" for f in leaked)

    pioche = game.state.sides[0].pioche[:3]
    names_in_order = " puis ".join(tracker.words(c.card_id).pop() for c in pioche)
    h.emu.create_message(thread, zoe, {"content": f"Prochaines pioches\u00a0: {names_in_order}"})
    await check(scan, tracker)
    assert any(f.secret.what.startswith("seat 0's draw order") for f in scan.findings[before + 1 :])


async def test_the_scan_reports_a_pending_bet(seeded: BotHarness) -> None:
    """The leader's pending bet, once written as a played side would show it, is reported in a public
    post and in the other player's private reply, never in the leader's own."""
    h = seeded
    zoe = h.user("zoe")
    alice, bob, duel_id = await friend_duel(h)
    scan = LeakScan(h.emu)
    tracker = PillzSecrets(h, duel_id, set(h.emu.world.users))
    duel = await pillz(h).duels.get(duel_id)
    assert duel.state is not None
    seat = duel.to_act()[0]
    users = {alice.id: alice, bob.id: bob}
    leader = users[duel.seats[seat] or 0]
    other = bob if leader is alice else alice
    bet = distinct_bet(duel.state, seat)
    await move(h, leader, duel_id, await first_unused(h, duel_id, seat), bet)
    await check(scan, tracker)
    assert scan.findings == []
    assert tracker.bets_checked == 1

    side = f"Herboriste ({bet} pillz, ATQ {2 * bet})"
    channel = duel_message(h, duel_id).channel
    await h.emu.post_message(zoe, f"Il joue {side}", channel=channel)
    for user in (other, leader):
        h.emu.create_message(channel, h.emu.world.bot, {"content": side}, ephemeral_to=user)
    await check(scan, tracker)
    audiences = sorted(f.piece.audience for f in scan.findings)
    assert audiences == sorted([EVERYONE, EVERYONE, other.id]), scan.report()
