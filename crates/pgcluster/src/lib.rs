//! Runs a private PostgreSQL cluster from the server binaries installed on the machine.
//!
//! Used by the `wort` binary (the embedded default when `DATABASE_URL` is unset), by `cargo xtask
//! test` (a throwaway cluster per run) and by tests. The cluster listens on a Unix socket only,
//! trusts local connections, and runs as the `postgres` system user when we are root (PostgreSQL
//! refuses to run as root; a new cluster that user cannot reach goes to `/var/lib/wort/<hash>/pg`).
//! See `docs/embedded-postgres.md`.
//!
//! ```no_run
//! use wort_pgcluster::{Cluster, ClusterOptions};
//!
//! let cluster = Cluster::start("/tmp/my-cluster".as_ref(), ClusterOptions::default())?;
//! cluster.create_database("wort")?;
//! let url = cluster.database_url("wort"); // postgresql://postgres@/wort?host=...&port=...
//! # let _ = url;
//! cluster.stop()?;
//! # Ok::<(), wort_pgcluster::ClusterError>(())
//! ```

mod binaries;
mod cluster;
mod error;
mod identity;
mod layout;
mod pidfile;
mod placement;
mod process;
mod url;

pub use binaries::PgBinaries;
pub use cluster::{Cluster, ClusterOptions, RunningCluster};
pub use error::ClusterError;
