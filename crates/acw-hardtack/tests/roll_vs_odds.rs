//! Every random procedure's fast `roll` against its exact `odds`, with a fixed seed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use acw_core::Resolve;
use acw_core::testing::assert_roll_matches_odds;
use acw_hardtack::DieType::{D4, D6, D8, D10, D12};
use acw_hardtack::artillery::{AreaDamage, BounceTest, ShotAccuracy, ShotBounces};
use acw_hardtack::fire::FirepowerFacts;
use acw_hardtack::fire::{FireDice, FirerDice, Impact, StandFire, Volley};
use acw_hardtack::melee::{
    AssaultEnd, AssaultFire, CloseAssault, CombinedAssault, CombinedEnd, CombinedMelee,
    DownedFates, FinalFire, FireToll, Melee, MeleeDie, MeleeSide, Partner,
};
use acw_hardtack::morale::{Confidence, ConfidenceTest, Rally, ReactionTest, ReplacementLeader};
use acw_hardtack::movement::CombatMove;
use acw_hardtack::options::{AssaultTestCasualties, KillThreshold, TwoLevelDrop};
use acw_hardtack::tables::{Leadership, MeleeWeapon};

fn impact(i: acw_hardtack::DieType, shift: i16) -> Impact {
    Impact {
        impact: i,
        armour: D4,
        armour_shift: shift,
        kill: KillThreshold::DoubleOrMore,
    }
}

// HT-SG2-30, HT-SG2-31: the fire roll and its potential hits.
#[test]
fn fire_dice() {
    assert_roll_matches_odds(&FireDice {
        firer: FirerDice::two(D8, D8),
        range: D6,
    });
    assert_roll_matches_odds(&FireDice {
        firer: FirerDice::three(D8, D10, D10),
        range: D8,
    });
}

// HT-SG2-32, HT-FIR-18: impact against armour, with an open armour shift.
#[test]
fn impact_rolls() {
    assert_roll_matches_odds(&impact(D6, 0));
    assert_roll_matches_odds(&Impact {
        impact: D10,
        armour: D8,
        armour_shift: 3,
        kill: KillThreshold::MoreThanDouble,
    });
}

// HT-FIR-01: the chain to casualties, hits allocated over the pool (HT-FIR-19), double wounds kill
// (HT-CAS-07).
#[test]
fn volley_chain() {
    assert_roll_matches_odds(&Volley {
        fire: FireDice {
            firer: FirerDice::two(D8, D8),
            range: D4,
        },
        impact: impact(D6, 0),
        pool: 3,
    });
    assert_roll_matches_odds(&Volley {
        fire: FireDice {
            firer: FirerDice::three(D8, D12, D12),
            range: D6,
        },
        impact: impact(D12, 1),
        pool: 8,
    });
}

// HT-SG2-16, HT-SG2-18, HT-SG2-07, HT-SG2-20: the tests.
#[test]
fn tests_and_leaders() {
    assert_roll_matches_odds(&ConfidenceTest {
        quality: D8,
        lv: Leadership::TWO,
        tl: 2,
        two_level: TwoLevelDrop::HalfOrLess,
    });
    assert_roll_matches_odds(&ReactionTest {
        quality: D6,
        lv: Leadership::ONE,
        tl: 1,
    });
    assert_roll_matches_odds(&Rally {
        quality: D10,
        lv: Leadership::TWO,
        rallier: Leadership::ONE,
    });
    assert_roll_matches_odds(&ReplacementLeader {
        old: Leadership::TWO,
    });
}

fn side(figures: u8, q: acw_hardtack::DieType, weapon: MeleeWeapon) -> MeleeSide {
    MeleeSide {
        figures,
        first_round: MeleeDie {
            weapon,
            ..MeleeDie::plain(q)
        },
        quality: q,
        lv: Leadership::TWO,
        modifier: 0,
        on_foot: 0,
    }
}

