//! Writes a large, realistic-looking PGN collection for benchmarks (the game database's import,
//! explorer and search): real openings continued by random legal moves, with generated players,
//! ratings, dates and time controls. Deterministic for a given seed and inputs.
//!
//! ```text
//! cargo run --release -p tabla-pgn --example gen_games -- --games 2000000 \
//!     ../shared/data/pgn/lichess_db_1000k.pgn ../shared/data/pgn/twic1599_1000k.pgn > games.pgn
//! ```
//!
//! - Openings: the first 4 to 16 plies (chosen at random, at most the game's length) of a game
//!   chosen at random among the inputs' games that start from the standard position.
//! - Then random legal moves (a capture chosen first one time in three when there is one) up to a
//!   length drawn between 20 and 140 plies, or until the game ends by rule.
//! - Result: the rule's when it ended by rule, else drawn from 1-0 45 %, 0-1 40 %, 1/2-1/2 15 %.
//! - Players: 20,000 names `Player NNNNN`, each with a rating between 800 and 2,800; a game's
//!   `WhiteElo`/`BlackElo` are its players' ratings plus up to ±60, and one game in 50 has none.
//! - `UTCDate`/`Date`: a day from 2013-01-01 to 2025-12-28; one game in 100 has only a year.
//! - `TimeControl`: one of lichess's usual ones (bullet to classical) or `-` (correspondence).

use rand::{RngExt, SeedableRng};
use rand_xorshift::XorShiftRng;
use std::io::{BufWriter, Write};
use tabla::{Color, GameEnd, Move, Position};
use tabla_pgn::Reader;

const PLAYERS: usize = 20_000;
const TIME_CONTROLS: [&str; 10] = [
    "60+0", "120+1", "180+0", "180+2", "300+0", "300+3", "600+0", "900+10", "1800+0", "-",
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut games = 100_000u64;
    let mut seed = 1u64;
    let mut inputs = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--games" => games = args.next().ok_or("--games needs a number")?.parse()?,
            "--seed" => seed = args.next().ok_or("--seed needs a number")?.parse()?,
            _ => inputs.push(arg),
        }
    }
    if inputs.is_empty() {
        return Err("usage: gen_games [--games N] [--seed S] PGN... > out.pgn".into());
    }

    // The openings: each source game's first 16 mainline moves, from the standard start.
    let start = Position::startpos();
    let mut openings: Vec<Vec<Move>> = Vec::new();
    for path in &inputs {
        let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        for game in Reader::new(std::io::BufReader::new(file)).games() {
            let Ok(game) = game else { continue };
            if game
                .start
                .as_ref()
                .is_some_and(|p| p.to_fen() == start.to_fen())
                && game.mainline().len() >= 4
            {
                openings.push(game.mainline().take(16).map(|n| n.mv).collect());
            }
        }
    }
    if openings.is_empty() {
        return Err("no game from the standard start position in the inputs".into());
    }
    eprintln!("{} openings from {} files", openings.len(), inputs.len());

    let mut rng = XorShiftRng::seed_from_u64(seed);
    let ratings: Vec<i32> = (0..PLAYERS).map(|_| rng.random_range(800..=2800)).collect();
    let stdout = std::io::stdout();
    let mut out = BufWriter::with_capacity(1 << 20, stdout.lock());
    let mut line = String::new();
    for n in 0..games {
        let opening = &openings[rng.random_range(0..openings.len())];
        let book = rng.random_range(4..=16).min(opening.len());
        let length = rng.random_range(20..=140);
        let mut pos = start.clone();
        let mut moves: Vec<Move> = Vec::with_capacity(length);
        for &mv in &opening[..book] {
            pos.play_unchecked(mv);
            moves.push(mv);
        }
        let mut end = pos.status().end;
        while end.is_none() && moves.len() < length {
            let legal = pos.legal_moves();
            let captures: Vec<Move> = legal.iter().copied().filter(|m| m.is_capture()).collect();
            let mv = if !captures.is_empty() && rng.random_range(0..3) == 0 {
                captures[rng.random_range(0..captures.len())]
            } else {
                legal[rng.random_range(0..legal.len())]
            };
            pos.play_unchecked(mv);
            moves.push(mv);
            end = pos.status().end;
        }
        let result = match end {
            Some(GameEnd::Checkmate {
                winner: Color::White,
            }) => "1-0",
            Some(GameEnd::Checkmate {
                winner: Color::Black,
            }) => "0-1",
            Some(_) => "1/2-1/2",
            None => match rng.random_range(0..100) {
                0..45 => "1-0",
                45..85 => "0-1",
                _ => "1/2-1/2",
            },
        };

        let white = rng.random_range(0..PLAYERS);
        let mut black = rng.random_range(0..PLAYERS - 1);
        if black >= white {
            black += 1;
        }
        let year = rng.random_range(2013..=2025);
        let date = if rng.random_range(0..100) == 0 {
            format!("{year}.??.??")
        } else {
            format!(
                "{year}.{:02}.{:02}",
                rng.random_range(1..=12),
                rng.random_range(1..=28)
            )
        };
        let time_control = TIME_CONTROLS[rng.random_range(0..TIME_CONTROLS.len())];
        writeln!(out, "[Event \"Generated game {}\"]", n + 1)?;
        writeln!(out, "[Site \"https://example.invalid/{}\"]", n + 1)?;
        writeln!(out, "[Date \"{date}\"]")?;
        writeln!(out, "[UTCDate \"{date}\"]")?;
        writeln!(out, "[White \"Player {:05}\"]", white + 1)?;
        writeln!(out, "[Black \"Player {:05}\"]", black + 1)?;
        writeln!(out, "[Result \"{result}\"]")?;
        if rng.random_range(0..50) != 0 {
            writeln!(
                out,
                "[WhiteElo \"{}\"]",
                ratings[white] + rng.random_range(-60..=60)
            )?;
            writeln!(
                out,
                "[BlackElo \"{}\"]",
                ratings[black] + rng.random_range(-60..=60)
            )?;
        }
        writeln!(out, "[TimeControl \"{time_control}\"]")?;
        writeln!(out)?;
        let text = start.variation_san(&moves)?;
        // Lines of at most 80 characters, as the export format asks.
        line.clear();
        for word in text.split(' ').chain(std::iter::once(result)) {
            if !line.is_empty() && line.len() + 1 + word.len() > 80 {
                writeln!(out, "{line}")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        writeln!(out, "{line}")?;
        writeln!(out)?;
        if (n + 1) % 100_000 == 0 {
            eprintln!("{} games", n + 1);
        }
    }
    out.flush()?;
    Ok(())
}
