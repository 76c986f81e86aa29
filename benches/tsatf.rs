#![allow(missing_docs)]
//! Hot paths of Strike for Your God and Country: mass fire, type firing, one melee round, a morale test, a
//! whole melee (rolled and exact), a volley applied to the battle state, and a whole default game through the
//! game layer (Attacker against Holder), with simulation throughput on one thread and on all.

use acw_core::{GameRng, Resolve};
use acw_tsatf::battle::{Battle, FireOrder};
use acw_tsatf::fire::{MassFire, TargetArea, TypeFire};
use acw_tsatf::melee::{Combat, Melee, MeleeSide};
use acw_tsatf::morale::MoraleTest;
use acw_tsatf::options::{Options, Remainder};
use acw_tsatf::setup::default_forces;
use acw_tsatf::state::Phase;
use acw_tsatf::tables::{FireRow, Quality, TargetClass};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn fire(c: &mut Criterion) {
    let mut g = c.benchmark_group("fire");
    let mass = MassFire {
        row: FireRow::AverageMusket,
        class: TargetClass::II,
        figures: 10,
        remainder: Remainder::Chance,
        green_class3_pattern: false,
    };
    let mut rng = GameRng::seed(1);
    g.bench_function("mass fire, 10 Average muskets, roll", |b| {
        b.iter(|| black_box(&mass).roll(&mut rng))
    });
    g.bench_function("mass fire, exact odds", |b| {
        b.iter(|| black_box(&mass).odds())
    });
    let typed = TypeFire::of(
        FireRow::ArtilleryShort,
        TargetClass::I,
        12,
        &Options::default(),
    );
    g.bench_function("type firing, a gun's 12 D20, roll", |b| {
        b.iter(|| black_box(&typed).roll(&mut rng))
    });
    g.bench_function("type firing, exact odds", |b| {
        b.iter(|| black_box(&typed).odds())
    });
    g.finish();
}

fn melee(c: &mut Criterion) {
    let mut g = c.benchmark_group("melee");
    let mut rng = GameRng::seed(2);
    let bout = Combat { modifier: 1 };
    g.bench_function("one combat (a pair's round), roll", |b| {
        b.iter(|| black_box(&bout).roll(&mut rng))
    });
    let o = Options::default();
    let side = |cadre, others, modifier| MeleeSide {
        cadre,
        others,
        modifier,
        cadre_first: true,
    };
    let m = Melee::new(side(2, 10, 1), side(2, 8, 1), &o);
    g.bench_function("a whole 12 v 10 melee, roll", |b| {
        b.iter(|| black_box(&m).roll(&mut rng))
    });
    g.bench_function("a whole 12 v 10 melee, exact odds", |b| {
        b.iter(|| black_box(&m).odds())
    });
    let big = Melee::new(side(3, 18, 0), side(3, 18, 2), &o);
    g.bench_function("a whole 21 v 21 melee, exact odds", |b| {
        b.iter(|| black_box(&big).odds())
    });
    g.finish();
}

fn morale(c: &mut Criterion) {
    let mut g = c.benchmark_group("morale");
    let mut rng = GameRng::seed(3);
    let t = MoraleTest::critical(Quality::Average, true, -1);
    g.bench_function("2D6 critical test, roll", |b| {
        b.iter(|| black_box(&t).roll(&mut rng))
    });
    g.bench_function("2D6 critical test, exact odds", |b| {
        b.iter(|| black_box(&t).odds())
    });
    g.finish();
}

/// Passes every unit's card in the current phase and moves to the next phase.
fn pass_phase(b: &mut Battle, rng: &mut GameRng) -> Option<()> {
    b.begin_phase(rng).ok()?;
    while let Ok(side) = b.turn_card(rng) {
        let id = b
            .units()
            .iter()
            .find(|u| u.side() == side && !u.acted())
            .map(|u| u.id())?;
        b.hold(id).ok()?;
    }
    b.advance().ok().map(|_| ())
}

fn battle(c: &mut Criterion) {
    let mut g = c.benchmark_group("battle");
    let forces = default_forces().unwrap_or_default();
    let Ok(mut start) = Battle::new(&forces, Options::default()) else {
        return;
    };
    let mut rng = GameRng::seed(4);
    if pass_phase(&mut start, &mut rng).is_none()
        || start.begin_phase(&mut rng).is_err()
        || start.phase() != Phase::Firing
    {
        return;
    }
    let (union, confederate) = (start.units()[0].id(), start.units()[3].id());
    g.bench_function(
        "a company's volley applied to the battle (card, fire, hit cards)",
        |b| {
            b.iter(|| {
                let mut battle = start.clone();
                let mut r = GameRng::seed(5);
                if let Ok(side) = battle.turn_card(&mut r) {
                    let (firer, target) = if side == acw_core::Side::Union {
                        (union, confederate)
                    } else {
                        (confederate, union)
                    };
                    let order = FireOrder {
                        target,
                        range: 12.0,
                        in_reach: None,
                        area: TargetArea {
                            figures: 21,
                            close_order: 21,
                            ..TargetArea::default()
                        },
                        canister: false,
                        with: Vec::new(),
                        hit_order: Vec::new(),
                    };
                    let _ = black_box(battle.fire(firer, &order, &mut r));
                }
            })
        },
    );
    g.finish();
}

/// A whole default game, and simulation throughput on one core and on all cores.
fn game(c: &mut Criterion) {
    use acw_core::game::{Commander, play, simulate};
    use acw_tsatf::bots::{Attacker, Holder};
    use acw_tsatf::game::{Scenario, Tsatf};
    let scenario = Scenario::default();
    let mut g = c.benchmark_group("tsatf game");
    g.sample_size(10);
    let mut seed = 0u64;
    g.bench_function("whole default game (Attacker v Holder)", |b| {
        b.iter(|| {
            seed += 1;
            let (mut a, mut h) = (Attacker::new(seed), Holder::new(seed));
            black_box(play(
                &Tsatf,
                &scenario,
                seed,
                acw_core::BySide::new(&mut a as &mut dyn Commander<Tsatf>, &mut h),
            ))
            .is_ok()
        })
    });
    let bots = |side: acw_core::Side, seed: u64| -> Box<dyn Commander<Tsatf>> {
        match side {
            acw_core::Side::Union => Box::new(Attacker::new(seed)),
            acw_core::Side::Confederate => Box::new(Holder::new(seed)),
        }
    };
    for threads in [1, 0] {
        let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(threads).build() else {
            continue;
        };
        let name = if threads == 1 {
            "simulate 20 games, 1 thread".to_string()
        } else {
            format!("simulate 20 games, {} threads", pool.current_num_threads())
        };
        g.bench_function(name.as_str(), |b| {
            b.iter(|| {
                pool.install(|| {
                    black_box(simulate(&Tsatf, &scenario, 7, 20, bots, |_, _| {})).is_ok()
                })
            })
        });
    }
    g.finish();
}

criterion_group!(benches, fire, melee, morale, battle, game);
criterion_main!(benches);
