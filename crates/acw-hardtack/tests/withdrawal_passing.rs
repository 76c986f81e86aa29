//! Withdrawals and falls back traced on the table (HT-MOV-07, HT-MOV-08, HT-SG2-36, HT-SG2-40): a way the
//! withdrawing side chooses that would touch an enemy, or take a close formation through another, is a
//! refused answer, and the listing of usual ways and `check_order` agree; a fall back the engine plays takes
//! the straight way back as far as it is open, a Routed company passing through a friendly close formation
//! and disordering it. Scripted dice, positions pinned.
#![allow(clippy::unwrap_used, clippy::expect_used)]
mod common;
use acw_core::Side;
use acw_core::dice::ScriptedDice;
use acw_core::game::Ruleset;
use acw_core::measure::{Heading, Inches};
use acw_core::table::Table;
use acw_hardtack::CompanyId;
use acw_hardtack::Options;
use acw_hardtack::game::{Deployed, Event, GameError, Hardtack, Order, Question, Scenario, State};
use acw_hardtack::state::Formation;
use acw_hardtack::tables::ConfidenceLevel;
use common::deployed;

/// Blue A (eight in line, 8" wide) at (20, 10) assaults Grey A (eight in line) at (20, 14), at `level`;
/// `behind` stands in Grey A's way back (straight away is north, up the table); Grey C and Grey D far off.
fn state(level: ConfidenceLevel, behind: Deployed) -> State {
    let s = Scenario {
        name: "withdrawal".to_string(),
        turns: 3,
        table: Table::new(Inches(48.0), Inches(36.0), vec![]).unwrap(),
        companies: vec![
            deployed("Blue A", Side::Union, 8, Formation::Line, (20.0, 10.0)),
            deployed(
                "Grey A",
                Side::Confederate,
                8,
                Formation::Line,
                (20.0, 14.0),
            ),
            behind,
            // two more Confederate companies far off, so that one Broken company does not end the game
            deployed(
                "Grey C",
                Side::Confederate,
                8,
                Formation::Line,
                (40.0, 32.0),
            ),
            deployed("Grey D", Side::Confederate, 8, Formation::Line, (8.0, 32.0)),
        ],
        guns: Vec::new(),
        dummies: Vec::new(),
        colonels: Vec::new(),
        options: Options::default(),
    };
    let state = State::new(&s, 1).unwrap();
    let mut v = serde_json::to_value(&state).unwrap();
    v["battle"]["companies"][1]["cl"] = serde_json::to_value(level).unwrap();
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

fn formation(state: &State, id: u32) -> Formation {
    state.battle().company(CompanyId(id)).unwrap().formation()
}

fn text(log: &[Event]) -> Vec<String> {
    log.iter().map(ToString::to_string).collect()
}

/// Blue A declares its assault (the test die shows 8) and Grey A chooses to withdraw: the game waits for
/// Grey A's side to choose its way.
fn withdrawing(behind: Deployed) -> State {
    let mut s = state(ConfidenceLevel::Steady, behind);
    let chooser = Hardtack.owed(&s).unwrap().side;
    apply(&mut s, chooser, Order::GoFirst(Side::Union), &[]).unwrap();
    apply(&mut s, Side::Union, Order::Activate(CompanyId(0)), &[]).unwrap();
    apply(
        &mut s,
        Side::Union,
        Order::Assault {
            defender: CompanyId(1),
        },
        &[8],
    )
    .unwrap();
    apply(
        &mut s,
        Side::Confederate,
        Order::Defend {
            stand: false,
            final_fire: false,
        },
        &[],
    )
    .unwrap();
    assert!(matches!(
        Hardtack.owed(&s).unwrap().question,
        Question::Withdraw { .. }
    ));
    s
}

fn ways(s: &State) -> Vec<f64> {
    s.withdrawals().iter().map(|h| h.as_degrees()).collect()
}

/// A withdrawal the engine must refuse: the check and the listing agree, and nothing changes.
fn refused(s: &mut State, heading: Heading) -> String {
    let order = Order::Withdraw(heading);
    assert!(!s.check_order(Side::Confederate, &order));
    assert!(!s.withdrawals().contains(&heading));
    let before = s.clone();
    let why = apply(s, Side::Confederate, order, &[])
        .unwrap_err()
        .to_string();
    assert_eq!(*s, before);
    why
}

/// HT-MOV-07, HT-SG2-36: Blue B (two in skirmish order, x 18 to 22) stands at (20, 17), 3" behind Grey A.
/// Straight away north, 6" to (20, 20), ends on free ground but Grey A's footprint would sweep over Blue B,
/// an enemy; 4" and 2" end on ground Blue B takes. The way is refused with the reason and changes nothing;
/// the listing leaves it out. 90 degrees off, east, is open: 6" to (26, 14).
#[test]
fn ht_mov_07_a_withdrawal_may_not_pass_through_an_enemy() {
    let mut s = withdrawing(deployed(
        "Blue B",
        Side::Union,
        2,
        Formation::Skirmish,
        (20.0, 17.0),
    ));
    let why = refused(&mut s, Heading::NORTH);
    assert!(why.contains("it would touch Blue B on its way"), "{why}");
    let listed = ways(&s);
    assert!(!listed.contains(&0.0), "{listed:?}");
    assert!(listed.contains(&90.0), "{listed:?}");
    let log = apply(
        &mut s,
        Side::Confederate,
        Order::Withdraw(Heading::EAST),
        &[],
    )
    .unwrap();
    assert_eq!(
        text(&log),
        vec![
            "Grey A withdraws 6\" away from Blue A, 90 degrees off the straight line back."
                .to_string(),
            "Blue A's activation ends.".to_string(),
        ]
    );
    assert_eq!(centre(&s, 1), (26.0, 14.0));
}

/// HT-MOV-07, HT-SG2-36: Grey B (eight in line) at (20, 17): Grey A, Steady and in line, may not withdraw
/// north through it (a close formation through another), and 4" and 2" end on Grey B's ground: refused.
/// With Grey B in skirmish order (two figures) Grey A withdraws through it, 6" to (20, 20), and is disordered
/// into skirmish order; Grey B, in skirmish order already, is not.
#[test]
fn ht_mov_07_a_withdrawal_passes_friends_per_formation() {
    let mut s = withdrawing(deployed(
        "Grey B",
        Side::Confederate,
        8,
        Formation::Line,
        (20.0, 17.0),
    ));
    let why = refused(&mut s, Heading::NORTH);
    assert!(
        why.contains("a close formation may not pass through another"),
        "{why}"
    );
    assert_eq!(formation(&s, 1), Formation::Line);

    let mut s = withdrawing(deployed(
        "Grey B",
        Side::Confederate,
        2,
        Formation::Skirmish,
        (20.0, 17.0),
    ));
    assert_eq!(ways(&s)[0], 0.0);
    assert!(s.check_order(Side::Confederate, &Order::Withdraw(Heading::NORTH)));
    let log = apply(
        &mut s,
        Side::Confederate,
        Order::Withdraw(Heading::NORTH),
        &[],
    )
    .unwrap();
    assert_eq!(
        text(&log),
        vec![
            "Grey A withdraws 6\" straight away from Blue A.".to_string(),
            "Grey A passes through Grey B and is disordered into skirmish order.".to_string(),
            "Blue A's activation ends.".to_string(),
        ]
    );
    assert_eq!(centre(&s, 1), (20.0, 20.0));
    assert_eq!(formation(&s, 1), Formation::Skirmish);
    assert_eq!(formation(&s, 2), Formation::Skirmish);
}

/// Grey A, Broken, is assaulted by Blue A (the test die shows 8); its side's answer makes no difference: it
/// drops to Routed and falls back with no choice (HT-SG2-36). Returns the events of the answer.
fn routed_fall_back(behind: Deployed) -> (State, Vec<String>) {
    let mut s = state(ConfidenceLevel::Broken, behind);
    let chooser = Hardtack.owed(&s).unwrap().side;
    apply(&mut s, chooser, Order::GoFirst(Side::Union), &[]).unwrap();
    apply(&mut s, Side::Union, Order::Activate(CompanyId(0)), &[]).unwrap();
    apply(
        &mut s,
        Side::Union,
        Order::Assault {
            defender: CompanyId(1),
        },
        &[8],
    )
    .unwrap();
    let log = apply(
        &mut s,
        Side::Confederate,
        Order::Defend {
            stand: true,
            final_fire: false,
        },
        &[],
    )
    .unwrap();
    (s, text(&log))
}

/// HT-MOV-08, HT-MOV-07, HT-SG2-36: Grey A, Routed, falls back the rules' way, straight away from Blue A
/// (north). Grey B (eight in line) at (20, 17) is in the way: a Routed company passes even a friendly close
/// formation, so Grey A goes the whole 6" to (20, 20) through Grey B, which is disordered into skirmish order
/// (Grey A, routing, is in skirmish order already).
#[test]
fn ht_mov_08_a_routed_fall_back_passes_a_friendly_close_formation() {
    let (s, log) = routed_fall_back(deployed(
        "Grey B",
        Side::Confederate,
        8,
        Formation::Line,
        (20.0, 17.0),
    ));
    assert_eq!(
        log,
        vec![
            "Grey A was Broken: it routs and withdraws.".to_string(),
            "Grey A passes through Grey B, which is disordered into skirmish order.".to_string(),
            "Blue A's activation ends.".to_string(),
        ]
    );
    assert_eq!(centre(&s, 1), (20.0, 20.0));
    assert_eq!(formation(&s, 1), Formation::Skirmish);
    assert_eq!(formation(&s, 2), Formation::Skirmish);
}

/// HT-MOV-07, HT-SG2-36: with Blue B (two in skirmish order, x 18 to 22) at (20, 18) in the way back instead,
/// the 6" step would sweep over an enemy and the 4" step ends on its ground: Grey A falls back the 2" that are
/// open, to (20, 16), short of Blue B.
#[test]
fn ht_mov_07_a_fall_back_stops_short_of_an_enemy_in_the_way() {
    let (s, log) = routed_fall_back(deployed(
        "Blue B",
        Side::Union,
        2,
        Formation::Skirmish,
        (20.0, 18.0),
    ));
    assert_eq!(
        log,
        vec![
            "Grey A was Broken: it routs and withdraws.".to_string(),
            "Blue A's activation ends.".to_string(),
        ]
    );
    assert_eq!(centre(&s, 1), (20.0, 16.0));
}
