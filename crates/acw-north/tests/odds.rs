//! The reference odds runner: reads every `tests/odds/*.ref` file and checks each case's exact
//! probabilities against the procedures' `odds()`. Adding a checked case is one text edit there.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use acw_core::Resolve;
use acw_north::Options;
use acw_north::combat::{Category, CombatSituation, CombatToss, TargetFacts};
use acw_north::command::{OrderChangeToss, OrderCheck, RallyToss};
use acw_north::morale::{
    AttackEffect, Choice, ChoicePolicy, MoraleCheck, MoraleToss, RallyPolicy, WholeAttack,
};
use acw_north::movement::{AccomplishmentToss, ObstacleOutcome, ObstacleToss};
use acw_north::options::CavalryAttackModifier;
use acw_north::tables::{BrigadeOrder, MoraleBand, RallyResult};
use std::collections::BTreeMap;

/// One outcome: its labels and probability.
type Labelled = Vec<(Vec<String>, f64)>;

fn dist_labels<T>(d: &acw_core::Dist<T>, mut label: impl FnMut(&T) -> Vec<String>) -> Labelled {
    d.outcomes().iter().map(|(t, p)| (label(t), *p)).collect()
}

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| (*x).to_string()).collect()
}

struct Args(BTreeMap<String, String>);

impl Args {
    fn int(&self, k: &str, default: i64) -> Result<i64, String> {
        self.0.get(k).map_or(Ok(default), |v| {
            v.parse().map_err(|e| format!("{k}={v}: {e}"))
        })
    }
    fn flag(&self, k: &str) -> Result<bool, String> {
        self.0.get(k).map_or(Ok(false), |v| {
            v.parse().map_err(|e| format!("{k}={v}: {e}"))
        })
    }
    fn text(&self, k: &str) -> Option<&str> {
        self.0.get(k).map(String::as_str)
    }
}

fn band_label(b: MoraleBand) -> &'static str {
    match b {
        MoraleBand::Rallies => "rallies",
        MoraleBand::Choice => "choice",
        MoraleBand::Both => "both",
    }
}

