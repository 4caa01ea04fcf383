"""What a drop says in the games channel: the drop itself, then the one edit that ends it (won, nobody
took it, void), and the private proof behind « Vérifier ». The seed appears only in the proof, which a
drop still open refuses (services/community/drops/service.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engine import fair_draw
from services.community.drops.pool import DropPrize
from services.infra.erased import mention
from services.infra.games import money
from services.infra.messages import (
    Attachment,
    Button,
    CardStrip,
    Embed,
    MessageSpec,
    Number,
    StripCard,
    Text,
)

DROP_COLOR = 0xE9A23B
WON_COLOR = 0x3BA55C
ENDED_COLOR = 0x99AAB5
PICTURE_SCALE = 0.6
TAKE_PREFIX = "drops:take:"
VERIFY_PREFIX = "drops:verify:"


@dataclass(frozen=True)
class DropView:
    """A drop as its posts show it."""

    id: int
    game: str
    game_name: Text  # the game's name (the raw key of a game the registry no longer has)
    prize: DropPrize
    card_name: Text | None  # the card's name in every language; None for a currency prize
    commitment: str
    closes_at: datetime


def card_name(catalog: Any, prize: DropPrize) -> Text | None:
    card = catalog.card(prize.card_id) if prize.card_id is not None and catalog is not None else None
    return None if card is None else Text.per_locale({"fr": card.name.fr, "en": card.name.en})


def prize_text(view: DropView) -> Text:
    """« **Piquier de la garde** (Or, HOSS TCG) » or « **25 or** (HOSS TCG) »."""
    game = view.game_name
    prize = view.prize
    if view.card_name is not None:
        rarity = prize.rarity or Text.raw("—")
        return Text("drops.prize.card", {"card": view.card_name, "rarity": rarity, "game": game})
    return Text("drops.prize.currency", {"amount": money(prize.currency or "", prize.amount), "game": game})


def _picture(view: DropView) -> tuple[tuple[CardStrip, ...], str | None]:
    prize = view.prize
    if prize.card_id is None or view.card_name is None:
        return (), None
    filename = f"drop-{view.id}.png"
    card = StripCard(prize.card_id, prize.copy.rarity, prize.copy.stars, prize.copy.holo)
    return (CardStrip(filename, view.game, (card,), PICTURE_SCALE),), filename


def stamp(when: datetime) -> str:
    return f"<t:{int(when.timestamp())}:R>"


def drop_post(view: DropView, wishers: list[int], window_seconds: int) -> MessageSpec:
    """The drop: its prize and picture, how to enter, when it ends, the draw's commitment (small, last),
    the « Prendre » button, and one line naming who wished for the card (pinged)."""
    strips, image = _picture(view)
    description = Text(
        "drops.post.open",
        {
            "prize": prize_text(view),
            "seconds": window_seconds,
            "ends": stamp(view.closes_at),
            "commitment": view.commitment,
        },
    )
    wished = None
    if wishers:
        wished = Text("drops.post.wished", {"players": " ".join(f"<@{player}>" for player in wishers)})
    return MessageSpec(
        content=wished,
        embeds=(
            Embed(title=Text("drops.post.title"), description=description, color=DROP_COLOR, image=image),
        ),
        buttons=(Button(Text("drops.button.take"), f"{TAKE_PREFIX}{view.id}", "success"),),
        ping_users=tuple(wishers),
        strips=strips,
    )


def ended_post(
    view: DropView, body: Text, *, won: bool, verify: bool, ping: int | None = None
) -> MessageSpec:
    """The drop's one edit: the result in place of the invitation, the picture kept, « Vérifier » when a
    draw took place (`verify`), no button when the drop is void or nobody entered; `ping`: its winner."""
    strips, image = _picture(view)
    title = Text("drops.post.title_won" if won else "drops.post.title_ended")
    buttons = (Button(Text("drops.button.verify"), f"{VERIFY_PREFIX}{view.id}"),) if verify else ()
    return MessageSpec(
        embeds=(Embed(title=title, description=body, color=WON_COLOR if won else ENDED_COLOR, image=image),),
        buttons=buttons,
        ping_users=(ping,) if ping is not None else (),
        strips=strips,
    )


def won_text(view: DropView, winner: int, entrants: int) -> Text:
    return Text(
        "drops.post.won",
        {"winner": mention(winner), "prize": prize_text(view), "entrants": Number(entrants)},
    )


def empty_text(view: DropView) -> Text:
    return Text("drops.post.empty", {"prize": prize_text(view)})


def capped_text(view: DropView, entrants: int) -> Text:
    return Text("drops.post.capped", {"prize": prize_text(view), "entrants": Number(entrants)})


def void_text(view: DropView) -> Text:
    return Text("drops.post.void", {"prize": prize_text(view)})


@dataclass(frozen=True)
class Proof:
    """A drawn drop as it is published: enough to recompute its draw (`entries` in click order)."""

    drop_id: int
    commitment: str
    seed: str
    digest: str
    entries: tuple[str, ...]  # "<position>:<player id>"
    drawn: tuple[str, ...]  # the entries in draw order up to the winner; those before it were passed over
    winner: int | None


def published(proof: Proof) -> fair_draw.Published:
    return fair_draw.Published(proof.commitment, proof.seed, proof.digest, proof.drawn, proof.entries)


def proof_reply(proof: Proof, verdict: fair_draw.Verdict) -> MessageSpec:
    """« Vérifier »: the verdict, the commitment published with the drop, the seed revealed with its
    result, the entry list's fingerprint, and the record as a file anyone can check
    (`engine/fair_draw.py` says how)."""
    passed = len(proof.drawn) - 1 if proof.winner is not None else len(proof.drawn)
    body = Text(
        "drops.verify.ok" if verdict.ok else "drops.verify.failed",
        {
            "commitment": proof.commitment,
            "seed": proof.seed,
            "digest": proof.digest,
            "entrants": Number(len(proof.entries)),
            "passed": Number(passed),
        },
    )
    record = fair_draw.format_published(
        published(proof),
        (
            f"drop {proof.drop_id}: entries are <click order>:<player id>",
            "the winner is the last 'winner' line; the ones before it had reached their day's limit",
        ),
    )
    return MessageSpec(content=body, attachments=(Attachment(f"drop-{proof.drop_id}.txt", record),))
