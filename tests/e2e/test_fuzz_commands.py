"""Every slash command, found in the bot's command tree, fed random and hostile options through the emulator.

For each command Hypothesis draws option sets two ways:

- hostile: at least one option breaks the command's declaration (a wrong JSON type, a number out of its
  bounds or beyond 64 bits, a string longer than declared up to Discord's 6,000, a value outside the
  choices, a user Discord did not resolve, a required option left out), sent as a raw payload that the
  emulator's client-side checks would not let through. The reply must be private, in the reader's
  language (French or English, one of the `error.option.*` messages), and change no wallet, ledger row
  or card;
- declared: every option within its declaration (unicode and mentions in strings, any user of the server,
  bounds included), sent like a Discord client would. The command may succeed or refuse; it must answer
  within Discord's limits (the emulator rejects longer content or embeds) and raise nothing unexpected;
  when it refuses, the number of rows of every table is unchanged.

It stays bounded for CI: a few examples per command, derandomized so that every run draws the same inputs.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from discord import AppCommandOptionType as Kind
from discord import app_commands
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.i18n import catalogs
from discord_app import errors
from discord_app.option_checks import DISCORD_NUMBER_LIMIT, DISCORD_STRING_LIMIT
from emulator.world import User
from sandbox.harness import BotHarness
from store.db import dialect
from tests.e2e.hostile import assert_private_and_fits, send_raw, state_reader
from tests.e2e.messages import after_welcome
from tests.fixtures import postgres

pytestmark = pytest.mark.sweep

HOSTILE_EXAMPLES = 6
DECLARED_EXAMPLES = 4
FUZZ = settings(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

Command = app_commands.Command[Any, ..., Any]
Values = dict[str, Any]
State = dict[str, str]

# --- what may stand in a string -------------------------------------------------------------------------------

TEXT_PIECES = st.sampled_from(
    ["x", "é", "🂡", "\n", " ", "<@1>", "@everyone", "`", "*", "||", "\u200b", "\U000e0001"]
)
SHORT_TEXT = st.one_of(
    st.text(max_size=30),
    st.lists(TEXT_PIECES, max_size=12).map("".join),
    st.sampled_from(["bronze", "1", ""]),
)


def _repeat(piece: str, size: int) -> str:
    return (piece * size)[:size]


def long_text(low: int, high: int) -> st.SearchStrategy[str]:
    """Strings of `low` to `high` characters, built from a repeated piece so that 6,000 stay cheap."""
    return st.builds(_repeat, TEXT_PIECES, st.integers(low, high))


def _not_int(value: object) -> bool:
    return type(value) is not int


def _not_number(value: object) -> bool:
    return isinstance(value, bool) or not isinstance(value, int | float)


def _not_str(value: object) -> bool:
    return not isinstance(value, str)


def _not_bool(value: object) -> bool:
    return not isinstance(value, bool)


def _not_a_choice(value: str) -> str:
    return "~" + value  # no declared choice starts with a tilde


JSON_ANY = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    SHORT_TEXT,
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=1),
)

# --- the commands ---------------------------------------------------------------------------------------------


def tree_commands(harness: BotHarness) -> list[Command]:
    assert harness.bot is not None
    found = [c for c in harness.bot.tree.walk_commands() if isinstance(c, app_commands.Command)]
    assert len(found) > 40, "the command tree looks empty"
    return sorted(found, key=lambda c: c.qualified_name)


def bounds(param: app_commands.Parameter) -> tuple[int, int]:
    if param.type is Kind.string:
        return int(param.min_value or 0), int(param.max_value or DISCORD_STRING_LIMIT)
    low = -DISCORD_NUMBER_LIMIT if param.min_value is None else int(param.min_value)
    high = DISCORD_NUMBER_LIMIT if param.max_value is None else int(param.max_value)
    return low, high


def declared_value(
    param: app_commands.Parameter, harness: BotHarness, users: list[User]
) -> st.SearchStrategy[Any]:
    """A value the command declared, as a Python value the emulator types like a Discord client."""
    if param.choices:
        return st.sampled_from([c.value for c in param.choices])
    low, high = bounds(param)
    if param.type is Kind.integer:
        return st.one_of(st.integers(low, high), st.sampled_from([low, high]))
    if param.type is Kind.number:
        return st.floats(low, high, allow_nan=False)
    if param.type is Kind.boolean:
        return st.booleans()
    if param.type is Kind.string:
        return st.one_of(st.text(min_size=low, max_size=min(high, 30)), long_text(max(low, 1), high))
    if param.type is Kind.user:
        return st.sampled_from(users)
    if param.type is Kind.channel:
        assert harness.guild is not None
        return st.sampled_from(harness.guild.channels)
    if param.type is Kind.role:
        assert harness.guild is not None
        return st.sampled_from(harness.guild.roles)
    raise AssertionError(f"no strategy for {param.type}")


def hostile_value(param: app_commands.Parameter) -> st.SearchStrategy[Any]:
    """A value breaking the declaration: the wrong JSON type, or the right type beyond what was declared."""
    low, high = bounds(param)
    right_type: st.SearchStrategy[Any] = st.nothing()
    if param.type is Kind.integer:
        right_type = st.one_of(
            st.integers(max_value=low - 1),
            st.integers(min_value=high + 1),
            st.sampled_from([2**63, -(2**63) - 1]),
        )
        wrong = JSON_ANY.filter(_not_int)
    elif param.type is Kind.number:
        right_type = st.one_of(st.floats(max_value=low - 1.0), st.floats(min_value=high + 1.0))
        wrong = JSON_ANY.filter(_not_number)
    elif param.type is Kind.string:
        if high < DISCORD_STRING_LIMIT:
            right_type = long_text(high + 1, DISCORD_STRING_LIMIT)
        if low > 0:
            right_type = st.one_of(right_type, st.just(""))
        wrong = JSON_ANY.filter(_not_str)
    elif param.type is Kind.boolean:
        wrong = JSON_ANY.filter(_not_bool)
    else:  # users, channels, roles: a snowflake Discord did not resolve, or no snowflake at all
        right_type = st.integers(1, 2**64 - 1).map(str)
        wrong = JSON_ANY
    if param.choices:
        numbers = [int(c.value) for c in param.choices if isinstance(c.value, int)]
        outside: st.SearchStrategy[Any] = SHORT_TEXT.map(_not_a_choice)
        if numbers:
            outside = st.one_of(
                st.integers(max_value=min(numbers) - 1), st.integers(min_value=max(numbers) + 1)
            )
        right_type = st.one_of(right_type, outside)
    return st.one_of(right_type, wrong)


@st.composite
def hostile_options(draw: st.DrawFn, params: list[app_commands.Parameter], broken: dict[str, Any]) -> Values:
    """Options of any JSON value, plus at least one that breaks the declaration (or a required one missing).
    `broken` holds each option's strategy of breaking values, built once per command."""
    values: Values = {}
    for param in params:
        if param.required or draw(st.booleans()):
            values[param.display_name] = draw(broken[param.name] if draw(st.booleans()) else JSON_ANY)
    target = draw(st.sampled_from(params))
    if target.required and draw(st.integers(0, 4)) == 0:
        values.pop(target.display_name)
    else:
        values[target.display_name] = draw(broken[target.name])
    return values


