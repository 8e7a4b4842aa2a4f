//! Runs the web app for manual testing and the browser tests, as `tabla serve` does:
//! `cargo run --release -p tabla-web --example serve -- [PORT] [HOST]` (port 0: any free port).

use tabla_web::{ServeConfig, serve_blocking};

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let mut config = ServeConfig::default();
    if let Some(port) = args.next() {
        config.port = port.parse()?;
    }
    if let Some(host) = args.next() {
        config.host = host;
    }
    serve_blocking(config)
}
