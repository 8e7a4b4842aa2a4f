//! The options a UCI engine declares (`option name Hash type spin default 16 min 1 max 33554432`)
//! and whether a value suits one.

/// One option an engine lists in its handshake.
///
/// ```
/// use tabla_analysis::{OptionKind, UciOption};
/// let hash = UciOption::parse("name Hash type spin default 16 min 1 max 1024").unwrap();
/// assert_eq!(hash.name, "Hash");
/// assert_eq!(hash.kind, OptionKind::Spin { min: Some(1), max: Some(1024) });
/// assert!(hash.check_value("64").is_ok());
/// assert_eq!(hash.check_value("0").unwrap_err(), "a whole number from 1 to 1024");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciOption {
    /// The name, as the engine writes it (UCI compares names without case).
    pub name: String,
    /// Its type and what values it takes.
    pub kind: OptionKind,
    /// The default the engine declares, if any.
    pub default: Option<String>,
}

/// The type of a UCI option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `true` or `false`.
    Check,
    /// A whole number, within bounds when declared.
    Spin {
        /// The least value.
        min: Option<i64>,
        /// The greatest value.
        max: Option<i64>,
    },
    /// One of a list.
    Combo {
        /// The values allowed.
        choices: Vec<String>,
    },
    /// An action without a value.
    Button,
    /// Any text.
    String,
}

const KEYWORDS: &[&str] = &["name", "type", "default", "min", "max", "var"];

impl UciOption {
    /// Reads the words after `option`; `None` when they declare no name or no known type (such
    /// an option cannot be set, and is left out).
    pub fn parse(text: &str) -> Option<UciOption> {
        let mut name = Vec::new();
        let mut kind = None;
        let mut default = None;
        let (mut min, mut max) = (None, None);
        let mut choices = Vec::new();
        let words: Vec<&str> = text.split_whitespace().collect();
        let mut i = 0;
        while i < words.len() {
            let keyword = words[i];
            let mut value = Vec::new();
            i += 1;
            // A name or a value may hold spaces, and only `name`'s may hold a keyword-like word
            // before `type`.
            while i < words.len()
                && !(KEYWORDS.contains(&words[i]) && (keyword != "name" || words[i] == "type"))
            {
                value.push(words[i]);
                i += 1;
            }
            let value = value.join(" ");
            match keyword {
                "name" => name.push(value),
                "type" => kind = Some(value),
                "default" => default = Some(value),
                "min" => min = value.parse().ok(),
                "max" => max = value.parse().ok(),
                "var" => choices.push(value),
                _ => return None,
            }
        }
        let name = name.join(" ");
        let kind = match kind?.as_str() {
            "check" => OptionKind::Check,
            "spin" => OptionKind::Spin { min, max },
            "combo" => OptionKind::Combo { choices },
            "button" => OptionKind::Button,
            "string" => OptionKind::String,
            _ => return None,
        };
        if name.is_empty() {
            return None;
        }
        // `<empty>` is UCI's way of writing an empty default string.
        let default = default.map(|d| if d == "<empty>" { String::new() } else { d });
        Some(UciOption {
            name,
            kind,
            default,
        })
    }

    /// `Ok` when the engine accepts `value`, else what it accepts.
    pub fn check_value(&self, value: &str) -> Result<(), String> {
        match &self.kind {
            OptionKind::Check if value == "true" || value == "false" => Ok(()),
            OptionKind::Check => Err("true or false".to_owned()),
            OptionKind::Spin { min, max } => {
                let expected = match (min, max) {
                    (Some(min), Some(max)) => format!("a whole number from {min} to {max}"),
                    (Some(min), None) => format!("a whole number from {min} up"),
                    (None, Some(max)) => format!("a whole number up to {max}"),
                    (None, None) => "a whole number".to_owned(),
                };
                match value.parse::<i64>() {
                    Ok(n) if min.is_none_or(|min| n >= min) && max.is_none_or(|max| n <= max) => {
                        Ok(())
                    }
                    _ => Err(expected),
                }
            }
            OptionKind::Combo { choices } => {
                if choices.iter().any(|c| c.eq_ignore_ascii_case(value)) {
                    Ok(())
                } else {
                    Err(format!("one of {}", choices.join(", ")))
                }
            }
            OptionKind::Button if value.is_empty() => Ok(()),
            OptionKind::Button => Err("nothing: it is a button".to_owned()),
            OptionKind::String => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_as_stockfish_and_tabla_write_them() {
        let threads = UciOption::parse("name Threads type spin default 1 min 1 max 1024");
        assert_eq!(
            threads.map(|o| (o.name, o.default)),
            Some(("Threads".to_owned(), Some("1".to_owned())))
        );
        let clear = UciOption::parse("name Clear Hash type button").expect("a button");
        assert_eq!(
            (clear.name.as_str(), &clear.kind),
            ("Clear Hash", &OptionKind::Button)
        );
        assert!(clear.check_value("").is_ok() && clear.check_value("1").is_err());
        let file = UciOption::parse("name Debug Log File type string default").expect("a string");
        assert_eq!(file.default.as_deref(), Some(""));
        let nnue = UciOption::parse("name EvalFile type string default <empty>").expect("string");
        assert_eq!(nnue.default.as_deref(), Some(""));
        let style = UciOption::parse(
            "name Style type combo default Normal var Solid var Normal var Risky play",
        )
        .expect("a combo");
        assert_eq!(
            style.kind,
            OptionKind::Combo {
                choices: vec!["Solid".into(), "Normal".into(), "Risky play".into()]
            }
        );
        assert!(style.check_value("risky play").is_ok());
        assert_eq!(
            style.check_value("Wild").expect_err("not a choice"),
            "one of Solid, Normal, Risky play"
        );
        let ponder = UciOption::parse("name Ponder type check default false").expect("check");
        assert!(ponder.check_value("true").is_ok() && ponder.check_value("yes").is_err());
    }

    #[test]
    fn declarations_without_name_or_type_are_left_out() {
        assert_eq!(UciOption::parse("type spin"), None);
        assert_eq!(UciOption::parse("name Hash"), None);
        assert_eq!(UciOption::parse("name Hash type dial"), None);
        assert_eq!(UciOption::parse(""), None);
    }
}
