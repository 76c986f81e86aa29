//! Regimental command on the table: colonels deployed by a scenario, Activate Regiment played in its two waves,
//! transfers of actions, the colonel following his regiment, and saves in the middle of a regiment's
//! activation, and a colonel shot on the table: his formation's tests and his successor.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use acw_core::Side;
use acw_core::dice::{Scripted, ScriptedDice};
use acw_core::game::Ruleset;
use acw_core::measure::{Inches, Point};
use acw_core::table::Table;
use acw_hardtack::CompanyId;
use acw_hardtack::game::{
    Deployed, DeployedColonel, Event, GameError, GameSetupError, Hardtack, Order, Question,
    Scenario, State,
};
use acw_hardtack::options::TransferGrants;
use acw_hardtack::prelude::{ConfidenceLevel, Leadership, Quality};
use acw_hardtack::state::{CompanySpec, Formation};
use acw_hardtack::{Options, RuleViolation};

/// Union companies of regiment 1 (each name, formation and centre), their colonel at `colonel`, and one
/// Confederate company far off at the other end of an open 48" × 36" table.
fn scenario(companies: &[(&str, Formation, Point)], colonel: Point) -> Scenario {
    let mut deployed: Vec<Deployed> = companies
        .iter()
        .map(|(name, formation, at)| {
            let mut spec = CompanySpec::new(name, Side::Union, 4);
            spec.formation = *formation;
            spec.regiment = Some(1);
            Deployed { spec, at: *at }
        })
        .collect();
    deployed.push(Deployed {
        spec: CompanySpec::new("Company Z", Side::Confederate, 4),
        at: Point::new(24.0, 33.0),
    });
    Scenario {
        name: "regiment".to_string(),
        turns: 5,
        table: Table::new(Inches(48.0), Inches(36.0), Vec::new()).unwrap(),
        companies: deployed,
        guns: Vec::new(),
        dummies: Vec::new(),
        colonels: vec![DeployedColonel {
            name: "Colonel Hayes".to_string(),
            side: Side::Union,
            regiment: 1,
            at: colonel,
        }],
        options: Options::default(),
    }
}

/// The colonel's id: raised after every company of the scenario.
fn colonel(s: &Scenario) -> CompanyId {
    CompanyId(s.companies.len() as u32)
}

fn apply(state: &mut State, order: Order, log: &mut Vec<Event>) {
    Hardtack
        .apply(state, &order, log)
        .unwrap_or_else(|e| panic!("{order:?} refused: {e}"));
}

/// The order is refused, and nothing changes: state (dice included) and log.
fn refused(state: &State, order: Order) -> GameError {
    let mut copy = state.clone();
    let mut log = Vec::new();
    assert!(!state.check_order(Side::Union, &order), "{order:?}");
    let e = Hardtack.apply(&mut copy, &order, &mut log).unwrap_err();
    assert_eq!(&copy, state);
    assert!(log.is_empty());
    e
}

/// The Union side to act first (the Confederates, with fewer units, choose).
fn union_first(s: &Scenario) -> (State, Vec<Event>) {
    let mut state = State::new(s, 3).unwrap();
    let mut log = Vec::new();
    assert_eq!(state.decision().unwrap().side, Side::Confederate);
    apply(&mut state, Order::GoFirst(Side::Union), &mut log);
    (state, log)
}

/// Moves the acting company; the enemy lets a second move go by without reaction fire.
fn move_to(state: &mut State, x: f64, y: f64, log: &mut Vec<Event>) {
    apply(
        state,
        Order::Move {
            to: Point::new(x, y),
        },
        log,
    );
    if matches!(
        state.decision().map(|d| d.question),
        Some(Question::React { .. })
    ) {
        apply(state, Order::React(None), log);
    }
}

fn wave(state: &State) -> Option<u8> {
    match state.decision()?.question {
        Question::Regiment { wave, .. } => Some(wave),
        _ => None,
    }
}

fn centre(state: &State, id: CompanyId) -> Point {
    state.field().footprint(id).unwrap().centre
}

