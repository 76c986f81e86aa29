//! Drives the built `acw` binary: real values in every subcommand's output, the documented errors and exit
//! codes, and simulation results that do not depend on the thread count.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::PathBuf;
use std::process::{Command, Output};

fn acw(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_acw"))
        .args(args)
        .output()
        .expect("the acw binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 output")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("utf-8 output")
}

/// Runs a command expected to succeed and returns its standard output.
fn ok(args: &[&str]) -> String {
    let o = acw(args);
    assert!(o.status.success(), "acw {args:?} failed: {}", stderr(&o));
    stdout(&o)
}

/// A scratch file for `name`, removed with its directory when the returned guard is dropped.
fn temp(name: &str) -> common::Scratch {
    common::Scratch::new("acw-cli-test", name)
}

/// The table row of a total, its cells trimmed.
fn row(table: &str, total: &str) -> Vec<String> {
    table
        .lines()
        .map(|l| {
            l.split(['│', '┆'])
                .map(|c| c.trim().to_string())
                .filter(|c| !c.is_empty())
                .collect::<Vec<_>>()
        })
        .find(|cells| cells.first().map(String::as_str) == Some(total))
        .unwrap_or_else(|| panic!("no row for {total} in\n{table}"))
}

#[test]
fn odds_3d6_table_by_hand() {
    let text = ok(&["odds", "3d6"]);
    // 27 of the 216 throws total 10; 108 total 10 or less; 135 total 10 or more.
    assert_eq!(
        row(&text, "10")[..5],
        ["10", "0.125000", "0.625000", "0.500000", "27/216"]
    );
    // 18 only as 6+6+6.
    assert_eq!(
        row(&text, "18")[..5],
        ["18", "0.004630", "0.004630", "1.000000", "1/216"]
    );
    // Mean 3 × 3.5; variance 3 × 35/12 = 8.75, whose root is 2.958.
    assert!(text.contains("mean 10.500, standard deviation 2.958, median 10"));
}

#[test]
fn odds_keep_highest_and_modifier() {
    // 4d6 keep the highest 3: 18 needs three sixes among four dice: 1 + 4 × 5 = 21 of 1296 throws.
    let text = ok(&["odds", "4d6kh3"]);
    assert_eq!(
        row(&text, "18")[1..5],
        ["0.016204", "0.016204", "1.000000", "21/1296"]
    );
    // 2d6+1: 8 is 7 on the dice, 6 of 36; at least 8 is 21 of 36.
    let text = ok(&["odds", "2d6+1"]);
    assert_eq!(
        row(&text, "8")[1..5],
        ["0.166667", "0.583333", "0.583333", "6/36"]
    );
}

#[test]
fn odds_json_and_csv() {
    let json: serde_json::Value = serde_json::from_str(&ok(&["odds", "2d6", "--json"])).unwrap();
    assert_eq!(json["notation"], "2d6");
    assert_eq!(json["throws"], 36);
    assert!((json["mean"].as_f64().unwrap() - 7.0).abs() < 1e-12);
    let seven = &json["outcomes"][5];
    assert_eq!(seven["total"], 7);
    assert_eq!(seven["ways"], 6);
    assert!((seven["p"].as_f64().unwrap() - 1.0 / 6.0).abs() < 1e-12);
    assert!((seven["p_at_least"].as_f64().unwrap() - 21.0 / 36.0).abs() < 1e-12);

    let csv = ok(&["odds", "d4", "--csv"]);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "total,p,p_at_least,p_at_most,ways");
    assert_eq!(lines[1], "1,0.25,1,0.25,1");
    assert_eq!(lines[4], "4,0.25,0.25,1,1");
    assert_eq!(lines.len(), 5);
}

#[test]
fn odds_plot_writes_an_svg() {
    let path = temp("odds.svg");
    ok(&["odds", "3d6", "--plot", path.to_str().unwrap()]);
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(100)]);
    assert!(svg.contains("3d6: chance of each total"));
}

