//! The OpenAPI 3.1 document of the HTTP API, served at `GET /api/openapi.json`.
//!
//! Every request and response body is described by the JSON Schema its Rust
//! type generates (`schemars`, reading the serde attributes the wire format
//! comes from), so the document cannot drift from what the handlers send.
//! Which route takes which body and answers with which type is the table in
//! [`operations`]; a test checks that the router and the table list the same
//! routes, and `scripts/api-fuzz.sh` fuzzes a live server against the
//! document (schemathesis: no 5xx, every response inside its schema).

use crate::api::{
    AddBotReq, BotAdded, BotKinds, CreateLobby, Created, JoinReq, Joined, LobbyList, LobbyOnly,
    NodeList, NodeOfLobby, PageConfig,
};
use crate::error::ErrorBody;
use crate::persist::steps::Steps;
use catan_core::record::GameRecord;
use catan_protocol::LobbyInfo;
use catan_protocol::PROTOCOL_VERSION;
use catan_store::GamePage;
use schemars::generate::{SchemaGenerator, SchemaSettings};
use schemars::{JsonSchema, Schema, json_schema};
use serde_json::{Map, Value, json};

/// Where a parameter goes.
#[derive(Clone, Copy)]
enum In {
    Path,
    Query,
}

/// One parameter of an operation.
struct Param {
    name: &'static str,
    place: In,
    schema: Value,
    description: &'static str,
}

/// One HTTP operation: method, path, bodies, answers.
pub struct Operation {
    /// Lower-case HTTP method.
    pub method: &'static str,
    /// The path, with `{name}` parameters as axum routes spell them.
    pub path: &'static str,
    summary: &'static str,
    params: Vec<Param>,
    bearer: bool,
    body: Option<Schema>,
    ok: u16,
    answer: Answer,
    /// Refusals come with the API's error body.
    refusals: &'static [&'static str],
    /// Other answers with their own bodies (status, schema).
    other: Vec<(u16, Schema)>,
}

/// What a successful answer carries.
enum Answer {
    Json(Schema),
    Text(&'static str),
    Upgrade,
}

fn path_param(name: &'static str, description: &'static str) -> Param {
    Param {
        name,
        place: In::Path,
        schema: json!({ "type": "string" }),
        description,
    }
}

fn query_param(name: &'static str, schema: Value, description: &'static str) -> Param {
    Param {
        name,
        place: In::Query,
        schema,
        description,
    }
}

fn query_int(name: &'static str, min: u64, description: &'static str) -> Param {
    query_param(
        name,
        json!({ "type": "integer", "minimum": min }),
        description,
    )
}

/// Refusals any request may meet: a bad request, a timeout, a rate limit.
const CLIENT: &[&str] = &["4XX"];
/// And those that also read the store, which may be unavailable.
const STORE: &[&str] = &["4XX", "503"];

/// An operation that answers 200 with `answer` and may be refused as any
/// request may; the builder methods below add what differs.
fn op(
    method: &'static str,
    path: &'static str,
    summary: &'static str,
    answer: Answer,
) -> Operation {
    Operation {
        method,
        path,
        summary,
        params: Vec::new(),
        bearer: false,
        body: None,
        ok: 200,
        answer,
        refusals: CLIENT,
        other: Vec::new(),
    }
}

impl Operation {
    /// Succeeds with another status than 200.
    fn status(self, ok: u16) -> Self {
        Operation { ok, ..self }
    }

    /// Takes these path and query parameters too.
    fn params(mut self, more: Vec<Param>) -> Self {
        self.params.extend(more);
        self
    }

    /// Takes a JSON request body.
    fn body(self, body: Schema) -> Self {
        Operation {
            body: Some(body),
            ..self
        }
    }

    /// Needs a seat or host token.
    fn bearer(self) -> Self {
        Operation {
            bearer: true,
            ..self
        }
    }

    /// Reads the store, so it may also answer 503.
    fn store(self) -> Self {
        Operation {
            refusals: STORE,
            ..self
        }
    }