// HT-SEQ-03, HT-SEQ-04, HT-CMD-03, HT-GEN-04: the colonel spends both actions on Activate Regiment; every chosen
// company takes its first action, one at a time in the order the player picks, before any takes its second; a
// company that has taken its action of the wave is refused until the next; the markers flip with the
// colonel's at the end, and the colonel moves with his formation by the mean of its companies' moves.
#[test]
fn activate_regiment_in_two_waves() {
    let s = scenario(
        &[
            ("Company A", Formation::Line, Point::new(19.0, 6.0)),
            ("Company B", Formation::Line, Point::new(29.0, 6.0)),
            ("Company C", Formation::Line, Point::new(40.0, 6.0)),
        ],
        Point::new(24.0, 4.0),
    );
    let (a, b, c, col) = (CompanyId(0), CompanyId(1), CompanyId(2), colonel(&s));
    let (mut state, mut log) = union_first(&s);
    apply(
        &mut state,
        Order::ActivateRegiment {
            companies: vec![a, b],
        },
        &mut log,
    );
    assert_eq!(state.battle().company(col).unwrap().actions_left(), 0);
    for id in [a, b] {
        assert_eq!(state.battle().company(id).unwrap().actions_left(), 2);
    }
    assert!(!state.battle().company(c).unwrap().activated());
    assert_eq!(
        log.last().unwrap().to_string(),
        "Colonel Hayes activates his regiment: Company A and Company B each take two actions, every first action before any second."
    );
    assert_eq!(wave(&state), Some(1));
    assert_eq!(
        state.decision().unwrap().question.to_string(),
        "which company of Colonel Hayes's regiment takes its first action now?"
    );
    // C is not in the formation
    refused(&state, Order::Activate(c));
    // wave 1: B first, then A
    apply(&mut state, Order::Activate(b), &mut log);
    assert_eq!(state.active(), Some(b));
    move_to(&mut state, 29.0, 8.0, &mut log);
    assert_eq!(state.battle().company(b).unwrap().actions_left(), 1);
    assert_eq!(state.active(), None);
    assert_eq!(wave(&state), Some(1));
    let e = refused(&state, Order::Activate(b));
    assert_eq!(
        e.to_string(),
        "Company B is not a company of the regiment still to take its first action"
    );
    apply(&mut state, Order::Activate(a), &mut log);
    move_to(&mut state, 19.0, 8.0, &mut log);
    // wave 2: every first action taken
    assert_eq!(wave(&state), Some(2));
    apply(&mut state, Order::Activate(a), &mut log);
    move_to(&mut state, 19.0, 10.0, &mut log);
    assert_eq!(wave(&state), Some(2));
    refused(&state, Order::Activate(a));
    apply(&mut state, Order::Activate(b), &mut log);
    move_to(&mut state, 29.0, 10.0, &mut log);
    let said: Vec<String> = log
        .iter()
        .filter(|e| matches!(e, Event::WaveAction { .. }))
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        said,
        [
            "Company B takes its first action in the regiment's activation.",
            "Company A takes its first action in the regiment's activation.",
            "Company A takes its second action in the regiment's activation.",
            "Company B takes its second action in the regiment's activation.",
        ]
    );
    // HT-CMD-03: both companies moved 4" forward; so does the colonel, keeping his place behind them
    let moved = centre(&state, col);
    assert!(
        (moved.x - 24.0).abs() < 1e-9 && (moved.y - 8.0).abs() < 1e-9,
        "{moved:?}"
    );
    assert!(log.iter().any(
        |e| matches!(e, Event::ColonelFollowed { distance, .. } if (distance - 4.0).abs() < 1e-9)
    ));
    assert!(matches!(log.last(), Some(Event::ActivationEnded(n)) if n == "Colonel Hayes"));
    // the Confederates activate next; the colonel's and both companies' activations are spent
    assert_eq!(state.decision().unwrap().side, Side::Confederate);
    for id in [a, b, col] {
        let x = state.battle().company(id).unwrap();
        assert!(x.activated() && x.actions_left() == 0);
    }
}

