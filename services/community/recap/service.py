"""The weekly recap: every Monday at 09:00 (Paris), each server with an announcements channel gets the
week that just ended (Monday 00:00 to Monday 00:00, Paris) as one embed, its sections in order and the
week's most prized card as its picture; a server whose week gave no section gets nothing.

One recurring job (`platform:recap`, a row per week: services/infra/scheduler.py) posts every server's
recap in its unit, through the outbox: a week missed while the bot was down is posted once, at start-up,
and never twice. Its sections come from the providers the service is built with (sections.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime, time, timedelta
from typing import Any

from services.community.recap.sections import RecapSection, RecapWeek, SectionProvider
from services.infra import outbox
from services.infra.games import GameRegistry
from services.infra.messages import CardStrip, Day, Embed, EmbedField, MessageSpec, Target, Text
from services.infra.recurrence import resolve_wall_time
from services.infra.scheduler import Job, Scheduler, Weekly
from store.connection import Connection

RECAP_JOB = "platform:recap"
WHEN = Weekly(0, 9, 0)  # « Every Monday morning (Paris) »
RECAP_COLOR = 0x5865F2
PICTURE_SCALE = 0.6


def week_of(monday: date, zone: Any) -> tuple[datetime, datetime]:
    """The week that ends on `monday` at 00:00 (Paris), as UTC instants."""
    midnight = time(0, 0)
    return resolve_wall_time(monday - timedelta(days=7), midnight, zone), resolve_wall_time(
        monday, midnight, zone
    )


def recap_post(week: RecapWeek, sections: Sequence[RecapSection], zone: Any) -> MessageSpec:
    last_day = (week.until - timedelta(seconds=1)).astimezone(zone).date()
    title = Text("recap.title", {"first": Day(week.since.astimezone(zone).date()), "last": Day(last_day)})
    fields = tuple(EmbedField(section.title, section.body, inline=False) for section in sections)
    highlights = [h for section in sections for h in section.highlights]
    strips: tuple[CardStrip, ...] = ()
    image = None
    if highlights:
        best = max(highlights, key=lambda h: h.worth)  # the first of the most prized: pulls come before drops
        image = f"recap-{week.guild_id}.png"
        strips = (CardStrip(image, best.game, (best.card,), PICTURE_SCALE),)
    embed = Embed(title=title, description=Text("recap.intro"), fields=fields, color=RECAP_COLOR, image=image)
    return MessageSpec(embeds=(embed,), strips=strips)


class RecapService:
    def __init__(
        self,
        scheduler: Scheduler,
        registry: GameRegistry,
        catalogs: Mapping[str, Any],
        providers: Sequence[SectionProvider],
    ) -> None:
        self.registry = registry
        self.zone = scheduler.zone
        self.catalogs = dict(catalogs)
        self.providers = tuple(providers)
        scheduler.recurring(RECAP_JOB, WHEN, self.on_week)

    def sections(self, conn: Connection, week: RecapWeek) -> list[RecapSection]:
        found = [section for provider in self.providers if (section := provider(conn, week)) is not None]
        return sorted(found, key=lambda section: section.order)

    def on_week(self, conn: Connection, job: Job, now: datetime) -> None:
        monday = date.fromisoformat(job.period_key) if job.period_key else now.astimezone(self.zone).date()
        since, until = week_of(monday, self.zone)
        servers = conn.execute(
            "SELECT guild_id, announce_channel_id FROM guild_settings WHERE announce_channel_id IS NOT NULL"
            " ORDER BY guild_id"
        ).fetchall()
        for guild_id, channel in servers:
            week = RecapWeek(
                int(guild_id), monday - timedelta(days=7), since, until, self.registry, self.catalogs
            )
            sections = self.sections(conn, week)
            if sections:
                target = Target("channel", int(channel), guild_id=int(guild_id))
                outbox.enqueue(conn, now, target, recap_post(week, sections, self.zone))
