"""Tournaments made through Discord for the end-to-end tests: a manager (olivia, an administrator) creates
one, players join with the command, the clock opens the first round."""

from __future__ import annotations

from datetime import timedelta

from emulator.world import Channel, User
from sandbox.harness import BotHarness
from tests.fixtures import postgres

PLAYERS = ("alice", "bob", "dave", "erin")


async def created(
    h: BotHarness, channel: Channel, game: str = "pillz", format: str = "elimination", **more: object
) -> int:
    olivia = h.user("olivia")
    options: dict[str, object] = {
        "jeu": game,
        "format": format,
        "joueurs": 8,
        "inscriptions": "1h",
        "ronde": "1",
        **more,
    }
    made = await h.emu.run_command(olivia, "tournoi créer", options, channel=channel)
    assert made.message is not None
    assert "créé" in made.message.render(), made.message.render()
    await h.settle()
    with postgres.connect(h.db_path) as conn:
        return int(conn.execute("SELECT MAX(id) FROM tournaments").fetchone()[0])


async def joined(
    h: BotHarness, channel: Channel, tournament: int, names: tuple[str, ...] = PLAYERS
) -> list[User]:
    users = [h.user(name) for name in names]
    for user in users:
        reply = await h.emu.run_command(user, "tournoi rejoindre", {"tournoi": tournament}, channel=channel)
        assert reply.message is not None
        assert "inscrit" in reply.message.render(), reply.message.render()
    await h.settle()
    return users


async def started(h: BotHarness) -> None:
    await h.advance(timedelta(hours=1))


def match_of(h: BotHarness, player: User, kind: str = "tournament") -> tuple[int, int]:
    """The player's match of the round that waits or was played, and their opponent's id."""
    with postgres.connect(h.db_path) as conn:
        row = conn.execute(
            "SELECT m.id, other.player_id FROM matches m JOIN match_seats me ON me.match_id = m.id"
            " JOIN match_seats other ON other.match_id = m.id AND other.seat <> me.seat"
            " WHERE m.kind = ? AND me.player_id = ? ORDER BY m.id DESC LIMIT 1",
            (kind, player.id),
        ).fetchone()
    return int(row[0]), int(row[1])