// HT-SG2-38..41: a melee to its end and the downed figures' fates.
#[test]
fn melee_to_the_end() {
    let m = Melee {
        attacker: side(5, D8, MeleeWeapon::None),
        defender: side(3, D10, MeleeWeapon::Sword),
        casualties: AssaultTestCasualties::ThisRound,
        two_level: TwoLevelDrop::HalfOrLess,
    };
    assert_roll_matches_odds(&m);
    assert_roll_matches_odds(&Melee {
        casualties: AssaultTestCasualties::WholeAssault,
        ..m
    });
    assert_roll_matches_odds(&DownedFates { downed: 3 });
}

// HT-MEL-12: a melee with riders: beaten mounted figures roll horse or rider, unhorsed riders fight on.
#[test]
fn melee_with_riders() {
    let mut riders = side(3, D8, MeleeWeapon::Sword);
    riders.first_round.mounted = true;
    let m = Melee {
        attacker: riders,
        defender: side(4, D8, MeleeWeapon::None),
        casualties: AssaultTestCasualties::ThisRound,
        two_level: TwoLevelDrop::HalfOrLess,
    };
    assert_roll_matches_odds(&m);
    let mut other = side(2, D6, MeleeWeapon::None);
    other.first_round.mounted = true;
    assert_roll_matches_odds(&Melee {
        defender: other,
        casualties: AssaultTestCasualties::WholeAssault,
        ..m
    });
}

