//! The reference odds runner: reads every `tests/odds/*.ref` file and checks each case's exact probabilities
//! (and means) against the procedures' `odds()`. Adding a checked case is one text edit there.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use acw_core::{BySide, Die};
use acw_core::{Dist, Resolve, Side};
use acw_d8::Options;
use acw_d8::army::{
    ArmyFigures, BatteryCount, BatteryType, CavalryCompanies, ClassRoll, ExtraRegiments,
    FootStrength, Player, RegimentSize, RollOff, SharpshooterClass, company_figures,
};
use acw_d8::environment::{GameLength, NightDay, Season, Wind};
use acw_d8::fire::{OfficerCheck, Saves, ToHit, Volley};
use acw_d8::flank::FlankArrival;
use acw_d8::formation::FormationTest;
use acw_d8::map::{EndPoint, FeatureEnds, MapChoice, MapOwner, Piece, Square, TerrainInSquare};
use acw_d8::melee::{Defender, Melee, Pairing, kill_need};
use acw_d8::movement::Hazard;
use acw_d8::options::StructureHits;
use acw_d8::sequence::FirstMove;
use acw_d8::structures::Bombard;
use acw_d8::tables::{
    Band, Class, Cover, FireSource, GunType, TargetKind, save_score, to_hit_modifier, to_hit_need,
};
use std::collections::BTreeMap;

/// One outcome: its labels, its numeric value (for means) and its probability.
type Labelled = Vec<(Vec<String>, f64, f64)>;

fn numeric(d: &Dist<u32>) -> Labelled {
    d.outcomes()
        .iter()
        .map(|(t, p)| (vec![t.to_string()], f64::from(*t), *p))
        .collect()
}

fn named<T>(d: &Dist<T>, mut label: impl FnMut(&T) -> Vec<String>) -> Labelled {
    d.outcomes()
        .iter()
        .map(|(t, p)| (label(t), 0.0, *p))
        .collect()
}

fn yes_no(d: &Dist<bool>, yes: &str, no: &str) -> Labelled {
    named(d, |&b| vec![if b { yes } else { no }.to_string()])
}

struct Args(BTreeMap<String, String>);

impl Args {
    fn int(&self, k: &str, default: i64) -> Result<i64, String> {
        self.0.get(k).map_or(Ok(default), |v| {
            v.parse().map_err(|e| format!("{k}={v}: {e}"))
        })
    }
    fn u32(&self, k: &str, default: u32) -> Result<u32, String> {
        u32::try_from(self.int(k, i64::from(default))?).map_err(|e| e.to_string())
    }
    fn flag(&self, k: &str) -> Result<bool, String> {
        self.0.get(k).map_or(Ok(false), |v| {
            v.parse().map_err(|e| format!("{k}={v}: {e}"))
        })
    }
    fn text(&self, k: &str) -> Option<&str> {
        self.0.get(k).map(String::as_str)
    }
    fn class(&self) -> Result<Class, String> {
        match self.text("class") {
            Some("Raw") => Ok(Class::Raw),
            Some("Exp") => Ok(Class::Experienced),
            Some("Vet") => Ok(Class::Veteran),
            other => Err(format!("bad class {other:?}")),
        }
    }
    fn cover(&self) -> Result<Cover, String> {
        match self.text("cover").unwrap_or("open") {
            "open" => Ok(Cover::Open),
            "soft" => Ok(Cover::Soft),
            "hard" => Ok(Cover::Hard),
            other => Err(format!("bad cover {other}")),
        }
    }
    fn target(&self) -> Result<TargetKind, String> {
        match self.text("target").unwrap_or("formed") {
            "formed" => Ok(TargetKind::Formed),
            "column" => Ok(TargetKind::Column),
            "skirmishers" => Ok(TargetKind::Skirmishers),
            other => Err(format!("bad target {other}")),
        }
    }
    fn side(&self) -> Result<Side, String> {
        match self.text("side") {
            Some("Union") => Ok(Side::Union),
            Some("Confederate") => Ok(Side::Confederate),
            other => Err(format!("bad side {other:?}")),
        }
    }
}

fn class_label(c: &Class) -> Vec<String> {
    vec![c.to_string()]
}

