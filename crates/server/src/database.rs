//! Where the database comes from: `DATABASE_URL`, or the embedded default — a private PostgreSQL
//! cluster under `$WORT_DATA_DIR/pg`, started here and stopped when wort exits.

use wort_pgcluster::{Cluster, ClusterOptions, RunningCluster};

use crate::config::Config;

/// The database wort talks to, and the embedded cluster behind it if wort started one.
pub struct Database {
    pub url: String,
    embedded: Option<RunningCluster>,
}

const EMBEDDED_DATABASE: &str = "wort";

impl Database {
    pub fn open(config: &Config) -> Result<Database, String> {
        if let Some(url) = &config.database_url {
            return Ok(Database {
                url: url.clone(),
                embedded: None,
            });
        }
        let dir = config.data_dir.join("pg");
        tracing::info!(dir = %dir.display(), "no DATABASE_URL: starting the embedded PostgreSQL");
        let cluster = Cluster::start(&dir, ClusterOptions::default()).map_err(|e| e.to_string())?;
        cluster
            .create_database(EMBEDDED_DATABASE)
            .map_err(|e| e.to_string())?;
        Ok(Database {
            url: cluster.database_url(EMBEDDED_DATABASE),
            embedded: Some(cluster),
        })
    }

    /// Stops the embedded cluster, if this process started it.
    pub fn close(self) {
        if let Some(cluster) = self.embedded {
            tracing::info!("stopping the embedded PostgreSQL");
            if let Err(e) = cluster.stop() {
                tracing::warn!(error = %e, "embedded PostgreSQL did not stop cleanly");
            }
        }
    }
}
