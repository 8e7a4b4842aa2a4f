//! Opening the files a command reads: every error, on opening or later while reading, names the
//! file (a directory opens on Linux and fails only at the first read, with no name).

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// Opens `path` for reading, refusing a directory: `what` says what was expected (`a PGN
/// file`), for the message `cannot open DIR: a directory, not a PGN file`. Wrap the file in
/// [`Named`] for errors while reading that name it too.
pub fn open(path: &Path, what: &str) -> anyhow::Result<File> {
    let file =
        File::open(path).map_err(|e| anyhow::anyhow!("cannot open {}: {e}", path.display()))?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        anyhow::bail!("cannot open {}: a directory, not {what}", path.display());
    }
    Ok(file)
}

/// A reader whose errors say `cannot read PATH: <error>` (of the same kind, so that a closed
/// pipe is still seen as one).
pub struct Named<R> {
    inner: R,
    name: String,
}

impl<R: Read> Named<R> {
    /// `inner`, read from `path`.
    pub fn new(inner: R, path: &Path) -> Named<R> {
        Named {
            inner,
            name: path.display().to_string(),
        }
    }
}

impl<R: Read> Read for Named<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner
            .read(buf)
            .map_err(|e| io::Error::new(e.kind(), format!("cannot read {}: {e}", self.name)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_path() {
        let dir = std::env::temp_dir();
        let err = open(&dir, "a PGN file").expect_err("a directory is refused");
        assert_eq!(
            err.to_string(),
            format!("cannot open {}: a directory, not a PGN file", dir.display())
        );
        let missing = dir.join("tabla-no-such-file.pgn");
        let err = open(&missing, "a PGN file").expect_err("no such file");
        assert!(
            err.to_string()
                .starts_with(&format!("cannot open {}: ", missing.display())),
            "{err}"
        );
        // A directory read as a file (as `File::open` gives it) fails at the first read.
        let mut named = Named::new(File::open(&dir).expect("opens"), &dir);
        let err = named
            .read(&mut [0; 8])
            .expect_err("a directory is not read");
        assert_eq!(err.kind(), io::ErrorKind::IsADirectory);
        assert!(
            err.to_string()
                .starts_with(&format!("cannot read {}: ", dir.display())),
            "{err}"
        );
    }
}
