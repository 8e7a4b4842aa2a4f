//! Names the engine's build by its source: `TABLA_ENGINE_SOURCE`, a CRC-32 of every file under
//! `src/` (paths and contents, line endings as `\n`), which [`uci::ENGINE_NAME`] carries. Any
//! change to the search, the evaluation or the network changes the name, so the review's
//! evaluation cache, keyed by the engine's name, never serves evaluations of another build.

use std::fs;
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn main() {
    let src = Path::new("src");
    println!("cargo:rerun-if-changed=src");
    let mut paths = Vec::new();
    files(src, &mut paths);
    paths.sort();
    let mut hasher = crc32fast::Hasher::new();
    for path in &paths {
        let Ok(bytes) = fs::read(path) else {
            continue;
        };
        let name = path
            .strip_prefix(src)
            .unwrap_or(path)
            .to_string_lossy()
            .replace('\\', "/");
        hasher.update(name.as_bytes());
        hasher.update(&[0]);
        let text: Vec<u8> = bytes.into_iter().filter(|&b| b != b'\r').collect();
        hasher.update(&(text.len() as u64).to_le_bytes());
        hasher.update(&text);
    }
    println!(
        "cargo:rustc-env=TABLA_ENGINE_SOURCE={:08x}",
        hasher.finalize()
    );
}
