//! Value stability: one fixed seed pins the results of a short sequence of procedures, so a dependency upgrade
//! or a rules change shows up as a deliberate diff.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::{GameRng, Resolve, Side};
use acw_grid::board::GridKind;
use acw_grid::combat::{CombatOdds, CombatPlan, CombatSide};
use acw_grid::fire::BombardOrder;
use acw_grid::morale::MoraleTest;
use acw_grid::movement::{EntrenchTurns, MoveOrder};
use acw_grid::pool::HitPool;
use acw_grid::sequence::{Initiative, TieBreak};
use acw_grid::setup::Scenario;

#[test]
fn seed_1863_is_pinned() {
    let mut rng = GameRng::seed(1863);
    let init = Initiative {
        bonus: Some(Side::Confederate),
        tie: TieBreak::Reroll,
    }
    .roll(&mut rng);
    let volleys: Vec<u32> = (0..8)
        .map(|_| HitPool::uniform(6, 0).unwrap().roll(&mut rng))
        .collect();
    let six = CombatSide {
        pool: HitPool::uniform(6, 0).unwrap(),
        capacity: 6,
        commander: true,
        ..CombatSide::default()
    };
    let combat = CombatOdds::new(six, six).roll(&mut rng);
    let morale: Vec<_> = (0..6)
        .map(|_| MoraleTest { modifier: 0 }.roll(&mut rng))
        .collect();
    let dig: Vec<u32> = (0..6)
        .map(|_| EntrenchTurns { progress: 0 }.roll(&mut rng))
        .collect();
    let got = format!("{init:?} {volleys:?} {combat:?} {morale:?} {dig:?}");
    assert_eq!(got, PINNED, "\n{got}");
}

const PINNED: &str = "Chooses(Confederate) [1, 3, 1, 2, 3, 0, 3, 4] CombatOutcome { hits_on_a: 1, hits_on_b: 1, a_commander_lost: false, b_commander_lost: false, a_destroyed: false, b_destroyed: false, tester: None, morale: None } [Defeated, Steady, Steady, Recoiled, Defeated, Recoiled] [2, 2, 1, 3, 3, 3]";

#[test]
fn seeded_scenario_and_turn_are_pinned() {
    let s = Scenario::meeting_engagement(1863, GridKind::Square);
    let terrain: Vec<String> = s
        .board
        .areas()
        .filter_map(|a| {
            let t = s.board.terrain(a).unwrap();
            (*t != acw_grid::Terrain::OPEN).then(|| format!("{a}"))
        })
        .take(8)
        .collect();
    let b = s.build().unwrap();
    assert_eq!(b.units().count(), 14);
    // A small fight on a fresh board with the same seed: bombardment, a move, combat, morale.
    let mut f = common::square();
    let gun = common::put(
        &mut f,
        Side::Union,
        common::a(5, 2),
        &common::stand(Side::Union, acw_grid::tables::StandType::Artillery),
        2,
        0,
    );
    let foe = common::put_inf(&mut f, Side::Confederate, common::a(5, 4), 4, 2);
    let inf = common::put_inf(&mut f, Side::Union, common::a(4, 2), 3, 0);
    let mut rng = GameRng::seed(1863);
    let init = f.roll_initiative(&mut rng).unwrap();
    if let acw_grid::sequence::InitiativeOutcome::Chooses(w) = init {
        f.choose_first_player(w, Side::Union).unwrap();
    }
    let bomb = f
        .bombardment_phase(
            &[BombardOrder {
                battery: gun,
                target: foe,
            }],
            &mut rng,
        )
        .unwrap();
    f.advance().unwrap();
    // The command roll the inland brigade owes, made with dice of its own so the pinned sequence is unchanged.
    common::roll_command(&mut f);
    f.move_unit(&MoveOrder::along(
        f.unit(inf).unwrap(),
        vec![common::a(4, 3), common::a(4, 4)],
    ))
    .unwrap();
    f.advance().unwrap();
    f.advance().unwrap();
    let combat = f.resolve_combats(&CombatPlan::default(), &mut rng).unwrap();
    let c = &combat.combats[0];
    let tests: Vec<_> = f
        .test_morale(&c.testers, &mut rng)
        .unwrap()
        .into_iter()
        .map(|t| (t.unit, t.result))
        .collect();
    let raw: Vec<u32> = bomb.iter().map(|t| t.raw).collect();
    let got = format!(
        "{terrain:?} {init:?} {raw:?} {:?} {:?} {tests:?}",
        c.raw, c.tester
    );
    assert_eq!(got, PINNED_TURN, "\n{got}");
}

const PINNED_TURN: &str = "[\"(0, 5)\", \"(0, 6)\", \"(2, 7)\", \"(5, 5)\", \"(6, 5)\", \"(6, 6)\", \"(9, 4)\", \"(9, 5)\"] Chooses(Confederate) [1] (2, 0) Some(Confederate) [(UnitId(2), SplitMorale { unsteady: None, normal: Some(Recoiled), elite: None })]";
