#!/usr/bin/env python3
"""Derive wort's built-in ingredient catalogue from openly licensed raw datasets.

Usage:
    python3 derive.py <the raw datasets folder> [output folder]

The raw datasets folder must contain the three MIT-licensed snapshots
(see NOTICE.md for repositories, commits and licences):

    kasperg3+HopDatabase/hops.json
    Wall-Brew-Co+common-beer-data/{hops,fermentables,yeasts}.json
    mikedilger+beermaker/{malts,yeasts}.json

Only names plus numeric and enum fields are taken from the datasets. Free-text
notes, descriptions and URLs are dropped on purpose (``notes`` is always null).
Hand-curated corrections and additions (manufacturers' published specifications,
which are facts) live in this script; rows that depend on them carry
``"data_source": "manufacturer-spec"``.

The output folder defaults to the folder holding this script. Running the
script again reproduces hops.json, fermentables.json, yeasts.json and
miscs.json byte for byte.
"""

import json
import os
import sys
import unicodedata
import uuid

NAMESPACE = uuid.UUID("6f1d2c3e-8a4b-4c5d-9e6f-7a8b9c0d1e2f")

SRC_KASPER = "kasperg3-hopdatabase"
SRC_WALLBREW = "wallbrew-common-beer-data"
SRC_BEERMAKER = "beermaker"
SRC_SPEC = "manufacturer-spec"

HOP_KEYS = ["id", "name", "aliases", "data_source", "notes",
            "alpha_acid", "beta_acid", "origin", "purpose"]
FERM_KEYS = ["id", "name", "aliases", "data_source", "notes", "type", "color_srm",
             "yield_percent", "origin", "supplier", "diastatic_power_lintner"]
YEAST_KEYS = ["id", "name", "aliases", "data_source", "notes", "lab", "product_id",
              "type", "form", "attenuation", "attenuation_min", "attenuation_max",
              "min_temp_c", "max_temp_c", "flocculation"]
MISC_KEYS = ["id", "name", "aliases", "data_source", "notes", "type", "use", "amount_unit"]


def norm(name):
    """Normalised name: NFC, case-folded, single spaces."""
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


def make_id(kind, name):
    return str(uuid.uuid5(NAMESPACE, f"{kind}:{norm(name)}"))


def r1(x):
    if x is None:
        return None
    v = round(float(x) + 0.0, 1)
    return 0.0 if v == 0 else v


def mid(a, b):
    return r1((a + b) / 2.0)


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


# ---------------------------------------------------------------------------
# HOPS
# ---------------------------------------------------------------------------

# Records that are products or blends, not varieties, or unreleased numbered
# selections that a homebrewer cannot buy by that name.
HOP_DROP = {
    "Aged hops blend", "Ales for als blend", "Blend", "Cryo poporiginal blend",
    "Pink boots blend", "Veterans blend", "Falconers flight", "Falconers flight 7cs",
    "Zythos", "Cluster fugget", "Hqg3", "Hs09326", "Ycr 1", "Usda 008",
}

# raw (kasperg3 or Wall Brew) name -> catalogue name. Several raw names that map
# to one catalogue name are merged into one row.
HOP_RENAME = {
    "Bitter gold": "Bitter Gold", "Bramling cross": "Bramling Cross",
    "Brewers gold": "Brewer's Gold", "Brewer's Gold US": "Brewer's Gold",
    "Bru-1": "BRU-1",
    "Columbus / tomahawk": "Columbus", "Ctz": "Columbus", "CTZ": "Columbus",
    "Zeus": "Columbus",
    "Comet - estate grown": "Comet",
    "East kent golding": "East Kent Goldings", "East kent goldings": "East Kent Goldings",
    "East Kent Golding": "East Kent Goldings",
    "El dorado": "El Dorado", "Eureka!": "Eureka",
    "Extra styrian dana": "Styrian Dana", "First gold": "First Gold",
    "Golding": "Goldings", "Golding US": "US Goldings",
    "Fuggle US": "US Fuggle", "Hallertau US": "US Hallertau",
    "Hallertau blanc": "Hallertau Blanc",
    "Hallertauer magnum": "Magnum", "Magnum US": "Magnum",
    "Hallertauer merkur": "Merkur", "Hallertauer mittelfrüh": "Hallertauer Mittelfrüh",
    "Hallertauer taurus": "Taurus", "Hallertauer tradition": "Hallertauer Tradition",
    "Tradition": "Hallertauer Tradition",
    "Hbc 1019 c.v.": "HBC 1019", "Hbc 472": "HBC 472", "Hbc 630": "HBC 630",
    "Hbc 638": "HBC 638", "Hbc 682": "HBC 682", "Hbc 682 c.v.": "HBC 682",
    "Hersbrucker spät": "Hersbrucker",
    "Huell classic": "Huell Classic", "Huell melon": "Huell Melon", "Hüll melon": "Huell Melon",
    "Idaho 7": "Idaho 7", "Idaho gem": "Idaho Gem",
    "Mandarina bavaria": "Mandarina Bavaria",
    "Motueka  - machops": "Motueka", "Mount hood": "Mt. Hood", "Mt. hood": "Mt. Hood",
    "Mt. Hood": "Mt. Hood", "Mt. rainier": "Mt. Rainier",
    "Nelson sauvin": "Nelson Sauvin", "Nelson sauvin  - machops": "Nelson Sauvin",
    "Northern brewer": "Northern Brewer",
    "Pacific crest": "Pacific Crest", "Pacific gem": "Pacific Gem", "Pacific jade": "Pacific Jade",
    "Pacific sunrise": "Pacific Sunrise", "Pacifica  - machops": "Pacifica",
    "Perle US": "Perle", "Pride of ringwood": "Pride of Ringwood",
    "Rakau  - machops": "Rakau",
    "Saazer": "Saaz", "Saaz late": "Saaz Late", "Saaz US": "US Saaz", "Us saaz": "US Saaz",
    "Sladek": "Sládek", "Sorachi ace": "Sorachi Ace", "Southern cross": "Southern Cross",
    "Spalt spalter": "Spalter", "Spalt": "Spalter", "Spalter select": "Spalter Select",
    "Strisselspalter": "Strisselspalt",
    "Styrian gold": "Styrian Gold", "Styrian golding": "Styrian Golding",
    "Styrian savinjski golding": "Styrian Golding", "Savinjski golding": "Styrian Golding",
    "Celeia": "Celeia",
    "Super galena": "Super Galena", "Super Galena": "Super Galena",
    "Super pride": "Super Pride", "Superdelic , hops": "Superdelic", "Sussex hop": "Sussex",
    "Tettnang tettnanger": "Tettnanger",
    "Turkeys pick": "Turkey's Pick", "Vic secret": "Vic Secret",
    "Wai": "Wai-iti", "Wakatu  - machops": "Wakatu",
    "Whitbread golding": "Whitbread Golding Variety",
    "Whitbread goldings variety": "Whitbread Golding Variety",
    "Yakima gold": "Yakima Gold",
}

HOP_ALIASES = {
    "Columbus": ["CTZ", "Tomahawk", "Zeus"],
    "East Kent Goldings": ["EKG", "East Kent Golding", "Kent Goldings"],
    "Saaz": ["Žatec", "Saazer", "Czech Saaz", "Žatecký poloraný červeňák"],
    "Hallertauer Mittelfrüh": ["Hallertau Mittelfrüh", "Hallertau", "Hallertauer",
                               "Hallertauer Mittelfrueh"],
    "Hallertauer Tradition": ["Tradition", "Hallertau Tradition"],
    "Magnum": ["Hallertauer Magnum", "Hallertau Magnum", "US Magnum"],
    "Merkur": ["Hallertauer Merkur"],
    "Taurus": ["Hallertauer Taurus"],
    "Hersbrucker": ["Hersbrucker Spät", "Hallertauer Hersbrucker"],
    "Tettnanger": ["Tettnang", "Tettnang Tettnanger", "Tettnanger Tettnang"],
    "Spalter": ["Spalt", "Spalt Spalter"],
    "Strisselspalt": ["Strisselspalter"],
    "Styrian Golding": ["Savinjski Golding", "Styrian Savinjski Golding", "Styrian Goldings"],
    "Styrian Dana": ["Extra Styrian Dana", "Dana"],
    "Huell Melon": ["Hüll Melon"],
    "Mt. Hood": ["Mount Hood"],
    "Mt. Rainier": ["Mount Rainier"],
    "Sládek": ["Sladek"],
    "Fuggle": ["Fuggles", "English Fuggle"],
    "US Fuggle": ["Fuggle (US)"],
    "US Goldings": ["Golding (US)"],
    "US Hallertau": ["Hallertau (US)"],
    "US Saaz": ["Saaz (US)"],
    "Perle": ["Hallertauer Perle", "US Perle"],
    "Northern Brewer": ["NB"],
    "Nelson Sauvin": ["Nelson"],
    "Whitbread Golding Variety": ["WGV", "Whitbread Golding"],
    "Brewer's Gold": ["Brewers Gold"],
    "Wai-iti": ["Wai iti"],
    "Sorachi Ace": [],
    "Pride of Ringwood": ["POR"],
    "Galaxy": [],
    "Amarillo": ["VGXP01"],
    "Citra": ["HBC 394"],
    "Mosaic": ["HBC 369"],
    "Simcoe": ["YCR 14"],
    "Ekuanot": ["Equinox", "HBC 366"],
    "Idaho 7": ["007 The Golden Hop"],
    "Sabro": ["HBC 438"],
    "Strata": ["X-331"],
    "Talus": ["HBC 692"],
    "Eureka": ["Eureka!"],
    "Goldings": ["English Goldings"],
    "Turkey's Pick": ["Turkeys Pick"],
    "Vic Secret": [],
    "Motueka": ["Belgian Saaz"],
    "Pacific Gem": [],
    "Huell Classic": [],
}

