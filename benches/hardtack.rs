#![allow(missing_docs)]
//! Hot paths of Hardtack: fire (one roll, the whole chain, and exact odds), round shot with bounces,
//! canister (and through skirmishers, a blast carried through a company onto a gun team, a whole blast with
//! and without skirmishers), a confidence test, a close assault (the melee to its end, rolled and exact), stand-based fire,
//! and a combined assault.

use acw_core::dice::ScriptedDice;
use acw_core::{GameRng, Resolve, Side};
use acw_hardtack::DieType::{D4, D6, D8, D10};
use acw_hardtack::artillery::{
    AreaDamage, BlastChain, BlastCompany, BlastOntoTeam, BlastScreen, BlastTeam, ShotBounces,
};
use acw_hardtack::fire::{
    FireDice, FirerDice, Impact, RangeFacts, ScreenedVolley, StandFire, Volley,
};
use acw_hardtack::melee::{
    AssaultFire, CloseAssault, CombinedAssault, CombinedMelee, FinalFire, Melee, MeleeDie,
    MeleeSide, Partner,
};
use acw_hardtack::morale::{ConfidenceTest, ReactionTest};
use acw_hardtack::movement::CombatMove;
use acw_hardtack::options::{AssaultTestCasualties, KillThreshold, TwoLevelDrop};
use acw_hardtack::state::{
    Ammunition, CanisterFacts, CompanySpec, FigureRef, Formation, ShotImpactFacts,
};
use acw_hardtack::tables::{FieldPiece, Leadership};
use acw_hardtack::{Battle, Options};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn musket() -> Impact {
    Impact {
        impact: D6,
        armour: D4,
        armour_shift: 0,
        kill: KillThreshold::DoubleOrMore,
    }
}

fn fire(c: &mut Criterion) {
    let mut g = c.benchmark_group("fire");
    let dice = FireDice {
        firer: FirerDice::two(D8, D8),
        range: D6,
    };
    let volley = Volley {
        fire: dice,
        impact: musket(),
        pool: 8,
    };
    let mut rng = GameRng::seed(1);
    g.bench_function("roll: fire dice and potential hits", |b| {
        b.iter(|| black_box(&dice).roll(&mut rng))
    });
    g.bench_function("roll: volley to casualties (8 figures)", |b| {
        b.iter(|| black_box(&volley).roll(&mut rng))
    });
    g.bench_function("exact: fire dice", |b| b.iter(|| black_box(&dice).odds()));
    g.bench_function("exact: volley to casualties (8 figures)", |b| {
        b.iter(|| black_box(&volley).odds())
    });
    g.finish();
}

fn shot(c: &mut Criterion) {
    let mut g = c.benchmark_group("round shot");
    let bounces = ShotBounces {
        quality: D10,
        lv: Leadership::ONE,
        rifled: false,
    };
    let area = AreaDamage {
        impact: Impact {
            impact: D8,
            armour: D4,
            armour_shift: 1,
            kill: KillThreshold::DoubleOrMore,
        },
        figures: 4,
    };
    let mut rng = GameRng::seed(2);
    g.bench_function("roll: bounce chain", |b| {
        b.iter(|| black_box(&bounces).roll(&mut rng))
    });
    g.bench_function("exact: bounce chain", |b| {
        b.iter(|| black_box(&bounces).odds())
    });
    g.bench_function("exact: four figures in the area", |b| {
        b.iter(|| black_box(&area).odds())
    });
    // The engine: a shot that misses, two figures at the first impact, a bounce, four figures in cover.
    let mut battle = Battle::new(Options::default());
    let crew = battle
        .add_company(CompanySpec::new("crew", Side::Union, 3))
        .ok();
    let foe = battle
        .add_company(CompanySpec::new("rebels", Side::Confederate, 8))
        .ok();
    let (Some(crew), Some(foe)) = (crew, foe) else {
        return;
    };
    let Ok(gun) = battle.add_gun("Napoleon", FieldPiece::Napoleon12lb, false, crew) else {
        return;
    };
    let first = ShotImpactFacts {
        gun_distance: 49.0,
        figures: vec![
            (
                FigureRef {
                    company: foe,
                    index: 1,
                },
                acw_hardtack::fire::Cover::Open,
                false,
            ),
            (
                FigureRef {
                    company: foe,
                    index: 2,
                },
                acw_hardtack::fire::Cover::Open,
                false,
            ),
        ],
        guns: vec![],
        horses: vec![],
        ground_allows_bounce: true,
    };
    let second = ShotImpactFacts {
        gun_distance: 73.0,
        figures: (3..7)
            .map(|i| {
                (
                    FigureRef {
                        company: foe,
                        index: i,
                    },
                    acw_hardtack::fire::Cover::Soft,
                    false,
                )
            })
            .collect(),
        guns: vec![],
        horses: vec![],
        ground_allows_bounce: false,
    };
    g.bench_function("engine: shot with a bounce (scripted)", |b| {
        b.iter(|| {
            let mut bt = battle.clone();
            let _ = bt.activate(crew);
            let _ = bt.load(gun, Ammunition::Shot);
            let _ = bt.fire_shot(
                gun,
                acw_hardtack::artillery::ShotRange::Medium,
                0.0,
                &mut ScriptedDice::faces([1, 11, 5]),
            );
            let _ = bt.shot_impact(&first, &mut ScriptedDice::faces([4, 6, 2, 9, 8, 5, 12, 1]));
            let _ = bt.shot_impact(
                &second,
                &mut ScriptedDice::faces([3, 5, 2, 3, 5, 4, 6, 2, 8]),
            );
            black_box(bt)
        })
    });
    g.finish();
}

