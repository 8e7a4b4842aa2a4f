//! `tabla serve` through the real binary: a `--db` that is not a game database stops it at once,
//! with exit status 2 and a message saying how to make one (in a build without the database, how
//! to build one with it) (the server's routes are tested in
//! process by tabla-web's tests, and in a browser by web/tests).

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn serve_refuses_a_db_that_is_not_a_database() {
    // A directory without tabla-db.json.
    let dir = common::testdata_dir().join("pgn");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabla"))
        .args(["serve", "--port", "0", "--db"])
        .arg(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tabla binary runs");
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for tabla") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("tabla serve --db {} kept running", dir.display());
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut stderr = String::new();
    if let Some(mut pipe) = child.stderr.take() {
        use std::io::Read;
        pipe.read_to_string(&mut stderr).expect("stderr");
    }
    assert_eq!(status.code(), Some(2), "{stderr}");
    if cfg!(feature = "db") {
        assert!(stderr.contains("not a tabla database"), "{stderr}");
        assert!(stderr.contains("tabla db import"), "{stderr}");
    } else {
        // A build without the database says how to get one.
        assert!(stderr.contains("--features db"), "{stderr}");
    }
    assert!(!stderr.contains("listening"), "{stderr}");
}
