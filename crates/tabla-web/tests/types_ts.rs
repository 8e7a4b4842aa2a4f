//! `web/src/types.ts` against the API's real answers: every route of `src/router.rs` is called in
//! process with inputs that bring out every field (optional ones included), and each JSON answer
//! is checked against the TypeScript type the front end reads it as. A field that is added,
//! renamed or removed on either side, or a value of another kind, fails here:
//! - a key in an answer that the type does not declare: added or renamed in Rust;
//! - a required field missing from an answer, or of another kind: removed or changed in Rust;
//! - a declared field that no answer ever had: removed in Rust, or a sample is missing;
//! - a route of the router without an entry in [`ROUTES`], or a type of `types.ts` that no route
//!   answers with.
//!
//! `types.ts` is read with a small parser of the TypeScript it uses: `export interface`
//! (with `extends`) and `export type`, fields `name: T` and `name?: T`, and types built from
//! `string`, `number`, `boolean`, `null`, string literals, `T[]`, `{ ... }`, `A | B`,
//! `Record<string, T>` and names.

mod common;

use axum::http::StatusCode;
use common::{
    Answer, app, app_with_db, app_with_engine, app_with_limit, enc, fake_engine, get,
    import_test_db, open_analysis, post, read_events, send,
};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

// ---------------------------------------------------------------- types.ts, parsed

/// A TypeScript type, as far as `types.ts` uses them.
#[derive(Debug, Clone)]
enum Ty {
    String,
    Number,
    Boolean,
    Null,
    /// A string literal: `'white'`.
    Literal(String),
    Array(Box<Ty>),
    /// `Record<string, T>`.
    Record(Box<Ty>),
    /// An object type written in place: `{ san: string; uci: string }`.
    Object(Vec<Field>),
    Union(Vec<Ty>),
    /// An interface or type alias of the file.
    Named(String),
}

#[derive(Debug, Clone)]
struct Field {
    name: String,
    optional: bool,
    ty: Ty,
}

/// The declarations of `types.ts`: interfaces with their fields (those of the interfaces they
/// extend first) and the interfaces they extend, and type aliases.
#[derive(Debug, Default)]
struct Declarations {
    interfaces: BTreeMap<String, Vec<Field>>,
    bases: BTreeMap<String, Vec<String>>,
    aliases: BTreeMap<String, Ty>,
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Word(String),
    Str(String),
    Punct(char),
}

fn tokens(source: &str) -> Vec<Token> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == '\'' || c == '"' {
            let end = (i + 1..chars.len())
                .find(|&j| chars[j] == c)
                .expect("a closed string literal");
            out.push(Token::Str(chars[i + 1..end].iter().collect()));
            i = end + 1;
        } else if c.is_alphanumeric() || c == '_' || c == '$' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token::Word(chars[start..i].iter().collect()));
        } else {
            out.push(Token::Punct(c));
            i += 1;
        }
    }
    out
}

struct Parser {
    tokens: Vec<Token>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn next(&mut self) -> Token {
        let t = self.tokens.get(self.at).cloned();
        self.at += 1;
        t.unwrap_or_else(|| panic!("types.ts ends too early"))
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&Token::Punct(c)) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: char) {
        let t = self.next();
        assert_eq!(t, Token::Punct(c), "types.ts: expected {c:?}");
    }

    fn word(&mut self) -> String {
        match self.next() {
            Token::Word(w) => w,
            t => panic!("types.ts: expected a name, found {t:?}"),
        }
    }

    /// `{ name?: T; ... }`, after the `{`.
    fn members(&mut self) -> Vec<Field> {
        let mut fields = Vec::new();
        while !self.eat('}') {
            let name = self.word();
            let optional = self.eat('?');
            self.expect(':');
            let ty = self.union();
            fields.push(Field { name, optional, ty });
            if !self.eat(';') {
                self.eat(',');
            }
        }
        fields
    }

    fn union(&mut self) -> Ty {
        self.eat('|');
        let mut alternatives = vec![self.postfix()];
        while self.eat('|') {
            alternatives.push(self.postfix());
        }
        if alternatives.len() == 1 {
            alternatives.pop().expect("one")
        } else {
            Ty::Union(alternatives)
        }
    }

    fn postfix(&mut self) -> Ty {
        let mut ty = self.primary();
        while self.peek() == Some(&Token::Punct('[')) {
            self.expect('[');
            self.expect(']');
            ty = Ty::Array(Box::new(ty));
        }
        ty
    }

    fn primary(&mut self) -> Ty {
        match self.next() {
            Token::Str(s) => Ty::Literal(s),
            Token::Punct('{') => Ty::Object(self.members()),
            Token::Punct('(') => {
                let ty = self.union();
                self.expect(')');
                ty
            }
            Token::Word(w) => match w.as_str() {
                "string" => Ty::String,
                "number" => Ty::Number,
                "boolean" => Ty::Boolean,
                "null" => Ty::Null,
                "Record" => {
                    self.expect('<');
                    let key = self.union();
                    assert!(
                        matches!(key, Ty::String),
                        "types.ts: Record keys are strings"
                    );
                    self.expect(',');
                    let value = self.union();
                    self.expect('>');
                    Ty::Record(Box::new(value))
                }
                _ => Ty::Named(w),
            },
            t => panic!("types.ts: unexpected {t:?} in a type"),
        }
    }
}

