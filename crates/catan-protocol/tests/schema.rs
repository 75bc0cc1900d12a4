//! The machine-readable protocol: the JSON Schemas under `docs/schema/` are
//! exactly what the protocol types generate, every golden example of
//! docs/PROTOCOL.md is valid against them, and they refuse what the server
//! refuses (unknown types, stray fields).
//!
//! `UPDATE_GOLDEN=1 cargo test -p catan-protocol --test schema` rewrites the
//! checked-in schemas after a change to the protocol types.

use catan_protocol::schema::{client_message_schema, server_message_schema};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

fn repo_file(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel)
}

const CLIENT: &str = "docs/schema/client-message.json";
const SERVER: &str = "docs/schema/server-message.json";

fn generated() -> [(&'static str, Value); 2] {
    [
        (CLIENT, client_message_schema().to_value()),
        (SERVER, server_message_schema().to_value()),
    ]
}

fn validator(rel: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(repo_file(rel)).expect("checked-in schema");
    let schema: Value = serde_json::from_str(&text).expect("schema is JSON");
    jsonschema::validator_for(&schema).expect("a valid JSON Schema")
}

#[test]
fn checked_in_schemas_match_the_protocol_types() {
    for (rel, schema) in generated() {
        let text = format!("{}\n", serde_json::to_string_pretty(&schema).unwrap());
        let path = repo_file(rel);
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &text).unwrap();
        }
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            on_disk == text,
            "{rel} is out of date: run UPDATE_GOLDEN=1 cargo test -p catan-protocol --test schema"
        );
    }
}

#[test]
fn every_golden_example_is_valid_against_its_schema() {
    let client = validator(CLIENT);
    let server = validator(SERVER);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let example: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let v = if name.starts_with("client_") {
            &client
        } else {
            &server
        };
        let errors: Vec<String> = v.iter_errors(&example).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
        checked += 1;
    }
    assert!(checked >= 13, "every message type has an example");
}

#[test]
fn the_client_schema_refuses_what_the_server_refuses() {
    let client = validator(CLIENT);
    let ok =
        json!({ "type": "action", "id": "a1", "version": 3, "action": { "type": "roll_dice" } });
    assert!(client.is_valid(&ok));
    // Every version the server speaks, and none other.
    for v in catan_protocol::OLDEST_PROTOCOL_VERSION..=catan_protocol::PROTOCOL_VERSION {
        assert!(
            client.is_valid(&json!({ "type": "hello", "protocol": v })),
            "{v}"
        );
    }
    // The chat limit counts characters, as the server does, not bytes.
    let longest = "é".repeat(catan_protocol::MAX_CHAT_CHARS);
    assert!(client.is_valid(&json!({ "type": "chat", "id": "c1", "text": longest })));
    let too_long = format!("{longest}a");
    let other_version = catan_protocol::PROTOCOL_VERSION + 1;
    for bad in [
        json!({ "type": "chat", "id": "c1", "text": too_long }),
        json!({ "type": "hello", "protocol": other_version }),
        json!({ "type": "hello", "protocol": catan_protocol::OLDEST_PROTOCOL_VERSION - 1 }),
        json!({ "type": "dance", "id": "a1" }),
        json!({ "type": "action", "id": "a1", "version": 3, "action": { "type": "roll_dice" }, "x": 1 }),
        json!({ "type": "action", "id": "a1", "version": 3, "action": { "type": "roll_dice", "x": 1 } }),
        json!({ "type": "action", "id": "a1", "version": -1, "action": { "type": "roll_dice" } }),
        json!({ "type": "hello", "protocol": 1, "token": 5 }),
        json!({ "type": "action", "id": "a1", "version": 3,
                "action": { "type": "offer_trade", "give": { "gold": 1 }, "get": { "ore": 1 } } }),
    ] {
        assert!(!client.is_valid(&bad), "{bad}");
    }
}
