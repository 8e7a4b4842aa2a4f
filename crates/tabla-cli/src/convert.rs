//! `tabla convert`: PGN and `.pgn.zst` files to Parquet, on every core.

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::io::{self, IsTerminal, Write};
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;
use tabla_convert::{Input, Options, PositionsTable, ProgressSink};

/// The arguments of `tabla convert`.
#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// The PGN inputs: `.pgn` or `.pgn.zst` files (lichess's pzstd files are decoded in
    /// parallel), or `-` for standard input.
    #[arg(value_name = "INPUT", required = true, num_args = 1..)]
    inputs: Vec<PathBuf>,
    /// The dataset directory: `games/year=YYYY/month=M/part-*.parquet` (and `positions/...`).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Also write the positions table: game id, ply, Zobrist key, FEN and move of every position.
    #[arg(long)]
    positions: bool,
    /// With --positions: keep the positions up to this ply only.
    #[arg(long, value_name = "N", requires = "positions")]
    max_ply: Option<u32>,
    /// Worker threads (default: every core).
    #[arg(long, value_name = "N")]
    threads: Option<NonZeroUsize>,
    /// Number the games FIRST, FIRST + 1, ... (in the order the threads reach them: the same
    /// numbers on every run with --threads 1) rather than deriving each id from the file's name
    /// and where the game starts in it.
    #[arg(long, value_name = "FIRST")]
    number_games: Option<u64>,
    /// Convert every input, even one whose content OUT holds already (its games are then there
    /// twice). Without it such an input is skipped, and said so.
    #[arg(long)]
    force: bool,
}

/// Runs `tabla convert`: the summary goes to `out`, the progress bar and timing to stderr.
pub fn run(args: ConvertArgs, out: &mut impl Write) -> anyhow::Result<()> {
    let inputs: Vec<Input> = args
        .inputs
        .into_iter()
        .map(|path| {
            if path.as_os_str() == "-" {
                Input::Stdin
            } else {
                Input::Path(path)
            }
        })
        .collect();
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN));
    // The bar's length is known only when every input's size is (standard input has none).
    let total = inputs
        .iter()
        .map(tabla_convert::input_len)
        .sum::<Option<u64>>();
    let options = Options {
        inputs,
        out_dir: args.out,
        positions: if args.positions {
            PositionsTable::Full
        } else {
            PositionsTable::None
        },
        max_ply: args.max_ply,
        threads,
        game_ids: match args.number_games {
            Some(first) => tabla_convert::GameIds::Numbered { first },
            None => tabla_convert::GameIds::FromPlace,
        },
    };

    let progress = BarProgress::new(total);
    let start = Instant::now();
    let recorded = tabla_convert::convert_recorded(
        &options,
        &tabla_convert::Limits::default(),
        args.force,
        &progress,
    );
    progress.bar.finish_and_clear();
    let recorded = recorded?;
    let seconds = start.elapsed().as_secs_f64();
    let out_dir = options.out_dir.display();
    for skipped in &recorded.skipped {
        eprintln!("{skipped}; --force converts it again");
    }
    if recorded.unrecorded_tables {
        eprintln!(
            "warning: {out_dir} held tables of an earlier conversion that recorded no inputs \
             ({}): if the same games were converted then, they are there twice now",
            tabla_convert::INPUTS_RECORD
        );
    }
    if recorded.skipped.len() == options.inputs.len() {
        eprintln!("nothing converted: {out_dir} holds every input already");
    }
    let summary = recorded.summary;

    writeln!(
        out,
        "games {}, errors {}, warnings {}, positions {}, files {}",
        summary.games,
        summary.games_with_error,
        summary.warnings,
        summary.positions,
        summary.files.len()
    )?;
    let rate = |n: f64| if seconds > 0.0 { n / seconds } else { 0.0 };
    eprintln!(
        "{} in {seconds:.2} s on {}: {:.0} games/s, {:.1} MB/s of input",
        tabla::plural(summary.input_bytes, "byte"),
        tabla::plural(threads, "thread"),
        rate(summary.games as f64),
        rate(summary.input_bytes as f64) / 1e6
    );
    Ok(())
}

/// The progress bar on stderr: input bytes read, and games converted per second.
pub(crate) struct BarProgress {
    pub(crate) bar: ProgressBar,
    games: Arc<AtomicU64>,
}

impl BarProgress {
    pub(crate) fn new(total: Option<u64>) -> Self {
        let games = Arc::new(AtomicU64::new(0));
        let bar = if io::stderr().is_terminal() {
            ProgressBar::with_draw_target(total, ProgressDrawTarget::stderr())
        } else {
            ProgressBar::hidden()
        };
        let template = if total.is_some() {
            "{bar:30} {bytes}/{total_bytes} {bytes_per_sec}, {games} eta {eta}"
        } else {
            "{spinner} {bytes} {bytes_per_sec}, {games}"
        };
        let counter = Arc::clone(&games);
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style.with_key(
                "games",
                move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let games = counter.load(Ordering::Relaxed);
                    let seconds = state.elapsed().as_secs_f64();
                    let rate = if seconds > 0.0 {
                        games as f64 / seconds
                    } else {
                        0.0
                    };
                    let _ = write!(w, "{} {rate:.0}/s", tabla::plural(games, "game"));
                },
            ));
        }
        Self { bar, games }
    }
}

impl ProgressSink for BarProgress {
    fn advance(&self, input_bytes: u64, games: u64) {
        self.games.fetch_add(games, Ordering::Relaxed);
        self.bar.inc(input_bytes);
    }

    fn phase(&self, name: &str) {
        if let Ok(style) = ProgressStyle::with_template("{spinner} {msg} {elapsed}") {
            self.bar.set_style(style);
        }
        self.bar.set_message(name.to_owned());
        self.bar
            .enable_steady_tick(std::time::Duration::from_millis(200));
    }
}
