//! Casualties: horse or rider, a hit horse's state, treatment, carrying, multiple wounds.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use acw_core::dice::ScriptedDice;
use acw_core::{Resolve, Side};
use acw_hardtack::casualties::{
    HorseOrRider, HorseState, HorseStatus, Struck, Treated, Treatment, carry, encumbered,
};
use acw_hardtack::fire::{HitResult, classify_impact};
use acw_hardtack::options::{HorseStatusRoll, KillThreshold, MountedCasualtyScope};
use acw_hardtack::state::{CompanySpec, FireFacts, Formation, Role};
use acw_hardtack::{Battle, Options};

// HT-CAS-03, HT-MEL-12: the D10: horse on 1-6 (3/5) under fire and against a man on foot, 1-4 (2/5) against
// a mounted opponent.
#[test]
fn horse_or_rider() {
    let fire = HorseOrRider { by_mounted: false };
    assert!((fire.odds().p(&Struck::Horse) - 3.0 / 5.0).abs() < 1e-12);
    assert_eq!(fire.judge(6), Struck::Horse);
    assert_eq!(fire.judge(7), Struck::Rider);
    let mounted = HorseOrRider { by_mounted: true };
    assert!((mounted.odds().p(&Struck::Horse) - 2.0 / 5.0).abs() < 1e-12);
    assert_eq!(mounted.judge(5), Struck::Rider);
}

// HT-CAS-04, HT-ART-22: a hit horse: 1/3 dead, 1/2 wounded, 1/6 unhurt.
#[test]
fn horse_status() {
    let o = HorseStatus.odds();
    assert!((o.p(&HorseState::Dead) - 1.0 / 3.0).abs() < 1e-12);
    assert!((o.p(&HorseState::Wounded) - 1.0 / 2.0).abs() < 1e-12);
    assert!((o.p(&HorseState::Okay) - 1.0 / 6.0).abs() < 1e-12);
}

// HT-SG2-49, HT-CAS-06: treatment after the battle: 1-2 dead, 3-5 wounded, 6 recovered.
#[test]
fn treatment() {
    assert_eq!(Treatment::judge(2), Treated::Dead);
    assert_eq!(Treatment::judge(5), Treated::Wounded);
    assert_eq!(Treatment::judge(6), Treated::Recovered);
    assert_eq!(
        Treatment { casualties: 3 }.roll(&mut ScriptedDice::faces([1, 4, 6])),
        (1, 1, 1)
    );
}

// HT-SG2-24, HT-CAS-08, HT-MOV-15: carrying one wounded per fit figure encumbers a company on foot; riders
// carried on their own horses do not.
#[test]
fn carrying() {
    assert_eq!(carry(3, 5), (3, 0));
    assert_eq!(carry(6, 4), (4, 2));
    assert!(encumbered(2));
    assert!(!encumbered(0));
}

// HT-CAS-01, HT-CAS-02, HT-CAS-07, HT-INT-01, HT-ACC-33: impact against armour: (3, 5) nothing, (6, 5) wound,
// (9, 4) kill; (8, 4) kills under Hardtack's "double or more", wounds under Stargrunt II's "more than double".
#[test]
fn kill_threshold() {
    let k = KillThreshold::DoubleOrMore;
    assert_eq!(classify_impact(3, 5, k), HitResult::NoEffect);
    assert_eq!(classify_impact(6, 5, k), HitResult::Wounded);
    assert_eq!(classify_impact(9, 4, k), HitResult::Killed);
    assert_eq!(classify_impact(8, 4, k), HitResult::Killed);
    assert_eq!(
        classify_impact(8, 4, KillThreshold::MoreThanDouble),
        HitResult::Wounded
    );
}

fn cavalry(options: Options) -> (Battle, acw_hardtack::CompanyId, acw_hardtack::CompanyId) {
    let mut b = Battle::new(options);
    let mut l = CompanySpec::new("Union line", Side::Union, 8);
    l.formation = Formation::Line;
    let a = b.add_company(l).unwrap();
    let mut c = CompanySpec::new("Stuart's troopers", Side::Confederate, 4);
    c.cavalry = Some(true);
    let r = b.add_company(c).unwrap();
    b.activate(a).unwrap();
    (b, a, r)
}

// HT-CAS-03, HT-CAS-04, HT-CAS-05, HT-FIR-01: a volley at mounted cavalry in the engine. R 1, Q 8, FP 4: 12/4
// = 3 hits on 4 figures (D4). The leader (allocation 1): armour 1, impact 5 kills — but the D10 is 2: his
// horse, D6 1: dead; he is on foot, unhurt, and still the leader. Figure 2: armour 2, impact 3, a wound; D10
// 9: the rider. Figure 3: armour 4, impact 1: nothing.
#[test]
fn mounted_casualties_under_fire() {
    let (mut b, a, r) = cavalry(Options::default());
    let mut dice = ScriptedDice::faces([1, 8, 4, 1, 1, 5, 2, 1, 2, 2, 3, 9, 3, 4, 1, 8]);
    let rep = b
        .fire(
            a,
            r,
            FireFacts {
                distance: 6.0,
                ..FireFacts::default()
            },
            &mut dice,
        )
        .unwrap();
    assert_eq!(dice.remaining(), 0);
    assert_eq!((rep.companies[0].killed, rep.companies[0].wounded), (0, 1));
    assert!(!rep.companies[0].leader_fell);
    let c = b.company(r).unwrap();
    assert!(c.figures()[0].unhorsed);
    assert_eq!(c.figures()[0].role, Role::Leader);
    assert_eq!(c.fit(), 3);
}