// HT-MEL-01: the whole assault, from the attacker's test to the melee's end.
#[test]
fn close_assault_chain() {
    let a = CloseAssault {
        at_short: acw_hardtack::melee::AtShort::StayMidDash,
        attack: ReactionTest {
            quality: D8,
            lv: Leadership::TWO,
            tl: 0,
        },
        stand: Some(ConfidenceTest {
            quality: D8,
            lv: Leadership::TWO,
            tl: 1,
            two_level: TwoLevelDrop::HalfOrLess,
        }),
        approach: CombatMove::new(D6, 6.0).unwrap(),
        melee: Melee {
            attacker: side(4, D8, MeleeWeapon::None),
            defender: side(4, D8, MeleeWeapon::None),
            casualties: AssaultTestCasualties::ThisRound,
            two_level: TwoLevelDrop::HalfOrLess,
        },
        final_fire: None,
    };
    assert_roll_matches_odds(&a);
    assert_roll_matches_odds(&CombatMove::new(D12, 13.0).unwrap());
    // HT-MEL-07: the defender stands with final defensive fire (four Regular muskets in skirmish order) at
    // a company of three from 9" away: a short first move meets the fire, a fallen leader is replaced, a
    // company with casualties tests to go on, and what is left fights the melee
    let fire = AssaultFire {
        fire: FinalFire {
            firepower: FirepowerFacts {
                quality: D8,
                half_fp: 4 * 2,
                skirmish: true,
                first_volley: false,
                spill: None,
            },
            band_inches: 10.0,
            impact: D8,
            options: acw_hardtack::Options::default(),
        },
        armour: D4,
        leader: Some(0),
        on_foot_at: 0,
    };
    let fdf = CloseAssault {
        approach: CombatMove::new(D6, 9.0).unwrap(),
        melee: Melee {
            attacker: side(3, D8, MeleeWeapon::None),
            ..a.melee
        },
        final_fire: Some(fire),
        ..a
    };
    let odds = fdf.odds();
    for end in [
        AssaultEnd::CutDown {
            fire: FireToll {
                casualties: 3,
                unhorsed: 0,
            },
        },
        AssaultEnd::Faltered {
            fire: FireToll {
                casualties: 1,
                unhorsed: 0,
            },
        },
    ] {
        assert!(odds.prob(|e| *e == end) > 0.0, "{end}");
    }
    assert_roll_matches_odds(&fdf);
    // HT-SG2-37: the same company aborting when still short after its second move takes the 1/0/NTR
    // test (TL 0) with the LV it then has (a leader the fire cut down is replaced first), then falls back
    let aborts = CloseAssault {
        at_short: acw_hardtack::melee::AtShort::Abort {
            tl: Some(0),
            two_level: TwoLevelDrop::HalfOrLess,
        },
        ..fdf
    };
    let odds = aborts.odds();
    assert_eq!(
        odds.prob(|e| matches!(e, AssaultEnd::FellShort { .. })),
        0.0
    );
    assert!(
        (odds.prob(|e| matches!(e, AssaultEnd::Aborted { .. }))
            - fdf
                .odds()
                .prob(|e| matches!(e, AssaultEnd::FellShort { .. })))
        .abs()
            < 1e-12
    );
    for test in [Confidence::Pass, Confidence::LoseOne, Confidence::LoseTwo] {
        assert!(
            odds.prob(
                |e| matches!(e, AssaultEnd::Aborted { fire, test: Some(t) } if fire.casualties > 0 && *t == test)
            ) > 0.0,
            "{test}"
        );
    }
    assert_roll_matches_odds(&aborts);
    let no_test = CloseAssault {
        at_short: acw_hardtack::melee::AtShort::Abort {
            tl: None,
            two_level: TwoLevelDrop::HalfOrLess,
        },
        ..fdf
    };
    assert!(
        no_test
            .odds()
            .prob(|e| matches!(e, AssaultEnd::Aborted { test: None, .. }))
            > 0.0
    );
    assert_roll_matches_odds(&no_test);
    // HT-CAS-03: three riders, one already on foot: the fire's hits on those still mounted roll horse or
    // rider, and riders whose horse falls fight on foot
    let mut riders = side(3, D8, MeleeWeapon::Sword);
    riders.first_round.mounted = true;
    riders.on_foot = 1;
    let mounted = CloseAssault {
        melee: Melee {
            attacker: riders,
            ..fdf.melee
        },
        ..fdf
    };
    assert!(
        mounted
            .odds()
            .prob(|e| matches!(e, AssaultEnd::Melee { fire, .. } if fire.unhorsed > 0))
            > 0.0
    );
    assert_roll_matches_odds(&mounted);
    // HT-SG2-33: five riders, the first and the third already on foot: the D6 allocation counts along them
    // as they stand (its 6 wrapping onto the first, on foot: a hit falls on a mounted rider 3/6 of the time),
    // against the same riders lined up mounted first (4/6)
    let mut five = riders;
    five.figures = 5;
    five.on_foot = 2;
    let as_they_stand = CloseAssault {
        melee: Melee {
            attacker: five,
            ..fdf.melee
        },
        final_fire: Some(AssaultFire {
            on_foot_at: 0b00101,
            ..fire
        }),
        ..fdf
    };
    assert_roll_matches_odds(&as_they_stand);
    let mounted_first = CloseAssault {
        final_fire: Some(fire),
        ..as_they_stand
    };
    let unhorsed = |a: &CloseAssault| {
        a.odds()
            .prob(|e| matches!(e, AssaultEnd::Melee { fire, .. } if fire.unhorsed > 0))
    };
    assert!(unhorsed(&as_they_stand) < unhorsed(&mounted_first));
}

// HT-SG2-25: spotting a hidden unit.
#[test]
fn observation() {
    assert_roll_matches_odds(&acw_hardtack::fire::Observation {
        quality: D8,
        target: D10,
    });
}

// HT-ART-06, HT-ART-10, HT-ART-08: round shot.
#[test]
fn round_shot() {
    assert_roll_matches_odds(&ShotAccuracy {
        quality: D8,
        lv: Leadership::TWO,
        modifier: 0,
    });
    assert_roll_matches_odds(&BounceTest {
        quality: D10,
        lv: Leadership::ONE,
        k: 2,
        rifled: false,
    });
    assert_roll_matches_odds(&ShotBounces {
        quality: D12,
        lv: Leadership::ONE,
        rifled: false,
    });
    assert_roll_matches_odds(&AreaDamage {
        impact: impact(D8, 1),
        figures: 4,
    });
}

