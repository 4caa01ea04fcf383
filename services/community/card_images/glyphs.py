"""The characters of the cards' font (data/fonts/, cut by tools/gen_card_font.py to these ranges)."""

RANGES: tuple[tuple[int, int], ...] = (
    (0x20, 0x7E),  # ASCII
    (0xA0, 0x17F),  # Latin-1 and Latin Extended-A: é, Œ œ, ō, « », ×
    (0x2010, 0x2027),  # dashes, quotes, •, …
    (0x202F, 0x202F),  # the narrow no-break space French puts before « ; : ! ? »
    (0x2030, 0x203A),  # ‰ ‹ ›
    (0x20AC, 0x20AC),  # €
    (0x2190, 0x2193),  # arrows
    (0x2212, 0x2212),  # minus
    (0x2605, 0x2606),  # ★ ☆
)
