"""A message as a reader reads it: Discord's markup, mentions, code and links taken out, so that the
checks see words and punctuation only.

A catalog text's placeholders (`{name}`) become `HOLE`, a character no word contains: the spelling check
skips it, and a rule that depends on what follows (elision) does not guess what a value will be.
"""

from __future__ import annotations

import re

HOLE = "\ue000"  # a private-use character: where a value goes in a catalog text

_CODE_BLOCK = re.compile(r"```.*?```", re.DOTALL)
_CODE = re.compile(r"`[^`\n]*`")
_MENTION = re.compile(r"<(?:@[!&]?|#)-?\d+>|<t:-?\d+(?::[a-zA-Z])?>|<a?:\w+:\d+>|</[\w -]+:\d+>")
_LINK = re.compile(r"\[([^\]\n]+)\]\(<?https?://[^)\s]+>?\)")
_URL = re.compile(r"<?https?://\S+>?")
_EMPHASIS = re.compile(r"\*\*|__|~~|\|\||(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)")
_HEADING = re.compile(r"^(?:#{1,3} |-# |> )", re.MULTILINE)
_SHORTCODE = re.compile(r"(?<![\w:]):[a-z0-9_+-]+:(?![\w:])")  # :star: — Discord shows an emoji
_PLACEHOLDER = re.compile(r"\{[a-z_][a-z0-9_]*(?:![rsa])?(?::[^{}]*)?\}")


def plain(text: str) -> str:
    """The words and punctuation of a message: code, mentions, timestamps, custom emoji and links out
    (a link keeps its label), emphasis markers and heading marks dropped."""
    text = _CODE_BLOCK.sub(" ", text)
    text = _CODE.sub(HOLE, text)
    text = _LINK.sub(r"\1", text)
    text = _URL.sub(HOLE, text)
    text = _MENTION.sub(HOLE, text)
    text = _SHORTCODE.sub(HOLE, text)
    text = _HEADING.sub("", text)
    return _EMPHASIS.sub("", text)


def holes(template: str) -> str:
    """A catalog text with each placeholder as `HOLE` (escaped braces back to one brace)."""
    escaped = template.replace("{{", "\ue001").replace("}}", "\ue002")
    return _PLACEHOLDER.sub(HOLE, escaped).replace("\ue001", "{").replace("\ue002", "}")
