//! KBNK against independent expectations: the published figures of an earlier KBNK solution
//! base (docs/background.md), published maxima, hand-checked positions, the file format's checks
//! and the 16 MiB two-byte-slot format.

use std::sync::LazyLock;
use tabla::{Color, Position, Square};
use tabla_endgame::{
    Dtm, FileError, IllegalPlacement, Material, ProbeError, Stats, Table, TwoByteFile, generate,
};
use tabla_endgame::{TWO_BYTE_LEN, two_byte_slot};

static KBNK: LazyLock<Table> = LazyLock::new(|| generate(Material::KBNK, &mut |_| {}));

fn light_bishop(_: u8, pieces: &[u8]) -> bool {
    Square::new_masked(pieces[0]).is_light()
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).expect("test FEN")
}

#[test]
fn the_published_figures_for_the_light_squared_bishop() {
    // Published with the earlier base (docs/background.md): 232 checkmates, 920 mates in 1, 156 "mates in 1.5" (Black to move, mated
    // after one more White move), and 33 moves for the longest mate.
    let stats = Stats::of_filtered(&KBNK, light_bishop);
    assert_eq!(stats.black.checkmates, 232);
    assert_eq!(stats.black.histogram[0], 232);
    assert_eq!(stats.white.histogram[1], 920);
    assert_eq!(stats.black.histogram[1], 156);
    assert_eq!(stats.white.longest().map(|(n, _)| n), Some(33));
    assert_eq!(stats.black.longest().map(|(n, _)| n), Some(33));
}

#[test]
fn the_published_solved_slot_count_is_not_a_count_of_legal_positions() {
    // The earlier base reports 5,609,790 solved slots of its White-to-move array. There are fewer legal
    // White-to-move positions with a light-squared bishop than that, so the figure counts slots
    // that are not legal positions (see docs/background.md).
    let stats = Stats::of_filtered(&KBNK, light_bishop);
    assert!(stats.white.legal < 5_609_790);
    assert!(stats.white.wins < stats.white.legal);
    // The exact counts docs/background.md sets against the published ones.
    assert_eq!(
        (stats.white.legal, stats.white.wins, stats.white.draws),
        (5_437_752, 5_411_092, 26_660)
    );
    assert_eq!(stats.black.losses, 5_594_084);
    // The published "156 positions at the longest mate" does not hold either.
    assert_eq!(stats.white.longest(), Some((33, 552)));
    assert_eq!(stats.black.longest(), Some((33, 1_480)));
    assert_eq!(Stats::of(&KBNK).white.longest(), Some((33, 1_104)));
}

#[test]
fn both_bishop_colours_give_the_same_counts() {
    // Mirroring the files swaps the bishop's colour and keeps every value.
    let light = Stats::of_filtered(&KBNK, light_bishop);
    let dark = Stats::of_filtered(&KBNK, |k, p| !light_bishop(k, p));
    assert_eq!(light, dark);
    let all = Stats::of(&KBNK);
    assert_eq!(all.black.checkmates, 2 * 232);
    assert_eq!(all.white.legal, light.white.legal + dark.white.legal);
}

