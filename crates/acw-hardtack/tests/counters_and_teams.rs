//! Dummy counters (HT-SG2-25) and guns' detached teams (HT-ART-22) as the game plays them: placed by the
//! scenario, observed, sighted and fired at through orders, each accepted with its effect or refused with
//! nothing changed, and kept by a saved game.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::Side;
use acw_core::measure::{Inches, Point};
use acw_core::table::{Table, Terrain};
use acw_hardtack::game::{
    Deployed, DeployedDummy, DeployedGun, Event, GameSetupError, Hardtack, Order, Scenario, State,
};
use acw_hardtack::state::{Ammunition, CompanySpec, Formation};
use acw_hardtack::tables::FieldPiece;
use acw_hardtack::{CompanyId, DummyId, GunId, Options};
use common::{apply, refused};

const CREW: CompanyId = CompanyId(0);
const BLUE_A: CompanyId = CompanyId(1);
const GREY_LINE: CompanyId = CompanyId(2);
const GUN: GunId = GunId(0);

fn company(name: &str, side: Side, n: usize, formation: Formation, at: (f64, f64)) -> Deployed {
    let mut spec = CompanySpec::new(name, side, n);
    spec.formation = formation;
    Deployed {
        spec,
        at: Point::new(at.0, at.1),
    }
}

/// A 48" × 36" table with a wood at (28..40, 20..27). The Union: a gun's crew of three at (24, 8) with its
/// team at (10, 4), Blue A (eight in line) at (34, 10). The Confederates: a line of eight at (10, 11), six
/// figures hidden at (40, 32), and three dummy counters: 0 in the wood at (34, 24), 1 in the open at
/// (44, 12), 2 in the wood at (30, 25).
fn scenario() -> Scenario {
    let mut hidden = company(
        "Grey hidden",
        Side::Confederate,
        6,
        Formation::Skirmish,
        (40.0, 32.0),
    );
    hidden.spec.hidden = true;
    let wood = Terrain::woods(
        "the wood",
        vec![
            Point::new(28.0, 20.0),
            Point::new(40.0, 20.0),
            Point::new(40.0, 27.0),
            Point::new(28.0, 27.0),
        ],
    )
    .unwrap();
    let dummy = |x, y| DeployedDummy {
        side: Side::Confederate,
        at: Point::new(x, y),
    };
    Scenario {
        name: "counters and teams".to_string(),
        turns: 3,
        table: Table::new(Inches(48.0), Inches(36.0), vec![wood]).unwrap(),
        companies: vec![
            company(
                "Battery A crew",
                Side::Union,
                3,
                Formation::Skirmish,
                (24.0, 8.0),
            ),
            company("Blue A", Side::Union, 8, Formation::Line, (34.0, 10.0)),
            company(
                "Grey line",
                Side::Confederate,
                8,
                Formation::Line,
                (10.0, 11.0),
            ),
            hidden,
        ],
        guns: vec![DeployedGun {
            name: "Battery A's rifle".to_string(),
            piece: FieldPiece::Rifle10lbOr3in,
            rifled: true,
            crew: 0,
            team: Some(Point::new(10.0, 4.0)),
        }],
        dummies: vec![dummy(34.0, 24.0), dummy(44.0, 12.0), dummy(30.0, 25.0)],
        colonels: Vec::new(),
        options: Options::default(),
    }
}

fn on_table(state: &State) -> Vec<u32> {
    state.battle().dummies().map(|(id, _)| id.0).collect()
}

