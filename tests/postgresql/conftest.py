"""Tests that need a PostgreSQL server: collected only with `TEST_DATABASE=postgresql` (the PostgreSQL step
of .ci/run), where the session's cluster (tests/conftest.py: pg_cluster) serves them."""

from __future__ import annotations

from tests.fixtures import postgres

collect_ignore_glob = [] if postgres.enabled() else ["test_*.py"]
