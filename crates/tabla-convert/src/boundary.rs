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

/// What the text of one frame alone says about where its games begin.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Local {
    /// A game start at this offset of the frame's text, whatever the frames before hold.
    Start(u64),
    /// More of the frame's text is needed to tell.
    More,
    /// The frame alone cannot tell: [`boundary`] decides, with context and further frames.
    Unknown,
}

/// The first place in the text of frame `k` (`complete`: `text` is the whole frame, else a
/// prefix of it) that is a game start whatever the frames before hold.
///
/// The frame's first line may have begun in the frame before, so the search starts after it.
/// All the text before can change is the kind of the last line before (a tag line or not: a
/// tag line after blank lines continues a tag section), so the answer is the first place that
/// is a game start under both, each stood for by a sentinel line. Both ranges that meet at
/// the frame ask this of the same text, so they agree on the cut; the games between the range
/// before's start and this one are that range's.
pub(crate) fn local_start(k: usize, text: &[u8], complete: bool) -> Local {
    if k == 0 {
        return Local::Start(0);
    }
    let more = if complete {
        Local::Unknown
    } else {
        Local::More
    };
    let Some(newline) = memchr::memchr(b'\n', text) else {
        return more;
    };
    // Whole lines only: the frame's last line may go on in the next frame, and a prefix's in
    // the rest of the frame. So a start found here is the one any longer text gives.
    let last = memchr::memrchr(b'\n', text).unwrap_or(newline);
    let known = &text[newline + 1..last + 1];
    let mut from = 0;
    loop {
        // `find` counts from `from`.
        let other = find(&[SENTINEL_OTHER, known, b""], from).map(|a| a + from as u64);
        let tag = find(&[SENTINEL_TAG, known, b""], from).map(|b| b + from as u64);
        match (other, tag) {
            (Some(a), Some(b)) if a == b => return Local::Start(newline as u64 + 1 + a),
            (Some(a), Some(b)) => from = a.max(b) as usize,
            _ => return more,
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

    /// Cuts `whole` into two frames at every byte and checks what the second frame alone
    /// says: a start is a game start by tabla-pgn's rule on the whole text, after the frame's
    /// first line end, and no prefix of the frame says otherwise. Gives the frames decided,
    /// of those with two game starts after their first line end the number decided and the
    /// number, and the most game starts a decided frame skips.
    fn check_every_split(whole: &[u8]) -> (usize, usize, usize, usize) {
        let (mut decided, mut possible, mut skipped) = (0, 0, 0);
        let mut decided_of_possible = 0;
        let start_from =
            |at: u64| tabla_pgn::find_game_start(&mut io::Cursor::new(whole), at).expect("memory");
        for split in 1..whole.len() {
            let frame = &whole[split..];
            let full = local_start(1, frame, true);
            let line_end = memchr::memchr(b'\n', frame).map(|i| (split + i + 1) as u64);
            let first = line_end.and_then(start_from);
            // Two game starts ahead: the parse has met a movetext line since the frame began.
            if first.and_then(|f| start_from(f + 1)).is_some() {
                possible += 1;
                if matches!(full, Local::Start(_)) {
                    decided_of_possible += 1;
                }
            }
            if let Local::Start(at) = full {
                decided += 1;
                let at = split as u64 + at;
                assert_eq!(start_from(at), Some(at), "frame from byte {split}: a start");
                let mut skips = 0;
                let mut next = first;
                while let Some(n) = next.filter(|&n| n < at) {
                    skips += 1;
                    next = start_from(n + 1);
                }
                assert_eq!(next, Some(at), "frame from byte {split}");
                skipped = skipped.max(skips);
            }
            for len in 0..frame.len() {
                let part = local_start(1, &frame[..len], false);
                assert!(
                    part == Local::More || part == full,
                    "frame from byte {split}, prefix of {len}: {part:?} against {full:?}"
                );
            }
        }
        (decided, decided_of_possible, possible, skipped)
    }

    #[test]
    fn a_frame_alone_gives_the_game_start_a_reader_of_the_whole_text_finds() {
        // Tag sections after blank lines, comments in tags, a game without tags, a tag line
        // mid-line, a malformed tag: what the local search must not be fooled by.
        let whole: &[u8] = b"[Event \"1\"]\n[Site \"?\"]\n\n1. e4 e5 {c} 1-0\n\n\n\n[Event \"2\"]\n\n\
            [Site \"x\"]\n\n1. d4 *\n\n[Event \"3\"]\n{a comment\nover lines}\n[Site \"x\"]\n\n\
            1. c4 0-1\n1. Nf3 *\n\n[Event \"4\"]\n[1p1/k \"c6 Nf6]\n\n1. e4 (1. d4 d5 2.[Event \"5\"]\n\
            [Site \"x\"]\n\n1. g3 *\n";
        let (decided, _, _, _) = check_every_split(whole);
        assert!(decided > whole.len() / 2, "{decided} decided");
        // Games as databases write them: a frame is decided alone once it holds two game
        // starts after its first line end, at the latest at the second.
        let mut ordinary = Vec::new();
        for n in 0..6 {
            ordinary.extend_from_slice(
                format!(
                    "[Event \"{n}\"]\n[Site \"?\"]\n[Result \"1-0\"]\n\n1. e4 {{ [%clk 0:03:00] }} e5 \
                     2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
                )
                .as_bytes(),
            );
        }
        let (_, decided, possible, skipped) = check_every_split(&ordinary);
        assert!(possible > ordinary.len() / 2);
        assert_eq!(decided, possible);
        assert!(skipped <= 1, "skipped {skipped}");
        assert_eq!(local_start(0, b"x", false), Local::Start(0));
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
