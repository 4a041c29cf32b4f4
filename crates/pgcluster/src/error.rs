use std::{fmt, io};

/// Why a cluster could not be located, started, queried or stopped.
#[derive(Debug)]
#[non_exhaustive]
pub enum ClusterError {
    /// No PostgreSQL server binaries (`initdb`, `pg_ctl`, `postgres`) on this machine.
    BinariesNotFound,
    /// A file-system operation failed.
    Io { context: String, source: io::Error },
    /// A PostgreSQL tool ran and failed; `detail` holds its output (and the server log's tail).
    Command { what: String, detail: String },
    /// The machine or the directory is not set up in a way we can work with; the message says how
    /// to fix it.
    Setup(String),
}

impl ClusterError {
    pub(crate) fn io(context: impl Into<String>) -> impl FnOnce(io::Error) -> ClusterError {
        let context = context.into();
        move |source| ClusterError::Io { context, source }
    }
}

impl fmt::Display for ClusterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClusterError::BinariesNotFound => f.write_str(
                "PostgreSQL server binaries (initdb, pg_ctl, postgres) were not found on PATH or \
                 under /usr/lib/postgresql/*/bin. Either:\n  \
                 - install PostgreSQL's server package (e.g. `apt-get install postgresql`), or\n  \
                 - set DATABASE_URL to an existing PostgreSQL server, or\n  \
                 - run `docker compose up -d db` and set \
                 DATABASE_URL=postgres://wort:wort@127.0.0.1:5432/wort",
            ),
            ClusterError::Io { context, source } => write!(f, "{context}: {source}"),
            ClusterError::Command { what, detail } if detail.is_empty() => {
                write!(f, "{what} failed")
            }
            ClusterError::Command { what, detail } => write!(f, "{what} failed:\n{detail}"),
            ClusterError::Setup(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for ClusterError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ClusterError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
