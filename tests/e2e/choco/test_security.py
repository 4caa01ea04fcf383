"""Chocobataille across servers and from forged clicks, through Discord: a member's rights in one server
give nothing in another (a game of another server is answered exactly like a game that does not exist),
a custom id naming another server's game or challenge is refused and changes nothing, and the referee's
log of a live game holds only the public record (seed, decks and hands once the game is over)."""

from __future__ import annotations

import json
import re
from typing import Any

from emulator.payloads import guild_payload
from emulator.world import MANAGE_GUILD, Channel, Guild, User
from sandbox.harness import BotHarness
from services.choco.game_store import GameRow
from services.infra import ledger
from store.connection import Connection
from tests.e2e.choco.helpers import GRANT, choco, db_read, game_on_turn_1, hidden_ids, names, players
from tests.e2e.messages import after_welcome, public_answer, shown

OTHER = "Autre serveur"


def missing(game_id: int) -> str:
    return f"La partie n° {game_id} n'existe pas."


async def other_server(h: BotHarness, *, managers: tuple[User, ...] = ()) -> Channel:
    """A second server the bot is in, where `managers` hold Manage Server; the commands published
    globally (as `/admin sync` does in production). Returns its #general channel."""
    guild: Guild = h.emu.add_guild(OTHER, locale="fr")
    h.emu.add_role(guild, "Gérants", permissions=MANAGE_GUILD, members=managers)
    await h.emu.gateway.dispatch("GUILD_CREATE", guild_payload(h.emu.world, guild))
    await h.settle()
    synced = await h.emu.run_command(h.user("olivia"), "admin sync")
    assert synced.message is not None, synced
    return guild.default_channel


async def reply(h: BotHarness, user: User, command: str, channel: Channel, **options: Any) -> str:
    result = await h.emu.run_command(user, f"choco {command}", options, channel=channel)
    assert result.message is not None, result
    assert result.message.ephemeral, result
    return after_welcome(shown(result.message))  # a player's first Chocobataille command: its welcome on top


async def forged(h: BotHarness, user: User, custom_id: str, channel: Channel, value: str = "") -> str:
    """A click on a component whose custom id the user crafted (a tampered message of the bot in
    `channel`): the bot knows only the custom id and where the click comes from. With `value`, a select."""
    if value:
        component = {"type": 3, "custom_id": custom_id, "options": [{"label": "x", "value": value}]}
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 3, "values": [value]}
    else:
        component = {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}
        data = {"custom_id": custom_id, "component_type": 2}
    payload = {"content": "…", "components": [{"type": 1, "components": [component]}]}
    source = h.emu.create_message(channel, h.emu.world.bot, payload)
    result = await h.emu._component(user, source, data, None)
    assert result.message is not None, result
    assert result.message.ephemeral_to is user, result
    return shown(result.message)


async def unchanged(h: BotHarness, game: GameRow) -> None:
    now = await choco(h).games.get(game.id)
    assert (now.version, now.status) == (game.version, game.status)


REFEREE_COMMANDS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("arbitre-journal", {}),
    ("arbitre-prolonger", {"heures": 5}),
    ("arbitre-pénalité", {}),
    ("arbitre-terminer", {}),
    ("arbitre-annuler", {}),
)


async def test_a_server_manager_cannot_referee_another_servers_game(harness: BotHarness) -> None:
    h = harness
    alice, bob, rita = await players(h)
    mallory = h.user("mallory")
    game = await game_on_turn_1(h, alice, bob)
    elsewhere = await other_server(h, managers=(mallory, rita))
    absent = game.id + 1000
    for user in (mallory, rita):  # Manage Server there; rita is even a referee of the game's server
        for command, options in REFEREE_COMMANDS:
            for which in (game.id, absent):
                text = await reply(h, user, command, elsewhere, partie=which, **options)
                assert text == missing(which), (user.name, command, text)
    await unchanged(h, game)
    assert await db_read(h, "SELECT 1 FROM choco_game_log WHERE kind LIKE 'referee%'") == []

    # A game that is over is not revealed either ("n'existe pas", not "est terminée").
    assert h.games_channel is not None
    done = await reply(h, rita, "arbitre-annuler", h.games_channel, partie=game.id)
    assert "C'est fait" in done, done
    assert await reply(h, mallory, "arbitre-journal", elsewhere, partie=game.id) == missing(game.id)

    # Control: in the game's own server, mallory holds no right and is told so.
    text = await reply(h, mallory, "arbitre-journal", h.games_channel, partie=game.id)
    assert "Seuls les arbitres" in text, text


