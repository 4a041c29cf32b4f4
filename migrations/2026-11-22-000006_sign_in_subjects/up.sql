-- Failed sign-ins are counted per subject: `email:<address>` (10 per window) and, so one client
-- cannot spray guesses over many emails, `ip:<address>` (100 per window).
ALTER TABLE sign_in_failures RENAME COLUMN email TO subject;
UPDATE sign_in_failures SET subject = 'email:' || subject;