fn canister(c: &mut Criterion) {
    let mut g = c.benchmark_group("canister");
    let dice = FireDice {
        firer: FirerDice::three(D8, D10, D10),
        range: D8,
    };
    let volley = Volley {
        fire: dice,
        impact: Impact {
            impact: acw_hardtack::DieType::D12,
            armour: D4,
            armour_shift: 0,
            kill: KillThreshold::DoubleOrMore,
        },
        pool: 12,
    };
    let mut rng = GameRng::seed(3);
    g.bench_function("roll: 3-inch rifle at D8 to casualties", |b| {
        b.iter(|| black_box(&volley).roll(&mut rng))
    });
    g.bench_function("exact: 3-inch rifle at D8 to casualties", |b| {
        b.iter(|| black_box(&volley).odds())
    });
    // HT-ART-19, HT-ART-22: the same canister at a company of 12 carried on to a gun team of four horses
    // behind it (its range die a D6 before the blast's shift)
    let blast = BlastOntoTeam::new(
        volley,
        D8,
        FieldPiece::Rifle10lbOr3in,
        D6,
        0,
        4,
        Options::default(),
    );
    g.bench_function(
        "roll: blast through 12 figures onto a team of 4 horses",
        |b| b.iter(|| black_box(&blast).roll(&mut rng)),
    );
    g.bench_function(
        "exact: blast through 12 figures onto a team of 4 horses",
        |b| b.iter(|| black_box(&blast).odds()),
    );
    // HT-ART-18, HT-FIR-23: the same canister at 12 figures through 4 skirmishers in breastplates (D6)
    // in front of them, the pool split over the two companies' armours
    let screened = ScreenedVolley {
        volley,
        screen_armour: D6,
        screen: 4,
    };
    g.bench_function(
        "roll: 3-inch rifle at D8 through 4 skirmishers to 12 figures",
        |b| b.iter(|| black_box(&screened).roll(&mut rng)),
    );
    g.bench_function(
        "exact: 3-inch rifle at D8 through 4 skirmishers to 12 figures",
        |b| b.iter(|| black_box(&screened).odds()),
    );
    // HT-ART-19, HT-INT-11: a whole blast through two companies of 8 in the open (3" and 6") and on to a
    // team of 4 horses (9"), without and with 4 skirmishers in front of the first, counting every damaged
    // company
    let band = FieldPiece::Rifle10lbOr3in.canister_band();
    let company = |d: f64| BlastCompany {
        range: RangeFacts::at(d, band),
        armour: D4,
        pool: 8,
    };
    let team = Some(BlastTeam {
        range: RangeFacts::at(9.0, band),
        horses: 4,
    });
    let mut damaged = Options::default();
    damaged.blast_through_count = acw_hardtack::options::BlastThroughCount::EveryDamagedCompany;
    let line = [company(3.0), company(6.0)];
    let chains = (
        BlastChain::new(D8, FieldPiece::Rifle10lbOr3in, &line, team, damaged),
        BlastChain::with_screens(
            D8,
            FieldPiece::Rifle10lbOr3in,
            &line,
            &[Some(BlastScreen {
                armour: D4,
                pool: 4,
            })],
            team,
            damaged,
        ),
    );
    if let (Ok(open), Ok(screened)) = chains {
        g.bench_function("exact: blast through 8 and 8 onto a team of 4", |b| {
            b.iter(|| black_box(&open).odds())
        });
        g.bench_function(
            "exact: blast through 4 skirmishers, 8 and 8 onto a team of 4",
            |b| b.iter(|| black_box(&screened).odds()),
        );
    }
    let mut battle = Battle::new(Options::default());
    let crew = battle
        .add_company(CompanySpec::new("crew", Side::Union, 3))
        .ok();
    let mut line = CompanySpec::new("line", Side::Confederate, 8);
    line.formation = Formation::Line;
    let foe = battle.add_company(line).ok();
    let (Some(crew), Some(foe)) = (crew, foe) else {
        return;
    };
    let Ok(gun) = battle.add_gun("3-inch rifle", FieldPiece::Rifle10lbOr3in, true, crew) else {
        return;
    };
    let _ = battle.activate(crew);
    let _ = battle.load(gun, Ammunition::Canister);
    let facts = CanisterFacts {
        distance: 22.0,
        ..CanisterFacts::default()
    };
    let mut seed = 0u64;
    g.bench_function("engine: canister at a line (seeded)", |b| {
        b.iter(|| {
            let mut bt = battle.clone();
            seed += 1;
            let _ = bt.fire_canister(gun, foe, facts, &mut GameRng::seed(seed));
            black_box(bt)
        })
    });
    g.finish();
}

