-- Emails are now stored in Unicode NFC (wort-domain account::rules::normalize_email). Addresses
-- stored before were lower-cased but possibly decomposed; compose them, except where the composed
-- form already belongs to another account (two such accounts are left for the operator to merge).
-- normalize() needs a UTF8 database, which wort's own clusters always are.
DO $$
BEGIN
    IF current_setting('server_encoding') = 'UTF8' THEN
        UPDATE users SET email = normalize(email, NFC)
        WHERE email <> normalize(email, NFC)
          AND NOT EXISTS (
              SELECT 1 FROM users AS other WHERE other.email = normalize(users.email, NFC)
          );
    END IF;
END $$;
