//! Building table files: the endings asked for and every ending they lead to, in dependency
//! order, one at a time on several threads, resumable.
//!
//! Each ending is generated (`retro.rs`) once the endings its captures and promotions lead to are
//! done, then written as its table file (`KQvKR.tbm`, the side to move that compresses smaller)
//! and, for the endings still to build, as a *frame file* (`frames/KQvKR.frame`, both sides to
//! move in the generator's index, zstd level 1), from which the endings that lead to it read the
//! side they need. A finished ending is not rebuilt: a run that is stopped resumes at the endings
//! it had not finished. Each table built is logged with its time to `build.log`.
//!
//! One table is built at a time, on every thread asked for (`retro.rs` shares each step's
//! configs among them), so each table's logged time is its own. Memory: the table being built
//! holds two bytes a position of its own (values, best exits) and one byte a position of each
//! side of the endings it leads to that it reaches.

use crate::ending_stats::EndingStats;
use crate::frame::Frame;
use crate::men::Men;
use crate::solve::{Solution, Solved};
use crate::tablebase::{stats_file_name, table_file_name};
use crate::tb_file::{self, TbFile};
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;
use tabla::Color;

/// What happened to one ending.
#[derive(Clone, Debug)]
pub struct Built {
    /// The ending.
    pub men: Men,
    /// Seconds to generate and write it (0 when it was already built).
    pub seconds: f64,
    /// The table file's size in bytes.
    pub bytes: u64,
    /// The sides to move the file holds.
    pub stored: Vec<Color>,
    /// Whether it was already built (nothing done).
    pub skipped: bool,
}

/// Why a build stopped.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// A file could not be written or read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// More men than the tables hold.
    #[error(transparent)]
    Solve(#[from] crate::SolveError),
}