async def test_player_commands_and_forged_clicks_stay_in_their_server(harness: BotHarness) -> None:
    h = harness
    alice, bob, _ = await players(h)
    game = await game_on_turn_1(h, alice, bob)
    elsewhere = await other_server(h)
    users = {alice.id: alice, bob.id: bob}
    player = users[game.player(game.state.active)]
    assert game.thread_id is not None
    thread = h.emu.world.channels[game.thread_id]

    # In the other server, the player has no game: every command says so and changes nothing.
    for command, options in (
        ("main", {}),
        ("jouer", {"actions": "fin"}),
        ("panneau", {}),
        ("abandon", {}),
        ("absence", {"durée": "2j", "raison": "vacances"}),
    ):
        text = await reply(h, player, command, elsewhere, **options)
        assert "Vous n'avez aucune partie de Chocobataille en cours" in text, (command, text)
    assert "Vous n'avez aucune partie de Chocobataille en cours" in await reply(
        h, player, "parties", elsewhere
    )
    await unchanged(h, game)
    assert await db_read(h, "SELECT 1 FROM choco_absences") == []

    # A challenge waiting in the game's server.
    made = await h.emu.run_command(
        bob, "choco défi", {"joueur": alice, "ligue": "Ligue de Bronze"}, channel=thread
    )
    assert made.message is not None
    [(challenge,)] = await db_read(h, "SELECT id FROM matches WHERE game = 'choco' AND status = 'pending'")

    # Forged custom ids naming that game or challenge, clicked by its own players from the other server.
    v = game.version
    clicks = [
        (f"choco:hand:{game.id}", ""),
        (f"choco:panel:{game.id}", ""),
        (f"choco:undo:{game.id}:{v}", ""),
        (f"choco:clear:{game.id}:{v}", ""),
        (f"choco:submit:{game.id}:{v}", ""),
        (f"choco:pick:{game.id}:{v}:s", "s:c0:front"),
        (f"choco:forfeit:{game.id}:{player.id}", ""),
    ]
    for custom_id, value in clicks:
        text = await forged(h, player, custom_id, elsewhere, value)
        assert text == missing(game.id), (custom_id, text)
    for verb in ("accept", "decline"):
        text = await forged(h, alice, f"choco:{verb}:{challenge}", elsewhere)
        assert text == "Ce défi n'existe pas.", (verb, text)
    await unchanged(h, game)
    assert await db_read(h, "SELECT status FROM matches WHERE id = ?", challenge) == [("pending",)]

    # In DMs, only one's own games exist: another player's game is "missing" there too.
    carl = h.user("carl")
    dm = h.emu.dm_channel(carl)
    assert await forged(h, carl, f"choco:hand:{game.id}", dm) == missing(game.id)

    # Control: the same forged click in the game's own server reaches the game (the player's hand).
    own = await forged(h, player, f"choco:hand:{game.id}", thread)
    assert f"partie n° {game.id}" in own, own
    assert own != missing(game.id), own


