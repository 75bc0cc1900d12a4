//! The browser client speaks this crate's protocol version: the `hello` in
//! `web/public/js/socket.js` writes the version as a literal (the page has
//! no build step to import it from Rust), so this test pins its constants to
//! [`PROTOCOL_VERSION`] and [`OLDEST_PROTOCOL_VERSION`]. A version bump
//! fails here until the page follows.

use catan_protocol::{OLDEST_PROTOCOL_VERSION, PROTOCOL_VERSION};

#[test]
fn the_web_client_says_hello_with_this_version() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/public/js/socket.js");
    let js = std::fs::read_to_string(path).expect("web/public/js/socket.js");
    // `const NAME = N;` in socket.js, as the digits of N.
    let constant = |name: &str| -> String {
        let lines: Vec<&str> = js
            .lines()
            .filter(|l| l.starts_with(&format!("const {name} =")))
            .collect();
        assert_eq!(lines.len(), 1, "one {name} in socket.js: {lines:?}");
        lines[0]
            .split('=')
            .nth(1)
            .unwrap_or("")
            .trim_start()
            .chars()
            .take_while(char::is_ascii_digit)
            .collect()
    };
    assert_eq!(constant("PROTOCOL"), PROTOCOL_VERSION.to_string());
    assert_eq!(
        constant("OLDEST_PROTOCOL"),
        OLDEST_PROTOCOL_VERSION.to_string()
    );
    // The one hello says the socket's version, which starts at PROTOCOL.
    let hellos: Vec<&str> = js.lines().filter(|l| l.contains("type: 'hello'")).collect();
    assert_eq!(hellos.len(), 1, "one hello in socket.js: {hellos:?}");
    assert!(
        hellos[0].contains("protocol: this.protocol"),
        "{}",
        hellos[0]
    );
    assert!(js.contains("this.protocol = PROTOCOL;"));
    // The file's header comment names the version too.
    assert!(
        js.contains(&format!("(protocol {PROTOCOL_VERSION},")),
        "socket.js's header names another protocol version"
    );
}