// HT-FRM-07, HT-SEQ-03, HT-GEN-04: a company whose centre is 6.1" from the colonel's is refused, at 5.9" it is
// accepted; a company in skirmish order, a Broken one, one already activated, a single company, a company of
// another regiment: refused, changing nothing.
#[test]
fn formation_conditions_on_the_table() {
    let at = |d: f64| {
        scenario(
            &[
                ("Company A", Formation::Line, Point::new(24.0 - d, 4.0)),
                ("Company B", Formation::Line, Point::new(24.0, 8.0)),
                ("Company C", Formation::Skirmish, Point::new(34.0, 4.0)),
            ],
            Point::new(24.0, 4.0),
        )
    };
    let (a, b, c) = (CompanyId(0), CompanyId(1), CompanyId(2));
    let both = Order::ActivateRegiment {
        companies: vec![a, b],
    };
    let (far, _) = union_first(&at(6.1));
    let e = refused(&far, both.clone());
    assert!(e.to_string().contains("within 6 inches"), "{e}");
    let (near, _) = union_first(&at(5.9));
    assert!(near.check_order(Side::Union, &both));
    let e = refused(
        &near,
        Order::ActivateRegiment {
            companies: vec![b, c],
        },
    );
    assert!(e.to_string().contains("line or column"), "{e}");
    refused(&near, Order::ActivateRegiment { companies: vec![b] });
    refused(&near, Order::ActivateRegiment { companies: vec![] });
    refused(
        &near,
        Order::ActivateRegiment {
            companies: vec![a, a],
        },
    );
    // the Confederate company is of no regiment of the Union colonel
    refused(
        &near,
        Order::ActivateRegiment {
            companies: vec![a, CompanyId(3)],
        },
    );
    // a Broken company (made so in a saved game) is refused
    let mut v = serde_json::to_value(&near).unwrap();
    v["battle"]["companies"][1]["cl"] = serde_json::json!("Broken");
    let broken: State = serde_json::from_value(v).unwrap();
    let e = refused(&broken, both.clone());
    assert!(e.to_string().contains("Broken"), "{e}");
    // a company that has activated on its own is refused
    let mut state = near.clone();
    let mut log = Vec::new();
    apply(&mut state, Order::Activate(a), &mut log);
    apply(&mut state, Order::EndActivation, &mut log);
    apply(&mut state, Order::Activate(CompanyId(3)), &mut log);
    apply(&mut state, Order::EndActivation, &mut log);
    let e = refused(&state, both);
    assert!(e.to_string().contains("already activated"), "{e}");
}

// HT-CMD-01, HT-INT-17, HT-SG2-05, HT-GEN-04: the colonel, activated on his own, transfers one action to a
// company within 6" (centre to centre) that has already activated: it takes a fresh activation of two actions
// at once, then the colonel goes on with his last action; beyond 6" refused; his second transfer spends his
// last action, so at most two a turn; only a colonel transfers; under `transfer_grants = SingleAction` the
// receiver takes the one action given.
#[test]
fn transfers_on_the_table() {
    for grants in [TransferGrants::FullActivation, TransferGrants::SingleAction] {
        let mut s = scenario(
            &[
                ("Company A", Formation::Line, Point::new(24.0 - 5.9, 4.0)),
                ("Company B", Formation::Line, Point::new(24.0 + 6.1, 4.0)),
            ],
            Point::new(24.0, 4.0),
        );
        s.options.transfer_grants = grants;
        let given = if grants == TransferGrants::FullActivation {
            2
        } else {
            1
        };
        let (a, b, col, z) = (CompanyId(0), CompanyId(1), colonel(&s), CompanyId(2));
        let (mut state, mut log) = union_first(&s);
        apply(&mut state, Order::Activate(a), &mut log);
        // a company is no commander
        let e = refused(&state, Order::Transfer { to: b });
        assert!(e.to_string().contains("only a colonel"), "{e}");
        apply(&mut state, Order::EndActivation, &mut log);
        apply(&mut state, Order::Activate(z), &mut log);
        apply(&mut state, Order::EndActivation, &mut log);
        apply(&mut state, Order::Activate(col), &mut log);
        // the colonel does not fire
        refused(&state, Order::Fire { target: z });
        // B stands 6.1" away
        let e = refused(&state, Order::Transfer { to: b });
        assert!(
            matches!(e, GameError::Rules(RuleViolation::Refused { .. })),
            "{e}"
        );
        assert!(e.to_string().contains("within 6 inches"), "{e}");
        // A, 5.9" away, has activated and takes a fresh activation
        apply(&mut state, Order::Transfer { to: a }, &mut log);
        assert_eq!(state.active(), Some(a));
        assert_eq!(
            state.battle().company(a).unwrap().actions_left(),
            given,
            "{grants:?}"
        );
        assert_eq!(
            log.last().unwrap().to_string(),
            format!(
                "Colonel Hayes transfers an action to Company A, 5.9\" away: it takes a fresh activation of {}.",
                if given == 2 {
                    "two actions"
                } else {
                    "one action"
                }
            )
        );
        move_to(&mut state, 18.5, 4.0, &mut log);
        if given == 2 {
            apply(&mut state, Order::EndActivation, &mut log);
        }
        // back to the colonel, his one action left
        assert_eq!(state.active(), Some(col));
        assert_eq!(state.battle().company(col).unwrap().actions_left(), 1);
        apply(&mut state, Order::Transfer { to: a }, &mut log);
        apply(&mut state, Order::EndActivation, &mut log);
        // two transfers spent both his actions: his activation is over
        assert_eq!(state.active(), None);
        assert_eq!(state.battle().company(col).unwrap().actions_left(), 0);
        let transfers = log
            .iter()
            .filter(|e| matches!(e, Event::Transferred { .. }))
            .count();
        assert_eq!(transfers, 2);
    }
}

