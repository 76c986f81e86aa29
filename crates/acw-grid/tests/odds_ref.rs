//! The reference odds runner: reads every `tests/odds/*.ref` file with the shared
//! [`acw_core::testing::odds_ref`] runner and checks each case's exact probabilities, worked out by hand, against
//! the procedures' `odds()`. Adding a checked case is one text edit there.
//!
//! A case is a procedure line (name and `key=value` inputs), then indented `label = fraction` lines. Dice are
//! groups `N@M` (N dice at modifier M) joined by commas; a bombardment's batteries are separated by `|`. Procedures,
//! their inputs and their labels:
//!
//! - `hits dice=...` (GRID-MEL-09 dice): `K` hits, `atleastK`, `atmostK`, `mean`.
//! - `halve fractions=down|carry|dice hits=H [carry=true]` (GRID-CAS-05): `K`, or `K+half` with a half carried.
//! - `skirmish cover=BOOL fractions=MODE dice=...` (GRID-FIR-04/05): `K`, `atleastK`, `atmostK`, `mean`.
//! - `bombard cover=BOOL fractions=MODE scope=phase|battery batteries=...|...` (GRID-ART-05/07): as `skirmish`.
//! - `initiative bonus=none|union|confederate tie=keep|reroll` (GRID-SEQ-02): `union`, `confederate`, `keep`,
//!   `scenario-first`.
//! - `command unit_roll=BOOL division_roll=BOOL` (GRID-CMD-03): `pass`, `fail`.
//! - `commander` (GRID-CMD-06): `cancel`, `none`, `removed`.
//! - `morale modifier=M` (GRID-MOR-02): `steady`, `recoiled`, `defeated`, `routed`.
//! - `entrench progress=P` (GRID-MOV-26): turns `K`, `atleastK`, `atmostK`, `mean`.
//! - `combat [fractions=MODE] [cancel=after|before] [compare=after|raw] a=... b=...` with per side `a_cap=N`,
//!   `a_cover=true`, `a_commander=true`, `a_morale=M` (GRID-MEL-19): `a-tests`, `b-tests`, `no-test`, `a-more`,
//!   `b-more`, `equal`, `a-destroyed`, `a-routed` (A tests and routs), `b-routed`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use acw_core::testing::odds_ref::{RefOutcome, check_files};
use acw_core::{Dist, Resolve, Side};
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
use std::collections::BTreeMap;
use std::path::Path;

struct Args<'a>(&'a BTreeMap<String, String>);

impl Args<'_> {
    fn text(&self, k: &str) -> Result<&str, String> {
        self.0
            .get(k)
            .map(String::as_str)
            .ok_or(format!("missing input {k}"))
    }
    fn num<T: std::str::FromStr>(&self, k: &str, default: T) -> Result<T, String>
    where
        T::Err: std::fmt::Display,
    {
        self.0.get(k).map_or(Ok(default), |v| {
            v.parse().map_err(|e| format!("{k}={v}: {e}"))
        })
    }
    fn flag(&self, k: &str) -> Result<bool, String> {
        self.num(k, false)
    }
    fn fractions(&self) -> Result<FractionMode, String> {
        match self.0.get("fractions").map(String::as_str) {
            None | Some("down") => Ok(FractionMode::RoundDown),
            Some("carry") => Ok(FractionMode::CarryFractions),
            Some("dice") => Ok(FractionMode::DiceForFraction),
            Some(other) => Err(format!("fraction mode {other}")),
        }
    }
}

/// A pool from dice groups `N@M` joined by commas (empty text: no dice).
fn pool(text: &str) -> Result<HitPool, String> {
    let mut p = HitPool::EMPTY;
    for g in text.split(',').filter(|g| !g.is_empty()) {
        let (n, m) = g.split_once('@').ok_or(format!("dice group {g}"))?;
        let n = n.parse().map_err(|e| format!("{g}: {e}"))?;
        let m = m.parse().map_err(|e| format!("{g}: {e}"))?;
        p = p.with(n, m).map_err(|e| format!("{g}: {e}"))?;
    }
    Ok(p)
}

fn labelled<T>(d: &Dist<T>, mut label: impl FnMut(&T) -> Vec<String>) -> Vec<RefOutcome> {
    d.outcomes()
        .iter()
        .map(|(t, p)| (label(t), *p).into())
        .collect()
}

/// A count's outcomes: `K`, `atleastJ` for every J up to K, `atmostJ` for every J from K to the largest count,
/// valued for `mean`.
fn counts(d: &Dist<u32>) -> Vec<RefOutcome> {
    let max = d.outcomes().iter().map(|(k, _)| *k).max().unwrap_or(0);
    d.outcomes()
        .iter()
        .map(|&(k, p)| {
            let mut labels = vec![k.to_string()];
            labels.extend((0..=k).map(|j| format!("atleast{j}")));
            labels.extend((k..=max).map(|j| format!("atmost{j}")));
            (labels, f64::from(k), p).into()
        })
        .collect()
}

fn side(a: &Args, s: &str) -> Result<CombatSide, String> {
    let mut side = CombatSide {
        pool: pool(a.0.get(s).map_or("", String::as_str))?,
        ..CombatSide::default()
    };
    side.capacity = a.num(&format!("{s}_cap"), side.capacity)?;
    side.morale = a.num(&format!("{s}_morale"), side.morale)?;
    side.cover = a.flag(&format!("{s}_cover"))?;
    side.commander = a.flag(&format!("{s}_commander"))?;
    Ok(side)
}