/// Every ending `targets` lead to (themselves included, canonical, not the bare kings), each
/// after the endings it leads to.
pub(crate) fn build_order(targets: &[Men]) -> Vec<Men> {
    let mut all = HashSet::new();
    let mut stack: Vec<Men> = targets.iter().map(|m| m.canonical().0).collect();
    while let Some(m) = stack.pop() {
        if m.total() <= 2 || !all.insert(m) {
            continue;
        }
        stack.extend(Solved::next_endings(m));
    }
    let mut order: Vec<Men> = all.into_iter().collect();
    // Captures take a man away, promotions a pawn: both lead to endings earlier in this order.
    order.sort_by_key(|m| (m.total(), m.pawns(), m.to_string()));
    order
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> BuildError + '_ {
    move |source| BuildError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Builds the table files of `targets` and of every ending they lead to into `dir`, one ending
/// at a time, each generated on `threads` threads; `report` is called as each ending is done (or
/// found done).
pub fn build(
    dir: &Path,
    targets: &[Men],
    threads: usize,
    report: &(dyn Fn(&Built) + Sync),
) -> Result<Vec<Built>, BuildError> {
    for m in targets {
        if m.total() > crate::MAX_MEN {
            return Err(crate::SolveError::TooMany(*m).into());
        }
    }
    let frames = dir.join("frames");
    std::fs::create_dir_all(&frames).map_err(io(&frames))?;
    let order = build_order(targets);
    // Which endings others lead to: those keep a frame file. Counted over every ending of up to
    // five men, so that a later build of more endings finds the frames of the ones built now.
    let mut needed_by: HashMap<Men, usize> = HashMap::new();
    let mut everything = Vec::new();
    for n in crate::MIN_MEN..=crate::MAX_MEN {
        everything.extend(Men::all(n));
    }
    for m in build_order(&everything).iter().chain(&order) {
        for d in Solved::next_endings(*m) {
            *needed_by.entry(d).or_default() += 1;
        }
    }
    let mut reports = Vec::new();
    for men in order {
        let built = build_one(dir, &frames, men, &mut needed_by, threads)?;
        if !built.skipped {
            let line = format!(
                "{} {:.3} s {} bytes stored {}\n",
                built.men,
                built.seconds,
                built.bytes,
                match built.stored[..] {
                    [Color::White] => "white",
                    [Color::Black] => "black",
                    _ => "both",
                }
            );
            let path = dir.join("build.log");
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .and_then(|mut f| f.write_all(line.as_bytes()))
                .map_err(io(&path))?;
        }
        report(&built);
        reports.push(built);
    }
    Ok(reports)
}

fn frame_path(frames: &Path, men: Men) -> PathBuf {
    frames.join(format!("{men}.frame"))
}

/// Builds (or finds built) one ending whose endings are done.
fn build_one(
    dir: &Path,
    frames: &Path,
    men: Men,
    needed_by: &mut HashMap<Men, usize>,
    threads: usize,
) -> Result<Built, BuildError> {
    let path = dir.join(table_file_name(men));
    let frame_file = frame_path(frames, men);
    let still_needed = needed_by.get(&men).copied().unwrap_or(0) > 0;
    // Done before: the table file opens, its counts are there, and its frame file is there if
    // anything needs it.
    if let Ok(file) = TbFile::open(&path)
        && dir.join(stats_file_name(men)).exists()
        && (!still_needed || frame_file.exists())
    {
        release(needed_by, men);
        return Ok(Built {
            men,
            seconds: 0.0,
            bytes: file.len(),
            stored: file.stored(),
            skipped: true,
        });
    }
    let started = Instant::now();
    let mut solved = Solved::new();
    solved.set_threads(threads);
    for (d, sides) in Solved::next_endings_sides(men) {
        let path = frame_path(frames, d);
        let solution = read_frame(&path, d, sides, threads).map_err(io(&path))?;
        solved.insert(d, Arc::new(solution));
    }
    let solution = solved.generate(men);
    drop(solved);
    let stats_path = dir.join(stats_file_name(men));
    let stats = EndingStats::count(men, &solution.layout_values());
    std::fs::write(&stats_path, stats.to_text()).map_err(io(&stats_path))?;
    let (stored, bytes) = write_table(dir, &path, men, &solution, threads)?;
    if still_needed {
        write_frame(&frame_file, &solution).map_err(io(&frame_file))?;
    }
    release(needed_by, men);
    Ok(Built {
        men,
        seconds: started.elapsed().as_secs_f64(),
        bytes,
        stored,
        skipped: false,
    })
}

/// Tables of up to this many men hold both sides to move, each value exact: a probe of a bigger
/// table reads its captures' values from them in one look-up each.
const EXACT_MEN: usize = 4;

/// Writes `men`'s table file at `path`. Up to [`EXACT_MEN`] men, both sides are exact: a
/// pawnless ending in the derived coding (one side stored, the one that codes smaller; the other
/// solved from it at the first probe: the endings it leads to are of three men, solved in
/// memory in milliseconds), an ending with pawns block-coded both sides (its promotions lead to
/// endings of as many men, too many to solve at a probe). Bigger endings store the side that
/// codes smaller, captures left to the prober. Returns the sides stored and the file's size.
fn write_table(
    dir: &Path,
    path: &Path,
    men: Men,
    solution: &Solution,
    threads: usize,
) -> Result<(Vec<Color>, u64), BuildError> {
    if men.total() <= EXACT_MEN && !men.has_pawns() {
        let white = dir.join(format!("{men}.white.tbm"));
        let black = dir.join(format!("{men}.black.tbm"));
        let write = |path: &Path, turn: Color| {
            tb_file::write_derived(path, men, turn, &solution.stored_values(turn, false))
        };
        let (w, b) = both(
            threads,
            || write(&white, Color::White),
            || write(&black, Color::Black),
        );
        return keep_smaller(path, (&white, w), (&black, b));
    }
    if men.total() <= EXACT_MEN {
        let white = solution.stored_values(Color::White, false);
        let black = solution.stored_values(Color::Black, false);
        let sides = [(Color::White, &white[..]), (Color::Black, &black[..])];
        let bytes = tb_file::write(path, men, &sides, false, threads).map_err(io(path))?;
        return Ok((vec![Color::White, Color::Black], bytes));
    }
    let white = dir.join(format!("{men}.white.tbm"));
    let black = dir.join(format!("{men}.black.tbm"));
    let write = |path: &Path, turn: Color| {
        let values = solution.stored_values(turn, true);
        tb_file::write(path, men, &[(turn, &values[..])], true, 1)
    };
    let (w, b) = both(
        threads,
        || write(&white, Color::White),
        || write(&black, Color::Black),
    );
    keep_smaller(path, (&white, w), (&black, b))
}

/// Runs `a` and `b`, at once when there are threads for it.
fn both<T: Send>(threads: usize, a: impl FnOnce() -> T, b: impl FnOnce() -> T + Send) -> (T, T) {
    if threads < 2 {
        return (a(), b());
    }
    std::thread::scope(|scope| {
        let handle = scope.spawn(b);
        let a = a();
        let b = handle
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e));
        (a, b)
    })
}