// HT-OPT-33: stand-based fire, three stands of different strength, hits on five figures.
#[test]
fn stand_fire() {
    let stand = |fp| FireDice {
        firer: FirerDice::two(D8, fp),
        range: D6,
    };
    assert_roll_matches_odds(
        &StandFire::new(&[stand(D10), stand(D10), stand(D4)], impact(D6, 0), 5).unwrap(),
    );
}

// HT-SG2-42, HT-MEL-05: the melee of a combined assault — two companies (three Regulars, two Veterans with
// swords) against four Regulars In Position, tested on the whole assault's casualties.
#[test]
fn combined_melee() {
    let side = |figures, first_round: MeleeDie| MeleeSide {
        figures,
        first_round,
        quality: first_round.quality,
        lv: Leadership::TWO,
        modifier: 0,
        on_foot: 0,
    };
    let melee = CombinedMelee::new(
        &[
            side(3, MeleeDie::plain(D8)),
            side(
                2,
                MeleeDie {
                    weapon: MeleeWeapon::Sword,
                    ..MeleeDie::plain(D10)
                },
            ),
        ],
        side(
            4,
            MeleeDie {
                defender_bonus: true,
                ..MeleeDie::plain(D8)
            },
        ),
        AssaultTestCasualties::WholeAssault,
        TwoLevelDrop::HalfOrLess,
        false,
    )
    .unwrap();
    assert_roll_matches_odds(&melee);
}

// HT-SG2-42, HT-MEL-05, HT-MEL-01: a combined assault from the attackers' tests to the melee's end — a
// Regular line and Green skirmishers 7" away on a Regular defender in cover.
#[test]
fn combined_assault_chain() {
    let side = |figures, quality| MeleeSide {
        figures,
        first_round: MeleeDie::plain(quality),
        quality,
        lv: Leadership::TWO,
        modifier: 0,
        on_foot: 0,
    };
    let partner = |quality, close, die| Partner {
        attack: ReactionTest {
            quality,
            lv: Leadership::TWO,
            tl: -i16::from(close),
        },
        close_formation: close,
        mounted: false,
        approach: CombatMove::new(die, 7.0).unwrap(),
        melee: side(3, quality),
        armour: acw_hardtack::DieType::D4,
        leader: Some(0),
        on_foot_at: 0,
    };
    let assault = CombinedAssault::new(
        &[partner(D8, true, D4), partner(D6, false, D6)],
        Some(ConfidenceTest {
            quality: D8,
            lv: Leadership::TWO,
            tl: 0,
            two_level: TwoLevelDrop::HalfOrLess,
        }),
        false,
        MeleeSide {
            first_round: MeleeDie {
                defender_bonus: true,
                ..MeleeDie::plain(D8)
            },
            ..side(4, D8)
        },
        AssaultTestCasualties::ThisRound,
        TwoLevelDrop::HalfOrLess,
    )
    .unwrap();
    assert_roll_matches_odds(&assault);
    // HT-MEL-07: the same with the defender's final defensive fire (four Regular muskets in skirmish order)
    // at the first company to fall short: its casualties leave the melee, a fallen leader's successor rolls
    // his LV, and the company tests to go on.
    let fire = FinalFire {
        firepower: FirepowerFacts {
            quality: D8,
            half_fp: 4 * 2,
            skirmish: true,
            first_volley: false,
            spill: None,
        },
        band_inches: 10.0,
        impact: D8,
        options: acw_hardtack::Options::default(),
    };
    assert_roll_matches_odds(&assault.with_final_fire(fire));
    // one man alone, who the fire often cuts down: if he still passes his test and reaches, no melee
    let stands = CombinedAssault::new(
        &[Partner {
            melee: side(1, D8),
            ..partner(D8, false, D4)
        }],
        Some(ConfidenceTest {
            quality: D12,
            lv: Leadership::TWO,
            tl: -10,
            two_level: TwoLevelDrop::HalfOrLess,
        }),
        false,
        side(4, D8),
        AssaultTestCasualties::ThisRound,
        TwoLevelDrop::HalfOrLess,
    )
    .unwrap();
    let odds = stands.with_final_fire(fire).odds();
    assert!(odds.prob(|e| *e == CombinedEnd::NoContact) > 0.0);
    assert_roll_matches_odds(&stands.with_final_fire(fire));
    // HT-CAS-03: the first company mounted, two riders: the fire's hits on them roll horse or rider
    let mut riders = side(2, D8);
    riders.first_round.mounted = true;
    let mounted = CombinedAssault::new(
        &[
            Partner {
                mounted: true,
                melee: riders,
                ..partner(D8, false, D4)
            },
            partner(D6, false, D6),
        ],
        Some(ConfidenceTest {
            quality: D8,
            lv: Leadership::TWO,
            tl: 0,
            two_level: TwoLevelDrop::HalfOrLess,
        }),
        false,
        side(3, D8),
        AssaultTestCasualties::ThisRound,
        TwoLevelDrop::HalfOrLess,
    )
    .unwrap()
    .with_final_fire(fire);
    assert_roll_matches_odds(&mounted);
}

