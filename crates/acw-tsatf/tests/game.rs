//! The game layer: whole games through acw-core's driver (conformance, a golden playthrough), the scenario and
//! saved-game checks, the pauses for the other side, and the geometry the field measures on the table.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use acw_core::game::{Commander, Dicing, Game, Owed, Ruleset, Submitted, Throw, play};
use acw_core::measure::{Inches, Point};
use acw_core::table::{Table, Terrain};
use acw_core::testing::conformance::{self, Suite};
use acw_core::{BySide, Resolve, Side};
use acw_tsatf::UnitId;
use acw_tsatf::bots::{Attacker, Holder};
use acw_tsatf::field::{self, Field};
use acw_tsatf::game::{
    Activation, Event, GameError, Order, Placement, Question, Scenario, ScenarioError, SideView,
    State, TestResult, Tsatf, Victory,
};
use acw_tsatf::options::Options;
use acw_tsatf::setup::UnitSpec;
use acw_tsatf::state::Phase;
use acw_tsatf::tables::Quality;

fn bots(side: Side, seed: u64) -> Box<dyn Commander<Tsatf>> {
    match side {
        Side::Union => Box::new(Attacker::new(seed)),
        Side::Confederate => Box::new(Holder::new(seed)),
    }
}

fn both_attack(_: Side, seed: u64) -> Box<dyn Commander<Tsatf>> {
    Box::new(Attacker::new(seed))
}

/// Orders no state accepts: unknown units, answers to questions not asked, an enemy's unit on one's card.
fn refused(state: &State, side: Side) -> Vec<Order> {
    let mut v = vec![
        Order::Hold { unit: UnitId(999) },
        Order::Fire {
            unit: UnitId(999),
            target: UnitId(0),
        },
        Order::Rally {
            unit: UnitId(999),
            attempt: true,
        },
    ];
    match Tsatf.owed(state).map(|d| d.question) {
        Some(Question::Activate { .. }) => {
            v.push(Order::Pair { cadre_first: true });
            v.push(Order::Fight {
                cadre_first: true,
                pursue: true,
            });
            if let Some(e) = state
                .battle()
                .units()
                .iter()
                .find(|u| u.side() == side.enemy())
            {
                v.push(Order::Hold { unit: e.id() });
            }
        }
        Some(Question::Pair { .. }) => v.push(Order::Fight {
            cadre_first: true,
            pursue: true,
        }),
        Some(_) => v.push(Order::Pair { cadre_first: true }),
        None => {}
    }
    v
}

fn invariants(state: &State) -> Result<(), String> {
    let b = state.battle();
    for u in b.units() {
        if u.strength() > u.starting_strength() {
            return Err(format!(
                "{} has more figures than it started with",
                u.name()
            ));
        }
        if !u.off_table() && u.strength() > 0 {
            let f = state.field().place(u.id()).ok_or("a unit has no place")?;
            if !state.field().table().holds(f) {
                return Err(format!("{} stands off the table", u.name()));
            }
        }
    }
    let lost = state.losses();
    let start = state.starting();
    if lost.union > start.union || lost.confederate > start.confederate {
        return Err("more figures lost than a side had".into());
    }
    if state.outcome().is_none() && Tsatf.owed(state).is_none() {
        return Err("a game that is not over owes no decision".into());
    }
    Ok(())
}

#[test]
fn default_scenario_conforms_on_twenty_seeds() {
    let seeds: Vec<u64> = (1..=20).collect();
    let suite = Suite {
        seeds: &seeds,
        commanders: &bots,
        refused_orders: &refused,
        invariants: &invariants,
    };
    if let Err(e) = conformance::run(&Tsatf, &Scenario::default(), &suite) {
        panic!("{e}");
    }
}

#[test]
fn two_attackers_conform() {
    let suite = Suite {
        seeds: &[101, 102, 103],
        commanders: &both_attack,
        refused_orders: &refused,
        invariants: &invariants,
    };
    if let Err(e) = conformance::run(&Tsatf, &Scenario::default(), &suite) {
        panic!("{e}");
    }
}

#[test]
fn golden_playthrough_seed_7() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/tsatf-seed-7.log");
    if let Err(e) = conformance::golden(&Tsatf, &Scenario::default(), 7, &bots, &path) {
        panic!("{e}");
    }
}

/// TSATF-SEQ-09: whole default games end (by the scenario's break, a broken side or the turn limit), the
/// losses match the figures and the log ends with the end. In them the attacking bot takes down the fence
/// (TSATF-MOV-12) that shelters the enemy it would charge.
#[test]
fn tsatf_seq_09_games_end_and_losses_count_figures() {
    let (mut decided, mut dismantled) = (0, 0);
    for seed in 30..50 {
        let (mut a, mut h) = (Attacker::new(seed), Holder::new(seed));
        let g = play(
            &Tsatf,
            &Scenario::default(),
            seed,
            BySide::new(&mut a as &mut dyn Commander<Tsatf>, &mut h),
        )
        .unwrap();
        assert!(g.outcome.turn <= 12);
        if g.outcome.reason.before_turn_limit() {
            decided += 1;
        }
        let lost = Tsatf.losses(&g.state);
        let figures: u32 = g
            .state
            .battle()
            .units()
            .iter()
            .filter(|u| u.side() == Side::Union)
            .map(|u| u32::from(u.starting_strength() - u.strength()))
            .sum();
        assert_eq!(lost.union, figures);
        assert!(matches!(g.log.last(), Some(Event::GameEnded { .. })));
        dismantled += g
            .log
            .iter()
            .filter(|e| matches!(e, Event::Dismantled { .. }))
            .count();
    }
    assert!(
        decided >= 10,
        "only {decided} of 20 games decided by the rules"
    );
    // the attacker takes down the rail fence in front of the Confederates it would charge (TSATF-MOV-12)
    assert!(dismantled > 0, "no fence taken down in 20 games");
}

/// Every event reads as a sentence: unit names, never a Rust debug form.
#[test]
fn events_and_questions_read_as_sentences() {
    let (mut a, mut h) = (Attacker::new(3), Holder::new(3));
    let g = play(
        &Tsatf,
        &Scenario::default(),
        3,
        BySide::new(&mut a as &mut dyn Commander<Tsatf>, &mut h),
    )
    .unwrap();
    let mut kinds = std::collections::HashSet::new();
    for e in &g.log {
        let s = e.to_string();
        for bad in ["UnitId(", "Some(", "None", "{ ", "Formation(", "ChargeId"] {
            assert!(!s.contains(bad), "{s}");
        }
        kinds.insert(std::mem::discriminant(e));
    }
    assert!(kinds.len() >= 8, "only {} kinds of event", kinds.len());
    let q = Question::Pair {
        defender: "15th Alabama, Company D".into(),
        attacker: "20th Maine, Company A".into(),
    };
    assert_eq!(
        q.to_string(),
        "15th Alabama, Company D stands against the charge of 20th Maine, Company A: do its officers and NCOs fight first?"
    );
}

/// Chances read "with a chance of 83.3%", never "a 83%" or "a 11%" (an article cannot be chosen for a number).
#[test]
fn chances_read_without_an_article() {
    let test = TestResult {
        who: "20th Maine, Company A".into(),
        test: "a major morale test".into(),
        leader: true,
        modifier: -1,
        passed: true,
        chance: 5.0 / 6.0,
    };
    assert_eq!(
        test.to_string(),
        "20th Maine, Company A took a major morale test (with a leader, modifier -1) and passed with a chance of 83.3%"
    );
    let (mut a, mut h) = (Attacker::new(3), Holder::new(3));
    let g = play(
        &Tsatf,
        &Scenario::default(),
        3,
        BySide::new(&mut a as &mut dyn Commander<Tsatf>, &mut h),
    )
    .unwrap();
    let mut seen = 0;
    for e in &g.log {
        let s = e.to_string();
        assert!(!s.contains("(a ") || !s.contains("% chance"), "{s}");
        if let Event::CardTurned { chance, .. } = e {
            assert!(
                s.ends_with(&format!(", with a chance of {:.1}%.", 100.0 * chance)),
                "{s}"
            );
            seen += 1;
        }
    }
    assert!(seen > 0);
}

// ----- scenario and saved-game checks -----

fn one_a_side(union: Placement, confederate: Placement, terrain: Vec<Terrain>) -> Scenario {
    let forces = vec![
        UnitSpec::infantry("Blue", Side::Union, Quality::Average).unwrap(),
        UnitSpec::infantry("Grey", Side::Confederate, Quality::Average).unwrap(),
    ];
    Scenario::new(
        "duel",
        forces,
        vec![union, confederate],
        Table::new(Inches(48.0), Inches(36.0), terrain).unwrap(),
        limited(6),
        Victory { break_percent: 0 },
    )
    .unwrap()
}

fn limited(turns: u32) -> Options {
    let mut o = Options::default();
    o.turn_limit = Some(turns);
    o
}

fn at(x: f64, y: f64, facing: f64) -> Placement {
    Placement { x, y, facing }
}

#[test]
fn scenarios_the_rules_cannot_play_are_refused_with_typed_errors() {
    let forces = || {
        vec![
            UnitSpec::infantry("Blue", Side::Union, Quality::Average).unwrap(),
            UnitSpec::infantry("Grey", Side::Confederate, Quality::Average).unwrap(),
        ]
    };
    let table = || Table::new(Inches(48.0), Inches(36.0), vec![]).unwrap();
    let limit = limited(6);
    let v = Victory { break_percent: 40 };
    let ok = vec![at(10.0, 5.0, 0.0), at(10.0, 30.0, 180.0)];
    assert!(matches!(
        Scenario::new(
            "x",
            forces(),
            vec![at(10.0, 5.0, 0.0)],
            table(),
            limit.clone(),
            v
        ),
        Err(ScenarioError::Placements {
            units: 2,
            placed: 1
        })
    ));
    assert_eq!(
        Scenario::new(
            "x",
            forces(),
            vec![at(1.0, 5.0, 0.0), at(10.0, 30.0, 180.0)],
            table(),
            limit.clone(),
            v
        ),
        Err(ScenarioError::OffTable("Blue".into()))
    );
    assert_eq!(
        Scenario::new(
            "x",
            forces(),
            vec![at(10.0, 5.0, 0.0), at(10.0, 5.5, 180.0)],
            table(),
            limit.clone(),
            v
        ),
        Err(ScenarioError::Overlap("Blue".into(), "Grey".into()))
    );
    assert_eq!(
        Scenario::new("x", forces(), ok.clone(), table(), Options::default(), v),
        Err(ScenarioError::NoTurnLimit)
    );
    assert_eq!(
        Scenario::new(
            "x",
            forces(),
            ok.clone(),
            table(),
            limit.clone(),
            Victory { break_percent: 101 }
        ),
        Err(ScenarioError::BreakPercent(101))
    );
    assert!(matches!(
        Scenario::new(
            "x",
            vec![forces().remove(0)],
            vec![ok[0]],
            table(),
            limit,
            v
        ),
        Err(ScenarioError::Setup(_))
    ));
    assert_eq!(
        ScenarioError::OffTable("Blue".into()).to_string(),
        "Blue is not placed wholly on the table"
    );
}

#[test]
fn scenarios_and_saves_load_through_the_same_checks() {
    let s = Scenario::default();
    let json = serde_json::to_string(&s).unwrap();
    assert_eq!(serde_json::from_str::<Scenario>(&json).unwrap(), s);
    // a unit moved off the table in the file is refused
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["placements"][0]["x"] = serde_json::json!(-40.0);
    let err = serde_json::from_value::<Scenario>(v).unwrap_err();
    assert!(
        err.to_string().contains("not placed wholly on the table"),
        "{err}"
    );

    let state = Tsatf.setup(&s, 5).unwrap();
    let saved = serde_json::to_string(&state).unwrap();
    assert_eq!(serde_json::from_str::<State>(&saved).unwrap(), state);
    // a melee pairing recorded with no melee waiting
    let mut v: serde_json::Value = serde_json::from_str(&saved).unwrap();
    v["pairing"] = serde_json::json!(true);
    let err = serde_json::from_value::<State>(v).unwrap_err();
    assert!(err.to_string().contains("no melee waiting"), "{err}");
    // an end recorded that the battle does not show
    let mut v: serde_json::Value = serde_json::from_str(&saved).unwrap();
    v["over"] = serde_json::json!({"result": {"Winner": "Union"}, "reason": "Scenario", "turn": 1});
    assert!(serde_json::from_value::<State>(v).is_err());
    // a field that does not place every unit
    let mut v: serde_json::Value = serde_json::from_str(&saved).unwrap();
    v["field"]["places"].as_array_mut().unwrap().pop();
    assert!(serde_json::from_value::<State>(v).is_err());
}

