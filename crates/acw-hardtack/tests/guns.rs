//! Guns on the table: round shot's line of flight, deviation, damage area and bounces, canister's aim and
//! blast line, each measured on the table and resolved by the battle, and the refusals that change nothing.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::dice::DiceError;
use acw_core::game::{Commander, Ruleset, play};
use acw_core::measure::{Inches, Point};
use acw_core::table::{Table, Terrain};
use acw_core::{BySide, Dice, Die, Side};
use acw_hardtack::CompanyId;
use acw_hardtack::Options;
use acw_hardtack::RuleViolation;
use acw_hardtack::artillery::Landing;
use acw_hardtack::bots::{Holder, Thruster};
use acw_hardtack::game::{
    Deployed, DeployedGun, Event, GameError, Hardtack, Order, Scenario, ShotPoint, State,
};
use acw_hardtack::state::{Ammunition, CompanySpec, Condition, Formation};
use acw_hardtack::tables::FieldPiece;
use common::apply;

const CREW: CompanyId = CompanyId(0);
const GREY_A: CompanyId = CompanyId(1);
const GREY_B: CompanyId = CompanyId(2);

fn company(name: &str, side: Side, n: usize, formation: Formation, at: (f64, f64)) -> Deployed {
    let mut spec = CompanySpec::new(name, side, n);
    spec.formation = formation;
    Deployed {
        spec,
        at: Point::new(at.0, at.1),
    }
}

/// A Union gun (its crew of four at (24, 4), facing north) and the Confederate companies given; `terrain` on
/// a 48" × 36" table.
fn scenario(piece: FieldPiece, others: Vec<Deployed>, terrain: Vec<Terrain>) -> Scenario {
    let mut companies = vec![company(
        "Battery A crew",
        Side::Union,
        4,
        Formation::Skirmish,
        (24.0, 4.0),
    )];
    companies.extend(others);
    Scenario {
        name: "guns".to_string(),
        turns: 3,
        table: Table::new(Inches(48.0), Inches(36.0), terrain).unwrap(),
        companies,
        guns: vec![DeployedGun {
            name: "Battery A's gun".to_string(),
            piece,
            rifled: false,
            crew: 0,
            team: None,
        }],
        dummies: Vec::new(),
        colonels: Vec::new(),
        options: Options::default(),
    }
}

/// Grey A, seven figures in line at (24, 16) (figure i at x = 27 - i: it faces south), and Grey B, five in
/// line at (24, 23) (figure i at x = 26 - i), both on the gun's line of fire.
fn two_lines() -> Vec<Deployed> {
    vec![
        company(
            "Grey A",
            Side::Confederate,
            7,
            Formation::Line,
            (24.0, 16.0),
        ),
        company(
            "Grey B",
            Side::Confederate,
            5,
            Formation::Line,
            (24.0, 23.0),
        ),
    ]
}

/// The Union goes first, the crew activates and loads `load`.
fn loaded(scenario: &Scenario, load: Ammunition) -> State {
    let mut state = State::new(scenario, 1).unwrap();
    apply(&mut state, Order::GoFirst(Side::Union), &[]).unwrap();
    apply(&mut state, Order::Activate(CREW), &[]).unwrap();
    apply(&mut state, Order::Load(load), &[]).unwrap();
    state
}

fn shot(log: &[Event]) -> (Landing, Vec<ShotPoint>) {
    log.iter()
        .find_map(|e| match e {
            Event::Shot {
                landing, impacts, ..
            } => Some((*landing, impacts.clone())),
            _ => None,
        })
        .expect("a round shot event")
}

fn near(p: Point, x: f64, y: f64) -> bool {
    (p.x - x).abs() < 1e-6 && (p.y - y).abs() < 1e-6
}

fn dead(state: &State, id: CompanyId) -> Vec<usize> {
    let c = state.battle().company(id).unwrap();
    (0..c.figures().len())
        .filter(|&i| c.figures()[i].condition == Condition::Dead)
        .collect()
}

