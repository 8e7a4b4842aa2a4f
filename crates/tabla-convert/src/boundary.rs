//! Where the games owned by a run of pzstd frames begin: the first game start at or after a
//! frame's first byte, by tabla-pgn's rule for cutting a file ([`tabla_pgn::find_game_start`]).
//!
//! The rule looks back to the line before a candidate, which may lie in the frame before, and
//! forward to the candidate, which may lie in a later frame. Frames do not say how much text
//! they hold, so the text before frame `k` is not addressable; the search runs on frame `k - 1`
//! (the context) followed by frames `k`, `k + 1`... (ahead), as one in-memory window.
//!
//! When the window does not start at the input's start, the context's first line (which began
//! in an unseen frame) is dropped and the answer must not change whether the unseen text ended
//! with a tag line or not (tried with one sentinel line of each kind); the line holding the
//! frame's first byte must also start inside the window. If it could change, more context is taken (up to
//! [`MAX_CONTEXT`] bytes); past that, or when no game start is found within [`MAX_AHEAD`]
//! bytes, the boundary is [`Boundary::Undecided`] and the cut moves to the next frame's
//! boundary. Every cut is then a true game start, so each game is read by exactly one range.

use crate::ConvertError;
use crate::source::FrameFile;
use std::io::{self, Read, Seek, SeekFrom};

/// Context bytes the search may take before giving up on a boundary.
pub(crate) const MAX_CONTEXT: usize = 64 << 20;
/// Bytes the search may look ahead before giving up on a boundary.
pub(crate) const MAX_AHEAD: usize = 64 << 20;

/// A line that is not a tag line, and one that is: the two things unseen context can end with.
const SENTINEL_OTHER: &[u8] = b"x\n";
const SENTINEL_TAG: &[u8] = b"[X \"\"]\n";

/// The answer for one frame boundary.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Boundary {
    /// The first game start at or after the boundary: frame index (into the frame table) and
    /// offset in its decoded text.
    Start { frame: usize, offset: u64 },
    /// No game starts between the boundary and the end of the input.
    End,
    /// Not decidable within the limits: cut at the next boundary instead.
    Undecided,
}

/// The first game start at or after the first byte of frame `k`.
pub(crate) fn boundary(file: &mut FrameFile, k: usize) -> Result<Boundary, ConvertError> {
    if k == 0 {
        return Ok(Boundary::Start {
            frame: 0,
            offset: 0,
        });
    }
    if k >= file.frames.len() {
        return Ok(Boundary::End);
    }
    let mut first = k - 1;
    let mut context = Vec::new();
    file.decode(first, &mut context)?;
    let mut ahead = Vec::new();
    file.decode(k, &mut ahead)?;
    // Where each frame of `ahead` starts in it.
    let mut ahead_frames = vec![(k, 0usize)];
    let mut scratch = Vec::new();
    loop {
        let exact = first == 0;
        let found;
        let decided;
        if exact {
            found = find(&[b"", &context, &ahead], context.len());
            decided = true;
        } else {
            // The context's first line began in an unseen frame: only the lines after it are
            // known, and the sentinels stand for everything before them.
            let known = match memchr::memchr(b'\n', &context) {
                Some(i) => &context[i + 1..],
                None => &[][..],
            };
            found = find(&[SENTINEL_OTHER, known, &ahead], known.len());
            let tag = find(&[SENTINEL_TAG, known, &ahead], known.len());
            // Without a line end in the context, the line holding the boundary began unseen.
            decided = found == tag && memchr::memchr(b'\n', &context).is_some();
        }
        if !decided {
            if context.len() >= MAX_CONTEXT {
                return Ok(Boundary::Undecided);
            }
            first -= 1;
            file.decode(first, &mut scratch)?;
            scratch.extend_from_slice(&context);
            std::mem::swap(&mut scratch, &mut context);
            continue;
        }
        match found {
            Some(at) => {
                let at = at as usize;
                let (frame, start) = ahead_frames
                    .iter()
                    .rev()
                    .find(|(_, start)| *start <= at)
                    .copied()
                    .unwrap_or((k, 0));
                return Ok(Boundary::Start {
                    frame,
                    offset: (at - start) as u64,
                });
            }
            None => {
                let next = ahead_frames.last().map_or(k, |(f, _)| f + 1);
                if next >= file.frames.len() {
                    return Ok(Boundary::End);
                }
                if ahead.len() >= MAX_AHEAD {
                    return Ok(Boundary::Undecided);
                }
                file.decode(next, &mut scratch)?;
                ahead_frames.push((next, ahead.len()));
                ahead.extend_from_slice(&scratch);
            }
        }
    }
}