// HT-SG2-50, HT-CMD-03, HT-CMD-05, HT-CAS-03, HT-CAS-04, HT-OPT-26, HT-SET-08, HT-SG2-52, HT-FIR-24,
// HT-CAS-06: the single-roll procedures — communication, the regimental combat move, the successor, horse or
// rider, a hit horse's state, Quiet Mutiny, the random quality draw, an under-strength company, a
// sharpshooter's shot and treating the wounded.
#[test]
fn single_roll_procedures() {
    use acw_hardtack::advanced::QuietMutiny;
    use acw_hardtack::casualties::{HorseOrRider, HorseStatus, Treatment};
    use acw_hardtack::command::{CommunicationRoll, RegimentalCombatMove, Successor};
    use acw_hardtack::fire::Sharpshot;
    use acw_hardtack::setup::{QualityDraw, UnderStrength, WarYear};
    use acw_hardtack::tables::{ConfidenceLevel, Fatigue, Quality};
    assert_roll_matches_odds(&CommunicationRoll {
        quality: D8,
        sender: Leadership::TWO,
        receiver: Leadership::ONE,
        skipped: 1,
    });
    assert_roll_matches_odds(&RegimentalCombatMove {
        companies: 3,
        die: D6,
    });
    let companies = [
        (Quality::Regular, ConfidenceLevel::Steady),
        (Quality::Veteran, ConfidenceLevel::Shaken),
        (Quality::Veteran, ConfidenceLevel::Confident),
    ];
    assert_roll_matches_odds(&Successor {
        companies: &companies,
    });
    assert_roll_matches_odds(&HorseOrRider { by_mounted: true });
    assert_roll_matches_odds(&HorseStatus);
    assert_roll_matches_odds(&QuietMutiny {
        quality: Quality::Veteran,
        lv: Leadership::TWO,
    });
    assert_roll_matches_odds(&QualityDraw {
        year: WarYear::Later,
    });
    assert_roll_matches_odds(&UnderStrength {
        fatigue: Fatigue::Tired,
        figures: 6,
    });
    assert_roll_matches_odds(&Sharpshot {
        quality: D10,
        range: D6,
    });
    assert_roll_matches_odds(&Treatment { casualties: 3 });
}

