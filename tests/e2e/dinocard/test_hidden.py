"""Hidden information in a seeded Dinocard challenge, as users see it through Discord.

After every step (the preparation, the launch, each « Suivant », the defender's refused click) every
message delivered since the previous step is scanned (tests/e2e/leak_scan.py) for the secrets of the
moment, read from the database: the live battle's seed (nobody's) and, for each seat, the cards of its
pack no step shown so far has named (its owner's only: they are the steps not shown yet). A negative
control proves the scan reports such a card posted in the channel."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from engine.dinocard import DinocardCatalog
from sandbox.harness import BotHarness
from services.dinocard.results import MATCHES
from services.infra.messages import MessageSpec, Target, Text
from services.infra.outbox import enqueue
from store.connection import Connection
from tests.e2e.dinocard.helpers import battle_message, dino, packs_ready, prepared
from tests.e2e.leak_scan import EVERYONE, LeakScan, Secret, names_secret, seed_secret


def names(catalog: DinocardCatalog, ids: Iterable[str]) -> set[str]:
    cards = {c.id: c for c in catalog.cards}
    return {n for i in ids for n in (cards[i].name.fr, cards[i].name.en)}


def owned_keys(conn: Connection, player: int) -> set[str]:
    return {
        str(k) for (k,) in conn.execute("SELECT DISTINCT card_key FROM cards WHERE owner_id = ?", (player,))
    }


async def moment(h: BotHarness, match_id: int) -> tuple[list[Secret], dict[int, set[str]]]:
    """The secrets now and what each reader may know: the public cards, and each player's collection."""
    services = dino(h)
    catalog = services.battles.catalog
    match = await services.battles.db.read(lambda conn: MATCHES.load_trusted(conn, match_id))
    assert match.state is not None
    state = match.state
    allowed: dict[int, set[str]] = {EVERYONE: set()}
    secrets: list[Secret] = []
    public = {
        state.decks[seat][i]
        for seat in (0, 1)
        for i, at in enumerate(state.public_at[seat])
        if at < state.shown
    }
    allowed[EVERYONE] = names(catalog, public)
    for seat, player in enumerate(match.seats):
        assert player is not None
        owned = (await services.collection.page(player)).items  # the starter's commons, first page
        counts = await services.collection.db.read(partial(owned_keys, player=player))
        allowed[player] = names(catalog, counts) | {o.card.name.fr for o in owned}
        if match.status == "live":
            hidden = {state.decks[seat][i] for i, at in enumerate(state.public_at[seat]) if at >= state.shown}
            for card in sorted(hidden - public):
                secrets.append(
                    names_secret(
                        f"seat {seat}'s card {card} not shown yet", names(catalog, [card]), [card], [player]
                    )
                )
    if match.status == "live" and match.seed is not None:
        secrets.append(seed_secret(f"battle {match.number} seed", match.seed))
    return secrets, allowed


async def test_a_watched_challenge_shows_no_step_ahead_and_no_live_seed(harness: BotHarness) -> None:
    h = harness
    alice, bob = h.user("alice"), h.user("bob")
    _, theirs = await packs_ready(h)
    scan = LeakScan(h.emu)
    prep = await prepared(h, theirs)
    await h.emu.click(alice, "Lancer le Défi", message=prep)
    await h.settle()
    (match,) = await dino(h).battles.db.read(lambda conn: MATCHES.live_of(conn, alice.id))
    assert match.number is not None
    secrets, allowed = await moment(h, match.id)
    assert len(secrets) > 5  # both packs' cards and the seed
    assert scan.scan(secrets, allowed) == [], scan.report()
    # negative control: a card of bob's pack not shown yet, posted in the channel, is reported
    hidden = next(s for s in secrets if s.what.startswith("seat 1"))
    card = hidden.what.split("card ")[1].split(" ")[0]
    catalog = dino(h).battles.catalog
    name = next(c.name.fr for c in catalog.cards if c.id == card)
    assert h.games_channel is not None
    channel = h.games_channel.id
    await dino(h).battles.db.write(
        lambda conn: enqueue(
            conn,
            dino(h).battles.clock.now(),
            Target("channel", channel, guild_id=None),
            MessageSpec(content=Text.raw(name)),
        )
    )
    await h.settle()
    assert [f.secret.what for f in scan.scan(secrets, allowed)] == [hidden.what]
    scan.findings.clear()
    await h.emu.click(bob, "Suivant", message=battle_message(h, match.number))  # refused, privately
    while True:
        secrets, allowed = await moment(h, match.id)
        assert scan.scan(secrets, allowed) == [], scan.report()
        message = battle_message(h, match.number)
        if "[file: dinocard-" in str(message.render()):
            break
        await h.emu.click(alice, "Suivant", message=message)
        await h.settle()
    secrets, allowed = await moment(h, match.id)
    assert secrets == []  # once over, nothing is hidden: the log and the seed are given
    assert scan.scan(secrets, allowed) == []
    assert scan.files == 1