#[test]
fn roll_is_seeded_and_adds_up() {
    let a = ok(&["roll", "4d6kh3", "--seed", "7", "--times", "5"]);
    assert_eq!(a, ok(&["roll", "4d6kh3", "--seed", "7", "--times", "5"]));
    let lines: Vec<&str> = a.lines().collect();
    assert_eq!(lines.len(), 6);
    let mut sum = 0;
    for line in &lines[..5] {
        // "4d6kh3: 1 2 5 3, keeps 5 3 2 = 10"
        let (faces, rest) = line["4d6kh3: ".len()..].split_once(", keeps ").unwrap();
        let (kept, total) = rest.split_once(" = ").unwrap();
        let faces: Vec<u32> = faces.split(' ').map(|f| f.parse().unwrap()).collect();
        let kept: Vec<u32> = kept.split(' ').map(|f| f.parse().unwrap()).collect();
        let mut sorted = faces.clone();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        assert_eq!(faces.len(), 4);
        assert!(faces.iter().all(|f| (1..=6).contains(f)));
        assert_eq!(kept, sorted[..3]);
        let total: u32 = total.parse().unwrap();
        assert_eq!(total, kept.iter().sum::<u32>());
        sum += total;
    }
    // 4d6kh3 has mean 15869/1296 = 12.245.
    assert_eq!(
        lines[5],
        format!(
            "mean of 5 rolls {:.3} (exact mean 12.245)",
            f64::from(sum) / 5.0
        )
    );
    let one = ok(&["roll", "2d6+1", "--seed", "1"]);
    let (faces, total) = one.trim()["2d6+1: ".len()..].split_once(", +1 = ").unwrap();
    let faces: u32 = faces.split(' ').map(|f| f.parse::<u32>().unwrap()).sum();
    assert_eq!(total.parse::<u32>().unwrap(), faces + 1);
}

#[test]
fn bad_input_is_refused_with_a_sentence_and_code_2() {
    for (args, says) in [
        (
            &["odds", "3x6"][..],
            "malformed dice notation \"3x6\" at byte 1",
        ),
        (&["roll", "0d6"][..], "a pool holds 1 to 128 dice, not 0"),
        (
            &["roll", "d6", "--times", "0"][..],
            "the number of rolls must be a whole number from 1 to 1000000",
        ),
        (
            &["battle", "risk"][..],
            "there is no ruleset called \"risk\"; the rulesets that can be played are: d8, grid, hardtack, north, tsatf",
        ),
        (
            &["simulate", "--games", "0"][..],
            "the number of games must be a whole number, at least 1",
        ),
        (
            &["simulate", "--games", "5", "--threads", "0"][..],
            "the number of threads must be a whole number from 1 to 1024",
        ),
        (
            &["scenario", "chess"][..],
            "there is no ruleset called \"chess\"",
        ),
        (
            &["odds", "3d6", "--json", "--csv"][..],
            "cannot be used with",
        ),
        (&["fight"][..], "unrecognized subcommand 'fight'"),
    ] {
        let o = acw(args);
        assert_eq!(o.status.code(), Some(2), "acw {args:?}");
        assert!(
            stderr(&o).contains(says),
            "acw {args:?} said: {}",
            stderr(&o)
        );
        assert!(stdout(&o).is_empty());
    }
}

