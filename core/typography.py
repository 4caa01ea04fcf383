"""French spacing around punctuation, set once when a catalog is loaded (docs/glossary.md, "Typography").

The catalogs are written with plain spaces, as anyone types them (« Solde : {amount} »); the loaded text
has the spaces a French reader expects: a no-break space (U+00A0) before `:` and `%` and inside « », a
narrow no-break space (U+202F) before `;`, `!` and `?`. Decision: set here rather than typed as invisible
characters in the JSON files, so that a text added tomorrow is set like the others and a reviewer reads
the catalogs as plain text; the text checker of the tests (tests/support/wording/) checks the loaded
texts, and a sign with no space at all before it (« Solde: ») is its finding, to be fixed in the catalog.

Only spaces already there are changed: nothing is inserted, and code (`/pillz deck nom:Starter`) keeps
its own characters.
"""

from __future__ import annotations

import re

NBSP, NNBSP = "\u00a0", "\u202f"
_CODE = re.compile(r"(`[^`]*`)")
_SPACES = "[ \u00a0\u202f]+"
_FRENCH = (
    (re.compile(_SPACES + ":"), NBSP + ":"),
    (re.compile(_SPACES + "([;!?])"), NNBSP + r"\1"),
    (re.compile(_SPACES + "%"), NBSP + "%"),
    (re.compile("«" + _SPACES), "«" + NBSP),
    (re.compile(_SPACES + "»"), NBSP + "»"),
)


def typeset(text: str, lang: str) -> str:
    """`text` with the spaces its language puts around punctuation (French only; English puts none)."""
    if lang != "fr" or not any(sign in text for sign in ":;!?%«»"):
        return text
    parts = _CODE.split(text)
    for index in range(0, len(parts), 2):  # the odd parts are code spans
        for pattern, replacement in _FRENCH:
            parts[index] = pattern.sub(replacement, parts[index])
    return "".join(parts)