// HT-SEQ-04, HT-SEQ-03: a game saved between two companies' first actions loads as it was and goes on alike;
// a save whose regimental activation names a third wave, or a company of no regiment, is refused.
#[test]
fn save_and_load_mid_regiment() {
    let s = scenario(
        &[
            ("Company A", Formation::Line, Point::new(19.0, 6.0)),
            ("Company B", Formation::Line, Point::new(29.0, 6.0)),
        ],
        Point::new(24.0, 4.0),
    );
    let (a, b) = (CompanyId(0), CompanyId(1));
    let (mut state, mut log) = union_first(&s);
    apply(
        &mut state,
        Order::ActivateRegiment {
            companies: vec![a, b],
        },
        &mut log,
    );
    apply(&mut state, Order::Activate(a), &mut log);
    move_to(&mut state, 19.0, 8.0, &mut log);
    let json = serde_json::to_string(&state).unwrap();
    let mut back: State = serde_json::from_str(&json).unwrap();
    assert_eq!(back, state);
    assert_eq!(wave(&back), Some(1));
    let (mut l1, mut l2) = (Vec::new(), Vec::new());
    for order in [
        Order::Activate(b),
        Order::Move {
            to: Point::new(29.0, 8.0),
        },
        Order::Activate(b),
        Order::EndActivation,
        Order::Activate(a),
        Order::EndActivation,
    ] {
        apply(&mut state, order.clone(), &mut l1);
        apply(&mut back, order, &mut l2);
    }
    assert_eq!(l1, l2);
    assert_eq!(back, state);
    assert!(matches!(l1.last(), Some(Event::ActivationEnded(n)) if n == "Colonel Hayes"));
    // broken saves
    let v = serde_json::from_str::<serde_json::Value>(&json).unwrap();
    let mut third = v.clone();
    third["regiment"]["wave"] = serde_json::json!(3);
    assert!(serde_json::from_value::<State>(third).is_err());
    let mut stranger = v;
    stranger["regiment"]["colonel"] = serde_json::json!(0);
    assert!(serde_json::from_value::<State>(stranger).is_err());
}