# Typical alpha-acid % as published by breeders/merchants for well-known hops.
# The merged raw ranges are unions across merchants and are too wide, so the
# midpoint would mislead (e.g. Citra 10-16 -> 13).
HOP_ALPHA_TYPICAL = {
    "Citra": 12.0, "Cascade": 5.5, "Centennial": 10.0, "Chinook": 13.0, "Columbus": 15.5,
    "Simcoe": 13.0, "Mosaic": 12.5, "Amarillo": 9.0, "Saaz": 3.5, "Magnum": 13.0,
    "Hallertauer Mittelfrüh": 4.0, "East Kent Goldings": 5.0, "Fuggle": 4.5,
    "Northern Brewer": 8.5, "Nelson Sauvin": 12.0, "Galaxy": 14.0, "Tettnanger": 4.5,
    "Perle": 7.5, "Warrior": 16.0, "Willamette": 5.0, "Mt. Hood": 5.0, "Liberty": 4.5,
    "Crystal": 4.0, "Sterling": 7.0, "Nugget": 13.0, "Galena": 12.5, "Cluster": 7.0,
    "Summit": 17.0, "Apollo": 17.0, "Bravo": 15.5, "El Dorado": 15.0, "Azacca": 14.0,
    "Ekuanot": 14.0, "Sabro": 14.0, "Idaho 7": 13.0, "Strata": 11.5, "Horizon": 12.0,
    "Millennium": 16.5, "Glacier": 5.5, "Ahtanum": 5.0, "Palisade": 7.5, "Santiam": 7.0,
    "Vanguard": 5.5, "Calypso": 13.0, "Cashmere": 8.0, "Loral": 11.5, "Talus": 9.0,
    "Chelan": 13.5, "Comet": 10.0, "Motueka": 7.0, "Riwaka": 5.5, "Wai-iti": 3.0,
    "Waimea": 17.0, "Rakau": 11.5, "Pacific Jade": 13.0, "Pacific Gem": 14.0,
    "Southern Cross": 12.5, "Moutere": 17.0, "Wakatu": 7.5, "Pacifica": 5.5,
    "Kohatu": 6.5, "Vic Secret": 17.0, "Ella": 15.0, "Topaz": 16.0, "Pride of Ringwood": 9.0,
    "Super Pride": 14.0, "Melba": 8.5, "Hallertauer Tradition": 6.0, "Hersbrucker": 3.5,
    "Spalter": 4.0, "Spalter Select": 4.5, "Herkules": 16.0, "Taurus": 15.0, "Merkur": 13.5,
    "Polaris": 20.0, "Mandarina Bavaria": 8.5, "Hallertau Blanc": 9.5, "Huell Melon": 7.0,
    "Saphir": 3.5, "Opal": 7.0, "Smaragd": 5.0, "Challenger": 7.5, "Target": 11.0,
    "Northdown": 8.0, "First Gold": 7.5, "Admiral": 14.5, "Pilgrim": 11.0, "Progress": 6.0,
    "Bramling Cross": 6.5, "Whitbread Golding Variety": 6.0, "Goldings": 5.0,
    "Sovereign": 5.5, "Phoenix": 10.0, "Premiant": 8.0, "Sládek": 7.0, "Kazbek": 6.0,
    "Agnus": 11.0, "Styrian Golding": 4.5, "Celeia": 4.5, "Bobek": 5.0, "Aurora": 8.5,
    "Styrian Dana": 14.0, "Sorachi Ace": 12.0, "Brewer's Gold": 8.0, "Strisselspalt": 3.0,
    "Lublin": 4.0, "Marynka": 9.0, "Tahoma": 7.0, "Triumph": 11.0, "Zappa": 7.0,
}

# Raw values known to be wrong, replaced by published specifications (facts).
# name -> (alpha, beta). These rows are marked manufacturer-spec.
HOP_SPEC_FIX = {
    # kasperg3 lists 21-27 % alpha / 10-13 % beta; NZ Hops publish ~9.5-11.5 % alpha.
    "Nectaron": (10.5, None),
    # kasperg3 has 0-0 for every acid; NZ Hops publish ~13-14 % alpha.
    "Sticklebract": (13.5, None),
}

# Origins for records whose country is empty (or wrong), and for Wall Brew-only rows.
HOP_ORIGIN_FILL = {
    "Ahtanum": "United States", "Columbia": "United States", "Columbus": "United States",
    "East Kent Goldings": "United Kingdom",
    "Ernest": "United Kingdom", "Helga": "Australia", "HBC 472": "United States",
    "HBC 630": "United States", "HBC 638": "United States", "HBC 682": "United States",
    "Idaho Gem": "United States", "Jarrylo": "United States", "Newport": "United States",
    "Olympic": "United States", "Palisade": "United States",
    "Pekko": "United States", "Pilot": "United Kingdom", "Santiam": "United States",
    "Simcoe": "United States", "Styrian Golding": "Slovenia", "Summer": "Australia",
    "Sussex": "United Kingdom", "Sylva": "Australia", "Yakima Gold": "United States",
    "Comet": "United States", "Tillicum": "United States", "Eroica": "United States",
    "Ultra": "United States", "Bullion": "United Kingdom", "US Fuggle": "United States",
    "US Goldings": "United States", "US Hallertau": "United States",
}

COUNTRY = {
    "USA": "United States", "United States": "United States", "Great Britain": "United Kingdom",
    "UK": "United Kingdom", "Germany": "Germany", "Czech Republic": "Czech Republic",
    "New Zealand": "New Zealand", "Australia": "Australia", "Slovenia": "Slovenia",
    "France": "France", "Poland": "Poland", "Japan": "Japan", "China": "China", "": None,
}

_AROMA = """Saaz, Saaz Late, US Saaz, Fuggle, US Fuggle, Hallertauer Mittelfrüh, US Hallertau,
East Kent Goldings, Goldings, US Goldings, Tettnanger, Spalter, Hersbrucker, Strisselspalt,
Styrian Golding, Celeia, Bobek, Willamette, Mt. Hood, Liberty, Crystal, Santiam, Vanguard,
Ultra, Lublin, Lubelski, Sybilla, Saphir, Smaragd, Harmonie, Sládek, Kazbek, Triskel,
Hallertauer Tradition, Spalter Select, Progress, Whitbread Golding Variety, Sovereign,
Riwaka, Wai-iti, Motueka, Pacifica, Tahoma, Palisade, Ahtanum, Lemondrop, Hüll Melon,
Huell Melon, Mandarina Bavaria, Hallertau Blanc, Callista, Ariana, Monroe, Diamant, Opal,
Sussex, Ernest, Contessa, Adeena, Meridian, Sylva, Summer, Helga, Styrian Gold,
Delta, Aramis, Cashmere, Crystal, Golding, Zappa, Strata, Sterling, Columbia, Tettnang,
Pacific Crest, Relax, Wakatu, Huell Classic"""

