-- Every wort instance remembers the credentials it checked recently, so that most requests need
-- no round trip to authenticate. These triggers tell every instance when a credential stops
-- being what it remembered: `NOTIFY wort_credentials` with the user's id, sent when the change
-- commits (and not at all if it rolls back). Each instance then forgets that user's remembered
-- credentials. A key's `last_used_at` and a user's counters and preferences change often and
-- concern no credential, so they notify nobody.
CREATE FUNCTION wort_credentials_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- TG_ARGV[0] names the column holding the user's id ("id" in users, "user_id" elsewhere).
    PERFORM pg_notify('wort_credentials', to_jsonb(OLD) ->> TG_ARGV[0]);
    RETURN NULL;
END
$$;

CREATE TRIGGER users_credentials_changed
    AFTER DELETE OR UPDATE OF email, name, password_hash ON users
    FOR EACH ROW EXECUTE FUNCTION wort_credentials_changed('id');

CREATE TRIGGER api_keys_credentials_changed
    AFTER DELETE OR UPDATE OF user_id, key_hash, enabled, expires_at ON api_keys
    FOR EACH ROW EXECUTE FUNCTION wort_credentials_changed('user_id');

CREATE TRIGGER auth_sessions_credentials_changed
    AFTER DELETE OR UPDATE OF user_id, token_hash, expires_at ON auth_sessions
    FOR EACH ROW EXECUTE FUNCTION wort_credentials_changed('user_id');
