//! Value stability: a fixed seed gives exactly these results. A change here is a deliberate diff: a rules
//! change, or a change in how faces are drawn.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::{GameRng, Resolve};
use acw_hardtack::DieType::{D4, D6, D8, D10};
use acw_hardtack::Options;
use acw_hardtack::artillery::ShotBounces;
use acw_hardtack::fire::{FireDice, FirerDice, Impact, StandFire, Volley};
use acw_hardtack::melee::{CombinedMelee, Melee, MeleeDie, MeleeSide};
use acw_hardtack::morale::ConfidenceTest;
use acw_hardtack::options::{AssaultTestCasualties, KillThreshold, TwoLevelDrop};
use acw_hardtack::state::{FireFacts, Formation};
use acw_hardtack::tables::Leadership;
use common::two;

fn sequence(seed: u64) -> String {
    let mut rng = GameRng::seed(seed);
    let volley = Volley {
        fire: FireDice {
            firer: FirerDice::two(D8, D8),
            range: D4,
        },
        impact: Impact {
            impact: D6,
            armour: D4,
            armour_shift: 0,
            kill: KillThreshold::DoubleOrMore,
        },
        pool: 8,
    };
    let volleys: Vec<String> = (0..4).map(|_| volley.roll(&mut rng).to_string()).collect();
    let tests: Vec<String> = (0..4)
        .map(|_| {
            ConfidenceTest {
                quality: D8,
                lv: Leadership::TWO,
                tl: 1,
                two_level: TwoLevelDrop::HalfOrLess,
            }
            .roll(&mut rng)
            .to_string()
        })
        .collect();
    let bounces = ShotBounces {
        quality: D10,
        lv: Leadership::ONE,
        rifled: false,
    }
    .roll(&mut rng);
    let side = |n| MeleeSide {
        figures: n,
        first_round: MeleeDie::plain(D8),
        quality: D8,
        lv: Leadership::TWO,
        modifier: 0,
        on_foot: 0,
    };
    let melee = Melee {
        attacker: side(6),
        defender: side(4),
        casualties: AssaultTestCasualties::ThisRound,
        two_level: TwoLevelDrop::HalfOrLess,
    }
    .roll(&mut rng);
    let (mut b, a, r) = two(
        Options::default(),
        (8, Formation::Line),
        (8, Formation::Skirmish),
    );
    let report = b
        .fire(
            a,
            r,
            FireFacts {
                distance: 10.0,
                ..FireFacts::default()
            },
            &mut rng,
        )
        .unwrap();
    format!("{volleys:?} | {tests:?} | bounces {bounces} | {melee} | {report}")
}

#[test]
fn fixed_seed_sequence() {
    let got = sequence(1863);
    assert_eq!(got, sequence(1863));
    assert_eq!(got, PINNED);
}

const PINNED: &str = r#"["a major result with 2 potential casualties: 2 killed, 0 wounded", "a major result with 4 potential casualties: 1 killed, 0 wounded", "a minor result: 0 killed, 0 wounded", "a major result with 4 potential casualties: 0 killed, 2 wounded"] | ["failed badly, losing two levels", "passed", "passed", "passed"] | bounces 0 | the defender has every figure down; 4 attacking and 4 defending figures down | 1st Minnesota, Company A fired against a D6 range die: no effect
  8th Alabama, Company C: 0 killed, 0 wounded; no test"#;

