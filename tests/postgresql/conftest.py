"""Tests that need a PostgreSQL server: collected only with `TEST_DATABASE=postgresql` (the PostgreSQL step
of .ci/run), where the session's cluster (tests/conftest.py: pg_cluster) serves them."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from store.postgres import PostgresDatabase
from tests.fixtures import postgres
from tests.fixtures.postgres import Cluster
from tests.services.conftest import open_postgres

collect_ignore_glob = [] if postgres.enabled() else ["test_*.py"]


@pytest.fixture
async def processes(pg_cluster: Cluster) -> AsyncIterator[tuple[PostgresDatabase, PostgresDatabase]]:
    """Two handles on one database, as two bot processes would hold."""
    url = pg_cluster.create()
    first, second = await open_postgres(url), await open_postgres(url)
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()
        pg_cluster.drop(url)