// HT-MEL-12, HT-SG2-42: a combined melee with riders: two mounted companies (two Regulars, one of them
// already on foot, and two Greens) against three Regulars on foot; then a mounted defender against two
// companies on foot. Beaten riders roll horse or rider, unhorsed riders fight on at -1 the round after.
#[test]
fn combined_melee_with_riders() {
    let side = |figures, quality, mounted, on_foot| MeleeSide {
        figures,
        first_round: MeleeDie {
            mounted,
            ..MeleeDie::plain(quality)
        },
        quality,
        lv: Leadership::TWO,
        modifier: 0,
        on_foot,
    };
    let melee = CombinedMelee::new(
        &[side(2, D8, true, 1), side(2, D6, true, 0)],
        side(3, D8, false, 0),
        AssaultTestCasualties::ThisRound,
        TwoLevelDrop::HalfOrLess,
        false,
    )
    .unwrap();
    assert_roll_matches_odds(&melee);
    let melee = CombinedMelee::new(
        &[side(1, D8, false, 0), side(2, D6, false, 0)],
        side(2, D8, true, 0),
        AssaultTestCasualties::WholeAssault,
        TwoLevelDrop::HalfOrLess,
        false,
    )
    .unwrap();
    assert_roll_matches_odds(&melee);
}

// HT-MEL-12: a single company's melee with a rider unhorsed before it: he fights on foot from the start.
#[test]
fn melee_with_a_rider_already_on_foot() {
    let side = |figures, mounted, on_foot| MeleeSide {
        figures,
        first_round: MeleeDie {
            mounted,
            ..MeleeDie::plain(D8)
        },
        quality: D8,
        lv: Leadership::TWO,
        modifier: 0,
        on_foot,
    };
    let melee = Melee {
        attacker: side(3, true, 2),
        defender: side(2, false, 0),
        casualties: AssaultTestCasualties::ThisRound,
        two_level: TwoLevelDrop::HalfOrLess,
    };
    assert_roll_matches_odds(&melee);
}

// HT-ART-22, HT-CAS-04: fire at an unlimbered gun's detached team, small arms (one roll and stand by
// stand) and canister: hits allocated over the horses (two sound horses on a D4: the second horse takes
// faces 2 and 4; five on a D6, the first taking the 6), each struck horse's state on the D6 table or by
// the impact itself; under Quick Combat Resolution (HT-OPT-22) every hit horse is down.
#[test]
fn fire_at_a_gun_team() {
    use acw_hardtack::Options;
    use acw_hardtack::artillery::{TeamFire, canister_dice};
    use acw_hardtack::options::HorseStatusRoll;
    use acw_hardtack::state::FireRoll;
    use acw_hardtack::tables::FieldPiece;
    let small_arms = FireRoll::Dice(FireDice {
        firer: FirerDice::two(D8, D10),
        range: D4,
    });
    let team = |fire, impact, horses, options| TeamFire {
        fire,
        impact,
        armour_shift: 0,
        horses,
        options,
    };
    let o = Options::default();
    assert_roll_matches_odds(&team(small_arms, D8, 2, o));
    assert_roll_matches_odds(&team(small_arms, D6, 5, o));
    let mut by_impact = o;
    by_impact.horse_status_roll = HorseStatusRoll::ImpactVsD4;
    by_impact.kill_threshold = KillThreshold::MoreThanDouble;
    assert_roll_matches_odds(&TeamFire {
        armour_shift: 1,
        ..team(small_arms, D8, 4, by_impact)
    });
    let mut quick = o;
    quick.quick_combat_resolution = true;
    assert_roll_matches_odds(&team(small_arms, D8, 3, quick));
    let canister = FireRoll::Dice(FireDice {
        firer: canister_dice(D8, FieldPiece::Rifle10lbOr3in, None),
        range: D6,
    });
    assert_roll_matches_odds(&team(canister, D12, 6, o));
    let stands = StandFire::new(
        &[FireDice {
            firer: FirerDice::two(D8, D8),
            range: D6,
        }; 2],
        impact(D8, 0),
        4,
    )
    .unwrap();
    assert_roll_matches_odds(&team(FireRoll::Stands(stands), D8, 4, o));
}

