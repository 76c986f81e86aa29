//! The turn sequence and game length (NORTH-SEQ-*, NORTH-OPT-25, NORTH-OPT-40).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::Side;
use acw_core::measure::Inches;
use acw_north::combat::{AttackGroup, Category, Sight};
use acw_north::error::{OptionsError, SetupError};
use acw_north::morale::MoraleResponse;
use acw_north::sequence::{Clock, Step};
use acw_north::setup::{UnitSpec, default_forces};
use acw_north::tables::{BrigadeOrder, Formation, Quality};
use acw_north::victory::{EndCondition, EndReason, GameEnd, GameResult, StandardEnd};
use acw_north::{Battle, Options, RuleViolation};
use common::*;

fn group(
    category: Category,
    target: acw_north::UnitId,
    attackers: Vec<acw_north::UnitId>,
) -> AttackGroup {
    AttackGroup {
        category,
        target,
        attackers,
    }
}

fn sights(n: usize, d: f64) -> Vec<Sight> {
    vec![Sight::clear(Inches(d)); n]
}

#[test]
fn north_seq_01_confederate_then_union_each_turn() {
    // NORTH-SEQ-01
    let mut b = battle();
    let mut seen = Vec::new();
    for _ in 0..4 {
        seen.push((b.clock().turn(), b.clock().phasing()));
        skip_to(&mut b, Step::Melee).unwrap();
        b.end_phase(&StandardEnd).unwrap();
    }
    assert_eq!(
        seen,
        vec![
            (1, Side::Confederate),
            (1, Side::Union),
            (2, Side::Confederate),
            (2, Side::Union)
        ]
    );
    let mut c = Clock::new(Side::Union);
    c.next_phase();
    assert_eq!((c.turn(), c.phasing()), (1, Side::Confederate));
}

#[test]
fn north_seq_02_activation_then_combat_steps() {
    // NORTH-SEQ-02
    let mut b = battle();
    let mut steps = vec![b.clock().step()];
    while let Ok(s) = b.next_step() {
        steps.push(s);
    }
    // NORTH-MOV-03: the units step cannot end while a unit under Advance owes its ordered move.
    assert_eq!(steps, vec![Step::Command, Step::Units]);
    let owed = b.owed_moves();
    assert!(!owed.is_empty());
    assert_eq!(b.next_step(), Err(RuleViolation::MoveOwed(owed[0])));
    for u in owed {
        b.excuse_move(u).unwrap();
    }
    while let Ok(s) = b.next_step() {
        steps.push(s);
    }
    assert_eq!(
        steps,
        vec![
            Step::Command,
            Step::Units,
            Step::Artillery,
            Step::Musketry,
            Step::Melee
        ]
    );
    assert_eq!(
        skip_to(&mut b, Step::Units),
        Err(RuleViolation::StepBackwards {
            from: Step::Melee,
            to: Step::Units
        })
    );
}

#[test]
fn north_seq_03_command_first_then_one_action_per_unit() {
    // NORTH-SEQ-03
    let mut b = battle();
    let u = id(&b, "CSA 1st Bde, Regt 1");
    let br = brigade_of(&b, u);
    // Units do not act in the command step.
    assert_eq!(
        b.attempt_formation_change(u, Formation::Column, &mut dice([1])),
        Err(RuleViolation::WrongStep {
            expected: Step::Units,
            actual: Step::Command
        })
    );
    b.next_step().unwrap();
    // Orders change only in the command step.
    assert!(matches!(
        b.attempt_order_change(br, BrigadeOrder::Hold, &mut dice([6])),
        Err(RuleViolation::WrongStep {
            expected: Step::Command,
            ..
        })
    ));
    let r = b
        .attempt_formation_change(u, Formation::Column, &mut dice([2]))
        .unwrap();
    assert!(r.success);
    // One action per phase.
    assert_eq!(
        b.attempt_formation_change(u, Formation::Line, &mut dice([1])),
        Err(RuleViolation::AlreadyActed(u))
    );
}

#[test]
fn north_seq_04_artillery_then_musketry_then_melee() {
    // NORTH-SEQ-04
    let mut b = battle();
    let gun = id(&b, "CSA 1st Bde, Battery");
    let target = id(&b, "USA 1st Bde, Regt 1");
    let g = group(Category::Artillery, target, vec![gun]);
    skip_to(&mut b, Step::Units).unwrap();
    assert_eq!(
        b.attack(
            &g,
            &sights(1, 10.0),
            false,
            &MoraleResponse::default(),
            &mut dice([1])
        ),
        Err(RuleViolation::WrongStep {
            expected: Step::Artillery,
            actual: Step::Units
        })
    );
    skip_to(&mut b, Step::Musketry).unwrap();
    assert!(matches!(
        b.attack(
            &g,
            &sights(1, 10.0),
            false,
            &MoraleResponse::default(),
            &mut dice([1])
        ),
        Err(RuleViolation::WrongStep {
            expected: Step::Artillery,
            ..
        })
    ));
    assert!(matches!(
        skip_to(&mut b, Step::Artillery),
        Err(RuleViolation::StepBackwards { .. })
    ));
    assert_eq!(Step::of_category(Category::Melee), Step::Melee);
    assert!(Category::Artillery < Category::Musketry && Category::Musketry < Category::Melee);
}

