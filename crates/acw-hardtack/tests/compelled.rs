//! What the engine plays for a company the rules leave no choice (HT-SG2-17, HT-MOV-08, HT-SG2-48, HT-SG2-40):
//! a Routed company runs toward its own baseline when it activates, surrenders or disperses when every way back
//! closes on the enemy; a Broken company in the open makes for the nearest cover; the loser of a melee falls
//! back whatever level it is left at. Positions are pinned for scripted game states.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use acw_core::Side;
use acw_core::dice::ScriptedDice;
use acw_core::game::Ruleset;
use acw_core::measure::{Inches, Point};
use acw_core::table::{Table, Terrain};
use acw_hardtack::CompanyId;
use acw_hardtack::Options;
use acw_hardtack::game::{Deployed, Event, GameError, Hardtack, Order, Question, Scenario, State};

use acw_hardtack::state::{CompanySpec, Condition, Formation};
use acw_hardtack::tables::ConfidenceLevel;

fn deployed(name: &str, side: Side, figures: usize, formation: Formation, at: Point) -> Deployed {
    let mut spec = CompanySpec::new(name, side, figures);
    spec.formation = formation;
    Deployed { spec, at }
}

/// Blue A (six figures in skirmish order, 12" wide) at `blue_a`, Blue B and Blue C in line far to the sides,
/// Grey A (eight in line) at `grey_a` and Grey B in line far off; with `wood`, a wood from y = 2 to y = 5.5
/// across x = 10..30.
fn scenario(blue_a: Point, grey_a: Point, wood: bool) -> Scenario {
    let terrain = if wood {
        vec![
            Terrain::woods(
                "the copse",
                vec![
                    Point::new(10.0, 2.0),
                    Point::new(30.0, 2.0),
                    Point::new(30.0, 5.5),
                    Point::new(10.0, 5.5),
                ],
            )
            .unwrap(),
        ]
    } else {
        vec![]
    };
    Scenario {
        name: "compelled".to_string(),
        turns: 3,
        table: Table::new(Inches(48.0), Inches(36.0), terrain).unwrap(),
        companies: vec![
            deployed("Blue A", Side::Union, 6, Formation::Skirmish, blue_a),
            deployed(
                "Blue B",
                Side::Union,
                8,
                Formation::Line,
                Point::new(43.0, 12.0),
            ),
            deployed(
                "Blue C",
                Side::Union,
                8,
                Formation::Line,
                Point::new(43.0, 16.0),
            ),
            deployed("Grey A", Side::Confederate, 8, Formation::Line, grey_a),
            deployed(
                "Grey B",
                Side::Confederate,
                8,
                Formation::Line,
                Point::new(43.0, 33.0),
            ),
        ],
        guns: Vec::new(),
        dummies: Vec::new(),
        colonels: Vec::new(),
        options: Options::default(),
    }
}

/// The game set up from `scenario` with Blue A at `level`, through a saved game.
fn with_level(scenario: &Scenario, level: ConfidenceLevel) -> State {
    let state = State::new(scenario, 1).unwrap();
    let mut v = serde_json::to_value(&state).unwrap();
    v["battle"]["companies"][0]["cl"] = serde_json::to_value(level).unwrap();
    serde_json::from_value(v).unwrap()
}

fn apply(
    state: &mut State,
    side: Side,
    order: Order,
    faces: &[u16],
) -> Result<Vec<Event>, GameError> {
    assert_eq!(Hardtack.owed(state).unwrap().side, side);
    let mut dice = ScriptedDice::faces(faces.to_vec());
    let mut log = Vec::new();
    Hardtack.apply_with(state, &order, &mut dice, &mut log)?;
    assert_eq!(dice.remaining(), 0, "{order:?} left dice unused");
    Ok(log)
}

fn centre(state: &State, id: u32) -> (f64, f64) {
    let c = state.field().footprint(CompanyId(id)).unwrap().centre;
    ((c.x * 1e6).round() / 1e6, (c.y * 1e6).round() / 1e6)
}

fn text(log: &[Event]) -> Vec<String> {
    log.iter().map(ToString::to_string).collect()
}

