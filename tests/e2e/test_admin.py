"""Admin tools through Discord: only owners reach /admin, only a server's managers its /setup tools; a
paused game and a banned player are answered before the game's code; the audit log shows each action."""

from __future__ import annotations

from sandbox.harness import BotHarness


def text_of(result: object) -> str:
    return result.message.render()  # type: ignore[attr-defined]


async def balance(harness: BotHarness, player: int, currency: str) -> int:
    assert harness.bot is not None
    sql = "SELECT balance FROM wallets WHERE player_id = ? AND currency = ?"
    row = await harness.bot.services.db.read(lambda conn: conn.execute(sql, (player, currency)).fetchone())
    return int(row[0]) if row else 0


async def test_only_owners_reach_the_admin_tools(harness: BotHarness) -> None:
    mallory, olivia, alice = (
        harness.user("mallory", admin=True),
        harness.user("olivia"),
        harness.user("alice"),
    )
    options = {"player": alice, "currency": "hoss_gold", "amount": 40, "reason": "prize"}
    refused = await harness.emu.run_command(mallory, "admin grant", options)
    assert "propriétaires" in text_of(refused)
    assert await balance(harness, alice.id, "hoss_gold") == 0  # not even created
    granted = await harness.emu.run_command(olivia, "admin grant", options)
    assert granted.ephemeral
    assert "nouveau solde\u00a0: 340" in text_of(granted)
    taken = await harness.emu.run_command(olivia, "admin take", {**options, "amount": 15})
    assert "nouveau solde\u00a0: 325" in text_of(taken)
    page = text_of(await harness.emu.run_command(olivia, "admin ledger", {"player": alice}))
    assert "admin_grant" in page
    assert "admin_take" in page
    assert "prize" in page


async def test_give_remove_and_reset_through_discord(harness: BotHarness) -> None:
    olivia, alice = harness.user("olivia"), harness.user("alice")
    given = await harness.emu.run_command(
        olivia, "admin give-card", {"player": alice, "card": "hoss:orc_guerrier_1", "reason": "gift"}
    )
    assert "exemplaire n°" in text_of(given)
    reset = await harness.emu.run_command(
        olivia, "admin reset", {"player": alice, "game": "hoss", "reason": "r"}
    )
    assert "1 exemplaire retiré" in text_of(reset)
    assert await balance(harness, alice.id, "hoss_gold") == 300


async def test_only_managers_pause_ban_and_read_the_log_of_their_server(harness: BotHarness) -> None:
    mallory, olivia, alice = (
        harness.user("mallory", admin=False),
        harness.user("olivia"),
        harness.user("alice"),
    )
    harness.emu.enforce_default_permissions = False  # a server admin re-granted /setup to everyone
    assert "Gérer le serveur" in text_of(
        await harness.emu.run_command(mallory, "setup pause", {"game": "pillz"})
    )
    assert "Gérer le serveur" in text_of(await harness.emu.run_command(mallory, "setup audit"))
    assert "en pause" in text_of(await harness.emu.run_command(olivia, "setup pause", {"game": "pillz"}))
    assert "en pause" in text_of(await harness.emu.run_command(alice, "pillz collection"))
    await harness.emu.run_command(olivia, "setup resume", {"game": "pillz"})
    assert "en pause" not in text_of(await harness.emu.run_command(alice, "pillz collection"))
    await harness.emu.run_command(olivia, "setup ban", {"player": alice, "reason": "spam"})
    assert "interdit" in text_of(await harness.emu.run_command(alice, "pillz collection"))
    assert "Profil d'alice" in text_of(await harness.emu.run_command(alice, "profile"))  # not a game
    await harness.emu.run_command(olivia, "setup unban", {"player": alice})
    assert "interdit" not in text_of(await harness.emu.run_command(alice, "pillz collection"))
    log = text_of(await harness.emu.run_command(olivia, "setup audit"))
    for action in ("pause", "reprise", "bannissement", "levée du bannissement"):
        assert action in log
    assert "spam" in log
