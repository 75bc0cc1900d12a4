//! The browser client speaks this crate's protocol version: the `hello` in
//! `web/public/js/socket.js` writes the version as a literal (the page has
//! no build step to import it from Rust), so this test pins that literal to
//! [`PROTOCOL_VERSION`]. A version bump fails here until the page follows.

use catan_protocol::PROTOCOL_VERSION;

#[test]
fn the_web_client_says_hello_with_this_version() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/public/js/socket.js");
    let js = std::fs::read_to_string(path).expect("web/public/js/socket.js");
    let hellos: Vec<&str> = js.lines().filter(|l| l.contains("type: 'hello'")).collect();
    assert_eq!(hellos.len(), 1, "one hello in socket.js: {hellos:?}");
    // The digits after `protocol:` on that line.
    let said: String = hellos[0]
        .split("protocol:")
        .nth(1)
        .unwrap_or("")
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    assert_eq!(
        said,
        PROTOCOL_VERSION.to_string(),
        "socket.js says hello with another protocol version: {}",
        hellos[0].trim()
    );
    // The file's header comment names the version too.
    assert!(
        js.contains(&format!("(protocol {PROTOCOL_VERSION},")),
        "socket.js's header names another protocol version"
    );
}