    /// Acts on the lobby named by `{id}`. It reads the store, and a cluster
    /// node answers 503 lobby_moved while a lobby moves.
    fn lobby(self) -> Self {
        self.params(vec![path_param("id", "the lobby id (a UUID)")])
            .store()
    }
}

/// A JSON answer of type `T`.
fn json<T: JsonSchema>(g: &mut SchemaGenerator) -> Answer {
    Answer::Json(g.subschema_for::<T>())
}

/// Every operation of the HTTP API.
pub fn operations(g: &mut SchemaGenerator) -> Vec<Operation> {
    let game_id = || path_param("id", "the game id (a UUID; a lobby's id is its game's id)");
    let health = Answer::Json(json_schema!({
        "type": "object",
        "required": ["status"],
        "properties": { "status": { "const": "ok" }, "lobbies": { "type": "integer", "minimum": 0 } },
    }));
    let readiness = json_schema!({
        "type": "object",
        "required": ["status", "store"],
        "properties": {
            "status": { "enum": ["ready", "unavailable"] },
            "store": { "type": "string" },
            "stopping": { "type": "boolean" },
        },
    });
    let ready = "Readiness: the store answers and the server is not stopping";
    let per_page = json!({ "type": "integer", "minimum": 1, "maximum": catan_store::MAX_PER_PAGE });
    vec![
        op(
            "get",
            "/healthz",
            "Liveness: the process serves requests",
            health,
        ),
        Operation {
            refusals: &[],
            other: vec![(503, readiness.clone())],
            ..op("get", "/readyz", ready, Answer::Json(readiness))
        },
        op(
            "get",
            "/metrics",
            "Prometheus metrics",
            Answer::Text("application/openmetrics-text"),
        ),
        op(
            "get",
            "/api/openapi.json",
            "This document",
            Answer::Text("application/json"),
        ),
        op(
            "get",
            "/api/lobbies",
            "Public lobbies",
            json::<LobbyList>(g),
        ),
        op(
            "post",
            "/api/lobbies",
            "Create a lobby; the creator gets the host token",
            json::<Created>(g),
        )
        .status(201)
        .body(g.subschema_for::<CreateLobby>())
        // 503: server_busy (the node is full, or its lease renewals are
        // slow), shutting_down, storage_unavailable (cluster).
        .store(),
        op(
            "get",
            "/api/lobbies/{id}",
            "One lobby, public or private",
            json::<LobbyInfo>(g),
        )
        .lobby(),
        op(
            "get",
            "/api/lobbies/{id}/node",
            "Where the lobby's WebSocket is served, answered by the node asked (a reconnect's lookup)",
            json::<NodeOfLobby>(g),
        )
        .lobby(),
        op(
            "post",
            "/api/lobbies/{id}/join",
            "Take a seat; answers the seat token",
            json::<Joined>(g),
        )
        .lobby()
        .body(g.subschema_for::<JoinReq>()),
        op(
            "post",
            "/api/lobbies/{id}/leave",
            "Leave one's seat (a bot takes it in a running game)",
            json::<LobbyOnly>(g),
        )
        .lobby()
        .bearer(),
        op(
            "post",
            "/api/lobbies/{id}/bots",
            "Seat a bot (host)",
            json::<BotAdded>(g),
        )
        .lobby()
        .bearer()
        .body(g.subschema_for::<AddBotReq>()),
        op(
            "delete",
            "/api/lobbies/{id}/bots/{seat}",
            "Remove a bot before the start (host)",
            json::<LobbyOnly>(g),
        )
        .lobby()
        .params(vec![path_param("seat", "the bot's seat, from 0")])
        .bearer(),
        op(
            "post",
            "/api/lobbies/{id}/start",
            "Start the game (host)",
            json::<LobbyOnly>(g),
        )
        .lobby()
        .bearer(),
        op(
            "get",
            "/api/lobbies/{id}/ws",
            "The lobby's WebSocket (docs/PROTOCOL.md, docs/schema/)",
            Answer::Upgrade,
        )
        .status(101)
        .lobby(),
        op(
            "get",
            "/api/bot-kinds",
            "The bot levels a host may seat",
            json::<BotKinds>(g),
        ),
        op(
            "get",
            "/api/config",
            "Settings the pages read at start",
            json::<PageConfig>(g),
        ),
        op(
            "get",
            "/api/nodes",
            "The live nodes of the cluster with their load (docs/CLUSTER.md)",
            json::<NodeList>(g),
        )
        .store(),
        op(
            "get",
            "/api/games",
            "Finished games, newest first",
            json::<GamePage>(g),
        )
        .params(vec![
            query_int("page", 1, "page number, from 1"),
            query_param("per_page", per_page, "games per page, 1 to 100"),
            query_param(
                "player",
                json!({ "type": "string" }),
                "only games with a seat whose name contains this",
            ),
        ])
        .store(),
        op(
            "get",
            "/api/games/{id}",
            "One game's record (docs/GAME_RECORD.md)",
            json::<GameRecord>(g),
        )
        .params(vec![game_id()])
        .store(),
        op(
            "get",
            "/api/games/{id}/steps",
            "A finished game replayed step by step",
            json::<Steps>(g),
        )
        .params(vec![
            game_id(),
            query_int("from", 0, "first position (0: before any action)"),
            query_int("to", 0, "last position, inclusive"),
        ])
        .store(),
    ]
}

/// The whole document.
pub fn document() -> Value {
    let mut g = SchemaSettings::draft2020_12()
        .with(|s| s.definitions_path = "/components/schemas".into())
        .into_generator();
    let ops = operations(&mut g);
    let error = g.subschema_for::<ErrorBody>();
    let mut paths = Map::new();
    for o in ops {
        let entry = paths.entry(o.path.to_string()).or_insert_with(|| json!({}));
        entry[o.method] = operation_json(&o, &error);
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Catan server HTTP API",
            "version": env!("CARGO_PKG_VERSION"),
            "description": format!(
                "Lobbies, seats, bots and saved games. The game itself is played over \
                 the lobby's WebSocket (protocol version {PROTOCOL_VERSION}; docs/PROTOCOL.md). \
                 Every refusal carries {{\"error\": {{\"code\", \"message\"}}}}."
            ),
        },
        "paths": paths,
        "components": {
            "schemas": g.take_definitions(true),
            "securitySchemes": {
                "token": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "a seat token (join) or the host token (create)",
                },
            },
        },
    })
}

