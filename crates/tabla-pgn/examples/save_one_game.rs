//! Times `GameFile::save` of one edited game in a large PGN file against a plain copy of the
//! file (`std::fs::copy`, the anchor: a save writes the file twice, the backup and the new
//! content, and reads it once to check that it did not change), medians of several runs.
//!
//! ```sh
//! cargo run --release -p tabla-pgn --example save_one_game -- testdata/pgn/lichess_db_1000k.pgn 16
//! ```
//! The file given is repeated until the copy is at least the size asked for (MB).

use std::time::{Duration, Instant};
use tabla_pgn::{Comment, CommentPlace, GameFile, MovePath, Reader, write_game};

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let source = args.next().ok_or("usage: save_one_game FILE.pgn [MB]")?;
    let megabytes: usize = args.next().map_or(Ok(16), |a| a.parse())?;
    let unit = std::fs::read(&source)?;
    let mut bytes = Vec::new();
    while bytes.len() < megabytes << 20 {
        bytes.extend_from_slice(&unit);
        bytes.extend_from_slice(b"\n\n");
    }
    let dir = tempfile_dir()?;
    let path = dir.join("big.pgn");
    std::fs::write(&path, &bytes)?;
    let (mut copies, mut opens, mut saves) = (Vec::new(), Vec::new(), Vec::new());
    for run in 0..7 {
        let started = Instant::now();
        std::fs::copy(&path, dir.join("copy.pgn"))?;
        copies.push(started.elapsed());

        let started = Instant::now();
        let mut file = GameFile::open(&path)?;
        opens.push(started.elapsed());
        let middle = file.games() / 2;
        let mut game = Reader::new(file.game_bytes(middle).ok_or("a game")?)
            .games()
            .next()
            .ok_or("a game")??;
        let comment = Comment::parse(&format!("edited, run {run}"));
        game.set_comment(&MovePath::mainline(0), CommentPlace::After, comment)?;
        let started = Instant::now();
        file.save(&[(middle, write_game(&game))], &[])?;
        saves.push(started.elapsed());
    }
    let (copy, open, save) = (median(copies), median(opens), median(saves));
    println!(
        "{} MB: copy {:.1} ms, open {:.1} ms, save {:.1} ms (save / copy {:.2})",
        bytes.len() >> 20,
        copy.as_secs_f64() * 1e3,
        open.as_secs_f64() * 1e3,
        save.as_secs_f64() * 1e3,
        save.as_secs_f64() / copy.as_secs_f64()
    );
    std::fs::remove_dir_all(&dir)?;
    Ok(())
}

fn tempfile_dir() -> std::io::Result<std::path::PathBuf> {
    let dir = std::env::temp_dir().join(format!("tabla-save-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}
