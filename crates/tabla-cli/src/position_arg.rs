//! Reading a position from the command line: `startpos` or a FEN, validated as asked.

use tabla::{FenError, Position, Setup, Validation};

/// Parses `startpos` or a FEN ([`Position::from_text`]). The error names the FEN field or the
/// rule that failed, and under strict validation says when `--lenient` would accept the setup.
pub fn parse(text: &str, validation: Validation) -> anyhow::Result<Position> {
    let err = match Position::from_text(text, validation) {
        Ok(pos) => return Ok(pos),
        Err(err) => err,
    };
    let hint = match &err {
        FenError::Invalid(problems)
            if validation == Validation::Strict && problems.is_playable() =>
        {
            " (the setup is still playable: --lenient accepts it)"
        }
        _ => "",
    };
    anyhow::bail!("invalid FEN {:?}: {err}{hint}", text.trim())
}

/// The problems strict validation finds in a position, as a `; `-separated sentence, or `None`
/// for a legal one. A position built leniently may have some; callers tell the user.
pub fn strict_problems(pos: &Position) -> Option<String> {
    let problems: Vec<&str> = Setup::problems(&pos.to_setup())
        .problems()
        .map(|p| p.description())
        .collect();
    (!problems.is_empty()).then(|| problems.join("; "))
}
