//! Benches of acw-north's hot paths: the accomplishment toss, each kind of fire, melee, morale checks, the
//! exact odds of a whole attack, and a full attack resolved on a battle's state.
#![allow(missing_docs)]

use acw_core::measure::Inches;
use acw_core::{GameRng, Resolve};
use acw_north::combat::{AttackGroup, Category, CombatSituation, Sight, TargetFacts};
use acw_north::melee::ChargeOrder;
use acw_north::morale::{ChoicePolicy, MoraleCheck, MoraleResponse, MoraleToss, WholeAttack};
use acw_north::movement::AccomplishmentToss;
use acw_north::sequence::Step;
use acw_north::setup::default_forces;
use acw_north::{Battle, Options};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// Moves on to `step`, excusing the ordered moves still owed (these benches measure combat, not movement).
fn skip_to(b: &mut Battle, step: Step) -> Result<(), acw_north::RuleViolation> {
    if step > Step::Units && b.clock().step() <= Step::Units {
        b.advance_to(Step::Units)?;
        for u in b.owed_moves() {
            b.excuse_move(u)?;
        }
    }
    b.advance_to(step)
}

fn accomplishment(c: &mut Criterion) {
    let mut g = c.benchmark_group("north accomplishment");
    let mut rng = GameRng::seed(1);
    let toss = AccomplishmentToss {
        capacity: 4,
        charge_cover: true,
    };
    g.bench_function("roll", |b| {
        b.iter(|| black_box(black_box(toss).roll(&mut rng)))
    });
    g.bench_function("odds", |b| b.iter(|| black_box(black_box(toss).odds())));
    g.finish();
}

fn fire(c: &mut Criterion) {
    let mut g = c.benchmark_group("north fire");
    let o = Options::default();
    let mut rng = GameRng::seed(2);
    let artillery = CombatSituation {
        category: Category::Artillery,
        attackers: 3,
        long_range_batteries: 2,
        target: TargetFacts {
            behind_cover: true,
            deployed: true,
            ..TargetFacts::default()
        },
        ..CombatSituation::default()
    };
    g.bench_function("artillery modifiers and roll", |b| {
        b.iter(|| black_box(black_box(&artillery).toss(&o).roll(&mut rng)))
    });
    let musketry = CombatSituation {
        category: Category::Musketry,
        attackers: 2,
        mounted_cavalry_attackers: 1,
        target: TargetFacts {
            mounted_cavalry: true,
            deployed: false,
            ..TargetFacts::default()
        },
        ..CombatSituation::default()
    };
    g.bench_function("musketry modifiers and roll", |b| {
        b.iter(|| black_box(black_box(&musketry).toss(&o).roll(&mut rng)))
    });
    // A whole artillery attack on the default battle's state, morale check included.
    let base = Battle::new(&default_forces(), Options::default()).ok();
    if let Some(mut base) = base {
        let gun = base.unit_named("CSA 1st Bde, Battery").map(|u| u.id());
        let target = base.unit_named("USA 1st Bde, Regt 1").map(|u| u.id());
        if let (Some(gun), Some(target), Ok(())) =
            (gun, target, skip_to(&mut base, Step::Artillery))
        {
            let group = AttackGroup {
                category: Category::Artillery,
                target,
                attackers: vec![gun],
            };
            let sight = [Sight::clear(Inches(20.0))];
            let response = MoraleResponse::default();
            g.bench_function("artillery attack on the battle state", |b| {
                b.iter(|| {
                    let mut battle = base.clone();
                    black_box(
                        battle
                            .attack(&group, &sight, false, &response, &mut rng)
                            .is_ok(),
                    )
                })
            });
        }
    }
    g.finish();
}

