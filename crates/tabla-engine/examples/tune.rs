//! Texel-style tuning of the evaluation's weights (a development tool, not a test).
//!
//! Reads positions labelled by `crates/tabla-engine/scripts/tune_data.py` (`FEN;score;result`,
//! Stockfish's score in centipawns from White's view), keeps the quiet ones (not in check, no
//! winning capture by static exchange, no promotion), and takes each evaluation apart with
//! [`tabla_engine::tuning::trace`]: the evaluation is linear in the tuned weights once the game
//! phase and the endgame scale are fixed, except king danger (`units + units^2 / 400`, fitted
//! through its derivative), and what no weight covers (the unstoppable pawn, bare kings) stays as a
//! constant per position. The target is the expected score Stockfish's score stands for, optionally
//! mixed with the game's result; the loss is the mean squared difference from `sigmoid(K * eval)`.
//! K is fitted first to the current weights (so the evaluation keeps its scale), then the weights
//! by full-batch Adam, with every tenth position held out for validation; the weights with the best
//! validation loss are written out.
//!
//! ```text
//! cargo run --release -p tabla-engine --example tune -- DATA... [--epochs 2000] [--lr 1.0]
//!     [--lambda 0.0] [--reg 0.0] [--write crates/tabla-engine/src/tuned.rs]
//! ```
//!
//! The weights in the tree came from `--epochs 600 --reg 0.000000003` (lambda 0: mixing in game
//! results played much worse).

use std::collections::HashSet;
use std::fs;
use std::process::ExitCode;

use tabla::Position;
use tabla_engine::tuning::{
    KING_DANGER, KING_DANGER_COUNT as KD, PHASE_MAX, WEIGHT_COUNT as COUNT, WEIGHTS, see, trace,
    weight_name,
};

/// Stockfish 15.1 scales its centipawns so that +100 means about a 50% chance to win (and most
/// of the rest drawn), an expected score near 0.75: sigmoid(100 / 91) = 0.75.
const SF_SCALE: f64 = 91.0;

struct Sample {
    start: u32,
    len: u16,
    mg_share: f32,
    eg_share: f32,
    offset: f32,
    target: f32,
    /// Uses of the king danger weights against White's king and Black's.
    danger: [[f32; KD]; 2],
}

/// The weights being fitted: the linear ones as (mg, eg) and the king danger ones.
#[derive(Clone)]
struct Weights {
    linear: Vec<[f64; 2]>,
    danger: [f64; KD],
}

/// King danger units from their uses.
fn units(uses: &[f32; KD], w: &[f64; KD]) -> f64 {
    uses.iter().zip(w).map(|(&u, &w)| f64::from(u) * w).sum()
}

/// The king danger penalty's blended value (negative), as king_safety::danger computes it.
fn danger_value(u: f64, s: &Sample) -> f64 {
    -(u + u * u / 400.0) * f64::from(s.mg_share) - u / 6.0 * f64::from(s.eg_share)
}

struct Data {
    samples: Vec<Sample>,
    coefficients: Vec<(u16, i16)>,
}

impl Data {
    fn terms(&self, s: &Sample) -> &[(u16, i16)] {
        &self.coefficients[s.start as usize..s.start as usize + s.len as usize]
    }

    /// The evaluation (White's view, centipawns) of sample `s` under `w`.
    fn eval(&self, s: &Sample, w: &Weights) -> f64 {
        let mut mg = 0.0;
        let mut eg = 0.0;
        for &(i, c) in self.terms(s) {
            mg += w.linear[i as usize][0] * f64::from(c);
            eg += w.linear[i as usize][1] * f64::from(c);
        }
        let danger = danger_value(units(&s.danger[0], &w.danger), s)
            - danger_value(units(&s.danger[1], &w.danger), s);
        f64::from(s.offset) + mg * f64::from(s.mg_share) + eg * f64::from(s.eg_share) + danger
    }

    fn loss(&self, w: &Weights, k: f64, set: &[usize]) -> f64 {
        let total: f64 = set
            .iter()
            .map(|&n| {
                let s = &self.samples[n];
                let p = sigmoid(k * self.eval(s, w));
                (p - f64::from(s.target)).powi(2)
            })
            .sum();
        total / set.len() as f64
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn quiet(pos: &Position) -> bool {
    if pos.is_check() {
        return false;
    }
    let moves = pos.legal_moves();
    !moves
        .iter()
        .any(|&m| m.promotion().is_some() || (m.is_capture() && see(pos, m) > 0))
}

struct Options {
    files: Vec<String>,
    epochs: usize,
    lr: f64,
    lambda: f64,
    reg: f64,
    write: Option<String>,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        files: Vec::new(),
        epochs: 2000,
        lr: 1.0,
        lambda: 0.0,
        reg: 0.0,
        write: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--epochs" => o.epochs = value("--epochs")?.parse().map_err(|e| format!("{e}"))?,
            "--lr" => o.lr = value("--lr")?.parse().map_err(|e| format!("{e}"))?,
            "--lambda" => o.lambda = value("--lambda")?.parse().map_err(|e| format!("{e}"))?,
            "--reg" => o.reg = value("--reg")?.parse().map_err(|e| format!("{e}"))?,
            "--write" => o.write = Some(value("--write")?),
            _ if a.starts_with("--") => return Err(format!("unknown option {a}")),
            _ => o.files.push(a),
        }
    }
    if o.files.is_empty() {
        return Err(
            "usage: tune DATA... [--epochs N] [--lr X] [--lambda X] [--reg X] [--write FILE]"
                .into(),
        );
    }
    Ok(o)
}

