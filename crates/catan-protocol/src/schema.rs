//! JSON Schema (draft 2020-12) of every WebSocket message, generated from
//! the protocol types themselves (`schemars`, which reads the same serde
//! attributes the wire format comes from). The generated documents are
//! checked in under `docs/schema/`; a test fails when they drift from the
//! types, and the golden examples of docs/PROTOCOL.md are validated against
//! them.

use crate::{ClientMsg, ServerMsg};
use schemars::generate::SchemaSettings;
use schemars::transform::{Transform, transform_subschemas};
use schemars::{JsonSchema, Schema};

/// The schema of a message a client sends.
///
/// Objects allow no properties beyond those documented: the server refuses
/// unknown fields at any depth (`bad_json`), so the schema says so too.
pub fn client_message_schema() -> Schema {
    generate::<ClientMsg>(true)
}

/// The schema of a message the server sends.
pub fn server_message_schema() -> Schema {
    generate::<ServerMsg>(false)
}

fn generate<T: JsonSchema>(closed: bool) -> Schema {
    let mut settings = SchemaSettings::draft2020_12();
    if closed {
        settings = settings.with_transform(NoExtraProperties);
    }
    settings.into_generator().into_root_schema_for::<T>()
}

/// Sets `additionalProperties: false` on every object schema that lists its
/// properties and says nothing about others.
#[derive(Clone, Copy)]
struct NoExtraProperties;

impl Transform for NoExtraProperties {
    fn transform(&mut self, schema: &mut Schema) {
        if let Some(obj) = schema.as_object_mut()
            && obj.contains_key("properties")
            && !obj.contains_key("additionalProperties")
        {
            obj.insert("additionalProperties".into(), false.into());
        }
        transform_subschemas(self, schema);
    }
}
