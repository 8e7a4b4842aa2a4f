//! Trains the evaluation network (a development tool, not a test).
//!
//! Reads positions labelled by `crates/tabla-engine/scripts/nnue_data.py` (`FEN;score;result`,
//! Stockfish's score in centipawns for the side to move), holds out every 50th for validation, and
//! fits the network of `src/nnue.rs` (both hidden layers) in floating point as a correction added
//! to the hand-written evaluation, whose weight is fitted too. The loss is the squared difference
//! between the expected scores `sigmoid(value / K)` of the output and of Stockfish's score
//! (optionally mixed with the game's result by `--lambda`), minimised by Adam over shuffled
//! mini-batches on two threads, the learning rate falling to a tenth over the last half of the
//! epochs. The weights with the best
//! validation loss are rounded to integers and written out, and the rounded network's loss is
//! reported next to the hand-written evaluation's.
//!
//! ```text
//! cargo run --release -p tabla-engine --example nnue_train -- DATA... [--epochs 6]
//!     [--lr 0.005] [--batch 16384] [--k 91] [--lambda 0.0] [--alone] [--rescale]
//!     [--out crates/tabla-engine/src/net.nnue]
//! cargo run --release -p tabla-engine --example nnue_train -- DATA... --check NET [--k 91]
//! ```
//!
//! `--alone` trains the network without the hand-written evaluation, `--rescale` scales the output
//! so that the hand-written evaluation keeps a weight of one, and `--check` only reports a network
//! file's loss on all of DATA (for instance positions of
//! `crates/tabla-engine/scripts/tune_data.py`, turned to the side to move's view). The network in
//! the tree came from the defaults on 17.4 million positions of `nnue_data.py` scored again by
//! Stockfish's static evaluation (`nnue_relabel.py`); see docs/lab/performance-log.md ("Evaluation
//! network") for what the alternatives did.

use std::fs;
use std::io::Write;
use std::process::ExitCode;

use tabla::{Color, Position, Role};
use tabla_engine::tuning::{
    ALPHA_ONE, FILE_SIZE, HIDDEN, INPUTS, L2, Q2, Q3, QA, QB, SCALE, feature,
};

const H: usize = HIDDEN;

/// The loss compares expected scores `sigmoid(centipawns / K)`; `--k` sets it (a smaller K weighs
/// the balanced positions more).
static K: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(91);

fn k() -> f32 {
    K.load(std::sync::atomic::Ordering::Relaxed) as f32
}
const MAX_FEATURES: usize = 32;

/// One position: its inputs from the side to move's view, and its target.
struct Sample {
    features: [u16; MAX_FEATURES],
    len: u8,
    target: f32,
    /// The hand-written evaluation's value, which the network corrects.
    classical: f32,
}

/// The input seen from the other side: colours swapped, board flipped.
fn flip(f: u16) -> u16 {
    let (kind, sq) = (f / 64, f % 64);
    let (side, role) = (kind / 6, kind % 6);
    ((1 - side) * 6 + role) * 64 + (sq ^ 56)
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

fn read(path: &str, lambda: f32, out: &mut Vec<Sample>) -> Result<(), String> {
    use tabla_engine::tuning::hand_written;
    let text = fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    for (n, line) in text.lines().enumerate() {
        let mut parts = line.split(';');
        let (Some(fen), Some(score), Some(result)) = (parts.next(), parts.next(), parts.next())
        else {
            eprintln!("{path}:{}: not FEN;score;result", n + 1);
            continue;
        };
        let (Ok(pos), Ok(score), Ok(result)) = (
            Position::from_fen(fen),
            score.parse::<f32>(),
            result.parse::<f32>(),
        ) else {
            eprintln!("{path}:{}: unreadable", n + 1);
            continue;
        };
        let mut features = [0u16; MAX_FEATURES];
        let mut len = 0;
        let view = pos.turn();
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in pos.pieces(color, role) {
                    if len < MAX_FEATURES {
                        features[len] = feature(view, color, role, sq) as u16;
                        len += 1;
                    }
                }
            }
        }
        let target = (1.0 - lambda) * sigmoid(score / k()) + lambda * result;
        let classical = hand_written(&pos) as f32;
        out.push(Sample {
            features,
            len: len as u8,
            target,
            classical,
        });
    }
    Ok(())
}

