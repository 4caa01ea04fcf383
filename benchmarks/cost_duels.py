"""benchmarks/command_costs.py's loads played in a duel or a battle: a HOSS ranked battle's start and one of
its decisions, a Pillz move, an Immortal's War choice.

The duel or battle is made (untimed, `before`) through the emulator as players make it, whenever the last
one ended; whose turn it is, and which character or unit is left, is read from the database by this
process's own services (never through the bot). A move is what a player does: "Jouer" on the public
message, the private controls' selects, the last button.
"""

from __future__ import annotations

import asyncio
from typing import Any

from benchmarks.bare_bots import expect
from benchmarks.cost_loads import BASIC, GRANT, LINES, Context, Load, known_players, text
from emulator import DiscordEmulator
from emulator.records import RecordedMessage, walk_components
from engine.hoss.catalog import CreatureCard
from services.infra import ledger
from services.infra.container import Services
from store.connection import Connection

BUFFS = ["buff_soins", "buff_vitesse"]


async def newest_with(emu: DiscordEmulator, prefix: str) -> RecordedMessage:
    """The newest public message of the bot carrying a component whose custom_id starts with `prefix`;
    waited for a while: the bot posts a duel's message through its outbox."""
    for _ in range(100):
        for message in reversed(emu.messages):
            if not message.ephemeral and any(
                str(c.get("custom_id", "")).startswith(prefix) for c in message.all_components()
            ):
                return message
        await asyncio.sleep(0.05)
    raise SystemExit(f"no public message with a {prefix!r} component")


# --- HOSS ranked battles against the AI ------------------------------------------------------------------


async def with_deck(services: Services, players: list[int], count: int) -> None:
    """The Rank 1 of six lines and two buffs, minted and saved as the active deck."""
    decks = services.games["hoss"].decks
    keys = [
        c.id for c in decks.catalog.cards if isinstance(c, CreatureCard) and c.line in LINES and c.rank == 1
    ]

    def unit(conn: Connection) -> None:
        known_players(services, players, conn)
        for card in [*keys, *BUFFS]:
            ledger.mint_card(conn, services.clock.now(), players[0], "hoss", card, GRANT, BASIC)

    await services.db.write(unit)
    await decks.save(players[0], 1, "deck", LINES, BUFFS)
    await decks.set_active(players[0], 1)


async def no_battle(context: Context, index: int) -> None:
    """The last battle skipped to its end: one ranked battle at a time."""
    assert context.emu is not None
    assert context.services is not None
    ranked = context.services.games["hoss"].ranked
    if await ranked.current(context.users[0].id) is not None:
        public = await newest_with(context.emu, "hoss:rskip:")
        await context.emu.click(context.users[0], "Passer à la fin", message=public)


async def start_act(context: Context, index: int) -> None:
    user = context.users[0]
    ladder = await context.ui.run_command(user, "hoss rang")
    expect(ladder.ephemeral and ladder.message is not None, "/hoss rang", ladder)
    started = await context.ui.click(user, "Combattre — Rang 1", message=ladder.message)
    expect(started.message is not None and "Combat classé n°" in text(started), "Combattre", started)


async def fresh_battle(context: Context, index: int) -> None:
    """The last battle skipped to its end and a new one started: each decision measured is a battle's
    first (the next ones wait for the rounds shown every 5 s, `RankedService.pace`)."""
    assert context.emu is not None
    await no_battle(context, index)
    user = context.users[0]
    ladder = await context.emu.run_command(user, "hoss rang")
    await context.emu.click(user, "Combattre — Rang 1", message=ladder.message)


async def decide_act(context: Context, index: int) -> None:
    """ "Décider" on the battle's message, then the first action offered (or "Passer")."""
    assert context.emu is not None
    user = context.users[0]
    controls = await context.ui.click(
        user, "Décider", message=await newest_with(context.emu, "hoss:rdecide:")
    )
    message = controls.message
    expect(message is not None and message.ephemeral, "Décider", controls)
    assert message is not None
    if message.select_options:
        done = await context.ui.select(user, message.select_options[0], message=message)
    else:
        done = await context.ui.click(user, "Passer", message=message)
    expect(done.interaction.failure is None and done.message is not None, "the decision", done)


