"""`benchmarks.render_path` reads its stored specs and renders each as the bot does: a MessageSpec that
changes shape breaks this before it breaks the benchmark."""

from __future__ import annotations

from benchmarks.render_path import per_spec, scenes


async def test_every_stored_spec_renders() -> None:
    loaded = scenes()
    assert sorted(loaded) == ["choco", "pillz", "ranked", "trade"]
    for specs in loaded.values():
        assert specs
        assert per_spec(specs, 1) > 0