// ----- pauses and legality -----

/// TSATF-MEL-14: the defenders choose who fights first before the attackers do; `owed` names the defending
/// side, and an attacker's answer is refused until then.
#[test]
fn tsatf_mel_14_the_defenders_are_asked_first_in_a_melee() {
    let mut found = false;
    for seed in 1..40 {
        let mut game = Game::new(Tsatf, &Scenario::default(), seed).unwrap();
        let (mut a, mut h) = (Attacker::new(seed), Holder::new(seed));
        while let Owed::Decision(d) = game.owed() {
            if let Question::Pair { defender, .. } = &d.question {
                let unit = game.state().battle().unit_named(defender).unwrap();
                assert_eq!(unit.side(), d.side);
                let before = game.state().clone();
                let fight = Order::Fight {
                    cadre_first: true,
                    pursue: true,
                };
                assert!(matches!(
                    game.state().check_order(&fight),
                    Err(GameError::NotAsked(_))
                ));
                assert_eq!(game.state(), &before);
                let Submitted::Applied(events) = game
                    .submit(d.side, Order::Pair { cadre_first: false })
                    .unwrap()
                else {
                    panic!("a pairing needs no dice")
                };
                assert!(matches!(
                    events[0],
                    Event::Paired {
                        cadre_first: false,
                        ..
                    }
                ));
                match game.owed() {
                    Owed::Decision(next) => {
                        assert_eq!(next.side, d.side.enemy());
                        assert!(matches!(next.question, Question::Fight { .. }));
                    }
                    other => panic!("expected the attackers' choice, got {other:?}"),
                }
                found = true;
                break;
            }
            let o = if d.side == Side::Union {
                a.order(&Tsatf, game.state(), d.side)
            } else {
                h.order(&Tsatf, game.state(), d.side)
            };
            game.submit(d.side, o).unwrap();
        }
        if found {
            break;
        }
    }
    assert!(found, "no melee in 40 games");
}

/// `State::actions` lists exactly the orders `apply` accepts, over the states of several games.
#[test]
fn actions_agree_with_apply() {
    let mut checked = 0;
    for seed in 1..4 {
        let mut game = Game::new(Tsatf, &Scenario::default(), seed).unwrap();
        let (mut a, mut h) = (Attacker::new(seed), Holder::new(seed));
        while let Owed::Decision(d) = game.owed() {
            let legal = game.state().actions();
            assert!(!legal.is_empty());
            for o in &legal {
                let mut s = game.state().clone();
                let mut log = Vec::new();
                assert!(
                    Tsatf.apply(&mut s, o, &mut log).is_ok(),
                    "{o:?} listed but refused"
                );
                checked += 1;
            }
            let o = if d.side == Side::Union {
                a.order(&Tsatf, game.state(), d.side)
            } else {
                h.order(&Tsatf, game.state(), d.side)
            };
            assert!(
                legal.contains(&o),
                "a bot gave an order not listed as legal"
            );
            game.submit(d.side, o).unwrap();
        }
    }
    assert!(checked > 500);
}

/// At the table every card drawn is asked for: the first order of a game waits for a card or die.
#[test]
fn at_the_table_the_driver_asks_for_cards() {
    let mut game = Game::new(Tsatf, &Scenario::default(), 11)
        .unwrap()
        .with_dicing(Dicing::AtTheTable);
    let (mut a, mut h) = (Attacker::new(11), Holder::new(11));
    let mut asked_card = false;
    for _ in 0..40 {
        match game.owed() {
            Owed::Decision(d) => {
                let o = if d.side == Side::Union {
                    a.order(&Tsatf, game.state(), d.side)
                } else {
                    h.order(&Tsatf, game.state(), d.side)
                };
                let _ = game.submit(d.side, o);
            }
            Owed::Throw { throw, .. } => {
                if let Throw::Card { purpose, .. } = throw {
                    assert!(purpose.contains("card"), "{purpose}");
                    asked_card = true;
                    break;
                }
                let _ = game.throw(1);
            }
            _ => break,
        }
    }
    assert!(asked_card, "the table was never asked for a card");
}

// ----- geometry on the table -----

fn duel(union: Placement, confederate: Placement, terrain: Vec<Terrain>) -> State {
    Tsatf
        .setup(&one_a_side(union, confederate, terrain), 1)
        .unwrap()
}

const BLUE: UnitId = UnitId(0);
const GREY: UnitId = UnitId(1);

/// TSATF-SET-01: one figure an inch; a close-order line of 21 stands in two ranks, 11" wide and 2" deep.
#[test]
fn tsatf_set_01_a_line_is_one_inch_a_figure_in_two_ranks() {
    let s = duel(at(20.0, 5.0, 0.0), at(20.0, 30.0, 180.0), vec![]);
    let f = s.field().place(BLUE).unwrap();
    assert_eq!(s.battle().unit(BLUE).unwrap().strength(), 21);
    assert_eq!(f.frontage, Inches(11.0));
    assert_eq!(f.depth, Inches(field::UNIT_DEPTH));
}

/// TSATF-FIR-04: range is the gap between the nearest figures: centres 25" apart, 2"-deep units: 23".
#[test]
fn tsatf_fir_04_range_runs_between_the_nearest_figures() {
    let s = duel(at(20.0, 5.0, 0.0), at(20.0, 30.0, 180.0), vec![]);
    assert!((s.field().range(BLUE, GREY) - 23.0).abs() < 1e-9);
}

/// TSATF-FIR-03 / TSATF-ART-05: small arms fire into a 30° cone (15° a side), guns into 60°; a target whose
/// nearest point lies 20° off the firer's facing is outside the muskets' cone and inside the gun's.
#[test]
fn tsatf_fir_03_and_art_05_cones_of_fire() {
    // Grey's nearest corner lies at about 20° off Blue's facing: a 1"-wide target far to the right.
    let options = Options::default();
    let mut s = duel(at(10.0, 5.0, 0.0), at(30.0, 30.0, 180.0), vec![]);
    let f = *s.field().place(GREY).unwrap();
    let ahead = s.field().place(BLUE).unwrap().front_centre();
    // place a narrow Grey so its nearest point is 20° off
    let p = ahead.moved(
        acw_core::measure::Heading::degrees(20.0).unwrap(),
        Inches(20.0),
    );
    let narrow = acw_core::table::Footprint::new(p, f.facing, Inches(0.5), Inches(0.5)).unwrap();
    let table = s.field().table().clone();
    let field = Field::new(table, vec![*s.field().place(BLUE).unwrap(), narrow]);
    assert!(!field.in_cone(BLUE, GREY, false, &options));
    assert!(field.in_cone(BLUE, GREY, true, &options));
    let p = ahead.moved(
        acw_core::measure::Heading::degrees(12.0).unwrap(),
        Inches(20.0),
    );
    let near = narrow.placed(p, f.facing);
    let field = Field::new(
        field.table().clone(),
        vec![*field.place(BLUE).unwrap(), near],
    );
    assert!(field.in_cone(BLUE, GREY, false, &options));
    // as the engine plays it: fire outside the cone is refused, and nothing changes
    s = duel(at(6.5, 10.0, 90.0), at(40.0, 30.0, 180.0), vec![]);
    let s = to_phase(s, Phase::Firing);
    if let Some(d) = Tsatf.owed(&s)
        && d.side == Side::Union
    {
        let before = s.clone();
        assert!(matches!(
            s.check_order(&Order::Fire {
                unit: BLUE,
                target: GREY
            }),
            Err(GameError::OutOfCone { .. })
        ));
        assert_eq!(s, before);
    }
}

/// Plays holds (and any compulsory moves) until the phase comes up with a card turned.
fn to_phase(mut s: State, phase: Phase) -> State {
    for _ in 0..20 {
        if s.battle().phase() == phase && s.battle().card().is_some() {
            return s;
        }
        let Some(d) = Tsatf.owed(&s) else { return s };
        let unit = s
            .battle()
            .units()
            .iter()
            .find(|u| u.side() == d.side && !u.acted())
            .map(|u| u.id())
            .unwrap();
        let mut log = Vec::new();
        Tsatf
            .apply(&mut s, &Order::Hold { unit }, &mut log)
            .unwrap();
    }
    s
}

/// TSATF-FIR-08 / TSATF-MEL-19: fire or a charge from outside the target's ±45° frontal sector enfilades it or
/// strikes its flank; from in front it does not. As the engine plays it, the enfiladed target area is Class I.
#[test]
fn tsatf_fir_08_and_mel_19_flank_and_enfilade() {
    let options = Options::default();
    let front = duel(at(20.0, 5.0, 0.0), at(20.0, 30.0, 180.0), vec![]);
    assert!(!front.field().outside_front(BLUE, GREY, &options));
    // Blue on Grey's right flank: Grey faces south, Blue due west of it
    let flank = duel(at(8.0, 30.0, 90.0), at(30.0, 30.0, 180.0), vec![]);
    assert!(flank.field().outside_front(BLUE, GREY, &options));
    let grey = flank.battle().unit(GREY).unwrap();
    let area = flank.field().target_area(BLUE, grey, &options);
    assert!(area.enfiladed);
    assert_eq!(
        acw_tsatf::fire::target_class(area, &options),
        acw_tsatf::tables::TargetClass::I
    );
}

/// TSATF-MOV-06 / TSATF-MEL-03: each rough or obstacle feature on the path is counted (each drops the highest
/// die); the path from Blue through a rocky field and over a fence crosses two.
#[test]
fn tsatf_mov_06_rough_features_on_the_path() {
    let sq = |x0: f64, y0: f64, x1: f64, y1: f64| {
        vec![
            Point::new(x0, y0),
            Point::new(x1, y0),
            Point::new(x1, y1),
            Point::new(x0, y1),
        ]
    };
    let terrain = vec![
        Terrain::rough("rocks", sq(15.0, 10.0, 25.0, 15.0)).unwrap(),
        Terrain::fence(
            "fence",
            vec![Point::new(10.0, 20.0), Point::new(30.0, 20.0)],
        )
        .unwrap(),
    ];
    let s = duel(at(20.0, 5.0, 0.0), at(20.0, 30.0, 180.0), terrain);
    let f = s.field();
    assert_eq!(
        f.rough_features(Point::new(20.0, 6.0), Point::new(20.0, 29.0)),
        2
    );
    assert_eq!(
        f.rough_features(Point::new(40.0, 6.0), Point::new(40.0, 29.0)),
        0
    );
    // as the engine plays it: the Moved event reports both features, and the dice drop the highest
    let s = to_phase(s, Phase::Movement);
    if let Some(d) = Tsatf.owed(&s)
        && d.side == Side::Union
    {
        let mut s2 = s.clone();
        let mut log = Vec::new();
        Tsatf
            .apply(
                &mut s2,
                &Order::Advance {
                    unit: BLUE,
                    toward: GREY,
                },
                &mut log,
            )
            .unwrap();
        let Event::Moved { rough, report, .. } = first_of(&log) else {
            panic!("{log:?}")
        };
        assert_eq!(*rough, 2);
        let dice = report.dice.unwrap();
        assert_eq!((dice.dice, dice.kept()), (3, 1));
    }
}

/// TSATF-MEL-04: a charge that ends within an inch is in contact; more than an inch is not.
#[test]
fn tsatf_mel_04_contact_is_within_an_inch() {
    let s = duel(at(20.0, 5.0, 0.0), at(20.0, 8.0, 180.0), vec![]);
    assert!((s.field().range(BLUE, GREY) - 1.0).abs() < 1e-9);
    assert!(s.field().in_contact(BLUE, GREY));
    let s = duel(at(20.0, 5.0, 0.0), at(20.0, 8.5, 180.0), vec![]);
    assert!(!s.field().in_contact(BLUE, GREY));
}

