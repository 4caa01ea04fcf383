"""Filling in a modal the way the Discord client does before sending MODAL_SUBMIT.

The submission mirrors the modal's layout (action rows or labels), because discord.py walks that
structure to find each item by custom_id.
"""

from __future__ import annotations

from typing import Any

from emulator.errors import EmulatorError
from emulator.payloads import JsonDict

TEXT_INPUT, STRING_SELECT, ACTION_ROW, LABEL = 4, 3, 1, 18
TEXT_INPUT_MAX = 4000  # Discord's "Component Reference" page, Text Input: value up to 4000 characters


def modal_components(modal: JsonDict, values: dict[str, Any]) -> list[JsonDict]:
    """``values`` keys are custom_ids or labels; unknown keys raise so typos do not pass silently."""
    unused = set(values)
    submitted: list[JsonDict] = []
    for component in modal.get("components") or []:
        kind = component.get("type")
        if kind == ACTION_ROW:
            children = [
                _fill(child, child.get("label"), values, unused)
                for child in component.get("components") or []
                if child.get("custom_id")
            ]
            submitted.append({"type": ACTION_ROW, "components": children})
        elif kind == LABEL:
            child = component.get("component") or {}
            inner = _fill(child, component.get("label"), values, unused)
            filled: JsonDict = {"type": LABEL, "component": inner}
            if "id" in component:
                filled["id"] = component["id"]
            submitted.append(filled)
    if unused:
        raise EmulatorError(f"modal {modal.get('title')!r} has no field(s) {sorted(unused)}")
    return submitted


def _fill(component: JsonDict, label: Any, values: dict[str, Any], unused: set[str]) -> JsonDict:
    custom_id = str(component.get("custom_id"))
    key = custom_id if custom_id in values else (label if label in values else None)
    if key is not None:
        unused.discard(key)
    given = values.get(key) if key is not None else None
    name = f"field {label or custom_id!r}"
    kind = component.get("type")
    required = component.get("required", True)
    result: JsonDict = {"type": kind, "custom_id": custom_id}
    if "id" in component:
        result["id"] = component["id"]
    if kind == TEXT_INPUT:
        text = str(given) if given is not None else str(component.get("value") or "")
        if len(text) > TEXT_INPUT_MAX:
            raise EmulatorError(f"{name}: the Discord client takes at most {TEXT_INPUT_MAX} characters")
        if required and not text:
            raise EmulatorError(f"{name} is required")
        low, high = component.get("min_length"), component.get("max_length")
        if text and ((low is not None and len(text) < low) or (high is not None and len(text) > high)):
            raise EmulatorError(f"{name}: length {len(text)} outside {low}-{high}")
        result["value"] = text
    elif kind == STRING_SELECT:
        wanted = [] if given is None else [given] if isinstance(given, str) else list(given)
        options = component.get("options") or []
        picked = []
        for item in wanted:
            match = next((o for o in options if item in (o.get("label"), o.get("value"))), None)
            if match is None:
                raise EmulatorError(f"{name} has no option {item!r}")
            picked.append(str(match["value"]))
        if required and not picked:
            raise EmulatorError(f"{name} is required")
        result["values"] = picked
    elif given is not None:
        raise EmulatorError(f"{name}: component type {kind} is not supported by the emulator")
    else:
        result["values"] = []
    return result
