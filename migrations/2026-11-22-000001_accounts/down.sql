DROP TABLE sign_in_failures;
DROP TABLE api_keys;
DROP TABLE auth_sessions;
DROP TABLE users;