// HT-ART-06, HT-ART-07, HT-ART-11, HT-INT-18 on the table. The Napoleon at (24, 4) aims round shot at Grey A's
// figure straight ahead, at (24, 16). Accuracy: the Regular crew's D8 shows 6, over its LV 2: the ball lands
// on the aim point. The ½" × 2" area there, along the line from the gun, holds that one figure (its neighbours
// stand 1" to either side): D4 armour 2 against the D10 impact 8 kills it (8 is at least twice 2). Grey A tests
// (face 8) and the first bounce test needs the crew's D8 over LV + 2 = 4: 6 bounces, half the gun's 12" to the
// impact point, 6", then D12 12 o'clock (straight on along the line of travel) and D4 1": the ball comes down
// at (24, 23) — beyond the first point, on along the line from the gun, not back toward it — where Grey B's
// middle figure stands alone in the area: armour 1 against the D8 impact 1, no effect. Grey B tests (8);
// the second bounce needs over LV + 4 = 6 and the D8 shows 3: the ball comes to rest.
#[test]
fn round_shot_bounces_on_along_its_line() {
    let s = scenario(FieldPiece::Napoleon12lb, two_lines(), vec![]);
    let mut state = loaded(&s, Ammunition::Shot);
    let log = apply(
        &mut state,
        Order::FireGun { target: GREY_A },
        &[6, 2, 8, 8, 6, 12, 1, 1, 1, 8, 3],
    )
    .unwrap();
    let (landing, impacts) = shot(&log);
    assert_eq!(landing, Landing::OnTarget);
    assert_eq!(impacts.len(), 2);
    assert!(near(impacts[0].at, 24.0, 16.0), "{:?}", impacts[0].at);
    assert_eq!(impacts[0].companies, vec!["Grey A".to_string()]);
    // HT-INT-18: the bounce goes on beyond the first impact, away from the gun
    assert!(near(impacts[1].at, 24.0, 23.0), "{:?}", impacts[1].at);
    assert_eq!(impacts[1].companies, vec!["Grey B".to_string()]);
    // HT-ART-07: only the figure under the area is hit: Grey A's figure 3, at x = 24
    assert_eq!(dead(&state, GREY_A), vec![3]);
    assert!(dead(&state, GREY_B).is_empty());
    // firing used the load (HT-ART-03)
    let gun = state.gun_of(CREW).unwrap();
    assert_eq!(state.battle().gun(gun).unwrap().loaded(), None);
    let text = log.iter().map(ToString::to_string).collect::<String>();
    assert!(text.contains("at (24.0, 16.0) it reaches Grey A"), "{text}");
}

// HT-ART-06 on the table: the crew's D8 shows 2, not over LV 2: the ball deviates by D12 3 (3 o'clock: a
// right angle to the right of the line of fire, here toward +x) and D8 2": it comes down at (26, 16), where
// Grey A's figure 1 stands (x = 27 - 1). Armour 2 against impact 10: killed. Grey A tests (8); the bounce
// test's D8 shows 4, not over 4: no bounce.
#[test]
fn round_shot_deviates_by_the_clock_from_the_line_of_fire() {
    let s = scenario(FieldPiece::Napoleon12lb, two_lines(), vec![]);
    let mut state = loaded(&s, Ammunition::Shot);
    let log = apply(
        &mut state,
        Order::FireGun { target: GREY_A },
        &[2, 3, 2, 2, 10, 8, 4],
    )
    .unwrap();
    let (landing, impacts) = shot(&log);
    assert_eq!(
        landing,
        Landing::Deviated {
            clock: 3,
            inches: 2
        }
    );
    assert_eq!(impacts.len(), 1);
    assert!(near(impacts[0].at, 26.0, 16.0), "{:?}", impacts[0].at);
    assert_eq!(dead(&state, GREY_A), vec![1]);
}

