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
//!
//! `--style lichess` writes the same games (same moves, players, ratings, dates, results and
//! time controls: the draws above are unchanged) the way the lichess database exports them:
//! its tag roster (`Event "Rated Blitz game"` named from the time control by lichess's speed
//! thresholds, `Site` a lichess-like URL, `Round "-"`, `UTCTime`, `WhiteRatingDiff`,
//! `BlackRatingDiff`, `Termination`; not `ECO` and `Opening`, which need a classifier), and the
//! movetext on one line with a `{ [%clk H:MM:SS] }` comment after every move (`N...` before a
//! Black move that follows a comment), as in every lichess game since 2017 with a clock. The
//! clocks start at the base time and lose a random think time (at most a tenth of what is
//! left, plus a second) and gain the increment each move; correspondence games have none.
//! These extras are drawn from a second generator, so both styles hold the same games.

use rand::{RngExt, SeedableRng};
use rand_xorshift::XorShiftRng;
use std::io::{BufWriter, Write};
use tabla::{Color, GameEnd, Move, Position};
use tabla_pgn::Reader;

const PLAYERS: usize = 20_000;
const TIME_CONTROLS: [&str; 10] = [
    "60+0", "120+1", "180+0", "180+2", "300+0", "300+3", "600+0", "900+10", "1800+0", "-",
];

/// How the games are written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    /// A few tags, movetext in lines of 80 characters, no comments.
    Plain,
    /// As the lichess database exports games: see the module's documentation.
    Lichess,
}

/// The lichess game name of a time control (`base+increment` in seconds, `-`): its speed by
/// lichess's thresholds on the estimated duration, base + 40 x increment.
fn lichess_event(time_control: &str) -> String {
    let Some((base, inc)) = time_control.split_once('+') else {
        return "Rated Correspondence game".to_owned();
    };
    let base: u32 = base.parse().unwrap_or(0);
    let inc: u32 = inc.parse().unwrap_or(0);
    let speed = match base + 40 * inc {
        0..30 => "UltraBullet",
        30..180 => "Bullet",
        180..480 => "Blitz",
        480..1500 => "Rapid",
        _ => "Classical",
    };
    format!("Rated {speed} game")
}

