-- The currency an account's prices are in: an ISO 4217 code (the domain checks it against the
-- active codes), NULL when not said. A nullable column without a default: instant.
ALTER TABLE users ADD COLUMN pref_currency text;
