"""Every refusal the code can raise has its text in both languages, and reaches the player in theirs.

The keys are read from the code itself (its syntax tree), so a new refusal is held to this without a list
to edit: every class that derives from `DomainError` (through any chain of subclasses) and its `key`, and
every string literal given as the first argument, or as `key=`, of a call to one of those classes.
"""

from __future__ import annotations

import ast
from datetime import date

import pytest

from core.errors import BadInput, CardUnavailable, NotAllowed, NotFound
from core.i18n import catalogs
from discord_app.errors import _user_message
from engine.errors import DomainError, IllegalAction, InvalidAction
from services.infra.messages import Day, Number, Text
from tests.platform.code_files import code_files


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _own_init_takes_key(cls: ast.ClassDef) -> bool | None:
    """Whether the class's own `__init__` takes the key first; None when it has none (it inherits)."""
    for statement in cls.body:
        if isinstance(statement, ast.FunctionDef) and statement.name == "__init__":
            params = [a.arg for a in statement.args.args[1:]]
            return bool(params) and params[0] == "key"
    return None


def domain_error_classes(trees: list[ast.Module]) -> tuple[dict[str, bool], dict[str, str]]:
    """`DomainError` and every class deriving from it, each with whether its first argument is a key (a
    class whose own `__init__` takes something else, `NotationError(reason, …)`, names its key itself),
    and each one's own `key`."""
    classes = [node for tree in trees for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    family = {"DomainError": True}
    grew = True
    while grew:
        grew = False
        for cls in classes:
            bases = [family[b] for b in map(_name, cls.bases) if b in family]
            if cls.name not in family and bases:
                own = _own_init_takes_key(cls)
                family[cls.name] = bases[0] if own is None else own
                grew = True
    keys: dict[str, str] = {}
    for cls in classes:
        if cls.name not in family:
            continue
        for statement in cls.body:
            if (
                isinstance(statement, ast.Assign)
                and any(isinstance(target, ast.Name) and target.id == "key" for target in statement.targets)
                and isinstance(statement.value, ast.Constant)
                and isinstance(statement.value.value, str)
            ):
                keys[cls.name] = statement.value.value
    return family, keys


def raised_keys(trees: list[ast.Module], family: dict[str, bool]) -> set[str]:
    """Every string literal handed to a `DomainError` class as its key (first argument or `key=`)."""
    found: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            called = _name(node.func) if isinstance(node, ast.Call) else None
            if called not in family:
                continue
            assert isinstance(node, ast.Call)
            given = [node.args[0]] if node.args and family[called] else []
            given += [kw.value for kw in node.keywords if kw.arg == "key"]
            found |= {g.value for g in given if isinstance(g, ast.Constant) and isinstance(g.value, str)}
    return found


@pytest.fixture(scope="module")
def trees() -> list[ast.Module]:
    return [ast.parse(path.read_text(encoding="utf-8"), str(path)) for path in code_files()]


def test_the_scan_finds_the_families_and_keys_it_must() -> None:
    """A negative control: the scan finds a subclass of a subclass and both ways of naming a key."""
    code = ast.parse(
        "class A(DomainError):\n    key = 'a.key'\n"
        "class B(A):\n    pass\n"
        "class C(B):\n    def __init__(self, reason, step):\n        super().__init__(KEYS[reason])\n"
        "class Other(Exception):\n    key = 'not.an.error'\n"
        "raise B('b.key', n=1)\n"
        "raise errors.A(key='c.key')\n"
        "raise C('no_key', 1)\n"
        "Other('d.key')\n"
    )
    family, keys = domain_error_classes([code])
    assert family == {"DomainError": True, "A": True, "B": True, "C": False}
    assert keys == {"A": "a.key"}
    assert raised_keys([code], family) == {"b.key", "c.key"}


def test_every_refusal_the_code_raises_is_written_in_both_languages(trees: list[ast.Module]) -> None:
    family, keys = domain_error_classes(trees)
    raised = raised_keys(trees, family) | set(keys.values())
    assert {"BadInput", "IllegalAction", "DeckInvalid", "NotationError", "LeakedInternal"} - set(family) == {
        "LeakedInternal"
    }
    assert len(raised) > 200  # the scan reads the whole code, not a corner of it
    for lang, table in catalogs().items():
        missing = sorted(raised - set(table))
        assert missing == [], f"refusals with no text in {lang}: {missing}"


@pytest.mark.parametrize(
    "error", [IllegalAction, InvalidAction, BadInput, NotAllowed, NotFound, CardUnavailable]
)
def test_a_refusal_raised_inside_a_game_reaches_the_player_in_their_language(
    error: type[DomainError],
) -> None:
    """What an engine or a service raises carries a key and data, never a sentence: the handler writes it
    in the reader's language (an engine's `reason` is for the service that words it, not for the player)."""
    raised = error(reason="not_your_turn")
    french, english = _user_message(raised, "fr"), _user_message(raised, "en")
    assert french == catalogs()["fr"][error.key]
    assert english == catalogs()["en"][error.key]
    assert french != english


def test_a_refusals_parameters_are_written_in_the_readers_language() -> None:
    over = BadInput("trades.error.amount_over", amount=Number(12_000), balance=Number(300))
    assert _user_message(over, "fr") == "Vous proposez 12\u202f000 mais n'avez que 300."
    assert _user_message(over, "en") == "You offer 12,000 but have only 300."
    closed = NotAllowed("trades.error.closed", trade=3, status=Text("trades.status.expired"))
    assert _user_message(closed, "fr") == "L'échange n° 3 est terminé (expiré)."
    assert "(expired)" in str(_user_message(closed, "en"))
    no_draw = NotFound("hoss.raffle.error.no_draw", day=Day(date(2026, 1, 5)))
    assert "5 janvier 2026" in str(_user_message(no_draw, "fr"))
    assert "January 5, 2026" in str(_user_message(no_draw, "en"))
