-- Accounts and credentials. Secrets are never stored in the clear: passwords as argon2id PHC
-- strings, session tokens and API keys as SHA-256 digests (unique, looked up by equality).

CREATE TABLE users (
    id            uuid PRIMARY KEY,
    email         text NOT NULL UNIQUE,
    name          text NOT NULL,
    password_hash text NOT NULL,
    created_at    timestamptz NOT NULL,
    updated_at    timestamptz NOT NULL
);

-- Browser sign-in sessions (not brew sessions).
CREATE TABLE auth_sessions (
    id         uuid PRIMARY KEY,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash bytea NOT NULL UNIQUE,
    expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL
);
CREATE INDEX auth_sessions_user_idx ON auth_sessions (user_id);

CREATE TABLE api_keys (
    id           uuid PRIMARY KEY,
    user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         text NOT NULL,
    key_hash     bytea NOT NULL UNIQUE,
    start        text NOT NULL,
    prefix       text NOT NULL,
    enabled      boolean NOT NULL DEFAULT true,
    expires_at   timestamptz,
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    last_used_at timestamptz
);
CREATE INDEX api_keys_user_idx ON api_keys (user_id, created_at);

-- Failed sign-ins per email (known or not) in the current 15-minute window.
CREATE TABLE sign_in_failures (
    email        text PRIMARY KEY,
    failures     integer NOT NULL,
    window_start timestamptz NOT NULL
);
