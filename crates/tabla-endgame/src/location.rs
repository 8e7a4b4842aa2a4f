//! Where table files live by default, and opening one or building it on first use.

use crate::file::FileError;
use crate::generate::{Progress, generate};
use crate::material::Material;
use crate::table::Table;
use std::path::{Path, PathBuf};

/// The environment variable naming the folder for table files.
pub const DIR_VARIABLE: &str = "TABLA_ENDGAME_DIR";

/// The file name of a material's table: `kbnk.tbl`.
pub fn file_name(material: Material) -> String {
    format!("{}.tbl", material.to_string().to_ascii_lowercase())
}

/// The default place of a material's table file, the first that applies of:
/// `$TABLA_ENDGAME_DIR/<name>`, `$XDG_DATA_HOME/tabla/<name>`, `$HOME/.local/share/tabla/<name>`,
/// `./<name>` (`<name>` from [`file_name`]).
pub fn default_path(material: Material) -> PathBuf {
    default_path_with(material, |key| std::env::var_os(key))
}

/// [`default_path`] with the environment given as a function (for tests and embedding).
pub fn default_path_with(
    material: Material,
    env: impl Fn(&str) -> Option<std::ffi::OsString>,
) -> PathBuf {
    let name = file_name(material);
    let set = |key: &str| env(key).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = set(DIR_VARIABLE) {
        return dir.join(name);
    }
    match tabla::data_dir_with(&env) {
        Some(dir) => dir.join(name),
        None => PathBuf::from(name),
    }
}

/// The default directory of the tables of up to five men (`tabla tb`, `tabla serve --tb-dir`):
/// `tb` in the folder of the KBNK table's [`default_path`] (`$TABLA_ENDGAME_DIR/tb`, ...; `tb`
/// when that path has no folder).
pub fn default_tablebase_dir() -> PathBuf {
    default_tablebase_dir_with(|key| std::env::var_os(key))
}

/// [`default_tablebase_dir`] with the environment given as a function.
pub fn default_tablebase_dir_with(env: impl Fn(&str) -> Option<std::ffi::OsString>) -> PathBuf {
    let kbnk = default_path_with(Material::KBNK, env);
    kbnk.parent()
        .map_or_else(|| PathBuf::from("tb"), |p| p.join("tb"))
}

/// How [`open_or_build`] got its table.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Opened {
    /// Read from the file.
    Read,
    /// The file did not exist: generated and written there.
    Built,
}

/// Reads the table at `path`, or, when there is no file there, generates it (reporting
/// `progress`), creates the folder and writes it. A file that exists but is damaged is an error,
/// never rebuilt silently; one holding another material too.
pub fn open_or_build(
    path: &Path,
    material: Material,
    progress: &mut dyn FnMut(&Progress),
) -> Result<(Table, Opened), FileError> {
    if path.exists() {
        let table = Table::read(path)?;
        if table.material() != material {
            return Err(FileError::Unsupported {
                field: "material",
                value: format!("{} (expected {material})", table.material()),
            });
        }
        return Ok((table, Opened::Read));
    }
    Ok((build_and_write(path, material, progress)?, Opened::Built))
}

/// Generates a material's table (reporting `progress` after each ply), creates the folder of
/// `path` when needed and writes the file there: what `tabla kbnk build` does before printing
/// [`Stats`](crate::Stats).
pub fn build_and_write(
    path: &Path,
    material: Material,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Table, FileError> {
    let table = generate(material, progress);
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|source| FileError::Io {
            path: dir.display().to_string(),
            source,
        })?;
    }
    table.write(path)?;
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    #[test]
    fn open_or_build_builds_once_then_reads() {
        let dir = std::env::temp_dir().join(format!("tabla-endgame-loc-{}", std::process::id()));
        let path = dir.join("nested").join(file_name(Material::KRK));
        let mut plies = 0;
        let (built, how) = open_or_build(&path, Material::KRK, &mut |_| plies += 1).expect("build");
        assert_eq!(how, Opened::Built);
        assert!(plies > 0);
        let (read, how) = open_or_build(&path, Material::KRK, &mut |_| {}).expect("read");
        assert_eq!(how, Opened::Read);
        assert!(read == built);
        // A file of another material at the path is refused, not overwritten.
        assert!(open_or_build(&path, Material::KQK, &mut |_| {}).is_err());
        std::fs::remove_dir_all(&dir).expect("clean up");
    }

    #[test]
    fn default_path_order() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |key: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map(|(_, v)| OsString::from(v))
            }
        };
        let m = Material::KBNK;
        let all = env(&[
            ("TABLA_ENDGAME_DIR", "/t"),
            ("XDG_DATA_HOME", "/x"),
            ("HOME", "/h"),
        ]);
        assert_eq!(default_path_with(m, all), PathBuf::from("/t/kbnk.tbl"));
        let xdg = env(&[("XDG_DATA_HOME", "/x"), ("HOME", "/h")]);
        assert_eq!(
            default_path_with(m, xdg),
            PathBuf::from("/x/tabla/kbnk.tbl")
        );
        let home = env(&[("TABLA_ENDGAME_DIR", ""), ("HOME", "/h")]);
        assert_eq!(
            default_path_with(m, home),
            PathBuf::from("/h/.local/share/tabla/kbnk.tbl")
        );
        assert_eq!(default_path_with(m, env(&[])), PathBuf::from("kbnk.tbl"));
        assert_eq!(
            default_tablebase_dir_with(env(&[("TABLA_ENDGAME_DIR", "/t")])),
            PathBuf::from("/t/tb")
        );
        assert_eq!(default_tablebase_dir_with(env(&[])), PathBuf::from("tb"));
    }
}
