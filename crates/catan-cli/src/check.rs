//! `catan check FILE`: one JSON object on stdout; exit 0 whether or not an
//! action was refused; a malformed file exits 2 with a message on stderr.

use std::io::Read;
use std::process::ExitCode;

/// Reads the scenario, runs it and prints the outcome.
pub fn run(file: &str) -> ExitCode {
    let text = if file == "-" {
        let mut s = String::new();
        if let Err(e) = std::io::stdin().read_to_string(&mut s) {
            eprintln!("catan check: cannot read standard input: {e}");
            return ExitCode::from(2);
        }
        s
    } else {
        match std::fs::read_to_string(file) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("catan check: cannot read {file}: {e}");
                return ExitCode::from(2);
            }
        }
    };
    match catan_core::run_scenario(&text) {
        Ok(out) => match to_pretty(&out) {
            Ok(s) => {
                println!("{s}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("catan check: cannot print the result: {e}");
                ExitCode::FAILURE
            }
        },
        Err(e) => {
            eprintln!("catan check: {file}: {e}");
            ExitCode::from(2)
        }
    }
}

/// JSON with one-space indentation, like the worked examples.
fn to_pretty<T: serde::Serialize>(v: &T) -> serde_json::Result<String> {
    let mut buf = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(b" ");
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, fmt);
    v.serialize(&mut ser)?;
    Ok(String::from_utf8_lossy(&buf).into_owned())
}
