//! Project tasks.
//!
//! `cargo xtask rules` writes the rule index of every ruleset crate, `docs/rulesets/<ruleset>-rules.md`: each
//! rule ID the crate names, one line saying what it is (taken from the doc comment of the code that implements
//! it), where it is implemented and where it is tested. `cargo xtask rules --check` only compares, and fails if an
//! index is out of date (CI runs it). The index is how a user looks up an ID such as `NORTH-CBT-03`.
#![forbid(unsafe_code)]

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The rulesets, their crate and their ID prefix.
const RULESETS: &[(&str, &str, &str)] = &[
    ("north", "acw-north", "NORTH"),
    ("grid", "acw-grid", "GRID"),
    ("tsatf", "acw-tsatf", "TSATF"),
    ("hardtack", "acw-hardtack", "HT"),
    ("d8", "acw-d8", "D8"),
];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    match args.first().map(String::as_str) {
        Some("rules") => {
            let check = args.iter().any(|a| a == "--check");
            match rules(&root, check) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("{e}");
                    ExitCode::FAILURE
                }
            }
        }
        _ => {
            eprintln!(
                "usage: cargo xtask rules [--check]\n  rules    write docs/rulesets/<ruleset>-rules.md for every ruleset crate\n  --check  compare only; fail if an index is out of date"
            );
            ExitCode::FAILURE
        }
    }
}

fn rules(root: &Path, check: bool) -> Result<(), String> {
    let mut stale = Vec::new();
    for &(name, krate, prefix) in RULESETS {
        let dir = root.join("crates").join(krate);
        if !dir.is_dir() {
            continue;
        }
        let text = index(&dir, name, krate, prefix)?;
        let path = root
            .join("docs")
            .join("rulesets")
            .join(format!("{name}-rules.md"));
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        if current == text {
            continue;
        }
        if check {
            stale.push(path.display().to_string());
        } else {
            std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
            println!("wrote {}", path.display());
        }
    }
    if stale.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "the rule index is out of date (run `cargo xtask rules`): {}",
            stale.join(", ")
        ))
    }
}

/// Where an ID is named: in implementing code (with the doc text around it) or in a test.
#[derive(Default)]
struct Entry {
    /// (file, line, the doc block's text, whether the ID opens the block).
    code: Vec<(String, usize, String, bool)>,
    tests: Vec<String>,
}