_BITTER = """Magnum, Warrior, Apollo, Bravo, Galena, Super Galena, Nugget, Millennium, Summit,
Columbus, Chinook, Chelan, Tillicum, Eroica, Bullion, Brewer's Gold, Bitter Gold, Herkules,
Taurus, Merkur, Polaris, Target, Admiral, Pilgrim, Pride of Ringwood, Super Pride,
Pacific Gem, Pacific Jade, Styrian Dana, Magnat, Marynka, Agnus, Vital, Olympic, Newport,
Horizon, Sticklebract, Phoenix, Titan, Cluster, Bru-1, BRU-1, HBC 1019, Southern Cross,
Premiant, Jarrylo, Zeus, Yakima Gold"""

_DUAL = """Citra, Mosaic, Nelson Sauvin, Galaxy, Cascade, Centennial, Simcoe, Amarillo,
El Dorado, Azacca, Ekuanot, Sabro, Idaho 7, Talus, Loral, Calypso, Comet, Northern Brewer,
Perle, Challenger, Northdown, First Gold, Bramling Cross, Sorachi Ace, Vic Secret, Ella,
Topaz, Enigma, Eclipse, Melba, Waimea, Rakau, Moutere, Kohatu, Southern Cross, Glacier,
Idaho Gem, Pekko, Sultana, Lotus, Triumph, Krush, Vista, Trident, Helios, Altus, Eureka,
HBC 472, HBC 630, HBC 638, HBC 682, Belma, Alora, Akoya, Solero, Tango, Boadicea, Endeavour,
Pilot, Bor, Aurora, Mt. Rainier, Elani, Superdelic, Pacific Sunrise, Turkey's Pick,
Tsingdao Flower, Erebus, Summer, Archer, Kazbek, Nectaron"""


def _names(block):
    return [n.strip() for n in block.replace("\n", " ").split(",") if n.strip()]


HOP_PURPOSE = {}
for _n in _names(_DUAL):
    HOP_PURPOSE[_n] = "dual"
for _n in _names(_BITTER):
    HOP_PURPOSE[_n] = "bittering"
for _n in _names(_AROMA):
    HOP_PURPOSE[_n] = "aroma"
# a few explicit decisions where a name appears in two blocks above
HOP_PURPOSE.update({"Southern Cross": "dual", "Kazbek": "aroma", "Summer": "aroma",
                    "Cluster": "dual", "Premiant": "dual", "Yakima Gold": "dual"})


def title_hop(raw):
    """Fallback casing for sentence-cased names: capitalise each word."""
    out = []
    for w in raw.split():
        out.append(w[:1].upper() + w[1:])
    return " ".join(out)


def fix_range(lo, hi):
    """Return (lo, hi) with inverted ranges swapped; None if unknown (0-0)."""
    if lo is None or hi is None:
        return None
    lo, hi = float(lo), float(hi)
    if lo == 0 and hi == 0:
        return None
    if hi == 0 and lo > 0:
        hi = lo
    if lo > hi:
        lo, hi = hi, lo
    return lo, hi


def derive_hops(raw_dir):
    kasper = load(os.path.join(raw_dir, "kasperg3+HopDatabase", "hops.json"))
    wall = [h["hop"] for h in load(os.path.join(raw_dir, "Wall-Brew-Co+common-beer-data",
                                                "hops.json"))["hops"]]
    groups = {}  # catalogue name -> dict

    for rec in kasper:
        raw = rec["name"].strip()
        if raw in HOP_DROP:
            continue
        name = HOP_RENAME.get(raw, title_hop(raw))
        g = groups.setdefault(name, {"alpha": [], "beta": [], "origin": None,
                                     "raw": [], "src": SRC_KASPER})
        g["raw"].append(raw)
        a = fix_range(rec.get("alpha_from"), rec.get("alpha_to"))
        b = fix_range(rec.get("beta_from"), rec.get("beta_to"))
        # "Spalt spalter" has 0.0 lower bounds (unknown): ignore that record's acids
        if raw == "Spalt spalter":
            a = b = None
        if a:
            g["alpha"].append(a)
        if b:
            g["beta"].append(b)
        c = COUNTRY.get((rec.get("country") or "").strip(), None)
        if c and not g["origin"]:
            g["origin"] = c

    for rec in wall:
        raw = rec["name"].strip()
        name = HOP_RENAME.get(raw, raw)
        if name in groups:
            groups[name]["raw"].append(raw)
            continue
        a = rec.get("alpha")
        b = rec.get("beta")
        groups[name] = {
            "alpha": [(a * 100, a * 100)] if a else [],
            "beta": [(b * 100, b * 100)] if b else [],
            "origin": None, "raw": [raw], "src": SRC_WALLBREW,
        }

    out = []
    for name, g in groups.items():
        src = g["src"]
        alpha = beta = None
        if g["alpha"]:
            lo = min(x[0] for x in g["alpha"])
            hi = max(x[1] for x in g["alpha"])
            alpha = mid(lo, hi)
            if name in HOP_ALPHA_TYPICAL:
                typ = HOP_ALPHA_TYPICAL[name]
                alpha = typ
                if not (lo - 1e-9 <= typ <= hi + 1e-9):
                    src = SRC_SPEC
        elif name in HOP_ALPHA_TYPICAL:
            alpha = HOP_ALPHA_TYPICAL[name]
            src = SRC_SPEC
        if g["beta"]:
            beta = mid(min(x[0] for x in g["beta"]), max(x[1] for x in g["beta"]))
        if name in HOP_SPEC_FIX:
            alpha, beta = HOP_SPEC_FIX[name]
            src = SRC_SPEC
        origin = HOP_ORIGIN_FILL.get(name) if name in HOP_ORIGIN_FILL else g["origin"]
        if origin is None:
            origin = g["origin"]
        aliases = list(HOP_ALIASES.get(name, []))
        for raw in g["raw"]:
            if norm(raw) != norm(name) and raw not in aliases and raw not in HOP_RENAME.values():
                # keep distinct spellings people may type (e.g. "Hüll melon")
                pretty = title_hop(raw).replace("  - Machops", "")
                if norm(pretty) != norm(name) and not any(norm(pretty) == norm(x) for x in aliases):
                    if not any(c in raw for c in (" - ", "/", "c.v.", ",")):
                        aliases.append(pretty)
        out.append({
            "id": make_id("hop", name), "name": name, "aliases": dedupe_aliases(name, aliases),
            "data_source": src, "notes": None,
            "alpha_acid": r1(alpha), "beta_acid": r1(beta), "origin": origin,
            "purpose": HOP_PURPOSE.get(name),
        })
    return out


def dedupe_aliases(name, aliases):
    seen = {norm(name)}
    res = []
    for a in aliases:
        k = norm(a)
        if k in seen:
            continue
        seen.add(k)
        res.append(a)
    return res


# ---------------------------------------------------------------------------
# FERMENTABLES
# ---------------------------------------------------------------------------