#[test]
fn north_seq_05_only_the_phasing_side_attacks() {
    // NORTH-SEQ-05
    let mut b = battle();
    let union_gun = id(&b, "USA 1st Bde, Battery");
    let target = id(&b, "CSA 1st Bde, Regt 1");
    skip_to(&mut b, Step::Artillery).unwrap();
    let g = group(Category::Artillery, target, vec![union_gun]);
    assert_eq!(
        b.attack(
            &g,
            &sights(1, 10.0),
            false,
            &MoraleResponse::default(),
            &mut dice([6, 1])
        ),
        Err(RuleViolation::NotPhasing {
            side: Side::Union,
            phasing: Side::Confederate
        })
    );
}

#[test]
fn north_seq_06_one_toss_per_target_and_category() {
    // NORTH-SEQ-06: all attackers on one target toss together, once.
    let mut b = battle();
    let g1 = id(&b, "CSA 1st Bde, Battery");
    let g2 = id(&b, "CSA 2nd Bde, Battery");
    let g3 = id(&b, "CSA 3rd Bde, Battery");
    let target = id(&b, "USA 1st Bde, Regt 1");
    skip_to(&mut b, Step::Artillery).unwrap();
    assert_eq!(
        b.attack(
            &group(Category::Artillery, target, vec![]),
            &[],
            false,
            &MoraleResponse::default(),
            &mut dice([1])
        ),
        Err(RuleViolation::BadGroup)
    );
    assert_eq!(
        b.attack(
            &group(Category::Artillery, target, vec![g1, g1]),
            &sights(2, 10.0),
            false,
            &MoraleResponse::default(),
            &mut dice([1])
        ),
        Err(RuleViolation::BadGroup)
    );
    // Two batteries together: one toss with +1; a 4 hits (4 + 1 >= 5). Morale 1: rallies.
    let r = b
        .attack(
            &group(Category::Artillery, target, vec![g1, g2]),
            &sights(2, 10.0),
            false,
            &MoraleResponse::default(),
            &mut dice([4, 1]),
        )
        .unwrap();
    assert_eq!(r.modifiers.extra_attackers, 1);
    assert!(r.hit);
    // A third battery may not toss again at the same target in the same category.
    assert_eq!(
        b.attack(
            &group(Category::Artillery, target, vec![g3]),
            &sights(1, 10.0),
            false,
            &MoraleResponse::default(),
            &mut dice([6, 1])
        ),
        Err(RuleViolation::TargetAlreadyAttacked(target))
    );
}

#[test]
fn north_seq_07_results_apply_before_the_next_toss() {
    // NORTH-SEQ-07: a poor unit removed by one hit is gone for the next toss.
    let mut b = duel(
        UnitSpec::infantry("x", Quality::Poor),
        UnitSpec::infantry("x", Quality::Standard),
        UnitSpec::artillery("x", Quality::Standard),
        UnitSpec::infantry("x", Quality::Standard),
        Options::default(),
    );
    let (u1, c1, c2) = (id(&b, "U1"), id(&b, "C1"), id(&b, "C2"));
    skip_to(&mut b, Step::Artillery).unwrap();
    let r = b
        .attack(
            &group(Category::Artillery, u1, vec![c1]),
            &sights(1, 10.0),
            false,
            &MoraleResponse::default(),
            &mut dice([6, 6]),
        )
        .unwrap();
    assert!(r.morale.unwrap().effect.removed);
    skip_to(&mut b, Step::Musketry).unwrap();
    assert_eq!(
        b.attack(
            &group(Category::Musketry, u1, vec![c2]),
            &sights(1, 10.0),
            false,
            &MoraleResponse::default(),
            &mut dice([6, 6])
        ),
        Err(RuleViolation::NotInPlay(u1))
    );
}

#[test]
fn north_seq_08_one_attack_per_unit_per_phase() {
    // NORTH-SEQ-08
    let mut b = battle();
    let inf = id(&b, "CSA 1st Bde, Regt 1");
    let t1 = id(&b, "USA 1st Bde, Regt 1");
    let t2 = id(&b, "USA 1st Bde, Regt 2");
    skip_to(&mut b, Step::Musketry).unwrap();
    let r = b
        .attack(
            &group(Category::Musketry, t1, vec![inf]),
            &sights(1, 12.0),
            false,
            &MoraleResponse::default(),
            &mut dice([1]),
        )
        .unwrap();
    assert!(!r.hit && r.morale.is_none());
    assert_eq!(
        b.unit(inf).unwrap().phase().attacked,
        Some(Category::Musketry)
    );
    assert_eq!(
        b.attack(
            &group(Category::Musketry, t2, vec![inf]),
            &sights(1, 12.0),
            false,
            &MoraleResponse::default(),
            &mut dice([6])
        ),
        Err(RuleViolation::AlreadyAttacked(inf))
    );
    // The record clears with the phase.
    skip_to(&mut b, Step::Melee).unwrap();
    b.end_phase(&StandardEnd).unwrap();
    assert_eq!(b.unit(inf).unwrap().phase().attacked, None);
}

