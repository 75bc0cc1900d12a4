//! The server's side of the WebSocket protocol (whose types are the
//! `catan-protocol` crate's): reading a client's text frame strictly, and
//! the refusals it sends.
//!
//! Parsing is two-staged so that a client learns whether its text was not
//! JSON (`bad_json`), named a message type we do not know (`unknown_type`),
//! or had the wrong fields (`bad_json`).

use catan_protocol::{CLIENT_TYPES, ClientMsg, Code, MAX_REQUEST_ID_CHARS, ServerMsg};

/// A client's text that could not be turned into a [`ClientMsg`]; the reply
/// to send.
#[derive(Clone, Debug, PartialEq)]
pub struct ParseError {
    /// The request id, when one could be read.
    pub id: Option<String>,
    /// `bad_json` or `unknown_type`.
    pub code: Code,
    /// What was wrong.
    pub message: String,
}

/// Parses one text frame from a client.
pub fn parse_client(text: &str) -> Result<ClientMsg, ParseError> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| ParseError {
        id: None,
        code: Code::BadJson,
        message: format!("not valid JSON: {e}"),
    })?;
    let id = value
        .get("id")
        .and_then(|v| v.as_str())
        .filter(|s| s.chars().count() <= MAX_REQUEST_ID_CHARS)
        .map(str::to_string);
    let bad = |message: String| ParseError {
        id: id.clone(),
        code: Code::BadJson,
        message,
    };
    let Some(obj) = value.as_object() else {
        return Err(bad("a message must be a JSON object".into()));
    };
    let Some(ty) = obj.get("type").and_then(|t| t.as_str()) else {
        return Err(bad("a message needs a string field \"type\"".into()));
    };
    if !CLIENT_TYPES.contains(&ty) {
        return Err(ParseError {
            id: id.clone(),
            code: Code::UnknownType,
            message: format!(
                "unknown message type {:?}; expected one of {}",
                truncate(ty, 40),
                CLIENT_TYPES.join(", ")
            ),
        });
    }
    let msg: ClientMsg = crate::strict::from_value(value.clone())
        .map_err(|e| bad(format!("bad {ty} message: {e}")))?;
    if let Some(rid) = msg.id()
        && rid.chars().count() > MAX_REQUEST_ID_CHARS
    {
        return Err(bad(format!(
            "the request id is longer than {MAX_REQUEST_ID_CHARS} characters"
        )));
    }
    Ok(msg)
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// A refusal on a socket, counted in the refusal metrics by its code.
pub fn rejected(id: Option<String>, code: Code, message: impl Into<String>) -> ServerMsg {
    crate::metrics::metrics().refused(code, crate::metrics::Via::ws);
    ServerMsg::Rejected {
        id,
        code,
        message: message.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_distinguishes_errors() {
        assert_eq!(parse_client("{nope").unwrap_err().code, Code::BadJson);
        assert_eq!(parse_client("[1]").unwrap_err().code, Code::BadJson);
        let e = parse_client(r#"{"type":"dance","id":"7"}"#).unwrap_err();
        assert_eq!((e.code, e.id.as_deref()), (Code::UnknownType, Some("7")));
        let e =
            parse_client(r#"{"type":"action","id":"8","action":{"type":"end_turn"}}"#).unwrap_err();
        assert_eq!((e.code, e.id.as_deref()), (Code::BadJson, Some("8")));
        let long = "x".repeat(65);
        let e = parse_client(&format!(r#"{{"type":"resync","id":"{long}"}}"#)).unwrap_err();
        assert_eq!((e.code, e.id), (Code::BadJson, None));
        assert!(matches!(
            parse_client(r#"{"type":"action","id":"9","version":3,"action":{"type":"end_turn"}}"#),
            Ok(ClientMsg::Action { version: 3, .. })
        ));
    }
}