# Wall Brew name -> (catalogue name, type, origin, supplier, aliases)
US, UK, DE, BE = "United States", "United Kingdom", "Germany", "Belgium"
WB_FERM = {
    "Clear Candi Sugar": ("Clear Candi Sugar", "sugar", None, None, ["Candi Sugar, Clear", "Belgian Candi Sugar"]),
    "Sucrose": ("Table Sugar", "sugar", None, None, []),
    "Cane Sugar": ("Table Sugar", "sugar", None, None, []),
    "Beet Sugar": ("Table Sugar", "sugar", None, None, []),
    "Table Sugar": ("Table Sugar", "sugar", None, None, ["Sucrose", "Cane Sugar", "Beet Sugar", "White Sugar"]),
    "Mild Malt": ("Mild Malt", "grain", UK, None, ["English Mild Malt"]),
    "Pilsner (2 Row) - Belgium": ("Belgian Pilsner Malt", "grain", BE, None, ["Pilsner (2 Row) - Belgium"]),
    "Wheat, Flaked": ("Flaked Wheat", "adjunct", None, None, ["Wheat, Flaked"]),
    "Biscuit Malt": ("Biscuit Malt", "grain", BE, None, ["Biscuit"]),
    "Grits": ("Corn Grits", "adjunct", None, None, ["Grits"]),
    "Carared": ("CaraRed", "grain", DE, "Weyermann", []),
    "Oats, Flaked": ("Flaked Oats", "adjunct", None, None, ["Oats, Flaked", "Rolled Oats"]),
    "Caraamber": ("CaraAmber", "grain", DE, "Weyermann", []),
    "Pale Malt (2 Row) - Belgium": ("Belgian Pale Ale Malt", "grain", BE, None, ["Pale Malt (2 Row) - Belgium"]),
    "Special B Malt": ("Special B", "grain", BE, "Dingemans", []),
    "Barley, Raw": ("Raw Barley", "adjunct", None, None, ["Barley, Raw", "Unmalted Barley"]),
    "Special Roast": ("Special Roast", "grain", US, "Briess", []),
    "Lactose": ("Lactose", "sugar", None, None, ["Milk Sugar"]),
    "Milk Sugar": ("Lactose", "sugar", None, None, []),
    "Light Dry Extract": ("Light Dry Malt Extract", "dry_extract", None, None, ["Light DME", "DME", "Spraymalt Light"]),
    "Wheat Malt - Belgium": ("Belgian Wheat Malt", "grain", BE, None, ["Wheat Malt - Belgium"]),
    "White Wheat Malt": ("White Wheat Malt", "grain", US, None, ["American Wheat Malt"]),
    "Black Barley (Stout)": ("Black Barley", "grain", None, None, ["Black Barley (Stout)"]),
    "Victory Malt": ("Victory Malt", "grain", US, "Briess", []),
    "Rye, Flaked": ("Flaked Rye", "adjunct", None, None, ["Rye, Flaked"]),
    "Chocolate Malt (UK)": ("Chocolate Malt (UK)", "grain", UK, None, ["English Chocolate Malt"]),
    "Black (Patent) Malt": ("Black Patent Malt", "grain", None, None, ["Black (Patent) Malt", "Black Malt"]),
    "Dark Dry Extract": ("Dark Dry Malt Extract", "dry_extract", None, None, ["Dark DME"]),
    "Belgian Candi Syrup - 45L": ("Belgian Candi Syrup D-45", "sugar", None, None, ["Belgian Candi Syrup - 45L", "Candi Syrup D-45", "Amber Candi Syrup"]),
    "Chocolate Malt": ("Chocolate Malt", "grain", US, None, ["Chocolate"]),
    "Caramunich Malt": ("CaraMunich", "grain", DE, None, ["Caramunich Malt", "Cara Munich"]),
    "Munich Malt": ("Munich Malt", "grain", DE, None, ["Munich", "Light Munich"]),
    "Caramel/Crystal Malt - 10L": ("Crystal 10L", "grain", None, None, []),
    "Rye Malt": ("Rye Malt", "grain", None, None, ["Malted Rye"]),
    "Barley, Flaked": ("Flaked Barley", "adjunct", None, None, ["Barley, Flaked"]),
    "Caramel/Crystal Malt - 120L": ("Crystal 120L", "grain", None, None, []),
    "Wheat, Roasted": ("Roasted Wheat", "grain", None, None, ["Wheat, Roasted"]),
    "Caramel/Crystal Malt - 20L": ("Crystal 20L", "grain", None, None, []),
    "Pale Liquid Extract": ("Pale Liquid Malt Extract", "extract", None, None, ["Pale LME", "LME", "Light Liquid Malt Extract"]),
    "Wheat Dry Extract": ("Wheat Dry Malt Extract", "dry_extract", None, None, ["Wheat DME"]),
    "Caramel/Crystal Malt - 60L": ("Crystal 60L", "grain", None, None, []),
    "Caramel/Crystal Malt - 140L": ("Crystal 140L", "grain", None, None, []),
    "Aromatic Malt": ("Aromatic Malt", "grain", BE, None, ["Aromatic"]),
    "Corn Syrup": ("Corn Syrup", "sugar", None, None, ["Glucose Syrup"]),
    "Caramel/Crystal Malt - 40L": ("Crystal 40L", "grain", None, None, []),
    "Roasted Barley": ("Roasted Barley", "grain", None, None, ["Roast Barley"]),
    "Dextrose": ("Corn Sugar", "sugar", None, None, []),
    "Corn Sugar": ("Corn Sugar", "sugar", None, None, ["Dextrose", "Glucose", "Priming Sugar"]),
    "Melanoiden Malt": ("Melanoidin Malt", "grain", DE, "Weyermann", ["Melanoiden Malt"]),
    "Caramel/Crystal Malt - 30L": ("Crystal 30L", "grain", None, None, []),
    "Pilsner Liquid Extract": ("Pilsner Liquid Malt Extract", "extract", None, None, ["Pilsner LME", "Extra Light LME"]),
    "Wheat, Torrified": ("Torrified Wheat", "adjunct", None, None, ["Wheat, Torrified", "Torrefied Wheat"]),
    "Corn (Flaked)": ("Flaked Corn", "adjunct", None, None, ["Corn (Flaked)", "Flaked Maize"]),
    "Brown Malt": ("Brown Malt", "grain", UK, None, []),
    "Munich Malt - 10L": ("Munich 10L", "grain", US, None, ["Munich Malt - 10L"]),
    "Peat Smoked Malt": ("Peat Smoked Malt", "grain", UK, None, ["Peated Malt"]),
    "Pale Malt (6 Row) - USA": ("Pale 6-Row", "grain", US, None, ["6-Row", "Pale Malt (6 Row) - USA"]),
    "Pilsner (2 Row) - Germany": ("Pilsner Malt", "grain", DE, None, ["Pilsner", "Pils Malt", "German Pilsner Malt", "Pilsner (2 Row) - Germany"]),
    "Pilsner (2 Row) - UK": ("British Pilsner Malt", "grain", UK, None, ["Pilsner (2 Row) - UK", "Lager Malt"]),
    "Munich Malt - 20L": ("Munich 20L", "grain", US, None, ["Munich Malt - 20L", "Dark Munich"]),
    "Oats, Malted": ("Oat Malt", "grain", None, None, ["Oats, Malted", "Malted Oats"]),
    "Amber Malt": ("Amber Malt", "grain", UK, None, []),
    "Pale Malt (2 Row) - USA": ("Pale 2-Row", "grain", US, None, ["2-Row", "American 2-Row", "Pale Malt (2 Row) - USA", "US 2-Row"]),
    "Sorghum Syrup": ("Sorghum Syrup", "extract", None, None, []),
    "Pale Malt (2 Row) - UK": ("British Pale Ale Malt", "grain", UK, None, ["Pale Malt (2 Row) - UK", "English Pale Malt", "Pale Ale Malt"]),
    "Wheat Liquid Extract": ("Wheat Liquid Malt Extract", "extract", None, None, ["Wheat LME"]),
    "Smoked Malt": ("Smoked Malt", "grain", DE, None, ["Beechwood Smoked Malt"]),
    "Rice Hulls": ("Rice Hulls", "other", None, None, []),
    "Molasses": ("Molasses", "sugar", None, None, ["Blackstrap Molasses"]),
    "Barley Hulls": ("Barley Hulls", "other", None, None, []),
    "Cara-Pils/Dextrine": ("Dextrine Malt", "grain", None, None, ["Cara-Pils/Dextrine", "Dextrin Malt"]),
    "Dextrine": ("Dextrine Malt", "grain", None, None, ["Dextrine"]),
    "Rice Extract Syrup": ("Rice Syrup", "extract", None, None, ["Rice Extract Syrup", "Brown Rice Syrup"]),
    "Amber Dry Extract": ("Amber Dry Malt Extract", "dry_extract", None, None, ["Amber DME"]),
    "Rye Liquid Extract": ("Rye Liquid Malt Extract", "extract", None, None, ["Rye LME"]),
    "Caramel/Crystal Malt - 160L": ("Crystal 160L", "grain", None, None, []),
    "Brumalt": ("Brumalt", "grain", DE, None, []),
    "Honey": ("Honey", "honey", None, None, ["Clover Honey"]),
    "Wheat Malt - Germany": ("Wheat Malt", "grain", DE, None, ["Wheat", "German Wheat Malt", "Wheat Malt - Germany"]),
    "Belgian Candi Syrup - 180L": ("Belgian Candi Syrup D-180", "sugar", None, None, ["Belgian Candi Syrup - 180L", "Candi Syrup D-180", "Dark Candi Syrup"]),
    "Dark Liquid Extract": ("Dark Liquid Malt Extract", "extract", None, None, ["Dark LME"]),
    "Caravienne Malt": ("CaraVienne", "grain", BE, None, ["Caravienne Malt"]),
    "Amber Liquid Extract": ("Amber Liquid Malt Extract", "extract", None, None, ["Amber LME"]),
    "CaraFoam": ("Carafoam", "grain", DE, "Weyermann", []),
    "Demerara Sugar": ("Demerara Sugar", "sugar", None, None, []),
    "Vienna Malt": ("Vienna Malt", "grain", DE, None, ["Vienna"]),
    "Caramel/Crystal Malt - 80L": ("Crystal 80L", "grain", None, None, []),
    "Turbinado": ("Turbinado Sugar", "sugar", None, None, ["Turbinado", "Raw Sugar"]),
    "Invert Sugar": ("Invert Sugar", "sugar", None, None, ["Inverted Sugar Syrup"]),
    "Toasted Malt": ("Toasted Malt", "grain", None, None, []),
    "Dark Brown Sugar": ("Dark Brown Sugar", "sugar", None, None, []),
    "Belgian Candi Syrup - 90L": ("Belgian Candi Syrup D-90", "sugar", None, None, ["Belgian Candi Syrup - 90L", "Candi Syrup D-90"]),
    "Light Brown Sugar": ("Light Brown Sugar", "sugar", None, None, ["Brown Sugar"]),
    "Rice, Flaked": ("Flaked Rice", "adjunct", None, None, ["Rice, Flaked"]),
    "Caramel/Crystal Malt - 90L": ("Crystal 90L", "grain", None, None, []),
    "Barley, Torrefied": ("Torrified Barley", "adjunct", None, None, ["Barley, Torrefied"]),
    "Maple Syrup": ("Maple Syrup", "sugar", None, None, []),
    "Acid Malt": ("Acidulated Malt", "grain", DE, "Weyermann", ["Acid Malt", "Sauermalz"]),
    "Maris Otter Pale Malt": ("Maris Otter", "grain", UK, "Simpsons", ["Maris Otter Pale Malt"]),
    "Extra Light Dry Extract": ("Extra Light Dry Malt Extract", "dry_extract", None, None, ["Extra Light DME", "Pilsen DME"]),
    "Dark Wheat Malt": ("Dark Wheat Malt", "grain", DE, None, []),
}