/// Stand-based fire, a combined melee and stand fire through the battle, from one seed.
fn later_sequence(seed: u64) -> String {
    let mut rng = GameRng::seed(seed);
    let stand = FireDice {
        firer: FirerDice::two(D8, D10),
        range: D6,
    };
    let musket = Impact {
        impact: D6,
        armour: D4,
        armour_shift: 0,
        kill: KillThreshold::DoubleOrMore,
    };
    let stands = StandFire::new(&[stand; 3], musket, 8).unwrap();
    let fires: Vec<String> = (0..3).map(|_| stands.roll(&mut rng).to_string()).collect();
    let side = |n| MeleeSide {
        figures: n,
        first_round: MeleeDie::plain(D8),
        quality: D8,
        lv: Leadership::TWO,
        modifier: 0,
        on_foot: 0,
    };
    let combined = CombinedMelee::new(
        &[side(4), side(3)],
        side(5),
        AssaultTestCasualties::ThisRound,
        TwoLevelDrop::HalfOrLess,
        false,
    )
    .unwrap();
    let melees: Vec<String> = (0..2)
        .map(|_| combined.roll(&mut rng).to_string())
        .collect();
    let mut o = Options::default();
    o.stand_based_fire = true;
    let (mut b, a, r) = two(o, (20, Formation::Line), (8, Formation::Skirmish));
    let report = b
        .fire(
            a,
            r,
            FireFacts {
                distance: 6.0,
                ..FireFacts::default()
            },
            &mut rng,
        )
        .unwrap();
    format!("{fires:?} | {melees:?} | {report}")
}

#[test]
fn fixed_seed_later_sequence() {
    let got = later_sequence(1864);
    assert_eq!(got, later_sequence(1864));
    assert_eq!(got, LATER_PINNED);
}

const LATER_PINNED: &str = r#"["a major result with 2 potential casualties: 1 killed, 0 wounded", "a major result with 5 potential casualties: 3 killed, 1 wounded", "no effect: 0 killed, 0 wounded"] | ["the attackers carry the position; 1 attacking and 4 defending figures down, 0 attacking companies fell back", "the defenders hold; 3 attacking and 2 defending figures down, 2 attacking companies fell back"] | 1st Minnesota, Company A fired against a D4 range die: a major result with 6 potential casualties
  8th Alabama, Company C: 4 killed, 0 wounded; its leader fell (new leader LV3); confidence test at TL 3 passed, now Confident"#;

/// Melees with riders (HT-MEL-12): six riders against six on foot, then four riders against four, from one
/// seed.
fn riders_sequence(seed: u64) -> String {
    let mut rng = GameRng::seed(seed);
    let side = |n, mounted| MeleeSide {
        figures: n,
        first_round: MeleeDie {
            mounted,
            ..MeleeDie::plain(D8)
        },
        quality: D8,
        lv: Leadership::TWO,
        modifier: 0,
        on_foot: 0,
    };
    let against_foot = Melee {
        attacker: side(6, true),
        defender: side(6, false),
        casualties: AssaultTestCasualties::ThisRound,
        two_level: TwoLevelDrop::HalfOrLess,
    };
    let against_riders = Melee {
        attacker: side(4, true),
        defender: side(4, true),
        ..against_foot
    };
    let mut out: Vec<String> = (0..3)
        .map(|_| against_foot.roll(&mut rng).to_string())
        .collect();
    out.extend((0..3).map(|_| against_riders.roll(&mut rng).to_string()));
    out.join(" | ")
}

#[test]
fn fixed_seed_riders_sequence() {
    let got = riders_sequence(1863);
    assert_eq!(got, riders_sequence(1863));
    assert_eq!(got, RIDERS_PINNED);
}

const RIDERS_PINNED: &str = "the defender falls back, losing 1 confidence level(s); 0 attacking and 5 defending figures down | the defender has every figure down; 0 attacking and 6 defending figures down | the defender falls back, losing 1 confidence level(s); 0 attacking and 4 defending figures down; 1 attacking and 0 defending riders unhorsed | the defender falls back, losing 2 confidence level(s); 0 attacking and 2 defending figures down; 1 attacking and 1 defending riders unhorsed | the attacker falls back, losing 2 confidence level(s); 0 attacking and 2 defending figures down; 0 attacking and 1 defending riders unhorsed | the attacker falls back, losing 2 confidence level(s); 0 attacking and 3 defending figures down; 1 attacking and 0 defending riders unhorsed";
