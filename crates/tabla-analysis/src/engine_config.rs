//! The engine a user chose, in one place: the command line's `--engine`, else the
//! `TABLA_ENGINE` environment variable, else the file `engine.toml` in tabla's configuration
//! directory, else tabla's own engine ([`EngineChoice`]); the file itself ([`EngineConfig`]);
//! and where a Stockfish is installed, for the hint that it could be the default
//! ([`stockfish_on_path`]).

use crate::engine_spec::EngineSpec;
use crate::uci_spec::UciSpec;
use std::ffi::OsString;
use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The environment variable naming the default engine: a UCI program's path, or `tabla`.
pub const ENGINE_VARIABLE: &str = "TABLA_ENGINE";

/// The file, in tabla's configuration directory ([`tabla::config_dir`]), naming the default
/// engine and its options.
pub const CONFIG_FILE: &str = "engine.toml";

/// The word that names tabla's own engine wherever a UCI program's path may be given.
pub const TABLA_ENGINE: &str = "tabla";

/// A configuration that cannot be read, written or used, naming the file and the place.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file exists but cannot be read.
    #[error("reading {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The file is not what tabla writes: its path, and the line and what is wrong.
    #[error("{}: {message}", path.display())]
    Syntax {
        /// The file.
        path: PathBuf,
        /// What is wrong, and where.
        message: String,
    },
    /// The file cannot be written.
    #[error("writing {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The engine's path could not be made absolute (the current directory is gone).
    #[error("the path {}: {source}", path.display())]
    Absolute {
        /// The path.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// Neither `XDG_CONFIG_HOME` nor `HOME` is set, so there is no configuration directory.
    #[error("no configuration directory: neither XDG_CONFIG_HOME nor HOME is set")]
    NoDirectory,
    /// Engine options were given for tabla's own engine, which takes none.
    #[error(
        "engine options go to a UCI engine: give its path too, or make one the default (`tabla \
         engine set PATH`); the engine here is tabla's own ({0}), which takes none"
    )]
    OptionsForTabla(ChosenBy),
}

/// What chose the engine in use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChosenBy {
    /// The command line (`--engine`) or the caller (Python's `path=`).
    Caller,
    /// The `TABLA_ENGINE` environment variable.
    Environment,
    /// The configuration file at this path.
    File(PathBuf),
    /// Nothing: tabla's own engine, the default.
    Default,
}

impl fmt::Display for ChosenBy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChosenBy::Caller => write!(f, "given by --engine"),
            ChosenBy::Environment => write!(f, "named by ${ENGINE_VARIABLE}"),
            ChosenBy::File(path) => write!(f, "configured in {}", path.display()),
            ChosenBy::Default => write!(f, "the default: no engine is configured"),
        }
    }
}

/// The engine a command uses, and what chose it.
///
/// ```
/// use std::ffi::OsString;
/// use tabla_analysis::{ChosenBy, EngineChoice, EngineSpec};
/// // Nothing configured: tabla's own engine.
/// let none = EngineChoice::resolve_with(None, &[], |_| None).unwrap();
/// assert!(matches!(none.spec, EngineSpec::Tabla));
/// assert_eq!(none.chosen_by, ChosenBy::Default);
/// // TABLA_ENGINE names a program; --engine would come first.
/// let env = |key: &str| (key == "TABLA_ENGINE").then(|| OsString::from("/usr/games/stockfish"));
/// let choice = EngineChoice::resolve_with(None, &[("Hash".into(), "64".into())], env).unwrap();
/// let EngineSpec::Uci(spec) = &choice.spec else { panic!("a UCI engine") };
/// assert_eq!(spec.path.to_str(), Some("/usr/games/stockfish"));
/// assert_eq!(spec.options, [("Hash".to_owned(), "64".to_owned())]);
/// assert_eq!(choice.chosen_by, ChosenBy::Environment);
/// ```
#[derive(Clone, Debug)]
pub struct EngineChoice {
    /// The engine.
    pub spec: EngineSpec,
    /// What chose it.
    pub chosen_by: ChosenBy,
}

