//! tabla's own engine behind the [`Analyser`] interface, searching in this process on one
//! thread of its own.

use super::analyser::{Analyser, StopSignal};
use super::analysis::{Analysis, LatestLines, Line};
use super::error::{EngineError, EngineId, IllegalMove, Said};
use super::request::Request;
use std::sync::mpsc;
use tabla::{Move, Position};
use tabla_engine::{Engine, Info, SEARCH_STACK_BYTES};

/// tabla's engine ([`tabla_engine::Engine`]) as an [`Analyser`]: its search threads (one unless the
/// caller set more), its hash
/// table kept from one search to the next unless a request asks for a new game.
///
/// ```
/// use tabla::Position;
/// use tabla_analysis::{Analyser, Budget, Request, StopSignal, TablaAnalyser};
/// let mut tabla = TablaAnalyser::new();
/// let request = Request::new(Position::startpos(), Budget::Depth(6)).with_multipv(2);
/// let analysis = tabla.analyse(&request, &StopSignal::new(), &mut |_| {}).unwrap();
/// assert_eq!(analysis.lines.len(), 2);
/// assert_ne!(analysis.lines[0].pv[0], analysis.lines[1].pv[0]);
/// assert_eq!(tabla.id().to_string(), format!("{} (in process)", tabla_engine::uci::ENGINE_NAME));
/// ```
pub struct TablaAnalyser {
    engine: Engine,
    id: EngineId,
}

impl Default for TablaAnalyser {
    fn default() -> TablaAnalyser {
        TablaAnalyser::new()
    }
}

impl TablaAnalyser {
    /// A new engine with its default hash table, on one thread.
    pub fn new() -> TablaAnalyser {
        TablaAnalyser::with_engine(Engine::new())
    }

    /// An engine set up by the caller (hash size, endgame tables, search threads: `tabla go
    /// --threads`). [`Engine::new`] searches on one thread, as a pool's engines do: a pool
    /// gets its parallelism from several engines.
    pub fn with_engine(engine: Engine) -> TablaAnalyser {
        TablaAnalyser {
            engine,
            id: EngineId {
                path: "in process".to_owned(),
                name: Some(tabla_engine::uci::ENGINE_NAME.to_owned()),
            },
        }
    }
}

impl Analyser for TablaAnalyser {
    fn id(&self) -> &EngineId {
        &self.id
    }

    fn search(
        &mut self,
        request: &Request,
        stop: &StopSignal,
        on_line: &mut dyn FnMut(&Line),
    ) -> Result<Analysis, EngineError> {
        if request.new_game {
            self.engine.new_game();
        }
        self.engine.set_multipv(request.multipv);
        let limits = request.budget.limits();
        let position = &request.position;
        let engine = &mut self.engine;
        let mut lines = LatestLines::default();
        let mut illegal = None;
        // The search runs on a thread of its own (it needs a large stack) and hands its reports
        // back here, so that `on_line` runs on the caller's thread and need not be `Send`.
        let (sender, reports) = mpsc::channel::<Info>();
        let searched = std::thread::scope(|scope| {
            let search = std::thread::Builder::new()
                .name("tabla-analysis".into())
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let mut report = |info: &Info| {
                        let _ = sender.send(info.clone());
                    };
                    engine.search_here(position, &limits, stop.control(), &mut report)
                })?;
            for info in reports {
                match line_of(position, info) {
                    Ok(line) => {
                        on_line(&line);
                        lines.record(line, request.multipv);
                    }
                    Err(error) => {
                        illegal.get_or_insert(error);
                    }
                }
            }
            Ok(search
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
        });
        let result = searched.map_err(|source: std::io::Error| EngineError::Spawn {
            path: self.id.to_string(),
            source,
        })?;
        if let Some((text, fen, place, said)) = illegal {
            return Err(EngineError::IllegalMove(Box::new(IllegalMove {
                engine: self.id.clone(),
                text,
                fen,
                place,
                said,
            })));
        }
        if lines.is_empty() && !stop.is_stopped() {
            return Err(EngineError::NoScore {
                engine: self.id.clone(),
                said: Said::line(&result.bestmove_line()),
            });
        }
        lines.count_nodes(result.nodes);
        Ok(lines.finish(result.best, stop.is_stopped()))
    }
}

/// An illegal move: its text, the FEN where it stood, its place in the line, the line.
type Illegal = (String, String, String, Said);

/// A report as a [`Line`], its moves checked: tabla's search should only ever give legal ones,
/// and a bug there is reported like any engine's.
fn line_of(position: &Position, info: Info) -> Result<Line, Illegal> {
    let mut walk = position.clone_without_history();
    for (index, &mv) in info.pv.iter().enumerate() {
        if walk.play(mv).is_err() {
            return Err(illegal(&walk, mv, index, &info));
        }
    }
    Ok(Line {
        multipv: info.multipv,
        score: info.score,
        bound: info.bound,
        depth: info.depth,
        seldepth: Some(info.seldepth),
        nodes: Some(info.nodes),
        nps: Some(info.nps()),
        time: Some(info.time),
        pv: info.pv,
    })
}

fn illegal(walk: &Position, mv: Move, index: usize, info: &Info) -> Illegal {
    (
        mv.to_string(),
        walk.to_fen(),
        format!("move {} of the principal variation", index + 1),
        Said::line(&info.uci_line(true)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The caller's thread count is kept (`tabla go --threads 2` searched on one thread when
    /// this reset it).
    #[test]
    fn the_engine_s_threads_are_kept() {
        let mut engine = Engine::new();
        engine.set_threads(2);
        assert_eq!(TablaAnalyser::with_engine(engine).engine.threads(), 2);
        assert_eq!(TablaAnalyser::new().engine.threads(), 1);
    }
}