fn confidence(c: &mut Criterion) {
    let mut g = c.benchmark_group("confidence");
    let t = ConfidenceTest {
        quality: D8,
        lv: Leadership::TWO,
        tl: 2,
        two_level: TwoLevelDrop::HalfOrLess,
    };
    let mut rng = GameRng::seed(4);
    g.bench_function("roll: confidence test", |b| {
        b.iter(|| black_box(&t).roll(&mut rng))
    });
    g.bench_function("exact: confidence test", |b| {
        b.iter(|| black_box(&t).odds())
    });
    g.finish();
}

fn assault(c: &mut Criterion) {
    let mut g = c.benchmark_group("close assault");
    let side = |n| MeleeSide {
        figures: n,
        first_round: MeleeDie::plain(D8),
        quality: D8,
        lv: Leadership::TWO,
        modifier: 0,
        on_foot: 0,
    };
    let melee = Melee {
        attacker: side(8),
        defender: side(6),
        casualties: AssaultTestCasualties::ThisRound,
        two_level: TwoLevelDrop::HalfOrLess,
    };
    let whole = CloseAssault {
        at_short: acw_hardtack::melee::AtShort::StayMidDash,
        attack: ReactionTest {
            quality: D8,
            lv: Leadership::TWO,
            tl: -1,
        },
        stand: Some(ConfidenceTest {
            quality: D8,
            lv: Leadership::TWO,
            tl: 2,
            two_level: TwoLevelDrop::HalfOrLess,
        }),
        approach: match CombatMove::new(D6, 6.0) {
            Ok(m) => m,
            Err(_) => return,
        },
        melee,
        final_fire: None,
    };
    let mut rng = GameRng::seed(5);
    g.bench_function("roll: melee 8 against 6 to its end", |b| {
        b.iter(|| black_box(&melee).roll(&mut rng))
    });
    g.bench_function("roll: whole assault", |b| {
        b.iter(|| black_box(&whole).roll(&mut rng))
    });
    g.bench_function("exact: melee 8 against 6 to its end", |b| {
        b.iter(|| black_box(&melee).odds())
    });
    g.bench_function("exact: whole assault", |b| {
        b.iter(|| black_box(&whole).odds())
    });
    // final defensive fire (HT-MEL-07) at the single company: six Regular muskets in skirmish order
    let single = CloseAssault {
        at_short: acw_hardtack::melee::AtShort::StayMidDash,
        final_fire: Some(AssaultFire {
            fire: FinalFire {
                firepower: acw_hardtack::fire::FirepowerFacts {
                    quality: D8,
                    half_fp: 12,
                    skirmish: true,
                    first_volley: false,
                    spill: None,
                },
                band_inches: 10.0,
                impact: D8,
                options: acw_hardtack::Options::default(),
            },
            armour: acw_hardtack::DieType::D4,
            leader: Some(0),
            on_foot_at: 0,
        }),
        ..whole
    };
    g.bench_function("roll: whole assault with final fire", |b| {
        b.iter(|| black_box(&single).roll(&mut rng))
    });
    g.bench_function("exact: whole assault with final fire", |b| {
        b.iter(|| black_box(&single).odds())
    });
    // HT-SG2-37: the same, the attacker aborting when still short (the 1/0/NTR test at TL 0)
    let aborting = CloseAssault {
        at_short: acw_hardtack::melee::AtShort::Abort {
            tl: Some(0),
            two_level: TwoLevelDrop::HalfOrLess,
        },
        ..single
    };
    g.bench_function(
        "exact: whole assault with final fire, aborting when short",
        |b| b.iter(|| black_box(&aborting).odds()),
    );
    // riders (HT-MEL-12): twelve mounted against twelve on foot, one company each
    let riders = Melee {
        attacker: MeleeSide {
            first_round: MeleeDie {
                mounted: true,
                ..MeleeDie::plain(D8)
            },
            ..side(12)
        },
        defender: side(12),
        ..melee
    };
    g.bench_function(
        "roll: riders, 12 mounted against 12 on foot to its end",
        |b| b.iter(|| black_box(&riders).roll(&mut rng)),
    );
    g.bench_function(
        "exact: riders, 12 mounted against 12 on foot to its end",
        |b| b.iter(|| black_box(&riders).odds()),
    );
    g.finish();
}

