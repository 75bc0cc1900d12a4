//! Rule-by-rule scenario tests (issue 2).
//!
//! Every `*.json` file under `tests/scenarios/` is a scenario in the
//! SCENARIO.md format with one extra top-level field, `expect`: a *partial*
//! `catan check` output whose values were derived by hand from RULES.md. Each
//! file runs through [`catan_core::run_scenario`], the very function
//! `catan check` calls, and every key present in `expect` must match the
//! serialized result (objects: recursive subset; arrays: same length and
//! element-wise subset; scalars: equal).
//!
//! A file is named `<ruleid>_<what>.json` (`r19_nine_cards_discard_four.json`);
//! the rule id picks the family test that runs it, and
//! [`every_rule_r4_to_r45_and_v1_to_v4_has_a_scenario`] checks coverage.
//! The worked examples of SCENARIO.md live in `examples/` with their full
//! expected output. Each family test reports every failing file, not only
//! the first one.

use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The folder holding the scenario files.
fn scenario_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios")
}

/// All `.json` files under `dir`, recursively, sorted for stable reports.
fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries =
            std::fs::read_dir(&d).unwrap_or_else(|e| panic!("cannot read {}: {e}", d.display()));
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "json") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The rule id a file name starts with: `r19_x.json` -> `('r', 19)`.
fn rule_id(path: &Path) -> Option<(char, u32)> {
    let stem = path.file_stem()?.to_str()?;
    let id = stem.split('_').next()?;
    let mut chars = id.chars();
    let kind = chars.next()?;
    if kind != 'r' && kind != 'v' {
        return None;
    }
    let n = chars.as_str().parse().ok()?;
    Some((kind, n))
}

/// Checks that `actual` contains everything in `expected`; appends one line
/// per mismatch to `errors`, naming the JSON path.
fn subset(expected: &Value, actual: &Value, path: &str, errors: &mut Vec<String>) {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            for (k, ev) in e {
                let p = format!("{path}.{k}");
                match a.get(k) {
                    Some(av) => subset(ev, av, &p, errors),
                    None => errors.push(format!("{p}: expected {ev}, field absent")),
                }
            }
        }
        (Value::Array(e), Value::Array(a)) => {
            if e.len() != a.len() {
                errors.push(format!(
                    "{path}: expected {} elements, got {}: {actual}",
                    e.len(),
                    a.len()
                ));
                return;
            }
            for (i, (ev, av)) in e.iter().zip(a).enumerate() {
                subset(ev, av, &format!("{path}[{i}]"), errors);
            }
        }
        _ => {
            if expected != actual {
                errors.push(format!("{path}: expected {expected}, got {actual}"));
            }
        }
    }
}

/// Runs one scenario file; returns the mismatches (empty when it passes).
fn check_file(path: &Path) -> Vec<String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return vec![format!("cannot read: {e}")],
    };
    let file: Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => return vec![format!("not JSON: {e}")],
    };
    let Some(expect) = file.get("expect") else {
        return vec!["no `expect` field".to_string()];
    };
    if expect.get("ok").is_none() {
        return vec!["`expect` must state `ok`".to_string()];
    }
    let output = match catan_core::run_scenario(&text) {
        Ok(o) => o,
        Err(e) => return vec![format!("setup error: {e}")],
    };
    // R10: a game is a pure function of its seed, options and actions.
    match catan_core::run_scenario(&text) {
        Ok(again) if again == output => {}
        _ => return vec!["a second run gave a different output (R10)".to_string()],
    }
    let actual = serde_json::to_value(&output).unwrap();
    let mut errors = Vec::new();
    subset(expect, &actual, "", &mut errors);
    if expect.get("ok") == Some(&Value::Bool(true)) && !output.ok {
        // Say why at once: the refusal explains most state mismatches.
        errors.insert(0, format!("refused: {:?}", output.rejected));
    }
    errors
}

