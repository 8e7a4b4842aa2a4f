//! `--batch FILE|-`: the lines of a file, or of standard input for `-`.

use std::io::{self, BufRead};
use std::path::Path;

/// The batch input named on the command line, line by line.
pub fn input(source: &str) -> anyhow::Result<Box<dyn BufRead>> {
    if source == "-" {
        return Ok(Box::new(std::io::stdin().lock()));
    }
    let path = Path::new(source);
    let file = crate::input::Named::new(crate::input::open(path, "a file of FENs")?, path);
    Ok(Box::new(std::io::BufReader::new(file)))
}

/// The lines of a batch input, without their `\n` or `\r\n`: each `Ok(text)`, or, for a line
/// that is not UTF-8, `Err(text)` with its bad bytes replaced (U+FFFD) for the output line that
/// reports it, so that one such line does not end the batch. An error reading the input ends it.
pub fn lines(reader: impl BufRead) -> impl Iterator<Item = io::Result<Result<String, String>>> {
    reader.split(b'\n').map(|line| {
        let mut bytes = line?;
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        Ok(
            String::from_utf8(bytes)
                .map_err(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
        )
    })
}

/// The output line for an input line that is not UTF-8 (`text`: the line as [`lines`] gives it).
pub fn not_utf8(text: &str) -> String {
    format!("{text};error: the line is not UTF-8 text")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_that_is_not_utf8_is_reported_and_the_batch_goes_on() {
        let input: &[u8] = b"8/8 w\n\xff\xfe bad\r\nlast\r\n";
        let got: Vec<Result<String, String>> = lines(input)
            .collect::<io::Result<_>>()
            .expect("read from memory");
        assert_eq!(
            got,
            [
                Ok("8/8 w".to_owned()),
                Err("\u{fffd}\u{fffd} bad".to_owned()),
                Ok("last".to_owned())
            ]
        );
        assert_eq!(
            not_utf8("\u{fffd} bad"),
            "\u{fffd} bad;error: the line is not UTF-8 text"
        );
    }
}