/// The weights in floating point, by layer (`quantize` writes them in the file's order).
#[derive(Clone)]
struct Params {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
    v2: Vec<f32>,
    c2: Vec<f32>,
    v3: Vec<f32>,
    /// The weight of the hand-written evaluation.
    alpha: f32,
}

impl Params {
    fn zeros() -> Params {
        Params {
            w1: vec![0.0; INPUTS * H],
            b1: vec![0.0; H],
            w2: vec![0.0; 2 * H],
            b2: 0.0,
            v2: vec![0.0; L2 * 2 * H],
            c2: vec![0.0; L2],
            v3: vec![0.0; L2],
            alpha: 0.0,
        }
    }

    fn init(seed: u64) -> Params {
        let mut state = seed;
        let mut uniform = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f32 / (1u64 << 53) as f32 * 2.0 - 1.0
        };
        let mut p = Params::zeros();
        p.w1.iter_mut().for_each(|w| *w = uniform() * 0.1);
        p.b1.iter_mut().for_each(|w| *w = 0.25 + uniform() * 0.1);
        p.v2.iter_mut().for_each(|w| *w = uniform() * 0.1);
        p.c2.iter_mut().for_each(|w| *w = 0.25 + uniform() * 0.1);
        // The output starts as the hand-written evaluation alone.
        p.alpha = 1.0;
        p
    }

    fn all_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.w1
            .iter_mut()
            .chain(self.b1.iter_mut())
            .chain(self.w2.iter_mut())
            .chain(self.v2.iter_mut())
            .chain(self.c2.iter_mut())
            .chain(self.v3.iter_mut())
            .chain(std::iter::once(&mut self.b2))
            .chain(std::iter::once(&mut self.alpha))
    }

    fn all(&self) -> impl Iterator<Item = &f32> {
        self.w1
            .iter()
            .chain(self.b1.iter())
            .chain(self.w2.iter())
            .chain(self.v2.iter())
            .chain(self.c2.iter())
            .chain(self.v3.iter())
            .chain(std::iter::once(&self.b2))
            .chain(std::iter::once(&self.alpha))
    }
}

/// The output logit of one sample, with the first layer's two halves before clipping.
fn forward(p: &Params, s: &Sample, acc: &mut [[f32; H]; 2]) -> f32 {
    acc[0].copy_from_slice(&p.b1);
    acc[1].copy_from_slice(&p.b1);
    for &f in &s.features[..s.len as usize] {
        let own = &p.w1[f as usize * H..][..H];
        let other = &p.w1[flip(f) as usize * H..][..H];
        acc[0].iter_mut().zip(own).for_each(|(a, w)| *a += w);
        acc[1].iter_mut().zip(other).for_each(|(a, w)| *a += w);
    }
    let mut out = p.b2 + p.alpha * s.classical / SCALE as f32;
    for (half, w2) in acc.iter().zip(p.w2.chunks_exact(H)) {
        out += half
            .iter()
            .zip(w2)
            .map(|(a, w)| a.clamp(0.0, 1.0) * w)
            .sum::<f32>();
    }
    let mut z = [0f32; L2];
    second(p, acc, &mut z);
    out + z
        .iter()
        .zip(&p.v3)
        .map(|(z, w)| z.clamp(0.0, 1.0) * w)
        .sum::<f32>()
}

/// The second hidden layer's inputs before clipping.
fn second(p: &Params, acc: &[[f32; H]; 2], z: &mut [f32; L2]) {
    for ((z, row), c) in z.iter_mut().zip(p.v2.chunks_exact(2 * H)).zip(&p.c2) {
        *z = c + acc[0]
            .iter()
            .chain(acc[1].iter())
            .zip(row)
            .map(|(a, w)| a.clamp(0.0, 1.0) * w)
            .sum::<f32>();
    }
}

