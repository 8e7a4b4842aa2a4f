//! Starting the server: the game database, the endgame tables, the listener, shutdown on Ctrl-C.

use crate::config::ServeConfig;
#[cfg(feature = "db")]
use crate::game_db::GameDb;
use crate::live::{LiveEngines, MAX_ANALYSES};
use crate::router::router;
use crate::state::AppState;
use crate::tb_dir::TbDir;
use anyhow::Context as _;
use std::sync::Arc;
use tabla_endgame::default_tablebase_dir;
use tabla_engine::{EndgameOracle, EndgameTables};

/// Runs `tabla serve`: opens the game database (when given: an error if it is not one), solves
/// KBNvK, KQvK and KRvK in memory once (for the engine, and for `/api/tb` when the directory
/// has no file for them), opens
/// the endgame tables' directory (an error if a table file in it is damaged), listens on `host:port` and serves the API and the front end until
/// Ctrl-C. Prints the address to stderr.
pub async fn serve(config: ServeConfig) -> anyhow::Result<()> {
    // The database first: a wrong --db fails at once, not after the tables are built.
    #[cfg(feature = "db")]
    let db = match config.db.clone() {
        None => None,
        Some(dir) => {
            let shown = dir.display().to_string();
            let db = tokio::task::spawn_blocking(move || GameDb::open(&dir))
                .await
                .context("opening the game database")??;
            let games = db.database().manifest().games();
            eprintln!("game database: {shown} ({})", tabla::plural(games, "game"));
            Some(Arc::new(db))
        }
    };
    #[cfg(not(feature = "db"))]
    if let Some(dir) = &config.db {
        anyhow::bail!("--db {}: {}", dir.display(), crate::db::WITHOUT_DB);
    }
    // KBNvK, KQvK and KRvK (with KBvK and KNvK), solved once: the engine plays them exactly
    // and `/api/tb` answers them without a file; every other ending from the directory's files.
    let standard = tokio::task::spawn_blocking(EndgameTables::standard)
        .await
        .context("solving the engine's endgame tables")?;
    let solved = standard.solved().clone();
    let (tb_dir, default) = match config.tb_dir.clone() {
        Some(dir) => (dir, false),
        None => (default_tablebase_dir(), true),
    };
    let shown = tb_dir.display().to_string();
    let tb = tokio::task::spawn_blocking(move || TbDir::open(&tb_dir, default, &solved))
        .await
        .context("opening the endgame tables")?
        .context("opening the endgame tables")?;
    eprintln!(
        "endgame tables: {} ({shown}, and KBNvK, KQvK and KRvK solved in memory)",
        tabla::plural(tb.endings(), "ending")
    );
    let mut state = AppState::new(tb);
    // The engine plays those endings exactly, and every ending whose table the directory holds
    // at start.
    let tables = standard.with_tablebase(state.tb.tables());
    let oracle: Arc<dyn EndgameOracle> = Arc::new(tables);
    // The engines of live analysis and of suggestions: a wrong --engine fails here, before the
    // server listens.
    let spec = config.engine.clone();
    let (live, suggest) = tokio::task::spawn_blocking(move || {
        let live = LiveEngines::start(spec.clone(), Some(Arc::clone(&oracle)), MAX_ANALYSES)?;
        let suggest = LiveEngines::start(spec, Some(oracle), 1)?;
        Ok::<_, Box<tabla_analysis::EngineError>>((live, suggest))
    })
    .await
    .context("starting the engine")??;
    eprintln!("engine: {}", live.id());
    state.live = Arc::new(live);
    state.suggest = Arc::new(suggest);
    state.body_limit = config.body_limit;
    state.sample_pgn = Arc::from(config.sample_pgn.as_str());
    #[cfg(feature = "db")]
    {
        state.db = db;
    }
    let listener = tokio::net::TcpListener::bind((config.host.as_str(), config.port))
        .await
        .with_context(|| format!("cannot listen on {}:{}", config.host, config.port))?;
    let addr = listener.local_addr().context("the listener's address")?;
    state.hosts = Arc::new(crate::site_guard::HostRule::listening(
        &config.host,
        addr.port(),
    ));
    if !addr.ip().is_loopback() {
        eprintln!(
            "tabla serve: --host {} is not a loopback address: every machine that can reach \
             {addr} can use this server (its engine, its database, its reviews), with no password",
            config.host
        );
    }
    eprintln!("tabla serve: listening on http://{addr}/ (Ctrl-C to stop)");
    let timeouts = crate::connections::ConnectionTimeouts::default();
    crate::connections::serve_connections(listener, router(state), timeouts, async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await
    .context("serving")
}

/// [`serve`] on a tokio runtime of its own, for callers without one (the `tabla` binary).
pub fn serve_blocking(config: ServeConfig) -> anyhow::Result<()> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?
        .block_on(serve(config))
}