/// TSATF-MEL-26 / TSATF-MEL-13: a fence within an inch in front of the defenders makes a protected position;
/// charged from behind the fence's other side it is, from the open flank it is not.
#[test]
fn tsatf_mel_26_a_fence_makes_a_protected_position() {
    let fence = vec![
        Terrain::fence(
            "fence",
            vec![Point::new(10.0, 27.5), Point::new(30.0, 27.5)],
        )
        .unwrap(),
    ];
    let s = duel(at(20.0, 15.0, 0.0), at(20.0, 29.0, 180.0), fence.clone());
    assert!(s.field().protected(BLUE, GREY));
    let s = duel(at(40.0, 29.0, 270.0), at(20.0, 29.0, 180.0), fence);
    assert!(!s.field().protected(BLUE, GREY));
}

/// TSATF-MOR-08 / TSATF-MOV-13 / TSATF-MEL-11: fleeing and routed troops make for the nearest table edge, and the
/// room to it decides whether a move takes them off.
#[test]
fn tsatf_mor_08_flight_makes_for_the_nearest_edge() {
    let s = duel(at(20.0, 5.0, 0.0), at(40.0, 20.0, 180.0), vec![]);
    let edge = s.battle().flight_edge();
    let h = s.field().flight_heading(BLUE, Side::Union, edge);
    assert_eq!(h, acw_core::measure::Heading::SOUTH);
    // Blue's rear edge lies 4" from the south edge
    assert!((s.field().edge_room(BLUE, h) - 4.0).abs() < 1e-9);
    let h = s.field().flight_heading(GREY, Side::Confederate, edge);
    assert_eq!(h, acw_core::measure::Heading::EAST);
}

/// TSATF-SEQ-06 / TSATF-MEL-07: a charge reaches its target on the Union card (4" away: one straggler on a 1,
/// then 4D6 of 1s: 4", an inch to spare); the target then withdraws on its own card, more than an inch beyond
/// the chargers' unused movement; in close combat the charge strikes empty ground: no tests, no melee.
#[test]
fn tsatf_seq_06_a_target_that_moved_away_is_not_fought() {
    let mut s = union_first(at(24.0, 24.0, 0.0), vec![]);
    assert!((s.field().range(BLUE, GREY) - 4.0).abs() < 1e-9);
    let mut log = Vec::new();
    Tsatf
        .apply_with(
            &mut s,
            &Order::Charge {
                unit: BLUE,
                target: GREY,
            },
            &mut then_rng(&[1, 1, 1, 1, 1]),
            &mut log,
        )
        .unwrap();
    let Event::Charged { report, .. } = first_of(&log) else {
        panic!("{log:?}")
    };
    assert!(matches!(
        report,
        acw_tsatf::battle::ChargeReport::Contact { stragglers: 1, rolled: 4, unused, .. } if *unused == 1.0
    ));
    assert!(s.field().in_contact(BLUE, GREY));
    // the only card left in the movement deck is the Confederates'
    assert_eq!(Tsatf.owed(&s).map(|d| d.side), Some(Side::Confederate));
    Tsatf
        .apply(&mut s, &Order::Withdraw { unit: GREY }, &mut log)
        .unwrap();
    assert!(s.field().range(BLUE, GREY) > 1.0 + 1.0);
    // the firing phase: both hold; the close-combat phase then runs on its own
    for _ in 0..4 {
        let Some(d) = Tsatf.owed(&s) else { break };
        if s.battle().phase() != Phase::Firing {
            break;
        }
        let unit = if d.side == Side::Union { BLUE } else { GREY };
        Tsatf
            .apply(&mut s, &Order::Hold { unit }, &mut log)
            .unwrap();
    }
    let closed: Vec<&Event> = log
        .iter()
        .filter(|e| matches!(e, Event::Closed { .. }))
        .collect();
    assert_eq!(closed.len(), 1);
    assert!(matches!(
        closed[0],
        Event::Closed {
            report: acw_tsatf::battle::CloseReport::Occupied,
            test: None,
            ..
        }
    ));
    assert!(
        !log.iter()
            .any(|e| matches!(e, Event::Stand { .. } | Event::Melee { .. }))
    );
}

