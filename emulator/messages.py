"""Turning message payloads sent by the bot into recorded messages, with Discord's validation rules.

Validation matters because a payload Discord would reject (too long, duplicate custom ids, empty) is a
bot bug that would otherwise only show up in production. The limits are those of Discord's "Message" page
(content, Embed Limits, Allowed Mentions Object) and of its "Component Reference" page (buttons, selects,
text inputs, modals).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from emulator.errors import CANNOT_SEND_EMPTY, ApiError, invalid_form
from emulator.limits import check_allowed_mentions
from emulator.payloads import JsonDict
from emulator.records import EPHEMERAL, LOADING, Attachment, RecordedMessage, walk_components
from emulator.world import Snowflakes

COMPONENTS_V2 = 1 << 15
BUTTON, TEXT_INPUT, LINK, PREMIUM = 2, 4, 5, 6
SELECTS = (3, 5, 6, 7, 8)
SELECT_VALUES_MAX = 25  # Component Reference: min_values "minimum 0, maximum 25", max_values "maximum 25"
TEXT_INPUT_MAX = 4000  # Component Reference, Text Input: value and max_length up to 4000 characters
# Message resource, Create Message: "files[n]" — up to 10 files per message. Uploads: a server without
# boosts allows 10 MiB per request ("attachment_size_limit" of the Guild object, 10485760; the emulator's
# guilds report the same in emulator/actions.py), else 413 "Request entity too large" (code 40005).
ATTACHMENTS_MAX = 10
UPLOAD_MAX_BYTES = 10 * 1024 * 1024
ENTITY_TOO_LARGE = 40005
_EDITABLE_FLAGS = (1 << 2) | (1 << 12) | COMPONENTS_V2  # SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, V2


@dataclass
class UploadedFile:
    """One ``files[n]`` part of a multipart request."""

    field: str
    filename: str
    data: bytes
    content_type: str | None = None


def fill_message(
    message: RecordedMessage,
    payload: JsonDict,
    files: list[UploadedFile],
    ids: Snowflakes,
    *,
    editing: bool = False,
) -> None:
    """Apply the fields present in ``payload``; absent fields keep their value, as with PATCH."""
    check_allowed_mentions(payload)
    if editing:
        message.history.append(message.snapshot())
        message.edited_id = ids.next()
    if "content" in payload:
        message.content = "" if payload["content"] is None else str(payload["content"])
    if "embeds" in payload:
        message.embeds = [_normalise_embed(e) for e in payload["embeds"] or []]
    if "components" in payload:
        message.components = list(payload["components"] or [])
    if "flags" in payload and payload["flags"] is not None:
        flags = int(payload["flags"])
        if editing:
            message.flags = (message.flags & ~_EDITABLE_FLAGS) | (flags & _EDITABLE_FLAGS)
        else:
            message.flags = (flags & ~LOADING) | (message.flags & LOADING)
    if editing:
        message.flags &= ~LOADING
    if "poll" in payload and payload["poll"] is not None:
        message.poll = payload["poll"]
    if "tts" in payload:
        message.tts = bool(payload["tts"])
    if payload.get("message_reference"):
        message.message_reference = dict(payload["message_reference"])
    _apply_attachments(message, payload, files, ids)
    validate(message)


def _normalise_embed(embed: Any) -> JsonDict:
    if not isinstance(embed, dict):
        raise invalid_form("embed must be an object")
    return {"type": "rich", **embed}


def _apply_attachments(
    message: RecordedMessage, payload: JsonDict, files: list[UploadedFile], ids: Snowflakes
) -> None:
    if sum(len(f.data) for f in files) > UPLOAD_MAX_BYTES:
        raise ApiError(413, ENTITY_TOO_LARGE, "Request entity too large", bot_bug=True)
    by_field = {f.field: f for f in files}
    if "attachments" not in payload:
        added = [Attachment(ids.next(), f.filename, f.data, f.content_type) for f in files]
        message.attachments.extend(added)
        message.uploads.extend(added)
        return
    kept: list[Attachment] = []
    existing = {a.id: a for a in message.attachments}
    for entry in payload["attachments"] or []:
        entry_id = int(entry.get("id", -1))
        if entry_id in existing:
            kept.append(existing[entry_id])
            continue
        upload = by_field.get(f"files[{entry_id}]")
        if upload is None:
            raise invalid_form(f"attachment {entry_id} refers to no uploaded file")
        filename = str(entry.get("filename") or upload.filename)
        description = entry.get("description")
        attachment = Attachment(ids.next(), filename, upload.data, upload.content_type, description)
        kept.append(attachment)
        message.uploads.append(attachment)
    message.attachments = kept


def validate(message: RecordedMessage) -> None:
    """The subset of Discord's message limits that bots realistically trip over."""
    if len(message.content) > 2000:
        raise invalid_form(f"content is {len(message.content)} characters long, the limit is 2000")
    if len(message.attachments) > ATTACHMENTS_MAX:
        raise invalid_form(f"a message can have at most {ATTACHMENTS_MAX} attachments")
    if len(message.embeds) > 10:
        raise invalid_form("a message can have at most 10 embeds")
    total = 0
    for embed in message.embeds:
        total += _validate_embed(embed)
    if total > 6000:
        raise invalid_form("embeds exceed 6000 characters in total")
    _validate_components(message.components, v2=bool(message.flags & COMPONENTS_V2))
    if message.flags & COMPONENTS_V2 and (message.content or message.embeds):
        raise invalid_form("content and embeds cannot be used with the IS_COMPONENTS_V2 flag")
    has_body = message.content or message.embeds or message.components or message.attachments or message.poll
    if not has_body and not message.loading:
        raise ApiError(400, CANNOT_SEND_EMPTY, "Cannot send an empty message", bot_bug=True)