#[test]
fn hand_checked_positions() {
    // Checkmate in the light corner: Bd5+ covers a8, Kb6 covers a7 and b7, Na6 covers b8.
    assert_eq!(
        KBNK.dtm(&pos("k7/8/NK6/3B4/8/8/8/8 b - - 0 1")),
        Ok(Dtm::Loss(0))
    );
    // One move earlier: Bd5# is the only mate.
    let p = pos("k7/8/NK2B3/8/8/8/8/8 w - - 0 1");
    let probe = KBNK.probe(&p).expect("KBNK");
    assert_eq!(probe.dtm, Dtm::Win(1));
    assert_eq!(probe.best.map(|m| p.san(m)), Some("Bd5#".into()));
    let mates: Vec<String> = probe
        .moves
        .iter()
        .filter(|m| m.after == Dtm::Loss(0))
        .map(|m| p.san(m.mv))
        .collect();
    assert_eq!(mates, ["Bd5#"]);
    // Stalemate: Ka8 is not attacked; a7 (knight), b7 and b8 (king) are.
    let p = pos("k7/2K5/8/1N6/8/8/8/4B3 b - - 0 1");
    let probe = KBNK.probe(&p).expect("KBNK");
    assert_eq!(probe.dtm, Dtm::Draw);
    assert!(probe.stalemate);
    assert!(probe.best.is_none());
    // Black takes the undefended knight: a draw, and the probe says which move draws.
    let p = pos("k7/1N6/8/8/8/8/8/K1B5 b - - 0 1");
    let probe = KBNK.probe(&p).expect("KBNK");
    assert_eq!(probe.dtm, Dtm::Draw);
    assert_eq!(probe.best.map(|m| p.san(m)), Some("Kxb7".into()));
    // The knight defended by the king: no capture, Black is lost.
    let p = pos("k7/1N6/1K6/8/8/8/8/2B5 b - - 0 1");
    assert!(matches!(KBNK.dtm(&p), Ok(Dtm::Loss(_))));
}

#[test]
fn the_longest_mates_end_in_checkmate_after_65_plies() {
    // Find the White-to-move positions at the longest distance (light bishop), play the optimal
    // line of some of them with tabla and check the final position is checkmate.
    let stats = Stats::of_filtered(&KBNK, light_bishop);
    let (longest, count) = stats.white.longest().expect("wins");
    assert_eq!(longest, 33);
    assert!(count > 0);
    let mut found = 0;
    'search: for king in Square::ALL {
        for bishop in Square::ALL.into_iter().filter(|s| s.is_light()) {
            for knight in Square::ALL {
                for bare in Square::ALL {
                    let Ok(Dtm::Win(33)) =
                        KBNK.dtm_squares(Color::White, king, &[bishop, knight], bare)
                    else {
                        continue;
                    };
                    let fen = format!(
                        "{} w - - 0 1",
                        board_fen(&[(king, 'K'), (bishop, 'B'), (knight, 'N'), (bare, 'k')])
                    );
                    let start = pos(&fen);
                    let line = KBNK.line(&start).expect("KBNK");
                    assert_eq!(line.len(), 65, "{fen}");
                    let mut end = start.clone();
                    for &mv in &line {
                        end.play(mv).expect("a legal move");
                    }
                    assert!(end.is_checkmate(), "{fen} ends in {}", end.to_fen());
                    found += 1;
                    if found == 3 {
                        break 'search;
                    }
                }
            }
        }
    }
    assert_eq!(found, 3);
}