# --- the oracle -----------------------------------------------------------------------------------------------


def message_patterns(prefix: str, lang: str) -> list[re.Pattern[str]]:
    """Every message of the catalog whose key starts with `prefix`, as a pattern with any placeholder value."""
    patterns = []
    for key, template in catalogs()[lang].items():
        if key.startswith(prefix):
            parts = re.split(r"\{[a-z_]+\}", template)
            patterns.append(re.compile(".*".join(map(re.escape, parts)), re.DOTALL))
    return patterns


OPTION_REFUSALS = {lang: message_patterns("error.option.", lang) for lang in ("fr", "en")}


class ErrorLog(logging.Handler):
    """Errors the bot or discord.py logged: none is expected, whatever a user sends."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


# --- the run --------------------------------------------------------------------------------------------------


class Fuzz:
    """One bot for every example: a fresh one per example would cost seconds each."""

    def __init__(self, tmp: Path) -> None:
        self.loop = asyncio.new_event_loop()
        self.harness = BotHarness(tmp / "bot.sqlite3", owners=("olivia",))
        self.errors = ErrorLog()
        self.refusals = 0  # answers of the bot's error handler (discord_app/errors.py `reply_private`)
        self.read_state: Callable[[], State] = lambda: {}  # tests/e2e/hostile.py `state_reader`, once started
        self.known: State | None = None  # the state read last, when no command ran since

    def state_before(self) -> State:
        """The state before a command: the one read after the last command when that one changed nothing
        (no command ran since, so it is still the state; reading it again would cost as much)."""
        before = self.known if self.known is not None else self.read_state()
        self.known = None  # a command runs now
        return before

    def assert_unchanged(self, before: State, what: str) -> None:
        after = self.read_state()
        assert after == before, what
        self.known = after

    def record_refusals(self, patch: pytest.MonkeyPatch) -> None:
        reply_private = errors.reply_private

        async def recording(interaction: Any, message: str) -> None:
            self.refusals += 1
            await reply_private(interaction, message)

        patch.setattr(errors, "reply_private", recording)

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    def close(self) -> None:
        """Cancel what the bot left waiting (views' timeouts) before closing the loop, as asyncio.run does."""
        pending = asyncio.all_tasks(self.loop)
        for task in pending:
            task.cancel()
        if pending:  # gather() of nothing makes its future on another loop than this one
            self.run(asyncio.gather(*pending, return_exceptions=True))
        self.run(self.loop.shutdown_asyncgens())
        self.loop.close()

    def check_clean(self, what: str) -> None:
        assert self.harness.unexpected_errors == [], what
        self.harness.emu.assert_no_errors()
        assert [r.getMessage() for r in self.errors.records] == [], what


@pytest.fixture(scope="module")
def fuzz(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fuzz]:
    """The module's bot. With `TEST_DATABASE=postgresql` it runs on a PostgreSQL database of its own, leased
    for the module (each test's own `DATABASE_URL` comes after this bot started), which the state reader
    reads too."""
    database = pytest.MonkeyPatch()
    try:
        with postgres.leased(request, database):
            yield from _started(Fuzz(tmp_path_factory.mktemp("fuzz")))
    finally:
        database.undo()


def _started(run: Fuzz) -> Iterator[Fuzz]:
    h = run.harness
    run.run(h.start())
    assert h.bot is not None
    engine = run.run(h.bot.services.db.read(dialect))
    assert engine == ("postgresql" if postgres.enabled() else "sqlite"), engine  # the run's own engine
    h.bot.services.lab.battles = (
        8  # a lab the fuzz reaches answers as any: its figures are not looked at here
    )
    logging.getLogger().addHandler(run.errors)
    patch = pytest.MonkeyPatch()
    run.record_refusals(patch)
    try:
        users = [h.user("alice", locale="fr"), h.user("bob", locale="en-US"), h.user("carol")]
        for user in (*users[:2], h.user("olivia")):
            run.run(h.emu.run_command(user, "profile"))  # players exist: a refusal must not even create one
        with state_reader(h.db_path) as run.read_state:
            yield run
        run.run(h.settle())
        run.check_clean("after the run")
    finally:
        patch.undo()
        logging.getLogger().removeHandler(run.errors)
        run.run(h.stop())
        run.close()


def hostile_case(fuzz: Fuzz, command: Command) -> Any:
    h = fuzz.harness
    alice, bob = h.user("alice"), h.user("bob")

    broken = {p.name: hostile_value(p) for p in command.parameters}

    @settings(FUZZ, max_examples=HOSTILE_EXAMPLES)
    @given(values=hostile_options(command.parameters, broken), english=st.booleans())
    def case(values: Values, english: bool) -> None:
        before = fuzz.state_before()
        reply = fuzz.run(send_raw(h, bob if english else alice, command.qualified_name, values))
        shown = assert_private_and_fits(reply)
        refusal = after_welcome(reply.content)  # a first command of a game: its welcome on top
        assert any(p.fullmatch(refusal) for p in OPTION_REFUSALS["en" if english else "fr"]), shown
        fuzz.assert_unchanged(before, f"/{command.qualified_name} {values!r} changed the state")
        fuzz.check_clean(f"/{command.qualified_name} {values!r}")

    return case


def declared_case(fuzz: Fuzz, command: Command) -> Any:
    h = fuzz.harness
    users = [h.user("alice"), h.user("bob"), h.user("carol")]
    strategies = {p.name: declared_value(p, h, users) for p in command.parameters}

    @st.composite
    def declared(draw: st.DrawFn) -> Values:
        return {
            p.display_name: draw(strategies[p.name])
            for p in command.parameters
            if p.required or draw(st.booleans())
        }

    root = command.root_parent or command
    members = [h.user("olivia")] if root.default_permissions is not None else users[:2]  # hidden from others

    @settings(FUZZ, max_examples=DECLARED_EXAMPLES if command.parameters else 1)
    @given(values=declared(), who=st.sampled_from(members))
    def case(values: Values, who: User) -> None:
        before, refused = fuzz.state_before(), fuzz.refusals
        reply = fuzz.run(h.emu.run_command(who, command.qualified_name, values))
        assert reply.callback_type is not None, f"/{command.qualified_name} {values!r}: no answer"
        fuzz.run(h.settle())
        fuzz.check_clean(f"/{command.qualified_name} {values!r}")
        if fuzz.refusals > refused:  # a refused command leaves no trace, not even a row of any table
            fuzz.assert_unchanged(before, f"/{command.qualified_name} {values!r} was refused but wrote")

    return case


def test_hostile_options_are_refused_privately_and_change_nothing(fuzz: Fuzz) -> None:
    for command in tree_commands(fuzz.harness):
        if command.parameters:
            hostile_case(fuzz, command)()


def test_declared_options_get_an_answer_within_discord_limits(fuzz: Fuzz) -> None:
    for command in tree_commands(fuzz.harness):
        declared_case(fuzz, command)()
