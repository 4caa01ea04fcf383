"""Fixtures of the platform tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import core.i18n as i18n
from core.message_guard import GUARD
from services.infra import messages


@pytest.fixture
def unread(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The production path of writing texts: no wording check reads each one (it turns off what is kept,
    `t`'s texts and `Text.lines`' lines), the guard logs instead of raising; nothing kept before or after."""
    monkeypatch.setattr(GUARD, "wording", None)
    monkeypatch.setattr(GUARD, "strict", False)
    i18n._WRITTEN.clear()
    messages._kept_lines.clear()
    yield
    i18n._WRITTEN.clear()
    messages._kept_lines.clear()