// HT-ART-07: the area's long axis lies along the line of fire. A column seen end-on (two files 1" apart, four
// ranks through its 1" depth) has one whole file under the ½"-wide, 2"-long area and the other file outside
// it: four figures roll, all of the file aimed at (its front figure, the leader, index 0, nearest the gun of
// the two figures equally off the gun's facing; its file is the even indices). Each: armour 1, impact 10,
// killed. The company tests (8); its leader fell, so a new one rolls D6 (1); no bounce (D8 1).
#[test]
fn round_shot_area_runs_along_the_line_of_fire() {
    let others = vec![company(
        "Grey A",
        Side::Confederate,
        8,
        Formation::Column,
        (24.0, 16.0),
    )];
    let s = scenario(FieldPiece::Napoleon12lb, others, vec![]);
    let mut state = loaded(&s, Ammunition::Shot);
    let log = apply(
        &mut state,
        Order::FireGun { target: GREY_A },
        &[6, 1, 10, 1, 10, 1, 10, 1, 10, 8, 1, 1],
    )
    .unwrap();
    let (_, impacts) = shot(&log);
    assert_eq!(impacts.len(), 1);
    // the aim point: the front figure of the file at x = 24.5 (y = 16.375, the front rank of four through
    // the 1" depth)
    assert!(near(impacts[0].at, 24.5, 16.375), "{:?}", impacts[0].at);
    assert_eq!(dead(&state, GREY_A), vec![0, 2, 4, 6]);
}

// HT-ART-13: a wood lies across the line at y = 10 to 12. The ball aimed at Grey A 12" beyond stops at the
// wood's edge, (24, 10), where no figure stands; it does not bounce (no bounce test is rolled: only the
// accuracy die). The gun sees Grey A past the wood only because Grey A stands in its far edge.
#[test]
fn round_shot_stops_at_a_woods_edge() {
    let wood = Terrain::woods(
        "the copse",
        vec![
            Point::new(10.0, 10.0),
            Point::new(38.0, 10.0),
            Point::new(38.0, 16.5),
            Point::new(10.0, 16.5),
        ],
    )
    .unwrap();
    let s = scenario(FieldPiece::Napoleon12lb, two_lines(), vec![wood]);
    let mut state = loaded(&s, Ammunition::Shot);
    let log = apply(&mut state, Order::FireGun { target: GREY_A }, &[6]).unwrap();
    let (_, impacts) = shot(&log);
    assert_eq!(impacts.len(), 1);
    assert!(impacts[0].wood_edge);
    assert!((impacts[0].at.y - 10.0).abs() < 0.01 && (impacts[0].at.x - 24.0).abs() < 1e-6);
    assert!(impacts[0].companies.is_empty());
    assert!(dead(&state, GREY_A).is_empty());
}

// HT-ART-12: a ball that comes down off the table is over. Grey A stands at the far edge (y = 35); the
// crew's D8 shows 1 (a miss), the D12 12 o'clock (straight on) and the D8 8": the ball comes down at y = 43,
// off the table. Nothing is hit and no other die is rolled.
#[test]
fn round_shot_off_the_table_is_over() {
    let others = vec![company(
        "Grey A",
        Side::Confederate,
        7,
        Formation::Line,
        (24.0, 35.0),
    )];
    let s = scenario(FieldPiece::Napoleon12lb, others, vec![]);
    let mut state = loaded(&s, Ammunition::Shot);
    let log = apply(&mut state, Order::FireGun { target: GREY_A }, &[1, 12, 8]).unwrap();
    let (_, impacts) = shot(&log);
    assert_eq!(impacts.len(), 1);
    assert!(impacts[0].report.is_none());
    assert!(near(impacts[0].at, 24.0, 43.0), "{:?}", impacts[0].at);
    // no ball is left in flight: the crew's activation ends and the other side activates as usual
    assert_eq!(state.active(), None);
    apply(&mut state, Order::Activate(GREY_A), &[]).unwrap();
}

/// Dice that show their highest face.
struct Highest;

impl Dice for Highest {
    fn face(&mut self, die: Die) -> u16 {
        die.sides()
    }
    fn index(&mut self, n: usize) -> usize {
        n.saturating_sub(1)
    }
    fn fault(&self) -> Option<&DiceError> {
        None
    }
}