impl EngineChoice {
    /// The engine of a command: `given` (a path, or `tabla`) when there is one, else
    /// `$TABLA_ENGINE`, else the configuration file, else tabla's own engine. `options`
    /// (`Name`, `Value`) are set after the configuration file's own, so that they win; they are
    /// an error for tabla's engine.
    pub fn resolve(
        given: Option<&Path>,
        options: &[(String, String)],
    ) -> Result<EngineChoice, ConfigError> {
        EngineChoice::resolve_with(given, options, |key| std::env::var_os(key))
    }

    /// [`EngineChoice::resolve`] with the environment given as a function.
    pub fn resolve_with(
        given: Option<&Path>,
        options: &[(String, String)],
        env: impl Fn(&str) -> Option<OsString>,
    ) -> Result<EngineChoice, ConfigError> {
        let from_env = env(ENGINE_VARIABLE).filter(|v| !v.is_empty());
        let (config, chosen_by) = match (given, from_env) {
            (Some(path), _) => (EngineConfig::named(path), ChosenBy::Caller),
            (None, Some(value)) => (
                EngineConfig::named(Path::new(&value)),
                ChosenBy::Environment,
            ),
            (None, None) => match EngineConfig::path_with(&env) {
                Some(file) => match EngineConfig::read(&file)? {
                    Some(config) => (config, ChosenBy::File(file)),
                    None => (EngineConfig::tabla(), ChosenBy::Default),
                },
                None => (EngineConfig::tabla(), ChosenBy::Default),
            },
        };
        let spec = match config.spec() {
            EngineSpec::Tabla if !options.is_empty() => {
                return Err(ConfigError::OptionsForTabla(chosen_by));
            }
            EngineSpec::Tabla => EngineSpec::Tabla,
            EngineSpec::Uci(mut spec) => {
                spec.options.extend(options.iter().cloned());
                EngineSpec::Uci(spec)
            }
        };
        Ok(EngineChoice { spec, chosen_by })
    }

    /// When tabla's own engine is in use only because nothing is configured and a Stockfish is
    /// installed, a note saying how to make that the default (for standard error); else `None`.
    pub fn hint(&self) -> Option<String> {
        self.hint_with(|key| std::env::var_os(key))
    }

    /// [`EngineChoice::hint`] with the environment given as a function.
    pub fn hint_with(&self, env: impl Fn(&str) -> Option<OsString>) -> Option<String> {
        if self.chosen_by != ChosenBy::Default {
            return None;
        }
        let stockfish = stockfish_on_path(env)?;
        Some(format!(
            "note: tabla's own engine is in use; Stockfish is installed at {0}, which reviews \
             better and about three times faster (docs/performance.md): `tabla engine set {0}` \
             makes it the default",
            stockfish.display()
        ))
    }
}

/// The configuration file's content: the engine (a path, or `tabla`) and its options in order.
///
/// ```
/// use tabla_analysis::EngineConfig;
/// let dir = tempfile::tempdir().unwrap();
/// let file = dir.path().join("engine.toml");
/// let config = EngineConfig {
///     engine: "/usr/games/stockfish".into(),
///     options: vec![("Hash".into(), "64".into()), ("Skill Level".into(), "20".into())],
/// };
/// config.write(&file).unwrap();
/// assert_eq!(EngineConfig::read(&file).unwrap(), Some(config));
/// assert_eq!(EngineConfig::read(&dir.path().join("none.toml")).unwrap(), None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// A UCI program's path, or `tabla` for tabla's own engine.
    pub engine: String,
    /// Options of the UCI engine, `Name` and `Value`, set in this order.
    pub options: Vec<(String, String)>,
}

impl EngineConfig {
    /// tabla's own engine.
    pub fn tabla() -> EngineConfig {
        EngineConfig {
            engine: TABLA_ENGINE.to_owned(),
            options: Vec::new(),
        }
    }