fn load(o: &Options) -> Result<Data, String> {
    let mut data = Data {
        samples: Vec::new(),
        coefficients: Vec::new(),
    };
    let mut seen = HashSet::new();
    let (mut lines, mut loud, mut mismatches) = (0usize, 0usize, 0usize);
    let mut offsets = 0.0;
    for file in &o.files {
        let text = fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        for line in text.lines() {
            lines += 1;
            let mut parts = line.split(';');
            let (Some(fen), Some(score), Some(result)) = (parts.next(), parts.next(), parts.next())
            else {
                continue;
            };
            let Ok(score) = score.parse::<f64>() else {
                continue;
            };
            let key: String = fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
            if score.abs() >= 3000.0 || !seen.insert(key) {
                continue;
            }
            let Ok(pos) = Position::from_fen(fen) else {
                continue;
            };
            if !quiet(&pos) {
                loud += 1;
                continue;
            }
            let Some(t) = trace(&pos) else {
                continue;
            };
            let phase = t.phase as f64 / PHASE_MAX as f64;
            let mg_share = phase;
            let eg_share = (1.0 - phase) * t.scale as f64 / 64.0;
            let blended = t.total.mg as f64 * mg_share + t.total.eg as f64 * eg_share;
            let from_white = if pos.turn() == tabla::Color::White {
                t.value
            } else {
                -t.value
            };
            // The engine blends in integers; anything further off means the trace is wrong.
            if (blended - from_white as f64).abs() > 2.0 {
                mismatches += 1;
                continue;
            }
            let start = data.coefficients.len() as u32;
            let mut linear = 0.0;
            for (i, &c) in t.coefficients.counts.iter().enumerate() {
                if c != 0 {
                    data.coefficients.push((i as u16, c as i16));
                    linear += (WEIGHTS[i].mg as f64 * mg_share + WEIGHTS[i].eg as f64 * eg_share)
                        * c as f64;
                }
            }
            let mut danger = [[0.0f32; KD]; 2];
            for (d, uses) in danger.iter_mut().zip(&t.coefficients.king_danger) {
                for (x, &u) in d.iter_mut().zip(uses) {
                    *x = u as f32;
                }
            }
            let kd = KING_DANGER.map(f64::from);
            let shares = Sample {
                start: 0,
                len: 0,
                mg_share: mg_share as f32,
                eg_share: eg_share as f32,
                offset: 0.0,
                target: 0.0,
                danger,
            };
            let danger_now = danger_value(units(&danger[0], &kd), &shares)
                - danger_value(units(&danger[1], &kd), &shares);
            let offset = blended - linear - danger_now;
            offsets += offset.abs();
            let mut target = sigmoid(score / SF_SCALE);
            if let Ok(r) = result.parse::<f64>() {
                target = (1.0 - o.lambda) * target + o.lambda * r;
            }
            data.samples.push(Sample {
                start,
                len: (data.coefficients.len() as u32 - start) as u16,
                mg_share: mg_share as f32,
                eg_share: eg_share as f32,
                offset: offset as f32,
                target: target as f32,
                danger,
            });
        }
    }
    eprintln!(
        "{lines} lines, {} quiet positions kept ({loud} not quiet, {mismatches} trace mismatches), \
         {:.1} terms each, mean |untuned part| {:.1} cp",
        data.samples.len(),
        data.coefficients.len() as f64 / data.samples.len().max(1) as f64,
        offsets / data.samples.len().max(1) as f64
    );
    Ok(data)
}

