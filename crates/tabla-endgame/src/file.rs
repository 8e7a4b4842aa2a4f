//! The table file: a checked header and a range-coded body (the format is described in the crate
//! documentation).

use crate::codec::{Decoder, Encoder, UNKNOWN, ValueModel};
use crate::generate::{Config, push_successors};
use crate::index::{config_count, config_of, squares_of};
use crate::material::{MAX_PIECES, Material};
use crate::symmetry::Symmetry;
use crate::table::Table;
use std::io::Write;
use std::path::Path;

/// The first eight bytes of a table file.
pub const MAGIC: [u8; 8] = *b"TABLA-EG";
/// The format version this crate writes and reads.
pub const VERSION: u16 = 1;
/// Bytes in the header.
pub const HEADER_LEN: usize = 48;
/// Index scheme 1: king in the a1–d1–d4 triangle, 64 squares a piece, 64 for the bare king.
const SCHEME_TRIANGLE: u8 = 1;
/// The stored side: Black (the bare king) to move.
const STORED_BLACK: u8 = 1;
/// Coding 1: the adaptive range coder with (left, below) contexts.
const CODING_CONTEXT_RANGE: u8 = 1;

/// Why a table file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file could not be opened, read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The system's error.
        source: std::io::Error,
    },
    /// Fewer bytes than the header or the header's body length say.
    #[error("the table file is truncated: {found} bytes, {expected} expected")]
    Truncated {
        /// Bytes expected.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
    /// More bytes than the header's body length says.
    #[error("the table file has {extra} bytes after its body")]
    TrailingBytes {
        /// How many.
        extra: usize,
    },
    /// The file does not start with the magic bytes.
    #[error("not a tabla endgame table (the file does not start with \"TABLA-EG\")")]
    BadMagic,
    /// The header's checksum does not match.
    #[error("the table file's header is corrupted (checksum mismatch)")]
    HeaderChecksum,
    /// A version this crate cannot read.
    #[error("table format version {0} is not supported (this build reads version {VERSION})")]
    Version(u16),
    /// A header field with a value this crate does not know.
    #[error("unsupported table file: {field} = {value}")]
    Unsupported {
        /// The field.
        field: &'static str,
        /// Its value, as text.
        value: String,
    },
    /// The body's checksum does not match.
    #[error(
        "the table file's body is corrupted (checksum {found:08x}, header says {expected:08x})"
    )]
    BodyChecksum {
        /// The header's checksum.
        expected: u32,
        /// The body's.
        found: u32,
    },
    /// The body decoded into something other than what was written.
    #[error("the table file's body does not decode to the table it was written from: {0}")]
    Corrupt(&'static str),
}

impl FileError {
    fn io(path: &Path, source: std::io::Error) -> FileError {
        FileError::Io {
            path: path.display().to_string(),
            source,
        }
    }
}

/// The slots whose values the body holds: legal with Black to move, not a draw by capture, not
/// a checkmate or stalemate, and not the transposed twin of another slot.
fn coded_slots(config: &Config, primary: u64) -> u64 {
    let no_moves = !config.movable;
    config.valid_black & primary & !config.capture_draw & !no_moves
}

/// Bare-king squares `b` such that the placement of configuration `c` with the bare king on `b`
/// is the one of its diagonal twin pair that is stored: when the king is on the a1–d4 diagonal,
/// the first man off the diagonal (pieces in order, then the bare king) must be below it.
fn primary_squares(king: u8, pieces: &[u8]) -> u64 {
    let on = |s: u8| s >> 3 == s & 7;
    let below = |s: u8| s >> 3 < s & 7;
    if !on(king) {
        return !0;
    }
    for &p in pieces {
        if !on(p) {
            return if below(p) { !0 } else { 0 };
        }
    }
    const DIAGONAL: u64 = 0x8040_2010_0804_0201;
    // Squares below the diagonal: rank < file.
    let mut below_set = 0u64;
    for s in 0..64u8 {
        if below(s) {
            below_set |= 1 << s;
        }
    }
    below_set | DIAGONAL
}

/// The slots whose values the decoder knows before or while decoding a configuration: the coded
/// ones and those the rules decide (checkmates, stalemates, draws by capture).
fn known_slots(config: &Config, coded: u64) -> u64 {
    coded | config.valid_black & (config.capture_draw | !config.movable)
}

/// Calls `f(config, sets, coded)` for each configuration in file order.
fn for_each_config(
    material: Material,
    subtables: &[Table],
    mut f: impl FnMut(usize, &Config, u64),
) {
    let n = material.pieces().len();
    let mut pieces = [0u8; MAX_PIECES];
    for c in 0..config_count(n) {
        let config = Config::new(material, subtables, c);
        if config.valid_black == 0 {
            continue;
        }
        let king = squares_of(c, n, &mut pieces);
        let coded = coded_slots(&config, primary_squares(king, &pieces[..n]));
        f(c, &config, coded);
    }
}

