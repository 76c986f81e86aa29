//! The generic runner of the reference odds files `tests/odds/*.ref`.
//!
//! Format: cases separated by blank lines; `#` starts a comment line. A case is a header line naming a procedure
//! and its inputs, then lines `outcome = probability` with the probability as a fraction (`1/3`), an integer or
//! a decimal. Procedures and their outcome keys:
//!
//! - `hits N@M ...` (GRID-MEL-09 dice: N dice at modifier M): `K`, `>=K`, `<=K`, `mean`.
//! - `halve MODE HITS [carry]` (GRID-CAS-05; MODE down | carry | dice): `K` or `K+half`.
//! - `skirmish open|cover MODE N@M ...` (GRID-FIR-04/05): `K`, `>=K`.
//! - `bombard open|cover MODE phase|battery N@M ... | N@M ...` (GRID-ART-05/07): `K`, `>=K`.
//! - `initiative BONUS TIE` (GRID-SEQ-02; BONUS none | union | confederate; TIE keep | reroll):
//!   `union`, `confederate`, `keep`.
//! - `command UNIT DIVISION` (GRID-CMD-03; yes | no each): `pass`, `fail`.
//! - `commander` (GRID-CMD-06): `cancel`, `none`, `removed`.
//! - `morale M` (GRID-MOR-02): `steady`, `recoiled`, `defeated`, `routed`.
//! - `entrench-turns P` (GRID-MOV-26): `K`, `<=K`, `mean`.
//! - `combat [fractions=MODE] [cancel=after|before] [compare=after|raw] | a: SIDE | b: SIDE` (GRID-MEL-19), a SIDE
//!   being dice groups and `cap=N`, `cover`, `commander`, `morale=M`: `a-tests`, `b-tests`, `no-test`,
//!   `a-more`, `b-more`, `equal`, `a-destroyed`, `a-routed` (A tests and routs), `b-routed`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use acw_core::Resolve;
use acw_core::Side;
use acw_grid::casualties::CoverHalving;
use acw_grid::combat::{CombatOdds, CombatSide, Tester};
use acw_grid::command::{CommandCheck, CommanderRoll};
use acw_grid::fire::{Bombardment, Skirmish};
use acw_grid::morale::MoraleTest;
use acw_grid::movement::EntrenchTurns;
use acw_grid::options::{BombardCoverScope, CancelTiming, FractionMode, HitComparison};
use acw_grid::pool::HitPool;
use acw_grid::sequence::{Initiative, InitiativeOutcome, TieBreak};
use acw_grid::tables::{CommanderResult, MoraleResult};
use std::path::Path;

fn fraction(s: &str) -> f64 {
    let s = s.trim();
    if let Some((a, b)) = s.split_once('/') {
        a.trim().parse::<f64>().expect("numerator") / b.trim().parse::<f64>().expect("denominator")
    } else {
        s.parse().expect("probability")
    }
}

fn pool(tokens: &[&str]) -> HitPool {
    let mut p = HitPool::EMPTY;
    for t in tokens {
        let (n, m) = t
            .split_once('@')
            .unwrap_or_else(|| panic!("dice group {t}"));
        p = p
            .with(n.parse().expect("count"), m.parse().expect("modifier"))
            .expect("pool");
    }
    p
}

fn mode(s: &str) -> FractionMode {
    match s {
        "down" => FractionMode::RoundDown,
        "carry" => FractionMode::CarryFractions,
        "dice" => FractionMode::DiceForFraction,
        _ => panic!("fraction mode {s}"),
    }
}

/// P(key) for a distribution of counts.
fn count_key(d: &acw_core::Dist<u32>, key: &str) -> f64 {
    if key == "mean" {
        return d.mean();
    }
    if let Some(k) = key.strip_prefix(">=") {
        let k: u32 = k.parse().expect("k");
        return d.prob(|&x| x >= k);
    }
    if let Some(k) = key.strip_prefix("<=") {
        let k: u32 = k.parse().expect("k");
        return d.prob(|&x| x <= k);
    }
    d.p(&key.parse().expect("count"))
}

fn side_spec(text: &str) -> CombatSide {
    let mut s = CombatSide::default();
    let mut groups = Vec::new();
    for t in text.split_whitespace() {
        if let Some(c) = t.strip_prefix("cap=") {
            s.capacity = c.parse().expect("cap");
        } else if let Some(m) = t.strip_prefix("morale=") {
            s.morale = m.parse().expect("morale");
        } else if t == "cover" {
            s.cover = true;
        } else if t == "commander" {
            s.commander = true;
        } else {
            groups.push(t);
        }
    }
    s.pool = pool(&groups);
    s
}