// HT-CAS-03, HT-CAS-04: options: a kill skips the D10 under WoundsOnly; the horse's state by impact against D4.
#[test]
fn mounted_casualty_options() {
    let mut o = Options::default();
    o.mounted_casualty_scope = MountedCasualtyScope::WoundsOnly;
    let (mut b, a, r) = cavalry(o);
    // R 3, Q 4, FP 4: 8/4 = 2 hits. The leader: armour 1, impact 6, killed outright with no D10; figure 2:
    // armour 3, impact 4, wounded, D10 1 (the horse), D6 6 (unhurt): no casualty.
    let mut dice = ScriptedDice::faces([3, 4, 4, 1, 1, 6, 2, 3, 4, 1, 6, 8, 6]);
    let rep = b
        .fire(
            a,
            r,
            FireFacts {
                distance: 6.0,
                ..FireFacts::default()
            },
            &mut dice,
        )
        .unwrap();
    assert_eq!(dice.remaining(), 0);
    assert_eq!((rep.companies[0].killed, rep.companies[0].wounded), (1, 0));
    assert!(rep.companies[0].leader_fell);
    let mut o = Options::default();
    o.horse_status_roll = HorseStatusRoll::ImpactVsD4;
    let (mut b, a, r) = cavalry(o);
    // R 3, Q 4, FP 4: 2 hits. Figure 2: armour 1, impact 2 (kill), D10 1 (horse), impact again 6 against
    // armour 1: the horse is dead. Figure 3: armour 4 impact 1: nothing.
    let mut dice = ScriptedDice::faces([3, 4, 4, 2, 1, 2, 1, 1, 6, 3, 4, 1, 8]);
    let rep = b
        .fire(
            a,
            r,
            FireFacts {
                distance: 6.0,
                ..FireFacts::default()
            },
            &mut dice,
        )
        .unwrap();
    assert_eq!(dice.remaining(), 0);
    assert_eq!(rep.companies[0].killed + rep.companies[0].wounded, 0);
    assert!(b.company(r).unwrap().figures()[1].unhorsed);
}

// HT-FRM-06: a rider unhorsed in a cavalry column: the company makes him a detached element (on foot), or
// removes him as a casualty, or goes to skirmish.
#[test]
fn unhorsed_riders_in_formation() {
    use acw_hardtack::state::{Condition, UnhorsedChoice};
    let setup = || {
        let mut b = Battle::new(Options::default());
        let mut l = CompanySpec::new("Union line", Side::Union, 8);
        l.formation = Formation::Line;
        let a = b.add_company(l).unwrap();
        let mut c = CompanySpec::new("Stuart's column", Side::Confederate, 4);
        c.cavalry = Some(true);
        c.formation = Formation::Column;
        let r = b.add_company(c).unwrap();
        b.activate(a).unwrap();
        // R 1, Q 8, FP 4: 3 hits. Figure 2: armour 1, impact 5, D10 2 (the horse), D6 1 (dead): unhorsed.
        // Figures 4 and 3: armour 4, impact 1: nothing. The column tests (8).
        let mut dice = ScriptedDice::faces([1, 8, 4, 2, 1, 5, 2, 1, 4, 4, 1, 3, 4, 1, 8]);
        b.fire(
            a,
            r,
            FireFacts {
                distance: 6.0,
                ..FireFacts::default()
            },
            &mut dice,
        )
        .unwrap();
        assert_eq!(dice.remaining(), 0);
        b.end_turn().unwrap();
        b.activate(r).unwrap();
        (b, r)
    };
    let (mut b, r) = setup();
    assert!(b.company(r).unwrap().figures()[1].unhorsed);
    b.unhorsed_riders(r, UnhorsedChoice::Detach).unwrap();
    assert_eq!(b.company(r).unwrap().fit(), 3);
    assert_eq!(b.company(r).unwrap().formation(), Formation::Column);
    let (mut b, r) = setup();
    b.unhorsed_riders(r, UnhorsedChoice::Remove).unwrap();
    assert_eq!(
        b.company(r).unwrap().figures()[1].condition,
        Condition::Dispersed
    );
    assert!(b.unhorsed_riders(r, UnhorsedChoice::Remove).is_err());
    let (mut b, r) = setup();
    b.unhorsed_riders(r, UnhorsedChoice::Skirmish).unwrap();
    assert_eq!(b.company(r).unwrap().formation(), Formation::Skirmish);
}
