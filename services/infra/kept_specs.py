"""The messages an outbox item holds, kept by the JSON written for them between the write and the delivery.

A service queues a message in its write unit (`outbox.enqueue`, the spec written as JSON) and the
deliverer reads it back moments later on the event loop: parsing that JSON again was a tenth of the loop's
work for a Pillz move or a Chocobataille turn (issue 39, docs/performance.md). The spec a unit wrote is
kept beside the text it wrote, and the deliverer's read finds it by that very text; an item written by
another process (PostgreSQL) is parsed as before. Specs are frozen dataclasses: sharing one is safe, and
a spec read back from its JSON equals the one written (tests/platform/test_message_json.py; a turn's
posts read unparsed: tests/services/choco/test_turn_cost.py).
"""

from __future__ import annotations

from services.infra.messages import MessageSpec

KEPT_SPECS = 128  # the items written and not yet delivered, with room; the whole set is dropped beyond it

_kept: dict[str, MessageSpec] = {}


def payload(spec: MessageSpec) -> str:
    """`spec`'s JSON for the outbox's row, the spec kept under it."""
    raw = spec.to_json()
    _keep(raw, spec)
    return raw


def spec_of(raw: str) -> MessageSpec:
    """The spec of an outbox row's payload: the one kept for that text, or parsed."""
    spec = _kept.get(raw)
    if spec is None:
        spec = MessageSpec.from_json(raw)
        _keep(raw, spec)
    return spec


def _keep(raw: str, spec: MessageSpec) -> None:
    # plain dict operations (atomic): the writer's thread and the loop's reads share the kept specs
    if len(_kept) >= KEPT_SPECS:
        _kept.clear()
    _kept[raw] = spec