// HT-ART-14, HT-ART-16, HT-ART-19 on the table: canister at Grey A, 11.5" from the gun to its front edge (band
// 2 of the Napoleon's 8", D6, one down for a line: D4), its aimed figure straight ahead at (24, 16). With
// every die at its highest the crew's D12s beat the D4: a hit with casualties, and the blast carries on along
// the line from the gun through that figure, ½" wide, to the next company with a figure on it: Grey B, 18.5"
// from the gun to its front edge. Grey C stands beside the line at (36, 23) and is not reached.
#[test]
fn canister_blast_follows_the_line_from_the_gun() {
    let mut others = two_lines();
    others.push(company(
        "Grey C",
        Side::Confederate,
        5,
        Formation::Line,
        (36.0, 23.0),
    ));
    let s = scenario(FieldPiece::Napoleon12lb, others, vec![]);
    let mut state = loaded(&s, Ammunition::Canister);
    let mut log = Vec::new();
    Hardtack
        .apply_with(
            &mut state,
            &Order::FireGun { target: GREY_A },
            &mut Highest,
            &mut log,
        )
        .unwrap();
    let lines: Vec<String> = log
        .iter()
        .filter_map(|e| match e {
            Event::Fired { line, .. } => Some(line.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        lines,
        vec![
            "Battery A's gun fires canister at Grey A 11.5\" away".to_string(),
            "the blast of Battery A's gun carries on to Grey B 18.5\" from the gun".to_string(),
        ]
    );
    let fit = |id| state.battle().company(id).unwrap().fit();
    assert!(fit(GREY_A) < 7 && fit(GREY_B) < 5);
    assert_eq!(fit(CompanyId(3)), 5);
    assert!(!state.battle().blast_pending());
}

// HT-ART-18: a friendly company on canister's line stops the blast from going on through it: here the Union
// company stands behind Grey A on the line and Grey B behind it is not reached.
#[test]
fn canister_blast_stops_at_friends() {
    let mut others = two_lines();
    others.push(company(
        "Blue D",
        Side::Union,
        3,
        Formation::Line,
        (24.0, 19.5),
    ));
    let s = scenario(FieldPiece::Napoleon12lb, others, vec![]);
    let mut state = loaded(&s, Ammunition::Canister);
    let mut log = Vec::new();
    Hardtack
        .apply_with(
            &mut state,
            &Order::FireGun { target: GREY_A },
            &mut Highest,
            &mut log,
        )
        .unwrap();
    let fired = log
        .iter()
        .filter(|e| matches!(e, Event::Fired { .. }))
        .count();
    assert_eq!(fired, 1);
    assert_eq!(state.battle().company(GREY_B).unwrap().fit(), 5);
    assert!(!state.battle().blast_pending());
}

fn refused(state: &State, order: Order) -> GameError {
    let mut after = state.clone();
    let err = apply(&mut after, order, &[]).unwrap_err();
    assert_eq!(&after, state, "a refusal changes nothing");
    err
}

// Refusals change nothing, dice included: a gun not loaded (HT-SEQ-08, HT-ART-01); canister beyond its reach
// (HT-ART-14: a 6lb's 4" band, Grey A in skirmish order 24.5" away is past the fifth band); no line — a
// company in the way of round shot (HT-SG2-11), a wood between (HT-SG2-12); outside the 30-degree arc
// (HT-ART-02); a company of the crew's own side; a company that serves no gun.
#[test]
fn gun_refusals_change_nothing() {
    // not loaded
    let s = scenario(FieldPiece::Napoleon12lb, two_lines(), vec![]);
    let mut state = State::new(&s, 1).unwrap();
    apply(&mut state, Order::GoFirst(Side::Union), &[]).unwrap();
    apply(&mut state, Order::Activate(CREW), &[]).unwrap();
    let e = refused(&state, Order::FireGun { target: GREY_A });
    assert!(
        e.to_string().contains("neither round shot nor canister"),
        "{e}"
    );

    // canister out of range
    let others = vec![company(
        "Grey A",
        Side::Confederate,
        4,
        Formation::Skirmish,
        (24.0, 29.0),
    )];
    let state = loaded(
        &scenario(FieldPiece::Gun6lb, others, vec![]),
        Ammunition::Canister,
    );
    let e = refused(&state, Order::FireGun { target: GREY_A });
    assert!(matches!(
        e,
        GameError::Rules(RuleViolation::GunRefused {
            why: "the target lies beyond the reach of its canister",
            ..
        })
    ));

    // round shot at Grey B, Grey A standing in the way
    let state = loaded(
        &scenario(FieldPiece::Napoleon12lb, two_lines(), vec![]),
        Ammunition::Shot,
    );
    let e = refused(&state, Order::FireGun { target: GREY_B });
    assert!(matches!(e, GameError::NoSight { .. }), "{e}");
    assert!(e.to_string().contains("Grey B past Grey A"), "{e}");

    // a wood between
    let wood = Terrain::woods(
        "the copse",
        vec![
            Point::new(10.0, 8.0),
            Point::new(38.0, 8.0),
            Point::new(38.0, 11.0),
            Point::new(10.0, 11.0),
        ],
    )
    .unwrap();
    let state = loaded(
        &scenario(FieldPiece::Napoleon12lb, two_lines(), vec![wood]),
        Ammunition::Shot,
    );
    let e = refused(&state, Order::FireGun { target: GREY_A });
    assert!(matches!(e, GameError::NoSight { .. }), "{e}");

    // outside the arc: a company far off to the side
    let others = vec![company(
        "Grey A",
        Side::Confederate,
        4,
        Formation::Skirmish,
        (40.0, 8.0),
    )];
    let state = loaded(
        &scenario(FieldPiece::Napoleon12lb, others, vec![]),
        Ammunition::Canister,
    );
    let e = refused(&state, Order::FireGun { target: GREY_A });
    assert!(e.to_string().contains("outside its 30-degree arc"), "{e}");

    // own side, and a company with no gun
    let mut others = two_lines();
    others.push(company(
        "Blue D",
        Side::Union,
        3,
        Formation::Line,
        (40.0, 4.0),
    ));
    let state = loaded(
        &scenario(FieldPiece::Napoleon12lb, others, vec![]),
        Ammunition::Canister,
    );
    let e = refused(
        &state,
        Order::FireGun {
            target: CompanyId(3),
        },
    );
    assert!(e.to_string().contains("own side"), "{e}");
    let mut state = state;
    apply(&mut state, Order::EndActivation, &[]).unwrap();
    apply(&mut state, Order::Activate(GREY_A), &[]).unwrap();
    let e = refused(&state, Order::Load(Ammunition::Shot));
    assert!(e.to_string().contains("serves no gun"), "{e}");
}

// A crew serves at most one gun, and a gun names a company of the scenario.
#[test]
fn scenario_guns_are_checked() {
    let mut s = scenario(FieldPiece::Napoleon12lb, two_lines(), vec![]);
    s.guns.push(s.guns[0].clone());
    assert_eq!(
        s.check().unwrap_err().to_string(),
        "Battery A's gun cannot be placed: its crew already serves another gun"
    );
    let mut s = scenario(FieldPiece::Napoleon12lb, two_lines(), vec![]);
    s.guns[0].crew = 9;
    assert_eq!(
        s.check().unwrap_err().to_string(),
        "Battery A's gun cannot be placed: its crew is not among the companies"
    );
}

// The default scenario puts a gun on each side, and the bots fire them: over a few seeded games both guns fire
// round shot and canister.
#[test]
fn default_scenario_guns_are_used() {
    let s = Scenario::default();
    assert_eq!(s.guns.len(), 2);
    let (mut shot, mut canister) = (0, 0);
    for seed in 1..=6 {
        let mut union = Thruster::new(seed);
        let mut rebels = Holder::new(seed + 1000);
        let played = play(
            &Hardtack,
            &s,
            seed,
            BySide::new(&mut union as &mut dyn Commander<Hardtack>, &mut rebels),
        )
        .unwrap();
        for e in &played.log {
            match e {
                Event::Shot { .. } => shot += 1,
                Event::Fired { line, .. } if line.contains("fires canister") => canister += 1,
                _ => {}
            }
        }
    }
    assert!(
        shot > 0 && canister > 0,
        "{shot} shots, {canister} canister"
    );
}
