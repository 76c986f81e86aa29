//! Invariants under random input: strength never negative, casualties within bounds, every distribution sums
//! to 1, and random play never reaches a state the rules forbid.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::dice::{Dice, Die};
use acw_core::{GameRng, Resolve, Side};
use acw_grid::board::{Area, GridKind};
use acw_grid::casualties::CoverHalving;
use acw_grid::combat::{CombatOdds, CombatPlan, CombatSide};
use acw_grid::fire::BombardOrder;
use acw_grid::movement::MoveOrder;
use acw_grid::options::FractionMode;
use acw_grid::pool::HitPool;
use acw_grid::setup::Scenario;
use acw_grid::state::{Battle, UnitId};
use acw_grid::tables::{MoraleResult, StandType};
use common::*;
use proptest::prelude::*;

fn total(d: &acw_core::Dist<impl Ord + Clone>) -> f64 {
    d.outcomes().iter().map(|(_, p)| p).sum()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn hits_never_make_strength_negative(stands in 1u8..=6, hits in proptest::collection::vec(0u32..9, 1..6)) {
        let mut b = square();
        let u = put_inf(&mut b, Side::Union, a(3, 3), stands, 0);
        let mut taken = 0u32;
        for h in hits {
            if b.unit(u).is_err() {
                break;
            }
            let r = bombard_hits(&mut b, &[(u, h)])[0];
            taken += h;
            prop_assert!(r.leftover < 2);
            let lost = b.losses(Side::Union).stands_lost;
            let left = b.unit(u).map(|x| x.stand_count()).unwrap_or(0);
            prop_assert_eq!(lost + left, u32::from(stands));
            prop_assert_eq!(r.destroyed, taken >= 2 * u32::from(stands));
        }
    }

    #[test]
    fn pools_and_halving_sum_to_one(
        groups in proptest::collection::vec((-2i8..=2, 0u32..5), 0..4),
        hits in 0u32..12,
        carry in any::<bool>(),
    ) {
        let pool = groups.iter().fold(HitPool::EMPTY, |p, &(m, n)| p.with(n, m).unwrap());
        let d = pool.odds();
        prop_assert!((total(&d) - 1.0).abs() < 1e-9);
        prop_assert!((d.mean() - pool.mean_hits()).abs() < 1e-9);
        prop_assert!(*d.max() <= pool.dice());
        for mode in [FractionMode::RoundDown, FractionMode::CarryFractions, FractionMode::DiceForFraction] {
            let h = CoverHalving { hits, mode, carry }.odds();
            prop_assert!((total(&h) - 1.0).abs() < 1e-9);
            prop_assert!(h.outcomes().iter().all(|(x, _)| x.hits <= hits.div_ceil(2) + 1));
        }
    }

    #[test]
    fn combat_odds_sum_to_one(na in 0u32..5, nb in 0u32..5, cover in any::<bool>(), cap in 0u32..5) {
        let side = |n| CombatSide {
            pool: HitPool::uniform(n, 0).unwrap(),
            cover,
            commander: true,
            capacity: cap,
            morale: 0,
        };
        let d = CombatOdds::new(side(na), side(nb)).odds();
        prop_assert!((total(&d) - 1.0).abs() < 1e-9);
        prop_assert!(d.outcomes().iter().all(|(o, _)| o.hits_on_a <= nb && o.hits_on_b <= na));
    }

    #[test]
    fn random_play_keeps_the_rules(seed in any::<u64>(), hex in any::<bool>()) {
        let kind = if hex { GridKind::Hex } else { GridKind::Square };
        let mut b = Scenario::meeting_engagement(seed, kind).build().unwrap();
        let start: u32 = b.units().map(|u| u.stand_count()).sum();
        let mut rng = GameRng::seed(seed ^ 0x5eed);
        for _ in 0..5 {
            play_turn(&mut b, &mut rng);
            prop_assert!(b.validate().is_ok());
            let on_table: u32 = b.units().map(|u| u.stand_count()).sum();
            let lost = b.losses(Side::Union).stands_lost + b.losses(Side::Confederate).stands_lost;
            prop_assert_eq!(on_table + lost, start);
        }
    }
}

fn pick<T: Copy>(rng: &mut GameRng, v: &[T]) -> Option<T> {
    if v.is_empty() {
        None
    } else {
        v.get(rng.index(v.len())).copied()
    }
}

