-- The AI assistant: per-account daily metering, and chat threads with their messages.
-- Every row carries its owner's user_id and every query filters on it (ownership in SQL, and
-- the schema can be distributed by account).

-- One row per account and UTC day. A message is reserved with one guarded upsert
-- (… ON CONFLICT DO UPDATE … WHERE messages < 200 AND tokens < 2000000), so the limits hold
-- under concurrency and across several wort instances; tokens are added after the provider
-- answers, and a failed call gives its message back.
CREATE TABLE ai_usage (
    user_id  uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    day      date NOT NULL,
    messages integer NOT NULL DEFAULT 0 CHECK (messages >= 0),
    tokens   bigint NOT NULL DEFAULT 0 CHECK (tokens >= 0),
    PRIMARY KEY (user_id, day)
);

CREATE TABLE chat_threads (
    id         uuid PRIMARY KEY,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- The recipe the conversation is about; deleting the recipe keeps the conversation.
    recipe_id  uuid REFERENCES recipes (id) ON DELETE SET NULL,
    title      text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
);
-- The list order: most recently updated first, ties by id.
CREATE INDEX chat_threads_user_updated_idx ON chat_threads (user_id, updated_at DESC, id DESC);
-- Deleting a recipe finds its threads without a scan.
CREATE INDEX chat_threads_recipe_idx ON chat_threads (recipe_id) WHERE recipe_id IS NOT NULL;

CREATE TABLE chat_messages (
    id         uuid PRIMARY KEY,
    user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    thread_id  uuid NOT NULL REFERENCES chat_threads (id) ON DELETE CASCADE,
    -- Insertion order: a turn's question and answer are inserted together, so they stay
    -- adjacent even when two turns of one thread overlap in time.
    seq        bigint GENERATED ALWAYS AS IDENTITY,
    role       text NOT NULL CHECK (role IN ('user', 'assistant')),
    content    text NOT NULL,
    created_at timestamptz NOT NULL
);
CREATE INDEX chat_messages_thread_idx ON chat_messages (thread_id, seq);
