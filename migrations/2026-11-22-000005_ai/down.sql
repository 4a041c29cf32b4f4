DROP TABLE chat_messages;
DROP TABLE chat_threads;
DROP TABLE ai_usage;
