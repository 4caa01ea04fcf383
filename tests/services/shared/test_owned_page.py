"""`owned_page`, the collection page of every game whose copies are interchangeable: the same page as
building an `OwnedCard` for every owned card, sorting them and cutting the page (issue 39: only the page's
cards are built now, each card's key computed once), ties kept in the counts' order."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.dinocard import DinocardCard, DinocardCatalog
from services.shared.collection import CollectionPage, OwnedCard, owned_page, paginate

CATALOG = DinocardCatalog.model_validate_json(
    (Path(__file__).parents[3] / "data" / "dinocard.json").read_text(encoding="utf-8")
)
CARDS = {card.id: card for card in CATALOG.cards}


def rank(card: DinocardCard) -> str:
    return card.rarity  # ties on purpose: the sort must keep the counts' order among equals


def expected(
    counts: dict[str, int], keep: Callable[[DinocardCard], bool] | None, page: int
) -> CollectionPage[DinocardCard]:
    """The page as built before: an `OwnedCard` per kept card, sorted, then paginated."""
    owned = [
        OwnedCard(CARDS[key], n)
        for key, n in counts.items()
        if key in CARDS and n > 0 and (keep is None or keep(CARDS[key]))
    ]
    owned.sort(key=lambda o: rank(o.card))
    items, shown, pages = paginate(owned, page)
    return CollectionPage(tuple(items), shown, pages, len(owned), sum(o.count for o in owned))


@pytest.mark.parametrize("seed", range(20))
def test_the_page_is_the_one_every_card_built_and_sorted_gives(seed: int) -> None:
    chance = random.Random(seed)
    keys = [*chance.sample(sorted(CARDS), 70), "lost-id"]  # an id the catalog lost is skipped
    chance.shuffle(keys)
    counts = {key: chance.randint(-1, 4) for key in keys}  # none (0) or fewer are not owned
    fire: Callable[[DinocardCard], bool] = lambda card: card.element == "feu"  # noqa: E731
    for keep in (None, fire):
        for page in (-1, 1, 2, 3, 9):
            assert owned_page(counts, CARDS, keep, rank, page) == expected(counts, keep, page)


def test_an_empty_collection_is_one_empty_page() -> None:
    assert owned_page({}, CARDS, None, rank, 3) == CollectionPage((), 1, 1, 0, 0)
