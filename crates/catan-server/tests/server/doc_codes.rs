//! docs/PROTOCOL.md names every refusal code with the HTTP status the server
//! really answers it with, and lists every code of the rules engine: a code
//! added to the server or the engine without its line in the document fails
//! here.

use catan_protocol::Code;
use catan_server::error::http_status;
use std::collections::HashMap;
use strum::IntoEnumIterator;

fn protocol_doc() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/PROTOCOL.md");
    std::fs::read_to_string(path).expect("docs/PROTOCOL.md")
}

/// The section of `doc` under `heading`, up to the next heading.
fn section<'a>(doc: &'a str, heading: &str) -> &'a str {
    let start = doc.find(heading).unwrap_or_else(|| panic!("no {heading}"));
    let rest = &doc[start + heading.len()..];
    let end = rest.find("\n#").unwrap_or(rest.len());
    &rest[..end]
}

fn backticked(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

#[test]
fn every_server_code_is_in_the_http_table_with_its_status() {
    let doc = protocol_doc();
    let table = section(&doc, "### HTTP error codes");
    let mut documented: HashMap<&str, u16> = HashMap::new();
    for row in table
        .lines()
        .filter(|l| l.starts_with("| 4") || l.starts_with("| 5"))
    {
        let mut cells = row.split('|').map(str::trim).filter(|c| !c.is_empty());
        let status: u16 = cells.next().unwrap().parse().unwrap();
        for code in backticked(cells.next().unwrap_or("")) {
            assert!(documented.insert(code, status).is_none(), "{code} twice");
        }
    }
    for code in Code::iter() {
        assert_eq!(
            documented.get(code.as_str()).copied(),
            Some(http_status(code).as_u16()),
            "docs/PROTOCOL.md's HTTP table and the server disagree on {}",
            code.as_str()
        );
    }
}

#[test]
fn every_engine_code_is_listed() {
    let doc = protocol_doc();
    let list = section(&doc, "### Rejection codes");
    let named = backticked(list);
    for code in catan_core::ErrorCode::iter() {
        assert!(
            named.contains(&code.as_str()),
            "{} is missing from docs/PROTOCOL.md's rejection codes",
            code.as_str()
        );
    }
}
