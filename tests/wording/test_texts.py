"""Every text the bot can show before it runs, through the text checker: each message of both catalogs
(every branch of every plural block: command and option names and descriptions among them) and every
localized text of the card catalogs. The count of texts checked is printed (`-s`), as docs/glossary.md
quotes it."""

from __future__ import annotations

from collections import Counter

from tests.support.wording import check
from tests.support.wording.sources import all_texts
from tests.support.wording.spelling import read_words


def test_every_catalog_and_card_text_reads_right_in_its_language() -> None:
    checked: Counter[str] = Counter()
    found = []
    for source in all_texts():
        checked[source.lang] += 1
        found += [
            f"{source.where} ({source.lang}): {finding}"
            for finding in check(source.text, source.lang, fragment=True)
        ]
    print(f"texts checked: {checked['fr']} French, {checked['en']} English")
    assert checked["fr"] > 3000
    assert checked["en"] > 3000
    assert found == [], f"{len(found)} findings:\n" + "\n".join(found[:80])


def test_every_word_of_the_word_list_is_still_used() -> None:
    """An entry nothing needs any more goes: the list holds names and game terms the texts use, no more."""
    used: set[str] = set()
    listed = read_words()
    for source in all_texts():
        used |= {word for word in listed.words if word in source.text or word.capitalize() in source.text}
    assert sorted(listed.words - used) == []
