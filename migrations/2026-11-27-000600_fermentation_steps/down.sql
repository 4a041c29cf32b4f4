DROP TABLE fermentation_steps;
