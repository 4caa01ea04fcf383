"""What the command mixins of a game's GroupCog (cogs/_<game>_*.py) share."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for the type checker, commands live on a Cog; at run time a mixin is a plain class
    from discord.ext.commands import Cog as CommandsMixin
else:
    CommandsMixin = object

__all__ = ["CommandsMixin"]