/// HT-SG2-25: a counter in the open that an enemy company sees clearly is a dummy and leaves the table with the
/// first order; the two in the wood stay (in cover, a clear line of sight does not show them). Blue A's leader
/// observes counter 0, 13" away (the counter's D4, +1 for the full 12", +1 for the wood: D8): the counter
/// rolls 2, the quality die 5 and the D4 3, both beat it, a major success: it is a dummy and leaves the table.
/// Observing it again, observing counter 1 (gone), a counter that does not exist: refused, nothing changed.
#[test]
fn ht_sg2_25_counters_are_sighted_and_observed_through_orders() {
    let mut state = State::new(&scenario(), 1).unwrap();
    assert_eq!(on_table(&state), vec![0, 1, 2]);
    let log = apply(&mut state, Order::GoFirst(Side::Union), &[]).unwrap();
    let seen: Vec<String> = log
        .iter()
        .filter(|e| matches!(e, Event::Sighted { .. }))
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        seen,
        vec![
            "Blue A has a clear sight of the Confederate counter 1 in the open: it is a dummy, taken off the table."
        ]
    );
    assert_eq!(on_table(&state), vec![0, 2]);
    apply(&mut state, Order::Activate(BLUE_A), &[]).unwrap();
    let log = apply(&mut state, Order::Observe { dummy: DummyId(0) }, &[2, 5, 3]).unwrap();
    let text = log[0].to_string();
    assert!(
        text.starts_with(
            "Blue A observes the Confederate counter 0 13.0\" away and makes it out with a major success: it is a dummy, taken off the table (dice: D8 showed 2, "
        ),
        "{text}"
    );
    // the chance of a major success: the counter's D8 at t, the quality D8 and the D4 both above it:
    // (1/8)(7/8·3/4 + 6/8·2/4 + 5/8·1/4) = 38/256, counted in the Union's luck
    let Event::Observed { chance, .. } = &log[0] else {
        panic!("an observation first: {log:?}");
    };
    assert!((chance.unwrap().exactly - 38.0 / 256.0).abs() < 1e-12);
    assert!(
        text.ends_with("with a chance of 14.8% of that result."),
        "{text}"
    );
    assert_eq!(acw_core::luck::luck_of(&log).union.rolls, 1);
    assert_eq!(on_table(&state), vec![2]);
    assert_eq!(state.battle().company(BLUE_A).unwrap().actions_left(), 1);
    refused(&mut state, Order::Observe { dummy: DummyId(0) });
    refused(&mut state, Order::Observe { dummy: DummyId(1) });
    refused(&mut state, Order::FireAtDummy { dummy: DummyId(9) });
    // speculative fire at counter 2: the quality and firepower dice show 1, a failure; the counter stays
    let log = apply(
        &mut state,
        Order::FireAtDummy { dummy: DummyId(2) },
        &[4, 1, 1],
    )
    .unwrap();
    assert!(
        log[0]
            .to_string()
            .starts_with("Blue A fires at the Confederate counter 2 "),
        "{}",
        log[0]
    );
    assert_eq!(on_table(&state), vec![2]);
}

/// HT-ART-22: the Confederate line fires at the team of the Union rifle, 6" away (the team stands at
/// (10, 4), the line's front 6" from it): R 1, Q 5, FP 7, a major result, three hits over the team's two
/// horses; the first on horse 1, armour 1 against impact 6, struck, and its state roll 1: dead; the second on
/// horse 2, armour 4 against impact 2, nothing; the third on horse 1 again. One horse down, and the crew does
/// not test. Refused, nothing changed: the team of a gun that does not exist, fire at a counter of its own
/// side, the Union's counter-fire out of its turn.
#[test]
fn ht_art_22_small_arms_at_a_detached_team_as_an_order() {
    let mut state = State::new(&scenario(), 1).unwrap();
    apply(&mut state, Order::GoFirst(Side::Confederate), &[]).unwrap();
    apply(&mut state, Order::Activate(GREY_LINE), &[]).unwrap();
    refused(&mut state, Order::FireAtTeam { gun: GunId(3) });
    refused(&mut state, Order::FireAtDummy { dummy: DummyId(0) });
    refused(&mut state, Order::FireGunAtTeam { team: GUN });
    let crew_before = state.battle().company(CREW).unwrap().confidence();
    let log = apply(
        &mut state,
        Order::FireAtTeam { gun: GUN },
        &[1, 5, 7, 1, 1, 6, 1, 2, 4, 2, 1],
    )
    .unwrap();
    let text = log[0].to_string();
    assert!(
        text.starts_with("Grey line fires at the team of Battery A's rifle 6.0\" away (dice: D"),
        "{text}"
    );
    assert!(text.contains("one team horse down"), "{text}");
    assert_eq!(state.battle().gun(GUN).unwrap().horses(), (2, 1));
    assert_eq!(
        state.battle().company(CREW).unwrap().confidence(),
        crew_before
    );
}

