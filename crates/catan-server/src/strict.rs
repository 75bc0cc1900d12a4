//! One policy for what clients send, on HTTP and WebSocket alike: a message
//! is read into its type, and then its shape is compared with the type's own
//! canonical JSON form. A field the type does not know (at any depth, actions
//! included) or an array where an object is documented is refused with
//! `bad_json`, so a stray or misspelt field can never be silently ignored.
//!
//! serde alone cannot say this: `deny_unknown_fields` does not reach inside
//! internally tagged enums such as the actions, and every derived struct also
//! accepts a JSON array of its fields in order.

use crate::error::Refusal;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use catan_protocol::Code;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Checks that `input` has the shape of `canonical` (the re-serialized value
/// parsed from it): every object in `canonical` is an object in `input` with
/// no key `canonical` lacks (a `null` stands for an absent optional field),
/// and every array an array. Scalars are left to the types' own parsing.
pub fn conforms(input: &Value, canonical: &Value) -> Result<(), String> {
    walk(input, canonical, &mut String::new())
}

fn walk(input: &Value, canonical: &Value, path: &mut String) -> Result<(), String> {
    match (canonical, input) {
        (Value::Object(c), Value::Object(i)) => {
            for (key, value) in i {
                match c.get(key) {
                    Some(cv) => {
                        let len = path.len();
                        path.push('.');
                        path.push_str(key);
                        walk(value, cv, path)?;
                        path.truncate(len);
                    }
                    None if value.is_null() => {}
                    None => {
                        return Err(format!("unknown field {:?}{}", truncate(key, 40), at(path)));
                    }
                }
            }
            Ok(())
        }
        (Value::Object(_), _) => Err(format!("expected a JSON object{}", at(path))),
        (Value::Array(c), Value::Array(i)) => {
            for (n, (iv, cv)) in i.iter().zip(c).enumerate() {
                let len = path.len();
                path.push_str(&format!("[{n}]"));
                walk(iv, cv, path)?;
                path.truncate(len);
            }
            Ok(())
        }
        (Value::Array(_), _) => Err(format!("expected a JSON array{}", at(path))),
        _ => Ok(()),
    }
}

fn at(path: &str) -> String {
    if path.is_empty() {
        String::new()
    } else {
        format!(" at {}", path.trim_start_matches('.'))
    }
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// Parses `value` into `T` under the strict policy; the error is a message
/// for the client.
pub fn from_value<T: DeserializeOwned + Serialize>(value: Value) -> Result<T, String> {
    let parsed: T = serde_json::from_value(value.clone()).map_err(|e| e.to_string())?;
    let canonical = serde_json::to_value(&parsed).map_err(|e| e.to_string())?;
    conforms(&value, &canonical)?;
    Ok(parsed)
}

/// An HTTP JSON body read under the strict policy; a refusal is `bad_json`.
pub struct StrictJson<T>(pub T);

impl<S, T> FromRequest<S> for StrictJson<T>
where
    S: Send + Sync,
    T: DeserializeOwned + Serialize,
{
    type Rejection = Refusal;

    async fn from_request(req: Request, state: &S) -> Result<Self, Refusal> {
        let is_json = req
            .headers()
            .get(axum::http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| {
                v.split(';')
                    .next()
                    .is_some_and(|m| m.trim() == "application/json")
            });
        if !is_json {
            return Err(Refusal::new(
                Code::BadJson,
                "send the body as JSON with `Content-Type: application/json`",
            ));
        }
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(|e| Refusal::new(Code::BadJson, e.to_string()))?;
        let value: Value = serde_json::from_slice(&bytes)
            .map_err(|e| Refusal::new(Code::BadJson, format!("not valid JSON: {e}")))?;
        from_value(value)
            .map(StrictJson)
            .map_err(|m| Refusal::new(Code::BadJson, m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unknown_fields_are_found_at_any_depth() {
        let canon = json!({"a": 1, "b": {"c": 2}});
        assert!(conforms(&json!({"a": 1, "b": {"c": 2}}), &canon).is_ok());
        assert!(conforms(&json!({"b": {}}), &canon).is_ok());
        let e = conforms(&json!({"a": 1, "b": {"c": 2, "x": 0}}), &canon).unwrap_err();
        assert!(e.contains("\"x\"") && e.contains("at b"), "{e}");
        assert!(conforms(&json!({"z": true}), &canon).is_err());
        // An explicit null is an absent optional field.
        assert!(conforms(&json!({"a": 1, "seat": null}), &canon).is_ok());
    }

    #[test]
    fn arrays_where_objects_belong_are_refused() {
        let canon = json!({"options": {"players": 4}});
        let e = conforms(&json!({"options": [4]}), &canon).unwrap_err();
        assert!(e.contains("object") && e.contains("options"), "{e}");
        let canon = json!({"to": [1, 2]});
        assert!(conforms(&json!({"to": {"0": 1}}), &canon).is_err());
    }

    #[test]
    fn actions_with_stray_fields_are_refused() {
        let ok: Result<catan_core::Action, _> = from_value(json!({"type": "end_turn"}));
        assert!(ok.is_ok());
        let bad: Result<catan_core::Action, _> =
            from_value(json!({"type": "end_turn", "please": true}));
        assert!(bad.unwrap_err().contains("please"));
        let bad: Result<catan_core::Action, _> =
            from_value(json!({"type": "build_road", "edge": 3, "extra": 1}));
        assert!(bad.is_err());
    }
}
