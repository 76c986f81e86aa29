//! The reference odds runner: reads every `tests/odds/*.ref` file and checks each case's exact
//! probabilities against the procedures' `odds()`. Adding a checked case is one text edit there.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use acw_core::{Dist, Resolve};
use acw_hardtack::DieType;
use acw_hardtack::Options;
use acw_hardtack::advanced::QuietMutiny;
use acw_hardtack::artillery::{
    AreaDamage, BlastChain, BlastCompany, BlastOntoTeam, BlastTeam, BounceTest, ShotAccuracy,
    ShotBounces, TeamFire,
};
use acw_hardtack::casualties::{HorseOrRider, HorseState, HorseStatus, Struck};
use acw_hardtack::fire::FirepowerFacts;
use acw_hardtack::fire::{
    FireDice, FirerDice, Impact, ScreenedVolley, StandFire, Volley, allocation_odds,
};
use acw_hardtack::ladder::Success;
use acw_hardtack::melee::{
    AssaultEnd, AssaultFire, AssaultSide, CloseAssault, CombinedAssault, CombinedEnd,
    CombinedMelee, DownedFates, FinalFire, Melee, MeleeDie, MeleeEnd, MeleeSide, Partner,
};
use acw_hardtack::morale::{Confidence, ConfidenceTest, Rally, ReactionTest, ReplacementLeader};
use acw_hardtack::movement::{CombatMove, MoveResult};
use acw_hardtack::options::{AssaultTestCasualties, KillThreshold, TwoLevelDrop};
use acw_hardtack::setup::{QualityDraw, WarYear};
use acw_hardtack::state::FireRoll;
use acw_hardtack::tables::FieldPiece;
use acw_hardtack::tables::{Leadership, Quality};
use std::collections::BTreeMap;

type Labelled = Vec<(Vec<String>, f64)>;

fn labels<T>(d: &Dist<T>, mut f: impl FnMut(&T) -> Vec<String>) -> Labelled {
    d.outcomes().iter().map(|(t, p)| (f(t), *p)).collect()
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
    fn die(&self, k: &str) -> Result<DieType, String> {
        let faces = self.int(k, 0)?;
        DieType::ALL
            .into_iter()
            .find(|d| i64::from(d.faces()) == faces)
            .ok_or(format!("{k}={faces} is not a die on the ladder"))
    }
    fn dice(&self, k: &str) -> Result<Vec<DieType>, String> {
        let text = self.0.get(k).ok_or(format!("missing {k}"))?;
        text.split(',')
            .map(|f| {
                DieType::ALL
                    .into_iter()
                    .find(|d| d.faces().to_string() == f)
                    .ok_or(format!("{f} is not a die on the ladder"))
            })
            .collect()
    }
    fn lv(&self) -> Result<Leadership, String> {
        Leadership::new(u8::try_from(self.int("lv", 2)?).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())
    }
    fn flag(&self, k: &str) -> bool {
        self.0.get(k).is_some_and(|v| v == "true")
    }
    fn small(&self, k: &str, d: i64) -> Result<i16, String> {
        i16::try_from(self.int(k, d)?).map_err(|e| e.to_string())
    }
}

fn kill(a: &Args) -> KillThreshold {
    if a.flag("sgii") {
        KillThreshold::MoreThanDouble
    } else {
        KillThreshold::DoubleOrMore
    }
}