#[test]
fn scenario_file_errors_exit_1_with_what_to_do() {
    let missing = acw(&[
        "battle",
        "north",
        "--scenario",
        "/nonexistent/acw/scenario.json",
    ]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        stderr(&missing)
            .starts_with("error: cannot read the scenario file /nonexistent/acw/scenario.json")
    );

    let bad = temp("bad.json");
    std::fs::write(&bad, "{\"forces\": 3}").unwrap();
    let o = acw(&["battle", "north", "--scenario", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.starts_with("error: this is not a valid north scenario: "),
        "{e}"
    );
    assert!(e.contains("line 1 column"), "{e}");
    assert!(e.contains("`acw scenario north`"), "{e}");

    // A scenario the rules refuse: well-formed JSON, but deployment zones 30" deep overlap on a 48" table.
    let text = ok(&["scenario", "north"]);
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["table"]["deployment_depth"] = serde_json::json!(30.0);
    let empty = temp("empty.json");
    std::fs::write(&empty, v.to_string()).unwrap();
    let o = acw(&[
        "simulate",
        "north",
        "--games",
        "3",
        "--scenario",
        empty.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("error: this is not a valid north scenario: "),
        "{}",
        stderr(&o)
    );
}

#[test]
fn scenario_written_loads_back_and_plays_the_same_battle() {
    let path = temp("north.json");
    let o = acw(&["scenario", "north", "--out", path.to_str().unwrap()]);
    assert!(o.status.success());
    assert!(stderr(&o).contains("play it with `acw battle north --scenario"));
    let written = std::fs::read_to_string(&path).unwrap();
    assert_eq!(written, ok(&["scenario", "north"]));
    let v: serde_json::Value = serde_json::from_str(&written).unwrap();
    assert!(v["forces"].is_object() && v["options"].is_object());
    let default = ok(&["battle", "--seed", "5", "--json"]);
    let loaded = ok(&[
        "battle",
        "north",
        "--seed",
        "5",
        "--json",
        "--scenario",
        path.to_str().unwrap(),
    ]);
    assert_eq!(default, loaded);
}

#[test]
fn battle_narrates_and_its_json_agrees() {
    let text = ok(&["battle", "--seed", "3"]);
    assert_eq!(text, ok(&["battle", "north", "--seed", "3"]));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "David E. North's rules, default scenario: 14 units a side on a 72\" x 48\" table, a fence across the centre, 12 turns."
    );
    assert_eq!(
        lines[1],
        "Union: the Attacker bot; Confederates: the Holder bot. Seed 3."
    );
    let last = lines[lines.len() - 1];

    let json = ok(&["battle", "--seed", "3", "--json"]);
    let events: Vec<serde_json::Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let end = &events[events.len() - 1]["end"];
    let (union, confederate) = (&end["losses"]["union"], &end["losses"]["confederate"]);
    // The narrated summary line and the JSON end line tell the same game.
    assert_eq!(
        last,
        format!(
            "Stands lost: Union {union}, Confederate {confederate}; {} orders, {} events.",
            end["orders"],
            events.len() - 1
        )
    );
    assert!(
        events[..events.len() - 1]
            .iter()
            .all(|e| e.is_object() && e.get("end").is_none())
    );
    let turn = end["outcome"]["turn"].as_u64().unwrap();
    assert!((1..=12).contains(&turn));
    assert!(text.contains(&format!("on turn {turn}: ")));
}

#[test]
fn simulate_is_the_same_on_one_and_two_threads() {
    let (a, rows) = simulate_200_on_one_and_two_threads("north");

    // The printed numbers are those of the per-game rows.
    assert_eq!(rows.len(), 200);
    let union_wins = rows.iter().filter(|r| r[2] == "union").count();
    let draws = rows.iter().filter(|r| r[2] == "draw").count();
    assert_eq!(row(&a, "Union wins")[1], union_wins.to_string());
    assert_eq!(row(&a, "draws")[1], draws.to_string());
    assert_eq!(
        row(&a, "Union wins")[2],
        format!("{:.1}%", union_wins as f64 / 2.0)
    );
    let mean_union: f64 = rows
        .iter()
        .map(|r| r[5].parse::<f64>().unwrap())
        .sum::<f64>()
        / 200.0;
    assert_eq!(
        row(&a, "Union losses (stands)")[1],
        format!("{mean_union:.2}")
    );
    assert!(a.contains("200 games from seed 1."));
}

#[test]
fn simulate_json_and_plot() {
    let svg = temp("losses.svg");
    let text = ok(&[
        "simulate",
        "--games",
        "6",
        "--seed",
        "9",
        "--json",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["games"], 6);
    assert_eq!(v["ruleset"], "north");
    let wins = v["wins"]["union"].as_u64().unwrap() + v["wins"]["confederate"].as_u64().unwrap();
    assert_eq!(wins + v["draws"].as_u64().unwrap(), 6);
    let union_games: u64 = v["losses"]["union"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(union_games, 6);
    let p = v["win_rate"]["union"]["p"].as_f64().unwrap();
    assert!((p - v["wins"]["union"].as_f64().unwrap() / 6.0).abs() < 1e-12);
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(
        drawn.starts_with("<svg") && drawn.contains("Confederate") && drawn.contains("stands lost")
    );
}

/// Plays `acw battle RULESET --seed SEED` narrated and as JSON lines, checks the narration opens with `first` and
/// closes with the losses (counted in `unit`), orders and events the JSON's end line records, and returns the
/// narration and the JSON text.
fn battle_both_ways(ruleset: &str, seed: &str, first: &str, unit: &str) -> (String, String) {
    let text = ok(&["battle", ruleset, "--seed", seed]);
    let json = ok(&["battle", ruleset, "--seed", seed, "--json"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], first);
    let events: Vec<serde_json::Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let end = &events[events.len() - 1]["end"];
    assert_eq!(
        lines[lines.len() - 1],
        format!(
            "{unit} lost: Union {}, Confederate {}; {} orders, {} events.",
            end["losses"]["union"],
            end["losses"]["confederate"],
            end["orders"],
            events.len() - 1
        )
    );
    (text, json)
}

#[test]
fn d8_plays_by_name_and_its_scenario_loads_back() {
    let (_, json) = battle_both_ways(
        "d8",
        "4",
        "The regimental D8 rules, default scenario: a battle of 1862, its map and both armies generated from the seed.",
        "Figures",
    );
    let path = temp("d8.json");
    ok(&["scenario", "d8", "--out", path.to_str().unwrap()]);
    assert_eq!(
        json,
        ok(&[
            "battle",
            "d8",
            "--seed",
            "4",
            "--json",
            "--scenario",
            path.to_str().unwrap()
        ])
    );
    // A d8 scenario is not a north one.
    let o = acw(&["battle", "north", "--scenario", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("error: this is not a valid north scenario: "),
        "{}",
        stderr(&o)
    );
}

#[test]
fn tsatf_plays_by_name() {
    battle_both_ways(
        "tsatf",
        "2",
        "Strike for Your God and Country, default scenario: three companies a side on a 48\" x 36\" table.",
        "Figures",
    );
    let sim: serde_json::Value = serde_json::from_str(&ok(&[
        "simulate", "tsatf", "--games", "4", "--seed", "2", "--json",
    ]))
    .unwrap();
    assert_eq!(sim["ruleset"], "tsatf");
    assert_eq!(sim["loss_unit"], "figures");
    let decided = sim["wins"]["union"].as_u64().unwrap()
        + sim["wins"]["confederate"].as_u64().unwrap()
        + sim["draws"].as_u64().unwrap();
    assert_eq!(decided, 4);
}

/// Exact odds of the largest notation took minutes (`64d1000kh32`); `acw odds` now estimates the work first and
/// refuses beyond about a second with a sentence and exit code 1, writing nothing to standard output. `acw
/// roll` still rolls such notation, leaving out the exact mean.
#[test]
fn odds_beyond_the_work_limit_are_refused_with_a_sentence_and_code_1() {
    for notation in ["64d1000kh32", "128d1000kh64"] {
        let o = acw(&["odds", notation]);
        assert_eq!(o.status.code(), Some(1), "acw odds {notation}");
        let said = stderr(&o);
        assert!(
            said.starts_with(&format!(
                "error: working out the exact odds of {notation} would take about"
            )) && said.contains("more than the limit of 1.0e9 steps (about a second of work)"),
            "acw odds {notation} said: {said}"
        );
        assert!(stdout(&o).is_empty());
    }
    let rolled = ok(&["roll", "64d1000kh32", "--seed", "1", "--times", "2"]);
    assert!(
        rolled.contains("(the exact mean is too much work to work out)"),
        "{rolled}"
    );
}

/// Runs `acw simulate RULESET --games 200 --seed 1` on 1 and 2 threads at once, checks the two agree (table and
/// per-game CSV), and returns the table and the CSV rows.
fn simulate_200_on_one_and_two_threads(ruleset: &str) -> (String, Vec<Vec<String>>) {
    let one = temp(&format!("{ruleset}-one.csv"));
    let two = temp(&format!("{ruleset}-two.csv"));
    let run = |threads: &str, csv: &PathBuf| {
        ok(&[
            "simulate",
            ruleset,
            "--games",
            "200",
            "--seed",
            "1",
            "--threads",
            threads,
            "--csv",
            csv.to_str().unwrap(),
        ])
    };
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| run("1", &one));
        let b = s.spawn(|| run("2", &two));
        (a.join().unwrap(), b.join().unwrap())
    });
    assert_eq!(a, b);
    let csv_one = std::fs::read_to_string(&one).unwrap();
    assert_eq!(csv_one, std::fs::read_to_string(&two).unwrap());
    let rows = csv_one
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    (a, rows)
}

#[test]
fn grid_battle_narrates_the_default_meeting_engagement() {
    let text = ok(&["battle", "grid", "--seed", "3"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "The grid/area brigade rules, default scenario: a meeting engagement on squares, 10 areas by 12, a corps a side, 12 turns."
    );
    assert_eq!(
        lines[1],
        "Union: the Attacker bot; Confederates: the Holder bot. Seed 3."
    );
    // Seed 3: the Confederates win the initiative roll 4 to 1 (with a 1 in 2 chance) and let the Union move first.
    assert_eq!(
        lines[3],
        "Initiative dice: 1, 4 — the Confederate player wins and chooses the order (a 50.0% chance)."
    );
    assert_eq!(
        lines[4],
        "The Confederate player chooses to let the Union player move first."
    );
    let json = ok(&["battle", "grid", "--seed", "3", "--json"]);
    let events: Vec<serde_json::Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let end = &events[events.len() - 1]["end"];
    assert_eq!(
        lines[lines.len() - 1],
        format!(
            "Stands lost: Union {}, Confederate {}; {} orders, {} events.",
            end["losses"]["union"],
            end["losses"]["confederate"],
            end["orders"],
            events.len() - 1
        )
    );
    let turn = end["outcome"]["turn"].as_u64().unwrap();
    assert!((1..=12).contains(&turn));
    assert!(text.contains(&format!("on turn {turn}")));
}

#[test]
fn grid_simulate_is_the_same_on_one_and_two_threads() {
    let (table, rows) = simulate_200_on_one_and_two_threads("grid");
    assert_eq!(rows.len(), 200);
    let count = |result: &str| rows.iter().filter(|r| r[2] == result).count();
    let (union, confederate, draws) = (count("union"), count("confederate"), count("draw"));
    assert_eq!(union + confederate + draws, 200);
    assert_eq!(row(&table, "Union wins")[1], union.to_string());
    assert_eq!(row(&table, "Confederate wins")[1], confederate.to_string());
    assert_eq!(row(&table, "draws")[1], draws.to_string());
    assert_eq!(
        row(&table, "Union wins")[2],
        format!("{:.1}%", union as f64 / 2.0)
    );
    let mean = |column: usize| {
        rows.iter()
            .map(|r| r[column].parse::<f64>().unwrap())
            .sum::<f64>()
            / 200.0
    };
    assert_eq!(
        row(&table, "Union losses (stands)")[1],
        format!("{:.2}", mean(5))
    );
    assert_eq!(
        row(&table, "Confederate losses (stands)")[1],
        format!("{:.2}", mean(6))
    );
    // The default scenario has 17 stands a side: no game loses more.
    assert!(rows.iter().all(|r| r[5].parse::<u32>().unwrap() <= 17));
    assert!(table.contains("200 games from seed 1."));
}

#[test]
fn grid_scenario_written_loads_back_and_plays_the_same_battle() {
    let path = temp("grid.json");
    let o = acw(&["scenario", "grid", "--out", path.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let written = std::fs::read_to_string(&path).unwrap();
    let v: serde_json::Value = serde_json::from_str(&written).unwrap();
    assert_eq!(v["board"]["kind"], "Square");
    assert_eq!(v["board"]["areas"].as_array().unwrap().len(), 120);
    assert_eq!(v["units"].as_array().unwrap().len(), 14);
    assert_eq!(v["turns"], 12);
    let default = ok(&["battle", "grid", "--seed", "5", "--json"]);
    let loaded = ok(&[
        "battle",
        "grid",
        "--seed",
        "5",
        "--json",
        "--scenario",
        path.to_str().unwrap(),
    ]);
    assert_eq!(default, loaded);

    // An area far off any table is refused as the grid rules refuse it, with what to do.
    let mut far = v.clone();
    far["victory"]["objectives"] = serde_json::json!([{ "x": 400, "y": 0 }]);
    let bad = temp("grid-bad.json");
    std::fs::write(&bad, far.to_string()).unwrap();
    let o = acw(&["battle", "grid", "--scenario", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.starts_with("error: this is not a valid grid scenario: "),
        "{e}"
    );
    assert!(e.contains("`acw scenario grid`"), "{e}");
}

#[test]
fn hardtack_plays_by_name() {
    let text = ok(&["battle", "hardtack", "--seed", "1"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "Hardtack, default scenario: five companies, a colonel and a gun a side on a 48\" x 36\" table, a rail fence across the centre and a wood, 10 turns."
    );
    assert_eq!(
        lines[1],
        "Union: the Thruster bot; Confederates: the Holder bot. Seed 1."
    );
    assert_eq!(lines[3], "The Union side activates first.");
    // two companies within 6" of the colonel gain the Thruster no tempo: the nearest company goes first, and
    // the colonel, last of the Union's units, transfers his actions to a company that has acted
    assert_eq!(lines[4], "19th Indiana, Company E activates.");
    assert_eq!(lines[71], "Colonel Meredith, 19th Indiana activates.");
    assert_eq!(
        lines[72],
        "Colonel Meredith, 19th Indiana transfers an action to 19th Indiana, Company E, 4.5\" away: it takes a fresh activation of two actions."
    );
    assert_eq!(
        &lines[lines.len() - 2..],
        [
            "Confederate victory on turn 5: an army broke",
            "Figures lost: Union 19, Confederate 11; 231 orders, 328 events."
        ]
    );
    let json = ok(&["battle", "hardtack", "--seed", "1", "--json"]);
    let events: Vec<serde_json::Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(events.len(), 329);
    assert_eq!(events[0], serde_json::json!({"GoesFirst": "Union"}));
    let end = &events[328]["end"];
    assert_eq!(end["losses"]["union"], 19);
    assert_eq!(end["losses"]["confederate"], 11);
    assert_eq!(end["orders"], 231);
}

#[test]
fn hardtack_simulate_is_the_same_on_one_and_two_threads() {
    let run = |threads: &str| {
        let v: serde_json::Value = serde_json::from_str(&ok(&[
            "simulate",
            "hardtack",
            "--games",
            "50",
            "--seed",
            "1",
            "--threads",
            threads,
            "--json",
        ]))
        .unwrap();
        v
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert_eq!(one["ruleset"], "hardtack");
    assert_eq!(one["loss_unit"], "figures");
    assert_eq!(one["games"], 50);
    // the default scenario has a gun a side, which the bots load and fire (round shot and canister), and
    // each gun's detached team behind it, which the bots fire at when no company is in range; Broken and
    // Routed companies run through friends in their way; every move is traced through the companies it
    // passes (HT-MOV-07), and so are withdrawals, falls back and mid-dash placings; fire passes friendly
    // skirmishers and goes through enemy skirmishers (HT-FIR-22, HT-FIR-23); each side's colonel activates
    // its regiment (the Thruster, only for tempo) or transfers actions to companies that have acted (both bots)
    assert_eq!(one["wins"]["union"], 7);
    assert_eq!(one["wins"]["confederate"], 41);
    assert_eq!(one["draws"], 2);
}

#[test]
fn hardtack_scenario_loads_back_and_bad_ones_say_why() {
    let path = temp("hardtack.json");
    ok(&["scenario", "hardtack", "--out", path.to_str().unwrap()]);
    let written = std::fs::read_to_string(&path).unwrap();
    let v: serde_json::Value = serde_json::from_str(&written).unwrap();
    assert_eq!(v["name"], "Meeting at the fence");
    assert_eq!(v["turns"], 10);
    assert_eq!(v["companies"].as_array().unwrap().len(), 12);
    assert_eq!(v["guns"].as_array().unwrap().len(), 2);
    assert_eq!(
        ok(&["battle", "hardtack", "--seed", "1", "--json"]),
        ok(&[
            "battle",
            "hardtack",
            "--seed",
            "1",
            "--json",
            "--scenario",
            path.to_str().unwrap()
        ])
    );
    type Edit = fn(&mut serde_json::Value);
    let edits: [(&str, Edit); 4] = [
        ("a game lasts 1 to 50 turns, not 0", |v| {
            v["turns"] = serde_json::json!(0)
        }),
        (
            "19th Indiana, Company A and 19th Indiana, Company B stand on the same ground",
            |v| v["companies"][1]["at"] = v["companies"][0]["at"].clone(),
        ),
        (
            "a company cannot be raised: company 19th Indiana, Company A has 0 figures; a company needs 1 to 48",
            |v| v["companies"][0]["spec"]["figures"] = serde_json::json!(0),
        ),
        ("unknown field `company`", |v| {
            v["company"] = serde_json::json!(1);
        }),
    ];
    for (says, edit) in edits {
        let mut bad = v.clone();
        edit(&mut bad);
        let file = temp("hardtack-bad.json");
        std::fs::write(&file, bad.to_string()).unwrap();
        let o = acw(&["battle", "hardtack", "--scenario", file.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1));
        let e = stderr(&o);
        assert!(
            e.starts_with(&format!(
                "error: this is not a valid hardtack scenario: {says}"
            )),
            "{e}"
        );
        assert!(e.contains("`acw scenario hardtack`"), "{e}");
    }
}
