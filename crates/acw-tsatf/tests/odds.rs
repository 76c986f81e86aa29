//! The reference odds runner: reads every `tests/odds/*.ref` file and checks each case's exact probabilities
//! against the procedures' `odds()`. Adding a checked case is one text edit there.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use acw_core::{Dist, Resolve};
use acw_tsatf::Options;
use acw_tsatf::fire::{
    AmmunitionRoll, Fire, HitCard, MassFire, Personal, PersonalShot, TypeFire, Volley,
};
use acw_tsatf::melee::{
    Bout, CloseTest, ColoursRoll, Combat, Loss, Melee, MeleeSide, Party, StragglerRoll,
};
use acw_tsatf::morale::{MoraleTest, RatingRoll, SixRoll};
use acw_tsatf::movement::{LeaderlessDie, MoveDice};
use acw_tsatf::options::{Remainder, SequencingDeck, WoundPolicy};
use acw_tsatf::sequence::CardOrder;
use acw_tsatf::tables::{Category, FireRow, HitEffect, Quality, TargetClass};
use std::collections::BTreeMap;

type Labelled = Vec<(Vec<String>, f64)>;

fn labels<T>(d: &Dist<T>, mut f: impl FnMut(&T) -> Vec<String>) -> Labelled {
    d.outcomes().iter().map(|(t, p)| (f(t), *p)).collect()
}

fn num(d: &Dist<impl Copy + Into<u64>>) -> Labelled {
    labels(d, |&v| {
        let v: u64 = v.into();
        let mut l = vec![v.to_string()];
        l.extend((0..=v).map(|k| format!("at_least_{k}")));
        l
    })
}

fn pass(d: &Dist<bool>) -> Labelled {
    labels(d, |&b| vec![if b { "pass" } else { "fail" }.to_string()])
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
    fn quality(&self) -> Result<Quality, String> {
        Ok(match self.text("class") {
            Some("Green") => Quality::Green,
            Some("Average") => Quality::Average,
            Some("Veteran") => Quality::Veteran,
            Some("Crack") => Quality::Crack,
            Some("Indians") => Quality::Indians,
            o => return Err(format!("bad class {o:?}")),
        })
    }
    fn target(&self) -> Result<TargetClass, String> {
        Ok(match self.text("target") {
            Some("I") => TargetClass::I,
            Some("II") => TargetClass::II,
            Some("III") => TargetClass::III,
            Some("IV") => TargetClass::IV,
            o => return Err(format!("bad target class {o:?}")),
        })
    }
    fn row(&self) -> Result<FireRow, String> {
        use FireRow::*;
        Ok(match self.text("row") {
            Some("green") => GreenMusket,
            Some("average") => AverageMusket,
            Some("veteran") => VeteranMusket,
            Some("crack") => CrackMusket,
            Some("carbine") => CavalryCarbine,
            Some("pistol") => CavalryPistol,
            Some("shotgun") => CavalryShotgun,
            Some("short") => ArtilleryShort,
            Some("long") => ArtilleryLong,
            Some("canister") => Canister,
            Some("gatling") => Gatling,
            o => return Err(format!("bad row {o:?}")),
        })
    }
}

