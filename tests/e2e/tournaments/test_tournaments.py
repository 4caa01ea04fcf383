"""A tournament as a server sees it through Discord: the manager's command, registrations, the picture
posted and edited, each round's posts, the DMs with « Prêt » clicked from the DMs, the duels in the
channel, the podium and the title on /profile; the seed hidden until the start; every option's bounds."""

from __future__ import annotations

from datetime import timedelta

from sandbox.harness import BotHarness
from tests.e2e.hostile import assert_private_and_fits, send_raw, state_of
from tests.e2e.messages import shown
from tests.e2e.tournaments.scenes import created, joined, started
from tests.fixtures import postgres


async def test_a_tournament_from_its_announcement_to_the_title_on_profile(harness: BotHarness) -> None:
    h = harness
    assert h.games_channel is not None
    tournament = await created(h, h.games_channel, "pillz", "elimination")
    with postgres.connect(h.db_path) as conn:
        seed = str(conn.execute("SELECT seed FROM tournaments").fetchone()[0])
    announcement = shown(h.emu.channel_messages(h.games_channel)[-1])
    assert "tournoi rejoindre tournoi:1" in announcement
    users = await joined(h, h.games_channel, tournament)
    assert all(seed not in shown(m) for m in h.emu.messages)  # secret until the start

    await started(h)
    posts = [shown(m) for m in h.emu.channel_messages(h.games_channel)]
    assert any("commence avec 4 joueurs, en 2 rondes" in p for p in posts)
    assert any("Ronde 1 sur 2 ouverte" in p for p in posts)
    pictures = [m for m in h.emu.channel_messages(h.games_channel) if m.attachments]
    assert [a.filename for m in pictures for a in m.attachments] == ["tournoi-1.png"]
    assert any(seed in shown(m) for m in h.emu.messages)  # revealed with the start

    for _ in range(2):  # both rounds: everyone clicks « Prêt » in their DM, the AI plays the moves
        for user in users:
            reply = await h.emu.click(user, "Prêt", message=h.emu.dm_messages(user)[-1])
            assert reply.message is not None
            assert reply.message.ephemeral
        await h.settle()
        for _ in range(14):
            await h.advance(timedelta(minutes=3))
    podium = shown(h.emu.channel_messages(h.games_channel)[-1])
    assert "est terminé" in podium
    assert "🥇" in podium
    assert len(pictures[0].history) >= 6, "the picture is edited after each match"
    with postgres.connect(h.db_path) as conn:
        champion = int(conn.execute("SELECT player_id FROM tournament_entries WHERE place = 1").fetchone()[0])
    winner = next(u for u in users if u.id == champion)
    profile = await h.emu.run_command(winner, "profile")
    assert profile.message is not None
    assert "Vainqueur — Tournoi Pillz duel du 5 janvier 2026" in shown(profile.message)


async def test_a_member_who_does_not_manage_the_server_cannot_create(harness: BotHarness) -> None:
    assert harness.games_channel is not None
    carol = harness.user("carol")
    options = {"jeu": "pillz", "format": "swiss", "joueurs": 8, "inscriptions": "1h", "ronde": "24"}
    reply = await harness.emu.run_command(carol, "tournoi créer", options)
    assert "équipe du serveur" in assert_private_and_fits(reply)


HOSTILE = (
    ({"players": 0}, "n'est pas valable"),
    ({"players": 65}, "n'est pas valable"),
    ({"fee": 10**9}, "n'est pas valable"),
    ({"registration": "01/01/2020 20:00"}, "au moins 5 minutes"),
    ({"registration": "x" * 3000}, "n'est pas valable"),
    ({"round_time": "2"}, "2"),
    ({"format": "knockout"}, "knockout"),
    ({"seeding": "elo"}, "elo"),
    ({"fee": -1}, "n'est pas valable"),
    ({"rounds": 0}, "n'est pas valable"),
    ({"rounds": 11}, "n'est pas valable"),
    ({"format": "elimination", "rounds": 3}, "tournoi suisse"),
    ({"game": "hoss"}, "Pas de tournoi pour ce jeu"),
)


async def test_hostile_options_are_refused_privately_and_change_nothing(harness: BotHarness) -> None:
    """Each value a hostile or buggy client could send, one after the other on one bot: every refusal is
    private, within Discord's limits, and changes nothing."""
    olivia = harness.user("olivia")
    await harness.emu.run_command(olivia, "profile")
    options: dict[str, object] = {
        "game": "pillz",
        "format": "swiss",
        "players": 8,
        "registration": "1h",
        "round_time": "24",
    }
    for values, expected in HOSTILE:
        before = state_of(harness.db_path)
        reply = assert_private_and_fits(
            await send_raw(harness, olivia, "tournament create", options | values)
        )
        assert expected in reply, (values, reply)
        assert state_of(harness.db_path) == before, values


async def test_a_fee_larger_than_the_wallet_is_refused_when_joining(harness: BotHarness) -> None:
    assert harness.games_channel is not None
    tournament = await created(harness, harness.games_channel, "pillz", "swiss", **{"droit-entrée": 5000})
    alice = harness.user("alice")
    await harness.emu.run_command(alice, "profile")
    before = state_of(harness.db_path)
    reply = await harness.emu.run_command(alice, "tournoi rejoindre", {"tournoi": tournament})
    assert "Solde insuffisant" in assert_private_and_fits(reply)
    assert state_of(harness.db_path) == before
