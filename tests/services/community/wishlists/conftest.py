"""The wishlists are told of by the drops (a drop of a wished card names its wishers): their tests start
from the drops' server, scheduler and drop service (tests/services/community/drops/conftest.py)."""

from __future__ import annotations

from tests.services.community.drops.conftest import catalogs, drops, sched

__all__ = ["catalogs", "drops", "sched"]  # the drops' fixtures, for the wishlists' tests