fn compute(name: &str, a: &Args) -> Result<Labelled, String> {
    let small = |k: &str, d: i64| u8::try_from(a.int(k, d)?).map_err(|e| e.to_string());
    let count = |k: &str, d: i64| u16::try_from(a.int(k, d)?).map_err(|e| e.to_string());
    let signed = |k: &str| i8::try_from(a.int(k, 0)?).map_err(|e| e.to_string());
    let mut o = Options::default();
    Ok(match name {
        // TSATF-MEL-08, TSATF-MEL-10, TSATF-MOR-10, TSATF-MOR-14, TSATF-OPT-02, TSATF-MEL-23 (colours as -2)
        "close" => {
            o.always_ignores_mods = !a.flag("always_reads_1_6")?;
            pass(&CloseTest::new(a.quality()?, a.flag("leader")?, signed("modifier")?, &o).odds())
        }
        // TSATF-MOR-02, TSATF-MOR-03, TSATF-MOR-04
        "major" => pass(&MoraleTest::major(a.quality()?, signed("modifier")?).odds()),
        // TSATF-MOR-07, TSATF-MOR-09
        "critical" => {
            pass(&MoraleTest::critical(a.quality()?, a.flag("leader")?, signed("modifier")?).odds())
        }
        // TSATF-CMD-02
        "leaderless" => labels(
            &LeaderlessDie {
                quality: a.quality()?,
            }
            .odds(),
            |&b| vec![if b { "stopped" } else { "moves" }.to_string()],
        ),
        // TSATF-FIR-14, TSATF-CAS-03
        "hit_card" => labels(&HitCard.odds(), |&(e, c)| {
            let e = match e {
                HitEffect::Miss => "miss",
                HitEffect::Wounded => "wounded",
                HitEffect::Killed => "killed",
            };
            let c = match c {
                Category::Enlisted => "enlisted",
                Category::Key => "key",
                Category::Cadre => "cadre",
            };
            vec![
                e.into(),
                c.into(),
                format!("{c}_{e}"),
                if e == "miss" {
                    "no_kill_as_kills"
                } else {
                    "kill_as_kills"
                }
                .into(),
            ]
        }),
        // TSATF-FIR-19, TSATF-FIR-20
        "personal" => {
            let w = if a.text("weapon") == Some("sniper") {
                Personal::SniperRifle
            } else {
                Personal::Pistol
            };
            labels(&PersonalShot(w).odds(), |e| vec![e.to_string()])
        }
        // TSATF-FIR-09, TSATF-FIR-10, TSATF-FIR-11, TSATF-ART-02, TSATF-ART-03, TSATF-ART-08
        "mass_fire" => {
            o.green_class3_pattern = a.flag("pattern")?;
            let remainder = match a.text("remainder") {
                Some("half_up") => Remainder::RoundHalfUp,
                Some("chance") => Remainder::Chance,
                _ => Remainder::Drop,
            };
            num(&MassFire {
                row: a.row()?,
                class: a.target()?,
                figures: count("figures", 0)?,
                remainder,
                green_class3_pattern: o.green_class3_pattern,
            }
            .odds())
        }
        // TSATF-FIR-10, TSATF-FIR-14, TSATF-FIR-18, TSATF-CAS-03: a whole volley with its hit cards
        "volley" => {
            let wounds = match a.text("wounds") {
                Some("campaign") => WoundPolicy::Campaign,
                Some("misses") => WoundPolicy::WoundsAsMisses,
                _ => WoundPolicy::WoundsAsKills,
            };
            let fire = MassFire {
                row: a.row()?,
                class: a.target()?,
                figures: count("figures", 0)?,
                remainder: Remainder::Drop,
                green_class3_pattern: false,
            };
            labels(
                &Volley {
                    fire: Fire::Mass(fire),
                    wounds,
                }
                .odds(),
                |&(k, w)| {
                    vec![
                        format!("killed_{k}"),
                        format!("wounded_{w}"),
                        format!("{k}_{w}"),
                    ]
                },
            )
        }
        // TSATF-FIR-22, TSATF-FIR-23, TSATF-ART-09
        "type_fire" => {
            o.type_fire_carry_dashes = a.flag("carry_dashes")?;
            num(&TypeFire::of(a.row()?, a.target()?, count("dice", 1)?, &o).odds())
        }
        // TSATF-MEL-15, TSATF-MEL-16
        "combat" => labels(
            &Combat {
                modifier: signed("modifier")?,
            }
            .odds(),
            |b| match b {
                Bout::Won(_) => vec!["win".into()],
                Bout::Tie => vec!["tie".into()],
                Bout::Lost(l) => vec![
                    "lose".into(),
                    match l {
                        Loss::Killed => "killed",
                        Loss::Wounded => "wounded",
                        Loss::PushedBack => "pushed",
                    }
                    .into(),
                ],
            },
        ),
        // TSATF-MEL-17, TSATF-MEL-20
        "melee" => {
            let side = |p: &str| -> Result<MeleeSide, String> {
                Ok(MeleeSide {
                    cadre: small(&format!("{p}_cadre"), 0)?,
                    others: small(&format!("{p}_others"), 1)?,
                    modifier: signed(&format!("{p}_mod"))?,
                    cadre_first: true,
                })
            };
            o.melee_overlap = a.flag("overlap")?;
            let m = Melee::new(side("a")?, side("d")?, &o);
            labels(&m.odds(), |out| {
                let w = match out.winner {
                    Party::Attackers => "attackers",
                    Party::Defenders => "defenders",
                };
                vec![w.into(), format!("{w}_{}", out.left)]
            })
        }
        // TSATF-MOV-01, TSATF-MOV-06, TSATF-MOV-07
        "move" => num(&MoveDice {
            dice: small("dice", 1)?,
            drops: small("drops", 0)?,
        }
        .odds()
        .map(|&v| u64::from(v))),
        // TSATF-MEL-02, TSATF-MEL-06
        "stragglers" => labels(
            &StragglerRoll {
                charging: count("charging", 0)?,
                may_straggle: count("may", 0)?,
                starting: count("starting", 0)?,
            }
            .odds(),
            |&(s, h)| vec![s.to_string(), if h { "halted" } else { "goes_on" }.into()],
        ),
        // TSATF-MEL-23
        "colours" => labels(&ColoursRoll.odds(), |&b| {
            vec![if b { "captured" } else { "kept" }.into()]
        }),
        // TSATF-OPT-01
        "rating" => labels(&RatingRoll.odds(), |r| vec![r.modifier().to_string()]),
        // TSATF-SET-09, TSATF-FIR-24
        "ammo" => num(&AmmunitionRoll.odds()),
        // TSATF-OPT-04, TSATF-OPT-09
        "six" => labels(&SixRoll.odds(), |&b| {
            vec![if b { "six" } else { "other" }.into()]
        }),
        // TSATF-SEQ-02, TSATF-SEQ-03
        "card_order" => {
            let kind = if a.flag("full52")? {
                SequencingDeck::Full52WithSkip
            } else {
                SequencingDeck::PerUnit
            };
            let order = CardOrder::new(small("union", 0)?, small("confederate", 0)?, kind)
                .ok_or("too many units")?;
            labels(&order.odds(), |acts| {
                let s = acts.to_string();
                vec![
                    s.clone(),
                    format!("last_{}", s.chars().last().unwrap_or('-')),
                ]
            })
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
    assert!(checked > 80, "only {checked} probabilities checked");
}
