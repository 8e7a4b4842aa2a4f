//! What `tabla serve` can be told: where to listen, how large a PGN may be, where the endgame
//! tables live, the sample game, the game database, the engine.

use crate::sample::SAMPLE_PGN;
use std::path::PathBuf;
use tabla_analysis::EngineSpec;

/// The default limit of a body of the PGN routes (`POST /api/pgn`, `/api/pgn/index`,
/// `/api/pgn/game`): 16 MiB.
pub const DEFAULT_BODY_LIMIT: usize = 16 * 1024 * 1024;

/// The server's settings; [`Default`] gives `127.0.0.1:8080`, a 16 MiB body limit, the endgame
/// tables in
/// [`tabla_endgame::default_tablebase_dir`], the built-in sample game and no game database.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// The address to listen on (a host name or an IP address).
    pub host: String,
    /// The port (0: any free port, printed at start).
    pub port: u16,
    /// The largest body of the PGN routes in bytes; a larger one gets 413.
    pub body_limit: usize,
    /// The directory of the endgame tables of up to five men (made by `tabla tb build`) behind
    /// `GET /api/tb`; `None` for `tabla tb`'s default. A missing or empty directory holds no
    /// tables (KBNvK, KQvK and KRvK are still answered: the server solves them in memory at
    /// start).
    pub tb_dir: Option<PathBuf>,
    /// The PGN the browser shows before the user loads one.
    pub sample_pgn: String,
    /// The game database (a directory made by `tabla db import`) behind the `/api/db` routes;
    /// `None`: those routes say how to make one.
    pub db: Option<PathBuf>,
    /// The engine of live analysis and game reviews: tabla's own (the default) or a UCI program
    /// with its options (`tabla serve --engine PATH --engine-option Name=Value`).
    pub engine: EngineSpec,
}

/// The address the server listens on by default: this machine only.
pub const DEFAULT_HOST: &str = "127.0.0.1";

/// The port the server listens on by default.
pub const DEFAULT_PORT: u16 = 8080;

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            host: DEFAULT_HOST.to_owned(),
            port: DEFAULT_PORT,
            body_limit: DEFAULT_BODY_LIMIT,
            tb_dir: None,
            sample_pgn: SAMPLE_PGN.to_owned(),
            db: None,
            engine: EngineSpec::Tabla,
        }
    }
}
