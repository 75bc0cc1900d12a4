//! The OpenAPI document: it lists exactly the routes the router serves, it
//! is served at `/api/openapi.json`, and real answers of every operation
//! (successes and refusals, in process) are inside the schemas it declares.
//! `scripts/api-fuzz.sh` fuzzes a live server against it with schemathesis.

use crate::common;

use common::*;
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// The routes written in a source file: the first argument of each `.route(`.
fn routes_in(file: &str, prefix: &str) -> Vec<String> {
    let text =
        std::fs::read_to_string(format!("{}/src/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    text.split(".route(\"")
        .skip(1)
        .map(|rest| format!("{prefix}{}", &rest[..rest.find('"').unwrap()]))
        .collect()
}

/// A validator for one response schema of the document.
fn validator(doc: &Value, schema: &Value) -> jsonschema::Validator {
    let mut root = schema.clone();
    root["components"] = doc["components"].clone();
    root["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    jsonschema::validator_for(&root).expect("a valid schema")
}

#[tokio::test]
async fn the_document_lists_exactly_the_routes_the_router_serves() {
    let srv = start(test_config()).await;
    let (status, doc) = http(&srv.state, "GET", "/api/openapi.json", None, None).await;
    assert_eq!(status, 200);
    assert_eq!(doc["openapi"], "3.1.0");
    let documented: BTreeSet<String> = doc["paths"].as_object().unwrap().keys().cloned().collect();
    let lib = routes_in("lib.rs", "");
    let mut served: BTreeSet<String> = BTreeSet::new();
    for r in &lib {
        // The API router's routes are nested under /api.
        let top = ["/healthz", "/readyz", "/metrics"].contains(&r.as_str());
        served.insert(if top { r.clone() } else { format!("/api{r}") });
    }
    served.extend(routes_in("persist/saved.rs", "/api"));
    assert_eq!(documented, served);
}

#[tokio::test]
async fn real_answers_fit_the_declared_schemas() {
    let srv = start(test_config()).await;
    let st = &srv.state;
    let (_, doc) = http(st, "GET", "/api/openapi.json", None, None).await;
    // A lobby with a person and a bot, so that each route has something to act on.
    let lobby = create_lobby(st, json!({ "name": "schema", "options": { "players": 3 } })).await;
    let (_, seat_token) = join(st, &lobby, "Ann").await;
    let bot = add_bot(st, &lobby, "random").await;
    let unknown = "00000000-0000-4000-8000-000000000000";
    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            if path.ends_with("/ws") || path == "/metrics" {
                continue; // a WebSocket upgrade and a text format
            }
            for id in [lobby.id.as_str(), unknown, "not-a-uuid"] {
                let p = path.replace("{id}", id).replace("{seat}", &bot.to_string());
                let bearer = op.get("security").map(|_| {
                    if p.ends_with("/leave") {
                        seat_token.as_str()
                    } else {
                        lobby.host.as_str()
                    }
                });
                let body = match (method.as_str(), path.as_str()) {
                    ("post", "/api/lobbies") => Some(json!({ "name": "another" })),
                    ("post", p) if p.ends_with("/join") => Some(json!({ "name": "Bo" })),
                    ("post", p) if p.ends_with("/bots") => Some(json!({ "kind": "easy" })),
                    _ => None,
                };
                let (status, answer) = http(st, &method.to_uppercase(), &p, bearer, body).await;
                let responses = op["responses"].as_object().unwrap();
                let declared = responses
                    .get(&status.to_string())
                    .or_else(|| responses.get(&format!("{}XX", status / 100)))
                    .unwrap_or_else(|| {
                        panic!("{method} {p}: status {status} is not declared: {answer}")
                    });
                let schema = &declared["content"]["application/json"]["schema"];
                if schema.is_null() {
                    continue;
                }
                let v = validator(&doc, schema);
                let errors: Vec<String> = v.iter_errors(&answer).map(|e| e.to_string()).collect();
                assert!(
                    errors.is_empty(),
                    "{method} {p} ({status}): {errors:?}\n{answer}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 40, "only {checked} answers checked");
    // The schemas are strict enough to catch a wrong answer.
    let lobby_schema = &doc["paths"]["/api/lobbies/{id}"]["get"]["responses"]["200"]["content"]["application/json"]
        ["schema"];
    let v = validator(&doc, lobby_schema);
    assert!(
        !v.is_valid(&json!({ "id": lobby.id })),
        "a lobby without its seats"
    );
    let refusal = &doc["paths"]["/api/lobbies/{id}"]["get"]["responses"]["4XX"]["content"]["application/json"]
        ["schema"];
    assert!(
        !validator(&doc, refusal)
            .is_valid(&json!({ "error": { "code": "no_such_code", "message": "x" } }))
    );
}
