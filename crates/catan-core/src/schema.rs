//! JSON Schema for the types whose JSON form is written by hand (feature
//! `schema`): resource and card counts as objects keyed by name, seat sets
//! and short lists as arrays, harbour kinds as strings. Each schema says what
//! the type's `Serialize` writes and its `Deserialize` reads.

use crate::action::{Pair, SeatSet};
use crate::board::HarbourKind;
use crate::ids::Seat;
use crate::per_seat::PerSeat;
use crate::resource::{DevCard, DevCards, Resource, ResourceSet};
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// An object with one small count per name.
fn counts(names: impl Iterator<Item = &'static str>, what: &str) -> Schema {
    let count = serde_json::json!({ "type": "integer", "minimum": 0, "maximum": 255 });
    let properties: Map<String, Value> = names.map(|n| (n.to_string(), count.clone())).collect();
    json_schema!({
        "description": format!("{what} by name; a missing name counts 0"),
        "type": "object",
        "properties": properties,
        "additionalProperties": false,
    })
}

impl JsonSchema for ResourceSet {
    fn schema_name() -> Cow<'static, str> {
        "ResourceSet".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        counts(Resource::ALL.iter().map(|r| r.name()), "Resource cards")
    }
}

impl JsonSchema for DevCards {
    fn schema_name() -> Cow<'static, str> {
        "DevCards".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        counts(DevCard::ALL.iter().map(|c| c.name()), "Development cards")
    }
}

impl JsonSchema for HarbourKind {
    fn schema_name() -> Cow<'static, str> {
        "HarbourKind".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let kinds: Vec<&str> = std::iter::once("3:1")
            .chain(Resource::ALL.iter().map(|r| r.name()))
            .collect();
        json_schema!({
            "description": "\"3:1\" for any three alike, or the resource traded 2:1",
            "type": "string",
            "enum": kinds,
        })
    }
}

impl JsonSchema for SeatSet {
    fn schema_name() -> Cow<'static, str> {
        "SeatSet".into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "Seats, each at most once",
            "type": "array",
            "items": generator.subschema_for::<Seat>(),
            "uniqueItems": true,
        })
    }
}

impl<T: Copy + JsonSchema> JsonSchema for Pair<T> {
    fn schema_name() -> Cow<'static, str> {
        format!("Pair_{}", T::schema_name()).into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "Up to two items",
            "type": "array",
            "items": generator.subschema_for::<T>(),
            "maxItems": 2,
        })
    }
}

impl<T: Copy + Default + JsonSchema> JsonSchema for PerSeat<T> {
    fn schema_name() -> Cow<'static, str> {
        format!("PerSeat_{}", T::schema_name()).into()
    }
    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "One value per seat, in seat order",
            "type": "array",
            "items": generator.subschema_for::<T>(),
            "minItems": 3,
            "maxItems": 4,
        })
    }
}
