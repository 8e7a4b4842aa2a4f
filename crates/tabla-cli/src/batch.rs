//! `--batch FILE|-`: the lines of a file, or of standard input for `-`.

use anyhow::Context;
use std::io::BufRead;

/// The batch input named on the command line, line by line.
pub fn input(source: &str) -> anyhow::Result<Box<dyn BufRead>> {
    if source == "-" {
        return Ok(Box::new(std::io::stdin().lock()));
    }
    let f =
        std::fs::File::open(source).with_context(|| format!("cannot open batch file {source}"))?;
    Ok(Box::new(std::io::BufReader::new(f)))
}
