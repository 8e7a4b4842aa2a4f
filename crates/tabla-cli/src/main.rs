//! The `tabla` command-line tool.

fn main() {}
