//! Riders unhorsed in a close-formation cavalry company (HT-FRM-06) as a decision of the company's side: the
//! game pauses when the company is active, asks what it does with them, refuses every other order until it
//! answers, and plays the answer; the bots answer it.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use acw_core::Side;
use acw_core::dice::ScriptedDice;
use acw_core::game::{Commander, Ruleset};
use acw_core::measure::{Inches, Point};
use acw_core::table::Table;
use acw_hardtack::bots::{Holder, Thruster};
use acw_hardtack::game::{Deployed, Event, GameError, Hardtack, Order, Question, Scenario, State};
use acw_hardtack::state::{CompanySpec, Condition, Formation, UnhorsedChoice};
use acw_hardtack::{CompanyId, Options};

const TROOP: CompanyId = CompanyId(0);

/// The Union's 1st Ohio Cavalry, Troop A (six mounted in line at (20, 6): 6" wide) and a Confederate line far
/// off at (20, 30); riders 4 and 5 of the troop unhorsed (through a saved game, as fire would leave them).
fn unhorsed_game() -> State {
    let mut troop = CompanySpec::new("1st Ohio Cavalry, Troop A", Side::Union, 6);
    troop.formation = Formation::Line;
    troop.cavalry = Some(true);
    let mut grey = CompanySpec::new("Grey line", Side::Confederate, 8);
    grey.formation = Formation::Line;
    let s = Scenario {
        name: "unhorsed".to_string(),
        turns: 3,
        table: Table::new(Inches(48.0), Inches(36.0), vec![]).unwrap(),
        companies: vec![
            Deployed {
                spec: troop,
                at: Point::new(20.0, 6.0),
            },
            Deployed {
                spec: grey,
                at: Point::new(20.0, 30.0),
            },
        ],
        guns: Vec::new(),
        dummies: Vec::new(),
        colonels: Vec::new(),
        options: Options::default(),
    };
    let state = State::new(&s, 1).unwrap();
    let mut v = serde_json::to_value(&state).unwrap();
    for i in [4, 5] {
        v["battle"]["companies"][0]["figures"][i]["unhorsed"] = serde_json::Value::Bool(true);
    }
    let mut state: State = serde_json::from_value(v).unwrap();
    apply(&mut state, Order::GoFirst(Side::Union), &[]).unwrap();
    apply(&mut state, Order::Activate(TROOP), &[]).unwrap();
    state
}

fn apply(state: &mut State, order: Order, faces: &[u16]) -> Result<Vec<Event>, GameError> {
    let mut dice = ScriptedDice::faces(faces.to_vec());
    let mut log = Vec::new();
    Hardtack.apply_with(state, &order, &mut dice, &mut log)?;
    Ok(log)
}

/// HT-FRM-06: activated, the troop's side is asked about its two riders on foot before anything else; a move
/// or the other side's answer is refused and changes nothing. Removing them as casualties costs no action:
/// the troop keeps its two actions, its line and its width, with four fit riders.
#[test]
fn ht_frm_06_the_side_is_asked_and_removing_them_costs_no_action() {
    let mut state = unhorsed_game();
    let d = Hardtack.owed(&state).unwrap();
    assert_eq!(d.side, Side::Union);
    assert_eq!(
        d.question.to_string(),
        "1st Ohio Cavalry, Troop A has 2 riders on foot in its close formation: does it reorganise into skirmish order, make them a detached element, or remove them as casualties?"
    );
    assert!(matches!(d.question, Question::Unhorsed { riders: 2, .. }));
    let before = state.clone();
    assert!(
        apply(
            &mut state,
            Order::Move {
                to: Point::new(20.0, 8.0)
            },
            &[]
        )
        .is_err()
    );
    assert!(!state.check_order(Side::Confederate, &Order::Unhorsed(UnhorsedChoice::Remove)));
    assert_eq!(state, before);
    let log = apply(&mut state, Order::Unhorsed(UnhorsedChoice::Remove), &[]).unwrap();
    assert_eq!(
        log[0].to_string(),
        "1st Ohio Cavalry, Troop A, with 2 riders on foot, removes the riders as if they were casualties."
    );
    let c = state.battle().company(TROOP).unwrap();
    assert_eq!(
        (c.fit(), c.actions_left(), c.formation()),
        (4, 2, Formation::Line)
    );
    assert_eq!(
        c.figures()
            .iter()
            .filter(|f| f.condition == Condition::Fit && f.unhorsed)
            .count(),
        0
    );
    assert!(matches!(
        Hardtack.owed(&state).unwrap().question,
        Question::Act { actions: 2, .. }
    ));
}

/// HT-FRM-06: reorganising into skirmish order takes one action and widens the troop to 12" (2" a figure);
/// making the riders a detached element takes one action and puts a new company of two, 4" wide, 2" behind
/// the troop's centre, at (20, 4).
#[test]
fn ht_frm_06_skirmish_order_or_a_detached_element() {
    let mut state = unhorsed_game();
    apply(&mut state, Order::Unhorsed(UnhorsedChoice::Skirmish), &[]).unwrap();
    let c = state.battle().company(TROOP).unwrap();
    assert_eq!(
        (c.fit(), c.actions_left(), c.formation()),
        (6, 1, Formation::Skirmish)
    );
    assert_eq!(state.field().footprint(TROOP).unwrap().frontage.0, 12.0);

    let mut state = unhorsed_game();
    apply(&mut state, Order::Unhorsed(UnhorsedChoice::Detach), &[]).unwrap();
    let c = state.battle().company(TROOP).unwrap();
    assert_eq!(
        (c.fit(), c.actions_left(), c.formation()),
        (4, 1, Formation::Line)
    );
    let el = CompanyId(2);
    assert_eq!(state.battle().company(el).unwrap().fit(), 2);
    let fp = state.field().footprint(el).unwrap();
    assert_eq!((fp.centre, fp.frontage.0), (Point::new(20.0, 4.0), 4.0));
    // the game with its new company saves and loads as it is
    let back: State = serde_json::from_str(&serde_json::to_string(&state).unwrap()).unwrap();
    assert_eq!(back, state);
}

/// HT-FRM-06: the bots answer the question with an order the engine accepts: the thruster removes the riders,
/// the holder makes them a detached element.
#[test]
fn ht_frm_06_the_bots_answer() {
    let state = unhorsed_game();
    let t = Thruster::new(1).order(&Hardtack, &state, Side::Union);
    assert_eq!(t, Order::Unhorsed(UnhorsedChoice::Remove));
    let h = Holder::new(1).order(&Hardtack, &state, Side::Union);
    assert_eq!(h, Order::Unhorsed(UnhorsedChoice::Detach));
    assert!(state.check_order(Side::Union, &t) && state.check_order(Side::Union, &h));
}
