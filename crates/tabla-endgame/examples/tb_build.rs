//! Builds every table of up to N men into a directory, as `tabla tb build --men N` does, without
//! the rest of the `tabla` command (a release build of this crate alone takes a minute):
//!
//! ```text
//! cargo run --release -p tabla-endgame --example tb_build -- 5 DIR [THREADS]
//! cargo run --release -p tabla-endgame --example tb_build -- KQRvKR,KBNvKN DIR [THREADS]
//! ```
//!
//! A list of endings builds those (and the tables they lead to) instead of every table.
//!
//! Each table's time is appended to DIR/build.log; a stopped run resumes where it stopped.

use std::path::PathBuf;
use tabla_endgame::{Built, Men, build};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: tb_build N|ENDING,... DIR [THREADS]";
    let what = args.next().ok_or(usage)?;
    let dir = PathBuf::from(args.next().ok_or(usage)?);
    let threads: usize = match args.next() {
        Some(t) => t.parse()?,
        None => std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
    };
    let mut targets = Vec::new();
    if let Ok(n) = what.parse::<usize>() {
        for men in tabla_endgame::MIN_MEN..=n {
            targets.extend(Men::all(men));
        }
    } else {
        for name in what.split(',') {
            targets.push(name.parse::<Men>()?);
        }
    }
    let built = build(&dir, &targets, threads, &|b: &Built| {
        if b.skipped {
            println!("{} already built", b.men);
        } else {
            println!("{} built in {:.2} s, {} bytes", b.men, b.seconds, b.bytes);
        }
    })?;
    let seconds: f64 = built.iter().map(|b| b.seconds).sum();
    let bytes: u64 = built.iter().map(|b| b.bytes).sum();
    println!(
        "{} tables, {seconds:.1} s of table time now, {bytes} bytes",
        built.len()
    );
    Ok(())
}
