"""The Pillz duel characters as tables: clans, and per clan its leader then its characters.

Read by tools/gen_pillz_catalog.py, which computes power and damage from the stars (and from whether the
card pays for an ability) and writes data/pillz.json. Names are original; "Ashigaru" is the rulebook's.
"""

from __future__ import annotations

# ability kind -> (French name, English name); the engine's semantics are in engine/pillz/catalog.py
ABILITY_NAMES: dict[str, tuple[str, str]] = {
    "power_bonus": ("Furie", "Fury"),
    "damage_bonus": ("Coup précis", "Precise Strike"),
    "heal_on_win": ("Second souffle", "Second Wind"),
    "pillz_on_loss": ("Réserve", "Stash"),
    "drain_pillz": ("Larcin", "Pilfer"),
    "reduce_damage": ("Armure", "Armour"),
    "cancel_ability": ("Entrave", "Shackle"),
    "counter_attack": ("Contre-attaque", "Counter-attack"),
    "clan_power": ("Cri de ralliement", "Rallying Cry"),
    "war_chest": ("Trésor de guerre", "War Chest"),
    "blessing": ("Bénédiction", "Blessing"),
}

# A character: (French name, English name, stars, ability kind or None, ability value)
Character = tuple[str, str, int, str | None, int]

# (clan id, French name, English name, leader, characters)
CLANS: list[tuple[str, str, str, Character, list[Character]]] = [
    (
        "ashigaru",
        "Ashigaru",
        "Ashigaru",
        ("Taishō Hayate", "Taishō Hayate", 4, "counter_attack", 0),
        [
            ("Éclaireur des rizières", "Rice-field Scout", 1, None, 0),
            ("Porteur de bannière", "Banner Bearer", 1, None, 0),
            ("Lancier yari", "Yari Spearman", 1, "power_bonus", 2),
            ("Archère yumi", "Yumi Archer", 2, None, 0),
            ("Garde du pont", "Bridge Guard", 2, "reduce_damage", 2),
            ("Arquebusier", "Arquebusier", 2, None, 0),
            ("Sergent Kenji", "Sergeant Kenji", 3, None, 0),
            ("Rōnin errant", "Wandering Rōnin", 3, "cancel_ability", 1),
            ("Capitaine Tora", "Captain Tora", 4, None, 0),
            ("Dame Sakura la Lame", "Lady Sakura the Blade", 5, None, 0),
        ],
    ),
    (
        "corsaires",
        "Corsaires du Levant",
        "Levant Corsairs",
        ("Amirale Roxane Sabord", "Admiral Roxane Porthole", 3, "war_chest", 2),
        [
            ("Mousse à la vigie", "Crow's-nest Cabin Boy", 1, None, 0),
            ("Cuistot borgne", "One-eyed Cook", 1, None, 0),
            ("Pickpocket du port", "Harbour Pickpocket", 1, "drain_pillz", 2),
            ("Canonnière Léa", "Gunner Léa", 2, None, 0),
            ("Abordeur", "Boarder", 2, None, 0),
            ("Contrebandière", "Smuggler", 2, "pillz_on_loss", 2),
            ("Maître d'équipage", "Boatswain", 3, None, 0),
            ("Bretteur balafré", "Scarred Swashbuckler", 3, "damage_bonus", 2),
            ("Capitaine Hugo Tempête", "Captain Hugo Storm", 4, None, 0),
            ("Le Kraken de Smyrne", "The Kraken of Smyrna", 5, None, 0),
        ],
    ),
    (
        "moines",
        "Moines de la Brume",
        "Mist Monks",
        ("Abbesse Ysolde", "Abbess Ysolde", 3, "blessing", 3),
        [
            ("Novice au balai", "Broom Novice", 1, None, 0),
            ("Sonneur de cloche", "Bell Ringer", 1, None, 0),
            ("Herboriste", "Herbalist", 1, "heal_on_win", 2),
            ("Moine au bâton", "Staff Monk", 2, None, 0),
            ("Gardien du cloître", "Cloister Warden", 2, None, 0),
            ("Copiste", "Scribe", 2, None, 0),
            ("Frère Anselme", "Brother Anselm", 3, None, 0),
            ("Ermite silencieux", "Silent Hermit", 3, "cancel_ability", 1),
            ("Prieur de fer", "Iron Prior", 4, None, 0),
            ("Le Patriarche voilé", "The Veiled Patriarch", 5, "heal_on_win", 3),
        ],
    ),
    (
        "mecanos",
        "Mécanos de Vapeurville",
        "Steamtown Cogwrights",
        ("Ingénieure Ada Rouage", "Engineer Ada Cogwheel", 4, "clan_power", 1),
        [
            ("Apprenti graisseur", "Grease Apprentice", 1, None, 0),
            ("Automate de poche", "Pocket Automaton", 1, None, 0),
            ("Chauffeur de chaudière", "Boiler Stoker", 1, None, 0),
            ("Riveteuse", "Riveter", 2, "power_bonus", 2),
            ("Soudeur masqué", "Masked Welder", 2, None, 0),
            ("Horloger", "Clockmaker", 2, None, 0),
            ("Scaphandrier", "Diving Suit", 3, "reduce_damage", 2),
            ("Pilote de dirigeable", "Airship Pilot", 3, None, 0),
            ("Golem à vapeur", "Steam Golem", 4, None, 0),
            ("Le Colosse de cuivre", "The Copper Colossus", 5, None, 0),
        ],
    ),
    (
        "sorcieres",
        "Sorcières des Marais",
        "Marsh Witches",
        ("Mère Grisaille", "Mother Greyhaze", 3, "war_chest", 1),
        [
            ("Cueilleuse de champignons", "Mushroom Picker", 1, None, 0),
            ("Crapaud familier", "Familiar Toad", 1, "pillz_on_loss", 1),
            ("Chat noir", "Black Cat", 1, None, 0),
            ("Jeteuse de sorts", "Hex Caster", 2, "cancel_ability", 1),
            ("Druidesse des saules", "Willow Druid", 2, None, 0),
            ("Chasseuse de feux follets", "Will-o'-wisp Hunter", 2, None, 0),
            ("Alchimiste des tourbières", "Bog Alchemist", 3, "drain_pillz", 2),
            ("Sœur Morgane", "Sister Morgane", 3, None, 0),
            ("Hydre du marais", "Marsh Hydra", 4, "damage_bonus", 1),
            ("La Reine des Brumes", "The Queen of Mists", 5, None, 0),
        ],
    ),
    (
        "gladiateurs",
        "Gladiateurs d'Ostia",
        "Ostia Gladiators",
        ("Laniste Maximilla", "Lanista Maximilla", 3, "clan_power", 1),
        [
            ("Esclave porteur d'eau", "Water Carrier", 1, None, 0),
            ("Apprenti au filet", "Net Apprentice", 1, None, 0),
            ("Rétiaire", "Retiarius", 2, None, 0),
            ("Mirmillon", "Murmillo", 2, None, 0),
            ("Archère montée", "Mounted Archer", 2, "damage_bonus", 1),
            ("Thrace", "Thraex", 2, None, 0),
            ("Secutor", "Secutor", 3, None, 0),
            ("Dompteuse de lions", "Lion Tamer", 3, "power_bonus", 1),
            ("Champion de l'arène", "Arena Champion", 4, "heal_on_win", 2),
            ("Le Colosse d'Ostia", "The Titan of Ostia", 5, None, 0),
        ],
    ),
]