/// Of two files written for `path`, one storing White's side and one Black's, keeps the
/// smaller as `path`; returns the side it stores and its size.
fn keep_smaller(
    path: &Path,
    (white, w): (&Path, std::io::Result<u64>),
    (black, b): (&Path, std::io::Result<u64>),
) -> Result<(Vec<Color>, u64), BuildError> {
    let w = w.map_err(io(white))?;
    let b = b.map_err(io(black))?;
    let (keep, drop_, stored, bytes) = if w <= b {
        (white, black, Color::White, w)
    } else {
        (black, white, Color::Black, b)
    };
    std::fs::remove_file(drop_).map_err(io(drop_))?;
    std::fs::rename(keep, path).map_err(io(path))?;
    Ok((vec![stored], bytes))
}

/// One fewer pending ending needs each ending `men` leads to.
fn release(needed_by: &mut HashMap<Men, usize>, men: Men) {
    for d in Solved::next_endings(men) {
        if let Some(n) = needed_by.get_mut(&d) {
            *n = n.saturating_sub(1);
        }
    }
}

const FRAME_MAGIC: &[u8; 8] = b"TABLA-FR";

fn write_frame(path: &Path, solution: &Solution) -> std::io::Result<()> {
    let partial = path.with_extension("partial");
    let file = std::fs::File::create(&partial)?;
    let mut out = zstd::stream::Encoder::new(std::io::BufWriter::new(file), 1)?;
    out.include_checksum(true)?;
    out.write_all(FRAME_MAGIC)?;
    let name = solution.men().to_string();
    out.write_all(&[name.len() as u8])?;
    out.write_all(name.as_bytes())?;
    for side in solution.frame_values() {
        out.write_all(side)?;
    }
    out.finish()?.flush()?;
    std::fs::rename(&partial, path)
}

/// Reads a frame file: the sides to move asked for (the others left empty).
fn read_frame(
    path: &Path,
    men: Men,
    sides: [bool; 2],
    threads: usize,
) -> std::io::Result<Solution> {
    use std::io::Read;
    let bad = |what: &str| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("{}: {what}", path.display()),
        )
    };
    let mut input = zstd::stream::Decoder::new(std::fs::File::open(path)?)?;
    let mut magic = [0u8; 8];
    input.read_exact(&mut magic)?;
    if &magic != FRAME_MAGIC {
        return Err(bad("not a frame file"));
    }
    let mut len = [0u8; 1];
    input.read_exact(&mut len)?;
    let mut name = vec![0u8; len[0] as usize];
    input.read_exact(&mut name)?;
    if name != men.to_string().as_bytes() {
        return Err(bad("another ending's frame file"));
    }
    let frame = Frame::new(men);
    let n = frame.configs() * 64;
    let mut values = [Vec::new(), Vec::new()];
    for (side, wanted) in values.iter_mut().zip(sides) {
        if wanted {
            *side = vec![0u8; n];
            input.read_exact(side)?;
        } else {
            let skipped = std::io::copy(&mut (&mut input).take(n as u64), &mut std::io::sink())?;
            if skipped != n as u64 {
                return Err(bad("shorter than its ending"));
            }
        }
    }
    let mut rest = Vec::new();
    input.read_to_end(&mut rest)?;
    if !rest.is_empty() {
        return Err(bad("longer than its ending"));
    }
    Ok(Solution::from_values(frame, values, threads))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Tablebase;

    /// A table written as five-man tables are (one side, the captures' values left to the
    /// prober) reads back every position's value as solved in memory, for either side stored.
    #[test]
    fn captures_left_to_the_prober_read_back_exactly() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let men: Men = "KRvKP".parse().expect("men");
        build(dir.path(), &[men], 2, &|_| {}).expect("built");
        let mut solved = Solved::new();
        solved.solve(men).expect("solved");
        let solution = solved.get(men).expect("solved");
        let layout = solution.layout();
        let path = dir.path().join(table_file_name(men));
        for turn in [Color::White, Color::Black] {
            let exact = solution.stored_values(turn, false);
            let stored = solution.stored_values(turn, true);
            let left = exact.iter().zip(&stored).filter(|(a, b)| a != b).count();
            assert!(
                left > exact.len() / 50,
                "{turn:?}: {left} values left to the prober"
            );
            tb_file::write(&path, men, &[(turn, &stored[..])], true, 1).expect("written");
            let tb = Tablebase::open(dir.path()).expect("opened");
            let mut checked = 0;
            for slot in (0..layout.size()).step_by(5) {
                let Some(pos) = layout.position(slot, turn) else {
                    continue;
                };
                let want = solved.dtm(&pos).expect("solved");
                assert_eq!(tb.probe(&pos).expect("probed"), want, "{}", pos.to_fen());
                checked += 1;
            }
            assert!(checked > 500_000, "{checked}");
        }
    }
}