// HT-ART-19, HT-ART-22, HT-INT-11: a canister blast through a company onto the gun team behind it, from
// the first roll to the horses down: every step count and the blast that needs casualties to carry on, a
// team range die the shift takes past D12.
#[test]
fn blast_through_a_company_onto_a_gun_team() {
    use acw_hardtack::Options;
    use acw_hardtack::artillery::{BlastOntoTeam, canister_dice};
    use acw_hardtack::options::BlastThroughCount;
    use acw_hardtack::tables::FieldPiece;
    let company = |range, pool| Volley {
        fire: FireDice {
            firer: canister_dice(D6, FieldPiece::Napoleon12lb, None),
            range,
        },
        impact: impact(D12, 0),
        pool,
    };
    let o = Options::default();
    let blast = |range, pool, team_range, options| {
        BlastOntoTeam::new(
            company(range, pool),
            D6,
            FieldPiece::Napoleon12lb,
            team_range,
            0,
            4,
            options,
        )
    };
    assert_roll_matches_odds(&blast(D8, 6, D6, o));
    let mut damaged = o;
    damaged.blast_through_count = BlastThroughCount::EveryDamagedCompany;
    assert_roll_matches_odds(&blast(D10, 4, D6, damaged));
    let mut needs_casualties = damaged;
    needs_casualties.blast_requires_casualties = true;
    assert_roll_matches_odds(&blast(D12, 3, D4, needs_casualties));
    assert_roll_matches_odds(&blast(D6, 6, D12, o));
}

// HT-ART-19, HT-ART-16, HT-INT-11, HT-ART-22: the whole canister blast rolls as its exact odds say, from the
// first roll through two and three companies to the team's horses: each way of counting the steps, the blast
// that needs casualties to carry on, companies in line (the formation shift spilling onto the crew's die at
// close range), and a line whose later companies or team the shift takes past D12.
#[test]
fn a_whole_canister_blast() {
    use acw_hardtack::Options;
    use acw_hardtack::artillery::{BlastChain, BlastCompany, BlastTeam};
    use acw_hardtack::fire::RangeFacts;
    use acw_hardtack::options::BlastThroughCount;
    use acw_hardtack::tables::FieldPiece;
    let piece = FieldPiece::Napoleon12lb;
    let band = piece.canister_band();
    let company = |d: f64, close, pool| BlastCompany {
        range: RangeFacts {
            close_formation_target: close,
            ..RangeFacts::at(d, band)
        },
        armour: D4,
        pool,
    };
    let team = |d: f64| {
        Some(BlastTeam {
            range: RangeFacts::at(d, band),
            horses: 2,
        })
    };
    let o = Options::default();
    let mut damaged = o;
    damaged.blast_through_count = BlastThroughCount::EveryDamagedCompany;
    let mut needs_casualties = damaged;
    needs_casualties.blast_requires_casualties = true;
    for (line, t, options) in [
        (
            vec![company(2.0, false, 3), company(5.0, false, 2)],
            None,
            o,
        ),
        (
            vec![company(2.0, true, 2), company(4.0, true, 3)],
            team(8.0),
            damaged,
        ),
        (
            vec![company(3.0, false, 2), company(6.0, false, 2)],
            team(9.0),
            needs_casualties,
        ),
        (
            vec![
                company(20.0, false, 2),
                company(24.0, false, 1),
                company(27.0, false, 1),
            ],
            team(30.0),
            o,
        ),
    ] {
        let chain = BlastChain::new(D6, piece, &line, t, options).unwrap();
        assert_roll_matches_odds(&chain);
    }
    // refused: no company, five, a company of no figures
    assert!(BlastChain::new(D6, piece, &[], None, o).is_err());
    assert!(BlastChain::new(D6, piece, &[company(2.0, false, 1); 5], None, o).is_err());
    assert!(BlastChain::new(D6, piece, &[company(2.0, false, 0)], None, o).is_err());
}

