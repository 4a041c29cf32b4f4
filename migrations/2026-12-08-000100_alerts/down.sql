DROP TABLE alerts;
DROP TABLE alert_rules;
