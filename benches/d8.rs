#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]
//! Hot paths of the D8 ruleset: a volley with saves, a melee, a morale check, and generating a map and armies.

use acw_core::{GameRng, Resolve, Side};
use acw_d8::army::Army;
use acw_d8::fire::Volley;
use acw_d8::map::{Map, Maps};
use acw_d8::melee::{Melee, Pairing};
use acw_d8::morale::{MoraleFacts, morale_points, test};
use acw_d8::sequence::Phase;
use acw_d8::state::{FireFacts, Target, UnitId};
use acw_d8::tables::{Class, Cover, TargetKind};
use acw_d8::{Battle, Options};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn volley(c: &mut Criterion) {
    let mut g = c.benchmark_group("volley");
    // An Experienced line of 12 (8 short, 4 long) at formed troops in the open.
    let v = Volley::new(Class::Experienced, false, TargetKind::Formed, 8, 4, Some(5));
    let mut rng = GameRng::seed(1);
    g.bench_function("12 D8s and saves, roll", |b| {
        b.iter(|| black_box(&v).roll(&mut rng))
    });
    g.bench_function("12 D8s and saves, exact odds", |b| {
        b.iter(|| black_box(&v).odds())
    });
    // An 8-man heavy battery: 24 D8s.
    let h = Volley::new(Class::Veteran, false, TargetKind::Formed, 24, 0, Some(6));
    g.bench_function("heavy battery 24 D8s and saves, roll", |b| {
        b.iter(|| black_box(&h).roll(&mut rng))
    });
    // On the battle state: checks, roll, apply (a clone of the battle each time).
    let o = Options::default();
    let mut r = GameRng::seed(2);
    let u = Army::generate(Side::Union, &mut r, &o, 0, 1862).unwrap();
    let cf = Army::generate(Side::Confederate, &mut r, &o, 0, 1862).unwrap();
    let mut battle = Battle::new(&u, &cf, o).unwrap();
    let inf: Vec<(UnitId, f64)> = battle.units().iter().map(|u| (u.id, 10.0)).collect();
    battle.start_turn(&inf, &mut r).unwrap();
    battle.end_movement().unwrap();
    assert_eq!(battle.phase(), Phase::Firing);
    let target = battle
        .units()
        .iter()
        .find(|u| u.side == Side::Confederate)
        .unwrap()
        .id;
    let facts = FireFacts::all_at(12, 12.0);
    g.bench_function("a volley applied to the battle (with the clone)", |b| {
        b.iter(|| {
            let mut x = battle.clone();
            x.fire(UnitId(0), Target::Unit(target), black_box(&facts), &mut rng)
                .unwrap()
        })
    });
    g.bench_function("cloning the battle alone", |b| {
        b.iter(|| black_box(&battle).clone())
    });
    g.finish();
}

fn melee(c: &mut Criterion) {
    let mut g = c.benchmark_group("melee");
    let m = Melee {
        pairings: vec![
            Pairing {
                attackers: 3,
                need: 6,
            },
            Pairing {
                attackers: 2,
                need: 6,
            },
            Pairing {
                attackers: 2,
                need: 7,
            },
            Pairing {
                attackers: 1,
                need: 5,
            },
        ],
        pooled: false,
    };
    let mut rng = GameRng::seed(3);
    g.bench_function("8 attackers on 4 defenders, roll", |b| {
        b.iter(|| black_box(&m).roll(&mut rng))
    });
    g.bench_function("8 attackers on 4 defenders, exact odds", |b| {
        b.iter(|| black_box(&m).odds())
    });
    g.finish();
}

fn morale(c: &mut Criterion) {
    let o = Options::default();
    let facts = MoraleFacts {
        brigade_mate_near: true,
        enemy_near: true,
        cover: Cover::Soft,
        ..MoraleFacts::default()
    };
    c.bench_function("morale check", |b| {
        b.iter(|| {
            test(
                Class::Experienced,
                12,
                morale_points(black_box(7), true, false, &facts, &o),
            )
        })
    });
}

fn generation(c: &mut Criterion) {
    let mut g = c.benchmark_group("generation");
    let o = Options::default();
    let mut rng = GameRng::seed(4);
    g.bench_function("one map", |b| {
        b.iter(|| Map::generate(&mut rng, &o).unwrap())
    });
    g.bench_function("three maps and the choice", |b| {
        b.iter(|| Maps::generate(&mut rng, &o).unwrap())
    });
    g.bench_function("two armies", |b| {
        b.iter(|| {
            (
                Army::generate(Side::Union, &mut rng, &o, 1, 1863).unwrap(),
                Army::generate(Side::Confederate, &mut rng, &o, 1, 1863).unwrap(),
            )
        })
    });
    g.finish();
}

fn whole_game(c: &mut Criterion) {
    use acw_core::BySide;
    use acw_core::game::{Commander, play};
    use acw_d8::bots::{Attacker, Holder};
    use acw_d8::game::{D8, Scenario};
    let mut g = c.benchmark_group("game");
    g.sample_size(10);
    let scenario = Scenario::default();
    let mut seed = 0u64;
    g.bench_function("a whole generated battle, Attacker against Holder", |b| {
        b.iter(|| {
            seed += 1;
            let mut u: Box<dyn Commander<D8>> = Box::new(Attacker::new(seed));
            let mut c: Box<dyn Commander<D8>> = Box::new(Holder::new(seed));
            play(&D8, &scenario, seed, BySide::new(u.as_mut(), c.as_mut())).unwrap()
        })
    });
    g.finish();
}

criterion_group!(benches, volley, melee, morale, generation, whole_game);
criterion_main!(benches);
