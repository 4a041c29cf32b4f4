DROP TABLE mqtt_messages;
DROP TABLE mqtt_integrations;