    /// The engine at `path` (or tabla's own, for `tabla`), without options.
    pub fn named(path: &Path) -> EngineConfig {
        EngineConfig {
            engine: path.to_string_lossy().into_owned(),
            options: Vec::new(),
        }
    }

    /// What `tabla engine set` keeps for the engine at `path` with `options`: a path with a
    /// directory made absolute (the file is read from other directories); a bare name
    /// (`stockfish`) stays one, looked up on the `PATH`; `tabla` is tabla's own.
    ///
    /// ```
    /// use std::path::Path;
    /// use tabla_analysis::EngineConfig;
    /// let bare = EngineConfig::to_keep(Path::new("stockfish"), Vec::new()).unwrap();
    /// assert_eq!(bare.engine, "stockfish");
    /// let relative = EngineConfig::to_keep(Path::new("bin/engine"), Vec::new()).unwrap();
    /// assert!(Path::new(&relative.engine).is_absolute());
    /// assert_eq!(EngineConfig::to_keep(Path::new("tabla"), Vec::new()).unwrap().engine, "tabla");
    /// ```
    pub fn to_keep(
        path: &Path,
        options: Vec<(String, String)>,
    ) -> Result<EngineConfig, ConfigError> {
        let path = if path.as_os_str() != TABLA_ENGINE && path.components().count() > 1 {
            std::path::absolute(path).map_err(|source| ConfigError::Absolute {
                path: path.to_owned(),
                source,
            })?
        } else {
            path.to_owned()
        };
        Ok(EngineConfig {
            options,
            ..EngineConfig::named(&path)
        })
    }

    /// The engine it names.
    pub fn spec(&self) -> EngineSpec {
        if self.engine == TABLA_ENGINE {
            return EngineSpec::Tabla;
        }
        let mut spec = UciSpec::new(&self.engine);
        spec.options = self.options.clone();
        EngineSpec::Uci(spec)
    }

    /// Where the file is: [`CONFIG_FILE`] in tabla's configuration directory.
    pub fn path() -> Option<PathBuf> {
        EngineConfig::path_with(|key| std::env::var_os(key))
    }

    /// [`EngineConfig::path`] with the environment given as a function.
    pub fn path_with(env: impl Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
        tabla::config_dir_with(env).map(|dir| dir.join(CONFIG_FILE))
    }

