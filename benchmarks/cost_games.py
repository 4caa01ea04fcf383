"""benchmarks/command_costs.py's Chocobataille loads (a turn played, the hand shown) and a trade's
confirmation (a gift's « Confirmer »: the copy handed over).

Chocobataille: both players own a Bronze deck and have been known to the bot for 60 days (the Bronze
League asks for 30); the game is challenged, accepted and brought to turn 1 through the emulator
(untimed), a new one whenever the last ended; each turn is the engine's greedy policy's
(engine/choco/policy.py), played by whoever's turn it is, in the game's thread.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from benchmarks.bare_bots import expect
from benchmarks.cost_duels import newest_with
from benchmarks.cost_loads import GRANT, Context, Load, known_players, text
from core.clock import SystemClock, to_db
from emulator import InteractionResult
from emulator.records import RecordedMessage
from engine.choco.policy import greedy_steps
from services.choco.notation import to_text
from services.infra import ledger
from services.infra.container import Services
from store.connection import Connection

TRADED = "pillz"  # the game whose copies are given: 100 of value each, 200 a day under the daily cap


async def bronze_decks(services: Services, players: list[int], count: int) -> None:
    """Two copies of the 12 strongest plain Bronze wizards each, saved as the Bronze deck."""
    choco = services.games["choco"]
    catalog = choco.economy.decks.catalog
    bronze = [c for c in catalog.cards if c.rarity in ("bronze_1", "bronze_2") and c.type == "normal"]
    bronze.sort(key=lambda c: (-(c.pa or 0) - (c.pv or 0), c.id))
    deck = [c.id for c in bronze[:12] for _ in range(2)]
    now = services.clock.now()

    def unit(conn: Connection) -> None:
        known_players(services, players, conn)
        for player in players:
            conn.execute(
                "UPDATE players SET created_at = ? WHERE id = ?", (to_db(now - timedelta(days=60)), player)
            )
            for card in deck:
                ledger.mint_card(conn, now, player, "choco", card, GRANT, {})

    await services.db.write(unit)
    for player in players:
        await choco.economy.decks.save(player, "bronze", deck)


async def a_game(context: Context, index: int) -> None:
    """The pair's game at turn 1 or later: challenged, accepted, each first invocation played. Every
    challenge is made where the first was (`lobby`): the emulator acts where its user acted last, which
    after a game is that game's thread, and a challenge made there made its game in the finished game's
    thread, which runs over 25 commands broke on."""
    assert context.emu is not None
    assert context.services is not None
    games = context.services.games["choco"].games
    first, second = context.users[:2]
    live = await games.live_games(first.id)
    if not live:
        made = await context.emu.run_command(
            first,
            "choco défi",
            {"joueur": second, "ligue": "Ligue de Bronze"},
            channel=context.state.get("lobby"),
        )
        context.state.setdefault("lobby", context.emu.acting_in[first.id])
        await context.emu.settle()
        await context.emu.click(second, "Accepter", message=await newest_with(context.emu, "choco:accept:"))
        await context.emu.settle()
        live = await games.live_games(first.id)
        expect(bool(live), "/choco défi", made)
        game = max(live, key=lambda g: g.id)
        thread = context.emu.world.channels[game.thread_id]
        for user in (first, second):
            await context.emu.run_command(
                user, "choco jouer", {"actions": "invoque M1 front"}, channel=thread
            )
            await context.emu.settle()
        live = await games.live_games(first.id)
    context.given = max(live, key=lambda g: g.id).id


async def play_act(context: Context, index: int) -> None:
    """The greedy turn of whoever's turn it is (or « fin »), by `/choco jouer` in the game's thread."""
    assert context.emu is not None
    assert context.services is not None
    game = await context.services.games["choco"].games.get(context.given)
    seat = game.state.active
    steps = list(greedy_steps(game.state, seat))
    user = next(u for u in context.users if u.id == game.player(seat))
    thread = context.emu.world.channels[game.thread_id]
    actions = to_text(steps, game.state, seat) or "fin"
    reply = await context.ui.run_command(user, "choco jouer", {"actions": actions}, channel=thread)
    expect("Tour joué" in text(reply) or "remporte" in text(reply), "/choco jouer", reply)


async def hand_act(context: Context, index: int) -> None:
    assert context.emu is not None
    assert context.services is not None
    game = await context.services.games["choco"].games.get(context.given)
    thread = context.emu.world.channels[game.thread_id]
    reply = await context.ui.run_command(context.users[0], "choco main", channel=thread)
    expect(reply.ephemeral and f"partie n° {game.id}" in text(reply), "/choco main", reply)


# --- trades ----------------------------------------------------------------------------------------------


async def copies(services: Services, players: list[int], count: int) -> list[int]:
    """One copy of the traded game's first card per gift, the giver's."""
    catalog = services.cards.catalog(TRADED)
    assert catalog is not None
    now = services.clock.now()

    def unit(conn: Connection) -> list[int]:
        known_players(services, players, conn)
        why = ledger.Movement("benchmark.grant")
        return [
            ledger.mint_card(conn, now, players[0], TRADED, catalog.cards[0].id, why) for _ in range(count)
        ]

    result: list[int] = await services.db.write(unit)
    return result


async def gift_ready(context: Context, index: int) -> None:
    """The `index`-th copy offered as a gift, both players members for 30 days (7 asked)."""
    assert context.emu is not None
    giver, taker = context.users[:2]
    joined = SystemClock().now() - timedelta(days=30)
    for guild in context.emu.world.guilds:
        for user in (giver, taker):
            context.emu.world.set_joined(user, guild, joined)
    ready = await context.emu.run_command(
        giver, "cadeau", {"joueur": taker, "jeu": TRADED, "carte": f"#{context.given[index]}"}
    )
    expect("prêt" in text(ready) and ready.message is not None, "/cadeau", ready)
    context.state["ready"] = ready.message


async def confirm_act(context: Context, index: int) -> None:
    """« Confirmer » on the gift: the copy is the other player's."""
    assert context.services is not None
    giver, taker = context.users[:2]
    done = await context.ui.click(giver, "Confirmer", message=context.state["ready"])
    copy = context.given[index]
    owner = await context.services.db.read(
        lambda conn: conn.execute("SELECT owner_id FROM cards WHERE id = ?", (copy,)).fetchone()
    )
    expect(owner is not None and int(owner[0]) == taker.id and "conclu" in text(done), "Confirmer", done)