for _l in (10, 20, 30, 40, 60, 80, 90, 120, 140, 160):
    _n, _t, _o, _s, _a = WB_FERM[f"Caramel/Crystal Malt - {_l}L"]
    WB_FERM[f"Caramel/Crystal Malt - {_l}L"] = (_n, _t, _o, _s, [
        f"Crystal {_l}", f"Caramel {_l}L", f"Caramel/Crystal Malt - {_l}L", f"C{_l}"])

# Wall Brew colours/diastatic powers known to be wrong -> published spec (facts).
# value keys: color_srm, diastatic_power_lintner, yield_percent
WB_FERM_FIX = {
    # Candi Syrup, Inc. name D-45/D-90/D-180 by colour in SRM; Wall Brew converted
    # them again (Lovibond -> SRM) and got 60/121/243.
    "Belgian Candi Syrup D-45": {"color_srm": 45.0},
    "Belgian Candi Syrup D-90": {"color_srm": 90.0},
    "Belgian Candi Syrup D-180": {"color_srm": 180.0},
}

# beermaker malt id -> (catalogue name, type, origin, supplier, aliases)
BM_FERM = {
    "BestMalzVienna": ("BestMalz Vienna", "grain", DE, "BestMalz", ["Best Vienna"]),
    "BriessVictory": ("Victory Malt", "grain", US, "Briess", ["Briess Victory"]),
    "DingemansSpecialB": ("Special B", "grain", BE, "Dingemans", ["Special B Malt", "Dingemans Special B"]),
    "FawcettHalcyonPaleAle": ("Thomas Fawcett Halcyon Pale Ale Malt", "grain", UK, "Thomas Fawcett", ["Halcyon"]),
    "FawcettPaleChocolate": ("Thomas Fawcett Pale Chocolate Malt", "grain", UK, "Thomas Fawcett", ["Pale Chocolate Malt"]),
    "GladfieldAle": ("Gladfield Ale Malt", "grain", "New Zealand", "Gladfield", []),
    "GladfieldAmericanAle": ("Gladfield American Ale Malt", "grain", "New Zealand", "Gladfield", []),
    "GladfieldAurora": ("Gladfield Aurora Malt", "grain", "New Zealand", "Gladfield", []),
    "GladfieldBigOMaltedOats": ("Gladfield Big-O Malted Oats", "grain", "New Zealand", "Gladfield", []),
    "GladfieldBiscuit": ("Gladfield Biscuit Malt", "grain", "New Zealand", "Gladfield", []),
    "GladfieldBrown": ("Gladfield Brown Malt", "grain", "New Zealand", "Gladfield", []),
    "GladfieldCrystalDark": ("Gladfield Dark Crystal", "grain", "New Zealand", "Gladfield", []),
    "GladfieldCrystalLight": ("Gladfield Light Crystal", "grain", "New Zealand", "Gladfield", []),
    "GladfieldCrystalMedium": ("Gladfield Medium Crystal", "grain", "New Zealand", "Gladfield", []),
    "GladfieldDarkChocolate": ("Gladfield Dark Chocolate Malt", "grain", "New Zealand", "Gladfield", []),
    "GladfieldGermanPilsner": ("Gladfield German Pilsner Malt", "grain", "New Zealand", "Gladfield", []),
    "GladfieldLagerLight": ("Gladfield Lager Light Malt", "grain", "New Zealand", "Gladfield", []),
    "GladfieldMunich": ("Gladfield Munich Malt", "grain", "New Zealand", "Gladfield", []),
    "GladfieldPilsner": ("Gladfield Pilsner Malt", "grain", "New Zealand", "Gladfield", []),
    "GladfieldShepherdsDelight": ("Gladfield Shepherd's Delight", "grain", "New Zealand", "Gladfield", ["Shepherds Delight"]),
    "GladfieldVienna": ("Gladfield Vienna Malt", "grain", "New Zealand", "Gladfield", []),
    "GladfieldWheat": ("Gladfield Wheat Malt", "grain", "New Zealand", "Gladfield", []),
    "OatHulls": ("Oat Hulls", "other", None, None, []),
    "RiceHulls": ("Rice Hulls", "other", None, None, []),
    "SimpsonsMarisOtterPale": ("Maris Otter", "grain", UK, "Simpsons", ["Simpsons Maris Otter", "Maris Otter Pale Ale Malt", "MO"]),
    "WeyermannAcidulated": ("Acidulated Malt", "grain", DE, "Weyermann", ["Weyermann Acidulated Malt"]),
    "WeyermannBohemianPilsner": ("Weyermann Bohemian Pilsner Malt", "grain", DE, "Weyermann", ["Bohemian Pilsner Malt"]),
    "WeyermannCarafaSpecial2": ("Carafa Special II", "grain", DE, "Weyermann", ["Weyermann Carafa Special II", "Dehusked Carafa II"]),
    "WeyermannCarafaSpecial3": ("Carafa Special III", "grain", DE, "Weyermann", ["Weyermann Carafa Special III", "Dehusked Carafa III"]),
    "WeyermannCarahell": ("CaraHell", "grain", DE, "Weyermann", ["Weyermann CaraHell"]),
    "WeyermannCaramunich2": ("Weyermann CaraMunich II", "grain", DE, "Weyermann", ["CaraMunich II", "CaraMunich Type 2"]),
    "WeyermannCarapils": ("Carapils", "grain", DE, "Weyermann", ["Weyermann Carapils", "Cara-Pils"]),
    "WeyermannMelanoidin": ("Melanoidin Malt", "grain", DE, "Weyermann", ["Weyermann Melanoidin"]),
    "WeyermannMunich1": ("Weyermann Munich I", "grain", DE, "Weyermann", ["Munich Type 1"]),
    "WeyermannMunich2": ("Weyermann Munich II", "grain", DE, "Weyermann", ["Munich Type 2"]),
    "WeyermannPilsner": ("Weyermann Pilsner Malt", "grain", DE, "Weyermann", ["Weyermann Pilsner"]),
    "WeyermannVienna": ("Weyermann Vienna Malt", "grain", DE, "Weyermann", ["Weyermann Vienna"]),
    "WeyermannWheatPale": ("Weyermann Pale Wheat Malt", "grain", DE, "Weyermann", ["Weyermann Wheat Malt Pale"]),
}

# Wall Brew diastatic powers that are wrong and must not be merged into the row.
WB_DP_DISTRUST = {"Maris Otter", "Acidulated Malt", "Victory Malt"}

