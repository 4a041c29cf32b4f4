DELETE FROM sign_in_failures WHERE subject NOT LIKE 'email:%';
UPDATE sign_in_failures SET subject = substr(subject, 7);
ALTER TABLE sign_in_failures RENAME COLUMN subject TO email;
