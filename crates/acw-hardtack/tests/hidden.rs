//! Hidden companies as the game plays them (HT-SG2-25): revealed by a clear sight in the open after any
//! order, by an enemy leader's observation (an order), and when they activate; refused observations change
//! nothing.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::Side;
use acw_core::measure::{Inches, Point};
use acw_core::table::{Table, Terrain};
use acw_hardtack::game::{Deployed, Event, Order, Scenario, State};
use acw_hardtack::state::{CompanySpec, Formation};
use acw_hardtack::{CompanyId, Options};
use common::{apply, refused};

const BLUE_A: CompanyId = CompanyId(0);
const BLUE_B: CompanyId = CompanyId(1);
const GREY_WOOD: CompanyId = CompanyId(2);
const GREY_SCOUT: CompanyId = CompanyId(3);
const GREY_LINE: CompanyId = CompanyId(4);

fn company(name: &str, side: Side, n: usize, formation: Formation, at: (f64, f64)) -> Deployed {
    let mut spec = CompanySpec::new(name, side, n);
    spec.formation = formation;
    Deployed {
        spec,
        at: Point::new(at.0, at.1),
    }
}

/// A 48" × 36" table with a wood at (10..30, 20..27). The Union: Blue A (eight in line) at (20, 10), Blue B
/// (eight in line) at (40, 4). The Confederates: "Grey wood" (six in skirmish order, hidden) in the wood at
/// (20, 24), "Grey scout" (one in skirmish order, hidden) at `scout`, and "Grey line" (eight in line, not
/// hidden) at (44, 33).
fn scenario(scout: (f64, f64)) -> Scenario {
    let mut wood = company(
        "Grey wood",
        Side::Confederate,
        6,
        Formation::Skirmish,
        (20.0, 24.0),
    );
    wood.spec.hidden = true;
    let mut scout = company(
        "Grey scout",
        Side::Confederate,
        1,
        Formation::Skirmish,
        scout,
    );
    scout.spec.hidden = true;
    let trees = Terrain::woods(
        "the wood",
        vec![
            Point::new(10.0, 20.0),
            Point::new(30.0, 20.0),
            Point::new(30.0, 27.0),
            Point::new(10.0, 27.0),
        ],
    )
    .unwrap();
    Scenario {
        name: "hidden".to_string(),
        turns: 3,
        table: Table::new(Inches(48.0), Inches(36.0), vec![trees]).unwrap(),
        companies: vec![
            company("Blue A", Side::Union, 8, Formation::Line, (20.0, 10.0)),
            company("Blue B", Side::Union, 8, Formation::Line, (40.0, 4.0)),
            wood,
            scout,
            company(
                "Grey line",
                Side::Confederate,
                8,
                Formation::Line,
                (44.0, 33.0),
            ),
        ],
        guns: Vec::new(),
        dummies: Vec::new(),
        colonels: Vec::new(),
        options: Options::default(),
    }
}

fn hidden(state: &State, id: CompanyId) -> bool {
    state.battle().company(id).unwrap().hidden()
}

/// HT-SG2-25: a hidden company an enemy company sees clearly in the open is revealed with the first order:
/// Grey scout at (44, 24), in the open, in Blue A's sight past the wood's corner. Grey wood, in the wood
/// (in cover from every Union company), stays hidden.
#[test]
fn ht_sg2_25_a_hidden_company_seen_in_the_open_is_revealed() {
    let mut state = State::new(&scenario((44.0, 24.0)), 1).unwrap();
    assert!(hidden(&state, GREY_SCOUT) && hidden(&state, GREY_WOOD));
    let log = apply(&mut state, Order::GoFirst(Side::Union), &[]).unwrap();
    let seen: Vec<String> = log
        .iter()
        .filter(|e| matches!(e, Event::Revealed { .. }))
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        seen,
        ["Blue A has a clear sight of the hidden Grey scout in the open: it is revealed."]
    );
    assert!(!hidden(&state, GREY_SCOUT));
    assert!(hidden(&state, GREY_WOOD));
    // a company revealed is not revealed again
    let log = apply(&mut state, Order::Activate(BLUE_B), &[]).unwrap();
    assert!(!log.iter().any(|e| matches!(e, Event::Revealed { .. })));
}