# Additions from maltsters'/suppliers' published specifications (facts), to cover
# what a homebrewer expects. Colour is given as the spec states it: ("L", x) for
# degrees Lovibond (taken as SRM) or ("EBC", lo, hi).
# (name, type, colour, yield %, origin, supplier, diastatic power °L, aliases)
SPEC_FERM = [
    ("Briess Pilsen Malt", "grain", ("L", 1.2), 80.5, US, "Briess", 140, ["Pilsen Malt"]),
    ("Briess Pale Ale Malt", "grain", ("L", 3.5), 80.0, US, "Briess", 85, []),
    ("Briess Bonlander Munich Malt", "grain", ("L", 10), 78.0, US, "Briess", 40, ["Bonlander"]),
    ("Briess Aromatic Munich Malt", "grain", ("L", 20), 77.0, US, "Briess", 20, []),
    ("Briess Ashburne Mild Malt", "grain", ("L", 5.3), 80.0, US, "Briess", 65, ["Ashburne Mild"]),
    ("Briess Red Wheat Malt", "grain", ("L", 2.3), 84.0, US, "Briess", 180, ["Red Wheat Malt"]),
    ("Briess Cherrywood Smoked Malt", "grain", ("L", 5), 80.0, US, "Briess", 140, ["Cherrywood Smoked Malt"]),
    ("Briess Extra Special Malt", "grain", ("L", 130), 71.0, US, "Briess", 0, ["Extra Special Malt"]),
    ("Briess Midnight Wheat Malt", "grain", ("L", 550), 65.0, US, "Briess", 0, ["Midnight Wheat"]),
    ("Briess Blackprinz Malt", "grain", ("L", 500), 65.0, US, "Briess", 0, ["Blackprinz", "Debittered Black Malt"]),
    ("Briess Carabrown Malt", "grain", ("L", 55), 73.0, US, "Briess", 0, ["Carabrown"]),
    ("Briess Carapils Malt", "grain", ("L", 1.5), 74.0, US, "Briess", 0, []),
    ("Briess Dark Chocolate Malt", "grain", ("L", 420), 65.0, US, "Briess", 0, []),
    ("Carafa I", "grain", ("EBC", 800, 1000), 70.0, DE, "Weyermann", 0, ["Carafa Type 1", "Weyermann Carafa I"]),
    ("Carafa II", "grain", ("EBC", 1100, 1200), 70.0, DE, "Weyermann", 0, ["Carafa Type 2", "Weyermann Carafa II"]),
    ("Carafa III", "grain", ("EBC", 1300, 1500), 70.0, DE, "Weyermann", 0, ["Carafa Type 3", "Weyermann Carafa III"]),
    ("Carafa Special I", "grain", ("EBC", 800, 1000), 70.0, DE, "Weyermann", 0, ["Weyermann Carafa Special I", "Dehusked Carafa I"]),
    ("Weyermann CaraMunich I", "grain", ("EBC", 80, 100), 75.0, DE, "Weyermann", 0, ["CaraMunich I", "CaraMunich Type 1"]),
    ("Weyermann CaraMunich III", "grain", ("EBC", 140, 160), 75.0, DE, "Weyermann", 0, ["CaraMunich III", "CaraMunich Type 3"]),
    ("CaraAroma", "grain", ("EBC", 350, 450), 75.0, DE, "Weyermann", 0, ["Weyermann CaraAroma", "Cara Aroma"]),
    ("CaraBohemian", "grain", ("EBC", 150, 200), 75.0, DE, "Weyermann", 0, ["Weyermann CaraBohemian"]),
    ("Weyermann Abbey Malt", "grain", ("EBC", 40, 50), 78.0, DE, "Weyermann", None, ["Abbey Malt"]),
    ("Weyermann Pale Ale Malt", "grain", ("EBC", 5.5, 7.5), 80.0, DE, "Weyermann", None, []),
    ("Weyermann Beech Smoked Barley Malt", "grain", ("EBC", 3, 6), 80.0, DE, "Weyermann", None, ["Rauchmalz", "Weyermann Smoked Malt"]),
    ("Weyermann Rye Malt", "grain", ("EBC", 4, 10), 80.0, DE, "Weyermann", None, []),
    ("Weyermann Spelt Malt", "grain", ("EBC", 3, 6), 80.0, DE, "Weyermann", None, ["Spelt Malt"]),
    ("Golden Promise", "grain", ("EBC", 5, 6.5), 81.0, UK, "Simpsons", None, ["Simpsons Golden Promise"]),
    ("Golden Naked Oats", "grain", ("EBC", 10, 20), 70.0, UK, "Simpsons", 0, ["Simpsons Golden Naked Oats"]),
    ("Simpsons Double Roasted Crystal", "grain", ("L", 120), 72.0, UK, "Simpsons", 0, ["Double Roasted Crystal", "DRC"]),
    ("Crisp Maris Otter", "grain", ("L", 3.0), 81.0, UK, "Crisp", None, ["Crisp Maris Otter Pale Ale Malt"]),
    ("Château Pilsen 2RS", "grain", ("EBC", 2.5, 4.0), 80.5, BE, "Castle", None, ["Castle Pilsen", "Chateau Pilsen"]),
    ("Château Biscuit", "grain", ("EBC", 40, 60), 78.0, BE, "Castle", 0, ["Castle Biscuit", "Chateau Biscuit"]),
    ("Honey Malt", "grain", ("L", 25), 80.0, "Canada", "Gambrinus", None, ["Gambrinus Honey Malt"]),
    ("Belgian Candi Syrup D-240", "sugar", ("L", 240), 78.3, None, None, 0, ["Candi Syrup D-240"]),
    ("Belgian Candi Syrup Golden", "sugar", ("L", 5), 78.3, None, None, 0, ["Candi Syrup Golden", "Simplicity Candi Syrup"]),
    ("Amber Candi Sugar", "sugar", ("L", 75), 100.0, None, None, 0, ["Candi Sugar, Amber"]),
    ("Dark Candi Sugar", "sugar", ("L", 275), 100.0, None, None, 0, ["Candi Sugar, Dark"]),
    ("Maltodextrin", "sugar", ("L", 0), 86.5, None, None, 0, ["Malto-Dextrin"]),
]


def ebc_to_srm(ebc):
    return ebc * 0.508


def derive_fermentables(raw_dir):
    wb = [f["fermentable"] for f in load(os.path.join(
        raw_dir, "Wall-Brew-Co+common-beer-data", "fermentables.json"))["fermentables"]]
    bm = load(os.path.join(raw_dir, "mikedilger+beermaker", "malts.json"))["malts"]

    rows = {}

    # beermaker first: maltster-specific, EBC ranges, so it wins on merges.
    for m in bm:
        name, typ, origin, supplier, aliases = BM_FERM[m["id"]]
        lo, hi = m["ebc_range"]
        if lo > hi:
            lo, hi = hi, lo
        ppg = m.get("ppg")
        rows[name] = {
            "name": name, "aliases": list(aliases), "data_source": SRC_BEERMAKER,
            "type": typ, "color_srm": r1(ebc_to_srm((lo + hi) / 2.0)),
            "yield_percent": r1(ppg / 46.214 * 100) if ppg is not None else None,
            "origin": origin, "supplier": supplier, "diastatic_power_lintner": None,
        }
        if m["name"] != name:
            rows[name]["aliases"].append(m["name"])

    for f in wb:
        raw = f["name"]
        name, typ, origin, supplier, aliases = WB_FERM[raw]
        dp = f.get("diastatic-power")
        if typ in ("sugar", "extract", "dry_extract", "honey") and dp is None:
            dp = None
        if name in rows:
            row = rows[name]
            row["aliases"].extend(aliases)
            if raw != name:
                row["aliases"].append(raw)
            if row["diastatic_power_lintner"] is None and dp is not None \
                    and name not in WB_DP_DISTRUST and row["data_source"] == SRC_BEERMAKER:
                row["diastatic_power_lintner"] = r1(dp)
            continue
        row = {
            "name": name, "aliases": list(aliases), "data_source": SRC_WALLBREW,
            "type": typ, "color_srm": r1(f.get("color")),
            "yield_percent": r1(f["yield"] * 100) if f.get("yield") is not None else None,
            "origin": origin, "supplier": supplier,
            "diastatic_power_lintner": r1(dp) if dp is not None else None,
        }
        if typ in ("sugar", "honey") and row["diastatic_power_lintner"] is None:
            row["diastatic_power_lintner"] = 0.0
        if raw != name:
            row["aliases"].append(raw)
        if name in WB_FERM_FIX:
            row.update(WB_FERM_FIX[name])
            row["data_source"] = SRC_SPEC
        rows[name] = row

    for name, typ, colour, yld, origin, supplier, dp, aliases in SPEC_FERM:
        if name in rows:
            raise SystemExit(f"curated fermentable collides with dataset row: {name}")
        if colour[0] == "L":
            srm = float(colour[1])
        else:
            srm = ebc_to_srm((colour[1] + colour[2]) / 2.0)
        rows[name] = {
            "name": name, "aliases": list(aliases), "data_source": SRC_SPEC, "type": typ,
            "color_srm": r1(srm), "yield_percent": r1(yld), "origin": origin,
            "supplier": supplier, "diastatic_power_lintner": r1(dp) if dp is not None else None,
        }

    out = []
    for name, row in rows.items():
        row["aliases"] = dedupe_aliases(name, row["aliases"])
        row["id"] = make_id("fermentable", name)
        row["notes"] = None
        out.append(row)
    return out