fn compute(name: &str, args: &BTreeMap<String, String>) -> Result<Vec<RefOutcome>, String> {
    let a = Args(args);
    let one = |l: &str| vec![l.to_string()];
    Ok(match name {
        "hits" => counts(&pool(a.text("dice")?)?.odds()),
        "halve" => {
            let h = CoverHalving {
                hits: a.num("hits", 0)?,
                mode: a.fractions()?,
                carry: a.flag("carry")?,
            };
            labelled(&h.odds(), |x| {
                one(&format!("{}{}", x.hits, if x.carry { "+half" } else { "" }))
            })
        }
        "skirmish" => {
            let s = Skirmish {
                pool: pool(a.text("dice")?)?,
                cover: a.flag("cover")?,
                fractions: a.fractions()?,
                carry: false,
            };
            counts(&s.odds().map(|x| x.hits))
        }
        "bombard" => {
            let b = Bombardment {
                batteries: a
                    .text("batteries")?
                    .split('|')
                    .map(pool)
                    .collect::<Result<_, _>>()?,
                cover: a.flag("cover")?,
                fractions: a.fractions()?,
                carry: false,
                scope: match a.text("scope")? {
                    "battery" => BombardCoverScope::PerBattery,
                    "phase" => BombardCoverScope::PerTargetPerPhase,
                    other => return Err(format!("scope {other}")),
                },
            };
            counts(&b.odds().map(|x| x.hits))
        }
        "initiative" => {
            let bonus = match a.text("bonus")? {
                "union" => Some(Side::Union),
                "confederate" => Some(Side::Confederate),
                "none" => None,
                other => return Err(format!("bonus {other}")),
            };
            let tie = match a.text("tie")? {
                "reroll" => TieBreak::Reroll,
                "keep" => TieBreak::KeepLastOrder,
                other => return Err(format!("tie {other}")),
            };
            labelled(&Initiative { bonus, tie }.odds(), |o| match o {
                InitiativeOutcome::Chooses(Side::Union) => one("union"),
                InitiativeOutcome::Chooses(Side::Confederate) => one("confederate"),
                InitiativeOutcome::KeepsOrder => one("keep"),
                InitiativeOutcome::ScenarioFirst(_) => one("scenario-first"),
            })
        }
        "command" => {
            let c = CommandCheck {
                unit_roll: a.flag("unit_roll")?,
                division_roll: a.flag("division_roll")?,
            };
            labelled(&c.odds(), |&pass| one(if pass { "pass" } else { "fail" }))
        }
        "commander" => labelled(&CommanderRoll.odds(), |r| match r {
            CommanderResult::CancelHit => one("cancel"),
            CommanderResult::NoEffect => one("none"),
            CommanderResult::Removed => one("removed"),
        }),
        "morale" => labelled(
            &MoraleTest {
                modifier: a.num("modifier", 0)?,
            }
            .odds(),
            |r| match r {
                MoraleResult::Steady => one("steady"),
                MoraleResult::Recoiled => one("recoiled"),
                MoraleResult::Defeated => one("defeated"),
                MoraleResult::Routed => one("routed"),
            },
        ),
        "entrench" => counts(
            &EntrenchTurns {
                progress: a.num("progress", 0)?,
            }
            .odds(),
        ),
        "combat" => {
            let mut odds = CombatOdds::new(side(&a, "a")?, side(&a, "b")?);
            odds.fractions = a.fractions()?;
            match a.0.get("cancel").map(String::as_str) {
                None | Some("after") => {}
                Some("before") => odds.cancel = CancelTiming::BeforeCover,
                Some(other) => return Err(format!("cancel {other}")),
            }
            match a.0.get("compare").map(String::as_str) {
                None | Some("after") => {}
                Some("raw") => odds.comparison = HitComparison::Raw,
                Some(other) => return Err(format!("compare {other}")),
            }
            labelled(&odds.odds(), |o| {
                let mut l = Vec::new();
                l.push(
                    match o.tester {
                        Some(Tester::A) => "a-tests",
                        Some(Tester::B) => "b-tests",
                        None => "no-test",
                    }
                    .to_string(),
                );
                l.push(
                    match o.hits_on_a.cmp(&o.hits_on_b) {
                        std::cmp::Ordering::Greater => "a-more",
                        std::cmp::Ordering::Less => "b-more",
                        std::cmp::Ordering::Equal => "equal",
                    }
                    .to_string(),
                );
                if o.a_destroyed {
                    l.push("a-destroyed".into());
                }
                if o.morale == Some(MoraleResult::Routed) {
                    match o.tester {
                        Some(Tester::A) => l.push("a-routed".into()),
                        Some(Tester::B) => l.push("b-routed".into()),
                        None => {}
                    }
                }
                l
            })
        }
        other => return Err(format!("unknown procedure {other}")),
    })
}

#[test]
fn reference_odds_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/odds");
    let checked =
        check_files(&dir, |_| 1e-12, compute).unwrap_or_else(|problems| panic!("{problems}"));
    // 46 cases, 105 probabilities worked out by hand.
    assert_eq!(checked, 105, "{checked} probabilities checked, want 105");
}