# --- Pillz and Immortal's War duels between two players ---------------------------------------------------


def duel_maker(game: str, command: str) -> Any:
    """`before`: the pair's duel, a new one (challenged, accepted) once the last one ended."""

    async def before(context: Context, index: int) -> None:
        assert context.emu is not None
        assert context.services is not None
        duels = context.services.games[game].duels
        first, second = context.users[:2]
        live = await duels.live(first.id)
        if not live:
            made = await context.emu.run_command(first, command, {"joueur": second})
            await context.emu.settle()
            await context.emu.click(
                second, "Accepter", message=await newest_with(context.emu, f"{game}:accept:")
            )
            await context.emu.settle()
            live = await duels.live(first.id)
            expect(bool(live), f"/{command}", made)
        context.given = max(live, key=lambda d: d.id)

    return before


async def _turn(context: Context, game: str) -> tuple[Any, Any, int, RecordedMessage]:
    """The duel now, the user whose turn it is, their seat, the duel's public message."""
    assert context.emu is not None
    assert context.services is not None
    duel = await context.services.games[game].duels.get(context.given.id)
    (seat, *_) = duel.to_act()
    user = next(u for u in context.users if u.id == duel.seats[seat])
    return duel, user, seat, await newest_with(context.emu, f"{game}:open:{duel.id}")


async def pillz_act(context: Context, index: int) -> None:
    """The first character left, 0 pillz: "Jouer", the character's select, "Jouer (0 pillz)"."""
    duel, user, seat, public = await _turn(context, "pillz")
    place = next(i for i, f in enumerate(duel.state.hands[seat]) if not f.used)
    controls = await context.ui.click(user, custom_id=f"pillz:open:{duel.id}", message=public)
    expect(controls.message is not None and controls.ephemeral, "Jouer", controls)
    assert controls.message is not None
    ids = [str(c.get("custom_id")) for c in walk_components(controls.message.components)]
    bet = next(i for i in ids if i.startswith("pillz:bet:") and i.endswith(f":{place}"))
    picked = await context.ui.select(user, values=["0"], custom_id=bet, message=controls.message)
    expect(picked.message is not None, "the character's select", picked)
    played = await context.ui.click(user, "Jouer (0 pillz)", message=picked.message)
    expect(played.message is not None and "0 pillz" in played.content, "Jouer (0 pillz)", played)


async def immortals_act(context: Context, index: int) -> None:
    """The first unit left, no spell: "Jouer", the unit's select, "Valider"."""
    duel, user, seat, public = await _turn(context, "immortals")
    round_ = duel.state.round
    fought = {r.fighters[seat].uid for r in duel.state.history}
    place = next(i for i, u in enumerate(duel.state.units[seat]) if u.uid not in fought)
    controls = await context.ui.click(user, custom_id=f"immortals:open:{duel.id}", message=public)
    expect(controls.message is not None and controls.ephemeral, "Jouer", controls)
    unit = f"immortals:unit:{duel.id}:{round_}:-"
    picked = await context.ui.select(user, values=[str(place)], custom_id=unit, message=controls.message)
    expect(picked.message is not None, "the unit's select", picked)
    done = await context.ui.click(user, "Valider", message=picked.message)
    expect(f"du combat {round_}" in text(done), "Valider", done)


async def two_players(services: Services, players: list[int], count: int) -> None:
    await services.db.write(lambda conn: known_players(services, players, conn))


LOADS = (
    Load(
        "ranked_start",
        "HOSS ranked battle start (/hoss rang, Combattre)",
        with_deck,
        start_act,
        before=no_battle,
    ),
    Load(
        "battle_click",
        "HOSS battle decision (Décider, an action)",
        with_deck,
        decide_act,
        before=fresh_battle,
    ),
    Load(
        "pillz",
        "Pillz move (Jouer, a character, Jouer)",
        two_players,
        pillz_act,
        2,
        before=duel_maker("pillz", "pillz défi"),
    ),
    Load(
        "immortals",
        "Immortal's War choice (Jouer, a unit, Valider)",
        two_players,
        immortals_act,
        2,
        before=duel_maker("immortals", "immortels défi"),
    ),
)
