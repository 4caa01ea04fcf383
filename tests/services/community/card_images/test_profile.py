"""/profile's picture: your own shows your wallets, each game's line and your best cards; another
player's only what is public; every text reads at WCAG AA."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.i18n import format_int
from services.community import profile_card
from services.community.card_images import profile
from services.community.card_images.service import CardImages
from services.infra.games import GameRegistry, SummaryLine
from services.infra.players import Profile
from tests.services.community.card_images.contrast import unreadable
from tests.support.registries import every_game

OWNED = [
    ("choco", "aglae_pommeverte"),
    ("choco", "merlin"),
    ("choco", "circe"),
    ("hoss", "hum_mage_1"),
    ("hoss", "hum_mage_3a"),
    ("pillz", "sorcieres-the-queen-of-mists"),
    ("dinocard", "kraken"),
]


def a_profile() -> Profile:
    wallets = [(c.name_key, 1000 + 7 * i) for i, c in enumerate(every_game().currencies())]
    summaries = [
        (
            g.name_key,
            [SummaryLine("choco.profile.wins", {"bronze": 3, "argent": 1, "or": 0})]
            if g.key == "choco"
            else [],
        )
        for g in every_game().all_games()
        if g.profile_summary is not None
    ]
    return Profile(7, datetime(2026, 11, 3, tzinfo=UTC), wallets, summaries)


def test_the_best_cards_are_the_most_prized_one_per_game_first(
    tmp_path: Path, catalogs: dict[str, Any], registry: GameRegistry
) -> None:
    best = CardImages(tmp_path, catalogs, registry).best_cards(OWNED, "fr")
    assert [(b.game, b.card_id) for b in best] == [
        ("choco", "merlin"),  # or_2 before circe's... both or_2: the first held
        ("pillz", "sorcieres-the-queen-of-mists"),
        ("hoss", "hum_mage_3a"),  # rank 3 before rank 1
        ("dinocard", "kraken"),
    ]
    assert best[0].name == "Merlin"


def test_your_own_picture_shows_wallets_lines_and_cards(
    tmp_path: Path, catalogs: dict[str, Any], registry: GameRegistry
) -> None:
    images = CardImages(tmp_path, catalogs, registry)
    best = images.best_cards(OWNED, "fr")
    shown = profile_card.card_of(
        a_profile(), "Alice «\u00a0la Grande\u00a0»", registry, own=True, best=best, locale="fr"
    )
    assert [w.value for w in shown.wallets] == [
        format_int(1000 + 7 * i, "fr") for i in range(len(every_game().currencies()))
    ]
    assert [r.label for r in shown.ranks] == ["Victoires — Bronze\u00a0: 3 · Argent\u00a0: 1 · Or\u00a0: 0"]
    canvas = profile.picture(shown, "Pas encore joué.", audit=True)
    texts = [p.text for p in canvas.placed]
    assert "Alice «\u00a0la Grande\u00a0»" in texts
    assert [w.value for w in shown.wallets] == [t for t in texts if t in {w.value for w in shown.wallets}]
    assert unreadable({"profile": canvas}) == []
    assert images.profile_now(shown, "fr") == images.profile_now(shown, "fr")  # kept, not drawn again


def test_another_players_picture_shows_only_what_is_public(
    tmp_path: Path, catalogs: dict[str, Any], registry: GameRegistry
) -> None:
    best = CardImages(tmp_path, catalogs, registry).best_cards(OWNED, "fr")
    shown = profile_card.card_of(a_profile(), "Bob", registry, own=False, best=best, locale="fr")
    assert (shown.wallets, shown.cards) == ((), ())
    texts = [p.text for p in profile.picture(shown, "Pas encore joué.", audit=True).placed]
    assert not any(format_int(1000, "fr")[:2] in text for text in texts)
    assert "Merlin" not in texts