fn parse_types(source: &str) -> Declarations {
    let mut p = Parser {
        tokens: tokens(source),
        at: 0,
    };
    let mut decls = Declarations::default();
    let mut bases: BTreeMap<String, Vec<String>> = BTreeMap::new();
    while p.peek().is_some() {
        assert_eq!(
            p.word(),
            "export",
            "types.ts holds only exported declarations"
        );
        match p.word().as_str() {
            "interface" => {
                let name = p.word();
                let mut extends = Vec::new();
                if p.peek() == Some(&Token::Word("extends".into())) {
                    p.next();
                    extends.push(p.word());
                    while p.eat(',') {
                        extends.push(p.word());
                    }
                }
                p.expect('{');
                let fields = p.members();
                bases.insert(name.clone(), extends);
                decls.interfaces.insert(name, fields);
            }
            "type" => {
                let name = p.word();
                p.expect('=');
                let ty = p.union();
                p.expect(';');
                decls.aliases.insert(name, ty);
            }
            other => panic!("types.ts: `export {other}` is not read by this test"),
        }
    }
    // Inherited fields first, as TypeScript lists them.
    fn all_fields(
        name: &str,
        own: &BTreeMap<String, Vec<Field>>,
        bases: &BTreeMap<String, Vec<String>>,
    ) -> Vec<Field> {
        let mut fields = Vec::new();
        for base in &bases[name] {
            assert!(
                own.contains_key(base),
                "types.ts: {name} extends unknown {base}"
            );
            fields.extend(all_fields(base, own, bases));
        }
        fields.extend(own[name].iter().cloned());
        fields
    }
    let own = decls.interfaces.clone();
    for (name, fields) in &mut decls.interfaces {
        *fields = all_fields(name, &own, &bases);
    }
    decls.bases = bases;
    decls
}

// ---------------------------------------------------------------- answers against types

/// What the answers showed: the problems, and which fields were present at least once.
#[derive(Default)]
struct Check {
    problems: Vec<String>,
    /// `Type.field` (inline objects as `Type.field`, union alternatives as `...|k`).
    seen: BTreeSet<String>,
}

impl Declarations {
    /// Checks `value` at `path` against `ty`; `owner` names an inline object's place.
    fn check(&self, value: &Value, ty: &Ty, owner: &str, path: &str, out: &mut Check) {
        let kind_error = |out: &mut Check, expected: &str| {
            out.problems.push(format!(
                "{path}: expected {expected}, the API gave {}",
                short(value)
            ));
        };
        match ty {
            Ty::String if !value.is_string() => kind_error(out, "a string"),
            Ty::Number if !value.is_number() => kind_error(out, "a number"),
            Ty::Boolean if !value.is_boolean() => kind_error(out, "a boolean"),
            Ty::Null if !value.is_null() => kind_error(out, "null"),
            Ty::String | Ty::Number | Ty::Boolean | Ty::Null => {}
            Ty::Literal(text) if value.as_str() != Some(text.as_str()) => {
                kind_error(out, &format!("'{text}'"));
            }
            Ty::Literal(_) => {}
            Ty::Array(item) => match value.as_array() {
                Some(items) => {
                    for (i, v) in items.iter().enumerate() {
                        self.check(v, item, owner, &format!("{path}[{i}]"), out);
                    }
                }
                None => kind_error(out, "an array"),
            },
            Ty::Record(item) => match value.as_object() {
                Some(map) => {
                    for (k, v) in map {
                        self.check(v, item, owner, &format!("{path}.{k}"), out);
                    }
                }
                None => kind_error(out, "an object"),
            },
            Ty::Object(fields) => self.check_fields(value, fields, owner, path, out),
            Ty::Named(name) => {
                if let Some(fields) = self.interfaces.get(name) {
                    self.check_fields(value, fields, name, path, out);
                } else if let Some(alias) = self.aliases.get(name) {
                    self.check(value, alias, name, path, out);
                } else {
                    out.problems.push(format!(
                        "{path}: types.ts names {name}, which it does not declare"
                    ));
                }
            }
            Ty::Union(alternatives) => {
                let mut tried = Vec::new();
                for (k, alt) in alternatives.iter().enumerate() {
                    let mut attempt = Check::default();
                    self.check(value, alt, &format!("{owner}|{k}"), path, &mut attempt);
                    if attempt.problems.is_empty() {
                        out.seen.extend(attempt.seen);
                        return;
                    }
                    tried.extend(attempt.problems);
                }
                out.problems.push(format!(
                    "{path}: matches no alternative of the union: {}",
                    tried.join("; ")
                ));
            }
        }
    }