/// Plays whole games through the driver and checks, order by order, that the moves the engine makes on the
/// table are the ones the rules call for:
/// - TSATF-MOR-08 / TSATF-MOV-13: a rout goes its 4D6 straight toward the nearest edge, and leaves the table
///   exactly when the dice reach the edge;
/// - TSATF-MEL-11: defenders who fail to stand move their flight straight away from the chargers (at most the
///   dice, less only where the table edge or another unit stops them);
/// - TSATF-MEL-03 / TSATF-MEL-04: a charge that arrives ends within an inch of its target;
/// - TSATF-MEL-22: the survivors of a beaten unit go their 4D6 straight toward the nearest table edge;
/// - TSATF-MEL-21: victorious attackers who pursue move no further than their unused charge movement, straight
///   after the beaten unit.
#[test]
fn moves_played_on_the_table_follow_the_rules() {
    let (mut routs, mut fled, mut contacts, mut melee_flights, mut pursuits) = (0, 0, 0, 0, 0);
    for seed in 1..25 {
        let mut game = Game::new(Tsatf, &Scenario::default(), seed).unwrap();
        let (mut a, mut h) = (Attacker::new(seed), Holder::new(seed));
        while let Owed::Decision(d) = game.owed() {
            let before = game.state().clone();
            let o = if d.side == Side::Union {
                a.order(&Tsatf, game.state(), d.side)
            } else {
                h.order(&Tsatf, game.state(), d.side)
            };
            let Submitted::Applied(events) = game.submit(d.side, o).unwrap() else {
                panic!("seeded games never wait for dice")
            };
            let events = events.to_vec();
            let after = game.state();
            let place = |s: &State, n: &str| {
                let u = s.battle().unit_named(n).unwrap();
                (u.id(), *s.field().place(u.id()).unwrap(), u.side())
            };
            for e in &events {
                match e {
                    Event::Compulsory {
                        unit,
                        kind: acw_tsatf::state::Compulsory::Rout,
                        inches,
                        off_table,
                    } => {
                        let (id, from, side) = place(&before, unit);
                        let heading =
                            before
                                .field()
                                .flight_heading(id, side, before.battle().flight_edge());
                        let room = before.field().edge_room(id, heading);
                        assert_eq!(*off_table, f64::from(*inches) >= room, "{e}");
                        if !off_table {
                            let (_, to, _) = place(after, unit);
                            let moved = from.centre.distance(to.centre).0;
                            assert!(moved <= f64::from(*inches) + 1e-6, "{e}");
                            if moved > 1e-6 {
                                let dir = from.centre.heading_to(to.centre);
                                assert!(field::angle_between(dir, heading).abs() < 1e-6, "{e}");
                            }
                        }
                        routs += 1;
                    }
                    Event::Stand {
                        defender,
                        report: acw_tsatf::battle::StandReport::Fled { flight },
                        ..
                    } => {
                        let (_, from, _) = place(&before, defender);
                        let (_, to, _) = place(after, defender);
                        let moved = from.centre.distance(to.centre).0;
                        assert!(moved <= f64::from(*flight) + 1e-6, "{e}");
                        fled += 1;
                    }
                    Event::Charged {
                        unit,
                        target,
                        report: acw_tsatf::battle::ChargeReport::Contact { .. },
                        ..
                    } => {
                        let (u, _, _) = place(after, unit);
                        let (t, _, _) = place(after, target);
                        assert!(after.field().in_contact(u, t), "{e}");
                        contacts += 1;
                    }
                    Event::Melee { report } => {
                        let (lid, l0, side) = place(&before, &report.loser);
                        let (_, l1, _) = place(after, &report.loser);
                        let alive = after.battle().unit(lid).unwrap().strength() > 0;
                        if let Some(d) = report.flight
                            && alive
                        {
                            let moved = l0.centre.distance(l1.centre).0;
                            assert!(moved <= f64::from(d) + 1e-6, "{e}");
                            if moved > 1e-6 {
                                let heading = before.field().flight_heading(
                                    lid,
                                    side,
                                    before.battle().flight_edge(),
                                );
                                let dir = l0.centre.heading_to(l1.centre);
                                assert!(field::angle_between(dir, heading).abs() < 1e-6, "{e}");
                            }
                            melee_flights += 1;
                        }
                        if report.party == acw_tsatf::melee::Party::Attackers
                            && matches!(o, Order::Fight { pursue: true, .. })
                        {
                            let charge = before
                                .battle()
                                .charges()
                                .iter()
                                .find(|c| c.step() != acw_tsatf::battle::ChargeStep::Done)
                                .copied()
                                .unwrap();
                            let (_, w0, _) = place(&before, &report.winner);
                            let (_, w1, _) = place(after, &report.winner);
                            assert!(
                                w0.centre.distance(w1.centre).0 <= charge.unused() + 1e-6,
                                "{e}"
                            );
                            pursuits += 1;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    assert!(
        routs > 0 && fled > 0 && contacts > 0 && melee_flights > 0 && pursuits > 0,
        "{routs} routs, {fled} flights, {contacts} contacts, {melee_flights} melee flights, {pursuits} pursuits"
    );
}

/// Faces given in order, then a seeded generator: scripted rolls for the order under test, and whatever the
/// engine draws after it (the next card) from the generator.
struct ThenRng {
    faces: std::collections::VecDeque<u16>,
    rng: acw_core::GameRng,
}

impl acw_core::Dice for ThenRng {
    fn face(&mut self, die: acw_core::Die) -> u16 {
        self.faces.pop_front().unwrap_or_else(|| self.rng.face(die))
    }
    fn index(&mut self, n: usize) -> usize {
        self.rng.index(n)
    }
}

fn then_rng(faces: &[u16]) -> ThenRng {
    ThenRng {
        faces: faces.iter().copied().collect(),
        rng: acw_core::GameRng::seed(99),
    }
}

/// A duel on a given table, played to the first Union movement card (seeds are tried until the Union card
/// comes first).
fn union_first(union: Placement, terrain: Vec<Terrain>) -> State {
    union_card_first(&one_a_side(union, at(24.0, 30.0, 180.0), terrain))
}

/// `scenario` set up with the first seed whose first card is a Union one.
fn union_card_first(scenario: &Scenario) -> State {
    (0..50)
        .map(|seed| Tsatf.setup(scenario, seed).unwrap())
        .find(|s| Tsatf.owed(s).is_some_and(|d| d.side == Side::Union))
        .expect("no seed turned a Union card first")
}

/// `forces` at `places` on an open 48" x 36" table, for six turns, with no break point.
fn open_table(name: &str, forces: Vec<UnitSpec>, places: Vec<Placement>) -> Scenario {
    open_table_under(name, forces, places, limited(6), 0)
}

/// `forces` at `places` on an open 48" x 36" table under `options`, breaking at `break_percent`.
fn open_table_under(
    name: &str,
    forces: Vec<UnitSpec>,
    places: Vec<Placement>,
    options: Options,
    break_percent: u8,
) -> Scenario {
    Scenario::new(
        name,
        forces,
        places,
        Table::new(Inches(48.0), Inches(36.0), vec![]).unwrap(),
        options,
        Victory { break_percent },
    )
    .unwrap()
}

/// TSATF-MOV-04: a unit uses the road rate only when its whole move keeps to a road: a march column on a road
/// running straight at the enemy rolls the road column's dice; off the road it rolls cross-country.
#[test]
fn tsatf_mov_04_the_road_rate_only_on_the_road() {
    use acw_tsatf::movement::{MoveFacts, move_dice};
    use acw_tsatf::tables::{MoveMode, MoveRow};
    let road = vec![
        Terrain::road(
            "the pike",
            vec![Point::new(24.0, 0.0), Point::new(24.0, 36.0)],
        )
        .unwrap(),
    ];
    let options = Options::default();
    let column = |on: f64| {
        let mut s = union_first(at(on, 5.0, 0.0), road.clone());
        let mut log = Vec::new();
        // first form column: 11" of line closes to 4", the end figure moving 3.5" of the 3D6 (2+3+4 = 9)
        Tsatf
            .apply_with(
                &mut s,
                &Order::Form {
                    unit: BLUE,
                    formation: acw_tsatf::state::Formation::MarchColumn,
                },
                &mut then_rng(&[2, 3, 4]),
                &mut log,
            )
            .unwrap();
        s
    };
    let road_dice = move_dice(
        MoveRow::InfantryColumn,
        MoveMode::Road,
        MoveFacts::default(),
        false,
        &options,
    )
    .unwrap();
    let cross = move_dice(
        MoveRow::InfantryColumn,
        MoveMode::CrossCountry,
        MoveFacts::default(),
        false,
        &options,
    )
    .unwrap();
    assert_ne!(road_dice, cross);
    for (x, on_road) in [(24.0, true), (40.0, false)] {
        let mut s = column(x);
        // play on to the Union's next movement card
        s = next_union_movement(s);
        let mut log = Vec::new();
        Tsatf
            .apply(
                &mut s,
                &Order::Advance {
                    unit: BLUE,
                    toward: GREY,
                },
                &mut log,
            )
            .unwrap();
        let Event::Moved { road, report, .. } = first_of(&log) else {
            panic!("{log:?}")
        };
        assert_eq!(*road, on_road);
        assert_eq!(report.dice, Some(if on_road { road_dice } else { cross }));
    }
}

/// Holds with every unit until the Union owes a movement card again.
fn next_union_movement(mut s: State) -> State {
    for _ in 0..40 {
        if let Some(d) = Tsatf.owed(&s)
            && d.side == Side::Union
            && s.battle().phase() == Phase::Movement
            && !s.battle().unit(BLUE).unwrap().acted()
        {
            return s;
        }
        let d = Tsatf.owed(&s).unwrap();
        let unit = s
            .battle()
            .units()
            .iter()
            .find(|u| u.side() == d.side && !u.acted())
            .map(|u| u.id())
            .unwrap();
        let mut log = Vec::new();
        Tsatf
            .apply(&mut s, &Order::Hold { unit }, &mut log)
            .unwrap();
    }
    panic!("the Union never had a movement card")
}

/// TSATF-MOV-11: a formation change costs the distance the furthest figure moves, out of the roll: forming a
/// 21-figure line (11" wide) into a march column (4" wide) moves the end figure 3.5"; a roll of 3 (1+1+1) cannot
/// pay for it, so the change is not finished and the card is spent; a roll of 4 can, and the footprint narrows.
#[test]
fn tsatf_mov_11_a_formation_change_is_paid_out_of_the_roll() {
    let s = union_first(at(20.0, 5.0, 0.0), vec![]);
    let form = Order::Form {
        unit: BLUE,
        formation: acw_tsatf::state::Formation::MarchColumn,
    };
    let mut short = s.clone();
    let mut log = Vec::new();
    Tsatf
        .apply_with(&mut short, &form, &mut then_rng(&[1, 1, 1]), &mut log)
        .unwrap();
    assert!(matches!(
        first_of(&log),
        Event::FormationUnfinished {
            needed: 3.5,
            rolled: 3.0,
            ..
        }
    ));
    let blue = short.battle().unit(BLUE).unwrap();
    assert!(blue.acted());
    assert_eq!(
        blue.formation(),
        acw_tsatf::state::Formation::CloseOrderLine
    );
    assert_eq!(short.field().place(BLUE).unwrap().frontage, Inches(11.0));
    let mut log = Vec::new();
    let mut formed = s.clone();
    Tsatf
        .apply_with(&mut formed, &form, &mut then_rng(&[1, 1, 2]), &mut log)
        .unwrap();
    let Event::Formed { cost, report, .. } = first_of(&log) else {
        panic!("{log:?}")
    };
    assert_eq!(*cost, 3.5);
    assert_eq!(report.rolled, 4);
    assert_eq!(formed.field().place(BLUE).unwrap().frontage, Inches(4.0));
    assert_eq!(
        formed.battle().unit(BLUE).unwrap().formation(),
        acw_tsatf::state::Formation::MarchColumn
    );
    // a formation the unit is already in is refused
    let line = Order::Form {
        unit: BLUE,
        formation: acw_tsatf::state::Formation::CloseOrderLine,
    };
    assert!(s.check_order(&line).is_err());
}

/// The first event of an order's log after the game's opening shuffle and card.
fn first_of(log: &[Event]) -> &Event {
    log.iter()
        .find(|e| !matches!(e, Event::Shuffled { .. } | Event::CardTurned { .. }))
        .expect("an event after the opening")
}

/// A unit the field does not hold is answered, not a panic: infinitely far, in no cone, contact or sight.
#[test]
fn the_field_answers_for_units_it_does_not_hold() {
    let s = duel(at(20.0, 5.0, 0.0), at(20.0, 30.0, 180.0), vec![]);
    let f = s.field();
    let ghost = UnitId(7);
    let options = Options::default();
    assert_eq!(f.range(BLUE, ghost), f64::INFINITY);
    assert!(!f.in_cone(BLUE, ghost, false, &options));
    assert!(!f.in_contact(ghost, GREY));
    assert!(!f.line_of_sight(ghost, GREY));
    assert!(!f.protected(ghost, GREY));
    assert_eq!(f.edge_room(ghost, acw_core::measure::Heading::NORTH), 0.0);
    assert!(f.place(ghost).is_none());
    assert!(matches!(
        s.check_order(&Order::Fire {
            unit: ghost,
            target: GREY
        }),
        Err(GameError::NoSuchUnit(7) | GameError::NotAsked(_))
    ));
}

/// TSATF-OPT-04: a hidden Indian unit is revealed when enemy troops come within 4" of it: 6" away it stays
/// hidden; a Union advance on the company behind it (2, 2, 2: 6") that runs up against it reveals it.
#[test]
fn tsatf_opt_04_enemies_within_four_inches_reveal_the_hidden() {
    let forces = vec![
        UnitSpec::infantry("Blue", Side::Union, Quality::Average).unwrap(),
        UnitSpec::infantry("Braves", Side::Confederate, Quality::Indians)
            .unwrap()
            .hidden()
            .unwrap(),
        UnitSpec::infantry("Grey", Side::Confederate, Quality::Average).unwrap(),
    ];
    let mut s = union_card_first(&open_table(
        "ambush",
        forces,
        vec![
            at(24.0, 22.0, 0.0),
            at(24.0, 30.0, 180.0),
            at(24.0, 34.5, 180.0),
        ],
    ));
    assert!((s.field().range(BLUE, GREY) - 6.0).abs() < 1e-9);
    assert!(s.battle().unit(GREY).unwrap().hidden());
    let mut log = Vec::new();
    Tsatf
        .apply_with(
            &mut s,
            &Order::Advance {
                unit: BLUE,
                toward: UnitId(2),
            },
            &mut then_rng(&[2, 2, 2]),
            &mut log,
        )
        .unwrap();
    assert!(s.field().range(BLUE, GREY) < 4.0);
    assert!(!s.battle().unit(GREY).unwrap().hidden());
    assert!(
        log.iter()
            .any(|e| matches!(e, Event::Revealed { unit, .. } if unit == "Braves"))
    );
}

/// Plays holds until the side owing is asked something other than a card, returning the events.
fn hold_until_asked(s: &mut State, dice: &mut ThenRng) -> Vec<Event> {
    let mut log = Vec::new();
    for _ in 0..40 {
        let Some(d) = Tsatf.owed(s) else { break };
        let Question::Activate { compulsory, .. } = d.question else {
            break;
        };
        let order = match compulsory {
            Some(name) => Order::Compulsory {
                unit: s.battle().unit_named(&name).unwrap().id(),
            },
            None => Order::Hold {
                unit: s
                    .battle()
                    .units()
                    .iter()
                    .find(|u| u.side() == d.side && !u.acted())
                    .map(|u| u.id())
                    .unwrap(),
            },
        };
        Tsatf.apply_with(s, &order, dice, &mut log).unwrap();
    }
    log
}

/// TSATF-MEL-14 / TSATF-MEL-26: across a fence the pairing is decided by position. Blue stands an inch short of
/// Grey's fence; the fence runs 4" along Grey's 11" front (x 21 to 25), so it holds four attacking figures. Blue
/// moves up on its first charge card and goes in on its next; both sides pass their tests (scripted 1s). The
/// melee the engine fights pairs at most four figures at a time, the rest of each side waiting: no
/// round removes more than four figures of either side, and the exact odds are those of that capped melee.
/// Charged in the open, the same two units pair one against one with no limit.
#[test]
fn tsatf_mel_14_across_a_fence_only_the_figures_on_it_are_paired() {
    let fence = vec![
        Terrain::fence(
            "the rails",
            vec![Point::new(21.0, 28.5), Point::new(25.0, 28.5)],
        )
        .unwrap(),
    ];
    let melee_of = |terrain: Vec<Terrain>| {
        let mut s = union_first(at(24.0, 27.0, 0.0), terrain);
        let charge = Order::Charge {
            unit: BLUE,
            target: GREY,
        };
        let mut log = Vec::new();
        let protected = s.field().protected(BLUE, GREY);
        if protected {
            // the first card only brings it up to the position (TSATF-MEL-25)
            Tsatf.apply(&mut s, &charge, &mut log).unwrap();
            assert!(matches!(
                first_of(&log),
                Event::Charged {
                    report: acw_tsatf::battle::ChargeReport::Approached {
                        in_position: true,
                        ..
                    },
                    ..
                }
            ));
            s = next_union_movement(s);
            log.clear();
        }
        Tsatf
            .apply_with(&mut s, &charge, &mut then_rng(&[6, 6, 6, 6]), &mut log)
            .unwrap();
        assert!(
            matches!(
                first_of(&log),
                Event::Charged {
                    report: acw_tsatf::battle::ChargeReport::Contact { .. },
                    ..
                }
            ),
            "{log:?}"
        );
        let room = s.field().obstacle_room(BLUE, GREY);
        // both pass their close-combat tests on 1s, then each side chooses its order
        let mut ones = then_rng(&[1, 1, 1, 1]);
        let held = hold_until_asked(&mut s, &mut ones);
        let mut events = Vec::new();
        for _ in 0..2 {
            let d = Tsatf.owed(&s).unwrap_or_else(|| {
                panic!(
                    "{}",
                    held.iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join("\n")
                )
            });
            let order = match d.question {
                Question::Pair { .. } => Order::Pair { cadre_first: true },
                Question::Fight { .. } => Order::Fight {
                    cadre_first: true,
                    pursue: false,
                },
                other => panic!("expected the melee's questions, got {other}"),
            };
            Tsatf.apply(&mut s, &order, &mut events).unwrap();
        }
        let report = events
            .iter()
            .find_map(|e| match e {
                Event::Melee { report } => Some(report.clone()),
                _ => None,
            })
            .expect("a melee was fought");
        (room, report)
    };

    let (room, report) = melee_of(fence);
    assert_eq!(room, Some(4));
    assert_eq!(report.melee.front, 4);
    let size = |s: &acw_tsatf::melee::MeleeSide| u16::from(s.cadre) + u16::from(s.others);
    let (na, nd) = (size(&report.melee.attackers), size(&report.melee.defenders));
    // more on each side than the fence holds (the chargers left stragglers behind)
    assert!(na > 8 && nd > 8, "{report}");
    let out = |l: &acw_tsatf::melee::MeleeLosses| u16::from(l.out(0)) + u16::from(l.out(1));
    let (a_out, d_out) = (out(&report.tally.attackers), out(&report.tally.defenders));
    // the losers were all put out, four pairs at most fighting in any round
    assert!(a_out == na || d_out == nd, "{report}");
    assert!(a_out <= 4 * report.tally.rounds && d_out <= 4 * report.tally.rounds);
    assert!(4 * report.tally.rounds >= na.min(nd), "{report}");
    // the chance in the event is the capped melee's; its ends differ from the same melee without the fence's
    // limit (the figures the winners keep, on average)
    let capped = report.melee.odds();
    assert!((report.chance() - capped.prob(|o| o.winner == report.party)).abs() < 1e-12);
    let open = report.melee.with_front(u16::MAX).odds();
    let kept = |d: &acw_core::Dist<acw_tsatf::melee::MeleeOutcome>| {
        (1..=21u16)
            .map(|k| d.prob(|o| o.winner == report.party && o.left >= k))
            .sum::<f64>()
    };
    assert!(
        (kept(&capped) - kept(&open)).abs() > 0.01,
        "{} {}",
        kept(&capped),
        kept(&open)
    );
    assert!(
        report.to_string().contains("4 at a time on the obstacle"),
        "{report}"
    );

    let (room, report) = melee_of(vec![]);
    assert_eq!(room, None);
    assert_eq!(report.melee.front, u16::MAX);
}

/// Ids read as the kind in lower case and the number.
#[test]
fn ids_read_as_their_kind_and_number() {
    assert_eq!(UnitId(14).to_string(), "unit 14");
    assert_eq!(acw_tsatf::battle::ChargeId(3).to_string(), "charge 3");
}

/// Union cavalry (12 troopers, mounted in march column) and a gun (limbered) at the south edge, Confederate
/// infantry far off; played to the first Union movement card.
fn horse_and_guns() -> State {
    use acw_tsatf::state::UnitKind;
    use acw_tsatf::tables::FireRow;
    let forces = vec![
        UnitSpec::cavalry(
            "Troop B",
            Side::Union,
            Quality::Average,
            12,
            FireRow::CavalryCarbine,
        )
        .unwrap(),
        UnitSpec::gun(
            "Battery gun",
            Side::Union,
            Quality::Average,
            UnitKind::Artillery,
            5,
        )
        .unwrap(),
        UnitSpec::infantry("Grey", Side::Confederate, Quality::Average).unwrap(),
    ];
    union_card_first(&open_table(
        "horse and guns",
        forces,
        vec![
            at(10.0, 5.0, 0.0),
            at(30.0, 5.0, 0.0),
            at(24.0, 30.0, 180.0),
        ],
    ))
}

/// TSATF-MOV-08 / TSATF-MOV-09: on its movement card cavalry dismounts where it stands: the change drops the
/// highest movement die (scripted 6 dropped), a quarter of the troopers (12 / 4 = 3, rounded up) hold the
/// horses and leave the firing line, the troop keeps its march column. Orders the rules do not allow are refused
/// and change nothing: dismounting again, mounting infantry, limbering a gun that is limbered, mounting a gun.
/// On a later card the gun unlimbers.
#[test]
fn tsatf_mov_08_mounting_and_limbering_are_orders() {
    const TROOP: UnitId = UnitId(0);
    const GUN: UnitId = UnitId(1);
    const GREY_INF: UnitId = UnitId(2);
    let mut s = horse_and_guns();
    let before = s.clone();
    for o in [
        Order::Mount {
            unit: TROOP,
            mount: true,
        },
        Order::Limber {
            unit: GUN,
            limber: true,
        },
        Order::Mount {
            unit: GUN,
            mount: false,
        },
        Order::Limber {
            unit: TROOP,
            limber: false,
        },
        Order::Mount {
            unit: GREY_INF,
            mount: true,
        },
    ] {
        assert!(s.check_order(&o).is_err(), "{o:?}");
        let mut log = Vec::new();
        assert!(Tsatf.apply(&mut s, &o, &mut log).is_err(), "{o:?}");
        assert_eq!(s, before);
    }
    let dismount = Order::Mount {
        unit: TROOP,
        mount: false,
    };
    assert!(s.check_order(&dismount).is_ok());
    assert!(s.actions().contains(&dismount));
    let troop = s.battle().unit(TROOP).unwrap();
    let (mounted_strength, formation) = (troop.strength(), troop.formation());
    let mut log = Vec::new();
    Tsatf
        .apply_with(
            &mut s,
            &dismount,
            &mut then_rng(&[6, 1, 1, 1, 1, 1, 1, 1]),
            &mut log,
        )
        .unwrap();
    let Event::StateChanged { change, report } = first_of(&log) else {
        panic!("{log:?}")
    };
    assert_eq!(*change, acw_tsatf::game::StateChange::Dismounted);
    let dice = report.dice.unwrap();
    assert_eq!(dice.drops, 1);
    assert_eq!(report.rolled, u32::from(dice.dice - 1));
    assert!(
        first_of(&log)
            .to_string()
            .starts_with("Troop B dismounted where it stood")
    );
    let troop = s.battle().unit(TROOP).unwrap();
    assert!(!troop.mounted());
    assert_eq!(troop.formation(), formation);
    assert_eq!(troop.horseholders(), 3);
    assert_eq!(mounted_strength, 15);
    // the troop's card is spent: it cannot change again this phase
    assert!(
        s.check_order(&Order::Mount {
            unit: TROOP,
            mount: true
        })
        .is_err()
    );

    let mut s = next_union_movement_of(s, GUN);
    let unlimber = Order::Limber {
        unit: GUN,
        limber: false,
    };
    let mut log = Vec::new();
    Tsatf.apply(&mut s, &unlimber, &mut log).unwrap();
    assert!(matches!(
        first_of(&log),
        Event::StateChanged {
            change: acw_tsatf::game::StateChange::Unlimbered,
            ..
        }
    ));
    assert_eq!(
        s.battle().unit(GUN).unwrap().formation(),
        acw_tsatf::state::Formation::Unlimbered
    );
}

/// Holds with every unit until the Union owes a movement card that `unit` has not used.
fn next_union_movement_of(s: State, unit: UnitId) -> State {
    next_union_card_of(s, unit, Phase::Movement)
}

/// Holds every other unit until a Union card of `phase` is turned with `unit` still to act.
fn next_union_card_of(mut s: State, unit: UnitId, phase: Phase) -> State {
    for _ in 0..60 {
        if let Some(d) = Tsatf.owed(&s)
            && d.side == Side::Union
            && s.battle().phase() == phase
            && !s.battle().unit(unit).unwrap().acted()
        {
            return s;
        }
        let d = Tsatf.owed(&s).unwrap();
        let hold = s
            .battle()
            .units()
            .iter()
            .find(|u| u.side() == d.side && !u.acted() && u.id() != unit)
            .or_else(|| {
                s.battle()
                    .units()
                    .iter()
                    .find(|u| u.side() == d.side && !u.acted())
            })
            .map(|u| u.id())
            .unwrap();
        let mut log = Vec::new();
        Tsatf
            .apply(&mut s, &Order::Hold { unit: hold }, &mut log)
            .unwrap();
    }
    panic!("the Union never had a {phase} card for that unit")
}

/// TSATF-MOV-08 as the bots play it: with the enemy within 36", the attacker unlimbers its gun and keeps its
/// cavalry mounted; the holder, given the Union's movement cards, dismounts its cavalry and unlimbers its gun.
#[test]
fn tsatf_mov_08_the_bots_deploy_guns_and_the_holder_dismounts() {
    let mut s = horse_and_guns();
    let o = Attacker::new(3).order(&Tsatf, &s, Side::Union);
    assert_eq!(
        o,
        Order::Limber {
            unit: UnitId(1),
            limber: false
        }
    );
    let mut holder = Holder::new(3);
    let mut changes = Vec::new();
    for _ in 0..40 {
        let d = Tsatf.owed(&s).unwrap();
        let o = if d.side == Side::Union && s.battle().phase() == Phase::Movement {
            holder.order(&Tsatf, &s, Side::Union)
        } else {
            let unit = s
                .battle()
                .units()
                .iter()
                .find(|u| u.side() == d.side && !u.acted())
                .map(|u| u.id())
                .unwrap();
            Order::Hold { unit }
        };
        let mut log = Vec::new();
        Tsatf.apply(&mut s, &o, &mut log).unwrap();
        if let Event::StateChanged { change, .. } = first_of(&log) {
            changes.push(*change);
        }
        if changes.len() == 2 {
            break;
        }
    }
    changes.sort_by_key(ToString::to_string);
    assert_eq!(
        changes,
        vec![
            acw_tsatf::game::StateChange::Dismounted,
            acw_tsatf::game::StateChange::Unlimbered
        ]
    );
    assert!(!s.battle().unit(UnitId(0)).unwrap().mounted());
}

/// Union scouts and an untrained company at the south edge; Confederate Indians hidden 11.5" in front of them in a
/// skirmish line across the table, and a visible Confederate company far off; played to the first Union movement card.
fn scouts_and_hidden() -> State {
    let forces = vec![
        UnitSpec::infantry("Scouts", Side::Union, Quality::Average)
            .unwrap()
            .as_scouts(),
        UnitSpec::infantry("Blue", Side::Union, Quality::Average).unwrap(),
        UnitSpec::infantry("Braves", Side::Confederate, Quality::Indians)
            .unwrap()
            .in_formation(acw_tsatf::state::Formation::SkirmishLine)
            .unwrap()
            .hidden()
            .unwrap(),
        UnitSpec::infantry("Grey", Side::Confederate, Quality::Average).unwrap(),
    ];
    union_card_first(&open_table(
        "scouting",
        forces,
        vec![
            at(12.0, 5.0, 0.0),
            at(40.0, 5.0, 0.0),
            at(24.0, 18.5, 180.0),
            at(40.0, 30.0, 180.0),
        ],
    ))
}

/// TSATF-OPT-04: trained scouts advance toward the visible company and roll for the hidden Indians 11.5" away
/// (within the 12" spotting distance): the movement dice all 1s, then a 6 reveals them, a 5 does not; either
/// way the scouts stop more than 4" short of them, so the roll alone decides. An untrained company may not
/// scout: refused, nothing changed.
#[test]
fn tsatf_opt_04_scouts_spot_hidden_units_as_they_move() {
    const SCOUTS: UnitId = UnitId(0);
    const BLUE_CO: UnitId = UnitId(1);
    const BRAVES: UnitId = UnitId(2);
    const GREY_CO: UnitId = UnitId(3);
    let s = scouts_and_hidden();
    assert!(s.battle().unit(BRAVES).unwrap().hidden());
    assert!((s.field().range(SCOUTS, BRAVES) - 11.5).abs() < 1e-9);
    let refused = Order::Scout {
        unit: BLUE_CO,
        toward: GREY_CO,
    };
    let mut t = s.clone();
    let mut log = Vec::new();
    assert!(t.check_order(&refused).is_err());
    assert!(Tsatf.apply(&mut t, &refused, &mut log).is_err());
    assert_eq!(t, s);
    let scout = Order::Scout {
        unit: SCOUTS,
        toward: GREY_CO,
    };
    assert!(s.actions().contains(&scout));
    let row = s.battle().unit(SCOUTS).unwrap().move_row().unwrap();
    let n = usize::from(
        acw_tsatf::movement::move_dice(
            row,
            acw_tsatf::tables::MoveMode::CrossCountry,
            acw_tsatf::movement::MoveFacts::default(),
            false,
            s.battle().options(),
        )
        .unwrap()
        .dice,
    );
    for (spot, found) in [(6, true), (5, false)] {
        let mut t = s.clone();
        let mut faces = vec![1; n];
        faces.push(spot);
        let mut log = Vec::new();
        Tsatf
            .apply_with(&mut t, &scout, &mut then_rng(&faces), &mut log)
            .unwrap();
        let Event::Moved { report, .. } = first_of(&log) else {
            panic!("{log:?}")
        };
        assert_eq!(report.rolled, n as u32);
        let left = t.field().range(SCOUTS, BRAVES);
        assert!(left > 4.0, "{left}");
        assert_eq!(!t.battle().unit(BRAVES).unwrap().hidden(), found);
        assert_eq!(
            report.spotted,
            if found {
                vec!["Braves".to_string()]
            } else {
                vec![]
            }
        );
        if found {
            assert!(
                first_of(&log)
                    .to_string()
                    .contains("its scouts spotted Braves")
            );
        }
    }
}

/// TSATF-OPT-04: a hidden unit's position is kept from the other side. The Union's view of the table leaves the
/// hidden Indians out while the Confederates' shows them; every Union order naming them is refused exactly as
/// an order naming a unit that does not exist, changing nothing, and none is among the Union's actions. Once
/// spotted they are in both views and may be advanced on.
#[test]
fn tsatf_opt_04_hidden_units_are_kept_from_the_other_side() {
    const SCOUTS: UnitId = UnitId(0);
    const BRAVES: UnitId = UnitId(2);
    const GREY_CO: UnitId = UnitId(3);
    let s = scouts_and_hidden();
    let ids = |side| s.view(side).iter().map(|v| v.0).collect::<Vec<_>>();
    assert_eq!(ids(Side::Union), vec![SCOUTS, UnitId(1), GREY_CO]);
    assert_eq!(
        ids(Side::Confederate),
        vec![SCOUTS, UnitId(1), BRAVES, GREY_CO]
    );
    for (hidden, missing) in [
        (
            Order::Advance {
                unit: SCOUTS,
                toward: BRAVES,
            },
            Order::Advance {
                unit: SCOUTS,
                toward: UnitId(99),
            },
        ),
        (
            Order::Charge {
                unit: SCOUTS,
                target: BRAVES,
            },
            Order::Charge {
                unit: SCOUTS,
                target: UnitId(99),
            },
        ),
        (
            Order::Fire {
                unit: SCOUTS,
                target: BRAVES,
            },
            Order::Fire {
                unit: SCOUTS,
                target: UnitId(99),
            },
        ),
    ] {
        let mut t = s.clone();
        let mut log = Vec::new();
        let e = Tsatf.apply(&mut t, &hidden, &mut log).unwrap_err();
        assert!(matches!(e, GameError::NoSuchUnit(2)), "{e}");
        assert_eq!(e.to_string(), "there is no unit number 2");
        assert!(matches!(
            s.check_order(&missing),
            Err(GameError::NoSuchUnit(99))
        ));
        assert_eq!(t, s);
    }
    let names_braves = |o: &Order| {
        matches!(o, Order::Advance { toward, .. } | Order::Scout { toward, .. } if *toward == BRAVES)
            || matches!(o, Order::Charge { target, .. } | Order::Fire { target, .. } if *target == BRAVES)
    };
    assert!(!s.actions().iter().any(names_braves));
    // spotted by the scouts (their move all 1s, then a 6), the Indians are in the Union's view
    let row = s.battle().unit(SCOUTS).unwrap().move_row().unwrap();
    let n = usize::from(
        acw_tsatf::movement::move_dice(
            row,
            acw_tsatf::tables::MoveMode::CrossCountry,
            acw_tsatf::movement::MoveFacts::default(),
            false,
            s.battle().options(),
        )
        .unwrap()
        .dice,
    );
    let mut faces = vec![1; n];
    faces.push(6);
    let mut t = s.clone();
    let mut log = Vec::new();
    Tsatf
        .apply_with(
            &mut t,
            &Order::Scout {
                unit: SCOUTS,
                toward: GREY_CO,
            },
            &mut then_rng(&faces),
            &mut log,
        )
        .unwrap();
    assert!(t.view(Side::Union).iter().any(|v| v.0 == BRAVES));
}

/// TSATF-MOV-12: a unit in contact with a fence spends its movement card taking it down; it does not move,
/// and the fence is gone from the field for the rest of the game (no longer a rough feature on a path), the
/// save keeping what came down. A unit with no obstacle within an inch is refused, and the refusal changes
/// nothing.
#[test]
fn tsatf_mov_12_a_unit_takes_down_the_fence_it_touches() {
    let fence = |y: f64| {
        vec![
            Terrain::fence(
                "the rail fence",
                vec![Point::new(10.0, y), Point::new(30.0, y)],
            )
            .unwrap(),
        ]
    };
    // Blue's front edge runs along y = 6: the fence half an inch ahead is in contact, 3" ahead is not
    let to_union = |s: State| {
        let mut s = to_phase(s, Phase::Movement);
        if Tsatf.owed(&s).unwrap().side == Side::Confederate {
            let mut log = Vec::new();
            Tsatf
                .apply(&mut s, &Order::Hold { unit: GREY }, &mut log)
                .unwrap();
        }
        assert_eq!(s.battle().phase(), Phase::Movement);
        assert_eq!(Tsatf.owed(&s).unwrap().side, Side::Union);
        s
    };
    let far = to_union(duel(at(20.0, 5.0, 0.0), at(20.0, 30.0, 180.0), fence(9.0)));
    let order = Order::Dismantle { unit: BLUE };
    let before = far.clone();
    let mut log = Vec::new();
    let mut s = far.clone();
    let err = Tsatf.apply(&mut s, &order, &mut log).unwrap_err();
    assert!(matches!(err, GameError::NoObstacle(_)));
    assert_eq!(
        err.to_string(),
        "Blue is not in contact with an obstacle it could take down"
    );
    assert_eq!(s, before);
    assert!(log.is_empty());
    assert!(far.check_order(&order).is_err());
    assert!(!far.actions().contains(&order));

    let near = to_union(duel(at(20.0, 5.0, 0.0), at(20.0, 30.0, 180.0), fence(6.5)));
    assert_eq!(near.field().obstacle_in_contact(BLUE), Some(0));
    assert_eq!(near.field().obstacle_in_contact(GREY), None);
    assert_eq!(
        near.field()
            .rough_features(Point::new(20.0, 6.0), Point::new(20.0, 29.0)),
        1
    );
    assert!(near.check_order(&order).is_ok());
    assert!(near.actions().contains(&order));
    let mut s = near.clone();
    let mut log = Vec::new();
    Tsatf.apply(&mut s, &order, &mut log).unwrap();
    let e = first_of(&log);
    assert_eq!(
        *e,
        Event::Dismantled {
            unit: "Blue".into(),
            obstacle: "the rail fence".into()
        }
    );
    assert_eq!(
        e.to_string(),
        "Blue spends its movement card taking down the rail fence; it stays where it is, and the rail fence is gone from the field."
    );
    // the unit took its card without moving; the fence is gone and kept in the record
    assert!(s.battle().unit(BLUE).unwrap().acted() || s.battle().phase() != Phase::Movement);
    assert_eq!(s.field().place(BLUE), near.field().place(BLUE));
    assert!(s.field().table().terrain().is_empty());
    assert_eq!(s.field().dismantled().len(), 1);
    assert_eq!(s.field().dismantled()[0].name(), "the rail fence");
    assert_eq!(
        s.field()
            .rough_features(Point::new(20.0, 6.0), Point::new(20.0, 29.0)),
        0
    );
    assert_eq!(
        near.field().table().terrain().len(),
        1,
        "the copy before is untouched"
    );
    // the save keeps the table as it stands and what came down
    let json = serde_json::to_string(&s).unwrap();
    assert_eq!(serde_json::from_str::<State>(&json).unwrap(), s);
    // a save claiming a wood was taken down is refused: only obstacles come down
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let wood = serde_json::to_value(
        Terrain::woods(
            "the wood",
            vec![
                Point::new(1.0, 1.0),
                Point::new(3.0, 1.0),
                Point::new(3.0, 3.0),
            ],
        )
        .unwrap(),
    )
    .unwrap();
    let field = find_key(&mut v, "dismantled").expect("the save lists what came down");
    *field = serde_json::Value::Array(vec![wood]);
    assert!(serde_json::from_value::<State>(v).is_err());
}

/// The first value under `key` anywhere in a JSON tree.
fn find_key<'a>(v: &'a mut serde_json::Value, key: &str) -> Option<&'a mut serde_json::Value> {
    match v {
        serde_json::Value::Object(m) => {
            if m.contains_key(key) {
                return m.get_mut(key);
            }
            m.values_mut().find_map(|x| find_key(x, key))
        }
        serde_json::Value::Array(a) => a.iter_mut().find_map(|x| find_key(x, key)),
        _ => None,
    }
}

/// TSATF-OPT-04: a side's view, the form an app sends to one player, leaves the other side's hidden units out
/// (the save of the whole state holds them); the hiding side sees its own, marked hidden. The view loads back as
/// it was saved, and a view claiming to show a side the other side's hidden unit is refused.
#[test]
fn tsatf_opt_04_a_sides_view_leaves_hidden_enemies_out() {
    let s = scouts_and_hidden();
    assert!(serde_json::to_string(&s).unwrap().contains("Braves"));
    let union = s.side_view(Side::Union);
    let names: Vec<&str> = union.units.iter().map(|u| u.name.as_str()).collect();
    assert_eq!(names, ["Scouts", "Blue", "Grey"]);
    assert_eq!(union.side, Side::Union);
    assert_eq!(union.phase, Phase::Movement);
    assert_eq!(union.card, Some(Side::Union));
    assert_eq!(union.units[2].figures, 21);
    assert_eq!(union.units[2].place, *s.field().place(UnitId(3)).unwrap());
    let json = serde_json::to_string(&union).unwrap();
    assert!(!json.contains("Braves"));
    assert_eq!(serde_json::from_str::<SideView>(&json).unwrap(), union);

    let grey = s.side_view(Side::Confederate);
    let braves = grey.units.iter().find(|u| u.name == "Braves").unwrap();
    assert!(braves.hidden);
    assert_eq!(braves.id, UnitId(2));
    assert_eq!(grey.units.len(), 4);
    // the Confederates' view passed off as the Union's holds a hidden enemy: refused
    let mut v = serde_json::to_value(&grey).unwrap();
    v["side"] = serde_json::to_value(Side::Union).unwrap();
    let err = serde_json::from_value::<SideView>(v).unwrap_err();
    assert!(err.to_string().contains("hidden enemy"), "{err}");
    // the same unit twice is refused
    let mut v = serde_json::to_value(&union).unwrap();
    let first = v["units"][0].clone();
    v["units"].as_array_mut().unwrap().push(first);
    assert!(serde_json::from_value::<SideView>(v).is_err());
}

/// A campaign duel played by two holders until a side with a wounded man in its unit turns a movement card
/// with that unit still to act; seeds are tried until one does.
fn campaign_with_wounded() -> (State, UnitId) {
    let mut options = limited(12);
    options.wound_policy = acw_tsatf::options::WoundPolicy::Campaign;
    let forces = vec![
        UnitSpec::infantry("Blue", Side::Union, Quality::Average).unwrap(),
        UnitSpec::infantry("Grey", Side::Confederate, Quality::Average).unwrap(),
    ];
    for seed in 0..40 {
        let scenario = Scenario::new(
            "campaign",
            forces.clone(),
            vec![at(20.0, 5.0, 0.0), at(20.0, 18.0, 180.0)],
            Table::new(Inches(48.0), Inches(36.0), vec![]).unwrap(),
            options.clone(),
            Victory { break_percent: 0 },
        )
        .unwrap();
        let mut s = Tsatf.setup(&scenario, seed).unwrap();
        let mut bots = BySide::new(Holder::new(seed), Holder::new(seed));
        for _ in 0..200 {
            let Some(d) = Tsatf.owed(&s) else { break };
            if s.battle().phase() == Phase::Movement
                && let Some(u) = s
                    .battle()
                    .units()
                    .iter()
                    .find(|u| u.side() == d.side && !u.acted() && u.wounded() > 0)
            {
                return (s.clone(), u.id());
            }
            let order = bots.get_mut(d.side).order(&Tsatf, &s, d.side);
            let mut log = Vec::new();
            Tsatf.apply(&mut s, &order, &mut log).unwrap();
        }
    }
    panic!("no seed gave a wounded man on a movement card")
}

/// TSATF-MOV-15: in a campaign game a unit's privates take up its wounded on its movement card, one each, before
/// it moves; naming them does not spend the card (the same side is asked again, the unit still to act), and the
/// move that follows runs at half speed. More carriers than wounded, the same number again, or carrying in a
/// one-off game are refused and change nothing.
#[test]
fn tsatf_mov_15_carrying_wounded_is_named_before_the_move() {
    let (s, unit) = campaign_with_wounded();
    let name = s.battle().unit(unit).unwrap().name().to_string();
    let wounded = s.battle().unit(unit).unwrap().wounded();
    let side = s.battle().unit(unit).unwrap().side();
    let card = s.battle().card();
    let carry = Order::Carry { unit, carriers: 1 };
    assert!(s.check_order(&carry).is_ok());
    assert!(s.actions().contains(&carry));
    let too_many = Order::Carry {
        unit,
        carriers: wounded + 1,
    };
    assert!(!s.actions().contains(&too_many));
    let mut t = s.clone();
    let mut log = Vec::new();
    assert!(Tsatf.apply(&mut t, &too_many, &mut log).is_err());
    assert_eq!(t, s);
    // setting down nobody changes nothing: refused
    let err = Tsatf
        .apply(&mut t, &Order::Carry { unit, carriers: 0 }, &mut log)
        .unwrap_err();
    assert!(matches!(err, GameError::NotNow(_)));
    assert_eq!(t, s);

    Tsatf.apply(&mut t, &carry, &mut log).unwrap();
    assert_eq!(
        first_of(&log).to_string(),
        format!(
            "{name} takes up its wounded: one man carries a wounded comrade and may not fire, and the unit moves at half speed."
        )
    );
    let u = t.battle().unit(unit).unwrap();
    assert_eq!(u.figures().iter().filter(|f| f.carrying()).count(), 1);
    assert!(!u.acted());
    assert_eq!(t.battle().card(), card);
    assert_eq!(Tsatf.owed(&t).map(|d| d.side), Some(side));
    // the same number again is refused
    let before = t.clone();
    assert!(matches!(
        Tsatf.apply(&mut t, &carry, &mut log),
        Err(GameError::NotNow(_))
    ));
    assert_eq!(t, before);
    // the move that follows runs at half speed: 3D6 of 4s are 12", carried 6"
    let mut log = Vec::new();
    Tsatf
        .apply_with(
            &mut t,
            &Order::Withdraw { unit },
            &mut then_rng(&[4, 4, 4]),
            &mut log,
        )
        .unwrap();
    let Event::Moved { report, .. } = first_of(&log) else {
        panic!("{log:?}")
    };
    assert!(t.battle().unit(unit).unwrap().acted() || t.battle().phase() != Phase::Movement);
    assert_eq!((report.rolled, report.allowance), (12, 6.0));
    assert!(
        first_of(&log)
            .to_string()
            .contains("rolled 12\" and may move 6\""),
        "{}",
        first_of(&log)
    );

    // a one-off game has no carrying
    let duel = union_first(at(20.0, 5.0, 0.0), vec![]);
    let mut d2 = duel.clone();
    assert!(
        Tsatf
            .apply(
                &mut d2,
                &Order::Carry {
                    unit: BLUE,
                    carriers: 0
                },
                &mut log
            )
            .is_err()
    );
    assert_eq!(d2, duel);
}

// ----- a card held open across several decisions -----

fn figure_of(s: &State, unit: UnitId, officer: bool) -> u16 {
    let k = s
        .battle()
        .unit(unit)
        .unwrap()
        .figures()
        .iter()
        .position(|f| matches!(f.role(), acw_tsatf::state::Role::Officer(_)) == officer)
        .unwrap();
    u16::try_from(k).unwrap()
}

/// Every order in `orders` is refused and leaves the state as it was.
fn all_refused(s: &mut State, orders: &[Order]) {
    let before = s.clone();
    for o in orders {
        assert!(s.check_order(o).is_err(), "{o:?}");
        assert!(Tsatf.apply(s, o, &mut Vec::new()).is_err(), "{o:?}");
        assert_eq!(*s, before, "{o:?}");
    }
}

/// TSATF-FIR-13 / TSATF-FIR-19 / TSATF-FIR-21 as the engine plays it: after its volley a unit keeps its card
/// open and the same side is asked again; its lieutenant fires his pistol at the enemy lieutenant 11" away
/// (inside 15"), a scripted 6 killing him, a chance of 1/6. A private cannot fire alone, nor at his own side,
/// and the card's other orders are refused while it is open. With nobody left to fire alone the card closes
/// and play goes on.
#[test]
fn tsatf_fir_13_single_shots_follow_the_units_own_fire() {
    let s = duel(at(20.0, 5.0, 0.0), at(20.0, 18.0, 180.0), vec![]);
    let mut s = next_union_card_of(s, BLUE, Phase::Firing);
    let mut log = Vec::new();
    Tsatf
        .apply(
            &mut s,
            &Order::Fire {
                unit: BLUE,
                target: GREY,
            },
            &mut log,
        )
        .unwrap();
    assert_eq!(s.open(), Some(&Activation::Shots { unit: BLUE }));
    let d = Tsatf.owed(&s).unwrap();
    assert_eq!(d.side, Side::Union);
    assert!(matches!(d.question, Question::Continue { .. }));
    assert!(
        d.question
            .to_string()
            .starts_with("Blue still holds its card: its officers and snipers"),
        "{}",
        d.question
    );
    let (lt, aim) = (figure_of(&s, BLUE, true), figure_of(&s, GREY, true));
    let shot = Order::Shoot {
        unit: BLUE,
        figure: lt,
        target: GREY,
        aim,
    };
    let actions = s.actions();
    assert!(actions.contains(&shot) && actions.contains(&Order::Finish { unit: BLUE }));
    let private = figure_of(&s, BLUE, false);
    all_refused(
        &mut s,
        &[
            Order::Shoot {
                unit: BLUE,
                figure: private,
                target: GREY,
                aim,
            },
            Order::Shoot {
                unit: BLUE,
                figure: lt,
                target: BLUE,
                aim,
            },
            Order::Hold { unit: BLUE },
            Order::Fire {
                unit: BLUE,
                target: GREY,
            },
            Order::Finish { unit: GREY },
        ],
    );
    let mut log = Vec::new();
    Tsatf
        .apply_with(&mut s, &shot, &mut then_rng(&[6]), &mut log)
        .unwrap();
    let Event::Shot { report, chance, .. } = first_of(&log) else {
        panic!("{log:?}")
    };
    assert_eq!(
        report.struck,
        Some((usize::from(aim), acw_tsatf::state::Status::Killed))
    );
    assert!((chance - 1.0 / 6.0).abs() < 1e-12);
    assert_eq!(
        first_of(&log).to_string(),
        "The officer of Blue fires his pistol at the officer of Grey, 11.0\" away: killed, with a chance of 16.7%."
    );
    // NCOs fire with the unit by default: nobody else fires alone, so the card is closed
    assert_eq!(s.open(), None);
    assert!(!matches!(
        Tsatf.owed(&s).unwrap().question,
        Question::Continue { .. }
    ));
}

/// Two Union companies side by side, 11" wide each, and a Confederate company 15" in front of them, on an
/// open table under `options`, played to the first Union firing card.
fn two_against_one(options: Options) -> State {
    let forces = vec![
        UnitSpec::infantry("Blue A", Side::Union, Quality::Average).unwrap(),
        UnitSpec::infantry("Blue B", Side::Union, Quality::Average).unwrap(),
        UnitSpec::infantry("Grey", Side::Confederate, Quality::Average).unwrap(),
    ];
    let scenario = open_table_under(
        "two against one",
        forces,
        vec![
            at(14.0, 5.0, 0.0),
            at(26.0, 5.0, 0.0),
            at(20.0, 22.0, 180.0),
        ],
        options,
        0,
    );
    next_union_card_of(Tsatf.setup(&scenario, 1).unwrap(), UnitId(0), Phase::Firing)
}

/// TSATF-FIR-11 (`remainder = Pool`) as the engine plays it: Blue A starts a pooled fire at Grey and keeps its
/// card open; Blue B joins, giving up its own card; on Finish both fire as one, with twice the figures Blue A
/// fires alone. Joining twice, joining at another target, and pooling under the default options are refused.
#[test]
fn tsatf_fir_11_pooled_fire_gathers_units_before_one_roll() {
    const A: UnitId = UnitId(0);
    const B: UnitId = UnitId(1);
    const G: UnitId = UnitId(2);
    let mut options = limited(6);
    options.remainder = acw_tsatf::options::Remainder::Pool;
    let mut s = two_against_one(options);
    let mut alone = s.clone();
    let mut log = Vec::new();
    Tsatf
        .apply(&mut alone, &Order::Fire { unit: A, target: G }, &mut log)
        .unwrap();
    let one = log
        .iter()
        .find_map(|e| match e {
            Event::Fired { report, .. } => Some(report.figures),
            _ => None,
        })
        .unwrap();
    let mut log = Vec::new();
    Tsatf
        .apply(&mut s, &Order::Pool { unit: A, target: G }, &mut log)
        .unwrap();
    assert_eq!(
        first_of(&log).to_string(),
        "Blue A makes ready to fire at Grey and holds its fire for other units to join."
    );
    assert_eq!(s.battle().card(), Some(Side::Union));
    assert_eq!(
        Tsatf.owed(&s).unwrap().question.to_string(),
        "Blue A still holds its card: it gathers fire at Grey (1 unit of the same weapon so far): another may join, or the fire goes. What next?"
    );
    assert!(s.actions().contains(&Order::Pool { unit: B, target: G }));
    Tsatf
        .apply(&mut s, &Order::Pool { unit: B, target: G }, &mut log)
        .unwrap();
    assert_eq!(
        s.open(),
        Some(&Activation::Pool {
            unit: A,
            target: G,
            with: vec![B]
        })
    );
    all_refused(
        &mut s,
        &[
            Order::Pool { unit: B, target: G },
            Order::Pool { unit: A, target: G },
            Order::Finish { unit: B },
            Order::Fire { unit: B, target: G },
        ],
    );
    let mut log = Vec::new();
    Tsatf
        .apply(&mut s, &Order::Finish { unit: A }, &mut log)
        .unwrap();
    let pooled = log
        .iter()
        .find_map(|e| match e {
            Event::Fired { report, .. } => Some(report.figures),
            _ => None,
        })
        .unwrap();
    assert_eq!(pooled, 2 * one);
    assert!(s.battle().unit(A).unwrap().acted() && s.battle().unit(B).unwrap().acted());
    // under the default options fire is not pooled
    let mut d = two_against_one(limited(6));
    all_refused(&mut d, &[Order::Pool { unit: A, target: G }]);
}

/// A Union troop of 12 cavalry, mounted in march column, 13" from a Confederate company in front of it, on an
/// open table with split cavalry dice under `split`; played to the first Union movement card.
fn troop_and_company(split: Option<acw_tsatf::options::SplitFire>) -> State {
    let forces = vec![
        UnitSpec::cavalry(
            "Troop B",
            Side::Union,
            Quality::Average,
            12,
            acw_tsatf::tables::FireRow::CavalryCarbine,
        )
        .unwrap(),
        UnitSpec::infantry("Grey", Side::Confederate, Quality::Average).unwrap(),
    ];
    let mut options = limited(6);
    options.split_cavalry_dice = split;
    let scenario = open_table_under(
        "troop and company",
        forces,
        vec![at(10.0, 5.0, 0.0), at(10.0, 20.0, 180.0)],
        options,
        0,
    );
    next_union_movement_of(Tsatf.setup(&scenario, 1).unwrap(), UnitId(0))
}

/// TSATF-MOV-17 as the engine plays it: the troop rolls its dice (scripted) and keeps its card open; it rides
/// its 6 at the enemy (6" nearer), dismounts with the highest die left, fires with the lowest (at once, in
/// the movement phase) and stops, the rest unspent. A die it does not have, a second fire, a split by
/// infantry or without the option, and fire inside the move when the option keeps fire for the firing card are
/// refused and change nothing.
#[test]
fn tsatf_mov_17_split_cavalry_dice_are_spent_one_at_a_time() {
    use acw_tsatf::options::SplitFire;
    const TROOP: UnitId = UnitId(0);
    const G: UnitId = UnitId(1);
    let mut s = troop_and_company(Some(SplitFire::DuringMovement));
    let mut log = Vec::new();
    Tsatf
        .apply_with(
            &mut s,
            &Order::Split { unit: TROOP },
            &mut then_rng(&[2, 6, 3, 1, 5, 4]),
            &mut log,
        )
        .unwrap();
    let Event::SplitRolled { faces, .. } = first_of(&log) else {
        panic!("{log:?}")
    };
    let faces = faces.clone();
    assert!(
        faces.windows(2).all(|w| w[0] >= w[1]) && faces[0] == 6,
        "{faces:?}"
    );
    let n = faces.len();
    assert_eq!(
        s.open(),
        Some(&Activation::Split {
            unit: TROOP,
            dice: faces.clone()
        })
    );
    let gap = s.field().range(TROOP, G);
    all_refused(
        &mut s,
        &[
            Order::Ride {
                unit: TROOP,
                toward: G,
                die: 8,
            },
            Order::Hold { unit: TROOP },
            Order::Split { unit: TROOP },
        ],
    );
    let mut log = Vec::new();
    Tsatf
        .apply(
            &mut s,
            &Order::Ride {
                unit: TROOP,
                toward: G,
                die: 0,
            },
            &mut log,
        )
        .unwrap();
    assert!((gap - s.field().range(TROOP, G) - 6.0).abs() < 1e-6);
    assert_eq!(
        first_of(&log).to_string(),
        "Troop B spends its 6 riding at Grey: it goes 6.0\"."
    );
    Tsatf
        .apply(
            &mut s,
            &Order::Mount {
                unit: TROOP,
                mount: false,
            },
            &mut log,
        )
        .unwrap();
    assert!(!s.battle().unit(TROOP).unwrap().mounted());
    Tsatf
        .apply(
            &mut s,
            &Order::Fire {
                unit: TROOP,
                target: G,
            },
            &mut log,
        )
        .unwrap();
    assert!(log.iter().any(|e| matches!(e, Event::Fired { .. })));
    let Some(Activation::Split { dice, .. }) = s.open() else {
        panic!("{:?}", s.open())
    };
    assert_eq!(dice.len(), n - 3);
    assert_eq!(dice, &faces[1..n - 1].to_vec()[1..].to_vec());
    all_refused(
        &mut s,
        &[Order::Fire {
            unit: TROOP,
            target: G,
        }],
    );
    let mut log = Vec::new();
    Tsatf
        .apply(&mut s, &Order::Finish { unit: TROOP }, &mut log)
        .unwrap();
    assert!(matches!(first_of(&log), Event::Finished { .. }));
    assert_eq!(s.open(), None);
    // the card is spent: the troop has acted, or the phase (every unit having acted) is over
    assert!(s.battle().phase() != Phase::Movement || s.battle().unit(TROOP).unwrap().acted());

    // without the option, and for fire when it waits for the firing card
    let mut off = troop_and_company(None);
    all_refused(&mut off, &[Order::Split { unit: TROOP }]);
    let mut marked = troop_and_company(Some(SplitFire::MarkedForFiring));
    Tsatf
        .apply(&mut marked, &Order::Split { unit: TROOP }, &mut Vec::new())
        .unwrap();
    all_refused(
        &mut marked,
        &[Order::Fire {
            unit: TROOP,
            target: G,
        }],
    );
}

/// A game saved with a card held open loads with it and goes on; a save whose open card does not fit the
/// battle is refused.
#[test]
fn a_card_held_open_is_saved_and_checked_on_load() {
    let mut options = limited(6);
    options.remainder = acw_tsatf::options::Remainder::Pool;
    let mut s = two_against_one(options);
    Tsatf
        .apply(
            &mut s,
            &Order::Pool {
                unit: UnitId(0),
                target: UnitId(2),
            },
            &mut Vec::new(),
        )
        .unwrap();
    let json = serde_json::to_string(&s).unwrap();
    let back: State = serde_json::from_str(&json).unwrap();
    assert_eq!(back, s);
    // the pool names the enemy as a partner
    let bad = json.replace("\"with\":[]", "\"with\":[2]");
    assert_ne!(bad, json);
    assert!(serde_json::from_str::<State>(&bad).is_err());
}

/// The bots use the card held open: over whole campaign games under pooled fire and split cavalry dice, with
/// Union cavalry, they pool, shoot, split and ride, carry their wounded (TSATF-MOV-15) while no enemy is in
/// reach, and never give an order the engine refuses (the conformance suite checks every order).
#[test]
fn the_bots_pool_shoot_and_split() {
    use acw_tsatf::options::{Remainder, SplitFire};
    let mut options = limited(8);
    options.remainder = Remainder::Pool;
    options.split_cavalry_dice = Some(SplitFire::DuringMovement);
    options.wound_policy = acw_tsatf::options::WoundPolicy::Campaign;
    let forces = vec![
        UnitSpec::infantry("Blue A", Side::Union, Quality::Average).unwrap(),
        UnitSpec::infantry("Blue B", Side::Union, Quality::Average).unwrap(),
        UnitSpec::cavalry(
            "Blue Horse",
            Side::Union,
            Quality::Average,
            12,
            acw_tsatf::tables::FireRow::CavalryCarbine,
        )
        .unwrap(),
        UnitSpec::infantry("Grey A", Side::Confederate, Quality::Average).unwrap(),
        UnitSpec::infantry("Grey B", Side::Confederate, Quality::Average).unwrap(),
    ];
    let scenario = open_table_under(
        "open fight",
        forces,
        vec![
            at(14.0, 5.0, 0.0),
            at(26.0, 5.0, 0.0),
            at(40.0, 5.0, 0.0),
            at(20.0, 28.0, 180.0),
            at(36.0, 28.0, 180.0),
        ],
        options,
        30,
    );
    let seeds: Vec<u64> = (1..=8).collect();
    let suite = Suite {
        seeds: &seeds,
        commanders: &bots,
        refused_orders: &refused,
        invariants: &invariants,
    };
    if let Err(e) = conformance::run(&Tsatf, &scenario, &suite) {
        panic!("{e}");
    }
    let (mut pooled, mut shots, mut rides, mut carried) = (0, 0, 0, 0);
    for seed in seeds {
        let (mut a, mut h) = (Attacker::new(seed), Holder::new(seed));
        let g = play(
            &Tsatf,
            &scenario,
            seed,
            BySide::new(&mut a as &mut dyn Commander<Tsatf>, &mut h),
        )
        .unwrap();
        for e in g.log {
            match e {
                Event::Pooled { lead: Some(_), .. } => pooled += 1,
                Event::Shot { .. } => shots += 1,
                Event::Rode { .. } => rides += 1,
                Event::Carrying { .. } => carried += 1,
                _ => {}
            }
        }
    }
    assert!(
        pooled > 0 && shots > 0 && rides > 0 && carried > 0,
        "{pooled} joined, {shots} shots, {rides} rides, {carried} carrying"
    );
}

/// TSATF-SEQ-03 as the log tells it: with the whole 52-card deck, once the Union's only company has acted, red
/// cards turned next are passed over until a black one comes; the event's chance is that of those colours in
/// that order (red, red, black from the pile as it stood), not of the first card's colour.
#[test]
fn tsatf_seq_03_a_card_turned_after_cards_passed_over_states_their_chance() {
    use acw_core::cards::Colour;
    use acw_core::dice::{Scripted, ScriptedDice};
    let mut options = limited(6);
    options.sequencing_deck = acw_tsatf::options::SequencingDeck::Full52WithSkip;
    let scenario = open_table_under(
        "duel, whole deck",
        vec![
            UnitSpec::infantry("Blue", Side::Union, Quality::Average).unwrap(),
            UnitSpec::infantry("Grey", Side::Confederate, Quality::Average).unwrap(),
        ],
        vec![at(20.0, 5.0, 0.0), at(20.0, 30.0, 180.0)],
        options,
        0,
    );
    let mut s = union_card_first(&scenario);
    let pile = s.battle().sequencing_deck().unwrap().pile().to_vec();
    let red: Vec<_> = pile
        .iter()
        .filter(|c| c.colour() == Colour::Red)
        .copied()
        .collect();
    let black = *pile.iter().find(|c| c.colour() == Colour::Black).unwrap();
    let (r, b, n) = (
        red.len() as f64,
        (pile.len() - red.len()) as f64,
        pile.len() as f64,
    );
    let mut dice = ScriptedDice::new([red[0], red[1], black].map(Scripted::Card));
    let mut log = Vec::new();
    // the first order's log opens with the set-up's shuffle and card; the card turned after the hold is last
    Tsatf
        .apply_with(&mut s, &Order::Hold { unit: BLUE }, &mut dice, &mut log)
        .unwrap();
    let Some(Event::CardTurned {
        cards,
        side,
        chance,
    }) = log
        .iter()
        .rev()
        .find(|e| matches!(e, Event::CardTurned { .. }))
    else {
        panic!("{log:?}")
    };
    assert_eq!((cards.len(), *side), (3, Side::Confederate));
    let expected = r / n * (r - 1.0) / (n - 1.0) * b / (n - 2.0);
    assert!(
        (chance - expected).abs() < 1e-12,
        "{chance} against {expected}"
    );
    let text = log
        .iter()
        .rev()
        .find(|e| matches!(e, Event::CardTurned { .. }))
        .unwrap()
        .to_string();
    assert!(
        text.contains("a Confederate card after 2 passed over"),
        "{text}"
    );
}

/// The luck of single shots and of cards passed over: the Union's card came up at even chances (mid-rank 3/4)
/// and its lieutenant's pistol killed (the best face, 1/6: mid-rank 11/12), so its index is 5/6; a card turned
/// after cards passed over was certain for the side that acts and counts for neither, so the Confederates
/// keep only the first card (1/4).
#[test]
fn single_shots_count_for_the_luck_and_passed_over_cards_do_not() {
    use acw_core::luck::luck_of;
    use acw_tsatf::battle::PersonalReport;
    use acw_tsatf::fire::{FULL_DECK, Personal};
    use acw_tsatf::tables::HitEffect;
    let log = vec![
        Event::CardTurned {
            cards: vec![FULL_DECK[0]],
            side: Side::Union,
            chance: 0.5,
        },
        Event::Shot {
            unit: "Blue".into(),
            shooter: "officer".into(),
            target: "Grey".into(),
            aimed: "officer".into(),
            range: 10.0,
            report: PersonalReport {
                weapon: Personal::Pistol,
                effect: HitEffect::Killed,
                struck: None,
            },
            chance: 1.0 / 6.0,
        },
        Event::CardTurned {
            cards: vec![FULL_DECK[1], FULL_DECK[40]],
            side: Side::Confederate,
            chance: 0.1,
        },
    ];
    let luck = luck_of(&log);
    assert!((luck.union.index - 5.0 / 6.0).abs() < 1e-12, "{luck:?}");
    assert!((luck.confederate.index - 0.25).abs() < 1e-12, "{luck:?}");
}

/// TSATF-FIR-15 with one persistent hit deck: every hit card read goes to the deck's discard pile, so each run of
/// 52 hit cards through a game is the whole deck, each card once (drawn without replacement and reshuffled when
/// empty), and no card is left out of the deck at the end.
#[test]
fn a_persistent_hit_deck_is_drawn_through_and_reshuffled_whole() {
    let mut v = serde_json::to_value(Scenario::default()).unwrap();
    v["options"]["hit_deck"] = serde_json::json!("Persistent");
    let scenario: Scenario = serde_json::from_value(v).unwrap();
    let mut longest = 0;
    for seed in 1..=8 {
        let (mut a, mut h) = (Attacker::new(seed), Holder::new(seed));
        let g = play(
            &Tsatf,
            &scenario,
            seed,
            BySide::new(&mut a as &mut dyn Commander<Tsatf>, &mut h),
        )
        .unwrap();
        let drawn: Vec<_> = g
            .log
            .iter()
            .filter_map(|e| match e {
                Event::Fired { report, .. } => Some(report.cards.iter().map(|c| c.card)),
                _ => None,
            })
            .flatten()
            .collect();
        for run in drawn.chunks(52) {
            let mut seen = run.to_vec();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(
                seen.len(),
                run.len(),
                "seed {seed}: a card came twice in one pass of the deck"
            );
        }
        let deck = g.state.battle().hit_deck();
        assert!(
            deck.out().is_empty(),
            "seed {seed}: hit cards left out of the deck"
        );
        assert_eq!(deck.remaining() + deck.discards().len(), 52);
        assert_eq!(deck.remaining(), 52 - drawn.len() % 52);
        longest = longest.max(drawn.len());
    }
    // seed 7 draws 53 hit cards: the 53rd comes from the whole deck reshuffled, leaving 51 to draw
    assert_eq!(longest, 53);
}