fn board_fen(men: &[(Square, char)]) -> String {
    let mut rows = Vec::new();
    for rank in (0..8u8).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..8u8 {
            let sq = Square::new_masked(rank * 8 + file);
            match men.iter().find(|(s, _)| *s == sq) {
                Some(&(_, c)) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    rows.join("/")
}

#[test]
fn published_maxima_of_kqk_and_krk() {
    // Longest mates: KQK 10 moves, KRK 16 moves (published figures).
    for (material, longest) in [(Material::KQK, 10), (Material::KRK, 16)] {
        let stats = Stats::of(&generate(material, &mut |_| {}));
        assert_eq!(
            stats.white.longest().map(|(n, _)| n),
            Some(longest),
            "{material}"
        );
        // Against a bare king with queen or rook, White to move always wins.
        assert_eq!(stats.white.draws, 0, "{material}");
    }
}

#[test]
fn probe_errors_are_typed() {
    assert!(matches!(
        KBNK.dtm(&pos("8/8/8/4k3/8/8/8/KQ6 w - - 0 1")),
        Err(ProbeError::WrongMaterial { .. })
    ));
    assert!(matches!(
        KBNK.dtm(&pos("8/8/8/4k3/8/8/P7/KBN5 w - - 0 1")),
        Err(ProbeError::Material(_))
    ));
    assert!(matches!(
        KBNK.dtm_fen("8/8/8/4k3/8/8/8/KBN5 x - - 0 1"),
        Err(ProbeError::Fen(_))
    ));
    assert!(matches!(
        KBNK.dtm_fen("8/8/8/8/8/8/1k6/KBN5 w - - 0 1"),
        Err(ProbeError::Fen(_))
    ));
    let sq = |s: &str| s.parse::<Square>().expect("square");
    assert_eq!(
        KBNK.dtm_squares(Color::White, sq("a1"), &[sq("a1"), sq("c1")], sq("h8")),
        Err(ProbeError::Illegal(IllegalPlacement::SharedSquare(sq(
            "a1"
        ))))
    );
    assert_eq!(
        KBNK.dtm_squares(Color::Black, sq("a1"), &[sq("e4"), sq("c1")], sq("b2")),
        Err(ProbeError::Illegal(IllegalPlacement::KingsTouch))
    );
    assert_eq!(
        KBNK.dtm_squares(Color::White, sq("a1"), &[sq("e4"), sq("c1")], sq("h7")),
        Err(ProbeError::Illegal(IllegalPlacement::OppositeCheck))
    );
    assert!(matches!(
        KBNK.dtm_squares(Color::White, sq("a1"), &[sq("e4")], sq("h7")),
        Err(ProbeError::Illegal(IllegalPlacement::PieceCount { .. }))
    ));
    // A capture leads to KBK, which the table also answers: a draw.
    assert_eq!(
        KBNK.dtm(&pos("8/8/8/4k3/8/8/8/KB6 w - - 0 1")),
        Ok(Dtm::Draw)
    );
}

#[test]
fn black_with_the_pieces_is_the_same_endgame() {
    // The mate above with colours and ranks swapped.
    assert_eq!(
        KBNK.dtm(&pos("8/8/8/8/3b4/nk6/8/K7 w - - 0 1")),
        Ok(Dtm::Loss(0))
    );
    let white = KBNK.dtm(&pos("k7/8/NK2B3/8/8/8/8/8 w - - 0 1"));
    let black = KBNK.dtm(&pos("8/8/8/8/8/nk2b3/8/K7 b - - 0 1"));
    assert_eq!(white, black);
}

#[test]
fn a_line_from_black_to_move_is_numbered_from_black_and_ends_in_mate() {
    let p = pos("1k6/8/NK6/8/4B3/8/8/8 b - - 0 1");
    let line = KBNK.line(&p).expect("KBNK");
    let text = p.variation_san(&line).expect("a legal line");
    assert!(text.starts_with("1... "), "{text}");
    assert!(text.ends_with('#'), "{text}");
}

#[test]
fn file_round_trip_and_size() {
    let bytes = KBNK.to_bytes();
    assert!(bytes.len() <= 300_000, "{} bytes", bytes.len());
    let back = Table::from_bytes(&bytes).expect("round trip");
    assert!(back == *KBNK);
    let dir = std::env::temp_dir().join(format!("tabla-endgame-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("kbnk.tbl");
    KBNK.write(&path).expect("write");
    let read = Table::read(&path).expect("read");
    assert!(read == *KBNK);
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn damaged_files_give_errors_never_values() {
    let bytes = KBNK.to_bytes();
    assert!(matches!(
        Table::from_bytes(&bytes[..bytes.len() - 1]),
        Err(FileError::Truncated { .. })
    ));
    assert!(matches!(
        Table::from_bytes(&bytes[..20]),
        Err(FileError::Truncated { .. })
    ));
    assert!(matches!(
        Table::from_bytes(b""),
        Err(FileError::Truncated { .. })
    ));
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        Table::from_bytes(&longer),
        Err(FileError::TrailingBytes { extra: 1 })
    ));
    let mut magic = bytes.clone();
    magic[0] = b'X';
    assert!(matches!(
        Table::from_bytes(&magic),
        Err(FileError::BadMagic)
    ));
    let mut header = bytes.clone();
    header[12] = b'Q';
    assert!(matches!(
        Table::from_bytes(&header),
        Err(FileError::HeaderChecksum)
    ));
    for at in [48, 1000, bytes.len() / 2, bytes.len() - 1] {
        let mut body = bytes.clone();
        body[at] ^= 0x10;
        assert!(
            matches!(
                Table::from_bytes(&body),
                Err(FileError::BodyChecksum { .. })
            ),
            "flip at {at}"
        );
        // Even when the body's checksum is made to match, the values' checksum catches it.
        let crc = crc32(&body[48..]);
        body[32..36].copy_from_slice(&crc.to_le_bytes());
        let header_crc = crc32(&body[..44]);
        body[44..48].copy_from_slice(&header_crc.to_le_bytes());
        // The range coder's last flushed byte may carry no information: a change there must
        // give an error or the very same table, never other values.
        match Table::from_bytes(&body) {
            Err(FileError::Corrupt(_)) => {}
            Ok(same) if at == bytes.len() - 1 => assert!(same == *KBNK),
            other => panic!(
                "flip at {at} with matching body checksum: {:?}",
                other.err()
            ),
        }
    }
}

/// CRC-32 (IEEE), bit by bit: written here so the test does not share the crate's checksum code.
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                crc >> 1 ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[test]
fn two_byte_format_export() {
    let bytes = KBNK.export_two_byte().expect("KBNK");
    assert_eq!(bytes.len(), 16 * 1024 * 1024);
    assert_eq!(bytes.len(), TWO_BYTE_LEN);
    // The published figures read back from the format: 920 mates in one, 33 at most.
    let firsts = bytes.iter().step_by(2);
    assert_eq!(firsts.clone().filter(|&&m| m == 1).count(), 920);
    assert_eq!(firsts.clone().copied().max(), Some(33));
    let stats = Stats::of_filtered(&KBNK, light_bishop);
    assert_eq!(firsts.filter(|&&m| m > 0).count() as u64, stats.white.wins);
    let file = TwoByteFile::from_bytes(bytes).expect("length");
    // Every entry of a sample, both bishop colours, checked with tabla's moves.
    let mut checked = 0;
    for (i, king) in Square::ALL.into_iter().enumerate().step_by(5) {
        for bishop in Square::ALL.into_iter().skip(i % 3).step_by(3) {
            for knight in Square::ALL.into_iter().skip(i % 7).step_by(7) {
                for bare in Square::ALL {
                    let Ok(dtm) = KBNK.dtm_squares(Color::White, king, &[bishop, knight], bare)
                    else {
                        continue;
                    };
                    let entry = file.entry(king, bishop, knight, bare);
                    match dtm {
                        Dtm::Win(n) => {
                            assert_eq!(entry.moves, n);
                            let fen = format!(
                                "{} w - - 0 1",
                                board_fen(&[
                                    (king, 'K'),
                                    (bishop, 'B'),
                                    (knight, 'N'),
                                    (bare, 'k')
                                ])
                            );
                            let mut p = pos(&fen);
                            let mv = p
                                .legal_moves()
                                .into_iter()
                                .find(|m| Some(m.role()) == entry.role && m.to() == entry.to)
                                .unwrap_or_else(|| panic!("{fen}: {entry:?} is not legal"));
                            p.play(mv).expect("a legal move");
                            assert_eq!(KBNK.dtm(&p), Ok(Dtm::Loss(n - 1)), "{fen}");
                        }
                        _ => assert_eq!(entry.moves, 0),
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
    assert_eq!(
        two_byte_slot(Square::H8, Square::G8, Square::A1, Square::B1),
        Some(((63 * 32 + 31) * 64) * 64 + 1)
    );
    assert!(
        generate(Material::KQK, &mut |_| {})
            .export_two_byte()
            .is_err()
    );
}