# ---------------------------------------------------------------------------
# YEASTS
# ---------------------------------------------------------------------------

FLOC = {
    "low": "low", "lowmedium": "medium_low", "mediumlow": "medium_low", "medium": "medium",
    "mediumhigh": "medium_high", "high": "high", "veryhigh": "very_high",
}

LAB = {
    "Fermentis": "Fermentis", "DCL/Fermentis": "Fermentis", "Lallemand": "Lallemand",
    "WhiteLabs": "White Labs", "White Labs": "White Labs", "Wyeast": "Wyeast",
    "OmegaYeastLabs": "Omega",
}

# Wyeast publishes apparent attenuation ranges (%); Wall Brew only has the 0.765
# placeholder. product_id -> (min, max). Bacteria/Brett/sour blends left unknown.
WYEAST_ATTEN = {
    "1007": (73, 77), "1010": (74, 78), "1026": (74, 77), "1028": (73, 77), "1056": (73, 77),
    "1084": (71, 75), "1087": (71, 75), "1098": (73, 75), "1099": (68, 72), "1187": (68, 72),
    "1214": (72, 76), "1272": (72, 76), "1275": (72, 76), "1318": (71, 75), "1332": (67, 71),
    "1335": (73, 76), "1338": (67, 71), "1388": (74, 78), "1450": (74, 76), "1728": (69, 73),
    "1762": (73, 77), "1968": (67, 71), "2000": (71, 75), "2001": (72, 76), "2007": (71, 75),
    "2035": (73, 77), "2042": (73, 77), "2112": (67, 71), "2124": (73, 77), "2178": (71, 75),
    "2206": (73, 77), "2247": (73, 77), "2272": (72, 76), "2278": (70, 74), "2308": (70, 74),
    "2565": (73, 77), "2633": (73, 77), "3056": (73, 77), "3068": (73, 77), "3333": (70, 76),
    "3463": (73, 77), "3522": (72, 76), "3638": (70, 76), "3711": (77, 83), "3724": (76, 80),
    "3787": (74, 78), "3942": (72, 76), "3944": (72, 76),
}

# Wyeast product names where Wall Brew's wording differs from the lab's.
WYEAST_NAME = {
    "1214": "Belgian Abbey", "5526": "Brettanomyces lambicus",
    "5112": "Brettanomyces bruxellensis", "4335": "Lactobacillus delbrueckii",
    "4733": "Pediococcus cerevisiae", "2565": "Kölsch", "2633": "Oktoberfest Lager Blend",
}
# Wall Brew yeast records to skip: Brewtek (discontinued), duplicates/retired ids.
WB_YEAST_SKIP_LABS = {"Brewtek"}
WB_YEAST_SKIP = {("Wyeast", "3112"), ("Wyeast", "1272", "1272 GF All American Ale")}

WL_NAME_FIX = {
    "WLP006": "Bedford British Ale", "WLP727": "Steinberg-Geisenheim Wine",
    "WLP760": "Cabernet Red Wine",
}

LALLEMAND_ID = {
    "Abbaye": "Abbaye", "Aurora": "Aurora", "Belle Saison": "Belle Saison", "BRY-97": "BRY-97",
    "CBC-1": "CBC-1", "Diamond Lager": "Diamond", "Farmhouse": "Farmhouse",
    "House Ale": "House", "LoNa": "LoNa", "Munich Classic": "Munich Classic",
    "New England": "New England", "Nottingham": "Nottingham", "NovaLager": "NovaLager",
    "Pomona": "Pomona", "Verdant IPA": "Verdant IPA", "Voss": "Voss", "Windsor": "Windsor",
    "Wit": "Wit",
}


def yeast_type(name, lab, pid, lager, wb_type):
    n = name.lower()
    if "brettanomyces" in n:
        return "brett"
    if "lactobacillus" in n:
        return "lacto"
    if "pediococcus" in n or "malolactic" in n or "berliner weisse blend" in n or "sour mix" in n or "lambic blend" in n \
            or "roselare" in n or "american farmhouse blend" in n:
        return "other"
    if "kveik" in n or pid in ("Voss",):
        return "kveik"
    if "champagne" in n or pid == "EC-1118":
        return "champagne"
    if any(w in n for w in ("wine", "sake", "sherry", "mead", "cider")) or lab == "Lallemand" \
            and pid in ("71B-1122", "D-47", "K1V-1116", "RC-212"):
        return "wine"
    if pid in ("WLP810", "2112", "WLP862"):
        return "hybrid"
    if lager:
        return "lager"
    if any(w in n for w in ("hefeweizen", "weizen", "wheat", "wit", "forbidden fruit")) \
            or pid in ("WB-06", "W-68"):
        return "wheat"
    if wb_type:
        t = wb_type.lower()
        if t == "lager":
            return "lager"
    return "ale"


