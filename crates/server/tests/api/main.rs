//! Black-box tests: the real server over HTTP on a real PostgreSQL.
//! One test binary (link once), a module per area.

// A failing test should fail loudly: helpers unwrap and index freely.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod account;
mod account_scope;
mod ai;
mod alerts;
mod auth;
mod backup;
mod bounds;
mod brewhouse;
mod brewing_model;
mod caching;
mod catalog;
mod checks;
mod database;
mod devices;
mod embedded;
mod errors;
mod explained;
mod fast_paths;
mod fermentation;
mod file_meaning;
mod forecast;
mod hardening;
mod heavy_answers;
mod history;
mod home;
mod http_edges;
mod idempotency;
mod ingredients;
mod interchange;
mod inventory;
mod mqtt;
mod notes;
mod one_meaning;
mod openapi;
mod recipes;
mod retention;
mod security;
mod sessions;
mod stock;
mod support;
mod timers;
mod tools;
mod upgrades;
mod water;
mod web_app;
mod webhooks;