/// Runs every file whose rule id satisfies `select`; fails listing all
/// failing files. Returns how many files ran.
fn run_family(select: impl Fn(char, u32) -> bool) -> usize {
    let files: Vec<PathBuf> = json_files(&scenario_dir())
        .into_iter()
        .filter(|p| rule_id(p).is_some_and(|(k, n)| select(k, n)))
        .collect();
    let mut report = String::new();
    let mut failed = 0;
    for path in &files {
        let errors = check_file(path);
        if !errors.is_empty() {
            failed += 1;
            let name = path.strip_prefix(scenario_dir()).unwrap_or(path);
            let _ = writeln!(report, "{}:", name.display());
            for e in errors {
                let _ = writeln!(report, "    {e}");
            }
        }
    }
    assert!(
        failed == 0,
        "{failed} of {} scenario files failed:\n{report}",
        files.len()
    );
    assert!(!files.is_empty(), "no scenario file in this family");
    files.len()
}

#[test]
fn r04_r05_components_scenarios() {
    run_family(|k, n| k == 'r' && (4..=10).contains(&n));
}

#[test]
fn r11_r15_opening_scenarios() {
    run_family(|k, n| k == 'r' && (11..=15).contains(&n));
}

#[test]
fn r16_r20_turn_roll_robber_scenarios() {
    run_family(|k, n| k == 'r' && (16..=20).contains(&n));
}

#[test]
fn r21_r25_building_scenarios() {
    run_family(|k, n| k == 'r' && (21..=25).contains(&n));
}

#[test]
fn r26_r30_trading_scenarios() {
    run_family(|k, n| k == 'r' && (26..=30).contains(&n));
}

#[test]
fn r31_r38_development_card_scenarios() {
    run_family(|k, n| k == 'r' && (31..=38).contains(&n));
}

#[test]
fn r39_r43_award_and_point_scenarios() {
    run_family(|k, n| k == 'r' && (39..=43).contains(&n));
}

#[test]
fn r44_r45_winning_scenarios() {
    run_family(|k, n| k == 'r' && (44..=48).contains(&n));
}

#[test]
fn v1_v4_variant_scenarios() {
    run_family(|k, _| k == 'v');
}

/// The worked examples of SCENARIO.md, with their full expected output.
#[test]
fn scenario_md_worked_examples_match_full_output() {
    let files = json_files(&scenario_dir().join("examples"));
    assert_eq!(files.len(), 4, "the four worked examples");
    let mut report = String::new();
    for path in &files {
        for e in check_file(path) {
            let _ = writeln!(report, "{}: {e}", path.display());
        }
    }
    assert!(report.is_empty(), "{report}");
}

/// Issue 2: at least one scenario per rule R4-R45 and per variant V1-V4.
#[test]
fn every_rule_r4_to_r45_and_v1_to_v4_has_a_scenario() {
    let ids: Vec<(char, u32)> = json_files(&scenario_dir())
        .iter()
        .filter_map(|p| rule_id(p))
        .collect();
    let missing: Vec<String> = (4..=45)
        .map(|n| ('r', n))
        .chain((1..=4).map(|n| ('v', n)))
        .filter(|id| !ids.contains(id))
        .map(|(k, n)| format!("{}{n}", k.to_ascii_uppercase()))
        .collect();
    assert!(missing.is_empty(), "rules without a scenario: {missing:?}");
}

/// A file outside the naming scheme would silently never run.
#[test]
fn every_scenario_file_is_named_after_a_rule_or_is_an_example() {
    let stray: Vec<PathBuf> = json_files(&scenario_dir())
        .into_iter()
        .filter(|p| rule_id(p).is_none() && !p.starts_with(scenario_dir().join("examples")))
        .collect();
    assert!(stray.is_empty(), "unnamed scenario files: {stray:?}");
}

/// The comparison itself must be able to fail, or every test above is void.
#[test]
fn subset_comparison_detects_mismatches() {
    let actual: Value = serde_json::json!({"a": 1, "b": [{"x": 1, "y": 2}, {}], "c": {"d": null}});
    let mut errors = Vec::new();
    subset(
        &serde_json::json!({"b": [{"x": 1}, {}]}),
        &actual,
        "",
        &mut errors,
    );
    assert!(errors.is_empty(), "{errors:?}");
    for bad in [
        serde_json::json!({"a": 2}),
        serde_json::json!({"b": [{"x": 1}]}),
        serde_json::json!({"b": [{"x": 2}, {}]}),
        serde_json::json!({"c": {"d": 0}}),
        serde_json::json!({"e": 1}),
    ] {
        let mut errors = Vec::new();
        subset(&bad, &actual, "", &mut errors);
        assert!(!errors.is_empty(), "{bad} should not match");
    }
}