fn fit_k(data: &Data, w: &Weights, set: &[usize]) -> f64 {
    // The loss is unimodal in K: golden-section search.
    let (mut lo, mut hi) = (0.0005f64, 0.05f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if data.loss(w, a, set) < data.loss(w, b, set) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

fn write(path: &str, w: &Weights) -> Result<(), String> {
    let mut out = String::from(
        "//! The evaluation's weights, fitted to Stockfish's scores of quiet positions by\n\
         //! `examples/tune.rs` (see [`crate::params`] for the layout). Generated: edit by tuning.\n\
         \n\
         use crate::params::COUNT;\n\
         use crate::tapered::{S, s};\n\
         \n\
         /// The weights, laid out as `params.rs` says.\n\
         pub const WEIGHTS: [S; COUNT] = [\n",
    );
    for (i, v) in w.linear.iter().enumerate() {
        out += &format!(
            "    s({}, {}), // {}\n",
            v[0].round() as i32,
            v[1].round() as i32,
            weight_name(i)
        );
    }
    out += "];\n";
    let danger: Vec<String> = w
        .danger
        .iter()
        .map(|d| (d.round() as i32).to_string())
        .collect();
    out += &format!(
        "\n/// King danger weights, in [`crate::params::KING_DANGER_COUNT`]'s order.\n\
         pub const KING_DANGER: [i32; crate::params::KING_DANGER_COUNT] = [{}];\n",
        danger.join(", ")
    );
    fs::write(path, out).map_err(|e| format!("{path}: {e}"))
}

fn run() -> Result<(), String> {
    let o = options()?;
    let data = load(&o)?;
    if data.samples.len() < 100 {
        return Err("too few positions".into());
    }
    let initial = Weights {
        linear: WEIGHTS
            .iter()
            .map(|s| [f64::from(s.mg), f64::from(s.eg)])
            .collect(),
        danger: KING_DANGER.map(f64::from),
    };
    let (train, valid): (Vec<usize>, Vec<usize>) =
        (0..data.samples.len()).partition(|n| n % 10 != 0);
    let k = fit_k(&data, &initial, &train);
    eprintln!(
        "K = {k:.6} (1/{:.1} cp); loss train {:.6} validation {:.6}",
        1.0 / k,
        data.loss(&initial, k, &train),
        data.loss(&initial, k, &valid)
    );

    let mut w = initial.clone();
    let mut best = (data.loss(&w, k, &valid), w.clone(), 0);
    let (mut m, mut v) = (vec![[0.0; 2]; COUNT + KD], vec![[0.0; 2]; COUNT + KD]);
    let (b1, b2) = (0.9f64, 0.999f64);
    for epoch in 1..=o.epochs {
        // Entries COUNT.. hold the king danger weights' gradients (in the first of the pair).
        let mut grad = vec![[0.0f64; 2]; COUNT + KD];
        for &n in &train {
            let s = &data.samples[n];
            let p = sigmoid(k * data.eval(s, &w));
            let d = (p - f64::from(s.target)) * p * (1.0 - p) * k;
            let (dm, de) = (d * f64::from(s.mg_share), d * f64::from(s.eg_share));
            for &(i, c) in data.terms(s) {
                grad[i as usize][0] += dm * f64::from(c);
                grad[i as usize][1] += de * f64::from(c);
            }
            for (side, sign) in [(0, 1.0), (1, -1.0)] {
                let uses = &s.danger[side];
                let u = units(uses, &w.danger);
                let du = sign * (-(1.0 + u / 200.0) * dm - de / 6.0);
                for (j, &x) in uses.iter().enumerate() {
                    grad[COUNT + j][0] += du * f64::from(x);
                }
            }
        }
        let scale = 2.0 / train.len() as f64;
        for i in 0..COUNT + KD {
            for j in 0..2 {
                let (now, start) = if i < COUNT {
                    (w.linear[i][j], initial.linear[i][j])
                } else if j == 0 {
                    (w.danger[i - COUNT], initial.danger[i - COUNT])
                } else {
                    continue;
                };
                let g = grad[i][j] * scale + o.reg * (now - start);
                if g == 0.0 {
                    continue;
                }
                m[i][j] = b1 * m[i][j] + (1.0 - b1) * g;
                v[i][j] = b2 * v[i][j] + (1.0 - b2) * g * g;
                let mh = m[i][j] / (1.0 - b1.powi(epoch as i32));
                let vh = v[i][j] / (1.0 - b2.powi(epoch as i32));
                let step = o.lr * mh / (vh.sqrt() + 1e-12);
                if i < COUNT {
                    w.linear[i][j] -= step;
                } else {
                    w.danger[i - COUNT] -= step;
                }
            }
        }
        if epoch % 50 == 0 || epoch == o.epochs {
            let lv = data.loss(&w, k, &valid);
            if lv < best.0 {
                best = (lv, w.clone(), epoch);
            }
            eprintln!(
                "epoch {epoch}: train {:.6} validation {lv:.6}",
                data.loss(&w, k, &train)
            );
        }
    }
    let (lv, w, epoch) = best;
    eprintln!("best validation {lv:.6} at epoch {epoch}");
    let mut changes: Vec<(f64, usize)> = (0..COUNT)
        .map(|i| {
            let (a, b) = (w.linear[i], initial.linear[i]);
            ((a[0] - b[0]).abs() + (a[1] - b[1]).abs(), i)
        })
        .collect();
    changes.sort_by(|a, b| b.0.total_cmp(&a.0));
    for &(_, i) in changes.iter().take(25) {
        eprintln!(
            "  {:32} ({:5.0}, {:5.0}) -> ({:5.0}, {:5.0})",
            weight_name(i),
            initial.linear[i][0],
            initial.linear[i][1],
            w.linear[i][0],
            w.linear[i][1]
        );
    }
    eprintln!(
        "  king danger {:?} -> {:?}",
        initial.danger,
        w.danger.map(|d| d.round())
    );
    if let Some(path) = &o.write {
        write(path, &w)?;
        eprintln!("written to {path}");
    }
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tune: {e}");
            ExitCode::FAILURE
        }
    }
}