// HT-ART-18, HT-ART-19, HT-FIR-23, HT-INT-11: fire through enemy skirmishers, one step (the target's
// figures then the skirmishers' in one pool, each company with its own armour) and a whole blast whose
// steps go through skirmishers, rolls as its exact odds say: under each way of counting the steps (the
// skirmishers a damaged company of their own under `EveryDamagedCompany`, which can take the team behind
// past D12), and with the blast needing casualties in either company to carry on.
#[test]
fn a_canister_blast_through_skirmishers() {
    use acw_hardtack::Options;
    use acw_hardtack::artillery::{BlastChain, BlastCompany, BlastScreen, BlastTeam};
    use acw_hardtack::fire::{
        FireDice, FirerDice, Impact, RangeFacts, ScreenLosses, ScreenedVolley, Volley,
    };
    use acw_hardtack::options::BlastThroughCount;
    use acw_hardtack::tables::FieldPiece;
    let step = ScreenedVolley {
        volley: Volley {
            fire: FireDice {
                firer: FirerDice::new(&[D8, D12, D12]).unwrap(),
                range: D6,
            },
            impact: Impact {
                impact: D12,
                armour: D4,
                armour_shift: 1,
                kill: acw_hardtack::options::KillThreshold::DoubleOrMore,
            },
            pool: 3,
        },
        screen_armour: D6,
        screen: 2,
    };
    assert!(
        step.odds()
            .prob(|o| o.screen.killed > 0 && o.target.killed > 0)
            > 0.0
    );
    assert_roll_matches_odds(&step);
    // with no skirmisher in the pool it is the volley at the target alone
    let alone = ScreenedVolley { screen: 0, ..step };
    assert!((alone.odds().prob(|o| o.screen == ScreenLosses::default()) - 1.0).abs() < 1e-12);
    assert_roll_matches_odds(&alone);

    let piece = FieldPiece::Napoleon12lb;
    let band = piece.canister_band();
    let company = |d: f64, pool| BlastCompany {
        range: RangeFacts::at(d, band),
        armour: D4,
        pool,
    };
    let screen = Some(BlastScreen {
        armour: D4,
        pool: 2,
    });
    let o = Options::default();
    let mut damaged = o;
    damaged.blast_through_count = BlastThroughCount::EveryDamagedCompany;
    let mut needs_casualties = o;
    needs_casualties.blast_requires_casualties = true;
    let team = Some(BlastTeam {
        range: RangeFacts::at(8.0, band),
        horses: 2,
    });
    for options in [o, damaged, needs_casualties] {
        let chain = BlastChain::with_screens(
            D6,
            piece,
            &[company(2.0, 2), company(5.0, 1)],
            &[screen, screen],
            team,
            options,
        )
        .unwrap();
        let odds = chain.odds();
        assert!(odds.prob(|c| c.screens[0].is_some_and(|s| s.killed > 0)) > 0.0);
        assert!(odds.prob(|c| c.team.is_some()) > 0.0);
        assert_roll_matches_odds(&chain);
    }
    // a screen in front of the second company only; refused: more screens than companies, an empty screen
    let second = BlastChain::with_screens(
        D6,
        piece,
        &[company(2.0, 2), company(5.0, 2)],
        &[None, screen],
        None,
        damaged,
    )
    .unwrap();
    assert_eq!(second.odds().prob(|c| c.screens[0].is_some()), 0.0);
    assert_roll_matches_odds(&second);
    assert!(
        BlastChain::with_screens(D6, piece, &[company(2.0, 2)], &[None, None], None, o).is_err()
    );
    let empty = Some(BlastScreen {
        armour: D4,
        pool: 0,
    });
    assert!(BlastChain::with_screens(D6, piece, &[company(2.0, 2)], &[empty], None, o).is_err());
}
