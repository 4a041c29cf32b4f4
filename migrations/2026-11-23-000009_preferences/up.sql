-- Display preferences of the web app, one set per account. The API itself is
-- metric and SG always; these only tell the app how to show numbers.
ALTER TABLE users
    ADD COLUMN pref_amounts text NOT NULL DEFAULT 'metric'
        CHECK (pref_amounts IN ('metric', 'us')),
    ADD COLUMN pref_gravity text NOT NULL DEFAULT 'sg'
        CHECK (pref_gravity IN ('sg', 'plato', 'brix')),
    ADD COLUMN pref_color text NOT NULL DEFAULT 'srm'
        CHECK (pref_color IN ('srm', 'ebc')),
    ADD COLUMN pref_temperature text NOT NULL DEFAULT 'c'
        CHECK (pref_temperature IN ('c', 'f'));
