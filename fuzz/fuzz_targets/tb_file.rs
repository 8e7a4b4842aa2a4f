//! Any bytes as an endgame table file (tabla-endgame's `.tbm`): opening and probing must give
//! values or a typed error, never a panic or a read outside the file. The first byte chooses
//! whether the checksums are first made right (so that changed bytes reach the block decoder
//! and zstd) or left as they are (so that the checks themselves are exercised); the rest is the
//! file.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&choice, file)) = data.split_first() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("tabla-fuzz-tb-{}", std::process::id()));
    if std::fs::create_dir_all(&dir).is_err() {
        return;
    }
    tabla_endgame::fuzz_table_file(&dir.join("fuzz.tbm"), file, choice & 1 == 1);
});