/// The context of square `b` in a configuration's values: the values to its left and below
/// when those slots are coded.
#[inline]
fn context(values: &[u8], coded: u64, b: usize) -> (u8, u8) {
    let left = if b & 7 != 0 && coded >> (b - 1) & 1 != 0 {
        values[b - 1]
    } else {
        UNKNOWN
    };
    let below = if b >= 8 && coded >> (b - 8) & 1 != 0 {
        values[b - 8]
    } else {
        UNKNOWN
    };
    (left, below)
}

fn checksum(white: &[u8], black: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(white);
    h.update(black);
    h.finalize()
}

impl Table {
    /// The table as a file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let material = self.material();
        let black = self.black_slots();
        let mut enc = Encoder::new();
        let mut model = ValueModel::new();
        let mut count = 0u32;
        for_each_config(material, self.subtables(), |c, config, coded| {
            let values = &black[c * 64..c * 64 + 64];
            let known = known_slots(config, coded);
            for b in 0..64 {
                if coded >> b & 1 != 0 {
                    let (left, below) = context(values, known, b);
                    model.encode(&mut enc, left, below, values[b]);
                    count += 1;
                }
            }
        });
        let body = enc.finish();
        let mut out = Vec::with_capacity(HEADER_LEN + body.len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(HEADER_LEN as u16).to_le_bytes());
        let mut name = [0u8; 8];
        let text = material.to_string();
        name[..text.len()].copy_from_slice(text.as_bytes());
        out.extend_from_slice(&name);
        out.extend_from_slice(&[SCHEME_TRIANGLE, STORED_BLACK, CODING_CONTEXT_RANGE, 0]);
        out.extend_from_slice(&(body.len() as u32).to_le_bytes());
        out.extend_from_slice(&count.to_le_bytes());
        out.extend_from_slice(&crc32fast::hash(&body).to_le_bytes());
        out.extend_from_slice(&checksum(self.white_slots(), black).to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        let header_crc = crc32fast::hash(&out);
        out.extend_from_slice(&header_crc.to_le_bytes());
        debug_assert_eq!(out.len(), HEADER_LEN);
        out.extend_from_slice(&body);
        out
    }

    /// Reads a table from a file's bytes, checking every checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Table, FileError> {
        if bytes.len() < HEADER_LEN {
            if !bytes.is_empty() && !MAGIC.starts_with(&bytes[..bytes.len().min(8)]) {
                return Err(FileError::BadMagic);
            }
            return Err(FileError::Truncated {
                expected: HEADER_LEN,
                found: bytes.len(),
            });
        }
        if bytes[..8] != MAGIC {
            return Err(FileError::BadMagic);
        }
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let u32_at =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        if crc32fast::hash(&bytes[..HEADER_LEN - 4]) != u32_at(HEADER_LEN - 4) {
            return Err(FileError::HeaderChecksum);
        }
        let version = u16_at(8);
        if version != VERSION {
            return Err(FileError::Version(version));
        }
        let unsupported = |field, value: String| FileError::Unsupported { field, value };
        if usize::from(u16_at(10)) != HEADER_LEN {
            return Err(unsupported("header length", u16_at(10).to_string()));
        }
        let name_bytes = &bytes[12..20];
        let name_len = name_bytes.iter().position(|&b| b == 0).unwrap_or(8);
        let name = String::from_utf8_lossy(&name_bytes[..name_len]).into_owned();
        let material: Material = name
            .parse()
            .map_err(|_| unsupported("material", format!("{name:?}")))?;
        for (field, at, expected) in [
            ("index scheme", 20, SCHEME_TRIANGLE),
            ("stored side", 21, STORED_BLACK),
            ("coding", 22, CODING_CONTEXT_RANGE),
        ] {
            if bytes[at] != expected {
                return Err(unsupported(field, bytes[at].to_string()));
            }
        }
        let body_len = u32_at(24) as usize;
        let body = &bytes[HEADER_LEN..];
        if body.len() < body_len {
            return Err(FileError::Truncated {
                expected: HEADER_LEN + body_len,
                found: bytes.len(),
            });
        }
        if body.len() > body_len {
            return Err(FileError::TrailingBytes {
                extra: body.len() - body_len,
            });
        }
        let found = crc32fast::hash(body);
        if found != u32_at(32) {
            return Err(FileError::BodyChecksum {
                expected: u32_at(32),
                found,
            });
        }
        let table = decode(material, body, u32_at(28))?;
        if checksum(table.white_slots(), table.black_slots()) != u32_at(36) {
            return Err(FileError::Corrupt("the values' checksum does not match"));
        }
        Ok(table)
    }

    /// Writes the table to `path` (through a temporary file renamed into place, so a reader
    /// never sees half a file).
    pub fn write(&self, path: &Path) -> Result<(), FileError> {
        let bytes = self.to_bytes();
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = std::path::PathBuf::from(tmp);
        let result = std::fs::File::create(&tmp)
            .and_then(|mut f| f.write_all(&bytes).and_then(|()| f.sync_all()))
            .and_then(|()| std::fs::rename(&tmp, path));
        if let Err(e) = result {
            let _ = std::fs::remove_file(&tmp);
            return Err(FileError::io(path, e));
        }
        Ok(())
    }

    /// Reads a table file.
    pub fn read(path: &Path) -> Result<Table, FileError> {
        let bytes = std::fs::read(path).map_err(|e| FileError::io(path, e))?;
        Table::from_bytes(&bytes)
    }
}

