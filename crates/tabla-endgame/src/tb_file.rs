//! The file of one ending's table: checked, block-coded, read through memory mapping.
//!
//! Little-endian; version 3 (`KQvKR.tbm`):
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `TABLA-TB` |
//! | 8..10 | version (3) |
//! | 10..12 | header length (96) |
//! | 12..28 | ending, ASCII, NUL-padded (`KQvKR`) |
//! | 28 | index scheme (2: [`crate::Layout`]: the pawns, the kings' pair, the other men) |
//! | 29 | sides to move stored: bit 0 White, bit 1 Black |
//! | 30 | coding (2: pair grammar and prefix codes in 64-byte blocks, `block_code`) |
//! | 31 | 1 when a position's value is the better of the stored one and its best capture |
//! | 32..40 | slots a side |
//! | 40..60 | White's body: length of its index part (u64), of its blocks (u64), CRC-32 of its index part |
//! | 60..80 | Black's body, the same (zeros when not stored) |
//! | 80..92 | reserved (0) |
//! | 92..96 | CRC-32 of bytes 0..92 |
//! | 96.. | each stored side's index part (grammar, code lengths, block index, the blocks' checksums) and blocks, White's first |
//!
//! A slot holds a value code (`0` a draw, else plies + 1). Where the value need not be exact (no
//! legal position there, or, with byte 31 set, a position whose value is its best capture's),
//! the slot holds whatever codes smallest (the value before it); the prober never reads the
//! first kind and takes the better of the stored value and the best capture for the second.
//! Opening checks the header and the lengths (so a directory of tables opens at once); the first
//! probe of a side checks its index part, and a probe checks the checksum of a group of blocks
//! the first time it reads one: a damaged file is refused or a damaged part reported, never read
//! as other values.

use crate::block_code::{self, Code};
use crate::layout::Layout;
use crate::men::Men;
use memmap2::Mmap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use tabla::Color;

const MAGIC: &[u8; 8] = b"TABLA-TB";
const VERSION: u16 = 3;
const HEADER: usize = 96;
const SCHEME_LAYOUT: u8 = 2;
const CODING_PAIRS: u8 = 2;

fn side(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// Why a table file cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum TbFileError {
    /// The file could not be opened or mapped.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The file is not a table of this version, or its header or index is damaged.
    #[error("{path}: {reason}")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// Which check failed.
        reason: String,
    },
}

/// One ending's table file, memory-mapped.
pub struct TbFile {
    path: PathBuf,
    map: Mmap,
    men: Men,
    captures: bool,
    slots: u64,
    /// Each side's body, when stored: where its index part and its blocks are, and its code.
    bodies: [Option<Body>; 2],
}

struct Body {
    meta: std::ops::Range<usize>,
    data: std::ops::Range<usize>,
    crc: u32,
    /// The index part read at the first probe (so that opening a directory of tables reads
    /// their headers only): the code, or why it cannot be read.
    code: OnceLock<Result<Code, String>>,
}

