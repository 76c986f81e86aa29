//! Drives `acw rules`, `acw odds RULESET PROCEDURE`, `acw battle --luck`, `acw luck` and `acw compare` with real
//! values: odds worked out by hand, the same luck from a battle and from its saved log, paired comparisons that
//! repeat exactly.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::process::{Command, Output};

fn acw(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_acw"))
        .args(args)
        .output()
        .expect("the acw binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("utf-8 output")
}

fn ok(args: &[&str]) -> String {
    let o = acw(args);
    assert!(
        o.status.success(),
        "acw {args:?} failed: {}",
        text(&o.stderr)
    );
    text(&o.stdout)
}

/// Runs a command expected to fail with `code`, returning its error message.
fn fails(args: &[&str], code: i32) -> String {
    let o = acw(args);
    assert_eq!(
        o.status.code(),
        Some(code),
        "acw {args:?}: {}",
        text(&o.stderr)
    );
    text(&o.stderr)
}

/// A scratch file for `name`, removed with its directory when the returned guard is dropped.
fn temp(name: &str) -> common::Scratch {
    common::Scratch::new("acw-catalogue", name)
}

#[test]
fn rules_lists_procedures_and_options() {
    let out = ok(&["rules", "north"]);
    assert!(out.contains("attack  (NORTH-CBT-02"), "{out}");
    assert!(out.contains("    stands=4  the target's stands"), "{out}");
    let out = ok(&["rules", "north", "--options"]);
    assert!(out.contains("turn_limit"), "{out}");
    assert!(out.contains("block-both-ways"), "{out}");
    let e = fails(&["rules", "risk"], 2);
    assert!(e.contains("there is no ruleset called \"risk\""), "{e}");
}

#[test]
fn odds_of_a_whole_attack_by_hand() {
    // One unit at a deployed regiment of 3 stands in the open: 2/3 no hit; a hit (1/3) then the morale die:
    // 1-2 rallies, 3-4 falls back (a stand lost would remove it), 5-6 removes it: 1/9 each.
    let out = ok(&["odds", "north", "attack", "stands=3"]);
    let row = out
        .lines()
        .find(|l| l.contains("hit, the target removed"))
        .unwrap();
    assert!(row.contains("0.111111") && row.contains("1/9"), "{row}");
    let row = out.lines().find(|l| l.contains("no hit")).unwrap();
    assert!(row.contains("0.666667") && row.contains("2/3"), "{row}");
    // Two attackers behind cover: +1 - 1, so 5+ again: the same 1/3.
    let json: serde_json::Value = serde_json::from_str(&ok(&[
        "odds",
        "north",
        "combat-toss",
        "attackers=2",
        "cover=true",
        "--json",
    ]))
    .unwrap();
    assert_eq!(json["parameters"]["attackers"], "2");
    assert_eq!(json["parameters"]["deployed"], "true");
    let hit = json["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["outcome"] == "hit")
        .unwrap();
    assert!((hit["p"].as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-12);
    assert_eq!(hit["fraction"], "1/3");
    let svg = temp("attack.svg");
    ok(&["odds", "north", "attack", "--plot", svg.to_str().unwrap()]);
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
}

#[test]
fn odds_refusals_exit_2_with_a_sentence() {
    let e = fails(&["odds", "north", "attack", "stands=9"], 2);
    assert!(
        e.contains("the parameter stands of attack: 9 is out of range: the value must be a whole number from 1 to 5"),
        "{e}"
    );
    let e = fails(&["odds", "north", "volley"], 2);
    assert!(e.contains("no procedure called \"volley\""), "{e}");
    let e = fails(&["odds", "north", "attack", "range=3"], 2);
    assert!(
        e.contains("attack has no parameter called \"range\""),
        "{e}"
    );
    let e = fails(&["odds", "3dx"], 2);
    assert!(e.contains("malformed dice notation"), "{e}");
}

#[test]
fn luck_of_a_battle_and_of_its_saved_log_agree() {
    let told = ok(&["battle", "north", "--seed", "11", "--luck"]);
    let union_line = told
        .lines()
        .find(|l| l.trim_start().starts_with("Union: luck"))
        .unwrap()
        .trim()
        .to_string();
    let log = ok(&["battle", "north", "--seed", "11", "--json", "--luck"]);
    let last: serde_json::Value = serde_json::from_str(log.lines().last().unwrap()).unwrap();
    let index = last["luck"]["union"]["index"].as_f64().unwrap();
    assert!(
        union_line.starts_with(&format!("Union: luck {:.1} over", index * 100.0)),
        "{union_line}"
    );
    let path = temp("north.jsonl");
    std::fs::write(&path, &log).unwrap();
    let read = ok(&["luck", "north", path.to_str().unwrap()]);
    assert!(read.contains(&union_line), "{read}");
    let json: serde_json::Value =
        serde_json::from_str(&ok(&["luck", "north", path.to_str().unwrap(), "--json"])).unwrap();
    assert_eq!(json["luck"]["union"]["index"].as_f64().unwrap(), index);
    // A log that is not a North log, and one that cannot be read: exit 1.
    let bad = temp("bad.jsonl");
    std::fs::write(&bad, "{\"Volley\": 3}\n").unwrap();
    let e = fails(&["luck", "north", bad.to_str().unwrap()], 1);
    assert!(e.contains("line 1 of the log is not a north event"), "{e}");
    let e = fails(&["luck", "north", "/nonexistent/log.jsonl"], 1);
    assert!(e.contains("cannot read /nonexistent/log.jsonl"), "{e}");
}

/// Hardtack's events carry the chance of every fire roll and test: seed 1 gives the Union 58 rolls and the
/// Confederates 61 (the default scenario's guns among them), and the saved log reads back to the same index.
#[test]
fn hardtack_luck_of_a_battle_and_of_its_saved_log() {
    let told = ok(&["battle", "hardtack", "--seed", "1", "--luck"]);
    assert!(told.contains("  Union: luck 49.7 over 58 rolls"), "{told}");
    assert!(
        told.contains("  Confederate: luck 53.6 over 61 rolls"),
        "{told}"
    );
    assert!(told.contains("with a chance of "), "{told}");
    let log = ok(&["battle", "hardtack", "--seed", "1", "--json", "--luck"]);
    let last: serde_json::Value = serde_json::from_str(log.lines().last().unwrap()).unwrap();
    let index = last["luck"]["confederate"]["index"].as_f64().unwrap();
    assert_eq!(last["luck"]["confederate"]["rolls"], 61);
    let path = temp("hardtack.jsonl");
    std::fs::write(&path, &log).unwrap();
    let read = ok(&["luck", "hardtack", path.to_str().unwrap()]);
    assert!(
        read.contains("Confederate: luck 53.6 over 61 rolls"),
        "{read}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&ok(&["luck", "hardtack", path.to_str().unwrap(), "--json"])).unwrap();
    assert_eq!(
        json["luck"]["confederate"]["index"].as_f64().unwrap(),
        index
    );
    assert_eq!(json["luck"]["union"]["rolls"], 58);
}

#[test]
fn compare_is_paired_and_repeats() {
    let args = [
        "compare",
        "north",
        "--games",
        "6",
        "--seed",
        "5",
        "--option",
        "turn_limit=3",
        "--json",
    ];
    let first = ok(&args);
    assert_eq!(first, ok(&args));
    let json: serde_json::Value = serde_json::from_str(&first).unwrap();
    let c = &json["comparison"];
    assert_eq!(c["games"], 6);
    for side in ["union", "confederate"] {
        let change = c["losses"][side]["mean"].as_f64().unwrap();
        let base = c["base_losses"][side].as_f64().unwrap();
        let changed = c["changed_losses"][side].as_f64().unwrap();
        assert!((change - (changed - base)).abs() < 1e-9);
        let (low, high) = (
            c["losses"][side]["low"].as_f64().unwrap(),
            c["losses"][side]["high"].as_f64().unwrap(),
        );
        assert!(low <= change && change <= high);
    }
    // Three turns instead of twelve: fewer stands lost on both sides in every game, on average.
    assert!(c["losses"]["union"]["mean"].as_f64().unwrap() < 0.0);
    let table = ok(&[
        "compare",
        "north",
        "--games",
        "6",
        "--seed",
        "5",
        "--option",
        "turn_limit=3",
    ]);
    assert!(table.contains("Union losses (stands)"), "{table}");
    assert!(table.contains("95% interval"), "{table}");
    let e = fails(
        &["compare", "north", "--games", "4", "--option", "speed=3"],
        2,
    );
    assert!(e.contains("there is no option called \"speed\""), "{e}");
    let e = fails(
        &[
            "compare",
            "north",
            "--games",
            "4",
            "--option",
            "turn_limit=0",
        ],
        2,
    );
    assert!(e.contains("the option turn_limit cannot be 0"), "{e}");
    fails(
        &[
            "compare",
            "north",
            "--games",
            "1",
            "--option",
            "turn_limit=3",
        ],
        2,
    );
}

#[test]
fn tsatf_and_d8_by_name() {
    let out = ok(&[
        "compare",
        "tsatf",
        "--games",
        "2",
        "--option",
        "fire_system=type-firing",
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["comparison"]["games"], 2);
    let told = ok(&["battle", "tsatf", "--seed", "3", "--luck"]);
    assert!(told.contains("  Union: luck "), "{told}");
    assert!(told.contains("  Confederate: luck "), "{told}");
    let out = ok(&["rules", "tsatf"]);
    assert!(out.contains("morale-test  (TSATF-MOR-03)"), "{out}");
    // 2D6 at most 7: 21/36 = 7/12.
    let out = ok(&["odds", "tsatf", "morale-test", "number=7"]);
    let row = out.lines().find(|l| l.contains("passes")).unwrap();
    assert!(row.contains("7/12"), "{row}");
    // A whole melee, one private a side, the attacker +1: a bout is won 21, lost 10, tied 5 in 36, a tie
    // fought again, so the attackers win 21/31.
    let out = ok(&[
        "odds",
        "tsatf",
        "melee",
        "attacker_cadre=0",
        "attacker_others=1",
        "defender_cadre=0",
        "defender_others=1",
        "attacker_modifier=1",
    ]);
    let row = out
        .lines()
        .find(|l| l.contains("the attackers win"))
        .unwrap();
    assert!(row.contains("0.677419"), "{row}");
    // Ten D8s at 5+ and no save: no casualty 1/1024.
    let out = ok(&["odds", "d8", "volley"]);
    let row = out.lines().find(|l| l.contains("1/1024")).unwrap();
    assert!(row.contains("0.000977"), "{row}");
    let told = ok(&["battle", "d8", "--seed", "2", "--luck"]);
    assert!(told.contains("  Confederate: luck "), "{told}");
}

#[test]
fn hardtack_by_name() {
    let out = ok(&["rules", "hardtack"]);
    assert!(out.contains("confidence-test  (HT-MOR-06"), "{out}");
    assert!(out.contains("combined-assault  (HT-MEL-01"), "{out}");
    // A D8 company under LV 2 at TL 2 must beat 4: 1-2 lose two levels, 3-4 one, 5-8 pass.
    let out = ok(&[
        "odds",
        "hardtack",
        "confidence-test",
        "quality=d8",
        "lv=2",
        "tl=2",
    ]);
    let row = out.lines().find(|l| l.contains("passed")).unwrap();
    assert!(row.contains("1/2"), "{row}");
    let row = out
        .lines()
        .find(|l| l.contains("losing two levels"))
        .unwrap();
    assert!(row.contains("1/4") && row.contains("0.25"), "{row}");
    let e = fails(&["odds", "hardtack", "reaction-test", "lv=4"], 2);
    assert!(e.contains("from 1 to 3"), "{e}");
}