/// Stand-based fire for 6mm figures: three stands of ten muskets (Q D8 + FP D10 each) against D6, hits on
/// eight figures; and the engine's small arms at a limbered battery, its team horses in the pool.
fn stand_fire(c: &mut Criterion) {
    let mut g = c.benchmark_group("stand fire");
    let stand = FireDice {
        firer: FirerDice::two(D8, D10),
        range: D6,
    };
    let Ok(fire) = StandFire::new(&[stand; 3], musket(), 8) else {
        return;
    };
    let mut rng = GameRng::seed(6);
    g.bench_function("roll: three stands to casualties (8 figures)", |b| {
        b.iter(|| black_box(&fire).roll(&mut rng))
    });
    g.bench_function("exact: three stands to casualties (8 figures)", |b| {
        b.iter(|| black_box(&fire).odds())
    });
    let mut battle = Battle::new(Options::default());
    let crew = battle
        .add_company(CompanySpec::new("crew", Side::Union, 3))
        .ok();
    let mut line = CompanySpec::new("line", Side::Confederate, 8);
    line.formation = Formation::Line;
    let foe = battle.add_company(line).ok();
    let (Some(crew), Some(foe)) = (crew, foe) else {
        return;
    };
    let Ok(gun) = battle.add_gun("Napoleon", FieldPiece::Napoleon12lb, false, crew) else {
        return;
    };
    let _ = battle.activate(crew);
    let _ = battle.limber(gun, true, 2.0);
    let _ = battle.end_turn();
    let _ = battle.activate(foe);
    let facts = acw_hardtack::state::FireFacts {
        distance: 6.0,
        ..acw_hardtack::state::FireFacts::default()
    };
    let mut seed = 0u64;
    g.bench_function("engine: small arms at a limbered battery (seeded)", |b| {
        b.iter(|| {
            let mut bt = battle.clone();
            seed += 1;
            let _ = bt.fire(foe, crew, facts, &mut GameRng::seed(seed));
            black_box(bt)
        })
    });
    g.finish();
}