fn read_u32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn read_u64(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

/// Writes a table file holding `sides` (a side to move and its values, a code a slot,
/// don't-cares filled; see `Solution::stored_values`); `captures` says whether a probe takes
/// the better of a stored value and the best capture; the sides are coded on up to `threads`
/// threads. Returns the file's size.
pub(crate) fn write(
    path: &Path,
    men: Men,
    sides: &[(Color, &[u8])],
    captures: bool,
    threads: usize,
) -> std::io::Result<u64> {
    let mut header = [0u8; HEADER];
    header[0..8].copy_from_slice(MAGIC);
    header[8..10].copy_from_slice(&VERSION.to_le_bytes());
    header[10..12].copy_from_slice(&(HEADER as u16).to_le_bytes());
    let name = men.to_string();
    header[12..12 + name.len()].copy_from_slice(name.as_bytes());
    header[28] = SCHEME_LAYOUT;
    header[30] = CODING_PAIRS;
    header[31] = u8::from(captures);
    let slots = Layout::new(men).size();
    header[32..40].copy_from_slice(&slots.to_le_bytes());
    if let Some((_, values)) = sides.iter().find(|(_, v)| v.len() as u64 != slots) {
        return Err(std::io::Error::other(format!(
            "{men}: {} values, not {slots}",
            values.len()
        )));
    }
    // The sides are coded at once when there are threads for it.
    let coded = crate::par::map(threads, sides.iter(), |&(color, values)| {
        (color, block_code::encode(values))
    });
    let mut bodies: [Option<block_code::Encoded>; 2] = [None, None];
    for (color, body) in coded {
        bodies[side(color)] = Some(body);
    }
    let mut bytes = Vec::new();
    for (i, body) in bodies.iter().enumerate() {
        if let Some(body) = body {
            header[29] |= 1 << i;
            let at = 40 + 20 * i;
            header[at..at + 8].copy_from_slice(&(body.meta.len() as u64).to_le_bytes());
            header[at + 8..at + 16].copy_from_slice(&(body.data.len() as u64).to_le_bytes());
            header[at + 16..at + 20].copy_from_slice(&crc32fast::hash(&body.meta).to_le_bytes());
            bytes.extend_from_slice(&body.meta);
            bytes.extend_from_slice(&body.data);
        }
    }
    let crc = crc32fast::hash(&header[..92]);
    header[92..96].copy_from_slice(&crc.to_le_bytes());
    // Written beside, then renamed: a build interrupted never leaves a partial table.
    let partial = path.with_extension("partial");
    let mut file = Vec::with_capacity(HEADER + bytes.len());
    file.extend_from_slice(&header);
    file.extend_from_slice(&bytes);
    std::fs::write(&partial, &file)?;
    std::fs::rename(&partial, path)?;
    Ok(file.len() as u64)
}

impl TbFile {
    /// Opens a table file and checks its header and lengths (a side's index part is checked at
    /// its first probe, a group of blocks when first read).
    pub fn open(path: &Path) -> Result<TbFile, TbFileError> {
        let io = |source| TbFileError::Io {
            path: path.to_path_buf(),
            source,
        };
        let damaged = |reason: &str| TbFileError::Damaged {
            path: path.to_path_buf(),
            reason: reason.to_string(),
        };
        let file = File::open(path).map_err(io)?;
        // SAFETY: the map is only read; a file changed underneath may give wrong bytes, which
        // the checksums of the header, the index parts and each group of blocks catch.
        let map = unsafe { Mmap::map(&file) }.map_err(io)?;
        let b = &map[..];
        if b.len() < HEADER || &b[0..8] != MAGIC {
            return Err(damaged("not a tabla table file (no TABLA-TB magic)"));
        }
        let version = u16::from_le_bytes([b[8], b[9]]);
        if version != VERSION {
            return Err(damaged(&format!(
                "version {version}; this tabla reads version {VERSION} (build the table again)"
            )));
        }
        if crc32fast::hash(&b[..92]) != read_u32(b, 92) {
            return Err(damaged("the header's checksum does not match"));
        }
        if b[28] != SCHEME_LAYOUT || b[30] != CODING_PAIRS || !(1..=3).contains(&b[29]) || b[31] > 1
        {
            return Err(damaged("unknown index scheme, sides or coding"));
        }
        let name_end = b[12..28].iter().position(|&c| c == 0).unwrap_or(16);
        let name = std::str::from_utf8(&b[12..12 + name_end])
            .map_err(|_| damaged("the ending's name is not text"))?;
        let men: Men = name
            .parse()
            .map_err(|e| damaged(&format!("the ending's name: {e}")))?;
        let slots = read_u64(b, 32);
        if slots != Layout::new(men).size() {
            return Err(damaged("the slot count does not fit the ending"));
        }
        let mut at = HEADER as u64;
        let mut bodies = [None, None];
        for (i, body) in bodies.iter_mut().enumerate() {
            if b[29] >> i & 1 == 0 {
                continue;
            }
            let h = 40 + 20 * i;
            let (meta_len, data_len) = (read_u64(b, h), read_u64(b, h + 8));
            let end = at
                .checked_add(meta_len)
                .and_then(|m| m.checked_add(data_len))
                .filter(|&e| e <= b.len() as u64)
                .ok_or_else(|| {
                    damaged(&format!("{} bytes: shorter than its header says", b.len()))
                })?;
            let meta = at as usize..(at + meta_len) as usize;
            let data = meta.end..end as usize;
            *body = Some(Body {
                meta,
                data,
                crc: read_u32(b, h + 16),
                code: OnceLock::new(),
            });
            at = end;
        }
        if at != b.len() as u64 {
            return Err(damaged(&format!("{} bytes; the header says {at}", b.len())));
        }
        let captures = b[31] == 1;
        Ok(TbFile {
            path: path.to_path_buf(),
            map,
            men,
            captures,
            slots,
            bodies,
        })
    }

    /// The ending.
    pub fn men(&self) -> Men {
        self.men
    }

    /// Whether the file holds the values of `turn` to move (the other side is answered by one
    /// ply).
    pub fn stores(&self, turn: Color) -> bool {
        self.bodies[side(turn)].is_some()
    }

    /// The sides to move the file holds, White first.
    pub fn stored(&self) -> Vec<Color> {
        [Color::White, Color::Black]
            .into_iter()
            .filter(|&c| self.stores(c))
            .collect()
    }

    /// Whether a position's value is the better of the stored value and its best capture
    /// rather than the stored value alone.
    pub fn captures(&self) -> bool {
        self.captures
    }

    /// The file's size in bytes.
    pub fn len(&self) -> u64 {
        self.map.len() as u64
    }

    /// Whether the file is empty (never, for a file that opened).
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The body of `turn` to move and its code, its index part checked the first time.
    fn body(&self, turn: Color) -> Result<(&Body, &Code), TbFileError> {
        let damaged = |reason: String| TbFileError::Damaged {
            path: self.path.clone(),
            reason,
        };
        let body = self.bodies[side(turn)]
            .as_ref()
            .ok_or_else(|| damaged(format!("{} to move is not stored", turn_name(turn))))?;
        let code = body.code.get_or_init(|| {
            let meta = &self.map[body.meta.clone()];
            if crc32fast::hash(meta) != body.crc {
                return Err(format!(
                    "the index part of {} to move fails its checksum",
                    turn_name(turn)
                ));
            }
            Code::open(meta, self.slots, body.data.len()).map_err(|e| e.to_string())
        });
        match code {
            Ok(code) => Ok((body, code)),
            Err(reason) => Err(damaged(reason.clone())),
        }
    }

    /// The code stored in a slot with `turn` to move (`0` a draw, else plies + 1); with
    /// [`TbFile::captures`], a position's value is the better of this and its best capture.
    pub fn value(&self, turn: Color, slot: u64) -> Result<u8, TbFileError> {
        if slot >= self.slots {
            return Err(TbFileError::Damaged {
                path: self.path.clone(),
                reason: format!("slot {slot} beyond the table's {}", self.slots),
            });
        }
        let (body, code) = self.body(turn)?;
        let b = &self.map[..];
        code.value(&b[body.meta.clone()], &b[body.data.clone()], slot)
            .map_err(|e| self.damaged(&e))
    }

    /// Every stored code with `turn` to move, in slot order.
    pub fn values(&self, turn: Color) -> Result<Vec<u8>, TbFileError> {
        let (body, code) = self.body(turn)?;
        let b = &self.map[..];
        code.values(&b[body.meta.clone()], &b[body.data.clone()])
            .map_err(|e| self.damaged(&e))
    }

    fn damaged(&self, e: &block_code::CodeError) -> TbFileError {
        TbFileError::Damaged {
            path: self.path.clone(),
            reason: e.to_string(),
        }
    }
}

fn turn_name(turn: Color) -> &'static str {
    match turn {
        Color::White => "White",
        Color::Black => "Black",
    }
}