fn compute(name: &str, a: &Args) -> Result<Labelled, String> {
    Ok(match name {
        "confidence" => {
            let t = ConfidenceTest {
                quality: a.die("q")?,
                lv: a.lv()?,
                tl: a.small("tl", 0)?,
                two_level: if a.flag("less_than_half") {
                    TwoLevelDrop::LessThanHalf
                } else {
                    TwoLevelDrop::HalfOrLess
                },
            };
            labels(&t.odds(), |c| {
                s(&[match c {
                    Confidence::Pass => "pass",
                    Confidence::LoseOne => "lose1",
                    Confidence::LoseTwo => "lose2",
                }])
            })
        }
        "reaction" => {
            let t = ReactionTest {
                quality: a.die("q")?,
                lv: a.lv()?,
                tl: a.small("tl", 0)?,
            };
            labels(&t.odds(), |&p| s(&[if p { "pass" } else { "fail" }]))
        }
        "rally" => {
            let t = Rally {
                quality: a.die("q")?,
                lv: a.lv()?,
                rallier: Leadership::new(
                    u8::try_from(a.int("rallier", 1)?).map_err(|e| e.to_string())?,
                )
                .map_err(|e| e.to_string())?,
            };
            labels(&t.odds(), |&p| s(&[if p { "pass" } else { "fail" }]))
        }
        "replacement" => labels(&ReplacementLeader { old: a.lv()? }.odds(), |l| {
            vec![format!("lv{}", l.value())]
        }),
        "impact" => {
            let t = Impact {
                impact: a.die("impact")?,
                armour: a.die("armour")?,
                armour_shift: a.small("shift", 0)?,
                kill: kill(a),
            };
            labels(&t.odds(), |r| {
                let l = format!("{r}");
                match l.as_str() {
                    "no effect" => s(&["none"]),
                    "wounded" => s(&["wound", "casualty"]),
                    _ => s(&["kill", "casualty"]),
                }
            })
        }
        "fire" | "volley" => {
            let fire = FireDice {
                firer: FirerDice::new(&a.dice("dice")?).map_err(|e| e.to_string())?,
                range: a.die("range")?,
            };
            let succ = |x: Success| match x {
                Success::Fail => "fail",
                Success::Minor => "minor",
                Success::Major => "major",
            };
            if name == "fire" {
                labels(&fire.odds(), |e| {
                    vec![succ(e.success).to_string(), format!("hits{}", e.potential)]
                })
            } else {
                let v = Volley {
                    fire,
                    impact: Impact {
                        impact: a.die("impact")?,
                        armour: a.die("armour")?,
                        armour_shift: 0,
                        kill: kill(a),
                    },
                    pool: u8::try_from(a.int("pool", 8)?).map_err(|e| e.to_string())?,
                };
                labels(&v.odds(), |o| {
                    vec![
                        succ(o.effect.success).to_string(),
                        format!("killed{}", o.killed),
                        format!("wounded{}", o.wounded),
                        format!("casualties{}", o.casualties()),
                    ]
                })
            }
        }
        "remainder" => {
            // the fire roll with the range roll and the firer's faces fixed: the engine's roll over each
            // face of the re-rolled range die, equally likely
            let fire = FireDice {
                firer: FirerDice::new(&a.dice("dice")?).map_err(|e| e.to_string())?,
                range: a.die("range")?,
            };
            let faces: Vec<u16> =
                a.0.get("faces")
                    .ok_or("missing faces")?
                    .split(',')
                    .map(|f| f.parse().map_err(|e| format!("faces: {e}")))
                    .collect::<Result<_, String>>()?;
            let roll = u16::try_from(a.int("roll", 1)?).map_err(|e| e.to_string())?;
            let sides = fire.range.faces();
            (1..=sides)
                .map(|k| {
                    let script = std::iter::once(roll)
                        .chain(faces.iter().copied())
                        .chain([k]);
                    let e = fire.roll(&mut acw_core::dice::ScriptedDice::faces(script));
                    (vec![format!("hits{}", e.potential)], 1.0 / f64::from(sides))
                })
                .collect()
        }
        "team" => {
            let t = TeamFire {
                fire: FireRoll::Dice(FireDice {
                    firer: FirerDice::new(&a.dice("dice")?).map_err(|e| e.to_string())?,
                    range: a.die("range")?,
                }),
                impact: a.die("impact")?,
                armour_shift: 0,
                horses: u8::try_from(a.int("horses", 1)?).map_err(|e| e.to_string())?,
                options: {
                    let mut o = Options::default();
                    o.kill_threshold = kill(a);
                    o.quick_combat_resolution = a.flag("quick");
                    o
                },
            };
            labels(&t.odds(), |o| vec![format!("down{}", o.horses_down)])
        }
        "chain" => {
            let dice = a.dice("dice")?;
            let piece = match dice.get(1).map(|d| d.faces()) {
                Some(8) => FieldPiece::Gun6lb,
                Some(10) => FieldPiece::Rifle10lbOr3in,
                _ => FieldPiece::Napoleon12lb,
            };
            let mut options = Options::default();
            options.quick_combat_resolution = a.flag("quick");
            options.blast_requires_casualties = a.flag("requires_casualties");
            let band = piece.canister_band();
            let distance = a.int("distance", 1)? as f64;
            let spacing = a.int("spacing", 0)? as f64;
            let pool = u8::try_from(a.int("pool", 4)?).map_err(|e| e.to_string())?;
            let n = usize::try_from(a.int("companies", 2)?).map_err(|e| e.to_string())?;
            let line: Vec<BlastCompany> = (0..n)
                .map(|i| BlastCompany {
                    range: acw_hardtack::fire::RangeFacts::at(distance + spacing * i as f64, band),
                    armour: DieType::D4,
                    pool,
                })
                .collect();
            let horses = u8::try_from(a.int("horses", 0)?).map_err(|e| e.to_string())?;
            let team = (horses > 0).then(|| BlastTeam {
                range: acw_hardtack::fire::RangeFacts::at(distance + spacing * n as f64, band),
                horses,
            });
            let b =
                BlastChain::new(dice[0], piece, &line, team, options).map_err(|e| e.to_string())?;
            labels(&b.odds(), |o| {
                let reached = o.companies.iter().filter(|c| c.is_some()).count();
                let last = o.companies.iter().flatten().last();
                let through =
                    last.is_some_and(|c| c.effect.success != Success::Fail) && reached == n;
                let mut l = vec![if through {
                    "through".to_string()
                } else {
                    format!("stops{reached}")
                }];
                if let Some(t) = o.team {
                    l.push(format!("down{}", t.horses_down));
                }
                l
            })
        }
        "screened" => {
            let v = ScreenedVolley {
                volley: Volley {
                    fire: FireDice {
                        firer: FirerDice::new(&a.dice("dice")?).map_err(|e| e.to_string())?,
                        range: a.die("range")?,
                    },
                    impact: Impact {
                        impact: a.die("impact")?,
                        armour: a.die("armour")?,
                        armour_shift: 0,
                        kill: kill(a),
                    },
                    pool: u8::try_from(a.int("pool", 1)?).map_err(|e| e.to_string())?,
                },
                screen_armour: a.die("screen_armour")?,
                screen: u8::try_from(a.int("screen", 1)?).map_err(|e| e.to_string())?,
            };
            labels(&v.odds(), |o| {
                let (t, sk) = (o.target.casualties() == 0, o.screen.casualties() == 0);
                let mut l = vec![format!("screen_killed{}", o.screen.killed)];
                if t {
                    l.push("target_clear".to_string());
                }
                if sk {
                    l.push("screen_clear".to_string());
                }
                if t && sk {
                    l.push("both_clear".to_string());
                }
                l
            })
        }
        "blast" => {
            let dice = a.dice("dice")?;
            let firer = FirerDice::new(&dice).map_err(|e| e.to_string())?;
            let mut options = Options::default();
            options.quick_combat_resolution = a.flag("quick");
            options.blast_requires_casualties = a.flag("requires_casualties");
            let company = Volley {
                fire: FireDice {
                    firer,
                    range: a.die("range")?,
                },
                impact: Impact {
                    impact: DieType::D12,
                    armour: DieType::D4,
                    armour_shift: 0,
                    kill: kill(a),
                },
                pool: u8::try_from(a.int("pool", 8)?).map_err(|e| e.to_string())?,
            };
            let piece = match dice.get(1).map(|d| d.faces()) {
                Some(8) => FieldPiece::Gun6lb,
                Some(10) => FieldPiece::Rifle10lbOr3in,
                _ => FieldPiece::Napoleon12lb,
            };
            let b = BlastOntoTeam::new(
                company,
                dice[0],
                piece,
                a.die("team_range")?,
                0,
                u8::try_from(a.int("horses", 1)?).map_err(|e| e.to_string())?,
                options,
            );
            labels(&b.odds(), |o| match o.team {
                None => vec!["stops".to_string()],
                Some(t) => vec!["reaches".to_string(), format!("down{}", t.horses_down)],
            })
        }
        "stands" => {
            let fire = FireDice {
                firer: FirerDice::new(&a.dice("dice")?).map_err(|e| e.to_string())?,
                range: a.die("range")?,
            };
            let n = usize::try_from(a.int("n", 1)?).map_err(|e| e.to_string())?;
            let sf = StandFire::new(
                &vec![fire; n],
                Impact {
                    impact: a.die("impact")?,
                    armour: a.die("armour")?,
                    armour_shift: 0,
                    kill: kill(a),
                },
                usize::try_from(a.int("pool", 8)?).map_err(|e| e.to_string())?,
            )
            .map_err(|e| e.to_string())?;
            labels(&sf.odds(), |o| {
                vec![
                    match o.effect.success {
                        Success::Fail => "fail",
                        Success::Minor => "minor",
                        Success::Major => "major",
                    }
                    .to_string(),
                    format!("hits{}", o.effect.potential),
                    format!("casualties{}", o.casualties()),
                ]
            })
        }
        "combined" => {
            let side = |figures: i64, mounted: bool| -> Result<MeleeSide, String> {
                let q = a.die("q")?;
                Ok(MeleeSide {
                    figures: u8::try_from(figures).map_err(|e| e.to_string())?,
                    first_round: MeleeDie {
                        mounted,
                        ..MeleeDie::plain(q)
                    },
                    quality: q,
                    lv: a.lv()?,
                    modifier: a.small("modifier", 0)?,
                    on_foot: 0,
                })
            };
            let n = usize::try_from(a.int("n", 2)?).map_err(|e| e.to_string())?;
            let m = CombinedMelee::new(
                &vec![side(a.int("a", 1)?, a.flag("mounted"))?; n],
                side(a.int("d", 1)?, false)?,
                AssaultTestCasualties::ThisRound,
                TwoLevelDrop::HalfOrLess,
                false,
            )
            .map_err(|e| e.to_string())?;
            labels(&m.odds(), |o| {
                vec![
                    match o.winner {
                        Some(AssaultSide::Attacker) => "attacker_wins",
                        Some(AssaultSide::Defender) => "defender_wins",
                        None => "stalemate",
                    }
                    .to_string(),
                    format!("adown{}", o.attacker_down),
                    format!("ddown{}", o.defender_down),
                    format!("fell_back{}", o.fell_back),
                    format!("aunhorsed{}", o.attacker_unhorsed),
                ]
            })
        }
        "combined_assault" => {
            let q = a.die("q")?;
            let side = |figures: i64| -> Result<MeleeSide, String> {
                Ok(MeleeSide {
                    figures: u8::try_from(figures).map_err(|e| e.to_string())?,
                    first_round: MeleeDie::plain(q),
                    quality: q,
                    lv: a.lv()?,
                    modifier: 0,
                    on_foot: 0,
                })
            };
            let partner = Partner {
                attack: ReactionTest {
                    quality: q,
                    lv: a.lv()?,
                    tl: a.small("tl", 0)?,
                },
                close_formation: false,
                mounted: false,
                approach: CombatMove::new(a.die("move")?, a.int("distance", 0)? as f64)
                    .map_err(|e| e.to_string())?,
                melee: side(a.int("a", 1)?)?,
                armour: acw_hardtack::DieType::D4,
                leader: Some(0),
                on_foot_at: 0,
            };
            let n = usize::try_from(a.int("n", 2)?).map_err(|e| e.to_string())?;
            let assault = CombinedAssault::new(
                &vec![partner; n],
                Some(ConfidenceTest {
                    quality: q,
                    lv: a.lv()?,
                    tl: 0,
                    two_level: TwoLevelDrop::HalfOrLess,
                }),
                false,
                side(a.int("d", 1)?)?,
                AssaultTestCasualties::ThisRound,
                TwoLevelDrop::HalfOrLess,
            )
            .map_err(|e| e.to_string())?;
            labels(&assault.odds(), |e| match e {
                CombinedEnd::Refused => s(&["refused"]),
                CombinedEnd::DefenderWithdrew { levels } => {
                    vec!["withdrew".to_string(), format!("withdrew{levels}")]
                }
                CombinedEnd::NoContact => s(&["nocontact"]),
                CombinedEnd::Melee(_) => s(&["melee"]),
            })
        }
        "close_assault" => {
            let q = a.die("q")?;
            let side = |figures: i64| -> Result<MeleeSide, String> {
                Ok(MeleeSide {
                    figures: u8::try_from(figures).map_err(|e| e.to_string())?,
                    first_round: MeleeDie::plain(q),
                    quality: q,
                    lv: a.lv()?,
                    modifier: 0,
                    on_foot: 0,
                })
            };
            let final_fire = if a.flag("fire") {
                Some(AssaultFire {
                    fire: FinalFire {
                        firepower: FirepowerFacts {
                            quality: a.die("fire_q")?,
                            half_fp: u32::try_from(a.int("half_fp", 2)?)
                                .map_err(|e| e.to_string())?,
                            skirmish: a.flag("skirmish"),
                            first_volley: false,
                            spill: None,
                        },
                        band_inches: a.int("band", 10)? as f64,
                        impact: a.die("impact")?,
                        options: acw_hardtack::Options::default(),
                    },
                    armour: DieType::D4,
                    leader: None,
                    on_foot_at: 0,
                })
            } else {
                None
            };
            let assault = CloseAssault {
                at_short: if a.flag("abort") {
                    acw_hardtack::melee::AtShort::Abort {
                        tl: Some(a.small("abort_tl", 0)?),
                        two_level: TwoLevelDrop::HalfOrLess,
                    }
                } else {
                    acw_hardtack::melee::AtShort::StayMidDash
                },
                attack: ReactionTest {
                    quality: q,
                    lv: a.lv()?,
                    tl: a.small("tl", 0)?,
                },
                stand: Some(ConfidenceTest {
                    quality: q,
                    lv: a.lv()?,
                    tl: a.small("stand_tl", 0)?,
                    two_level: TwoLevelDrop::HalfOrLess,
                }),
                approach: CombatMove::new(a.die("move")?, a.int("distance", 0)? as f64)
                    .map_err(|e| e.to_string())?,
                melee: Melee {
                    attacker: side(a.int("a", 1)?)?,
                    defender: side(a.int("d", 1)?)?,
                    casualties: AssaultTestCasualties::ThisRound,
                    two_level: TwoLevelDrop::HalfOrLess,
                },
                final_fire,
            };
            labels(&assault.odds(), |e| match e {
                AssaultEnd::AttackerRefused => s(&["refused"]),
                AssaultEnd::DefenderWithdrew { .. } => s(&["withdrew"]),
                AssaultEnd::Faltered { .. } => s(&["faltered"]),
                AssaultEnd::FellShort { .. } => s(&["fellshort"]),
                AssaultEnd::Aborted { test, .. } => vec![
                    "aborted".to_string(),
                    match test {
                        None => "aborted_notest",
                        Some(Confidence::Pass) => "aborted_pass",
                        Some(Confidence::LoseOne) => "aborted_lose1",
                        Some(Confidence::LoseTwo) => "aborted_lose2",
                    }
                    .to_string(),
                ],
                AssaultEnd::CutDown { .. } => s(&["cutdown"]),
                AssaultEnd::Melee { fire, .. } => {
                    vec![
                        "melee".to_string(),
                        format!("melee_fire{}", fire.casualties),
                    ]
                }
            })
        }
        "mutiny" => {
            let quality = match a.int("q", 8)? {
                4 => Quality::Untrained,
                6 => Quality::Green,
                8 => Quality::Regular,
                10 => Quality::Veteran,
                _ => Quality::Elite,
            };
            let m = QuietMutiny {
                quality,
                lv: a.lv()?,
            };
            labels(&m.odds(), |&shaken| {
                s(&[if shaken { "shaken" } else { "steady" }])
            })
        }
        "horse_or_rider" => labels(
            &HorseOrRider {
                by_mounted: a.flag("by_mounted"),
            }
            .odds(),
            |st| {
                s(&[match st {
                    Struck::Horse => "horse",
                    Struck::Rider => "rider",
                }])
            },
        ),
        "horse_status" => labels(&HorseStatus.odds(), |st| {
            s(&[match st {
                HorseState::Dead => "dead",
                HorseState::Wounded => "wounded",
                HorseState::Okay => "okay",
            }])
        }),
        "quality_draw" => {
            let year = if a.flag("early") {
                WarYear::Early
            } else {
                WarYear::Later
            };
            labels(&QualityDraw { year }.odds(), |(q, lv)| {
                vec![q.to_string(), format!("{q} LV{}", lv.value())]
            })
        }
        "observation" => {
            let t = acw_hardtack::fire::Observation {
                quality: a.die("q")?,
                target: a.die("target")?,
            };
            labels(&t.odds(), |r| {
                s(&[match r {
                    Success::Fail => "fail",
                    Success::Minor => "minor",
                    Success::Major => "major",
                }])
            })
        }
        "allocation" => {
            let n = usize::try_from(a.int("n", 1)?).map_err(|e| e.to_string())?;
            allocation_odds(n)
                .into_iter()
                .enumerate()
                .map(|(i, p)| (vec![format!("figure{}", i + 1)], p))
                .collect()
        }
        "accuracy" => {
            let t = ShotAccuracy {
                quality: a.die("q")?,
                lv: a.lv()?,
                modifier: a.small("modifier", 0)?,
            };
            labels(&t.odds(), |l| {
                s(&[if *l == acw_hardtack::artillery::Landing::OnTarget {
                    "hit"
                } else {
                    "deviates"
                }])
            })
        }
        "bounce" => {
            let t = BounceTest {
                quality: a.die("q")?,
                lv: a.lv()?,
                k: u8::try_from(a.int("k", 1)?).map_err(|e| e.to_string())?,
                rifled: a.flag("rifled"),
            };
            labels(&t.odds(), |&p| s(&[if p { "bounce" } else { "stop" }]))
        }
        "bounces" => {
            let t = ShotBounces {
                quality: a.die("q")?,
                lv: a.lv()?,
                rifled: a.flag("rifled"),
            };
            labels(&t.odds(), |n| vec![format!("bounces{n}")])
        }
        "area" => {
            let t = AreaDamage {
                impact: Impact {
                    impact: a.die("impact")?,
                    armour: a.die("armour")?,
                    armour_shift: a.small("shift", 0)?,
                    kill: kill(a),
                },
                figures: u8::try_from(a.int("figures", 1)?).map_err(|e| e.to_string())?,
            };
            labels(&t.odds(), |(w, k)| {
                vec![
                    format!("wounded{w}"),
                    format!("killed{k}"),
                    format!("casualties{}", w + k),
                ]
            })
        }
        "fates" => {
            let t = DownedFates {
                downed: u8::try_from(a.int("downed", 1)?).map_err(|e| e.to_string())?,
            };
            labels(&t.odds(), |(d, w, st)| {
                vec![
                    format!("dead{d}"),
                    format!("wounded{w}"),
                    format!("stunned{st}"),
                ]
            })
        }
        "move" => {
            let t = CombatMove::new(a.die("die")?, a.int("distance", 0)? as f64)
                .map_err(|e| e.to_string())?;
            labels(&t.odds(), |m| {
                s(&[match m {
                    MoveResult::Reached => "reached",
                    MoveResult::Short(_) => "short",
                }])
            })
        }
        "melee" => {
            let side = |fig: &str, q: &str, bonus: bool| -> Result<MeleeSide, String> {
                let quality = a.die(q)?;
                Ok(MeleeSide {
                    figures: u8::try_from(a.int(fig, 1)?).map_err(|e| e.to_string())?,
                    first_round: MeleeDie {
                        defender_bonus: bonus,
                        ..MeleeDie::plain(quality)
                    },
                    quality,
                    lv: a.lv()?,
                    modifier: 0,
                    on_foot: 0,
                })
            };
            let m = Melee {
                attacker: side("a", "qa", false)?,
                defender: side("d", "qd", a.flag("bonus"))?,
                casualties: AssaultTestCasualties::ThisRound,
                two_level: TwoLevelDrop::HalfOrLess,
            };
            labels(&m.odds(), |o| {
                let who = |s: AssaultSide| match s {
                    AssaultSide::Attacker => "attacker",
                    AssaultSide::Defender => "defender",
                };
                let mut l = vec![
                    format!("adown{}", o.attacker_down),
                    format!("ddown{}", o.defender_down),
                ];
                match o.end {
                    MeleeEnd::FellBack { loser, .. } | MeleeEnd::Destroyed { loser } => {
                        l.push(format!("{}_loses", who(loser)));
                    }
                    MeleeEnd::Stalemate => l.push("stalemate".into()),
                }
                l
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