async def test_the_referee_log_is_public_while_live_and_full_once_over(harness: BotHarness) -> None:
    h = harness
    alice, bob, rita = await players(h)
    game = await game_on_turn_1(h, alice, bob)
    assert h.games_channel is not None

    async def read_log(which: GameRow) -> tuple[str, list[dict[str, Any]]]:
        result = await h.emu.run_command(rita, "choco arbitre-journal", {"partie": which.id})
        assert result.message is not None, result
        assert result.message.ephemeral, result
        [attachment] = result.message.attachments
        text = attachment.data.decode()
        return text, json.loads(text)

    live, entries = await read_log(game)
    assert {e["kind"] for e in entries} >= {"created", "opened", "prepare"}
    assert str(game.seed) not in live
    assert not re.search(r'"(seed|decks|steps|step)"', live), live
    assert all(ev.get("visible_to") is None for e in entries for ev in e["data"].get("events", []))
    # No card of a hand or a pioche (name or catalog id, nor the instance ids drawn) that is not on the
    # board: the log names only the two placed cards.
    now = await choco(h).games.get(game.id)
    catalog = choco(h).economy.decks.catalog
    board = {c.card_id for side in now.state.sides for c in (*side.front, *side.reserve)}
    secret = hidden_ids(now.state) - board
    assert secret
    strings = set(re.findall(r'"([^"]*)"', live))
    for card_id in secret:
        assert card_id not in strings, card_id
        assert not names(catalog, card_id) & strings, card_id
    hand_uids = {c.uid for side in now.state.sides for c in side.hand}
    assert not hand_uids & set(re.findall(r'"(c\d+)"', live)), live

    # Negative control: the same scan finds the seed and the decks in the full record, once over.
    assert "C'est fait" in await reply(h, rita, "arbitre-terminer", h.games_channel, partie=game.id)
    full, entries = await read_log(game)
    created = next(e for e in entries if e["kind"] == "created")
    assert created["data"]["seed"] == game.seed
    assert str(game.seed) in full
    decks = created["data"]["decks"]
    assert [sorted(d) for d in decks] == [
        sorted(c.card_id for c in _all_cards(game, seat)) for seat in (0, 1)
    ]
    assert any(ev.get("visible_to") is not None for e in entries for ev in e["data"].get("events", []))
    assert any(f'"{card_id}"' in full for card_id in secret)


def _all_cards(game: GameRow, seat: int) -> list[Any]:
    side = game.state.sides[seat]
    return [*side.hand, *side.pioche, *side.front, *side.reserve, *side.graveyard]


async def test_an_accepted_challenge_never_shows_the_challengers_deck(harness: BotHarness) -> None:
    """The challenger's deck, checked again at the acceptance, is about to be their hidden pioche: when
    it is no longer playable, the opponent who clicks "Accepter" is not told which cards it holds."""
    h = harness
    alice, bob, _ = await players(h)
    [(saved,)] = await db_read(h, "SELECT cards FROM choco_decks WHERE player_id = ?", alice.id)
    deck = json.loads(saved)
    made = await h.emu.run_command(
        alice, "choco défi", {"joueur": bob, "ligue": "Ligue de Bronze"}, channel=h.games_channel
    )
    assert made.message is not None
    sold = deck[0]
    catalog = choco(h).economy.decks.catalog
    spare = next(c.id for c in catalog.cards if c.rarity == "bronze_1" and c.id not in deck)
    assert h.bot is not None
    now = h.bot.services.clock.now()

    def sell_one(conn: Connection) -> None:
        """One card of the deck leaves the collection, another comes: the league stays open to her."""
        ledger.mint_card(conn, now, alice.id, "choco", spare, GRANT, {})
        conn.execute(
            "UPDATE cards SET owner_id = NULL WHERE id = (SELECT id FROM cards WHERE owner_id = ?"
            " AND card_key = ? LIMIT 1)",
            (alice.id, sold),
        )

    await h.bot.services.db.write(sell_one)
    answer = await h.emu.click(bob, "Accepter", message=public_answer(made))
    assert answer.message is not None, answer
    assert answer.message.ephemeral_to is bob, answer
    text = shown(answer.message)
    assert "ne peut pas jouer en Ligue de Bronze" in text, text
    assert "/choco pioche" in text, text
    assert sold not in text, text
    assert all(n not in text for n in names(catalog, sold)), text
    assert await db_read(h, "SELECT status FROM matches WHERE game = 'choco'") == [("pending",)]

    # Control: the challenger herself is told which card is missing.
    assert h.games_channel is not None
    own = await reply(h, alice, "défi", h.games_channel, joueur=bob, ligue="Ligue de Bronze")
    assert any(n in own for n in names(catalog, sold)), own