fn rs_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.filter_map(Result::ok) {
        let p = e.path();
        if p.is_dir() {
            out.extend(rs_files(&p));
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// The rule IDs of `prefix` in a line, in order.
fn ids_in(line: &str, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = line.as_bytes();
    let mut from = 0;
    while let Some(pos) = line[from..].find(prefix) {
        let start = from + pos;
        from = start + prefix.len();
        if start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_') {
            continue;
        }
        // PREFIX-SECTION-NN: a section of 2 to 6 capitals or digits starting with a capital, 2 or 3 digits.
        let rest = &line[from..];
        let Some(rest) = rest.strip_prefix('-') else {
            continue;
        };
        let section: String = rest
            .chars()
            .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
            .collect();
        if !(2..=6).contains(&section.len())
            || !section.starts_with(|c: char| c.is_ascii_uppercase())
        {
            continue;
        }
        let Some(num) = rest[section.len()..].strip_prefix('-') else {
            continue;
        };
        let digits: String = num.chars().take_while(char::is_ascii_digit).collect();
        let after = num[digits.len()..].chars().next();
        if !(2..=3).contains(&digits.len()) || after.is_some_and(|c| c.is_ascii_alphanumeric()) {
            continue;
        }
        out.push(format!("{prefix}-{section}-{digits}"));
    }
    out
}

/// The doc comment text of the block that holds line `i` (consecutive `///` or `//!` lines), joined.
fn doc_block(lines: &[&str], i: usize) -> (String, usize) {
    let is_doc = |l: &str| {
        let t = l.trim_start();
        t.starts_with("///") || t.starts_with("//!")
    };
    let mut start = i;
    while start > 0 && is_doc(lines[start - 1]) {
        start -= 1;
    }
    let mut end = i;
    while end + 1 < lines.len() && is_doc(lines[end + 1]) {
        end += 1;
    }
    let text = lines[start..=end]
        .iter()
        .map(|l| {
            l.trim_start()
                .trim_start_matches("///")
                .trim_start_matches("//!")
                .trim()
        })
        .collect::<Vec<_>>()
        .join(" ");
    (text, start)
}

/// One line saying what the rule is, from a doc block: the rule IDs, and the lists and ranges of them, taken
/// out; the first sentence kept.
fn describe(block: &str, prefix: &str) -> String {
    let id = format!(r"`?{prefix}-[A-Z][A-Z0-9]{{1,5}}-\d{{2,3}}`?");
    let sep = r"(?:\s*(?:/|,|;|to|and|or|with|\+)\s*)";
    // A parenthesised list of IDs (with words like "with" or "see"), then any bare run of IDs.
    let bracketed = regex::Regex::new(&format!(
        r"\s*\((?:with |see |and )?{id}(?:{sep}{id})*(?:'s \w+)?\)"
    ))
    .map_err(|e| e.to_string());
    let run = regex::Regex::new(&format!(r"{id}(?:{sep}{id})*")).map_err(|e| e.to_string());
    let (Ok(bracketed), Ok(run)) = (bracketed, run) else {
        return String::new();
    };
    let s = bracketed.replace_all(block, "");
    let s = run.replace_all(&s, "");
    let mut s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    for (from, to) in [
        (" ,", ","),
        (" .", "."),
        (" :", ":"),
        ("( ", "("),
        (" )", ")"),
        (",)", ")"),
        ("()", ""),
    ] {
        s = s.replace(from, to);
    }
    let mut s = s.trim().to_string();
    while let Some(rest) = s
        .strip_prefix(':')
        .or_else(|| s.strip_prefix('/'))
        .or_else(|| s.strip_prefix(','))
        .or_else(|| s.strip_prefix('-'))
        .or_else(|| s.strip_prefix('—'))
    {
        s = rest.trim_start().to_string();
    }
    let sentence = match s.find(". ") {
        Some(i) => &s[..=i],
        None => s.as_str(),
    };
    let mut out = sentence.trim().to_string();
    if out.chars().count() > 160 {
        out = out.chars().take(157).collect::<String>() + "…";
    }
    if let Some(first) = out.chars().next() {
        out = first.to_uppercase().collect::<String>() + &out[first.len_utf8()..];
    }
    out.replace('|', "\\|")
}

fn index(dir: &Path, name: &str, krate: &str, prefix: &str) -> Result<String, String> {
    let mut entries: BTreeMap<String, Entry> = BTreeMap::new();
    for sub in ["src", "tests"] {
        for path in rs_files(&dir.join(sub)) {
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let rel = path
                .strip_prefix(dir)
                .map(|p| p.display().to_string())
                .unwrap_or_default();
            let test_from = if sub == "tests" {
                0
            } else {
                text.find("#[cfg(test)]").unwrap_or(text.len())
            };
            let lines: Vec<&str> = text.lines().collect();
            let mut offset = 0;
            for (i, line) in lines.iter().enumerate() {
                let in_test = offset >= test_from;
                offset += line.len() + 1;
                for id in ids_in(line, prefix) {
                    let e = entries.entry(id.clone()).or_default();
                    if in_test {
                        if !e.tests.contains(&rel) {
                            e.tests.push(rel.clone());
                        }
                        continue;
                    }
                    let t = line.trim_start();
                    if t.starts_with("///") || t.starts_with("//!") {
                        let (block, start) = doc_block(&lines, i);
                        let opens = t.starts_with("///")
                            && start == i
                            && ids_in(lines[start], prefix).first() == Some(&id);
                        let block = if t.starts_with("//!") {
                            // Module docs describe a whole section; used only when nothing closer does.
                            format!("\u{0}{block}")
                        } else {
                            block
                        };
                        e.code.push((rel.clone(), i + 1, block, opens));
                    } else if let Some(comment) = t.find("//").map(|at| &t[at + 2..]) {
                        // A plain comment at the code that applies the rule: the last resort for a description.
                        e.code.push((
                            rel.clone(),
                            i + 1,
                            format!("\u{0}{}", comment.trim()),
                            false,
                        ));
                    } else {
                        e.code.push((rel.clone(), i + 1, String::new(), false));
                    }
                }
            }
        }
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Rule index: {name} (`{krate}`)\n\nGenerated by `cargo xtask rules` from the crate's doc comments; CI checks it is current. Each rule ID\n(`{prefix}-<section>-<number>`) is listed with what it is, the code that implements it and the tests that check it.\nThe ruleset's page, [`{name}.md`]({name}.md), explains the sections and the readings chosen.\n"
    );
    let implemented = entries.values().filter(|e| !e.code.is_empty()).count();
    let tested = entries
        .values()
        .filter(|e| !e.code.is_empty() && !e.tests.is_empty())
        .count();
    let _ = writeln!(
        out,
        "{} rule IDs named in the code, {implemented} implemented, {tested} implemented and tested.\n",
        entries.len()
    );
    let _ = writeln!(out, "| ID | what it is | implemented in | tested in |");
    let _ = writeln!(out, "|---|---|---|---|");
    for (id, e) in &entries {
        let item = |b: &String| !b.is_empty() && !b.starts_with('\u{0}');
        let best = e
            .code
            .iter()
            .find(|(_, _, b, opens)| *opens && item(b))
            .or_else(|| e.code.iter().find(|(_, _, b, _)| item(b)))
            .or_else(|| e.code.iter().find(|(_, _, b, _)| !b.is_empty()));
        let what = best.map_or_else(String::new, |(_, _, b, _)| {
            describe(b.trim_start_matches('\u{0}'), prefix)
        });
        let mut files: Vec<String> = Vec::new();
        for (f, line, _, _) in &e.code {
            if !files.iter().any(|x| x.starts_with(&format!("{f}:"))) {
                files.push(format!("{f}:{line}"));
            }
        }
        let code = if files.is_empty() {
            "—".to_string()
        } else {
            files
                .iter()
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let tests = if e.tests.is_empty() {
            "—".to_string()
        } else {
            e.tests
                .iter()
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(out, "| {id} | {what} | {code} | {tests} |");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_found_with_their_boundaries() {
        assert_eq!(
            ids_in("/// NORTH-CBT-01 / NORTH-FIR-02: x (NORTH-OPT-16)", "NORTH"),
            ["NORTH-CBT-01", "NORTH-FIR-02", "NORTH-OPT-16"]
        );
        assert!(ids_in("XNORTH-CBT-01 NORTH-CBT-1 NORTH-CBT-0123", "NORTH").is_empty());
        assert_eq!(ids_in("HT-SG2-04.", "HT"), ["HT-SG2-04"]);
    }

    #[test]
    fn a_description_drops_the_ids_and_keeps_the_first_sentence() {
        assert_eq!(
            describe(
                "NORTH-CBT-02: the combat toss of a group against one target. More text.",
                "NORTH"
            ),
            "The combat toss of a group against one target."
        );
        assert_eq!(
            describe(
                "NORTH-CBT-01 / NORTH-FIR-01: whether a unit may attack (NORTH-SEQ-08).",
                "NORTH"
            ),
            "Whether a unit may attack."
        );
        assert_eq!(
            describe(
                "NORTH-CBT-03 to NORTH-CBT-13 (with NORTH-ART-02, NORTH-FIR-03): every modifier that applies.",
                "NORTH"
            ),
            "Every modifier that applies."
        );
    }
}
