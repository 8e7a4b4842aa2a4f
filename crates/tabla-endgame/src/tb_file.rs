//! The file of one ending's table: checked, block-compressed, read through memory mapping.
//!
//! Little-endian; version 2 (`KQvKR.tbm`):
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `TABLA-TB` |
//! | 8..10 | version (2) |
//! | 10..12 | header length (64) |
//! | 12..28 | ending, ASCII, NUL-padded (`KQvKR`) |
//! | 28 | index scheme (1: [`crate::Layout`], kings' pairs then groups of identical men) |
//! | 29 | side to move stored (0: White, 1: Black) |
//! | 30 | coding (1: zstd frames, each with its content checksum) |
//! | 31 | reserved (0) |
//! | 32..40 | slots |
//! | 40..44 | values a block |
//! | 44..48 | blocks |
//! | 48..56 | length of the blocks' bytes |
//! | 56..60 | CRC-32 of the block index |
//! | 60..64 | CRC-32 of bytes 0..60 |
//! | 64.. | block index: `blocks + 1` offsets (u64) into the blocks' bytes |
//! | .. | the blocks |
//!
//! A block holds the values of `values a block` consecutive slots of the stored side to move:
//! `0` a draw, else plies + 1. A slot that holds no legal position repeats the value before it
//! (which compresses best); the prober never asks for one. Opening checks the header, the index
//! and the length; decoding a block checks its zstd checksum: a damaged file is refused or a
//! damaged block reported, never read as other values.

use crate::men::Men;
use crate::solve::NO_POSITION;
use memmap2::Mmap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use tabla::Color;

const MAGIC: &[u8; 8] = b"TABLA-TB";
const VERSION: u16 = 2;
const HEADER: usize = 64;
const SCHEME_LAYOUT: u8 = 1;
const CODING_ZSTD: u8 = 1;
/// Values a block: a probe decodes one block.
pub(crate) const PER_BLOCK: usize = 32 * 1024;
/// zstd's level: 9 compresses within about a tenth of 19, several times faster.
const ZSTD_LEVEL: i32 = 9;

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
    stored: Color,
    slots: u64,
    per_block: usize,
    blocks: usize,
    data: usize,
    /// The last block decoded, kept for the next probe.
    cache: Mutex<Option<(usize, Vec<u8>)>>,
}

