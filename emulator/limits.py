"""Discord's documented limits that are checked on requests other than a whole message or a command.

Each refusal is what Discord answers: 400 / 50035 "Invalid Form Body", recorded as a bot bug. The values
come from Discord's API documentation, named here by page: "Reference" (Locales), "Message" (Allowed
Mentions Object, Message Flags), "Channel" (Start Thread: auto_archive_duration), "Receiving and
Responding" (Interaction Callback Data Structure) and "Application Commands" (Application Command Option
Choice Structure).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from emulator.errors import invalid_form
from emulator.payloads import JsonDict

# "Reference" page, Locales: the only keys a localization dictionary may have (`en` alone is refused).
LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)

# "Message" page, Allowed Mention Types.
MENTION_TYPES = frozenset({"roles", "users", "everyone"})
MENTION_IDS_MAX = 100

# "Channel" page, Start Thread: "can be set to: 60, 1440, 4320, 10080".
ARCHIVE_MINUTES = frozenset({60, 1440, 4320, 10080})

# "Message" page, Message Flags.
SUPPRESS_EMBEDS, EPHEMERAL, SUPPRESS_NOTIFICATIONS = 1 << 2, 1 << 6, 1 << 12
IS_VOICE_MESSAGE, IS_COMPONENTS_V2 = 1 << 13, 1 << 15
# "Receiving and Responding" page, Messages: "only SUPPRESS_EMBEDS, EPHEMERAL, IS_COMPONENTS_V2,
# IS_VOICE_MESSAGE, and SUPPRESS_NOTIFICATIONS can be set"; with DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
# "the only valid message flag you may use is EPHEMERAL".
RESPONSE_FLAGS = SUPPRESS_EMBEDS | EPHEMERAL | IS_COMPONENTS_V2 | IS_VOICE_MESSAGE | SUPPRESS_NOTIFICATIONS
DEFERRED_FLAGS = EPHEMERAL
CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, UPDATE_MESSAGE, AUTOCOMPLETE_RESULT = 4, 5, 7, 8

# "Application Commands" page: choice names 1-100 characters, string values up to 100, the value's type
# that of its option; autocomplete answers "max of 25 choices".
CHOICE_TEXT_MAX = 100
CHOICES_MAX = 25
STRING, INTEGER, NUMBER = 3, 4, 10


def check_locales(mapping: Any, where: str, *, limit: int | None = None) -> None:
    """A localization dictionary: keys from the Locales list, values within the field's own limit."""
    if mapping is None:
        return
    if not isinstance(mapping, Mapping):
        raise invalid_form(f"{where} localizations must be an object")
    for locale, value in mapping.items():
        if locale not in LOCALES:
            raise invalid_form(f"{where}: {locale!r} is not a Discord locale (Reference page, Locales)")
        if limit is not None and not (isinstance(value, str) and 1 <= len(value) <= limit):
            raise invalid_form(f"{where} ({locale}) must be 1-{limit} characters")


def check_choice(choice: Any, option_type: Any, where: str) -> None:
    """One choice of a command option or of an autocomplete answer."""
    if not isinstance(choice, dict):
        raise invalid_form(f"{where}: a choice must be an object")
    name = choice.get("name")
    if not isinstance(name, str) or not 1 <= len(name) <= CHOICE_TEXT_MAX:
        raise invalid_form(f"{where}: choice names must be 1-{CHOICE_TEXT_MAX} characters")
    check_locales(choice.get("name_localizations"), f"{where} choice {name!r}", limit=CHOICE_TEXT_MAX)
    value = choice.get("value")
    if option_type == STRING:
        ok = isinstance(value, str) and len(value) <= CHOICE_TEXT_MAX
    elif option_type == INTEGER:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif option_type == NUMBER:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
    else:
        raise invalid_form(f"{where}: options of type {option_type} cannot have choices")
    if not ok:
        raise invalid_form(
            f"{where}: choice {name!r} has a value {value!r} unfit for option type {option_type}"
        )


def check_allowed_mentions(payload: JsonDict) -> None:
    """`parse` holds only the three mention types, and excludes the id list of a type it names."""
    mentions = payload.get("allowed_mentions")
    if mentions is None:
        return
    if not isinstance(mentions, dict):
        raise invalid_form("allowed_mentions must be an object")
    parse = mentions.get("parse") or []
    if not isinstance(parse, list) or any(kind not in MENTION_TYPES for kind in parse):
        raise invalid_form(f"allowed_mentions.parse {parse!r} may only hold {sorted(MENTION_TYPES)}")
    for kind in ("users", "roles"):
        ids = mentions.get(kind) or []
        if ids and kind in parse:
            raise invalid_form(f"allowed_mentions: parse {kind!r} and a {kind} list are mutually exclusive")
        if len(ids) > MENTION_IDS_MAX:
            raise invalid_form(f"allowed_mentions.{kind} holds more than {MENTION_IDS_MAX} ids")


def check_thread(body: JsonDict) -> None:
    """A new thread's auto-archive duration, when given, is one of the four Discord offers."""
    duration = body.get("auto_archive_duration")
    if duration is not None and duration not in ARCHIVE_MINUTES:
        raise invalid_form(f"auto_archive_duration {duration!r} is not one of {sorted(ARCHIVE_MINUTES)}")


def check_callback(kind: int, data: JsonDict, interaction: JsonDict) -> None:
    """An interaction response: the message flags its type allows, or an autocomplete answer's choices
    (of the focused option's type, found in the interaction the bot answers)."""
    flags = int(data.get("flags") or 0)
    if kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE) and flags & ~RESPONSE_FLAGS:
        raise invalid_form(f"flags {flags} include flags an interaction response cannot set")
    if kind == DEFERRED_CHANNEL_MESSAGE and flags & ~DEFERRED_FLAGS:
        raise invalid_form(f"flags {flags}: a deferred response may only set EPHEMERAL")
    if kind == AUTOCOMPLETE_RESULT:
        choices = data.get("choices") or []
        if not isinstance(choices, list) or len(choices) > CHOICES_MAX:
            raise invalid_form(f"autocomplete can return at most {CHOICES_MAX} choices")
        focused = _focused(interaction.get("options") or [])
        for choice in choices:
            check_choice(choice, focused.get("type", STRING), "autocomplete")


def _focused(options: list[JsonDict]) -> JsonDict:
    for option in options:
        if option.get("focused"):
            return option
        found = _focused(option.get("options") or [])
        if found:
            return found
    return {}