fn play_turn(b: &mut Battle, rng: &mut GameRng) {
    if let Ok(acw_grid::sequence::InitiativeOutcome::Chooses(s)) = b.roll_initiative(rng) {
        let first = if rng.face(Die::D2) == 1 { s } else { s.enemy() };
        b.choose_first_player(s, first).unwrap();
    }
    // Bombardment: each battery tries its targets.
    let ids: Vec<UnitId> = b.units().map(|u| u.id()).collect();
    let mut orders = Vec::new();
    for &g in &ids {
        let Ok(u) = b.unit(g) else { continue };
        if !u.has(StandType::Artillery) {
            continue;
        }
        for &t in &ids {
            let o = BombardOrder {
                battery: g,
                target: t,
            };
            if b.bombard_dice(o).is_ok() {
                orders.push(o);
                break;
            }
        }
    }
    b.bombardment_phase(&orders, rng).unwrap();
    b.advance().unwrap();
    for _ in 0..2 {
        let side = b.moving_side().unwrap();
        b.command_phase(side, rng).unwrap();
        let mine: Vec<UnitId> = b
            .units()
            .filter(|u| u.side() == side)
            .map(|u| u.id())
            .collect();
        for id in mine {
            let Ok(u) = b.unit(id) else { continue };
            if u.disordered() {
                let _ = b.rally(id);
                continue;
            }
            let mut path = Vec::new();
            let mut at = u.area();
            let steps = 1 + rng.index(3);
            let foes: Vec<Area> = b
                .units()
                .filter(|e| e.side() != side)
                .map(|e| e.area())
                .collect();
            for _ in 0..steps {
                let n: Vec<Area> = b.board().neighbours(at).collect();
                let near = |x: &Area| {
                    foes.iter()
                        .map(|f| b.board().distance(*x, *f, b.options()))
                        .min()
                        .unwrap_or(0)
                };
                let best = n.iter().map(near).min().unwrap_or(0);
                let closer: Vec<Area> = n.iter().copied().filter(|x| near(x) == best).collect();
                let choice = if rng.face(Die::D4) == 1 {
                    pick(rng, &n)
                } else {
                    pick(rng, &closer)
                };
                if let Some(next) = choice {
                    path.push(next);
                    at = next;
                }
            }
            let target = foes
                .iter()
                .copied()
                .min_by_key(|x| b.board().distance(at, *x, b.options()));
            let f = match target {
                Some(t) if rng.face(Die::D6) > 1 => b.board().facings_towards(at, t)[0],
                _ => acw_grid::board::Facing::new(
                    b.board().kind(),
                    rng.index(usize::from(b.board().kind().sides())) as u8,
                )
                .unwrap(),
            };
            let before = b.clone();
            let r = b.move_unit(&MoveOrder::along(u, path).facing(f));
            if r.is_err() {
                prop_assert_eq_ok(&before, b);
                let _ = b.entrench(id, rng);
            }
        }
        b.advance().unwrap();
    }
    b.resolve_combats(&CombatPlan::default(), rng).unwrap();
    let owed: Vec<_> = b.owed_morale_tests().iter().map(|t| t.unit).collect();
    for u in owed {
        if b.unit(u).is_ok() {
            b.test_morale(&[u], rng).unwrap();
        }
    }
    while let Some(r) = b.owed_retreats().first().map(|r| r.unit) {
        b.carry_out(r).unwrap();
    }
    for cav in b.cavalry_in_contact() {
        let enemies: Vec<Area> = b
            .adjacent_enemies(cav)
            .unwrap()
            .iter()
            .map(|e| b.unit(*e).unwrap().area())
            .collect();
        let plan = b
            .retreat_plan(cav, acw_grid::morale::RetreatKind::FullMove, &enemies)
            .unwrap();
        let path = match plan {
            acw_grid::morale::RetreatPlan::Clear(p) | acw_grid::morale::RetreatPlan::Blocked(p) => {
                p.into_iter().next().unwrap_or_default()
            }
            acw_grid::morale::RetreatPlan::Surrender => Vec::new(),
        };
        let _ = b.forced_cavalry_retreat(cav, &path);
    }
    let _ = MoraleResult::Steady;
    b.advance().unwrap();
}

fn prop_assert_eq_ok(before: &Battle, after: &Battle) {
    assert_eq!(before, after, "a refused order changed the state");
}
