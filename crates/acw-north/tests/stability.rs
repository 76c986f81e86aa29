//! Value stability: a fixed seed gives exactly these results. A change here is a deliberate diff: a rules
//! change, or a change in how faces are drawn.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::measure::Inches;
use acw_core::{GameRng, Resolve};
use acw_north::combat::{AttackGroup, Category, CombatToss, Sight};
use acw_north::command::{OrderCheck, RallyToss};
use acw_north::melee::ChargeOrder;
use acw_north::morale::{Choice, MoraleCheck, MoraleResponse};
use acw_north::movement::{AccomplishmentToss, ObstacleOutcome, ObstacleToss};
use acw_north::sequence::Step;
use acw_north::tables::{BrigadeOrder, MoraleBand, RallyResult};
use common::*;

#[test]
fn fixed_seed_sequence() {
    let mut rng = GameRng::seed(1863);
    let acc: Vec<bool> = (0..6)
        .map(|_| {
            AccomplishmentToss {
                capacity: 4,
                charge_cover: false,
            }
            .roll(&mut rng)
        })
        .collect();
    let hits: Vec<bool> = (0..6)
        .map(|_| {
            CombatToss {
                modifier: 0,
                automatic: false,
            }
            .roll(&mut rng)
        })
        .collect();
    let rally = RallyToss { melee: true }.roll(&mut rng);
    let check = MoraleCheck {
        rallies: 1,
        ..MoraleCheck::default()
    }
    .roll(&mut rng);
    let order = OrderCheck {
        current: BrigadeOrder::Advance,
    }
    .roll(&mut rng);
    let obstacle = ObstacleToss {
        obstacles: 2,
        per_obstacle: true,
    }
    .roll(&mut rng);
    // A short bout in the default battle: a charge, the battery's shot and the melee.
    let mut b = battle();
    let c = id(&b, "CSA 1st Bde, Regt 1");
    let gun = id(&b, "CSA 1st Bde, Battery");
    let t = id(&b, "USA 1st Bde, Regt 1");
    skip_to(&mut b, Step::Units).unwrap();
    let charge = b
        .attempt_charge(
            c,
            t,
            ChargeOrder {
                distance: Inches(4.0),
                ..ChargeOrder::default()
            },
            &mut rng,
        )
        .unwrap();
    skip_to(&mut b, Step::Artillery).unwrap();
    let shot = b
        .attack(
            &AttackGroup {
                category: Category::Artillery,
                target: t,
                attackers: vec![gun],
            },
            &[Sight::clear(Inches(20.0))],
            false,
            &MoraleResponse::default(),
            &mut rng,
        )
        .unwrap();
    skip_to(&mut b, Step::Melee).unwrap();
    let melee = b
        .attack(
            &AttackGroup {
                category: Category::Melee,
                target: t,
                attackers: vec![c],
            },
            &[Sight::contact()],
            false,
            &MoraleResponse::default(),
            &mut rng,
        )
        .unwrap();
    assert_eq!(acc, [true, true, true, false, true, true]);
    assert_eq!(hits, [false, false, false, false, true, true]);
    assert_eq!(rally, RallyResult::Captured);
    assert_eq!(check.band, MoraleBand::Rallies);
    assert_eq!(check.rally, [Some(RallyResult::Killed), None]);
    assert_eq!(order, BrigadeOrder::Hold);
    assert_eq!(obstacle, ObstacleOutcome::Crossed);
    assert_eq!(
        (charge.face, charge.contact, charge.joined_existing),
        (3, true, false)
    );
    assert_eq!((shot.face, shot.hit), (Some(2), false));
    assert_eq!(
        (melee.face, melee.hit, melee.modifiers.first_round),
        (Some(5), true, 1)
    );
    let m = melee.morale.unwrap();
    assert_eq!(
        (m.face, m.outcome.band, m.choice),
        (4, MoraleBand::Choice, Some(Choice::LoseStand))
    );
    assert_eq!(b.unit(t).unwrap().current_stands(), 3);
    assert_eq!(b.unit(t).unwrap().contacts(), &[c]);
}
