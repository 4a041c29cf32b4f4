DROP TABLE fermentation_logs;
DROP TABLE brew_steps;
DROP TABLE brew_sessions;