def clean_wl_name(full, pid):
    name = full
    if name.startswith(pid + " "):
        name = name[len(pid) + 1:]
    if pid in WL_NAME_FIX:
        return WL_NAME_FIX[pid]
    for suffix in (" Yeast", " Yesat"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    return name.strip()


def derive_yeasts(raw_dir):
    bm = load(os.path.join(raw_dir, "mikedilger+beermaker", "yeasts.json"))["yeasts"]
    wb = [y["yeast"] for y in load(os.path.join(
        raw_dir, "Wall-Brew-Co+common-beer-data", "yeasts.json"))["yeasts"]]
    rows = {}  # (lab, product_id) -> row

    for y in bm:
        lab = LAB[y["provider"]]
        full = y["name"]
        if lab == "Fermentis":
            brand, pid = full.split(" ", 1)
            name = full
            aliases = [pid, pid.replace("-", ""), f"Fermentis {pid}"]
            if pid == "W-34/70":
                aliases += ["W34/70", "34/70", "Saflager W-34/70"]
        elif lab == "Lallemand":
            short = full.replace("LalBrew ", "")
            pid = LALLEMAND_ID[short]
            name = "Voss Kveik" if short == "Voss" else short
            aliases = [full]
        elif lab == "White Labs":
            pid = y["id"]
            name = clean_wl_name(full, pid)
            aliases = [pid, f"White Labs {pid}"]
        else:  # Omega
            pid = {"OYL061": "OYL-061", "OYL071": "OYL-071"}[y["id"]]
            name = full
            aliases = [pid, f"Omega {pid}"]
        att = y.get("attenuation_range")
        amin = amax = None
        if att and not (att[0] == 0 and att[1] == 0):
            amin, amax = sorted([att[0] * 100, att[1] * 100])
        t = y.get("temp_range_c")
        tmin = tmax = None
        if t:
            tmin, tmax = sorted(t)
        rows[(lab, pid)] = {
            "name": name, "aliases": aliases, "data_source": SRC_BEERMAKER, "lab": lab,
            "product_id": pid, "lager": bool(y.get("lager")), "wb_type": None,
            "form": "dry" if y.get("dry") else "liquid",
            "attenuation_min": r1(amin), "attenuation_max": r1(amax),
            "min_temp_c": r1(tmin), "max_temp_c": r1(tmax),
            "flocculation": FLOC.get((y.get("flocculation") or "").lower().replace(" ", "")),
        }

    for y in wb:
        lab_raw = y["laboratory"]
        if lab_raw in WB_YEAST_SKIP_LABS:
            continue
        lab = LAB[lab_raw]
        pid = y["product-id"].strip()
        if (lab, pid) in WB_YEAST_SKIP or (lab, pid, y["name"]) in WB_YEAST_SKIP:
            continue
        key = (lab, pid)
        wb_type = y.get("type")
        if key in rows:
            row = rows[key]
            row["wb_type"] = wb_type
            continue
        full = y["name"].strip()
        rest = full[len(pid) + 1:] if full.startswith(pid + " ") else full
        if lab == "White Labs":
            name = clean_wl_name(full, pid)
            aliases = [pid, f"White Labs {pid}"]
        elif lab == "Wyeast":
            name = WYEAST_NAME.get(pid, rest)
            if name.endswith(" Yeast"):
                name = name[: -len(" Yeast")]
            aliases = [f"Wyeast {pid}", f"WY{pid}", f"{pid} {name}"]
        elif lab == "Lallemand":
            name = f"Lalvin {pid}"
            aliases = [pid]
        else:
            name = full
            aliases = [pid]
        tmin, tmax = sorted([y["min-temperature"], y["max-temperature"]])
        amin = amax = None
        src = SRC_WALLBREW
        if lab == "Wyeast" and pid in WYEAST_ATTEN:
            amin, amax = WYEAST_ATTEN[pid]
            src = SRC_SPEC
        rows[key] = {
            "name": name, "aliases": aliases, "data_source": src, "lab": lab,
            "product_id": pid, "lager": wb_type == "Lager", "wb_type": wb_type,
            "form": (y.get("form") or "").lower() or None,
            "attenuation_min": r1(amin), "attenuation_max": r1(amax),
            "min_temp_c": r1(tmin), "max_temp_c": r1(tmax),
            "flocculation": FLOC.get((y.get("flocculation") or "").lower().replace(" ", "")),
        }

    # names must be unique: on a clash, every clashing row gets "(Lab id)".
    by_name = {}
    for key, row in rows.items():
        by_name.setdefault(norm(row["name"]), []).append(key)
    for keys in by_name.values():
        if len(keys) > 1:
            for key in keys:
                row = rows[key]
                base = row["name"]
                suffix = row["lab"] if row["product_id"] == base or row["product_id"] in base \
                    or row["lab"] == "Lallemand" else f"{row['lab']} {row['product_id']}"
                row["aliases"].append(base)
                row["name"] = f"{base} ({suffix})"

    out = []
    for row in rows.values():
        amin, amax = row["attenuation_min"], row["attenuation_max"]
        typ = yeast_type(row["name"], row["lab"], row["product_id"], row.pop("lager"),
                         row.pop("wb_type"))
        row.update({
            "id": make_id("yeast", row["name"]), "notes": None, "type": typ,
            "attenuation": mid(amin, amax) if amin is not None and amax is not None else None,
        })
        row["aliases"] = dedupe_aliases(row["name"], row["aliases"])
        out.append(row)
    return out


# ---------------------------------------------------------------------------
# MISCS (no permissive dataset exists: all hand-curated from common usage and
# manufacturers' published product information)
# ---------------------------------------------------------------------------

MISCS = [
    # name, type, use, unit, aliases
    ("Irish Moss", "fining", "boil", "g", ["Carrageenan"]),
    ("Whirlfloc", "fining", "boil", "items", ["Whirlfloc T", "Whirlfloc Tablet"]),
    ("Gelatin", "fining", "secondary", "g", ["Gelatine"]),
    ("Isinglass", "fining", "secondary", "ml", []),
    ("Silica Sol", "fining", "secondary", "ml", ["Kieselsol", "Biofine Clear"]),
    ("PVPP", "fining", "secondary", "g", ["Polyclar", "Polyvinylpolypyrrolidone"]),
    ("Gypsum", "water_agent", "mash", "g", ["Calcium Sulfate", "CaSO4"]),
    ("Calcium Chloride", "water_agent", "mash", "g", ["CaCl2"]),
    ("Epsom Salt", "water_agent", "mash", "g", ["Magnesium Sulfate", "MgSO4"]),
    ("Magnesium Chloride", "water_agent", "mash", "g", ["MgCl2"]),
    ("Table Salt", "water_agent", "mash", "g", ["Sodium Chloride", "NaCl", "Non-iodized Salt"]),
    ("Baking Soda", "water_agent", "mash", "g", ["Sodium Bicarbonate", "NaHCO3"]),
    ("Chalk", "water_agent", "mash", "g", ["Calcium Carbonate", "CaCO3"]),
    ("Slaked Lime", "water_agent", "mash", "g", ["Calcium Hydroxide", "Pickling Lime"]),
    ("Lactic Acid 88%", "water_agent", "mash", "ml", ["Lactic Acid"]),
    ("Phosphoric Acid 10%", "water_agent", "mash", "ml", ["Phosphoric Acid"]),
    ("Campden Tablets", "water_agent", "mash", "items", ["Potassium Metabisulfite", "Sodium Metabisulfite", "Campden"]),
    ("Yeast Nutrient", "other", "boil", "g", ["Wyeast Nutrient Blend", "Nutrient"]),
    ("Diammonium Phosphate", "other", "primary", "g", ["DAP"]),
    ("Amylase Enzyme", "other", "mash", "g", ["Alpha Amylase"]),
    ("Clarity-Ferm", "other", "primary", "ml", ["Clarex", "Brewers Clarex", "Proline-specific Endoprotease"]),
    ("Antifoam", "other", "boil", "ml", ["Fermcap-S", "Foam Control"]),
    ("Pectic Enzyme", "other", "primary", "tsp", ["Pectinase"]),
    ("Potassium Sorbate", "other", "secondary", "g", []),
    ("Coriander Seed", "spice", "boil", "g", ["Coriander"]),
    ("Sweet Orange Peel", "spice", "boil", "g", []),
    ("Bitter Orange Peel", "spice", "boil", "g", ["Curaçao Orange Peel", "Curacao Orange Peel"]),
    ("Lemon Zest", "flavor", "boil", "g", ["Lemon Peel"]),
    ("Vanilla Bean", "flavor", "secondary", "items", ["Vanilla Pod"]),
    ("Oak Chips", "wood", "secondary", "g", ["Oak"]),
    ("Oak Cubes", "wood", "secondary", "g", []),
    ("Cinnamon", "spice", "boil", "g", ["Cinnamon Stick"]),
    ("Cacao Nibs", "flavor", "secondary", "g", ["Cocoa Nibs"]),
    ("Coffee Beans", "flavor", "secondary", "g", ["Coffee"]),
    ("Ginger Root", "spice", "boil", "g", ["Ginger"]),
    ("Grains of Paradise", "spice", "boil", "g", []),
    ("Star Anise", "spice", "boil", "g", []),
    ("Nutmeg", "spice", "boil", "g", []),
    ("Cloves", "spice", "boil", "g", []),
    ("Juniper Berries", "spice", "boil", "g", ["Juniper"]),
    ("Pumpkin Pie Spice", "spice", "boil", "tsp", []),
    ("Chamomile", "herb", "boil", "g", []),
    ("Heather Tips", "herb", "boil", "g", ["Heather"]),
    ("Spruce Tips", "herb", "boil", "g", []),
    ("Lavender", "herb", "boil", "g", []),
]


def derive_miscs():
    out = []
    for name, typ, use, unit, aliases in MISCS:
        out.append({
            "id": make_id("misc", name), "name": name, "aliases": dedupe_aliases(name, aliases),
            "data_source": SRC_SPEC, "notes": None, "type": typ, "use": use, "amount_unit": unit,
        })
    return out


# ---------------------------------------------------------------------------

def finish(rows, keys, kind):
    rows = sorted(rows, key=lambda r: (norm(r["name"]), r["name"]))
    seen = set()
    for r in rows:
        k = norm(r["name"])
        if k in seen:
            raise SystemExit(f"duplicate {kind} name: {r['name']}")
        seen.add(k)
    return [{k: r[k] for k in keys} for r in rows]


def write(path, rows):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(json.dumps(rows, ensure_ascii=False, indent=2))
        f.write("\n")


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    raw_dir = sys.argv[1]
    out_dir = sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(os.path.abspath(__file__))
    result = {
        "hops": finish(derive_hops(raw_dir), HOP_KEYS, "hop"),
        "fermentables": finish(derive_fermentables(raw_dir), FERM_KEYS, "fermentable"),
        "yeasts": finish(derive_yeasts(raw_dir), YEAST_KEYS, "yeast"),
        "miscs": finish(derive_miscs(), MISC_KEYS, "misc"),
    }
    for kind, rows in result.items():
        write(os.path.join(out_dir, f"{kind}.json"), rows)
    for kind, rows in result.items():
        by_src = {}
        for r in rows:
            by_src[r["data_source"]] = by_src.get(r["data_source"], 0) + 1
        detail = ", ".join(f"{k} {v}" for k, v in sorted(by_src.items()))
        print(f"{kind}: {len(rows)} ({detail})")


if __name__ == "__main__":
    main()