    fn check_fields(
        &self,
        value: &Value,
        fields: &[Field],
        owner: &str,
        path: &str,
        out: &mut Check,
    ) {
        let Some(map) = value.as_object() else {
            out.problems.push(format!(
                "{path}: expected an object ({owner}), the API gave {}",
                short(value)
            ));
            return;
        };
        for key in map.keys() {
            if !fields.iter().any(|f| &f.name == key) {
                out.problems.push(format!(
                    "{path}.{key}: the API gives `{key}`, which {owner} in types.ts does not declare"
                ));
            }
        }
        for f in fields {
            match map.get(&f.name) {
                Some(v) => {
                    out.seen.insert(format!("{owner}.{}", f.name));
                    let inner = format!("{owner}.{}", f.name);
                    self.check(v, &f.ty, &inner, &format!("{path}.{}", f.name), out);
                }
                None if f.optional => {}
                None => out.problems.push(format!(
                    "{path}.{}: {owner} in types.ts requires `{}`, which the API did not give",
                    f.name, f.name
                )),
            }
        }
    }

    /// Every field reachable from `ty` (as [`Check::seen`] names them), and the declarations
    /// reached.
    fn declared(
        &self,
        ty: &Ty,
        owner: &str,
        fields: &mut BTreeSet<String>,
        reached: &mut BTreeSet<String>,
    ) {
        match ty {
            Ty::Array(item) | Ty::Record(item) => self.declared(item, owner, fields, reached),
            Ty::Object(members) => self.declared_fields(members, owner, fields, reached),
            Ty::Union(alternatives) => {
                for (k, alt) in alternatives.iter().enumerate() {
                    self.declared(alt, &format!("{owner}|{k}"), fields, reached);
                }
            }
            Ty::Named(name) => {
                if !reached.insert(name.clone()) {
                    return;
                }
                if let Some(members) = self.interfaces.get(name) {
                    // An interface extended by one in use is in use (its fields are checked
                    // as the extending one's).
                    for base in self.bases.get(name).into_iter().flatten() {
                        reached.insert(base.clone());
                    }
                    self.declared_fields(members, name, fields, reached);
                } else if let Some(alias) = self.aliases.get(name) {
                    self.declared(alias, name, fields, reached);
                }
            }
            _ => {}
        }
    }

    fn declared_fields(
        &self,
        members: &[Field],
        owner: &str,
        fields: &mut BTreeSet<String>,
        reached: &mut BTreeSet<String>,
    ) {
        for f in members {
            let name = format!("{owner}.{}", f.name);
            fields.insert(name.clone());
            self.declared(&f.ty, &name, fields, reached);
        }
    }
}

/// `a[3].b[0]` as `a[].b[]`.
fn without_indices(text: &str) -> String {
    let mut out = String::new();
    let mut in_index = false;
    for c in text.chars() {
        match c {
            '[' => {
                in_index = true;
                out.push(c);
            }
            ']' => {
                in_index = false;
                out.push(c);
            }
            c if in_index && c.is_ascii_digit() => {}
            c => {
                in_index = false;
                out.push(c);
            }
        }
    }
    out
}

/// The start of a value, for messages.
fn short(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(80) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text,
    }
}

// ---------------------------------------------------------------- the routes and their answers