// Colonels are checked on load: one of a regiment with no company on his side, a second for one regiment, or
// one standing on a company's ground is refused with its error; the default scenario has one a side, within 6"
// of the two middle companies of his line.
#[test]
fn colonels_are_checked() {
    let s = scenario(
        &[("Company A", Formation::Line, Point::new(19.0, 6.0))],
        Point::new(24.0, 4.0),
    );
    let mut lonely = s.clone();
    lonely.colonels[0].regiment = 9;
    assert!(matches!(
        lonely.check(),
        Err(GameSetupError::Colonel { why, .. }) if why.contains("no company")
    ));
    let mut confederate = s.clone();
    confederate.colonels[0].side = Side::Confederate;
    assert!(matches!(
        confederate.check(),
        Err(GameSetupError::Colonel { .. })
    ));
    let mut two = s.clone();
    let mut second = two.colonels[0].clone();
    second.name = "Colonel Two".to_string();
    second.at = Point::new(30.0, 4.0);
    two.colonels.push(second);
    let e = two.check().unwrap_err();
    assert_eq!(
        e.to_string(),
        "Colonel Two cannot be placed: his regiment already has a colonel"
    );
    let mut on_a = s.clone();
    on_a.colonels[0].at = Point::new(19.0, 6.0);
    assert!(matches!(on_a.check(), Err(GameSetupError::Overlap(..))));
    // JSON loading runs the same checks, and keeps colonels
    let json = serde_json::to_string(&two).unwrap();
    assert!(serde_json::from_str::<Scenario>(&json).is_err());
    let json = serde_json::to_string(&s).unwrap();
    assert_eq!(serde_json::from_str::<Scenario>(&json).unwrap(), s);
    let default = Scenario::default();
    let state = State::new(&default, 1).unwrap();
    assert_eq!(state.field().colonels().len(), 2);
    for &(col, regiment) in state.field().colonels() {
        let near: Vec<String> = state
            .battle()
            .company_ids()
            .filter(|&id| {
                id != col
                    && state.battle().company(id).unwrap().regiment() == Some(regiment)
                    && state.field().command_distance(col, id).unwrap() <= 6.0
            })
            .map(|id| state.battle().company(id).unwrap().name().to_string())
            .collect();
        assert_eq!(near.len(), 2, "{near:?}");
    }
}

/// The position of a regiment of three companies within 6" of their colonel, the enemy company at `enemy`.
fn three_near_the_colonel(enemy: Point) -> Scenario {
    let mut s = scenario(
        &[
            ("Company A", Formation::Line, Point::new(19.0, 6.0)),
            ("Company B", Formation::Line, Point::new(29.0, 6.0)),
            ("Company C", Formation::Line, Point::new(24.0, 9.0)),
        ],
        Point::new(24.0, 4.0),
    );
    s.companies[3].at = enemy;
    s
}

// HT-SEQ-03: the thruster activates its regiment through the colonel only when that gains tempo (three or more
// companies may form with him and one of them has an enemy within 12"); otherwise a company nearest the enemy
// goes first and the colonel waits, to transfer his actions once his side's units have acted.
#[test]
fn the_thruster_activates_its_regiment_only_for_tempo() {
    use acw_core::game::Commander;
    use acw_hardtack::bots::Thruster;
    let (a, b, c) = (CompanyId(0), CompanyId(1), CompanyId(2));
    // the enemy 11" from Company C: the regiment goes together
    let (near, _) = union_first(&three_near_the_colonel(Point::new(24.0, 20.0)));
    assert_eq!(
        Thruster::new(1).order(&Hardtack, &near, Side::Union),
        Order::ActivateRegiment {
            companies: vec![a, b, c]
        }
    );
    // the enemy 24" off: Company C, the nearest, acts on its own
    let (far, _) = union_first(&three_near_the_colonel(Point::new(24.0, 33.0)));
    assert_eq!(
        Thruster::new(1).order(&Hardtack, &far, Side::Union),
        Order::Activate(c)
    );
    // two companies only: no tempo, whatever the distance; the colonel is never the first to go
    let two = scenario(
        &[
            ("Company A", Formation::Line, Point::new(19.0, 6.0)),
            ("Company B", Formation::Line, Point::new(29.0, 6.0)),
        ],
        Point::new(24.0, 4.0),
    );
    let (state, _) = union_first(&two);
    let order = Thruster::new(1).order(&Hardtack, &state, Side::Union);
    assert!(
        matches!(order, Order::Activate(id) if id == a || id == b),
        "{order:?}"
    );
}

