#![allow(missing_docs)]
//! Hot paths of the grid ruleset: bombardment, skirmish fire, combat (one roll and a whole Combat Phase),
//! morale, exact combat odds, line of sight, and a whole default game (the meeting engagement on squares and
//! on hexes, Attacker against Holder).

use acw_core::{GameRng, Resolve, Side};
use acw_grid::board::{Area, Board, GridKind, Terrain};
use acw_grid::combat::{CombatOdds, CombatPlan, CombatSide};
use acw_grid::fire::{Bombardment, Skirmish};
use acw_grid::morale::{MoraleTest, UnitMorale};
use acw_grid::options::{BombardCoverScope, FractionMode, Options};
use acw_grid::pool::HitPool;
use acw_grid::setup::Scenario;
use acw_grid::state::Phase;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn pool(n: u32, m: i8) -> HitPool {
    HitPool::uniform(n, m).unwrap_or(HitPool::EMPTY)
}

fn bombardment(c: &mut Criterion) {
    let mut g = c.benchmark_group("bombardment");
    let b = Bombardment {
        batteries: vec![pool(2, 0), pool(2, 1), pool(1, 0)],
        cover: true,
        fractions: FractionMode::RoundDown,
        carry: false,
        scope: BombardCoverScope::PerTargetPerPhase,
    };
    let mut rng = GameRng::seed(1);
    g.bench_function("roll three batteries in cover", |bn| {
        bn.iter(|| black_box(&b).roll(&mut rng))
    });
    g.bench_function("exact odds", |bn| bn.iter(|| black_box(&b).odds()));
    g.finish();
}

fn skirmish(c: &mut Criterion) {
    let mut g = c.benchmark_group("skirmish");
    let s = Skirmish {
        pool: pool(3, 0),
        cover: true,
        fractions: FractionMode::DiceForFraction,
        carry: false,
    };
    let mut rng = GameRng::seed(2);
    g.bench_function("roll 3 dice in cover", |bn| {
        bn.iter(|| black_box(&s).roll(&mut rng))
    });
    g.finish();
}

fn combat(c: &mut Criterion) {
    let mut g = c.benchmark_group("combat");
    let side = CombatSide {
        pool: pool(7, 0),
        cover: false,
        commander: true,
        capacity: 12,
        morale: 0,
    };
    let odds = CombatOdds::new(side, side);
    let mut rng = GameRng::seed(3);
    g.bench_function("roll a 7-dice combat with commanders", |bn| {
        bn.iter(|| black_box(&odds).roll(&mut rng))
    });
    g.bench_function("exact odds of a 7-dice combat", |bn| {
        bn.iter(|| black_box(&odds).odds())
    });
    // A whole Combat Phase of a seeded scenario after the armies have closed (cloned each time).
    if let Ok(mut b) = Scenario::meeting_engagement(5, GridKind::Square).build() {
        let mut dice = GameRng::seed(4);
        if let Ok(acw_grid::sequence::InitiativeOutcome::Chooses(w)) = b.roll_initiative(&mut dice)
        {
            let _ = b.choose_first_player(w, w);
        }
        while b.phase() != Phase::Combat {
            if b.advance().is_err() {
                break;
            }
        }
        g.bench_function("resolve a Combat Phase", |bn| {
            bn.iter(|| {
                let mut x = b.clone();
                black_box(x.resolve_combats(&CombatPlan::default(), &mut dice).is_ok())
            })
        });
    }
    g.finish();
}

fn morale(c: &mut Criterion) {
    let mut g = c.benchmark_group("morale");
    let mut rng = GameRng::seed(5);
    let t = MoraleTest { modifier: -1 };
    g.bench_function("morale test", |bn| bn.iter(|| black_box(&t).roll(&mut rng)));
    let u = UnitMorale {
        classes: [true, true, true],
    };
    g.bench_function("mixed-unit morale test", |bn| {
        bn.iter(|| black_box(&u).roll(&mut rng))
    });
    g.finish();
}

fn geometry(c: &mut Criterion) {
    let mut g = c.benchmark_group("line of sight");
    let opts = Options::default();
    for kind in [GridKind::Square, GridKind::Hex] {
        let Ok(mut board) = Board::rectangle(kind, 24, 24) else {
            continue;
        };
        for x in 5..12 {
            let _ = board.set_terrain(
                Area::new(x, 8),
                Terrain {
                    blocks_los: true,
                    ..Terrain::OPEN
                },
            );
        }
        let name = format!("{kind:?} 20-area line");
        g.bench_function(name, |bn| {
            bn.iter(|| {
                board.line_of_sight(
                    black_box(Area::new(2, 2)),
                    black_box(Area::new(14, 18)),
                    &opts,
                    |_| false,
                )
            })
        });
    }
    g.finish();
    let _ = Side::Union;
}

fn whole_game(c: &mut Criterion) {
    use acw_core::BySide;
    use acw_core::game::{Commander, play};
    use acw_grid::bots::{Attacker, Holder};
    use acw_grid::game::Grid;
    let mut g = c.benchmark_group("whole game");
    for (name, kind) in [("squares", GridKind::Square), ("hexes", GridKind::Hex)] {
        let scenario = Scenario::meeting_engagement(1, kind);
        let mut seed = 0u64;
        g.bench_function(name, |bn| {
            bn.iter(|| {
                seed += 1;
                let (mut a, mut h) = (Attacker::new(seed), Holder::new(seed ^ 1));
                let played = play(
                    &Grid,
                    &scenario,
                    seed,
                    BySide::new(&mut a as &mut dyn Commander<Grid>, &mut h),
                );
                black_box(played.map(|p| p.outcome).ok())
            })
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    bombardment,
    skirmish,
    combat,
    morale,
    geometry,
    whole_game
);
criterion_main!(benches);