/// HT-ART-22, HT-ART-14: a crew with round shot loaded may not fire canister at a team, nor at its own
/// gun's team (refused, nothing changed), and may not move onto a team's ground. With canister loaded
/// (seed 1, the game's own dice), the Union rifle fires it at the team of a Confederate gun 9" away: a major
/// result, one horse down, and the blast carries on along the line to the gunners 21.5" from the gun; the
/// canister is spent.
#[test]
fn ht_art_22_canister_at_a_detached_team_as_an_order() {
    let mut s = scenario();
    s.companies.push(company(
        "Grey gunners",
        Side::Confederate,
        3,
        Formation::Skirmish,
        (24.0, 30.0),
    ));
    s.guns.push(DeployedGun {
        name: "Grey Napoleon".to_string(),
        piece: FieldPiece::Napoleon12lb,
        rifled: false,
        crew: 4,
        team: Some(Point::new(24.0, 17.5)),
    });
    let grey_gun = GunId(1);
    let mut state = State::new(&s, 1).unwrap();
    apply(&mut state, Order::GoFirst(Side::Union), &[]).unwrap();
    apply(&mut state, Order::Activate(CREW), &[]).unwrap();
    apply(&mut state, Order::Load(Ammunition::Shot), &[]).unwrap();
    refused(&mut state, Order::FireGunAtTeam { team: grey_gun });
    refused(&mut state, Order::FireGunAtTeam { team: GUN });
    let onto_team = Order::Move {
        to: Point::new(24.0, 16.6),
    };
    let before = state.clone();
    assert_eq!(
        apply(&mut state, onto_team.clone(), &[])
            .unwrap_err()
            .to_string(),
        "Battery A crew cannot move there: it would come within half an inch of the team of Grey Napoleon"
    );
    assert_eq!(state, before);
    apply(&mut state, Order::EndActivation, &[]).unwrap();
    let mut state = State::new(&s, 1).unwrap();
    apply(&mut state, Order::GoFirst(Side::Union), &[]).unwrap();
    apply(&mut state, Order::Activate(CREW), &[]).unwrap();
    apply(&mut state, Order::Load(Ammunition::Canister), &[]).unwrap();
    assert!(state.check_order(Side::Union, &Order::FireGunAtTeam { team: grey_gun }));
    let mut game = acw_core::game::Game::from_state(Hardtack, state);
    let events = match game
        .submit(Side::Union, Order::FireGunAtTeam { team: grey_gun })
        .unwrap()
    {
        acw_core::game::Submitted::Applied(ev) => ev.to_vec(),
        acw_core::game::Submitted::Waiting(_) => panic!("seeded dice never wait"),
    };
    assert!(
        events[0].to_string().starts_with(
            "Battery A's rifle fires canister at the team of Grey Napoleon 9.0\" away"
        ),
        "{}",
        events[0]
    );
    assert!(events[0].to_string().contains("one team horse down"));
    // the hit carries the blast on along the line, past the team to the gunners behind it (HT-ART-16)
    assert!(
        events[1].to_string().starts_with(
            "the blast of Battery A's rifle carries on to Grey gunners 21.5\" from the gun"
        ),
        "{}",
        events[1]
    );
    assert_eq!(
        game.state().battle().gun(grey_gun).unwrap().horses(),
        (2, 1)
    );
    assert_eq!(game.state().battle().gun(GUN).unwrap().loaded(), None);
}

/// HT-SG2-25, HT-ART-22: a scenario's counters need a hidden company of their side, and a counter or a team
/// must stand on free ground on the table; a saved game keeps the counters and teams where they are, and a
/// save whose counters do not match its battle is refused.
#[test]
fn counters_and_teams_are_set_up_checked_and_saved() {
    let mut s = scenario();
    s.companies[3].spec.hidden = false;
    assert!(matches!(State::new(&s, 1), Err(GameSetupError::Company(_))));
    let mut s = scenario();
    s.dummies[0].at = Point::new(34.0, 10.0);
    assert_eq!(
        State::new(&s, 1).unwrap_err().to_string(),
        "the Confederate dummy 0 stands on ground already taken"
    );
    let mut s = scenario();
    s.guns[0].team = Some(Point::new(47.9, 4.0));
    assert_eq!(
        State::new(&s, 1).unwrap_err().to_string(),
        "the team of Battery A's rifle does not stand wholly on the table"
    );

    let mut state = State::new(&scenario(), 1).unwrap();
    apply(&mut state, Order::GoFirst(Side::Union), &[]).unwrap();
    let json = serde_json::to_string(&state).unwrap();
    let back: State = serde_json::from_str(&json).unwrap();
    assert_eq!(back, state);
    assert_eq!(
        back.field().dummy(DummyId(2)).map(|f| f.centre),
        Some(Point::new(30.0, 25.0))
    );
    assert_eq!(
        back.field().team(GUN).map(|f| f.centre),
        Some(Point::new(10.0, 4.0))
    );
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["field"]["dummies"].as_array_mut().unwrap().pop();
    assert!(serde_json::from_value::<State>(v).is_err());
    let scenario_json = serde_json::to_string(&scenario()).unwrap();
    let loaded: Scenario = serde_json::from_str(&scenario_json).unwrap();
    assert_eq!(loaded, scenario());
}

/// HT-SG2-25: the holder's company with no enemy company within its 24" firing range has its leader observe
/// the nearest enemy counter in range (counter 0, 13" away in the wood), an order the engine accepts; the
/// thruster, whose range is 12", has nothing in range and moves on.
#[test]
fn ht_sg2_25_the_holder_observes_a_counter_in_range() {
    use acw_core::Commander;
    let mut s = scenario();
    s.companies[2].at = Point::new(4.0, 34.0);
    s.companies[3].at = Point::new(43.0, 35.0);
    s.companies[3].spec.figures = 4;
    let mut state = State::new(&s, 1).unwrap();
    apply(&mut state, Order::GoFirst(Side::Union), &[]).unwrap();
    apply(&mut state, Order::Activate(BLUE_A), &[]).unwrap();
    let order = acw_hardtack::bots::Holder::new(3).order(&Hardtack, &state, Side::Union);
    assert_eq!(order, Order::Observe { dummy: DummyId(0) });
    assert!(state.check_order(Side::Union, &order));
    let order = acw_hardtack::bots::Thruster::new(3).order(&Hardtack, &state, Side::Union);
    assert!(matches!(order, Order::Move { .. }), "{order:?}");
}
