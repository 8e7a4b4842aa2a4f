//! Builds the front end in `web/` (npm + esbuild) into `OUT_DIR/web` and writes `assets.rs`, a
//! table of the built files embedded with `include_bytes!`, so the binary serves them from memory.
//!
//! `npm ci` runs only when `web/package-lock.json` changed since the last install (a stamp in
//! `web/node_modules`); the bundle is rebuilt when anything in `web/` changed. Without npm the
//! binary still builds, with a page that says how to get the front end (a warning says so too).

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The stamp `npm ci` leaves behind: the hash of the lock file it installed.
const STAMP: &str = "node_modules/.tabla-lock-hash";

fn main() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let web = manifest.join("../../web");
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR")).join("web");
    for watched in [
        "src",
        "static",
        "package.json",
        "package-lock.json",
        "build.mjs",
    ] {
        println!("cargo:rerun-if-changed={}", web.join(watched).display());
    }
    println!("cargo:rerun-if-env-changed=TABLA_WEB_SKIP_FRONTEND");

    let _ = fs::remove_dir_all(&out);
    fs::create_dir_all(&out).expect("create OUT_DIR/web");
    let skip = env::var_os("TABLA_WEB_SKIP_FRONTEND").is_some_and(|v| !v.is_empty());
    let built = if skip {
        Err("TABLA_WEB_SKIP_FRONTEND is set".to_owned())
    } else {
        build_front_end(&web, &out)
    };
    if let Err(why) = built {
        println!(
            "cargo:warning=tabla-web: front end not built ({why}); serving a placeholder page"
        );
        let _ = fs::remove_dir_all(&out);
        fs::create_dir_all(&out).expect("create OUT_DIR/web");
        fs::write(out.join("index.html"), placeholder(&why)).expect("write placeholder");
    }
    write_table(&out);
}

/// `npm ci` when needed, then `npm run build -- <out>`, with a lock so that two cargo processes
/// building at once do not install into the same `node_modules` together.
fn build_front_end(web: &Path, out: &Path) -> Result<(), String> {
    if !web.join("package.json").exists() {
        return Err(format!("no {}", web.join("package.json").display()));
    }
    let npm = if cfg!(windows) { "npm.cmd" } else { "npm" };
    if Command::new(npm).arg("--version").output().is_err() {
        return Err("npm not found: install Node.js 20 or later with npm".to_owned());
    }
    let lock_file = fs::File::create(web.join(".build.lock")).map_err(|e| e.to_string())?;
    lock_file.lock().map_err(|e| e.to_string())?;

    let lock = fs::read(web.join("package-lock.json")).map_err(|e| e.to_string())?;
    let hash = format!("{:016x}", fnv1a(&lock));
    let installed = fs::read_to_string(web.join(STAMP)).unwrap_or_default();
    if installed.trim() != hash {
        run(Command::new(npm)
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(web))?;
        fs::write(web.join(STAMP), &hash).map_err(|e| e.to_string())?;
    }
    run(Command::new(npm)
        .args(["run", "--silent", "build", "--"])
        .arg(out)
        .current_dir(web))?;
    if !out.join("index.html").exists() {
        return Err("the build wrote no index.html".to_owned());
    }
    Ok(())
}

fn run(cmd: &mut Command) -> Result<(), String> {
    let output = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
    if output.status.success() {
        return Ok(());
    }
    let mut why = format!("{cmd:?} failed ({})", output.status);
    for text in [&output.stdout, &output.stderr] {
        let text = String::from_utf8_lossy(text);
        for line in text.lines().filter(|l| !l.trim().is_empty()).take(20) {
            why.push_str("\n  ");
            why.push_str(line);
        }
    }
    Err(why)
}

/// FNV-1a, 64 bits: enough to notice a changed lock file.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// `assets.rs`: every file under `out` as `(path, media type, bytes)`, sorted by path.
fn write_table(out: &Path) {
    let mut files = Vec::new();
    collect(out, out, &mut files);
    files.sort();
    let mut code =
        String::from("/// The built front end: (path, media type, bytes), sorted by path.\n");
    code.push_str("pub static ASSETS: &[(&str, &str, &[u8])] = &[\n");
    for (name, path) in &files {
        writeln!(
            code,
            "    ({name:?}, {:?}, include_bytes!({:?})),",
            media_type(name),
            path.display().to_string()
        )
        .expect("write to a String");
    }
    code.push_str("];\n");
    let dest = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR")).join("assets.rs");
    fs::write(dest, code).expect("write assets.rs");
}

fn collect(root: &Path, dir: &Path, files: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(root, &path, files);
        } else if let Ok(rel) = path.strip_prefix(root) {
            let name = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            files.push((name, path));
        }
    }
}

fn media_type(name: &str) -> &'static str {
    match name.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "json" => "application/json",
        "pgn" => "application/x-chess-pgn",
        "txt" => "text/plain; charset=utf-8",
        "map" => "application/json",
        _ => "application/octet-stream",
    }
}

fn placeholder(why: &str) -> String {
    let why = why
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    format!(
        "<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><title>tabla</title>\
         <h1>tabla</h1><p>The front end was not built into this binary. The JSON API under \
         <code>/api/</code> works. Install Node.js 20+ with npm and rebuild \
         (<code>cargo build --release -p tabla-cli</code>).</p><pre>{why}</pre></html>\n"
    )
}
