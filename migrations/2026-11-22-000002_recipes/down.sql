DROP TABLE mash_steps;
DROP TABLE miscs;
DROP TABLE yeasts;
DROP TABLE hops;
DROP TABLE fermentables;
DROP TABLE recipes;