/// Colonel Hayes at (24, 4) with his regiment: Companies A and B (Veteran) and C (Regular) in line within 6"
/// of him, D in skirmish order within 6", E in line 16" off; the Confederate Company Z to the east sees him
/// clear along y = 4, 20" away.
fn colonel_under_fire() -> Scenario {
    let mut s = scenario(
        &[
            ("Company A", Formation::Line, Point::new(19.0, 6.5)),
            ("Company B", Formation::Line, Point::new(29.0, 6.5)),
            ("Company C", Formation::Line, Point::new(24.0, 9.0)),
            ("Company D", Formation::Skirmish, Point::new(19.0, 1.5)),
            ("Company E", Formation::Line, Point::new(8.0, 6.5)),
        ],
        Point::new(24.0, 4.0),
    );
    s.companies[0].spec.quality = Quality::Veteran;
    s.companies[1].spec.quality = Quality::Veteran;
    s.companies[5].at = Point::new(44.0, 4.0);
    s
}

/// Company Z fires at the colonel: its range D6 shows 1 against its quality D8's 8 and firepower D4's 4, a major
/// result with 12 / 6 = 2 potential hits on the colonel's one figure. The first (armour D4 1, impact D6 6)
/// kills him, the second (armour 4, impact 1) does nothing; his stand takes its own test (D8: 8).
fn fire_at_the_colonel(state: &mut State, s: &Scenario, then: &[Scripted], log: &mut Vec<Event>) {
    apply(state, Order::GoFirst(Side::Confederate), log);
    apply(state, Order::Activate(CompanyId(5)), log);
    let mut dice = ScriptedDice::new(
        [1u16, 8, 4, 1, 6, 4, 1, 8]
            .into_iter()
            .map(Scripted::Face)
            .chain(then.iter().cloned()),
    );
    Hardtack
        .apply_with(state, &Order::Fire { target: colonel(s) }, &mut dice, log)
        .unwrap();
    assert_eq!(dice.remaining(), 0, "every scripted face is used");
}

// HT-CMD-04, HT-CMD-05: the colonel, shot dead on the table, makes every company in a regimental
// formation under him test as though it had lost its own leader: A and B (Veteran, D10) and C (Regular, D8),
// each in line within 6" of him, at LV 2 + TL 2 (base 3 for Medium motivation, −1 in close formation): A's 10
// passes (a chance of 6/10), B's 3 loses one level (3 or 4: 2/10; 2 or less would lose two), C's 8 passes
// (5 to 8: 4/8). D (skirmish order) and E (16" off) are in no formation and do not test. The candidates
// still Confident, Steady or Shaken are all three; the best quality, Veteran, ties A and B: the engine draws
// the lot with the game's dice (index 1 of 2: B, a chance of 1/2). B's leader takes the command stand with
// his Veteran quality and LV 2; B, one figure fewer, is led by its next figure at LV 1 (the D6's 6, one
// better, a chance of 1/6), and takes no test. Saved and loaded, the game goes on alike, the new colonel
// activating his regiment.
#[test]
fn a_colonel_shot_on_the_table_is_succeeded() {
    let s = colonel_under_fire();
    let col = colonel(&s);
    let [a, b, c, d, e] = [0, 1, 2, 3, 4].map(CompanyId);
    let mut state = State::new(&s, 3).unwrap();
    let mut log = Vec::new();
    fire_at_the_colonel(
        &mut state,
        &s,
        &[
            Scripted::Face(10),
            Scripted::Face(3),
            Scripted::Face(8),
            Scripted::Index(1),
            Scripted::Face(6),
        ],
        &mut log,
    );
    let fell = log
        .iter()
        .find(|e| matches!(e, Event::ColonelFell { .. }))
        .unwrap();
    let Event::ColonelFell {
        colonel: name,
        tested,
        successor,
        among,
        new_lv,
        rolls,
        tests,
        chance,
    } = fell
    else {
        unreachable!()
    };
    assert_eq!(name, "Colonel Hayes");
    let tested: Vec<(&str, &str)> = tested
        .iter()
        .map(|(c, r)| (c.as_str(), r.as_str()))
        .collect();
    assert_eq!(
        tested,
        [
            ("Company A", "passed"),
            ("Company B", "failed, losing one level"),
            ("Company C", "passed")
        ]
    );
    assert_eq!(successor.as_deref(), Some("Company B"));
    assert_eq!((*among, *new_lv), (2, Some(1)));
    let faces: Vec<(u16, u16)> = rolls.iter().map(|r| (r.sides, r.face)).collect();
    assert_eq!(faces, [(10, 10), (10, 3), (8, 8), (6, 6)]);
    let exact: Vec<f64> = tests.iter().map(|t| t.exactly).collect();
    assert_eq!(exact, [6.0 / 10.0, 2.0 / 10.0, 4.0 / 8.0]);
    assert!(tests.iter().all(|t| t.side == Side::Union));
    let chance = chance.unwrap();
    assert_eq!((chance.side, chance.exactly), (Side::Union, 1.0 / 6.0));
    let text = fell.to_string();
    assert!(
        text.contains("chosen by lot among 2 equal leaders (a chance of 50.0%); Company B's next figure leads it at LV 1, with a chance of 16.7% of that LV (dice: D10 showed 10, D10 showed 3, D8 showed 8, D6 showed 6) (the confidence tests' results had chances of 60.0%, 20.0% and 50.0%)."),
        "{text}"
    );
    let battle = state.battle();
    let level = |id| battle.company(id).unwrap().confidence();
    assert_eq!(level(a), ConfidenceLevel::Confident);
    assert_eq!(level(b), ConfidenceLevel::Steady);
    assert_eq!(level(d), ConfidenceLevel::Confident);
    assert_eq!(level(e), ConfidenceLevel::Confident);
    let company_b = battle.company(b).unwrap();
    assert_eq!((company_b.fit(), company_b.lv()), (3, Leadership::ONE));
    let stand = battle.company(col).unwrap();
    assert_eq!(
        stand.name(),
        "Acting colonel from Company B, succeeding Colonel Hayes"
    );
    assert_eq!(
        (stand.fit(), stand.dead(), stand.quality(), stand.lv()),
        (1, 1, Quality::Veteran, Leadership::TWO)
    );
    assert!(state.field().fallen_colonels().is_empty());
    let json = serde_json::to_string(&state).unwrap();
    let mut back: State = serde_json::from_str(&json).unwrap();
    assert_eq!(back, state);
    let (mut l1, mut l2) = (Vec::new(), Vec::new());
    for order in [
        Order::EndActivation,
        Order::ActivateRegiment {
            companies: vec![a, c],
        },
    ] {
        apply(&mut state, order.clone(), &mut l1);
        apply(&mut back, order, &mut l2);
    }
    assert_eq!(l1, l2);
    assert_eq!(back, state);
    assert!(l1.iter().any(
        |e| matches!(e, Event::RegimentActivated { colonel, .. } if colonel == "Acting colonel from Company B, succeeding Colonel Hayes")
    ));
}

