#!/usr/bin/env python3
"""Builds brewtarget-peer.json from Brewtarget's own BeerXML exports (the shared interchange corpus).

Run from the repository root with the corpus beside it:
    python3 crates/domain/tests/data/brewtarget_peer.py ../shared/data/interchange/files > \
        crates/domain/tests/data/brewtarget-peer.json

Only numbers are taken, as BeerXML writes them; how they map onto wort's recipe is the test's
business (crates/domain/tests/brewtarget_peer.rs), so every mapping decision is visible there.
"""
import json, sys
import xml.etree.ElementTree as ET

SOURCES = [
    # (file, origin, licence, Brewtarget major version that computed the stored numbers)
    ("bx_brewtarget_2011_ten_recipes.xml",
     "Brewtarget/brewtarget data/recipes.xml @ 1f5cafbb11bc (2011)", "GPL-3.0", 1),
    ("bx_brewtarget_coffee_stout.xml",
     "hotzenklotz/pybeerxml tests/CoffeeStout.xml @ e2fc4614cda5", "MIT", 2),
]


def num(e, tag):
    t = e.findtext(tag)
    return float(t) if t and t.strip() else 0.0


def text(e, tag):
    return (e.findtext(tag) or "").strip()


def recipe(r, origin, licence, version):
    eq = r.find("EQUIPMENT")
    return {
        "name": text(r, "NAME"),
        "source": origin,
        "licence": licence,
        "brewtarget_major_version": version,
        "batch_size_liters": num(r, "BATCH_SIZE"),
        "recipe_boil_time_minutes": num(r, "BOIL_TIME"),
        "efficiency_percent": num(r, "EFFICIENCY"),
        "equipment": {
            "name": text(eq, "NAME"),
            "batch_size_liters": num(eq, "BATCH_SIZE"),
            "boil_time_minutes": num(eq, "BOIL_TIME"),
            "real_evap_rate_liters_per_hour": num(eq, "REAL_EVAP_RATE"),
            "evap_rate_percent_per_hour": num(eq, "EVAP_RATE"),
            "trub_chiller_loss_liters": num(eq, "TRUB_CHILLER_LOSS"),
            "lauter_deadspace_liters": num(eq, "LAUTER_DEADSPACE"),
            "absorption_liters_per_kg": num(eq, "ABSORPTION"),
            "top_up_water_liters": num(eq, "TOP_UP_WATER"),
            "top_up_kettle_liters": num(eq, "TOP_UP_KETTLE"),
            "hop_utilization_percent": num(eq, "HOP_UTILIZATION"),
        },
        "fermentables": [
            {
                "name": text(f, "NAME"),
                "type": text(f, "TYPE"),
                "amount_kg": num(f, "AMOUNT"),
                "yield_percent": num(f, "YIELD"),
                "moisture_percent": num(f, "MOISTURE"),
                "color_srm": num(f, "COLOR"),
                "is_mashed": text(f, "IS_MASHED").upper() == "TRUE",
            }
            for f in r.iter("FERMENTABLE")
        ],
        "hops": [
            {
                "name": text(h, "NAME"),
                "alpha_percent": num(h, "ALPHA"),
                "amount_kg": num(h, "AMOUNT"),
                "use": text(h, "USE"),
                "time_minutes": num(h, "TIME"),
                "form": text(h, "FORM"),
            }
            for h in r.iter("HOP")
        ],
        "yeast_attenuation_percent": [num(y, "ATTENUATION") for y in r.iter("YEAST")],
        "brewtarget": {
            "og": num(r, "OG"),
            "recipe_boil_size_liters": num(r, "BOIL_SIZE"),
            "equipment_boil_size_liters": num(eq, "BOIL_SIZE"),
            "infusions_liters": [
                num(m, "INFUSE_AMOUNT")
                for m in r.iter("MASH_STEP")
                if text(m, "TYPE") == "Infusion"
            ],
        },
    }


def main(folder):
    out = []
    for file, origin, licence, version in SOURCES:
        for r in ET.parse(f"{folder}/{file}").getroot().iter("RECIPE"):
            if r.find("EQUIPMENT") is None:
                continue  # no equipment, nothing to compare (American IPA - SN Celebration Ale)
            out.append(recipe(r, origin, licence, version))
    json.dump({"note": __doc__.strip().splitlines()[0], "recipes": out}, sys.stdout, indent=1,
              ensure_ascii=False)
    print()


main(sys.argv[1])