fn operation_json(o: &Operation, error: &Schema) -> Value {
    let params: Vec<Value> = o
        .params
        .iter()
        .map(|p| {
            json!({
                "name": p.name,
                "in": match p.place { In::Path => "path", In::Query => "query" },
                "required": matches!(p.place, In::Path),
                "description": p.description,
                "schema": p.schema,
            })
        })
        .collect();
    let mut responses = Map::new();
    let ok = match &o.answer {
        Answer::Json(s) => json!({ "description": "success",
                                   "content": { "application/json": { "schema": s } } }),
        Answer::Text(mime) => json!({ "description": "success", "content": { *mime: {} } }),
        Answer::Upgrade => json!({ "description": "switching to the WebSocket protocol" }),
    };
    responses.insert(o.ok.to_string(), ok);
    for (status, s) in &o.other {
        responses.insert(
            status.to_string(),
            json!({ "description": "not ready", "content": { "application/json": { "schema": s } } }),
        );
    }
    for r in o.refusals {
        responses.insert(
            r.to_string(),
            json!({ "description": "refused; nothing changed",
                    "content": { "application/json": { "schema": error } } }),
        );
    }
    let mut out = json!({
        "summary": o.summary,
        "operationId": format!("{} {}", o.method, o.path),
        "parameters": params,
        "responses": responses,
    });
    if o.bearer {
        out["security"] = json!([{ "token": [] }]);
    }
    if let Some(body) = &o.body {
        out["requestBody"] = json!({
            "required": true,
            "content": { "application/json": { "schema": body } },
        });
    }
    out
}