/// Adds the gradient of `samples`' summed loss to `g`, returning the summed loss.
fn gradient(p: &Params, samples: &[&Sample], g: &mut Params) -> f64 {
    let mut acc = [[0f32; H]; 2];
    let mut loss = 0.0;
    for s in samples {
        let out = forward(p, s, &mut acc);
        let y = sigmoid(out * SCALE as f32 / k());
        let err = y - s.target;
        loss += f64::from(err * err);
        let d = 2.0 * err * y * (1.0 - y) * SCALE as f32 / k();
        g.b2 += d;
        g.alpha += d * s.classical / SCALE as f32;
        let mut z = [0f32; L2];
        second(p, &acc, &mut z);
        let mut dz = [0f32; L2];
        for (((dz, z), v3), (gv3, gc2)) in dz
            .iter_mut()
            .zip(&z)
            .zip(&p.v3)
            .zip(g.v3.iter_mut().zip(g.c2.iter_mut()))
        {
            *gv3 += d * z.clamp(0.0, 1.0);
            *dz = if *z > 0.0 && *z < 1.0 { d * v3 } else { 0.0 };
            *gc2 += *dz;
        }
        let mut da = [0f32; 2 * H];
        for ((dz, row), grow) in dz
            .iter()
            .zip(p.v2.chunks_exact(2 * H))
            .zip(g.v2.chunks_exact_mut(2 * H))
        {
            if *dz == 0.0 {
                continue;
            }
            for (((a, w), gw), da) in acc[0]
                .iter()
                .chain(acc[1].iter())
                .zip(row)
                .zip(grow.iter_mut())
                .zip(da.iter_mut())
            {
                *gw += dz * a.clamp(0.0, 1.0);
                *da += dz * w;
            }
        }
        let mut dh = [[0f32; H]; 2];
        for (side, (((half, dh), w2), gw2)) in acc
            .iter()
            .zip(dh.iter_mut())
            .zip(p.w2.chunks_exact(H))
            .zip(g.w2.chunks_exact_mut(H))
            .enumerate()
        {
            for i in 0..H {
                let a = half[i];
                gw2[i] += d * a.clamp(0.0, 1.0);
                dh[i] = if a > 0.0 && a < 1.0 {
                    d * w2[i] + da[side * H + i]
                } else {
                    0.0
                };
            }
            g.b1.iter_mut().zip(dh.iter()).for_each(|(b, d)| *b += d);
        }
        for &f in &s.features[..s.len as usize] {
            let own = &mut g.w1[f as usize * H..][..H];
            own.iter_mut().zip(&dh[0]).for_each(|(w, d)| *w += d);
            let other = &mut g.w1[flip(f) as usize * H..][..H];
            other.iter_mut().zip(&dh[1]).for_each(|(w, d)| *w += d);
        }
    }
    loss
}

fn validation_loss(p: &Params, samples: &[Sample]) -> f64 {
    let mut acc = [[0f32; H]; 2];
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let e = sigmoid(forward(p, s, &mut acc) * SCALE as f32 / k()) - s.target;
            f64::from(e * e)
        })
        .sum();
    sum / samples.len().max(1) as f64
}

fn quantize(p: &Params) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(FILE_SIZE);
    bytes.extend_from_slice(b"TNN3");
    bytes.extend_from_slice(&(H as u32).to_le_bytes());
    bytes.extend_from_slice(&(L2 as u32).to_le_bytes());
    let mut q = |x: f32, scale: i32| {
        let w = (x * scale as f32).round().clamp(-32767.0, 32767.0) as i16;
        bytes.extend_from_slice(&w.to_le_bytes());
    };
    p.w1.iter().chain(&p.b1).for_each(|&w| q(w, QA));
    p.w2.iter().for_each(|&w| q(w, QB));
    p.v2.iter().for_each(|&w| q(w, Q2));
    p.v3.iter().for_each(|&w| q(w, Q3));
    let mut int = |x: f32| bytes.extend_from_slice(&(x.round() as i32).to_le_bytes());
    p.c2.iter().for_each(|&c| int(c * (QA * Q2) as f32));
    int(p.b2 * (QA * QB) as f32);
    int(p.alpha * ALPHA_ONE as f32);
    bytes
}

fn classical_loss(samples: &[Sample]) -> f64 {
    samples
        .iter()
        .map(|s| f64::from((sigmoid(s.classical / k()) - s.target).powi(2)))
        .sum::<f64>()
        / samples.len().max(1) as f64
}

