//! Iterating over the games of a reader as trees.

use crate::{Game, GameTree, Reader};
use std::io::{self, Read};

/// An iterator over the games of a [`Reader`], as [`Game`] trees (see [`Reader::games`]).
#[derive(Debug)]
pub struct Games<'a, R> {
    reader: &'a mut Reader<R>,
    tree: GameTree,
    failed: bool,
}

impl<R: Read> Reader<R> {
    /// The remaining games as trees; an I/O error ends the iteration after it is returned.
    pub fn games(&mut self) -> Games<'_, R> {
        Games {
            reader: self,
            tree: GameTree::new(),
            failed: false,
        }
    }
}

impl<R: Read> Iterator for Games<'_, R> {
    type Item = io::Result<Game>;

    fn next(&mut self) -> Option<io::Result<Game>> {
        if self.failed {
            return None;
        }
        let next = self.reader.read_game(&mut self.tree).transpose();
        self.failed = matches!(next, Some(Err(_)));
        next
    }
}
