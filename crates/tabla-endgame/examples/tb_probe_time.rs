//! Probe times of built tables, warm and cold, for the side to move each file stores and for the
//! other (answered by one ply):
//!
//! ```text
//! cargo run --release -p tabla-endgame --example tb_probe_time -- DIR [ENDING...]
//! ```
//!
//! For each ending (default: every table in DIR), 20,000 legal positions are drawn from random
//! slots, each with the stored side to move and, where legal, the other (for a table that stores
//! both: White to move, then Black). *Cold*: the page cache
//! is dropped (`/proc/sys/vm/drop_caches`, needs root; said when it cannot be), the directory
//! opened again and one position of the ending probed: the time of the first touch. *Warm*: the
//! file read through once, then every position probed, five rounds; the median round's time a
//! probe. `Tablebase::probe` is timed as a user calls it: a `Position` in, a `Dtm` out.

use std::path::PathBuf;
use std::time::Instant;
use tabla::{Color, Position};
use tabla_endgame::{Layout, Men, Tablebase};

const POSITIONS: usize = 20_000;

/// Legal positions of `men` from random slots, with `turn` to move.
fn positions(men: Men, turn: Color, seed: u64) -> Vec<Position> {
    let layout = Layout::new(men);
    let mut state = seed | 1;
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < POSITIONS && tries < POSITIONS * 200 {
        tries += 1;
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let slot = state % layout.size();
        // No en-passant square in the FEN: the stored value is read as it is.
        if let Some(pos) = layout.position(slot, turn) {
            out.push(pos);
        }
    }
    out
}

fn drop_caches() -> bool {
    std::process::Command::new("sync").status().is_ok()
        && std::fs::write("/proc/sys/vm/drop_caches", "3").is_ok()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().ok_or("usage: tb_probe_time DIR [ENDING...]")?);
    let tb = Tablebase::open(&dir)?;
    let mut endings: Vec<Men> = args.map(|a| a.parse()).collect::<Result<_, _>>()?;
    if endings.is_empty() {
        endings = tb.endings();
    }
    println!("ending stored warm_stored_ns warm_other_ns cold_first_probe_us file_bytes");
    for men in endings {
        let Some(file) = tb.file(men) else {
            println!("{men}: no table in {}", dir.display());
            continue;
        };
        let stored = file.stored();
        let bytes = file.len();
        let mine = positions(men, stored[0], 0x9E37_79B9_7F4A_7C15);
        // With both sides stored, the "other" set is Black to move, stored too.
        let other = positions(men, !stored[0], 0xD1B5_4A32_D192_ED03);
        // Cold: the first probe after the page cache is dropped, through a fresh open.
        let cold = if drop_caches() {
            let started = Instant::now();
            let fresh = Tablebase::open(&dir)?;
            fresh.probe(&mine[0])?;
            format!("{:.0}", started.elapsed().as_secs_f64() * 1e6)
        } else {
            "n/a (no root)".to_owned()
        };
        // Warm: every page read once, then rounds of probes.
        let _ = std::fs::read(dir.join(tabla_endgame::table_file_name(men)))?;
        let time = |set: &[Position]| -> Result<f64, Box<dyn std::error::Error>> {
            let mut rounds = Vec::new();
            for _ in 0..5 {
                let started = Instant::now();
                for pos in set {
                    std::hint::black_box(tb.probe(pos)?);
                }
                rounds.push(started.elapsed().as_secs_f64() * 1e9 / set.len().max(1) as f64);
            }
            Ok(median(rounds))
        };
        let warm_mine = time(&mine)?;
        let warm_other = time(&other)?;
        println!(
            "{men} {} {warm_mine:.0} {warm_other:.0} {cold} {bytes}",
            match stored[..] {
                [Color::White] => "white",
                [Color::Black] => "black",
                _ => "both",
            }
        );
    }
    Ok(())
}