/// Every route of the router: method, path, and the type of `types.ts` its JSON answer is read
/// as (`None`: not JSON).
const ROUTES: [(&str, &str, Option<&str>); 20] = [
    ("GET", "/api/position", Some("PositionLineJson")),
    ("GET", "/api/play", Some("PlayedJson")),
    ("GET", "/api/kbnk", Some("ProbeJson")),
    ("GET", "/api/tb", Some("TbJson")),
    ("GET", "/api/suggest", Some("SuggestJson")),
    ("GET", "/api/engine", Some("EngineJson")),
    // Each event's data (a stream of Server-Sent Events).
    ("GET", "/api/analyse", Some("AnalyseJson")),
    ("POST", "/api/pgn", Some("PgnGames")),
    ("POST", "/api/pgn/index", Some("PgnIndex")),
    ("POST", "/api/pgn/game", Some("PgnGameWithText")),
    ("POST", "/api/review", Some("ReviewLine")),
    ("GET", "/api/sample", None),
    ("GET", "/api/db", Some("DbStatusJson")),
    ("GET", "/api/db/explore", Some("DbExplorerJson")),
    ("GET", "/api/db/search", Some("DbGameList")),
    ("GET", "/api/db/games", Some("DbGameList")),
    ("GET", "/api/db/players", Some("DbPlayersJson")),
    ("GET", "/api/db/game/{id}", Some("PgnGameWithText")),
    ("GET", "/api/db/review/plan", Some("DbReviewPlanJson")),
    // Each line of its NDJSON.
    ("POST", "/api/db/review", Some("DbReviewLine")),
];

/// Every error answer's type.
const ERROR_TYPE: &str = "ApiErrorJson";

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Games that bring out every field of a game's JSON: a start FEN, comments before and after
/// moves, NAGs, clocks, move times, evaluations in centipawns and as mates, arrows and circled
/// squares, variations, a warning (a stray `}`) and a game stopped by an illegal move.
const RICH_PGN: &str = r#"[Event "Every field"]
[Site "?"]
[Date "2026.11.25"]
[Round "1"]
[White "A"]
[Black "B"]
[Result "*"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]
[SetUp "1"]