// HT-CMD-04, HT-CMD-05: with A, B and C 8" or more behind the colonel (D in skirmish order within 6", E 16"
// off) no company stands in a regimental formation with him: his fall tests no one, and his stand, a single figure, has no one to take his place, so his
// regiment has no colonel. Saved and loaded, he stays fallen; a save naming a company that is no colonel as
// fallen is refused.
#[test]
fn a_colonel_with_no_formation_is_not_replaced() {
    let mut s = colonel_under_fire();
    s.companies[0].at = Point::new(14.0, 12.0);
    s.companies[1].at = Point::new(34.0, 12.0);
    s.companies[2].at = Point::new(24.0, 12.0);
    let col = colonel(&s);
    let mut state = State::new(&s, 3).unwrap();
    let mut log = Vec::new();
    fire_at_the_colonel(&mut state, &s, &[], &mut log);
    let fell = log
        .iter()
        .find(|e| matches!(e, Event::ColonelFell { .. }))
        .unwrap();
    assert_eq!(
        fell.to_string(),
        "Colonel Hayes has fallen: no company of his regiment stood in formation with him, so none tests, and no one takes his place."
    );
    assert_eq!(state.field().fallen_colonels(), [col]);
    for k in 0..5 {
        assert_eq!(
            state.battle().company(CompanyId(k)).unwrap().confidence(),
            ConfidenceLevel::Confident
        );
    }
    let json = serde_json::to_string(&state).unwrap();
    let back: State = serde_json::from_str(&json).unwrap();
    assert_eq!(back, state);
    assert_eq!(back.field().fallen_colonels(), [col]);
    let mut v = serde_json::from_str::<serde_json::Value>(&json).unwrap();
    v["field"]["fallen"] = serde_json::json!([0]);
    assert!(serde_json::from_value::<State>(v).is_err());
}