/// HT-SG2-17, HT-MOV-08: a Routed company activated runs toward its own baseline (the Union's is y = 0) by the
/// shortest route, a full move with each action: 6" from (20, 12) to (20, 6), then — the second move drawing
/// the other side's question of reaction fire, answered with none — as far as the table allows, 5" to (20, 1).
/// Its side is never asked what it does, and its activation then ends.
#[test]
fn ht_mov_08_a_routed_company_runs_toward_its_own_baseline() {
    let s = scenario(Point::new(20.0, 12.0), Point::new(20.0, 26.0), false);
    let mut state = with_level(&s, ConfidenceLevel::Routed);
    apply(
        &mut state,
        Side::Confederate,
        Order::GoFirst(Side::Union),
        &[],
    )
    .unwrap();
    let log = apply(&mut state, Side::Union, Order::Activate(CompanyId(0)), &[]).unwrap();
    assert_eq!(
        text(&log),
        vec![
            "Blue A activates.".to_string(),
            "Blue A is Routed: it runs 6\" toward its own baseline.".to_string(),
            "Blue A moves 6.0\".".to_string(),
            "Blue A is Routed: it runs 5\" toward its own baseline.".to_string(),
        ]
    );
    assert_eq!(centre(&state, 0), (20.0, 6.0));
    let d = Hardtack.owed(&state).unwrap();
    assert_eq!(d.side, Side::Confederate);
    assert!(matches!(d.question, Question::React { .. }));
    // a move of the Routed company is not the Union's to give while the question is open
    assert!(!state.check_order(
        Side::Union,
        &Order::Move {
            to: Point::new(20.0, 8.0)
        }
    ));
    let log = apply(&mut state, Side::Confederate, Order::React(None), &[]).unwrap();
    assert_eq!(centre(&state, 0), (20.0, 1.0));
    assert!(text(&log).contains(&"Blue A's activation ends.".to_string()));
    assert_eq!(state.active(), None);
    assert!(matches!(
        Hardtack.owed(&state).unwrap().question,
        Question::Activate { .. }
    ));
}

/// HT-SG2-48: a Routed company whose every way back (straight back, 45 degrees either side) closes on the enemy
/// surrenders to an enemy within 12": Blue A at (20, 8) with Grey A behind it at (20, 2) gives itself up to
/// Grey A, its six figures captured.
#[test]
fn ht_sg2_48_a_routed_company_cut_off_surrenders() {
    let s = scenario(Point::new(20.0, 8.0), Point::new(20.0, 2.0), false);
    let mut state = with_level(&s, ConfidenceLevel::Routed);
    apply(
        &mut state,
        Side::Confederate,
        Order::GoFirst(Side::Union),
        &[],
    )
    .unwrap();
    let log = apply(&mut state, Side::Union, Order::Activate(CompanyId(0)), &[]).unwrap();
    assert_eq!(
        text(&log)[1],
        "Blue A is Routed and cannot withdraw without closing on the enemy: it surrenders to Grey A."
    );
    let blue = state.battle().company(CompanyId(0)).unwrap();
    assert_eq!(blue.fit(), 0);
    assert!(
        blue.figures()
            .iter()
            .all(|f| f.condition == Condition::Captured)
    );
    assert_eq!(centre(&state, 0), (20.0, 8.0));
}

/// HT-SG2-48: with no enemy within 12" the cut-off company disperses instead: Blue A at (20, 16) stands 13"
/// from Grey A at (20, 2), footprint to footprint, with Grey A still behind it: every way back closes on
/// Grey A, and Blue A's figures are gone, not captured.
#[test]
fn ht_sg2_48_a_routed_company_cut_off_with_no_enemy_near_disperses() {
    let s = scenario(Point::new(20.0, 16.0), Point::new(20.0, 2.0), false);
    let mut state = with_level(&s, ConfidenceLevel::Routed);
    apply(
        &mut state,
        Side::Confederate,
        Order::GoFirst(Side::Union),
        &[],
    )
    .unwrap();
    let log = apply(&mut state, Side::Union, Order::Activate(CompanyId(0)), &[]).unwrap();
    assert_eq!(
        text(&log)[1],
        "Blue A is Routed and cannot withdraw without closing on the enemy; with no enemy within 12\" it disperses."
    );
    let blue = state.battle().company(CompanyId(0)).unwrap();
    assert!(
        blue.figures()
            .iter()
            .all(|f| f.condition == Condition::Dispersed)
    );
}

