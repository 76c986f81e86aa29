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

const RIDERS_PINNED: &str = "the defender falls back, losing one confidence level; 0 attacking and 5 defending figures down | the defender has every figure down; 0 attacking and 6 defending figures down | the defender falls back, losing one confidence level; 0 attacking and 4 defending figures down; 1 attacking and 0 defending riders unhorsed | the defender falls back, losing two confidence levels; 0 attacking and 2 defending figures down; 1 attacking and 1 defending riders unhorsed | the attacker falls back, losing two confidence levels; 0 attacking and 2 defending figures down; 0 attacking and 1 defending riders unhorsed | the attacker falls back, losing two confidence levels; 0 attacking and 3 defending figures down; 1 attacking and 0 defending riders unhorsed";

/// A whole single-company assault with final defensive fire: six Regulars who always go in charging four
/// muskets who always stand, from 10".
fn whole_assault() -> acw_hardtack::melee::CloseAssault {
    use acw_hardtack::melee::{AssaultFire, CloseAssault, FinalFire};
    use acw_hardtack::morale::ReactionTest;
    use acw_hardtack::movement::CombatMove;
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
    CloseAssault {
        at_short: acw_hardtack::melee::AtShort::StayMidDash,
        attack: ReactionTest {
            quality: D8,
            lv: Leadership::TWO,
            tl: -2,
        },
        stand: Some(ConfidenceTest {
            quality: D8,
            lv: Leadership::TWO,
            tl: -2,
            two_level: TwoLevelDrop::HalfOrLess,
        }),
        approach: CombatMove::new(D6, 10.0).unwrap(),
        melee: Melee {
            attacker: side(6, false),
            defender: side(4, false),
            casualties: AssaultTestCasualties::ThisRound,
            two_level: TwoLevelDrop::HalfOrLess,
        },
        final_fire: Some(AssaultFire {
            fire: FinalFire {
                firepower: acw_hardtack::fire::FirepowerFacts {
                    quality: D8,
                    half_fp: 8,
                    skirmish: true,
                    first_volley: false,
                    spill: None,
                },
                band_inches: 8.0,
                impact: D8,
                options: Options::default(),
            },
            armour: D4,
            leader: Some(0),
            on_foot_at: 0,
        }),
    }
}

/// The whole single-company assault with final defensive fire (HT-MEL-01, HT-MEL-07): [`whole_assault`]
/// eight times, then six riders charging from 20" (HT-CAS-03) eight times, from one seed.
fn whole_assault_sequence(seed: u64) -> String {
    use acw_hardtack::melee::CloseAssault;
    use acw_hardtack::movement::CombatMove;
    let mut rng = GameRng::seed(seed);
    let on_foot = whole_assault();
    let riders = CloseAssault {
        at_short: acw_hardtack::melee::AtShort::StayMidDash,
        approach: CombatMove::new(acw_hardtack::DieType::D12, 20.0).unwrap(),
        melee: Melee {
            attacker: MeleeSide {
                first_round: MeleeDie {
                    mounted: true,
                    ..on_foot.melee.attacker.first_round
                },
                ..on_foot.melee.attacker
            },
            ..on_foot.melee
        },
        ..on_foot
    };
    let mut out: Vec<String> = (0..8).map(|_| on_foot.roll(&mut rng).to_string()).collect();
    out.extend((0..8).map(|_| riders.roll(&mut rng).to_string()));
    out.join(" | ")
}

#[test]
fn fixed_seed_whole_assault_sequence() {
    let got = whole_assault_sequence(1863);
    assert_eq!(got, whole_assault_sequence(1863));
    assert_eq!(got, WHOLE_ASSAULT_PINNED);
}

const WHOLE_ASSAULT_PINNED: &str = "melee: the defender falls back, losing one confidence level; 3 attacking and 3 defending figures down | melee: the attacker falls back, losing one confidence level; 2 attacking and 2 defending figures down | melee: the attacker falls back, losing one confidence level; 3 attacking and 1 defending figures down (1 down to final defensive fire) | melee: the attacker falls back, losing two confidence levels; 5 attacking and 1 defending figures down | melee: the attacker falls back, losing one confidence level; 2 attacking and 3 defending figures down | the attackers faltered under fire and withdrew (1 down to final defensive fire) | melee: the defender falls back, losing one confidence level; 2 attacking and 3 defending figures down | melee: the defender falls back, losing two confidence levels; 1 attacking and 3 defending figures down | melee: the defender falls back, losing two confidence levels; 1 attacking and 2 defending figures down; 2 attacking and 0 defending riders unhorsed | melee: the defender falls back, losing one confidence level; 0 attacking and 3 defending figures down; 2 attacking and 0 defending riders unhorsed | melee: the defender falls back, losing one confidence level; 1 attacking and 3 defending figures down; 1 attacking and 0 defending riders unhorsed (1 down to final defensive fire) | the attackers fell short of contact and abandoned the assault | melee: the defender has every figure down; 1 attacking and 4 defending figures down; 3 attacking and 0 defending riders unhorsed | the attackers fell short of contact and abandoned the assault | melee: the defender falls back, losing one confidence level; 2 attacking and 2 defending figures down; 1 attacking and 0 defending riders unhorsed | melee: the defender falls back, losing one confidence level; 1 attacking and 3 defending figures down; 1 attacking and 0 defending riders unhorsed";

// A whole assault with final defensive fire writes and reads back as itself; one written before the fire
// was part of it (no `final_fire`) reads as one without it.
#[test]
fn whole_assault_saves_and_loads() {
    use acw_hardtack::melee::CloseAssault;
    let json = serde_json::to_string(&whole_assault()).unwrap();
    let back: CloseAssault = serde_json::from_str(&json).unwrap();
    assert_eq!(back, whole_assault());
    let mut old: serde_json::Value = serde_json::from_str(&json).unwrap();
    old.as_object_mut().unwrap().remove("final_fire");
    let old: CloseAssault = serde_json::from_value(old).unwrap();
    assert_eq!(old.final_fire, None);
}