/// Prints the loss of `p` on `samples` against the hand-written evaluation's, and the scale of
/// their values against the target's.
fn report(p: &Params, samples: &[Sample]) {
    let mut acc = [[0f32; H]; 2];
    let (mut net_abs, mut classical_abs, mut target_abs) = (0.0f64, 0.0f64, 0.0f64);
    for s in samples {
        net_abs += f64::from(forward(p, s, &mut acc).abs()) * f64::from(SCALE);
        classical_abs += f64::from(s.classical.abs());
        let t = s.target.clamp(1e-6, 1.0 - 1e-6);
        target_abs += f64::from((t / (1.0 - t)).ln().abs() * k());
    }
    let n = samples.len().max(1) as f64;
    eprintln!("weight of the hand-written evaluation {:.3}", p.alpha);
    eprintln!(
        "rounded network: loss {:.6} (hand-written {:.6}); mean |value| network {:.0}, \
         hand-written {:.0}, target {:.0}",
        validation_loss(p, samples),
        classical_loss(samples),
        net_abs / n,
        classical_abs / n,
        target_abs / n
    );
}

/// The weights of a network file in floating point, or why they cannot be read.
fn dequantize(bytes: &[u8]) -> Result<Params, String> {
    tabla_engine::tuning::Network::from_bytes(bytes).map_err(|e| e.to_string())?;
    let ints_at = FILE_SIZE - 4 * (L2 + 2);
    let mut words = bytes[12..ints_at]
        .chunks_exact(2)
        .map(|c| f32::from(i16::from_le_bytes([c[0], c[1]])));
    let mut p = Params::zeros();
    let mut read = |ws: &mut [f32], scale: i32| {
        for w in ws {
            *w = words.next().unwrap_or(0.0) / scale as f32;
        }
    };
    read(&mut p.w1, QA);
    read(&mut p.b1, QA);
    read(&mut p.w2, QB);
    read(&mut p.v2, Q2);
    read(&mut p.v3, Q3);
    let mut ints = bytes[ints_at..]
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f32);
    for c in p.c2.iter_mut() {
        *c = ints.next().unwrap_or(0.0) / (QA * Q2) as f32;
    }
    p.b2 = ints.next().unwrap_or(0.0) / (QA * QB) as f32;
    p.alpha = ints.next().unwrap_or(0.0) / ALPHA_ONE as f32;
    Ok(p)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut files = Vec::new();
    let mut epochs = 6usize;
    let mut lr = 0.005f32;
    let mut batch = 16384usize;
    let mut lambda = 0.0f32;
    let mut out = String::from("crates/tabla-engine/src/net.nnue");
    let mut check = None;
    let mut alone = false;
    let mut rescale = false;
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--epochs" => epochs = value.parse().unwrap_or(epochs),
            "--lr" => lr = value.parse().unwrap_or(lr),
            "--batch" => batch = value.parse().unwrap_or(batch),
            "--lambda" => lambda = value.parse().unwrap_or(lambda),
            "--out" => out = value,
            "--check" => check = Some(value),
            "--rescale" => {
                // Scale the output so that the hand-written evaluation keeps a weight of one
                // (the search's margins were set in its units).
                rescale = true;
                i += 1;
                continue;
            }
            "--alone" => {
                // The network without the hand-written evaluation.
                alone = true;
                i += 1;
                continue;
            }
            "--k" => K.store(
                value.parse().unwrap_or(91),
                std::sync::atomic::Ordering::Relaxed,
            ),
            file => {
                files.push(file.to_string());
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    let mut all = Vec::new();
    for file in &files {
        if let Err(e) = read(file, lambda, &mut all) {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    }
    if let Some(path) = check {
        // Only compare a network file with the hand-written evaluation on all the positions.
        let Ok(bytes) = fs::read(&path) else {
            eprintln!("{path}: unreadable");
            return ExitCode::FAILURE;
        };
        return match dequantize(&bytes) {
            Ok(p) => {
                report(&p, &all);
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("{path}: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let (mut train, valid): (Vec<Sample>, Vec<Sample>) = {
        let mut train = Vec::new();
        let mut valid = Vec::new();
        for (n, s) in all.into_iter().enumerate() {
            if n % 50 == 0 {
                valid.push(s);
            } else {
                train.push(s);
            }
        }
        (train, valid)
    };
    eprintln!(
        "{} training, {} validation positions",
        train.len(),
        valid.len()
    );
    eprintln!(
        "validation loss of the hand-written evaluation: {:.6}",
        classical_loss(&valid)
    );
    let mut p = Params::init(0x9e37_79b9_7f4a_7c15);
    if alone {
        p.alpha = 0.0;
    }
    let mut m = Params::zeros();
    let mut v = Params::zeros();
    let mut best = (f64::MAX, p.clone());
    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut step = 0i32;
    let threads = 2;
    for epoch in 0..epochs {
        // Fisher-Yates with a xorshift generator.
        for k in (1..train.len()).rev() {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            train.swap(k, (rng % (k as u64 + 1)) as usize);
        }
        let half = epochs as f32 / 2.0;
        let rate = if (epoch as f32) < half {
            lr
        } else {
            lr * 0.1f32.powf((epoch as f32 + 1.0 - half) / half)
        };
        let mut train_loss = 0.0;
        for chunk in train.chunks(batch) {
            let refs: Vec<&Sample> = chunk.iter().collect();
            let per = refs.len().div_ceil(threads);
            let results: Vec<(f64, Params)> = std::thread::scope(|scope| {
                let handles: Vec<_> = refs
                    .chunks(per)
                    .map(|part| {
                        let p = &p;
                        scope.spawn(move || {
                            let mut g = Params::zeros();
                            let loss = gradient(p, part, &mut g);
                            (loss, g)
                        })
                    })
                    .collect();
                handles.into_iter().filter_map(|h| h.join().ok()).collect()
            });
            let mut g = Params::zeros();
            for (loss, part) in &results {
                train_loss += loss;
                g.all_mut().zip(part.all()).for_each(|(a, b)| *a += b);
            }
            step += 1;
            let n = chunk.len() as f32;
            let (b1, b2) = (0.9f32, 0.999f32);
            let c1 = 1.0 - b1.powi(step);
            let c2 = 1.0 - b2.powi(step);
            for (((w, g), m), v) in p.all_mut().zip(g.all()).zip(m.all_mut()).zip(v.all_mut()) {
                let g = g / n;
                *m = b1 * *m + (1.0 - b1) * g;
                *v = b2 * *v + (1.0 - b2) * g * g;
                *w -= rate * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
            }
            // Keep the integer weights in range: first-layer sums of 32 inputs fit in 16 bits.
            p.w1.iter_mut().for_each(|w| *w = w.clamp(-1.98, 1.98));
            p.w2.iter_mut().for_each(|w| *w = w.clamp(-127.0, 127.0));
            // The second layer's weights within what 16 bits hold at their scales (Q2, Q3).
            p.v2.iter_mut().for_each(|w| *w = w.clamp(-31.0, 31.0));
            p.v3.iter_mut().for_each(|w| *w = w.clamp(-31.0, 31.0));
            if alone {
                p.alpha = 0.0;
            }
        }
        let vl = validation_loss(&p, &valid);
        eprintln!(
            "epoch {:>2}: lr {rate:.6} train {:.6} validation {vl:.6}",
            epoch + 1,
            train_loss / train.len() as f64
        );
        if vl < best.0 {
            best = (vl, p.clone());
        }
    }
    let (best_loss, mut best) = best;
    if rescale && best.alpha > 0.0 {
        let f = 1.0 / best.alpha;
        best.w2.iter_mut().chain(&mut best.v3).for_each(|w| *w *= f);
        best.b2 *= f;
        best.alpha = 1.0;
    }
    let bytes = quantize(&best);
    match dequantize(&bytes) {
        Ok(p) => report(&p, &valid),
        Err(e) => {
            eprintln!("the rounded network does not read back: {e}");
            return ExitCode::FAILURE;
        }
    }
    match fs::File::create(&out).and_then(|mut f| f.write_all(&bytes)) {
        Ok(()) => {
            eprintln!("wrote {out} (validation loss {best_loss:.6})");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{out}: {e}");
            ExitCode::FAILURE
        }
    }
}