/// HT-SG2-17, HT-MOV-08: a Broken company in the open makes for the nearest cover without closing on the
/// enemy. Blue A at (20, 10); the nearest cover from Grey A is the copse, 5" straight back at (20, 5). A move
/// ending in the copse is poor going (twice the cost), so the first move goes the 4" to (20, 6) that its
/// allowance covers in the open, the second the last inch into the copse (after the other side's question of
/// reaction fire). Once there its side acts with it as it will.
#[test]
fn ht_sg2_17_a_broken_company_in_the_open_makes_for_the_nearest_cover() {
    let s = scenario(Point::new(20.0, 10.0), Point::new(20.0, 26.0), true);
    let mut state = with_level(&s, ConfidenceLevel::Broken);
    apply(
        &mut state,
        Side::Confederate,
        Order::GoFirst(Side::Union),
        &[],
    )
    .unwrap();
    let log = apply(&mut state, Side::Union, Order::Activate(CompanyId(0)), &[]).unwrap();
    assert_eq!(
        text(&log),
        vec![
            "Blue A activates.".to_string(),
            "Blue A is Broken and in the open: it makes for the nearest cover, 5\" away."
                .to_string(),
            "Blue A moves 4.0\".".to_string(),
            "Blue A is Broken and in the open: it makes for the nearest cover, 1\" away."
                .to_string(),
        ]
    );
    assert_eq!(centre(&state, 0), (20.0, 6.0));
    apply(&mut state, Side::Confederate, Order::React(None), &[]).unwrap();
    assert_eq!(centre(&state, 0), (20.0, 5.0));
    assert_eq!(state.active(), None);
}

/// HT-SG2-17: a Broken company already in cover is not moved; its side is asked what it does, and a move out
/// of the copse toward the enemy is refused as before.
#[test]
fn ht_sg2_17_a_broken_company_in_cover_is_its_sides_to_act() {
    let s = scenario(Point::new(20.0, 4.0), Point::new(20.0, 26.0), true);
    let mut state = with_level(&s, ConfidenceLevel::Broken);
    apply(
        &mut state,
        Side::Confederate,
        Order::GoFirst(Side::Union),
        &[],
    )
    .unwrap();
    let log = apply(&mut state, Side::Union, Order::Activate(CompanyId(0)), &[]).unwrap();
    assert_eq!(text(&log), vec!["Blue A activates.".to_string()]);
    assert!(matches!(
        Hardtack.owed(&state).unwrap().question,
        Question::Act { actions: 2, .. }
    ));
    assert!(!state.check_order(
        Side::Union,
        &Order::Move {
            to: Point::new(20.0, 9.0)
        }
    ));
    assert!(state.check_order(Side::Union, &Order::EndActivation));
}

/// HT-SG2-40: the loser of a melee falls back whatever level it is left at. Blue A (eight in line at (20, 10))
/// assaults Grey A (six in line at (20, 13)); Grey A stands (5 passes its stand test), Blue A's combat move
/// reaches it (D4 showed 2: 4" for the 2" between), and the melee goes against Grey A, which fails its test
/// and is left Steady with three fit figures. Its side is then asked which way it falls back; straight away
/// takes it 6" to (20, 19).
#[test]
fn ht_sg2_40_the_loser_of_a_melee_left_steady_falls_back() {
    let mut blue = CompanySpec::new("Blue A", Side::Union, 8);
    blue.formation = Formation::Line;
    let mut grey = CompanySpec::new("Grey A", Side::Confederate, 6);
    grey.formation = Formation::Line;
    let s = Scenario {
        name: "melee".to_string(),
        turns: 3,
        table: Table::new(Inches(48.0), Inches(36.0), vec![]).unwrap(),
        companies: vec![
            Deployed {
                spec: blue,
                at: Point::new(20.0, 10.0),
            },
            Deployed {
                spec: grey,
                at: Point::new(20.0, 13.0),
            },
        ],
        guns: Vec::new(),
        dummies: Vec::new(),
        colonels: Vec::new(),
        options: Options::default(),
    };
    let mut state = State::new(&s, 1).unwrap();
    apply(&mut state, Side::Union, Order::GoFirst(Side::Union), &[]).unwrap();
    apply(&mut state, Side::Union, Order::Activate(CompanyId(0)), &[]).unwrap();
    apply(
        &mut state,
        Side::Union,
        Order::Assault {
            defender: CompanyId(1),
        },
        &[2],
    )
    .unwrap();
    let log = apply(
        &mut state,
        Side::Confederate,
        Order::Defend {
            stand: true,
            final_fire: false,
        },
        &[
            5, 2, 2, 8, 1, 2, 4, 2, 7, 6, 8, 6, 3, 3, 4, 8, 5, 6, 3, 2, 6, 2, 4,
        ],
    )
    .unwrap();
    assert!(text(&log)[0].contains("melee: the defender falls back, losing one confidence level"));
    let grey = state.battle().company(CompanyId(1)).unwrap();
    assert_eq!(grey.confidence(), ConfidenceLevel::Steady);
    assert_eq!(grey.fit(), 3);
    let d = Hardtack.owed(&state).unwrap();
    assert_eq!(d.side, Side::Confederate);
    assert_eq!(
        d.question,
        Question::Withdraw {
            company: "Grey A".to_string(),
            from: "Blue A".to_string()
        }
    );
    assert_eq!(centre(&state, 1), (20.0, 13.0));
    let log = apply(
        &mut state,
        Side::Confederate,
        Order::Withdraw(acw_core::measure::Heading::NORTH),
        &[],
    )
    .unwrap();
    assert_eq!(
        text(&log)[0],
        "Grey A withdraws 6\" straight away from Blue A."
    );
    assert_eq!(centre(&state, 1), (20.0, 19.0));
}

