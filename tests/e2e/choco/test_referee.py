"""The human referee through Discord (a member holding the role chosen with /setup rôle-arbitre): a longer
deadline, a cancelled 24 h penalty, a game ended with a winner, a game cancelled, the log; who is refused;
and the text form's faults (V.1): a card not held, an impossible action, a turn that cannot end."""

from __future__ import annotations

import json
from datetime import timedelta

from emulator.world import User
from engine.choco.state import EndTurn, Summon
from sandbox.harness import BotHarness
from services.choco.game_store import GameRow
from services.choco.text import own_labels
from tests.e2e.choco.helpers import (
    ENGINE,
    choco,
    db_read,
    game_on_turn_1,
    greedy_turn,
    notation,
    players,
    with_bronze_deck,
)
from tests.e2e.messages import shown

DONE = "C'est fait"


async def as_referee(h: BotHarness, user: User, command: str, game: GameRow, **options: object) -> str:
    assert game.thread_id is not None
    thread = h.emu.world.channels[game.thread_id]
    result = await h.emu.run_command(user, f"choco {command}", options, channel=thread)
    assert result.message is not None, result
    assert result.message.ephemeral, result
    return shown(result.message)


def thread_text(h: BotHarness, game: GameRow) -> list[str]:
    assert game.thread_id is not None
    thread = h.emu.world.channels[game.thread_id]
    return [shown(m) for m in h.emu.messages if m.channel is thread and not m.ephemeral]


async def test_the_referee_extends_cancels_a_penalty_ends_and_cancels(harness: BotHarness) -> None:
    h = harness
    alice, bob, rita = await players(h)
    game = await game_on_turn_1(h, alice, bob)
    assert game.deadline_at is not None

    # A longer deadline: the post shows it, and the deadline job moved with it.
    assert DONE in await as_referee(h, rita, "arbitre-prolonger", game, heures=24)
    await h.settle()
    moved = await choco(h).games.get(game.id)
    assert moved.deadline_at == game.deadline_at + timedelta(hours=24)
    stamp = int(moved.deadline_at.timestamp())
    assert any("accorde 24 h de délai" in t and f"<t:{stamp}:F>" in t for t in thread_text(h, game))
    await h.advance(timedelta(hours=25))
    same = await choco(h).games.get(game.id)
    assert same.state == moved.state
    assert same.stage == moved.stage
    assert await db_read(h, "SELECT 1 FROM choco_game_log WHERE kind = 'penalty_24h'") == []

    # The 24 h penalty fires at the new deadline; the referee cancels it: the card comes back.
    seat = same.state.active
    before = same.state.sides[seat]
    await h.advance(timedelta(hours=23, minutes=1))
    hit = await choco(h).games.get(game.id)
    assert [k for (k,) in await db_read(h, "SELECT kind FROM choco_game_log WHERE kind = 'penalty_24h'")]
    after = hit.state.sides[seat]
    assert len(after.graveyard) == len(before.graveyard) + 1
    lost_from_pioche = len(after.pioche) == len(before.pioche) - 1
    assert (
        await as_referee(h, rita, "arbitre-pénalité", game)
        == f"{DONE} (partie n° {game.id}) ; c'est écrit dans le journal de la partie."
    )
    await h.settle()
    back = (await choco(h).games.get(game.id)).state.sides[seat]
    assert len(back.graveyard) == len(before.graveyard)
    assert len(back.pioche) == len(before.pioche)
    assert len(back.hand) == len(before.hand)
    assert lost_from_pioche or len(after.hand) == len(before.hand) - 1
    assert any("annule la dernière pénalité" in t for t in thread_text(h, game))

    # Ended with a winner: results and the reward card for the winner.
    assert DONE in await as_referee(h, rita, "arbitre-terminer", game, vainqueur=bob)
    await h.settle()
    over = await choco(h).games.get(game.id)
    assert (over.status, over.result, over.winner_seat) == ("over", "referee", 1)
    rows = await db_read(h, "SELECT player_id, wins, losses FROM choco_results ORDER BY player_id")
    assert sorted(rows) == sorted([(alice.id, 0, 1), (bob.id, 1, 0)])
    [(result,)] = await db_read(h, "SELECT result FROM matches WHERE game = 'choco' AND number = ?", game.id)
    reward = await db_read(h, "SELECT owner_id FROM cards WHERE id = ?", json.loads(result)["reward_card"])
    assert reward == [(bob.id,)]
    assert any("termine la partie\u00a0: victoire de" in t for t in thread_text(h, game))

    # Another game, cancelled: no result, no reward, the thread archived.
    second = await game_on_turn_1(h, alice, bob)
    cards_before = await db_read(h, "SELECT COUNT(*) FROM cards")
    assert DONE in await as_referee(h, rita, "arbitre-annuler", second)
    await h.settle()
    gone = await choco(h).games.get(second.id)
    assert (gone.status, gone.result, gone.winner_seat) == ("cancelled", "cancelled", None)
    [(result,)] = await db_read(
        h, "SELECT result FROM matches WHERE game = 'choco' AND number = ?", second.id
    )
    assert json.loads(result).get("reward_card") is None
    assert await db_read(h, "SELECT COUNT(*) FROM cards") == cards_before
    assert sorted(await db_read(h, "SELECT player_id, wins, losses, draws FROM choco_results")) == sorted(
        [(alice.id, 0, 1, 0), (bob.id, 1, 0, 0)]
    )
    assert second.thread_id is not None
    assert h.emu.world.channels[second.thread_id].archived

    # Every act is in the log, as stored and as the referee reads it.
    kinds = [
        k
        for (k,) in await db_read(
            h, "SELECT kind FROM choco_game_log WHERE actor_id = ? ORDER BY match_id, seq", rita.id
        )
    ]
    assert kinds == ["referee_extend", "referee_cancel_penalty", "referee_end", "referee_cancel"]
    for which, expected in (
        (game, ["referee_extend", "referee_cancel_penalty", "referee_end"]),
        (second, ["referee_cancel"]),
    ):
        assert which.thread_id is not None
        result = await h.emu.run_command(rita, "choco arbitre-journal", {"partie": which.id})
        assert result.message is not None
        assert result.message.ephemeral
        [attachment] = result.message.attachments
        entries = json.loads(attachment.data)
        assert [e["kind"] for e in entries if e["actor"] == rita.id] == expected
        # Both games are over: the referee reads the full record, seed and decks included.
        created = next(e for e in entries if e["kind"] == "created")
        assert created["data"]["seed"] == which.seed
        assert len(created["data"]["decks"]) == 2


