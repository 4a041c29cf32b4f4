-- The numbers of a generated checklist step, metric, as [{"kind":"volume","value":15.08}, …]:
-- the step's title and description are then templates (`{0}`, `{1}`) rendered in each reader's
-- units. Steps generated before this, and steps a person adds, have none and read as stored.
ALTER TABLE brew_steps ADD COLUMN quantities jsonb NOT NULL DEFAULT '[]';