/// A combined assault: two companies of four Regulars on six, the melee to its end and the whole assault
/// from the attackers' tests.
fn combined(c: &mut Criterion) {
    let mut g = c.benchmark_group("combined assault");
    let side = |n| MeleeSide {
        figures: n,
        first_round: MeleeDie::plain(D8),
        quality: D8,
        lv: Leadership::TWO,
        modifier: 0,
        on_foot: 0,
    };
    let Ok(melee) = CombinedMelee::new(
        &[side(4), side(4)],
        side(6),
        AssaultTestCasualties::ThisRound,
        TwoLevelDrop::HalfOrLess,
        false,
    ) else {
        return;
    };
    let Ok(approach) = CombatMove::new(D6, 6.0) else {
        return;
    };
    let partner = Partner {
        attack: ReactionTest {
            quality: D8,
            lv: Leadership::TWO,
            tl: 0,
        },
        close_formation: false,
        mounted: false,
        approach,
        melee: side(4),
        armour: acw_hardtack::DieType::D4,
        leader: Some(0),
        on_foot_at: 0,
    };
    let stand = ConfidenceTest {
        quality: D8,
        lv: Leadership::TWO,
        tl: 0,
        two_level: TwoLevelDrop::HalfOrLess,
    };
    let Ok(whole) = CombinedAssault::new(
        &[partner, partner],
        Some(stand),
        false,
        side(6),
        AssaultTestCasualties::ThisRound,
        TwoLevelDrop::HalfOrLess,
    ) else {
        return;
    };
    let mut rng = GameRng::seed(7);
    g.bench_function("roll: melee 4 + 4 against 6 to its end", |b| {
        b.iter(|| black_box(&melee).roll(&mut rng))
    });
    g.bench_function("roll: whole combined assault", |b| {
        b.iter(|| black_box(&whole).roll(&mut rng))
    });
    g.bench_function("exact: melee 4 + 4 against 6 to its end", |b| {
        b.iter(|| black_box(&melee).odds())
    });
    g.bench_function("exact: whole combined assault", |b| {
        b.iter(|| black_box(&whole).odds())
    });
    // riders (HT-MEL-12): two mounted companies of four against six on foot
    let rider = MeleeSide {
        first_round: MeleeDie {
            mounted: true,
            ..MeleeDie::plain(D8)
        },
        ..side(4)
    };
    let Ok(riders) = CombinedMelee::new(
        &[rider, rider],
        side(6),
        AssaultTestCasualties::ThisRound,
        TwoLevelDrop::HalfOrLess,
        false,
    ) else {
        return;
    };
    g.bench_function("roll: riders 4 + 4 against 6 to its end", |b| {
        b.iter(|| black_box(&riders).roll(&mut rng))
    });
    g.bench_function("exact: riders 4 + 4 against 6 to its end", |b| {
        b.iter(|| black_box(&riders).odds())
    });
    // final defensive fire (HT-MEL-07): six Regular muskets in skirmish order
    let fdf = whole.with_final_fire(FinalFire {
        firepower: acw_hardtack::fire::FirepowerFacts {
            quality: D8,
            half_fp: 12,
            skirmish: true,
            first_volley: false,
            spill: None,
        },
        band_inches: 10.0,
        impact: D8,
        options: acw_hardtack::Options::default(),
    });
    g.bench_function("roll: whole combined assault with final fire", |b| {
        b.iter(|| black_box(&fdf).roll(&mut rng))
    });
    g.bench_function("exact: whole combined assault with final fire", |b| {
        b.iter(|| black_box(&fdf).odds())
    });
    g.finish();
}

/// A whole game of the default scenario between the two baseline bots, seeded.
fn whole_game(c: &mut Criterion) {
    use acw_core::game::{Commander, play};
    use acw_hardtack::bots::{Holder, Thruster};
    use acw_hardtack::game::{Hardtack, Scenario};
    let Ok(scenario) = Scenario::meeting_at_the_fence() else {
        return;
    };
    let mut seed = 0u64;
    let mut g = c.benchmark_group("hardtack game");
    g.sample_size(10);
    g.bench_function("a whole default game, two bots", |b| {
        b.iter(|| {
            seed += 1;
            let mut u: Box<dyn Commander<Hardtack>> = Box::new(Thruster::new(seed));
            let mut cf: Box<dyn Commander<Hardtack>> = Box::new(Holder::new(seed + 1));
            let played = play(
                &Hardtack,
                &scenario,
                seed,
                acw_core::BySide::new(u.as_mut(), cf.as_mut()),
            );
            black_box(played.map(|p| p.outcome).ok())
        })
    });
    g.finish();
}

criterion_group!(
    benches, fire, shot, canister, confidence, assault, stand_fire, combined, whole_game
);
criterion_main!(benches);