/// HT-SG2-25: Blue A's leader observes Grey wood, 13" away in the wood (its D4, +1 for the full 12", +1 for
/// soft cover: D8): it rolls 2, Blue A's quality D8 5 and the D4 3, both beat it, a major success: revealed,
/// one action spent. With the D8 at 6, the quality die 2 and the D4 1, a failure: it stays hidden, the action
/// spent; neither die beats the D8 with a chance of (1/8)((1+4+9)/32 + (4+5+6+7+8)/8) = 52.3%. Refused, nothing changed: observing a company not hidden, one of its own side, and a hidden
/// company out of sight.
#[test]
fn ht_sg2_25_a_leader_observes_a_hidden_company() {
    let mut state = State::new(&scenario((44.0, 24.0)), 1).unwrap();
    apply(&mut state, Order::GoFirst(Side::Union), &[]).unwrap();
    apply(&mut state, Order::Activate(BLUE_A), &[]).unwrap();
    // Grey scout was revealed by sight; Blue B is Blue A's own side; Grey line was never hidden
    assert!(refused(&mut state, Order::ObserveCompany { target: GREY_SCOUT }).contains("hidden"));
    refused(&mut state, Order::ObserveCompany { target: BLUE_B });
    refused(&mut state, Order::ObserveCompany { target: GREY_LINE });
    let fail = {
        let mut s = state.clone();
        let log = apply(
            &mut s,
            Order::ObserveCompany { target: GREY_WOOD },
            &[6, 2, 1],
        )
        .unwrap();
        assert_eq!(
            log[0].to_string(),
            "Blue A observes the hidden Grey wood 13.0\" away and fails to make it out, and it stays hidden \
             (dice: D8 showed 6, D8 showed 2, D4 showed 1), with a chance of 52.3% of that result."
        );
        assert!(hidden(&s, GREY_WOOD));
        s
    };
    assert_eq!(fail.battle().company(BLUE_A).unwrap().actions_left(), 1);
    let log = apply(
        &mut state,
        Order::ObserveCompany { target: GREY_WOOD },
        &[2, 5, 3],
    )
    .unwrap();
    let text = log[0].to_string();
    assert!(
        text.starts_with(
            "Blue A observes the hidden Grey wood 13.0\" away and makes it out with a major success: it is revealed"
        ),
        "{text}"
    );
    // a major success: the D8 at t, the quality D8 and the D4 both above it:
    // (1/8)(7/8·3/4 + 6/8·2/4 + 5/8·1/4) = 38/256
    let Event::ObservedCompany { chance, .. } = &log[0] else {
        panic!("an observation first: {log:?}");
    };
    assert!((chance.unwrap().exactly - 38.0 / 256.0).abs() < 1e-12);
    assert!(!hidden(&state, GREY_WOOD));
    assert_eq!(state.battle().company(BLUE_A).unwrap().actions_left(), 1);
    assert_eq!(acw_core::luck::luck_of(&log).union.rolls, 1);
}

/// HT-SG2-25: a hidden company out of every enemy's sight is not observed (refused, nothing changed), and it
/// is revealed when it activates. Grey scout at (4, 34) in the far corner: the wood stands between it and
/// both Union companies.
#[test]
fn ht_sg2_25_out_of_sight_it_stays_hidden_until_it_activates() {
    let mut state = State::new(&scenario((4.0, 34.0)), 1).unwrap();
    apply(&mut state, Order::GoFirst(Side::Union), &[]).unwrap();
    assert!(hidden(&state, GREY_SCOUT));
    apply(&mut state, Order::Activate(BLUE_A), &[]).unwrap();
    let why = refused(&mut state, Order::ObserveCompany { target: GREY_SCOUT });
    assert_eq!(
        why,
        "Blue A cannot see Grey scout: something stands in the line of fire"
    );
    apply(&mut state, Order::EndActivation, &[]).unwrap();
    apply(&mut state, Order::Activate(GREY_SCOUT), &[]).unwrap();
    assert!(!hidden(&state, GREY_SCOUT));
}