/// Decodes a body into the Black-to-move values, fills the slots the body leaves out, and
/// derives the White-to-move values by one ply.
fn decode(material: Material, body: &[u8], expected_count: u32) -> Result<Table, FileError> {
    let n = material.pieces().len();
    let subtables: Vec<Table> = (0..n)
        .map(|i| crate::generate(material.without(i), &mut |_| {}))
        .collect();
    let configs = config_count(n);
    let mut black = vec![0u8; configs * 64];
    let mut dec = Decoder::new(body);
    let mut model = ValueModel::new();
    let mut count = 0u32;
    let mut twins = Vec::new();
    for_each_config(material, &subtables, |c, config, coded| {
        let values = &mut black[c * 64..c * 64 + 64];
        // Checkmates; stalemates and draws by capture stay 0.
        let mated = config.valid_black & config.check & !config.movable;
        for (b, value) in values.iter_mut().enumerate() {
            if mated >> b & 1 != 0 {
                *value = 1;
            }
        }
        let known = known_slots(config, coded);
        for b in 0..64 {
            if coded >> b & 1 != 0 {
                let (left, below) = context(values, known, b);
                values[b] = model.decode(&mut dec, left, below);
                count += 1;
            }
        }
        if config.valid_black & !coded & !mated & !config.capture_draw & config.movable != 0 {
            twins.push(c);
        }
    });
    if dec.overran() {
        return Err(FileError::Corrupt(
            "the body does not start like a coded body or ends before its last value",
        ));
    }
    if dec.consumed() != body.len() || count != expected_count {
        return Err(FileError::Corrupt(
            "the body holds a different number of values",
        ));
    }
    // Transposed twins of configurations with the king on the diagonal.
    let transpose = Symmetry::TRANSPOSE;
    let mut pieces = [0u8; MAX_PIECES];
    for c in twins {
        let king = squares_of(c, n, &mut pieces);
        let mut mirrored = [0u8; MAX_PIECES];
        for (m, &p) in mirrored.iter_mut().zip(&pieces[..n]) {
            *m = transpose.apply(p);
        }
        let twin = config_of(king, &mirrored[..n]);
        let primary = primary_squares(king, &pieces[..n]);
        let config = Config::new(material, &subtables, c);
        let copy = config.valid_black & !primary & !config.capture_draw & config.movable;
        for b in 0..64u8 {
            if copy >> b & 1 != 0 {
                black[c * 64 + b as usize] = black[twin * 64 + transpose.apply(b) as usize];
            }
        }
    }
    let white = white_from_black(material, &subtables, &black);
    Ok(Table::from_parts(material, white, black, subtables))
}

/// White-to-move values from Black-to-move ones: mate in `N` when the best White move reaches a
/// position where Black is mated after `N - 1` more White moves (stored as `N`).
pub(crate) fn white_from_black(material: Material, subtables: &[Table], black: &[u8]) -> Vec<u8> {
    let configs = config_count(material.pieces().len());
    let mut white = vec![0u8; configs * 64];
    let mut successors = Vec::new();
    let mut permutations = [[0u8; 64]; 8];
    for (s, perm) in Symmetry::ALL.iter().zip(permutations.iter_mut()) {
        for (b, slot) in perm.iter_mut().enumerate() {
            *slot = s.apply(b as u8);
        }
    }
    for c in 0..configs {
        let valid = Config::new(material, subtables, c).valid_white;
        if valid == 0 {
            continue;
        }
        successors.clear();
        push_successors(material, c, &mut successors);
        let mut best = [u8::MAX; 64];
        for s in &successors {
            let target = &black[s.config as usize * 64..s.config as usize * 64 + 64];
            // 0 (not lost) and squares the move cannot be made from must not win: map them to
            // the largest byte, then take the minimum.
            if s.sym.is_identity() {
                for b in 0..64 {
                    let usable = (s.mask >> b & 1) as u8;
                    let v = target[b].wrapping_sub(1) | usable.wrapping_sub(1);
                    best[b] = best[b].min(v);
                }
            } else {
                let perm = &permutations[s.sym.index()];
                for b in 0..64 {
                    let v = target[perm[b] as usize].wrapping_sub(1);
                    best[b] = best[b].min(v);
                }
            }
        }
        for b in 0..64 {
            if valid >> b & 1 != 0 && best[b] != u8::MAX {
                white[c * 64 + b] = best[b] + 1;
            }
        }
    }
    white
}
