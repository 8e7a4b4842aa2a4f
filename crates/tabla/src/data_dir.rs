//! Where tabla keeps what it generates for later runs (endgame tables, the evaluation cache)
//! and what the user chose (the default engine): one rule for every crate.

use std::ffi::OsString;
use std::path::PathBuf;

/// tabla's data directory: `$XDG_DATA_HOME/tabla`, else `$HOME/.local/share/tabla` (the XDG
/// base directory rule); `None` when neither variable is set (nor empty).
pub fn data_dir() -> Option<PathBuf> {
    data_dir_with(|key| std::env::var_os(key))
}

/// [`data_dir`] with the environment given as a function (for tests and embedding).
///
/// ```
/// use std::path::PathBuf;
/// let env = |key: &str| (key == "HOME").then(|| "/home/ana".into());
/// assert_eq!(tabla::data_dir_with(env), Some(PathBuf::from("/home/ana/.local/share/tabla")));
/// assert_eq!(tabla::data_dir_with(|_| None), None);
/// ```
pub fn data_dir_with(env: impl Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    xdg_dir(env, "XDG_DATA_HOME", ".local/share")
}

/// tabla's configuration directory: `$XDG_CONFIG_HOME/tabla`, else `$HOME/.config/tabla` (the
/// XDG base directory rule); `None` when neither variable is set (nor empty).
pub fn config_dir() -> Option<PathBuf> {
    config_dir_with(|key| std::env::var_os(key))
}

/// [`config_dir`] with the environment given as a function (for tests and embedding).
///
/// ```
/// use std::path::PathBuf;
/// let env = |key: &str| (key == "HOME").then(|| "/home/ana".into());
/// assert_eq!(tabla::config_dir_with(env), Some(PathBuf::from("/home/ana/.config/tabla")));
/// assert_eq!(tabla::config_dir_with(|_| None), None);
/// ```
pub fn config_dir_with(env: impl Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    xdg_dir(env, "XDG_CONFIG_HOME", ".config")
}

/// `$<variable>/tabla`, else `$HOME/<under_home>/tabla`: the XDG rule, one place.
fn xdg_dir(
    env: impl Fn(&str) -> Option<OsString>,
    variable: &str,
    under_home: &str,
) -> Option<PathBuf> {
    let set = |key: &str| env(key).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = set(variable) {
        return Some(dir.join("tabla"));
    }
    set("HOME").map(|home| home.join(under_home).join("tabla"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xdg_before_home_and_empty_is_unset() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |key: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == key)
                    .map(|(_, v)| OsString::from(v))
            }
        };
        let both = env(&[("XDG_DATA_HOME", "/x"), ("HOME", "/h")]);
        assert_eq!(data_dir_with(both), Some(PathBuf::from("/x/tabla")));
        let empty_xdg = env(&[("XDG_DATA_HOME", ""), ("HOME", "/h")]);
        assert_eq!(
            data_dir_with(empty_xdg),
            Some(PathBuf::from("/h/.local/share/tabla"))
        );
        let config = env(&[("XDG_CONFIG_HOME", "/c"), ("XDG_DATA_HOME", "/x")]);
        assert_eq!(config_dir_with(config), Some(PathBuf::from("/c/tabla")));
    }
}
