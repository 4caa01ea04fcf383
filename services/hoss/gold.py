"""The HOSS currency: shared by every HOSS service, declared to the platform by `services.hoss`."""

from services.infra.games import Currency

GOLD = "hoss_gold"
STARTING_GOLD = 300  # the rules: "3 boosters Rang 1 avec tes 300 or de départ"
CURRENCY = Currency(GOLD, "hoss.gold", starting=STARTING_GOLD, earn_key="hoss.guide.earn")