    /// Reads the file at `path`: `None` when there is none.
    pub fn read(path: &Path) -> Result<Option<EngineConfig>, ConfigError> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(source) => {
                return Err(ConfigError::Read {
                    path: path.to_owned(),
                    source,
                });
            }
        };
        let syntax = |message: String| ConfigError::Syntax {
            path: path.to_owned(),
            message,
        };
        let table: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| syntax(place(&text, &e)))?;
        let mut engine = None;
        let mut options = Vec::new();
        for (key, value) in &table {
            match (key.as_str(), value) {
                ("engine", toml::Value::String(text)) if !text.trim().is_empty() => {
                    engine = Some(text.trim().to_owned());
                }
                ("engine", _) => {
                    return Err(syntax(
                        "`engine` is a UCI program's path or \"tabla\", in quotes".into(),
                    ));
                }
                ("options", toml::Value::Table(list)) => {
                    for (name, value) in list {
                        let value = match value {
                            toml::Value::String(text) => text.clone(),
                            toml::Value::Integer(n) => n.to_string(),
                            toml::Value::Boolean(b) => b.to_string(),
                            other => {
                                return Err(syntax(format!(
                                    "option {name:?}: a value is a string, a whole number or \
                                     true/false, not {}",
                                    other.type_str()
                                )));
                            }
                        };
                        options.push((name.clone(), value));
                    }
                }
                ("options", _) => {
                    return Err(syntax(
                        "`options` is a table: [options] followed by lines such as Hash = 64"
                            .into(),
                    ));
                }
                (other, _) => {
                    return Err(syntax(format!(
                        "unknown key {other:?}: the file holds `engine` and `[options]`"
                    )));
                }
            }
        }
        let engine = engine.ok_or_else(|| syntax("no `engine = \"...\"` line".into()))?;
        if engine == TABLA_ENGINE && !options.is_empty() {
            return Err(syntax(
                "options go to a UCI engine; tabla's own engine takes none".into(),
            ));
        }
        Ok(Some(EngineConfig { engine, options }))
    }

    /// Writes the file at `path` (its directory created), replacing any file there only once the
    /// new one is complete.
    pub fn write(&self, path: &Path) -> Result<(), ConfigError> {
        let failed = |source| ConfigError::Write {
            path: path.to_owned(),
            source,
        };
        let mut table = toml::Table::new();
        table.insert("engine".into(), toml::Value::String(self.engine.clone()));
        if !self.options.is_empty() {
            let options = self
                .options
                .iter()
                .map(|(name, value)| (name.clone(), toml::Value::String(value.clone())))
                .collect();
            table.insert("options".into(), toml::Value::Table(options));
        }
        let body = toml::to_string(&table)
            .map_err(|e| failed(io::Error::new(io::ErrorKind::InvalidData, e)))?;
        let dir = path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(failed)?;
        let mut temporary = tempfile::NamedTempFile::new_in(dir).map_err(failed)?;
        let text = format!(
            "# The engine tabla uses when a command names none (`tabla engine set` writes this \
             file;\n# ${ENGINE_VARIABLE} and --engine come before it). \"tabla\" is tabla's own \
             engine.\n{body}"
        );
        temporary.write_all(text.as_bytes()).map_err(failed)?;
        temporary.as_file().sync_all().map_err(failed)?;
        temporary.persist(path).map_err(|e| failed(e.error))?;
        Ok(())
    }
}