fn read_u32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn read_u64(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

/// Writes `values` (one side to move, [`NO_POSITION`] where no position) as a table file.
pub(crate) fn write(path: &Path, men: Men, stored: Color, values: &[u8]) -> std::io::Result<u64> {
    let mut filled = Vec::with_capacity(values.len());
    let mut last = 0u8;
    for &v in values {
        if v != NO_POSITION {
            last = v;
        }
        filled.push(last);
    }
    let blocks = filled.len().div_ceil(PER_BLOCK);
    let mut offsets = Vec::with_capacity(blocks + 1);
    let mut data = Vec::new();
    let mut compressor = zstd::bulk::Compressor::new(ZSTD_LEVEL)?;
    compressor.include_checksum(true)?;
    for chunk in filled.chunks(PER_BLOCK) {
        offsets.push(data.len() as u64);
        data.extend_from_slice(&compressor.compress(chunk)?);
    }
    offsets.push(data.len() as u64);
    let mut index = Vec::with_capacity(offsets.len() * 8);
    for o in &offsets {
        index.extend_from_slice(&o.to_le_bytes());
    }
    let mut header = [0u8; HEADER];
    header[0..8].copy_from_slice(MAGIC);
    header[8..10].copy_from_slice(&VERSION.to_le_bytes());
    header[10..12].copy_from_slice(&(HEADER as u16).to_le_bytes());
    let name = men.to_string();
    header[12..12 + name.len()].copy_from_slice(name.as_bytes());
    header[28] = SCHEME_LAYOUT;
    header[29] = if stored == Color::White { 0 } else { 1 };
    header[30] = CODING_ZSTD;
    header[32..40].copy_from_slice(&(values.len() as u64).to_le_bytes());
    header[40..44].copy_from_slice(&(PER_BLOCK as u32).to_le_bytes());
    header[44..48].copy_from_slice(&(blocks as u32).to_le_bytes());
    header[48..56].copy_from_slice(&(data.len() as u64).to_le_bytes());
    header[56..60].copy_from_slice(&crc32fast::hash(&index).to_le_bytes());
    let crc = crc32fast::hash(&header[..60]);
    header[60..64].copy_from_slice(&crc.to_le_bytes());
    // Written beside, then renamed: a build interrupted never leaves a partial table.
    let partial = path.with_extension("partial");
    let mut bytes = Vec::with_capacity(HEADER + index.len() + data.len());
    bytes.extend_from_slice(&header);
    bytes.extend_from_slice(&index);
    bytes.extend_from_slice(&data);
    std::fs::write(&partial, &bytes)?;
    std::fs::rename(&partial, path)?;
    Ok(bytes.len() as u64)
}

impl TbFile {
    /// Opens and checks a table file (header, index and length; blocks when they are read).
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
        // the checksums of the header, the index and each block catch.
        let map = unsafe { Mmap::map(&file) }.map_err(io)?;
        let b = &map[..];
        if b.len() < HEADER || &b[0..8] != MAGIC {
            return Err(damaged("not a tabla table file (no TABLA-TB magic)"));
        }
        if crc32fast::hash(&b[..60]) != read_u32(b, 60) {
            return Err(damaged("the header's checksum does not match"));
        }
        let version = u16::from_le_bytes([b[8], b[9]]);
        if version != VERSION {
            return Err(damaged(&format!(
                "version {version}; this tabla reads version {VERSION}"
            )));
        }
        if b[28] != SCHEME_LAYOUT || b[30] != CODING_ZSTD || b[29] > 1 {
            return Err(damaged("unknown index scheme, side or coding"));
        }
        let name_end = b[12..28].iter().position(|&c| c == 0).unwrap_or(16);
        let name = std::str::from_utf8(&b[12..12 + name_end])
            .map_err(|_| damaged("the ending's name is not text"))?;
        let men: Men = name
            .parse()
            .map_err(|e| damaged(&format!("the ending's name: {e}")))?;
        let slots = read_u64(b, 32);
        let per_block = read_u32(b, 40) as usize;
        let blocks = read_u32(b, 44) as usize;
        let data_len = read_u64(b, 48) as usize;
        if slots != crate::Layout::new(men).size()
            || per_block == 0
            || blocks != (slots as usize).div_ceil(per_block)
        {
            return Err(damaged("the slot or block counts do not fit the ending"));
        }
        let index_len = (blocks + 1) * 8;
        let data = HEADER + index_len;
        if b.len() != data + data_len {
            return Err(damaged(&format!(
                "{} bytes; the header says {}",
                b.len(),
                data + data_len
            )));
        }
        if crc32fast::hash(&b[HEADER..data]) != read_u32(b, 56) {
            return Err(damaged("the block index's checksum does not match"));
        }
        let mut previous = 0;
        for i in 0..=blocks {
            let o = read_u64(b, HEADER + 8 * i) as usize;
            if o < previous || o > data_len || (i == blocks && o != data_len) {
                return Err(damaged("the block index is not in order"));
            }
            previous = o;
        }
        let stored = if b[29] == 0 {
            Color::White
        } else {
            Color::Black
        };
        Ok(TbFile {
            path: path.to_path_buf(),
            map,
            men,
            stored,
            slots,
            per_block,
            blocks,
            data,
            cache: Mutex::new(None),
        })
    }

    /// The ending.
    pub fn men(&self) -> Men {
        self.men
    }

    /// The side to move whose values the file holds.
    pub fn stored(&self) -> Color {
        self.stored
    }

    /// The file's size in bytes.
    pub fn len(&self) -> u64 {
        self.map.len() as u64
    }

    /// Whether the file is empty (never, for a file that opened).
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The value code of a slot of the stored side (`0` a draw, else plies + 1).
    pub fn value(&self, slot: u64) -> Result<u8, TbFileError> {
        if slot >= self.slots {
            return Err(TbFileError::Damaged {
                path: self.path.clone(),
                reason: format!("slot {slot} beyond the table's {}", self.slots),
            });
        }
        let block = slot as usize / self.per_block;
        let at = slot as usize % self.per_block;
        let mut cache = self
            .cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((b, values)) = cache.as_ref()
            && *b == block
        {
            return Ok(values[at]);
        }
        let values = self.decode(block)?;
        let v = values[at];
        *cache = Some((block, values));
        Ok(v)
    }

    /// Every value of the stored side, block by block.
    pub fn values(&self) -> Result<Vec<u8>, TbFileError> {
        let mut out = Vec::with_capacity(self.slots as usize);
        for block in 0..self.blocks {
            out.extend_from_slice(&self.decode(block)?);
        }
        Ok(out)
    }

    fn decode(&self, block: usize) -> Result<Vec<u8>, TbFileError> {
        let b = &self.map[..];
        let start = self.data + read_u64(b, HEADER + 8 * block) as usize;
        let end = self.data + read_u64(b, HEADER + 8 * (block + 1)) as usize;
        let want = (self.slots as usize - block * self.per_block).min(self.per_block);
        let values =
            zstd::bulk::decompress(&b[start..end], want).map_err(|e| TbFileError::Damaged {
                path: self.path.clone(),
                reason: format!("block {block}: {e}"),
            })?;
        if values.len() != want {
            return Err(TbFileError::Damaged {
                path: self.path.clone(),
                reason: format!("block {block}: {} values, not {want}", values.len()),
            });
        }
        Ok(values)
    }
}
