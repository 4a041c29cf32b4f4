DROP TRIGGER auth_sessions_credentials_changed ON auth_sessions;
DROP TRIGGER api_keys_credentials_changed ON api_keys;
DROP TRIGGER users_credentials_changed ON users;
DROP FUNCTION wort_credentials_changed();
