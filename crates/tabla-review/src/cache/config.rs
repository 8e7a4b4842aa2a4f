//! What an evaluation depends on besides the position: the engine, its options and the budget.

use serde::{Deserialize, Serialize};
use tabla_analysis::{Budget, EngineId, EngineSpec, Pool};

/// The engine configuration a cache's evaluations were made with: evaluations are shared only
/// between runs with the same engine (by the name it gives, e.g. `Stockfish 15.1`), the same
/// options and the same budget.
///
/// ```
/// use tabla_analysis::Budget;
/// use tabla_review::CacheConfig;
/// let a = CacheConfig::new("Stockfish 15.1", [("Threads", "1"), ("Hash", "64")], Budget::Nodes(100_000));
/// let b = CacheConfig::new("Stockfish 15.1", [("Hash", "64"), ("Threads", "1")], Budget::Nodes(100_000));
/// // The order options are given in does not matter.
/// assert_eq!(a.dir_name(), b.dir_name());
/// assert!(a.dir_name().starts_with("stockfish-15.1-nodes-100000-"));
/// let c = CacheConfig::new("Stockfish 15.1", [("Hash", "16")], Budget::Nodes(100_000));
/// assert_ne!(a.dir_name(), c.dir_name());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheConfig {
    /// The engine's name as it gives it (UCI `id name`), or its path when it gives none.
    pub engine: String,
    /// The options set, `(name, value)`, sorted by name.
    pub options: Vec<(String, String)>,
    /// The budget, as UCI's `go` words (`nodes 300000`).
    pub budget: String,
}

impl CacheConfig {
    /// A configuration from its parts.
    pub fn new<N: Into<String>, V: Into<String>>(
        engine: impl Into<String>,
        options: impl IntoIterator<Item = (N, V)>,
        budget: Budget,
    ) -> CacheConfig {
        let mut options: Vec<(String, String)> = options
            .into_iter()
            .map(|(n, v)| (n.into(), v.into()))
            .collect();
        options.sort();
        CacheConfig {
            engine: engine.into(),
            options,
            budget: budget.to_string(),
        }
    }

    /// The configuration of `pool`'s engines (started from `spec`) at `budget`.
    pub fn of_pool(pool: &Pool, spec: &EngineSpec, budget: Budget) -> CacheConfig {
        CacheConfig::of_engine(pool.engine(), spec, budget)
    }

    /// The configuration of an engine started from `spec` that named itself `id`, at `budget`:
    /// what [`CacheConfig::of_pool`] gives for a pool of such engines, without starting one (a
    /// server that has one engine running already finds the cached evaluations of its pools).
    ///
    /// ```
    /// use tabla_analysis::{Analyser, Budget, EngineSpec, Pool, TablaAnalyser};
    /// use tabla_review::CacheConfig;
    /// let pool = Pool::start(&EngineSpec::Tabla, 1).unwrap();
    /// let budget = Budget::Nodes(300_000);
    /// assert_eq!(
    ///     CacheConfig::of_engine(TablaAnalyser::new().id(), &EngineSpec::Tabla, budget),
    ///     CacheConfig::of_pool(&pool, &EngineSpec::Tabla, budget),
    /// );
    /// ```
    pub fn of_engine(id: &EngineId, spec: &EngineSpec, budget: Budget) -> CacheConfig {
        let engine = id.label().to_owned();
        // tabla's own engine has no options; its name changes with its source
        // (`tabla_engine::uci::ENGINE_NAME`), so a new build never reads an old one's evaluations.
        let options = match spec {
            EngineSpec::Tabla => Vec::new(),
            EngineSpec::Uci(uci) => uci.options.clone(),
        };
        CacheConfig::new(engine, options, budget)
    }

    /// The folder name of this configuration's evaluations: readable (the engine and the
    /// budget) and unique (a checksum of the whole configuration).
    pub fn dir_name(&self) -> String {
        let text = serde_json::to_string(self).unwrap_or_default();
        let slug: String = format!("{} {}", self.engine, self.budget)
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' {
                    c.to_ascii_lowercase()
                } else {
                    '-'
                }
            })
            .collect();
        let slug = slug
            .split('-')
            .filter(|part| !part.is_empty())
            .collect::<Vec<_>>()
            .join("-");
        format!("{slug}-{:08x}", crc32fast::hash(text.as_bytes()))
    }
}