{ Before the first move. } 1. e4 $1 { [%clk 0:05:00] [%emt 0:00:03] [%eval 0.17] [%cal Ge2e4] [%csl Rd4] }
( { Instead: } 1. e3 { [%eval #3] } 1... Kd7 ) 1... Kd8 } 2. Kd2 *

[Event "Damaged"]
[White "C"]
[Black "D"]
[Result "1-0"]

1. e4 e5 2. Ke3 1-0
"#;

/// The JSON answers of every route, with the type each should have, and the error answers.
async fn answers() -> Vec<(String, &'static str, Value)> {
    let mut out: Vec<(String, &'static str, Value)> = streamed().await;
    let mut keep = |what: String, a: Answer, ty: &'static str| {
        let ty = if a.status.is_success() {
            ty
        } else {
            ERROR_TYPE
        };
        assert!(
            a.content_type.starts_with("application/json"),
            "{what}: {} answered {}",
            a.status,
            a.content_type
        );
        out.push((what, ty, a.json()));
    };

    // Positions: in play, in check, checkmate, stalemate; a move played.
    let mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
    let check = "8/8/8/8/8/kn1b4/2P5/K7 w - - 0 1";
    for fen in [START, mate, stalemate, check, "not a fen"] {
        let uri = format!("/api/position?fen={}", enc(fen));
        keep(uri.clone(), get(&uri).await, "PositionLineJson");
    }
    let uri = format!("/api/position?fen={}&moves=e2e4,e7e5", enc(START));
    keep(uri.clone(), get(&uri).await, "PositionLineJson");
    for (fen, uci) in [(START, "e2e4"), (START, "e2e5")] {
        let uri = format!("/api/play?fen={}&uci={uci}", enc(fen));
        keep(uri.clone(), get(&uri).await, "PlayedJson");
    }

    // KBNK: a win, a position with a mating move, checkmate, stalemate, a draw by capture,
    // and a position that is not KBNK.
    for fen in [
        "8/8/8/3k4/8/8/8/KBN5 w - - 0 1",
        "k7/8/NK2B3/8/8/8/8/8 w - - 0 1",
        "k7/8/NK6/3B4/8/8/8/8 b - - 0 1",
        "k7/2K5/2N5/8/8/8/7B/8 b - - 0 1",
        "7K/8/8/8/8/8/Nk6/B7 b - - 0 1",
        START,
    ] {
        let uri = format!("/api/kbnk?fen={}", enc(fen));
        keep(uri.clone(), get(&uri).await, "ProbeJson");
    }

    // The endgame tables (none built here): KBNvK solved in memory, two kings, an ending whose
    // table is missing (the error's `missing` and `command`), more than five men.
    for fen in [
        "8/8/8/3k4/8/8/8/KBN5 w - - 0 1",
        "k7/8/8/8/8/8/8/K7 w - - 0 1",
        "k7/8/1K6/8/8/8/8/6Q1 w - - 0 1",
        START,
    ] {
        let uri = format!("/api/tb?fen={}", enc(fen));
        keep(uri.clone(), get(&uri).await, "TbJson");
    }

    // The engine: a score in centipawns, a mate found, a position without moves.
    for fen in [START, "k7/8/NK2B3/8/8/8/8/8 w - - 0 1", mate] {
        let uri = format!("/api/suggest?fen={}&movetime=100", enc(fen));
        keep(uri.clone(), get(&uri).await, "SuggestJson");
    }

    // PGN: the sample and the rich games, whole, indexed, and game by game.
    for (name, pgn) in [("sample", tabla_web::SAMPLE_PGN), ("rich", RICH_PGN)] {
        keep(
            format!("POST /api/pgn ({name})"),
            post(app(), "/api/pgn", pgn.to_owned()).await,
            "PgnGames",
        );
        let index = post(app(), "/api/pgn/index", pgn.to_owned()).await;
        let games = index.json()["games"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        keep(format!("POST /api/pgn/index ({name})"), index, "PgnIndex");
        for g in games {
            let (start, end) = (
                g["start"].as_u64().expect("start"),
                g["end"].as_u64().expect("end"),
            );
            let uri = format!(
                "/api/pgn/game?index={}&start={start}&line={}&column={}",
                g["index"], g["line"], g["column"]
            );
            let text = pgn.as_bytes()[start as usize..end as usize].to_vec();
            keep(
                format!("POST {uri} ({name})"),
                post(app(), &uri, text).await,
                "PgnGameWithText",
            );
        }
    }
    keep(
        "POST /api/pgn/game (two games)".into(),
        post(app(), "/api/pgn/game", RICH_PGN.to_owned()).await,
        "PgnGameWithText",
    );
    keep(
        "POST /api/pgn (over the limit)".into(),
        post(app_with_limit(10), "/api/pgn", RICH_PGN.to_owned()).await,
        "PgnGames",
    );
    // Reviews: from a game's evals; from the cache only, before (nothing) and after an engine
    // review of a game ending in mate (an evaluation as a mate, a mating move without one), whose
    // NDJSON lines are each checked; bad input.
    let cache = tempfile::tempdir().expect("temporary directory");
    let reviews = {
        let mut state = tabla_web::AppState::new(common::tables());
        state.reviews =
            std::sync::Arc::new(tabla_web::GameReviews::new(Some(cache.path().to_owned())));
        tabla_web::router(state)
    };
    let evals = "1. e4 { [%eval 0.2] } 1... e5 { [%eval 0.25] } 2. Qh5 { [%eval -1.5] } *";
    let fools = "1. f3 e5 2. g4 Qh4# 0-1";
    keep(
        "POST /api/review?cached=1 (evals)".into(),
        post(reviews.clone(), "/api/review?cached=1", evals).await,
        "ReviewAnswer",
    );
    keep(
        "POST /api/review?cached=1 (not cached)".into(),
        post(reviews.clone(), "/api/review?cached=1", fools).await,
        "ReviewAnswer",
    );
    let streamed = post(reviews.clone(), "/api/review", fools).await;
    assert_eq!(streamed.content_type, "application/x-ndjson");
    for (i, line) in String::from_utf8_lossy(&streamed.body).lines().enumerate() {
        let a = Answer {
            status: streamed.status,
            content_type: "application/json".into(),
            allow: None,
            body: line.as_bytes().to_vec(),
        };
        keep(format!("POST /api/review (line {i})"), a, "ReviewLine");
    }
    keep(
        "POST /api/review?cached=1 (cached)".into(),
        post(reviews.clone(), "/api/review?cached=1", fools).await,
        "ReviewAnswer",
    );
    keep(
        "POST /api/review (illegal move)".into(),
        post(reviews, "/api/review", "1. e4 e5 2. Ke3 *").await,
        "ReviewAnswer",
    );
    keep(
        "GET /api/nothing".into(),
        get("/api/nothing").await,
        ERROR_TYPE,
    );

    // The game database: without one, then with testdata's games imported.
    keep(
        "GET /api/db (none)".into(),
        get("/api/db").await,
        "DbStatusJson",
    );
    keep(
        "GET /api/db/explore (none)".into(),
        get("/api/db/explore?fen=startpos").await,
        "DbExplorerJson",
    );
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().to_owned();
    let db = std::sync::Arc::new(
        tokio::task::spawn_blocking(move || import_test_db(&path))
            .await
            .expect("the import runs"),
    );
    let db_get = |uri: String| {
        let app = app_with_db(db.clone());
        async move {
            let req = axum::http::Request::get(uri.as_str())
                .body(axum::body::Body::empty())
                .expect("request");
            send(app, req).await
        }
    };
    keep(
        "GET /api/db".into(),
        db_get("/api/db".into()).await,
        "DbStatusJson",
    );
    // A database with games the explorer leaves out (result unknown): `explorer.left_out`.
    let unknown_dir = tempfile::tempdir().expect("temporary directory");
    let unknown_path = unknown_dir.path().to_owned();
    let with_unknown = tokio::task::spawn_blocking(move || {
        let query = tabla_db::QueryOptions {
            threads: 2,
            memory: 128 << 20,
            spill_dir: None,
        };
        let options = tabla_db::ImportOptions {
            db: unknown_path.clone(),
            inputs: vec![
                tabla_testdata::testdata_dir()
                    .join("results")
                    .join("result-spellings.pgn"),
            ],
            max_ply: None,
            query: query.clone(),
        };
        tabla_db::import(&options, &tabla_convert::NoProgress).expect("import");
        tabla_web::GameDb::open_with(&unknown_path, query).expect("open")
    })
    .await
    .expect("the import runs");
    let status = send(
        app_with_db(std::sync::Arc::new(with_unknown)),
        axum::http::Request::get("/api/db")
            .body(axum::body::Body::empty())
            .expect("request"),
    )
    .await;
    assert!(
        status.json()["explorer"]["left_out"][0]["games"].as_u64() > Some(0),
        "{:?}",
        status.json()
    );
    keep(
        "GET /api/db (games left out)".into(),
        status,
        "DbStatusJson",
    );
    // The start (moves with ratings and months, games listed), a position no game reached,
    // a bad FEN.
    for fen in [START, mate, "not a fen"] {
        let uri = format!("/api/db/explore?fen={}", enc(fen));
        keep(uri.clone(), db_get(uri).await, "DbExplorerJson");
    }
    let start = db_get("/api/db/explore?fen=startpos".into()).await.json();
    let id = start["top_games"][0]["id"]
        .as_str()
        .expect("a game")
        .to_owned();
    for uri in [
        "/api/db/search?moves=e4&limit=3",
        "/api/db/search?material=KRvK&either_color=1",
        "/api/db/search?pattern=wKz9",
    ] {
        keep(uri.into(), db_get(uri.into()).await, "DbGameList");
    }
    for uri in [
        "/api/db/games?limit=3&offset=2",
        "/api/db/games?speed=turbo",
    ] {
        keep(uri.into(), db_get(uri.into()).await, "DbGameList");
    }
    for uri in [format!("/api/db/game/{id}"), "/api/db/game/1".to_owned()] {
        keep(uri.clone(), db_get(uri).await, "PgnGameWithText");
    }
    // Reviews of the database's games: a player's game reviewed (each NDJSON line checked),
    // then the lists showing it; bad filters.
    let player = start["top_games"][0]["white"]
        .as_str()
        .expect("a player")
        .to_owned();
    let reviewing = {
        let mut state = tabla_web::AppState::new(common::tables());
        state.db = Some(db.clone());
        state.reviews = std::sync::Arc::new(
            tabla_web::GameReviews::new(None).with_budget(tabla_analysis::Budget::Nodes(1000)),
        );
        tabla_web::router(state)
    };
    let db_post = |uri: String| {
        let app = reviewing.clone();
        async move {
            let req = axum::http::Request::post(uri.as_str())
                .body(axum::body::Body::empty())
                .expect("request");
            send(app, req).await
        }
    };
    let part = player.chars().take(3).collect::<String>().to_lowercase();
    for uri in [
        format!("/api/db/players?q={}", enc(&part)),
        "/api/db/players?limit=2".to_owned(),
    ] {
        keep(uri.clone(), db_get(uri).await, "DbPlayersJson");
    }
    for uri in [
        format!("/api/db/review/plan?player={}", enc(&player)),
        "/api/db/review/plan?speed=turbo".to_owned(),
    ] {
        keep(uri.clone(), db_get(uri).await, "DbReviewPlanJson");
    }
    let reviewed = db_post(format!("/api/db/review?player={}", enc(&player))).await;
    assert_eq!(reviewed.content_type, "application/x-ndjson");
    for (i, line) in String::from_utf8_lossy(&reviewed.body).lines().enumerate() {
        let a = Answer {
            status: reviewed.status,
            content_type: "application/json".into(),
            allow: None,
            body: line.as_bytes().to_vec(),
        };
        keep(format!("POST /api/db/review (line {i})"), a, "DbReviewLine");
    }
    keep(
        "POST /api/db/review?speed=turbo".into(),
        db_post("/api/db/review?speed=turbo".into()).await,
        "DbReviewLine",
    );
    let by_player = format!("player={}", enc(&player));
    for uri in [
        format!("/api/db/games?{by_player}"),
        format!("/api/db/search?moves=&{by_player}"),
    ] {
        let a = db_get(uri.clone()).await;
        assert!(
            a.json()["games"][0]["review"].is_object(),
            "{uri}: a reviewed game"
        );
        keep(uri, a, "DbGameList");
    }
    out
}

/// The events of live analyses: several lines and mates (tabla's engine), a bound, and an
/// engine's crash (the fake engine of tests/fake_engine).
async fn streamed() -> Vec<(String, &'static str, Value)> {
    let mut out = Vec::new();
    let black_mates = format!("fen={}&multipv=3", enc("6k1/8/8/8/8/8/r4PPP/6K1 b - - 0 1"));
    let start = format!("fen={}", enc(START));
    let (bound, _) = app_with_engine(fake_engine(false)).await;
    let (crash, _) = app_with_engine(fake_engine(true)).await;
    for (name, app, query) in [
        ("tabla", app(), &black_mates),
        ("a bound", bound, &start),
        ("a crash", crash, &start),
    ] {
        let response = open_analysis(app, query).await;
        let mut body = response.into_body();
        let mut seen = 0;
        for (event, data) in read_events(&mut body, |event, _| {
            seen += 1;
            event == "done" || seen == 5
        })
        .await
        {
            out.push((
                format!("GET /api/analyse?{query} ({name}, {event})"),
                "AnalyseJson",
                data,
            ));
        }
    }
    let engine = get("/api/engine").await;
    out.push(("GET /api/engine".to_owned(), "EngineJson", engine.json()));
    out
}

/// The routes `src/router.rs` declares: `.route("/api/...", get(...))` or `post(...)`.
fn router_routes() -> BTreeSet<(String, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/router.rs");
    let source = std::fs::read_to_string(&path).expect("src/router.rs");
    let mut routes = BTreeSet::new();
    for (i, _) in source.match_indices(".route(") {
        let rest = &source[i + ".route(".len()..];
        let open = rest.find('"').expect("a route's path");
        let close = open + 1 + rest[open + 1..].find('"').expect("a closed path");
        let route = rest[open + 1..close].to_owned();
        let after = rest[close..].trim_start_matches(['"', ',', ' ', '\n']);
        let method = if after.starts_with("get(") {
            "GET"
        } else if after.starts_with("post(") {
            "POST"
        } else {
            panic!("src/router.rs: route {route}: neither get(...) nor post(...)")
        };
        routes.insert((method.to_owned(), route));
    }
    routes
}

#[tokio::test]
async fn types_ts_matches_every_answer_of_the_api() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/src/types.ts");
    let source = std::fs::read_to_string(&path).expect("web/src/types.ts");
    let decls = parse_types(&source);

    // Every route of the router has its type here, and no other route is listed.
    let listed: BTreeSet<(String, String)> = ROUTES
        .iter()
        .map(|(m, p, _)| (m.to_string(), p.to_string()))
        .collect();
    assert_eq!(
        router_routes(),
        listed,
        "the router's routes and this test's ROUTES differ: give a new route its type in \
         types.ts and its entry in ROUTES"
    );

    // Every declaration of types.ts is the answer of some route (or part of one).
    let mut declared = BTreeSet::new();
    let mut reached = BTreeSet::new();
    for ty in ROUTES.iter().filter_map(|(_, _, t)| *t).chain([ERROR_TYPE]) {
        decls.declared(&Ty::Named(ty.to_owned()), ty, &mut declared, &mut reached);
    }
    let unreached: Vec<&String> = decls
        .interfaces
        .keys()
        .chain(decls.aliases.keys())
        .filter(|name| !reached.contains(*name))
        .collect();
    assert!(
        unreached.is_empty(),
        "types.ts declares {unreached:?}, which no route answers with (a route gone?)"
    );

    // Each problem once (array indices left out), with the first request that showed it.
    let mut check = Check::default();
    let mut problems: BTreeMap<String, (String, usize)> = BTreeMap::new();
    for (what, ty, value) in answers().await {
        decls.check(&value, &Ty::Named(ty.to_owned()), ty, ty, &mut check);
        for p in check.problems.drain(..) {
            let general = without_indices(&p);
            problems
                .entry(general)
                .or_insert_with(|| (what.clone(), 0))
                .1 += 1;
        }
    }
    let mut report: Vec<String> = problems
        .iter()
        .map(|(p, (what, n))| format!("{p}\n    ({n}×, first in {what})"))
        .collect();
    for field in declared.difference(&check.seen) {
        report.push(format!(
            "{field}: declared in types.ts, but no answer had it (gone from the API? else this \
             test needs a sample that has it)"
        ));
    }
    assert!(
        report.is_empty(),
        "web/src/types.ts and the API disagree:\n{}",
        report.join("\n")
    );
    let sample = get("/api/sample").await;
    assert_eq!(sample.status, StatusCode::OK);
    assert!(sample.content_type.starts_with("application/x-chess-pgn"));
}

/// The parser reads what it should, so that a pass above means something.
#[test]
fn the_parser_reads_interfaces_aliases_and_unions() {
    let decls = parse_types(
        "// a comment\nexport interface A { a: string; /** doc */ b?: number | null; }\n\
         export interface B extends A { c: { d: 'x' | 'y' }[]; e: Record<string, boolean> }\n\
         export type E = { m: number } | { n: number };\n",
    );
    let names = |fields: &[Field]| -> Vec<(String, bool)> {
        fields
            .iter()
            .map(|f| (f.name.clone(), f.optional))
            .collect()
    };
    assert_eq!(
        names(&decls.interfaces["B"]),
        [("a", false), ("b", true), ("c", false), ("e", false)].map(|(n, o)| (n.to_owned(), o))
    );
    let mut check = Check::default();
    let b = Ty::Named("B".into());
    let good = serde_json::json!({"a": "1", "c": [{"d": "x"}], "e": {"k": true}});
    decls.check(&good, &b, "B", "B", &mut check);
    assert!(check.problems.is_empty(), "{:?}", check.problems);
    for bad in [
        serde_json::json!({"a": "1", "c": [], "e": {}, "extra": 1}),
        serde_json::json!({"c": [], "e": {}}),
        serde_json::json!({"a": 1, "c": [], "e": {}}),
        serde_json::json!({"a": "1", "b": "2", "c": [], "e": {}}),
        serde_json::json!({"a": "1", "c": [{"d": "z"}], "e": {}}),
    ] {
        let mut check = Check::default();
        decls.check(&bad, &b, "B", "B", &mut check);
        assert!(!check.problems.is_empty(), "{bad} passed");
    }
    let e = Ty::Named("E".into());
    let mut check = Check::default();
    decls.check(&serde_json::json!({"n": 1}), &e, "E", "E", &mut check);
    assert!(check.problems.is_empty(), "{:?}", check.problems);
    assert!(check.seen.contains("E|1.n"), "{:?}", check.seen);
    decls.check(
        &serde_json::json!({"m": 1, "n": 1}),
        &e,
        "E",
        "E",
        &mut check,
    );
    assert_eq!(check.problems.len(), 1);
}

/// The speeds the front end offers (`SPEEDS` in `web/src/db-query.ts`) are the converter's, in
/// its order (tabla_convert::SPEEDS, which the `speed` columns hold and `--speed` takes).
#[test]
fn the_front_end_s_speeds_are_the_converter_s() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/src/db-query.ts");
    let source = std::fs::read_to_string(&path).expect("web/src/db-query.ts");
    let start = "export const SPEEDS = [";
    let list = source
        .split_once(start)
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(list, _)| list)
        .expect("db-query.ts declares `export const SPEEDS = [...]`");
    let speeds: Vec<&str> = list
        .split(',')
        .map(|s| s.trim().trim_matches('\''))
        .filter(|s| !s.is_empty())
        .collect();
    assert_eq!(speeds, tabla_convert::SPEEDS);
}