def _limit(value: Any, limit: int, what: str) -> int:
    text = "" if value is None else str(value)
    if len(text) > limit:
        raise invalid_form(f"{what} is {len(text)} characters long, the limit is {limit}")
    return len(text)


def _validate_embed(embed: JsonDict) -> int:
    size = _limit(embed.get("title"), 256, "embed title")
    size += _limit(embed.get("description"), 4096, "embed description")
    size += _limit((embed.get("footer") or {}).get("text"), 2048, "embed footer")
    size += _limit((embed.get("author") or {}).get("name"), 256, "embed author name")
    fields = embed.get("fields") or []
    if len(fields) > 25:
        raise invalid_form("an embed can have at most 25 fields")
    for field in fields:
        if not field.get("name") or field.get("value") in (None, ""):
            raise invalid_form("embed fields need a non-empty name and value")
        size += _limit(field["name"], 256, "embed field name")
        size += _limit(field["value"], 1024, "embed field value")
    return size


def _validate_components(components: list[JsonDict], *, v2: bool) -> None:
    if not v2 and len(components) > 5:
        raise invalid_form("a message can have at most 5 action rows")
    seen: set[str] = set()
    for component in walk_components(components):
        kind = component.get("type")
        if kind == 1:
            children = component.get("components") or []
            if not children or len(children) > 5:
                raise invalid_form("an action row needs 1 to 5 components")
            if any(c.get("type") != 2 for c in children) and len(children) > 1:
                raise invalid_form("a select menu must be alone in its action row")
        if kind == BUTTON:
            _limit(component.get("label"), 80, "button label")
            if component.get("style") == LINK:
                if not component.get("url") or component.get("custom_id"):
                    raise invalid_form("link buttons need a url and no custom_id")
                continue
            if component.get("style") != PREMIUM and not component.get("custom_id"):
                raise invalid_form("a button that is not a link needs a custom_id")
        if kind in SELECTS:
            _validate_select(component)
        custom_id = component.get("custom_id")
        if custom_id is not None:
            _limit(custom_id, 100, "custom_id")
            if custom_id in seen:
                raise invalid_form(f"duplicate custom_id {custom_id!r}")
            seen.add(custom_id)


def _validate_select(component: JsonDict) -> None:
    _limit(component.get("placeholder"), 150, "select placeholder")
    options = component.get("options") or []
    if component.get("type") == 3 and not 1 <= len(options) <= 25:
        raise invalid_form("a string select needs 1 to 25 options")
    for option in options:
        _limit(option.get("label"), 100, "select option label")
        _limit(option.get("value"), 100, "select option value")
        _limit(option.get("description"), 100, "select option description")
    low, high = component.get("min_values", 1), component.get("max_values", 1)
    if not 0 <= low <= SELECT_VALUES_MAX or not 1 <= high <= SELECT_VALUES_MAX:
        raise invalid_form(f"select min_values {low} / max_values {high} must be within 0-25 / 1-25")
    if low > high:
        raise invalid_form(f"select min_values {low} is above max_values {high}")


def validate_modal(data: JsonDict) -> None:
    _limit(data.get("title"), 45, "modal title")
    _limit(data.get("custom_id"), 100, "modal custom_id")
    if not data.get("custom_id") or not data.get("title"):
        raise invalid_form("a modal needs a custom_id and a title")
    if not 1 <= len(data.get("components") or []) <= 5:
        raise invalid_form("a modal needs 1 to 5 components")
    for component in walk_components(data.get("components") or []):
        if component.get("type") in (TEXT_INPUT, 18):
            _limit(component.get("label"), 45, "modal label")
        if component.get("type") == TEXT_INPUT:
            _validate_text_input(component)
        if component.get("type") in SELECTS:
            _validate_select(component)


def _validate_text_input(component: JsonDict) -> None:
    _limit(component.get("custom_id"), 100, "text input custom_id")
    _limit(component.get("value"), TEXT_INPUT_MAX, "text input value")
    _limit(component.get("placeholder"), 100, "text input placeholder")
    low, high = component.get("min_length"), component.get("max_length")
    if low is not None and not 0 <= low <= TEXT_INPUT_MAX:
        raise invalid_form(f"text input min_length {low} must be 0-{TEXT_INPUT_MAX}")
    if high is not None and not 1 <= high <= TEXT_INPUT_MAX:
        raise invalid_form(f"text input max_length {high} must be 1-{TEXT_INPUT_MAX}")


def is_ephemeral(payload: JsonDict) -> bool:
    return bool(int(payload.get("flags") or 0) & EPHEMERAL)