fn compute(name: &str, a: &Args) -> Result<Labelled, String> {
    let small = |k: &str, d: i64| -> Result<u8, String> {
        u8::try_from(a.int(k, d)?).map_err(|e| e.to_string())
    };
    let signed =
        |k: &str| -> Result<i16, String> { i16::try_from(a.int(k, 0)?).map_err(|e| e.to_string()) };
    let hit = |&h: &bool| s(&[if h { "hit" } else { "miss" }]);
    Ok(match name {
        "accomplishment" => {
            let t = AccomplishmentToss {
                capacity: small("capacity", 0)?,
                charge_cover: a.flag("cover")?,
            };
            dist_labels(&t.odds(), |&p| s(&[if p { "pass" } else { "fail" }]))
        }
        "obstacle" => {
            let t = ObstacleToss {
                obstacles: small("obstacles", 1)?,
                per_obstacle: a.flag("per_obstacle")?,
            };
            dist_labels(&t.odds(), |o| match o {
                ObstacleOutcome::Crossed => s(&["crossed"]),
                ObstacleOutcome::HaltedBefore(i) => vec![format!("halted{i}"), "halted".into()],
            })
        }
        "order_change" => dist_labels(&OrderChangeToss.odds(), |&c| {
            s(&[if c { "change" } else { "keep" }])
        }),
        "rally" => dist_labels(
            &RallyToss {
                melee: a.flag("melee")?,
            }
            .odds(),
            |r| match r {
                RallyResult::Subtract(n) => vec![format!("subtract{n}"), "subtract".into()],
                RallyResult::NoEffect => s(&["none"]),
                RallyResult::Captured => s(&["captured", "lost"]),
                RallyResult::Killed => s(&["killed", "lost"]),
            },
        ),
        "order_check" => {
            let current = match a.text("current") {
                Some("Advance") => BrigadeOrder::Advance,
                Some("Hold") => BrigadeOrder::Hold,
                Some("Withdraw") => BrigadeOrder::Withdraw,
                other => return Err(format!("bad current order {other:?}")),
            };
            dist_labels(&OrderCheck { current }.odds(), |o| {
                s(&[&o.to_string().to_lowercase()])
            })
        }
        "combat" => {
            let t = CombatToss {
                modifier: signed("modifier")?,
                automatic: a.flag("automatic")?,
            };
            dist_labels(&t.odds(), hit)
        }
        "situation" => {
            let category = match a.text("category") {
                Some("artillery") => Category::Artillery,
                Some("musketry") => Category::Musketry,
                Some("melee") => Category::Melee,
                other => return Err(format!("bad category {other:?}")),
            };
            let mut o = Options::default();
            if a.text("cavalry") == Some("CoverOnly") {
                o.cavalry_attack_modifier = CavalryAttackModifier::CoverOnly;
            }
            let sit = CombatSituation {
                category,
                attackers: small("attackers", 1)?,
                long_range_batteries: small("long_range", 0)?,
                mounted_cavalry_attackers: small("mounted_attackers", 0)?,
                crossing_skirmishers: small("crossing", 0)?,
                first_round: a.flag("first_round")?,
                target: TargetFacts {
                    behind_cover: a.flag("cover")?,
                    screened: false,
                    deployed: a.text("deployed") != Some("false"),
                    mounted_cavalry: a.flag("mounted_target")?,
                    skirmishers: a.flag("skirmishers")?,
                },
            };
            dist_labels(&sit.toss(&o).odds(), hit)
        }
        "morale" => dist_labels(
            &MoraleToss {
                modifier: signed("modifier")?,
            }
            .odds(),
            |b| s(&[band_label(*b)]),
        ),
        "morale_check" | "attack" => {
            let check = MoraleCheck {
                modifier: if name == "attack" {
                    signed("morale")?
                } else {
                    signed("modifier")?
                },
                rallies: small("rallies", 0)?,
                melee: a.flag("melee")?,
                policy: if a.text("policy") == Some("sparing") {
                    RallyPolicy::IfWouldNotRally
                } else {
                    RallyPolicy::Always
                },
                declared_before: a.flag("before")?,
            };
            if name == "morale_check" {
                dist_labels(&check.odds(), |o| {
                    let mut l = s(&[band_label(o.band)]);
                    if o.general_killed() {
                        l.push("killed".into());
                    }
                    if o.general_captured() {
                        l.push("captured".into());
                    }
                    l
                })
            } else {
                let choice = match a.text("choice") {
                    Some("fallback") => ChoicePolicy::Always(Choice::FallBack),
                    Some("stand") => ChoicePolicy::Always(Choice::LoseStand),
                    _ => ChoicePolicy::default(),
                };
                let attack = WholeAttack {
                    toss: CombatToss {
                        modifier: signed("modifier")?,
                        automatic: a.flag("automatic")?,
                    },
                    check,
                    stands: small("stands", 4)?,
                    artillery: a.flag("artillery")?,
                    crews_removed: a.flag("crews_removed")?,
                    choice,
                };
                dist_labels(&attack.odds(), |o| {
                    let mut l = match o.effect {
                        AttackEffect::NoHit => s(&["nohit"]),
                        AttackEffect::Rallied => s(&["rallied"]),
                        AttackEffect::StandLost => s(&["standlost", "standloss"]),
                        AttackEffect::FellBack => s(&["fellback"]),
                        AttackEffect::StandLostAndFellBack => s(&["both", "standloss", "fellback"]),
                        AttackEffect::Removed => s(&["removed"]),
                    };
                    if o.general_killed {
                        l.push("killed".into());
                    }
                    if o.general_captured {
                        l.push("captured".into());
                    }
                    l
                })
            }
        }
        other => return Err(format!("unknown procedure {other}")),
    })
}

#[test]
fn reference_odds_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/odds");
    let checked = acw_core::testing::odds_ref::check_files(
        &dir,
        |_| 1e-12,
        |name, args| compute(name, &Args(args.clone())),
    )
    .unwrap_or_else(|problems| panic!("{problems}"));
    assert!(checked > 100, "only {checked} probabilities checked");
}