fn melee(c: &mut Criterion) {
    let mut g = c.benchmark_group("north melee");
    let o = Options::default();
    let mut rng = GameRng::seed(3);
    let first = CombatSituation {
        category: Category::Melee,
        attackers: 2,
        mounted_cavalry_attackers: 1,
        first_round: true,
        target: TargetFacts {
            behind_cover: true,
            deployed: true,
            ..TargetFacts::default()
        },
        ..CombatSituation::default()
    };
    g.bench_function("melee modifiers and roll", |b| {
        b.iter(|| black_box(black_box(&first).toss(&o).roll(&mut rng)))
    });
    // Charge and melee on the default battle's state.
    if let Ok(mut base) = Battle::new(&default_forces(), Options::default()) {
        let c1 = base.unit_named("CSA 1st Bde, Regt 1").map(|u| u.id());
        let t = base.unit_named("USA 1st Bde, Regt 1").map(|u| u.id());
        if let (Some(c1), Some(t), Ok(())) = (c1, t, skip_to(&mut base, Step::Units)) {
            let group = AttackGroup {
                category: Category::Melee,
                target: t,
                attackers: vec![c1],
            };
            let response = MoraleResponse::default();
            g.bench_function("charge then melee on the battle state", |b| {
                b.iter(|| {
                    let mut battle = base.clone();
                    let order = ChargeOrder {
                        distance: Inches(3.0),
                        ..ChargeOrder::default()
                    };
                    let charged = battle
                        .attempt_charge(c1, t, order, &mut rng)
                        .is_ok_and(|r| r.contact);
                    if charged && skip_to(&mut battle, Step::Melee).is_ok() {
                        black_box(
                            battle
                                .attack(&group, &[Sight::contact()], false, &response, &mut rng)
                                .is_ok(),
                        );
                    }
                })
            });
        }
    }
    g.finish();
}

fn morale(c: &mut Criterion) {
    let mut g = c.benchmark_group("north morale");
    let mut rng = GameRng::seed(4);
    let toss = MoraleToss { modifier: -1 };
    g.bench_function("morale toss roll", |b| {
        b.iter(|| black_box(black_box(toss).roll(&mut rng)))
    });
    let check = MoraleCheck {
        modifier: 0,
        rallies: 1,
        melee: true,
        ..MoraleCheck::default()
    };
    g.bench_function("morale check with a rally, roll", |b| {
        b.iter(|| black_box(black_box(check).roll(&mut rng)))
    });
    g.bench_function("morale check with a rally, exact odds", |b| {
        b.iter(|| black_box(black_box(check).odds()))
    });
    let attack = WholeAttack {
        toss: first_toss(),
        check,
        stands: 4,
        artillery: false,
        crews_removed: false,
        choice: ChoicePolicy::default(),
    };
    g.bench_function("whole attack, exact odds", |b| {
        b.iter(|| black_box(black_box(attack).odds()))
    });
    g.bench_function("whole attack, roll", |b| {
        b.iter(|| black_box(black_box(attack).roll(&mut rng)))
    });
    g.finish();
}

fn first_toss() -> acw_north::combat::CombatToss {
    CombatSituation::default().toss(&Options::default())
}

/// A whole default game, and simulation throughput on one core and on all cores.
fn game(c: &mut Criterion) {
    use acw_core::game::{Commander, play, simulate};
    use acw_north::bots::{Attacker, Holder};
    use acw_north::game::North;
    use acw_north::setup::Scenario;
    let scenario = Scenario::default();
    let mut g = c.benchmark_group("north game");
    g.sample_size(10);
    let mut seed = 0u64;
    g.bench_function("whole default game (Attacker v Holder)", |b| {
        b.iter(|| {
            seed += 1;
            let (mut a, mut h) = (Attacker::new(seed), Holder::new(seed));
            black_box(play(
                &North,
                &scenario,
                seed,
                acw_core::BySide::new(&mut a as &mut dyn Commander<North>, &mut h),
            ))
            .is_ok()
        })
    });
    let bots = |side: acw_core::Side, seed: u64| -> Box<dyn Commander<North>> {
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
                    black_box(simulate(&North, &scenario, 7, 20, bots, |_, _| {})).is_ok()
                })
            })
        });
    }
    g.finish();
}

criterion_group!(benches, accomplishment, fire, melee, morale, game);
criterion_main!(benches);