/// [`tabla_pgn::find_game_start`] over `parts` laid end to end, from `context_len` bytes after
/// the first part: the offset found, counted from there.
fn find(parts: &[&[u8]; 3], context_len: usize) -> Option<u64> {
    let from = (parts[0].len() + context_len) as u64;
    let mut window = Concat {
        parts: *parts,
        pos: 0,
    };
    // Reading from memory cannot fail.
    tabla_pgn::find_game_start(&mut window, from)
        .ok()
        .flatten()
        .map(|at| at - from)
}

/// Three byte slices read as one seekable input.
struct Concat<'a> {
    parts: [&'a [u8]; 3],
    pos: u64,
}

impl Concat<'_> {
    fn len(&self) -> u64 {
        self.parts.iter().map(|p| p.len() as u64).sum()
    }
}

impl Read for Concat<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut at = self.pos;
        for part in self.parts {
            let len = part.len() as u64;
            if at < len {
                let rest = &part[at as usize..];
                let n = rest.len().min(buf.len());
                buf[..n].copy_from_slice(&rest[..n]);
                self.pos += n as u64;
                return Ok(n);
            }
            at -= len;
        }
        Ok(0)
    }
}

impl Seek for Concat<'_> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let target = match to {
            SeekFrom::Start(n) => Some(n),
            SeekFrom::End(d) => self.len().checked_add_signed(d),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
        };
        self.pos = target.ok_or_else(|| io::Error::from(io::ErrorKind::InvalidInput))?;
        Ok(self.pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concat_reads_like_one_buffer() {
        let whole = b"[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n";
        for cut1 in 0..whole.len() {
            for cut2 in cut1..whole.len() {
                let parts = [&whole[..cut1], &whole[cut1..cut2], &whole[cut2..]];
                for from in 0..whole.len() as u64 {
                    let mut joined = Concat { parts, pos: 0 };
                    let mut plain = io::Cursor::new(&whole[..]);
                    assert_eq!(
                        tabla_pgn::find_game_start(&mut joined, from).ok(),
                        tabla_pgn::find_game_start(&mut plain, from).ok(),
                        "cut at {cut1}, {cut2}, from {from}"
                    );
                }
            }
        }
    }

    #[test]
    fn sentinels_tell_whether_unseen_context_matters() {
        // After a blank line the first tag line starts a game whatever came before...
        let context: &[u8] = b"1. e4 *\n\n";
        let ahead: &[u8] = b"[Event \"b\"]\n\n1. d4 *\n";
        let other = find(&[SENTINEL_OTHER, context, ahead], context.len());
        let tag = find(&[SENTINEL_TAG, context, ahead], context.len());
        assert_eq!((other, tag), (Some(0), Some(0)));
        // ...but a tag line after only blank lines continues the tag section before them when
        // that section is unseen.
        let context: &[u8] = b"\n\n";
        let other = find(&[SENTINEL_OTHER, context, ahead], context.len());
        let tag = find(&[SENTINEL_TAG, context, ahead], context.len());
        assert_eq!(other, Some(0));
        assert_ne!(other, tag);
    }
}
