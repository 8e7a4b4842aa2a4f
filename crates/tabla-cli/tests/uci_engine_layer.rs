//! `tabla uci` driven by tabla-analysis's engine layer as any UCI engine is: the handshake, its
//! options, a mate in one, MultiPV, a node budget, a pool of them, and agreement with the same
//! engine in process.

use tabla::Position;
use tabla_analysis::{
    Analyser, Analysis, Budget, EngineError, EngineSpec, Pool, Request, StopSignal, TablaAnalyser,
    UciEngine, UciSpec,
};
use tabla_engine::Score;

fn tabla_uci() -> UciSpec {
    UciSpec::new(env!("CARGO_BIN_EXE_tabla")).arg("uci")
}

fn analyse(engine: &mut dyn Analyser, request: &Request) -> Analysis {
    engine
        .analyse(request, &StopSignal::new(), &mut |_| {})
        .unwrap_or_else(|error| panic!("{error}"))
}

#[test]
fn tabla_uci_finds_a_mate_in_one_as_tabla_in_process_does() {
    let mut uci = UciEngine::start(tabla_uci()).expect("tabla uci starts");
    assert_eq!(
        uci.id().name.as_deref(),
        Some(tabla_engine::uci::ENGINE_NAME)
    );
    let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").expect("valid FEN");
    let request = Request::new(pos, Budget::Depth(6));
    for engine in [&mut uci as &mut dyn Analyser, &mut TablaAnalyser::new()] {
        let analysis = analyse(engine, &request);
        let best = analysis.best().expect("a line");
        assert_eq!(best.score, Score::Mate(1), "{}", engine.id());
        assert_eq!(
            best.pv.first().map(|m| m.to_string()).as_deref(),
            Some("a1a8")
        );
    }
}

#[test]
fn tabla_uci_gives_distinct_lines_and_keeps_to_a_node_budget() {
    let mut uci = UciEngine::start(tabla_uci().option("Hash", "32")).expect("tabla uci starts");
    let request = Request::new(Position::startpos(), Budget::Depth(6)).with_multipv(3);
    let analysis = analyse(&mut uci, &request);
    let mut firsts: Vec<String> = analysis.lines.iter().map(|l| l.pv[0].to_string()).collect();
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "{:?}", analysis.lines);
    let budget = 50_000;
    let request = Request::new(Position::startpos(), Budget::Nodes(budget)).with_new_game();
    let nodes = analyse(&mut uci, &request).nodes.expect("a node count");
    assert!(
        nodes >= budget / 2 && nodes <= budget + budget / 2,
        "{nodes} nodes"
    );
}

#[test]
fn tabla_uci_refuses_options_it_does_not_list() {
    let error = match UciEngine::start(tabla_uci().option("Contempt", "20")) {
        Err(error) => error,
        Ok(_) => panic!("tabla has no Contempt option"),
    };
    assert!(matches!(error, EngineError::UnknownOption { .. }));
    let message = error.to_string();
    assert!(
        message.starts_with(tabla_engine::uci::ENGINE_NAME),
        "{message}"
    );
    assert!(
        message.contains("\"Contempt\"") && message.contains("MultiPV"),
        "{message}"
    );
}

#[test]
fn a_pool_of_tabla_uci_answers_every_position_as_tabla_in_process_does() {
    let mut pos = Position::startpos();
    let mut requests = Vec::new();
    for san in ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"] {
        requests.push(Request::new(pos.clone(), Budget::Depth(5)).with_new_game());
        pos.push_san(san).expect("legal");
    }
    requests.push(Request::new(pos, Budget::Depth(5)));
    let mut uci = Pool::start(&EngineSpec::Uci(tabla_uci()), 2).expect("tabla uci starts");
    let mut in_process = Pool::start(&EngineSpec::Tabla, 2).expect("tabla starts");
    let scores = |outcomes: Vec<Result<Analysis, EngineError>>| -> Vec<Score> {
        outcomes
            .into_iter()
            .map(|o| o.unwrap_or_else(|e| panic!("{e}")).lines[0].score)
            .collect()
    };
    let by_uci = scores(uci.analyse_all(requests.clone()));
    let by_tabla = scores(in_process.analyse_all(requests));
    assert_eq!(by_uci[6], Score::Mate(1));
    assert_eq!(by_uci[7], Score::Mate(0));
    // One thread, a fresh hash table, the same depth: the same engine gives the same scores.
    assert_eq!(by_uci, by_tabla);
}