#[test]
fn north_seq_09_and_north_opt_40_game_length() {
    // NORTH-SEQ-09 / NORTH-OPT-40: 12 turns by default: the game ends after the 24th player-phase.
    let mut b = battle();
    for phase in 1..24 {
        skip_to(&mut b, Step::Melee).unwrap();
        assert_eq!(b.end_phase(&StandardEnd).unwrap(), None, "phase {phase}");
    }
    skip_to(&mut b, Step::Melee).unwrap();
    let end = b.end_phase(&StandardEnd).unwrap().unwrap();
    assert_eq!(
        end,
        GameEnd {
            result: GameResult::Draw,
            reason: EndReason::TurnLimit
        }
    );
    assert!(b.is_over());
    assert_eq!(b.end_phase(&StandardEnd), Err(RuleViolation::GameOver));
    // A one-turn game ends after two phases.
    let mut o = Options::default();
    o.turn_limit = Some(1);
    let mut b = battle_with(o);
    skip_to(&mut b, Step::Melee).unwrap();
    assert_eq!(b.end_phase(&StandardEnd).unwrap(), None);
    skip_to(&mut b, Step::Melee).unwrap();
    assert!(b.end_phase(&StandardEnd).unwrap().is_some());
    // No limit: refused unless the scenario brings its own end.
    let mut o = Options::default();
    o.turn_limit = None;
    assert_eq!(
        Battle::new(&default_forces(), o.clone()).unwrap_err(),
        SetupError::NoTurnLimit
    );
    let mut b = Battle::new_with_own_end(&default_forces(), o).unwrap();
    for _ in 0..50 {
        skip_to(&mut b, Step::Melee).unwrap();
        assert_eq!(b.end_phase(&StandardEnd).unwrap(), None);
    }
    struct ThreeTurns;
    impl EndCondition for ThreeTurns {
        fn check(&self, b: &Battle) -> Option<GameEnd> {
            (b.clock().turn() >= 3).then_some(GameEnd {
                result: GameResult::Winner(Side::Union),
                reason: EndReason::Scenario,
            })
        }
    }
    let mut b = battle();
    let mut phases = 0;
    loop {
        skip_to(&mut b, Step::Melee).unwrap();
        if b.end_phase(&ThreeTurns).unwrap().is_some() {
            break;
        }
        phases += 1;
    }
    assert_eq!(phases, 4);
    let mut o = Options::default();
    o.turn_limit = Some(0);
    assert_eq!(o.validate(), Err(OptionsError::ZeroTurnLimit));
}

#[test]
fn north_opt_25_predeclared_attacks() {
    // NORTH-OPT-25: with predeclaration only declared attacks are resolved, once each.
    let mut o = Options::default();
    let mut b = battle_with(o.clone());
    let gun = id(&b, "CSA 1st Bde, Battery");
    let target = id(&b, "USA 1st Bde, Regt 1");
    skip_to(&mut b, Step::Artillery).unwrap();
    let g = group(Category::Artillery, target, vec![gun]);
    assert_eq!(
        b.declare_attacks(Category::Artillery, vec![g.clone()]),
        Err(RuleViolation::OptionForbids("predeclare_attacks"))
    );
    o.predeclare_attacks = true;
    let mut b = battle_with(o);
    skip_to(&mut b, Step::Artillery).unwrap();
    assert_eq!(
        b.attack(
            &g,
            &sights(1, 10.0),
            false,
            &MoraleResponse::default(),
            &mut dice([1])
        ),
        Err(RuleViolation::NotDeclared)
    );
    b.declare_attacks(Category::Artillery, vec![g.clone()])
        .unwrap();
    assert_eq!(
        b.declare_attacks(Category::Artillery, vec![]),
        Err(RuleViolation::AlreadyDeclared)
    );
    assert_eq!(b.declared_attacks().len(), 1);
    b.attack(
        &g,
        &sights(1, 10.0),
        false,
        &MoraleResponse::default(),
        &mut dice([1]),
    )
    .unwrap();
    assert!(b.declared_attacks().is_empty());
    // A unit may appear in one declared group only.
    skip_to(&mut b, Step::Musketry).unwrap();
    let inf = id(&b, "CSA 1st Bde, Regt 1");
    let t2 = id(&b, "USA 1st Bde, Regt 2");
    assert_eq!(
        b.declare_attacks(
            Category::Musketry,
            vec![
                group(Category::Musketry, target, vec![inf]),
                group(Category::Musketry, t2, vec![inf])
            ]
        ),
        Err(RuleViolation::BadGroup)
    );
}