async def test_who_may_referee(harness: BotHarness) -> None:
    h = harness
    alice, bob, _ = await players(h)
    carl = h.user("carl")
    game = await game_on_turn_1(h, alice, bob)
    assert h.guild is not None
    role = next(r for r in h.guild.roles if r.name == "Arbitres")
    alice.roles.append(role)  # a player holding the role is still a player
    for user, message in (
        (carl, "Seuls les arbitres"),
        (alice, "Un joueur ne peut pas arbitrer sa propre partie."),
        (bob, "Un joueur ne peut pas arbitrer sa propre partie."),
    ):
        for command, options in (
            ("arbitre-prolonger", {"heures": 5}),
            ("arbitre-terminer", {"vainqueur": user if user in (alice, bob) else alice}),
            ("arbitre-annuler", {}),
            ("arbitre-journal", {}),
        ):
            text = await as_referee(h, user, command, game, **options)
            assert message in text, (user.name, command, text)
    same = await choco(h).games.get(game.id)
    assert same.version == game.version
    assert same.status == "live"
    assert await db_read(h, "SELECT 1 FROM choco_game_log WHERE kind LIKE 'referee%'") == []


def hand_size(game: GameRow, seat: int) -> int:
    return len(game.state.sides[seat].hand)


async def test_faults_of_the_text_form(harness: BotHarness) -> None:
    h = harness
    alice, bob = h.user("alice"), h.user("bob")
    await with_bronze_deck(h, alice)
    await with_bronze_deck(h, bob)
    game = await game_on_turn_1(h, alice, bob, "réserve")  # so that AR1 exists
    users = {alice.id: alice, bob.id: bob}
    seat = game.state.active
    player = users[game.player(seat)]
    assert game.thread_id is not None
    thread = h.emu.world.channels[game.thread_id]

    async def play(text: str) -> str:
        result = await h.emu.run_command(player, "choco jouer", {"actions": text}, channel=thread)
        assert result.message is not None
        assert result.message.ephemeral
        await h.settle()
        return shown(result.message)

    # No summon while holding a wizard with a free slot: refused, nothing changes.
    refused = await play("déplace R1 front")
    assert "Déclaration refusée, rien n'a changé" in refused, refused
    assert "vous devez invoquer un sorcier" in refused, refused
    assert (await choco(h).games.get(game.id)).version == game.version

    # A card not held: the fault, privately and publicly; once per turn.
    notices_before = sum("L'arbitre note une faute" in t for t in thread_text(h, game))
    for text in ("invoque M9 front", "invoque Carte Inconnue Xyz front"):
        answer = await play(text)
        if "Vous avez déclaré une carte que vous ne possédez pas" not in answer:
            assert text.endswith("Xyz front"), answer  # an unknown name is a typo, not a fault
    hand = {c.card_id for c in game.state.sides[seat].hand}
    catalog = choco(h).economy.decks.catalog
    foreign = next(c for c in catalog.cards if c.type == "normal" and c.id not in hand)
    answer = await play(f"invoque {foreign.name.fr} front")
    # A second fault in the turn grants no extra draw (V.1, once per turn), so the bot does not announce one.
    assert "Déclaration refusée" in answer, answer
    assert "piochera" not in answer, answer
    notices = sum("L'arbitre note une faute" in t for t in thread_text(h, game))
    assert notices == notices_before + 1
    faulted = await choco(h).games.get(game.id)
    assert faulted.faulted_turn == game.state.turn

    # An impossible step is ignored and said; the rest of the turn is played; the opponent draws one more.
    steps = greedy_turn(faulted.state, seat)
    first = steps[0]
    assert isinstance(first, Summon)  # the greedy turn summons first
    summoned = own_labels(faulted.state.sides[seat])[first.card]
    text = notation(faulted, steps) + f"; attaque {summoned} > AR1"  # a wizard in the reserve
    plain = game.state
    for step in [*steps, EndTurn()]:
        plain, _ = ENGINE.apply(plain, seat, step)
    answer = await play(text)
    assert "Tour joué" in answer, answer
    assert "Actions impossibles, ignorées" in answer, answer
    played = await choco(h).games.get(game.id)
    assert played.state.turn == game.state.turn + 1
    assert hand_size(played, 1 - seat) == len(plain.sides[1 - seat].hand) + 1
    assert any("Action ignorée" in t for t in thread_text(h, game)[-1:]), thread_text(h, game)[-1]
