-- Inventory that follows the brewing: a price and a best-before date per item, and the record of
-- a brew session's deduction from the stock (one per session: its primary key is the session).
ALTER TABLE inventory_items
    ADD COLUMN price_per_unit double precision
        CHECK (price_per_unit IS NULL OR (price_per_unit >= 0 AND price_per_unit <= 1000000)),
    ADD COLUMN best_before date;

-- `lines` keeps the lines as they were applied (each with its item and the amount taken in the
-- item's unit), so an undo puts back exactly what was taken.
CREATE TABLE inventory_deductions (
    session_id uuid PRIMARY KEY REFERENCES brew_sessions (id) ON DELETE CASCADE,
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    lines jsonb NOT NULL,
    applied_at timestamptz NOT NULL
);
CREATE INDEX inventory_deductions_user_idx ON inventory_deductions (user_id);