LOADS = (
    Load("choco_play", "Chocobataille turn played (/choco jouer)", bronze_decks, play_act, 2, before=a_game),
    Load("choco_hand", "Chocobataille hand (/choco main)", bronze_decks, hand_act, 2, before=a_game),
    Load("trade_confirm", "Trade confirmed (a gift's Confirmer)", copies, confirm_act, 2, before=gift_ready),
)


# --- Dinocard challenges ---------------------------------------------------------------------------------


async def dino_packs(services: Services, players: list[int], count: int) -> None:
    """The first player's fire packs, two daily challenges each, enough for `count` launches; the second
    player's water pack, the one they attack. Built through the service from minted copies, their daily
    challenges open at once (a new pack's open the next day)."""
    dino = services.games["dinocard"]
    attacker, defender = players[:2]
    packs = count // 2 + 2
    now = services.clock.now()

    def unit(conn: Connection) -> None:
        known_players(services, players, conn)
        for card in dino.packs.cards.values():
            owner, copies = (attacker, 3 * packs) if card.element == "feu" else (defender, 3)
            if card.element in ("feu", "eau"):
                for _ in range(copies):
                    ledger.mint_card(conn, now, owner, "dinocard", card.id, GRANT, {})

    await services.db.write(unit)
    for number in range(1, packs + 1):
        await dino.packs.create(attacker, f"Braise {number}", None, "feu")
    await dino.packs.create(defender, "Marée", None, "eau")

    def opened(conn: Connection) -> int:
        conn.execute("UPDATE dinocard_packs SET daily_from = ?", ("2000-01-01",))
        row = conn.execute("SELECT id FROM dinocard_packs WHERE owner_id = ?", (defender,)).fetchone()
        return int(row[0])

    await services.db.write(opened)


async def _launch(ui: Any, context: Context, number: int) -> InteractionResult:
    """/dino défi with the `number`-th fire pack against the water pack, then « Lancer le Défi »."""
    assert context.services is not None
    user, defender = context.users[:2]
    if "opponent" not in context.state:
        pack = await context.services.db.read(
            lambda conn: conn.execute(
                "SELECT id FROM dinocard_packs WHERE owner_id = ?", (defender.id,)
            ).fetchone()
        )
        context.state["opponent"] = int(pack[0])
    options = {"pack": f"Braise {number}", "adversaire": f"#{context.state['opponent']}"}
    prep = await ui.run_command(user, "dino défi", options)
    expect(prep.ephemeral and prep.message is not None, "/dino défi", prep)
    launched: InteractionResult = await ui.click(user, "Lancer le Défi", message=prep.message)
    expect(launched.interaction.failure is None and launched.message is not None, "Lancer le Défi", launched)
    return launched


async def launch_act(context: Context, index: int) -> None:
    await _launch(context.ui, context, index // 2 + 1)


def _next_button(context: Context) -> RecordedMessage | None:
    assert context.emu is not None
    for message in reversed(context.emu.messages):
        if not message.ephemeral and any(
            str(c.get("custom_id", "")).startswith("dino:next:") and not c.get("disabled")
            for c in message.all_components()
        ):
            return message
    return None


async def a_battle(context: Context, index: int) -> None:
    """A battle with steps left to show: a new one (launched, untimed) once the last was shown to its end."""
    assert context.emu is not None
    if _next_button(context) is None:
        context.state["launches"] = context.state.get("launches", 0) + 1
        await _launch(context.emu, context, context.state["launches"] // 2 + 1)
        await newest_with(context.emu, "dino:next:")


async def next_act(context: Context, index: int) -> None:
    """« Suivant » on the battle's public message: its next step."""
    message = _next_button(context)
    done = await context.ui.click(context.users[0], "Suivant", message=message)
    expect(done.interaction.failure is None and not done.ephemeral, "Suivant", done)


DINOCARD = (
    Load(
        "dinocard_launch",
        "Dinocard challenge launched (/dino défi, Lancer le Défi)",
        dino_packs,
        launch_act,
        2,
    ),
    Load(
        "dinocard_next",
        "Dinocard « Suivant » (a battle's next step)",
        dino_packs,
        next_act,
        2,
        before=a_battle,
    ),
)
