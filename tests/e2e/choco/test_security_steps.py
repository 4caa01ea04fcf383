"""Refused steps never name a card the table has not seen, through Discord: seeded games where each player
declares a second summon, an attack by a card still in hand, an impossible move and a card they do not
hold; every public message (thread, channels) and every DM to the other player is scanned for the name of
a card in a hand or a pioche that was never revealed, while the player's own private reply names it. A
negative control proves the scan catches such a name."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from emulator.records import RecordedMessage
from emulator.world import User
from engine.choco.state import ChocoState
from sandbox.harness import BotHarness
from services.choco.game_store import GameRow
from tests.e2e.choco.helpers import Watch, choco, game_on_turn_1, leaks, names, with_bronze_deck
from tests.e2e.conftest import run_harness
from tests.e2e.messages import shown

SEED = 23


@pytest.fixture
async def seeded(tmp_path: Path) -> AsyncIterator[BotHarness]:
    async for h in run_harness(BotHarness(tmp_path / "bot.sqlite3", owners=("olivia",), seed=SEED)):
        yield h


class DmWatch:
    """Checks each DM against the state when it appeared: a DM to a player may name that player's own
    hand, never a card of the other player's hand or pioche, nor of their own pioche, unless revealed."""

    def __init__(self, h: BotHarness, watch: Watch) -> None:
        self.h, self.watch = h, watch
        self.seen = 0
        self.found: list[tuple[RecordedMessage, list[str]]] = []

    def check(self, game: GameRow) -> None:
        catalog = self.watch.catalog
        allowed = {n for c in self.watch.revealed for n in names(catalog, c)}
        new = self.h.emu.messages[self.seen :]
        self.seen = len(self.h.emu.messages)
        for message in new:
            recipient = message.channel.recipient
            if message.ephemeral or recipient is None or recipient.id not in game.seats:
                continue
            mine, theirs = (
                game.state.sides[s] for s in (game.seat_of(recipient.id), 1 - game.seat_of(recipient.id))
            )
            hidden = {c.card_id for c in (*theirs.hand, *theirs.pioche, *mine.pioche)}
            secret = hidden - {c.card_id for c in mine.hand} - self.watch.revealed
            found = leaks(shown(message), {n for c in secret for n in names(catalog, c)}, allowed)
            if found:
                self.found.append((message, found))


def secret_cards(state: ChocoState, seat: int, revealed: set[str]) -> list[tuple[int, str]]:
    """(hand position, catalog id) of the wizards in `seat`'s hand that nobody else can know: not revealed,
    not in the opponent's hand (whose own DMs may name it)."""
    theirs = {c.card_id for c in state.sides[1 - seat].hand}
    return [
        (i, c.card_id)
        for i, c in enumerate(state.sides[seat].hand, 1)
        if not c.pure and c.card_id not in revealed | theirs
    ]


async def refused_steps(
    h: BotHarness, watch: Watch, dms: DmWatch, user: User, game: GameRow
) -> tuple[str, str]:
    """`user` (to act) declares a card they do not hold, then a turn with a summon followed by a second
    summon, an attack and a move of a hand card. Returns the catalog ids those refused steps named: the
    hand card, the card not held."""
    assert game.thread_id is not None
    thread = h.emu.world.channels[game.thread_id]
    seat = game.seat_of(user.id)
    state = game.state
    catalog = watch.catalog
    candidates = secret_cards(state, seat, watch.revealed)
    first = next(i for i, c in enumerate(state.sides[seat].hand, 1) if not c.pure)
    position, hidden = next(
        (i, c) for i, c in candidates if i != first and c != state.sides[seat].hand[first - 1].card_id
    )
    in_pioche = {c.card_id for c in state.sides[seat].pioche} - {c.card_id for c in state.sides[seat].hand}
    unheld = sorted(in_pioche - watch.revealed - {c.card_id for c in state.sides[1 - seat].hand})[0]

    fault = await h.emu.run_command(
        user, "choco jouer", {"actions": f"invoque {names(catalog, unheld).pop()} front"}, channel=thread
    )
    assert fault.message is not None
    assert fault.message.ephemeral
    assert "Vous avez déclaré une carte que vous ne possédez pas" in shown(fault.message), shown(
        fault.message
    )
    await h.settle()

    text = f"invoque M{first} front; invoque M{position} réserve; attaque M{position} > AF1; déplace M{position} front"
    played = await h.emu.run_command(user, "choco jouer", {"actions": text}, channel=thread)
    assert played.message is not None
    assert played.message.ephemeral
    private = shown(played.message)
    assert "Tour joué" in private, private
    assert private.count("Action ignorée") == 3, private
    # The player is told privately which card each refused step named.
    assert any(n in private for n in names(catalog, hidden)), private
    await h.settle()
    after = await choco(h).games.get(game.id)
    assert after.state.turn == game.state.turn + 1
    thread_posts = [shown(m) for m in h.emu.messages if m.channel is thread and not m.ephemeral]
    assert thread_posts[-1].count("Action ignorée") == 3, thread_posts[-1]
    assert "une carte cachée" in thread_posts[-1], thread_posts[-1]
    await watch.check(game.id)
    dms.check(after)
    return hidden, unheld


async def test_refused_steps_name_no_hidden_card(seeded: BotHarness) -> None:
    h = seeded
    alice, bob = h.user("alice"), h.user("bob")
    await with_bronze_deck(h, alice)
    await with_bronze_deck(h, bob, wizards_only=False, offset=2)
    game = await game_on_turn_1(h, alice, bob)
    watch = Watch(h)
    dms = DmWatch(h, watch)
    await watch.check(game.id)
    dms.check(game)
    users = {alice.id: alice, bob.id: bob}
    named: list[tuple[str, str]] = []
    for _ in range(2):  # each player in turn
        game = await choco(h).games.get(game.id)
        user = users[game.player(game.state.active)]
        named.append(await refused_steps(h, watch, dms, user, game))
    assert not {c for pair in named for c in pair} & watch.revealed
    assert watch.checked > 3
    assert watch.found == [], "\n\n".join(f"{n}: {shown(m)}" for m, n in watch.found)
    assert dms.found == [], "\n\n".join(f"{n}: {shown(m)}" for m, n in dms.found)

    # Negative control: the names the refused steps used, posted in the thread and in a player's DMs,
    # are caught by both scans.
    game = await choco(h).games.get(game.id)
    assert game.thread_id is not None
    leaked = named[-1][0]  # still in the hand of the last player
    name = watch.catalog.card(leaked).name.fr  # type: ignore[union-attr]
    await h.emu.post_message(h.user("zoe"), f"Il cache {name}", channel=h.emu.world.channels[game.thread_id])
    await watch.check(game.id)
    assert [n for _, n in watch.found] == [[name]]
    holder = next(s for s in (0, 1) if leaked in {c.card_id for c in game.state.sides[s].hand})
    other = users[game.player(1 - holder)]
    h.emu.create_message(h.emu.dm_channel(other), h.emu.world.bot, {"content": f"Il cache {name}"})
    dms.check(game)
    assert [n for _, n in dms.found] == [[name]]