/// HT-SG2-17: a Broken company in cover leaves it only to withdraw further from every enemy. Blue A stands in
/// the copse at (27, 4); a 2" move east to (31, 4) takes it out of the copse farther from Grey A but nearer
/// Grey B, and is refused with the reason, changing nothing; a 3" move back to (27, 1), out of the copse and
/// farther from both, is made.
#[test]
fn ht_sg2_17_a_broken_company_leaves_cover_only_to_withdraw_further() {
    let s = scenario(Point::new(27.0, 4.0), Point::new(20.0, 26.0), true);
    let mut state = with_level(&s, ConfidenceLevel::Broken);
    apply(
        &mut state,
        Side::Confederate,
        Order::GoFirst(Side::Union),
        &[],
    )
    .unwrap();
    apply(&mut state, Side::Union, Order::Activate(CompanyId(0)), &[]).unwrap();
    let before = state.clone();
    let err = apply(
        &mut state,
        Side::Union,
        Order::Move {
            to: Point::new(31.0, 4.0),
        },
        &[],
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Blue A cannot move there: a Broken company leaves cover only to withdraw further from every enemy"
    );
    assert_eq!(state, before);
    apply(
        &mut state,
        Side::Union,
        Order::Move {
            to: Point::new(27.0, 1.0),
        },
        &[],
    )
    .unwrap();
    assert_eq!(centre(&state, 0), (27.0, 1.0));
}

/// HT-MOV-08, HT-MOV-07: a Routed company takes the shortest route back even through a friendly company in
/// close formation, which it disorders. Blue A, Routed at (20, 12), has Blue B (eight in line) 4" straight
/// behind it at (20, 8): it runs its full 6" straight back to (20, 6), through Blue B, which falls into
/// skirmish order; it does not go round. Blue B in skirmish order no longer blocks Grey A's fire (HT-FIR-23):
/// Grey A is asked whether it gives reaction fire through it, and declines; Blue A's second action takes it 5"
/// on to (20, 1).
#[test]
fn ht_mov_08_a_routed_company_runs_through_a_friendly_close_formation() {
    let mut s = scenario(Point::new(20.0, 12.0), Point::new(20.0, 26.0), false);
    s.companies[1].at = Point::new(20.0, 8.0);
    let mut state = with_level(&s, ConfidenceLevel::Routed);
    apply(
        &mut state,
        Side::Confederate,
        Order::GoFirst(Side::Union),
        &[],
    )
    .unwrap();
    let log = apply(&mut state, Side::Union, Order::Activate(CompanyId(0)), &[]).unwrap();
    assert_eq!(
        text(&log)[..4],
        [
            "Blue A activates.".to_string(),
            "Blue A is Routed: it runs 6\" toward its own baseline.".to_string(),
            "Blue A moves 6.0\".".to_string(),
            "Blue A passes through Blue B, which is disordered into skirmish order.".to_string(),
        ]
    );
    // Blue B, now in skirmish order, no longer blocks Grey A's sight: Grey A may fire through it (HT-FIR-23)
    // before Blue A's second move
    assert_eq!(
        Hardtack.owed(&state).unwrap().question,
        Question::React {
            mover: "Blue A".to_string()
        }
    );
    assert_eq!(
        state
            .fire_facts(CompanyId(3), CompanyId(0))
            .unwrap()
            .through,
        Some(CompanyId(1))
    );
    let log = apply(&mut state, Side::Confederate, Order::React(None), &[]).unwrap();
    assert_eq!(text(&log)[1], "Blue A moves 5.0\".");
    assert_eq!(centre(&state, 0), (20.0, 1.0));
    assert_eq!(
        state.battle().company(CompanyId(1)).unwrap().formation(),
        Formation::Skirmish
    );
    // Blue C, in line far off to the side, is untouched
    assert_eq!(
        state.battle().company(CompanyId(2)).unwrap().formation(),
        Formation::Line
    );
}
