//! `--engine` and `--engine-option`, the same for every command that runs an engine (`tabla
//! review`, `tabla db review`, `tabla go`, `tabla serve`), resolved by tabla-analysis's one rule
//! ([`EngineChoice`]), and `tabla engine`: which engine is the default, and setting it.

use anyhow::Context;
use clap::{Args, Subcommand};
use std::io::Write;
use std::path::{Path, PathBuf};
use tabla_analysis::{ChosenBy, EngineChoice, EngineConfig, EngineSpec, UciSpec};

/// Which engine: `--engine`, else the configured default.
#[derive(Args, Debug, Clone, Default)]
pub struct EngineChoiceArgs {
    /// A UCI engine (its path, e.g. /usr/games/stockfish), or `tabla` for tabla's own. Without
    /// it: $TABLA_ENGINE, else the default `tabla engine set` chose, else tabla's own.
    #[arg(long, value_name = "PATH")]
    pub engine: Option<PathBuf>,
    /// An option of the UCI engine, `Name=Value` (e.g. `Hash=64`), set after the configured
    /// ones; repeat for more.
    #[arg(long = "engine-option", value_name = "NAME=VALUE")]
    pub engine_options: Vec<String>,
}

impl EngineChoiceArgs {
    /// The engine chosen. When that is tabla's own only because nothing is configured and a
    /// Stockfish is installed, a note on standard error says how to make it the default.
    pub fn choose(&self) -> anyhow::Result<EngineChoice> {
        let options = self
            .engine_options
            .iter()
            .map(|text| UciSpec::option_pair(text))
            .collect::<Result<Vec<_>, _>>()
            // The error quotes the option: said once.
            .context("--engine-option")?;
        let choice = EngineChoice::resolve(self.engine.as_deref(), &options)?;
        if let Some(hint) = choice.hint() {
            eprintln!("{hint}");
        }
        Ok(choice)
    }
}

/// `tabla engine`.
#[derive(Subcommand, Debug)]
pub enum EngineCommand {
    /// Show the engine commands use when they name none, what chose it, and that it starts.
    Show,
    /// Make an engine the default of every command, the server and Python (written to
    /// `engine.toml` in tabla's configuration directory, once the engine has started and taken
    /// its options): a UCI engine's path, or `tabla` for tabla's own.
    Set {
        /// The engine: a UCI program's path (e.g. /usr/games/stockfish), or `tabla`.
        #[arg(value_name = "PATH")]
        engine: PathBuf,
        /// An option of the UCI engine, `Name=Value` (e.g. `Hash=64`); repeat for more.
        #[arg(long = "engine-option", value_name = "NAME=VALUE")]
        engine_options: Vec<String>,
    },
}

/// Runs `tabla engine`.
pub fn run(command: EngineCommand, out: &mut impl Write) -> anyhow::Result<()> {
    match command {
        EngineCommand::Show => {
            let choice = EngineChoice::resolve(None, &[])?;
            let name = started_name(&choice.spec)?;
            writeln!(out, "engine: {name} ({})", choice.chosen_by)?;
            if let EngineSpec::Uci(spec) = &choice.spec {
                writeln!(out, "path: {}", spec.path.display())?;
                for (name, value) in &spec.options {
                    writeln!(out, "option: {name}={value}")?;
                }
            }
            if let Some(hint) = choice.hint() {
                writeln!(out, "{hint}")?;
            }
        }
        EngineCommand::Set {
            engine,
            engine_options,
        } => {
            let options = engine_options
                .iter()
                .map(|text| UciSpec::option_pair(text))
                .collect::<Result<Vec<_>, _>>()
                .context("--engine-option")?;
            let config = EngineConfig::to_keep(&engine, options)?;
            let choice = EngineChoice::resolve(Some(Path::new(&config.engine)), &config.options)?;
            let name = started_name(&choice.spec)?;
            let file = EngineConfig::path().ok_or(tabla_analysis::ConfigError::NoDirectory)?;
            config.write(&file)?;
            writeln!(out, "default engine: {name} ({})", ChosenBy::File(file))?;
        }
    }
    Ok(())
}

/// Starts the engine (a UCI program: launch, handshake, options checked) and gives its name.
fn started_name(spec: &EngineSpec) -> anyhow::Result<String> {
    let engine = spec.start()?;
    Ok(engine.id().label().to_owned())
}