fn compute(name: &str, a: &Args) -> Result<Labelled, String> {
    Ok(match name {
        "tohit" => {
            let band = if a.flag("long")? {
                Band::Long
            } else {
                Band::Short
            };
            let need = to_hit_need(
                a.class()?,
                to_hit_modifier(a.flag("ff")?, a.target()?, band),
            );
            numeric(
                &ToHit {
                    dice: a.u32("dice", 1)?,
                    need,
                }
                .odds(),
            )
        }
        "save" => {
            let source = match a.text("source").unwrap_or("small") {
                "small" => FireSource::SmallArms,
                "field" => FireSource::FieldGun,
                "heavy" => FireSource::HeavyGun,
                other => return Err(format!("bad source {other}")),
            };
            let save = save_score(source, a.flag("skirmishers")?, a.cover()?);
            // hits=1: outcome 0 is a save.
            named(
                &Saves {
                    hits: 1,
                    save: Some(save),
                }
                .odds(),
                |&c| vec![if c == 0 { "saved" } else { "killed" }.into()],
            )
        }
        "volley" => {
            let source = match a.text("source").unwrap_or("small") {
                "small" => FireSource::SmallArms,
                "field" => FireSource::FieldGun,
                "heavy" => FireSource::HeavyGun,
                other => return Err(format!("bad source {other}")),
            };
            let save = save_score(source, a.flag("target_skirmishers")?, a.cover()?);
            let v = Volley::new(
                a.class()?,
                a.flag("ff")?,
                a.target()?,
                a.u32("short", 0)?,
                a.u32("long", 0)?,
                Some(save),
            );
            numeric(&v.odds())
        }
        "melee" => {
            let defender = match a.text("defender") {
                Some("Officer") => Defender::Officer,
                Some("Gunner") => Defender::Artilleryman(a.class()?),
                _ => Defender::Figure(a.class()?),
            };
            let need = kill_need(defender, a.cover()?, a.u32("bonus", 0)? as u8);
            let pairings = vec![
                Pairing {
                    attackers: a.u32("attackers", 1)? as u8,
                    need
                };
                a.u32("defenders", 1)? as usize
            ];
            numeric(
                &Melee {
                    pairings,
                    pooled: a.flag("pooled")?,
                }
                .odds(),
            )
        }
        "officer" => yes_no(
            &OfficerCheck {
                casualties: a.u32("casualties", 0)?,
            }
            .odds(),
            "killed",
            "safe",
        ),
        "fftest" => yes_no(
            &FormationTest {
                class: a.class()?,
                d6: a.flag("d6")?,
            }
            .odds(),
            "pass",
            "fail",
        ),
        "fftests" => {
            // Still holding the formation fail after n tests.
            let p = FormationTest {
                class: a.class()?,
                d6: false,
            }
            .odds()
            .p(&false);
            let n = a.u32("tests", 1)?;
            let keep = p.powi(n as i32);
            vec![
                (vec!["kept".into()], 0.0, keep),
                (vec!["cleared".into()], 0.0, 1.0 - keep),
            ]
        }
        "hazard" => {
            let n = a.u32("figures", 1)?;
            let h = if a.text("kind") == Some("river") {
                Hazard::river(n)
            } else {
                Hazard::jump(n)
            };
            numeric(&h.odds())
        }
        "regiment" => numeric(&RegimentSize { class: a.class()? }.odds()),
        "cavalry_figures" => {
            let side = a.side()?;
            numeric(
                &CavalryCompanies { side }
                    .odds()
                    .map(|&c| u32::from(c) * company_figures(side)),
            )
        }
        "extra" => named(
            &ExtraRegiments {
                d4_3_veteran: a.flag("option")?,
            }
            .odds(),
            |&(v, e, r)| {
                let mut l = vec![format!("{}", v + e + r)];
                if v > 0 {
                    l.push("vet".into());
                }
                l.push(format!("raw{r}"));
                l
            },
        ),
        "army_figures" => numeric(
            &ArmyFigures {
                side: a.side()?,
                d4_3_veteran: a.flag("option")?,
            }
            .odds(),
        ),
        "foot_figures" => numeric(
            &FootStrength {
                d4_3_veteran: a.flag("option")?,
            }
            .odds(),
        ),
        "extra_regiments" => numeric(
            &ExtraRegiments::default()
                .odds()
                .map(|&(v, e, r)| 12 + u32::from(v + e + r)),
        ),
        "class_roll" => named(&ClassRoll.odds(), class_label),
        "sharpshooters" => named(&SharpshooterClass.odds(), class_label),
        "battery_type" => named(&BatteryType.odds(), |g| {
            vec![
                if *g == GunType::Heavy {
                    "heavy"
                } else {
                    "field"
                }
                .into(),
            ]
        }),
        "batteries" => numeric(&BatteryCount.odds().map(|&b| u32::from(b))),
        "map_choice" => named(&MapChoice.odds(), |m| {
            vec![
                match m {
                    MapOwner::Union => "union",
                    MapOwner::Confederate => "confederate",
                    MapOwner::Umpire => "umpire",
                }
                .into(),
            ]
        }),
        "terrain" => {
            let square = Square::new(a.u32("square", 1)? as u8).map_err(|e| e.to_string())?;
            named(
                &TerrainInSquare {
                    square,
                    separate_fields: a.flag("fields")?,
                }
                .odds(),
                |p| {
                    vec![match p {
                        None => "empty".into(),
                        Some(Piece::Hill) => "hill".into(),
                        Some(Piece::Farm) => "farm".into(),
                        Some(Piece::Wood) => "wood".into(),
                        Some(Piece::BrokenGround) => "broken".into(),
                        Some(Piece::Field) => "field".into(),
                    }]
                },
            )
        }
        "endpoint" => named(
            &EndPoint {
                reroll_corner_labels: a.flag("reroll")?,
            }
            .odds(),
            |s| vec![format!("sq{}", s.number())],
        ),
        "ends" => named(
            &FeatureEnds {
                reroll_corner_labels: a.flag("reroll")?,
            }
            .odds(),
            |(s, f)| vec![if s == f { "same" } else { "different" }.into()],
        ),
        "day" => named(&NightDay.odds(), |d| {
            vec![
                format!("hour{}", d.start_hour),
                if d.season == Season::Summer {
                    "summer"
                } else {
                    "spring"
                }
                .into(),
            ]
        }),
        "length" => numeric(&GameLength.odds()),
        "wind" => yes_no(&Wind.odds(), "wind", "calm"),
        "flank" => named(&FlankArrival.odds(), |r| {
            vec![format!("square{}", r.square), format!("move{}", r.on_move)]
        }),
        "bombard" => {
            let gun = if a.text("gun") == Some("heavy") {
                GunType::Heavy
            } else {
                GunType::Field
            };
            let band = if a.flag("long")? {
                Band::Long
            } else {
                Band::Short
            };
            let mut o = Options::default();
            o.structure_hits = match a.text("rule").unwrap_or("class") {
                "class" => StructureHits::ClassScore,
                "pips" => StructureHits::Pips,
                "four" => StructureHits::FourUp,
                other => return Err(format!("bad rule {other}")),
            };
            numeric(&Bombard::new(gun, a.u32("crew", 1)?, a.class()?, band, &o).odds())
        }
        "first_move" => {
            let m = FirstMove {
                cavalry: BySide::new(a.u32("cav_u", 0)?, a.u32("cav_c", 0)?),
                artillery: BySide::new(a.u32("art_u", 0)?, a.u32("art_c", 0)?),
            };
            named(&m.odds(), |s| vec![s.to_string().to_lowercase()])
        }
        "rolloff" => {
            let die = Die::new(a.u32("sides", 6)? as u16).map_err(|e| e.to_string())?;
            named(&RollOff { die }.odds(), |p| {
                vec![
                    if *p == Player::First {
                        "first"
                    } else {
                        "second"
                    }
                    .into(),
                ]
            })
        }
        other => return Err(format!("unknown procedure {other}")),
    })
}

#[test]
fn reference_odds_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/odds");
    // Tiny probabilities are checked relative to their size.
    let checked = acw_core::testing::odds_ref::check_files(
        &dir,
        |want: f64| {
            if want.abs() < 1e-3 {
                want.abs() * 1e-6
            } else {
                1e-9
            }
        },
        |name, args| compute(name, &Args(args.clone())),
    )
    .unwrap_or_else(|problems| panic!("{problems}"));
    assert!(checked > 80, "only {checked} probabilities checked");
}
