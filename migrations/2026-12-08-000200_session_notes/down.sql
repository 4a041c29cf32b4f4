DROP TABLE session_notes;