/// A TOML error as `line L, column C: what`.
fn place(text: &str, error: &toml::de::Error) -> String {
    let message = error.message().trim_end();
    let Some(span) = error.span() else {
        return message.to_owned();
    };
    let before = &text[..span.start.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("line {line}, column {column}: {message}")
}

/// A `stockfish` program in a directory of `PATH`, else Debian's `/usr/games/stockfish` (where
/// Debian installs it, a directory not every `PATH` holds).
///
/// ```
/// use std::ffi::OsString;
/// let nowhere = |key: &str| (key == "PATH").then(|| OsString::from("/nonexistent"));
/// let found = tabla_analysis::stockfish_on_path(nowhere);
/// assert!(found.is_none() || found == Some("/usr/games/stockfish".into()));
/// ```
pub fn stockfish_on_path(env: impl Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    let path = env("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/games")])
        .map(|dir| dir.join("stockfish"))
        .find(|candidate| is_executable(candidate))
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: Vec<(&'static str, OsString)>) -> impl Fn(&str) -> Option<OsString> {
        move |key| {
            pairs
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| v.clone())
        }
    }

    fn write(dir: &Path, text: &str) -> PathBuf {
        let file = dir.join("tabla").join(CONFIG_FILE);
        std::fs::create_dir_all(file.parent().expect("a directory")).expect("dir");
        std::fs::write(&file, text).expect("written");
        file
    }

    #[test]
    fn the_command_line_then_the_variable_then_the_file_then_tabla() -> Result<(), ConfigError> {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = write(
            dir.path(),
            "engine = \"/opt/sf\"\n[options]\nHash = 64\nPonder = false\n",
        );
        let home = || ("XDG_CONFIG_HOME", dir.path().as_os_str().to_owned());
        let variable = || (ENGINE_VARIABLE, OsString::from("/opt/other"));
        let uci = |choice: &EngineChoice| match &choice.spec {
            EngineSpec::Uci(spec) => (spec.path.clone(), spec.options.clone()),
            EngineSpec::Tabla => (PathBuf::from(TABLA_ENGINE), Vec::new()),
        };
        let extra = [("Hash".to_owned(), "128".to_owned())];

        let given = EngineChoice::resolve_with(
            Some(Path::new("/opt/given")),
            &extra,
            env(vec![home(), variable()]),
        )?;
        assert_eq!(given.chosen_by, ChosenBy::Caller);
        assert_eq!(uci(&given), ("/opt/given".into(), extra.to_vec()));

        let from_env = EngineChoice::resolve_with(None, &[], env(vec![home(), variable()]))?;
        assert_eq!(from_env.chosen_by, ChosenBy::Environment);
        assert_eq!(uci(&from_env), ("/opt/other".into(), Vec::new()));

        // The file's options first, the command line's after them (the engine takes the last).
        let from_file = EngineChoice::resolve_with(None, &extra, env(vec![home()]))?;
        assert_eq!(from_file.chosen_by, ChosenBy::File(file));
        let pair = |n: &str, v: &str| (n.to_owned(), v.to_owned());
        assert_eq!(
            uci(&from_file),
            (
                "/opt/sf".into(),
                vec![
                    pair("Hash", "64"),
                    pair("Ponder", "false"),
                    pair("Hash", "128")
                ]
            )
        );

        let empty = tempfile::tempdir().expect("temp dir");
        let none = EngineChoice::resolve_with(
            None,
            &[],
            env(vec![(
                "XDG_CONFIG_HOME",
                empty.path().as_os_str().to_owned(),
            )]),
        )?;
        assert_eq!(none.chosen_by, ChosenBy::Default);
        assert!(matches!(none.spec, EngineSpec::Tabla));
        // `tabla` names tabla's own engine, which takes no option.
        let tabla = EngineChoice::resolve_with(Some(Path::new("tabla")), &[], env(vec![]))?;
        assert!(matches!(tabla.spec, EngineSpec::Tabla));
        assert!(matches!(
            EngineChoice::resolve_with(Some(Path::new("tabla")), &extra, env(vec![])),
            Err(ConfigError::OptionsForTabla(ChosenBy::Caller))
        ));
        Ok(())
    }

    #[test]
    fn a_broken_file_is_an_error_that_names_it_and_the_place() {
        let dir = tempfile::tempdir().expect("temp dir");
        for (text, expected) in [
            ("engine = /opt/sf\n", "line 1"),
            ("engin = \"/opt/sf\"\n", "unknown key \"engin\""),
            ("[options]\nHash = 64\n", "no `engine"),
            ("engine = 3\n", "`engine` is"),
            ("engine = \"/x\"\noptions = 3\n", "`options` is a table"),
            (
                "engine = \"/x\"\n[options]\nHash = 1.5\n",
                "option \"Hash\"",
            ),
            ("engine = \"tabla\"\n[options]\nHash = 1\n", "takes none"),
        ] {
            let file = write(dir.path(), text);
            let home = env(vec![("XDG_CONFIG_HOME", dir.path().as_os_str().to_owned())]);
            let error = EngineChoice::resolve_with(None, &[], home)
                .expect_err(text)
                .to_string();
            assert!(error.starts_with(&file.display().to_string()), "{error}");
            assert!(error.contains(expected), "{text:?}: {error}");
        }
    }

    #[test]
    fn the_hint_only_when_nothing_is_configured_and_a_stockfish_is_installed() {
        let dir = tempfile::tempdir().expect("temp dir");
        let fake = dir.path().join("stockfish");
        std::fs::write(&fake, "#!/bin/sh\n").expect("written");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755))
                .expect("executable");
        }
        let path = || ("PATH", dir.path().as_os_str().to_owned());
        let default = EngineChoice {
            spec: EngineSpec::Tabla,
            chosen_by: ChosenBy::Default,
        };
        let hint = default.hint_with(env(vec![path()])).expect("a hint");
        assert!(
            hint.contains(&format!("tabla engine set {}", fake.display())),
            "{hint}"
        );
        let chosen = EngineChoice {
            spec: EngineSpec::Tabla,
            chosen_by: ChosenBy::Caller,
        };
        assert_eq!(chosen.hint_with(env(vec![path()])), None);
    }
}