fn evaluate(header: &str, key: &str) -> f64 {
    let words: Vec<&str> = header.split_whitespace().collect();
    let (proc, args) = words.split_first().expect("procedure");
    match *proc {
        "hits" => count_key(&pool(args).odds(), key),
        "halve" => {
            let h = CoverHalving {
                hits: args[1].parse().expect("hits"),
                mode: mode(args[0]),
                carry: args.get(2) == Some(&"carry"),
            };
            let (k, half) = match key.strip_suffix("+half") {
                Some(k) => (k, true),
                None => (key, false),
            };
            let k: u32 = k.parse().expect("hits");
            h.odds().prob(|x| x.hits == k && x.carry == half)
        }
        "skirmish" => {
            let s = Skirmish {
                pool: pool(&args[2..]),
                cover: args[0] == "cover",
                fractions: mode(args[1]),
                carry: false,
            };
            count_key(&s.odds().map(|x| x.hits), key)
        }
        "bombard" => {
            let rest = args[3..].join(" ");
            let b = Bombardment {
                batteries: rest
                    .split('|')
                    .map(|g| pool(&g.split_whitespace().collect::<Vec<_>>()))
                    .collect(),
                cover: args[0] == "cover",
                fractions: mode(args[1]),
                carry: false,
                scope: if args[2] == "battery" {
                    BombardCoverScope::PerBattery
                } else {
                    BombardCoverScope::PerTargetPerPhase
                },
            };
            count_key(&b.odds().map(|x| x.hits), key)
        }
        "initiative" => {
            let bonus = match args[0] {
                "union" => Some(Side::Union),
                "confederate" => Some(Side::Confederate),
                _ => None,
            };
            let tie = if args[1] == "reroll" {
                TieBreak::Reroll
            } else {
                TieBreak::KeepLastOrder
            };
            let d = Initiative { bonus, tie }.odds();
            match key {
                "union" => d.p(&InitiativeOutcome::Chooses(Side::Union)),
                "confederate" => d.p(&InitiativeOutcome::Chooses(Side::Confederate)),
                "keep" => d.p(&InitiativeOutcome::KeepsOrder),
                _ => panic!("key {key}"),
            }
        }
        "command" => {
            let c = CommandCheck {
                unit_roll: args[0] == "yes",
                division_roll: args[1] == "yes",
            };
            c.odds().p(&(key == "pass"))
        }
        "commander" => CommanderRoll.odds().p(&match key {
            "cancel" => CommanderResult::CancelHit,
            "none" => CommanderResult::NoEffect,
            "removed" => CommanderResult::Removed,
            _ => panic!("key {key}"),
        }),
        "morale" => MoraleTest {
            modifier: args[0].parse().expect("modifier"),
        }
        .odds()
        .p(&match key {
            "steady" => MoraleResult::Steady,
            "recoiled" => MoraleResult::Recoiled,
            "defeated" => MoraleResult::Defeated,
            "routed" => MoraleResult::Routed,
            _ => panic!("key {key}"),
        }),
        "entrench-turns" => count_key(
            &EntrenchTurns {
                progress: args[0].parse().expect("progress"),
            }
            .odds(),
            key,
        ),
        "combat" => {
            let text = args.join(" ");
            let parts: Vec<&str> = text.split('|').collect();
            let mut odds = CombatOdds::new(CombatSide::default(), CombatSide::default());
            for t in parts[0].split_whitespace() {
                match t.split_once('=') {
                    Some(("fractions", m)) => odds.fractions = mode(m),
                    Some(("cancel", "before")) => odds.cancel = CancelTiming::BeforeCover,
                    Some(("compare", "raw")) => odds.comparison = HitComparison::Raw,
                    _ => {}
                }
            }
            for p in &parts[1..] {
                let p = p.trim();
                if let Some(s) = p.strip_prefix("a:") {
                    odds.a = side_spec(s);
                } else if let Some(s) = p.strip_prefix("b:") {
                    odds.b = side_spec(s);
                }
            }
            let d = odds.odds();
            match key {
                "a-tests" => d.prob(|o| o.tester == Some(Tester::A)),
                "b-tests" => d.prob(|o| o.tester == Some(Tester::B)),
                "no-test" => d.prob(|o| o.tester.is_none()),
                "a-more" => d.prob(|o| o.hits_on_a > o.hits_on_b),
                "b-more" => d.prob(|o| o.hits_on_b > o.hits_on_a),
                "equal" => d.prob(|o| o.hits_on_a == o.hits_on_b),
                "a-destroyed" => d.prob(|o| o.a_destroyed),
                "a-routed" => d.prob(|o| {
                    o.tester == Some(Tester::A) && o.morale == Some(MoraleResult::Routed)
                }),
                "b-routed" => d.prob(|o| {
                    o.tester == Some(Tester::B) && o.morale == Some(MoraleResult::Routed)
                }),
                _ => panic!("key {key}"),
            }
        }
        _ => panic!("unknown procedure {proc}"),
    }
}

#[test]
fn reference_odds_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/odds");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/odds")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ref"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .ref files");
    let mut checked = 0;
    let mut failures = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("read");
        let mut header: Option<String> = None;
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.starts_with('#') {
                continue;
            }
            if line.is_empty() {
                header = None;
                continue;
            }
            match (&header, line.split_once(" = ")) {
                (Some(h), Some((key, want))) => {
                    let got = evaluate(h, key.trim());
                    let want = fraction(want);
                    checked += 1;
                    if (got - want).abs() > 1e-12 {
                        failures.push(format!(
                            "{}:{}: [{h}] {key}: got {got}, want {want}",
                            f.display(),
                            n + 1
                        ));
                    }
                }
                (None, _) => header = Some(line.to_string()),
                (Some(h), None) => {
                    panic!("{}:{}: expected `key = p` under [{h}]", f.display(), n + 1)
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked > 50, "only {checked} reference values checked");
}
