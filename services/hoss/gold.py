"""The HOSS currency: shared by every HOSS service, declared to the platform by `services.hoss`."""

GOLD = "hoss_gold"
STARTING_GOLD = 300  # the rules: "3 boosters Rang 1 avec tes 300 or de départ"
