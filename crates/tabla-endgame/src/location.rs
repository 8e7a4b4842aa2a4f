//! Where the table files live by default.

use std::path::PathBuf;

/// The environment variable naming the folder of the endgame tables' directory.
const DIR_VARIABLE: &str = "TABLA_ENDGAME_DIR";

/// The default directory of the table files (`tabla tb`, `tabla serve --tb-dir`), the first that
/// applies of: `$TABLA_ENDGAME_DIR/tb`, `$XDG_DATA_HOME/tabla/tb`, `$HOME/.local/share/tabla/tb`,
/// `tb`.
///
/// ```
/// let dir = tabla_endgame::default_tablebase_dir();
/// assert!(dir.ends_with("tb"));
/// ```
pub fn default_tablebase_dir() -> PathBuf {
    default_tablebase_dir_with(|key| std::env::var_os(key))
}

/// [`default_tablebase_dir`] with the environment given as a function.
fn default_tablebase_dir_with(env: impl Fn(&str) -> Option<std::ffi::OsString>) -> PathBuf {
    let set = |key: &str| env(key).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = set(DIR_VARIABLE) {
        return dir.join("tb");
    }
    match tabla::data_dir_with(&env) {
        Some(dir) => dir.join("tb"),
        None => PathBuf::from("tb"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    #[test]
    fn default_dir_order() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |key: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map(|(_, v)| OsString::from(v))
            }
        };
        let all = env(&[
            ("TABLA_ENDGAME_DIR", "/t"),
            ("XDG_DATA_HOME", "/x"),
            ("HOME", "/h"),
        ]);
        assert_eq!(default_tablebase_dir_with(all), PathBuf::from("/t/tb"));
        let xdg = env(&[("XDG_DATA_HOME", "/x"), ("HOME", "/h")]);
        assert_eq!(
            default_tablebase_dir_with(xdg),
            PathBuf::from("/x/tabla/tb")
        );
        let home = env(&[("TABLA_ENDGAME_DIR", ""), ("HOME", "/h")]);
        assert_eq!(
            default_tablebase_dir_with(home),
            PathBuf::from("/h/.local/share/tabla/tb")
        );
        assert_eq!(default_tablebase_dir_with(env(&[])), PathBuf::from("tb"));
    }
}
