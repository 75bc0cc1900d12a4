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
    NodeList, PageConfig,
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

fn query_int(name: &'static str, min: u64, description: &'static str) -> Param {
    Param {
        name,
        place: In::Query,
        schema: json!({ "type": "integer", "minimum": min }),
        description,
    }
}

/// Refusals any request may meet: a bad request, a timeout, a rate limit.
const CLIENT: &[&str] = &["4XX"];
/// And those that also read the store, which may be unavailable.
const STORE: &[&str] = &["4XX", "503"];

/// Every operation of the HTTP API.
pub fn operations(g: &mut SchemaGenerator) -> Vec<Operation> {
    let lobby_id = || path_param("id", "the lobby id (a UUID)");
    let game_id = || path_param("id", "the game id (a UUID; a lobby's id is its game's id)");
    let op = |method, path, summary, ok, answer| Operation {
        method,
        path,
        summary,
        params: Vec::new(),
        bearer: false,
        body: None,
        ok,
        answer,
        refusals: CLIENT,
        other: Vec::new(),
    };
    let json_of =
        |g: &mut SchemaGenerator, s: fn(&mut SchemaGenerator) -> Schema| Answer::Json(s(g));
    fn schema<T: JsonSchema>(g: &mut SchemaGenerator) -> Schema {
        g.subschema_for::<T>()
    }
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
    let ops = vec![
        op(
            "get",
            "/healthz",
            "Liveness: the process serves requests",
            200,
            health,
        ),
        Operation {
            refusals: &[],
            other: vec![(503, readiness.clone())],
            ..op(
                "get",
                "/readyz",
                "Readiness: the store answers and the server is not stopping",
                200,
                Answer::Json(readiness),
            )
        },
        op(
            "get",
            "/metrics",
            "Prometheus metrics",
            200,
            Answer::Text("application/openmetrics-text"),
        ),
        op(
            "get",
            "/api/openapi.json",
            "This document",
            200,
            Answer::Text("application/json"),
        ),
        op(
            "get",
            "/api/lobbies",
            "Public lobbies",
            200,
            json_of(g, schema::<LobbyList>),
        ),
        Operation {
            body: Some(schema::<CreateLobby>(g)),
            ..op(
                "post",
                "/api/lobbies",
                "Create a lobby; the creator gets the host token",
                201,
                json_of(g, schema::<Created>),
            )
        },
        Operation {
            params: vec![lobby_id()],
            // A cluster node answers 503 lobby_moved while a lobby moves.
            refusals: STORE,
            ..op(
                "get",
                "/api/lobbies/{id}",
                "One lobby, public or private",
                200,
                json_of(g, schema::<LobbyInfo>),
            )
        },
        Operation {
            params: vec![lobby_id()],
            // A cluster node answers 503 lobby_moved while a lobby moves.
            refusals: STORE,
            body: Some(schema::<JoinReq>(g)),
            ..op(
                "post",
                "/api/lobbies/{id}/join",
                "Take a seat; answers the seat token",
                200,
                json_of(g, schema::<Joined>),
            )
        },
        Operation {
            params: vec![lobby_id()],
            // A cluster node answers 503 lobby_moved while a lobby moves.
            refusals: STORE,
            bearer: true,
            ..op(
                "post",
                "/api/lobbies/{id}/leave",
                "Leave one's seat (a bot takes it in a running game)",
                200,
                json_of(g, schema::<LobbyOnly>),
            )
        },
        Operation {
            params: vec![lobby_id()],
            // A cluster node answers 503 lobby_moved while a lobby moves.
            refusals: STORE,
            bearer: true,
            body: Some(schema::<AddBotReq>(g)),
            ..op(
                "post",
                "/api/lobbies/{id}/bots",
                "Seat a bot (host)",
                200,
                json_of(g, schema::<BotAdded>),
            )
        },
        Operation {
            params: vec![lobby_id(), path_param("seat", "the bot's seat, from 0")],
            refusals: STORE,
            bearer: true,
            ..op(
                "delete",
                "/api/lobbies/{id}/bots/{seat}",
                "Remove a bot before the start (host)",
                200,
                json_of(g, schema::<LobbyOnly>),
            )
        },
        Operation {
            params: vec![lobby_id()],
            // A cluster node answers 503 lobby_moved while a lobby moves.
            refusals: STORE,
            bearer: true,
            ..op(
                "post",
                "/api/lobbies/{id}/start",
                "Start the game (host)",
                200,
                json_of(g, schema::<LobbyOnly>),
            )
        },
        Operation {
            params: vec![lobby_id()],
            // A cluster node answers 503 lobby_moved while a lobby moves.
            refusals: STORE,
            ..op(
                "get",
                "/api/lobbies/{id}/ws",
                "The lobby's WebSocket (docs/PROTOCOL.md, docs/schema/)",
                101,
                Answer::Upgrade,
            )
        },
        op(
            "get",
            "/api/bot-kinds",
            "The bot levels a host may seat",
            200,
            json_of(g, schema::<BotKinds>),
        ),
        op(
            "get",
            "/api/config",
            "Settings the pages read at start",
            200,
            json_of(g, schema::<PageConfig>),
        ),
        Operation {
            refusals: STORE,
            ..op(
                "get",
                "/api/nodes",
                "The live nodes of the cluster with their load (docs/CLUSTER.md)",
                200,
                json_of(g, schema::<NodeList>),
            )
        },
        Operation {
            params: vec![
                query_int("page", 1, "page number, from 1"),
                Param {
                    name: "per_page",
                    place: In::Query,
                    schema: json!({ "type": "integer", "minimum": 1, "maximum": catan_store::MAX_PER_PAGE }),
                    description: "games per page, 1 to 100",
                },
                Param {
                    name: "player",
                    place: In::Query,
                    schema: json!({ "type": "string" }),
                    description: "only games with a seat whose name contains this",
                },
            ],
            refusals: STORE,
            ..op(
                "get",
                "/api/games",
                "Finished games, newest first",
                200,
                json_of(g, schema::<GamePage>),
            )
        },
        Operation {
            params: vec![game_id()],
            refusals: STORE,
            ..op(
                "get",
                "/api/games/{id}",
                "One game's record (docs/GAME_RECORD.md)",
                200,
                json_of(g, schema::<GameRecord>),
            )
        },
        Operation {
            params: vec![
                game_id(),
                query_int("from", 0, "first position (0: before any action)"),
                query_int("to", 0, "last position, inclusive"),
            ],
            refusals: STORE,
            ..op(
                "get",
                "/api/games/{id}/steps",
                "A finished game replayed step by step",
                200,
                json_of(g, schema::<Steps>),
            )
        },
    ];
    ops
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