/// The movetext as lichess writes it: one line, a clock comment after every move when the
/// game has a clock.
fn lichess_movetext(
    start: &Position,
    moves: &[Move],
    time_control: &str,
    result: &str,
    rng: &mut XorShiftRng,
) -> String {
    let clock = time_control.split_once('+').map(|(base, inc)| {
        (
            base.parse::<u32>().unwrap_or(0),
            inc.parse::<u32>().unwrap_or(0),
        )
    });
    let mut clocks = clock.map_or([0, 0], |(base, _)| [base, base]);
    let mut pos = start.clone();
    let mut text = String::with_capacity(moves.len() * 24);
    for (ply, &mv) in moves.iter().enumerate() {
        let number = ply / 2 + 1;
        if ply % 2 == 0 {
            text.push_str(&format!("{number}. "));
        } else if clock.is_some() {
            text.push_str(&format!("{number}... "));
        }
        text.push_str(&pos.san(mv));
        text.push(' ');
        pos.play_unchecked(mv);
        if let Some((_, inc)) = clock {
            let left = &mut clocks[ply % 2];
            let think = rng.random_range(0..=*left / 10 + 1);
            *left = left.saturating_sub(think) + inc;
            let s = *left;
            text.push_str(&format!(
                "{{ [%clk {}:{:02}:{:02}] }} ",
                s / 3600,
                s / 60 % 60,
                s % 60
            ));
        }
    }
    text.push_str(result);
    text
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut games = 100_000u64;
    let mut seed = 1u64;
    let mut style = Style::Plain;
    let mut inputs = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--games" => games = args.next().ok_or("--games needs a number")?.parse()?,
            "--seed" => seed = args.next().ok_or("--seed needs a number")?.parse()?,
            "--style" => {
                style = match args.next().as_deref() {
                    Some("plain") => Style::Plain,
                    Some("lichess") => Style::Lichess,
                    _ => return Err("--style takes plain or lichess".into()),
                }
            }
            _ => inputs.push(arg),
        }
    }
    if inputs.is_empty() {
        return Err(
            "usage: gen_games [--games N] [--seed S] [--style plain|lichess] PGN... > out.pgn"
                .into(),
        );
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
    // The lichess style's extras, apart so that both styles draw the same games.
    let mut extra = XorShiftRng::seed_from_u64(seed ^ 0x006c_6963_6865_7373);
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
        // Drawn whether written or not, so that both styles hold the same games.
        let elos = (rng.random_range(0..50) != 0).then(|| {
            (
                ratings[white] + rng.random_range(-60..=60),
                ratings[black] + rng.random_range(-60..=60),
            )
        });
        match style {
            Style::Plain => {
                writeln!(out, "[Event \"Generated game {}\"]", n + 1)?;
                writeln!(out, "[Site \"https://example.invalid/{}\"]", n + 1)?;
                writeln!(out, "[Date \"{date}\"]")?;
                writeln!(out, "[UTCDate \"{date}\"]")?;
                writeln!(out, "[White \"Player {:05}\"]", white + 1)?;
                writeln!(out, "[Black \"Player {:05}\"]", black + 1)?;
                writeln!(out, "[Result \"{result}\"]")?;
                if let Some((w, b)) = elos {
                    writeln!(out, "[WhiteElo \"{w}\"]")?;
                    writeln!(out, "[BlackElo \"{b}\"]")?;
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
            }
            Style::Lichess => {
                writeln!(out, "[Event \"{}\"]", lichess_event(time_control))?;
                let site: String = (0..8)
                    .map(|_| {
                        let c = extra.random_range(0..62u8);
                        char::from(match c {
                            0..10 => b'0' + c,
                            10..36 => b'a' + c - 10,
                            _ => b'A' + c - 36,
                        })
                    })
                    .collect();
                writeln!(out, "[Site \"https://lichess.org/{site}\"]")?;
                writeln!(out, "[Date \"{date}\"]")?;
                writeln!(out, "[Round \"-\"]")?;
                writeln!(out, "[White \"Player {:05}\"]", white + 1)?;
                writeln!(out, "[Black \"Player {:05}\"]", black + 1)?;
                writeln!(out, "[Result \"{result}\"]")?;
                writeln!(out, "[UTCDate \"{date}\"]")?;
                writeln!(
                    out,
                    "[UTCTime \"{:02}:{:02}:{:02}\"]",
                    extra.random_range(0..24),
                    extra.random_range(0..60),
                    extra.random_range(0..60)
                )?;
                if let Some((w, b)) = elos {
                    writeln!(out, "[WhiteElo \"{w}\"]")?;
                    writeln!(out, "[BlackElo \"{b}\"]")?;
                    let diff = extra.random_range(1..=12);
                    let (wd, bd) = match result {
                        "1-0" => (diff, -diff),
                        "0-1" => (-diff, diff),
                        _ => (0, 0),
                    };
                    writeln!(out, "[WhiteRatingDiff \"{wd:+}\"]")?;
                    writeln!(out, "[BlackRatingDiff \"{bd:+}\"]")?;
                }
                writeln!(out, "[TimeControl \"{time_control}\"]")?;
                let termination = if end.is_none() && extra.random_range(0..5) == 0 {
                    "Time forfeit"
                } else {
                    "Normal"
                };
                writeln!(out, "[Termination \"{termination}\"]")?;
                writeln!(out)?;
                writeln!(
                    out,
                    "{}",
                    lichess_movetext(&start, &moves, time_control, result, &mut extra)
                )?;
                writeln!(out)?;
            }
        }
        if (n + 1) % 100_000 == 0 {
            eprintln!("{} games", n + 1);
        }
    }
    out.flush()?;
    Ok(())
}
