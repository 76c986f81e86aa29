//! Confidence and reaction: threat-level composition, the tests, rallies, In Position, and their readings.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::Resolve;
use acw_core::dice::ScriptedDice;
use acw_hardtack::DieType::D8;
use acw_hardtack::fire::Cover;
use acw_hardtack::morale::{
    Confidence, ConfidenceTest, FiredOn, ReplacementLeader, TestEvent, threat_level,
};
use acw_hardtack::options::{CasualtyTl, LeaderCasualtyTl, OverwhelmedTrigger, TwoLevelDrop};
use acw_hardtack::state::Formation;
use acw_hardtack::tables::{ConfidenceLevel, Leadership, Motivation};
use acw_hardtack::{Options, RuleViolation};
use common::two;

fn tl3(e: &TestEvent, o: &Options) -> [Option<i16>; 3] {
    [Motivation::Low, Motivation::Medium, Motivation::High].map(|m| threat_level(e, m, o))
}

// HT-MOR-01, HT-MOR-02, HT-MOR-03, HT-FIR-26, HT-GEN-05: fired on 1/0/NTR; with casualties 2/1/0 (a High
// unit tests at 0).
#[test]
fn fired_on_and_casualties() {
    let o = Options::default();
    let mut e = TestEvent {
        fired_on: Some(FiredOn::SmallArms),
        survivors: 8,
        ..TestEvent::default()
    };
    assert_eq!(tl3(&e, &o), [Some(1), Some(0), None]);
    e.casualties = 1;
    e.survivors = 7;
    assert_eq!(tl3(&e, &o), [Some(2), Some(1), Some(0)]);
    // HT-INT-03: Stargrunt II's 2/1/NTR instead.
    let mut sg = Options::default();
    sg.casualty_tl = CasualtyTl::Sgii;
    assert_eq!(tl3(&e, &sg), [Some(2), Some(1), None]);
}

// HT-ACC-05, HT-ART-09: shot with two casualties: Medium skirmish 0 + 1 = 1; Low in close formation
// 1 + 1 - 1 = 1.
#[test]
fn shot_test_levels() {
    let o = Options::default();
    let mut e = TestEvent {
        fired_on: Some(FiredOn::Shot),
        casualties: 2,
        survivors: 6,
        ..TestEvent::default()
    };
    assert_eq!(threat_level(&e, Motivation::Medium, &o), Some(1));
    e.close_formation = true;
    assert_eq!(threat_level(&e, Motivation::Low, &o), Some(1));
}

// HT-ACC-06, HT-ACC-07, HT-ART-20: canister 3/2/1 + casualties, -1 in line: 3/2/0; the skirmishers 4/3/1;
// a miss on a line 2/1/0.
#[test]
fn canister_test_levels() {
    let o = Options::default();
    let line = TestEvent {
        fired_on: Some(FiredOn::Canister),
        casualties: 2,
        survivors: 6,
        close_formation: true,
        ..TestEvent::default()
    };
    assert_eq!(tl3(&line, &o), [Some(3), Some(2), Some(0)]);
    let sk = TestEvent {
        fired_on: Some(FiredOn::Canister),
        casualties: 1,
        survivors: 3,
        ..TestEvent::default()
    };
    assert_eq!(tl3(&sk, &o), [Some(4), Some(3), Some(1)]);
    let miss = TestEvent {
        fired_on: Some(FiredOn::Canister),
        survivors: 8,
        close_formation: true,
        ..TestEvent::default()
    };
    assert_eq!(tl3(&miss, &o), [Some(2), Some(1), Some(0)]);
}

// HT-ACC-09, HT-OPT-18, HT-MOR-09, HT-INT-05, HT-INT-20: a company of 8 takes three attacks of 2 casualties
// and one of 1.
#[test]
fn morale_modifications_sequence() {
    let mut on = Options::default();
    on.morale_modifications = true;
    let mut sgii = Options::default();
    sgii.overwhelmed_trigger = OverwhelmedTrigger::MoreThan;
    let off = Options::default();
    let attack = |c, s, half| TestEvent {
        fired_on: Some(FiredOn::SmallArms),
        casualties: c,
        survivors: s,
        half_lost: half,
        ..TestEvent::default()
    };
    let rows = [
        (attack(2, 6, false), [[2, 1, 0], [2, 1, 0], [2, 1, 0]]),
        (attack(2, 4, true), [[4, 3, 1], [2, 1, 0], [2, 1, 0]]),
        (attack(2, 2, true), [[4, 3, 1], [2, 1, 0], [4, 3, 1]]),
        (attack(1, 1, true), [[4, 3, 1], [2, 1, 0], [4, 3, 1]]),
    ];
    for (e, want) in rows {
        for (o, w) in [&on, &sgii, &off].into_iter().zip(want) {
            assert_eq!(tl3(&e, o), w.map(Some), "{e:?}");
        }
    }
}

// HT-MOR-10, HT-INT-02, HT-SG2-20: the leader row 4/3/1 (Stargrunt II 4/3/2), the highest base wins.
#[test]
fn leader_row() {
    let e = TestEvent {
        fired_on: Some(FiredOn::SmallArms),
        casualties: 1,
        survivors: 7,
        leader_casualty: true,
        ..TestEvent::default()
    };
    assert_eq!(tl3(&e, &Options::default()), [Some(4), Some(3), Some(1)]);
    let mut sg = Options::default();
    sg.leader_casualty_tl = LeaderCasualtyTl::Sgii;
    assert_eq!(tl3(&e, &sg), [Some(4), Some(3), Some(2)]);
}

// HT-ACC-25, HT-OPT-13, HT-INT-09: first-volley casualties: Medium 1 + 2 = 3, Low 2 + 3 = 5 (4 with the
// printed example's reading).
#[test]
fn first_volley_morale() {
    let mut o = Options::default();
    o.first_volley = true;
    let e = TestEvent {
        fired_on: Some(FiredOn::SmallArms),
        casualties: 1,
        survivors: 7,
        first_volley: true,
        ..TestEvent::default()
    };
    assert_eq!(threat_level(&e, Motivation::Medium, &o), Some(3));
    assert_eq!(threat_level(&e, Motivation::Low, &o), Some(5));
    o.first_volley_low_example = true;
    assert_eq!(threat_level(&e, Motivation::Low, &o), Some(4));
}

// HT-OPT-11, HT-MOR-06, HT-MOR-11, HT-MOR-05: enfilade +3/+2/+2 only against close formations; close
// formation -1; abandoned wounded make a test on their own (+3/+2/+1).
#[test]
fn cumulative_rows() {
    let mut o = Options::default();
    o.enfilade = true;
    let mut e = TestEvent {
        fired_on: Some(FiredOn::SmallArms),
        survivors: 8,
        enfilade: true,
        close_formation: true,
        ..TestEvent::default()
    };
    assert_eq!(tl3(&e, &o), [Some(3), Some(1), None]);
    e.close_formation = false;
    assert_eq!(tl3(&e, &o), [Some(1), Some(0), None]);
    let abandon = TestEvent {
        abandon_wounded: true,
        ..TestEvent::default()
    };
    assert_eq!(tl3(&abandon, &o), [Some(3), Some(2), Some(1)]);
    assert_eq!(tl3(&TestEvent::default(), &o), [None, None, None]);
}

// HT-SG2-16, HT-ACC-29: Regular LV2 at TL 2: 5-8 pass, 3-4 one level, 1-2 two; the quick-reference reading
// makes only the 1 a two-level loss.
#[test]
fn confidence_example() {
    let t = ConfidenceTest {
        quality: D8,
        lv: Leadership::TWO,
        tl: 2,
        two_level: TwoLevelDrop::HalfOrLess,
    };
    assert_eq!(t.judge(5), Confidence::Pass);
    assert_eq!(t.judge(3), Confidence::LoseOne);
    assert_eq!(t.judge(2), Confidence::LoseTwo);
    let qr = ConfidenceTest {
        two_level: TwoLevelDrop::LessThanHalf,
        ..t
    };
    assert_eq!(qr.judge(2), Confidence::LoseOne);
    assert_eq!(qr.judge(1), Confidence::LoseTwo);
    assert_eq!(ConfidenceLevel::Steady.dropped(2), ConfidenceLevel::Broken);
}

// HT-ACC-39, HT-SG2-20: an LV3 leader's replacement: 1-5 LV3, 6 LV2.
#[test]
fn replacement_leader() {
    let r = ReplacementLeader {
        old: Leadership::THREE,
    };
    assert_eq!(r.roll(&mut ScriptedDice::faces([1])), Leadership::THREE);
    assert_eq!(r.roll(&mut ScriptedDice::faces([6])), Leadership::TWO);
}

// HT-ACC-30, HT-SG2-07, HT-CMD-06, HT-SG2-02: a Broken Regular LV2 rallied by an LV1 commander within 6": a
// roll of 4 makes it Shaken; 3 does nothing; beyond 6" refused; never above the fatigue ceiling.
#[test]
fn rally_in_the_engine() {
    let (mut b, a, r) = two(
        Options::default(),
        (8, Formation::Line),
        (8, Formation::Skirmish),
    );
    let mut spec =
        acw_hardtack::state::CompanySpec::new("colonel's guard", acw_core::Side::Confederate, 3);
    spec.lv = Leadership::ONE;
    spec.fatigue = acw_hardtack::tables::Fatigue::Tired;
    let colonel = b.add_company(spec).unwrap();
    // Break the target: two minor results, test rolls 1 then 2.
    b.fire(
        a,
        r,
        acw_hardtack::state::FireFacts {
            distance: 6.0,
            ..Default::default()
        },
        &mut ScriptedDice::faces([4, 7, 2, 1]),
    )
    .unwrap();
    b.reload(a).unwrap();
    b.end_turn().unwrap();
    b.activate(a).unwrap();
    b.fire(
        a,
        r,
        acw_hardtack::state::FireFacts {
            distance: 6.0,
            ..Default::default()
        },
        &mut ScriptedDice::faces([4, 7, 2, 2]),
    )
    .unwrap();
    b.end_activation().unwrap();
    assert_eq!(b.company(r).unwrap().confidence(), ConfidenceLevel::Broken);
    b.activate(colonel).unwrap();
    assert!(matches!(
        b.rally(colonel, r, 7.0, &mut ScriptedDice::faces([8])),
        Err(RuleViolation::Refused { .. })
    ));
    let enemy = b
        .rally(colonel, a, 3.0, &mut ScriptedDice::faces([8]))
        .unwrap_err();
    assert_eq!(
        enemy.to_string(),
        "colonel's guard may not rally: a commander rallies companies of his own side"
    );
    assert_eq!(
        b.rally(colonel, r, 5.0, &mut ScriptedDice::faces([3]))
            .unwrap(),
        ConfidenceLevel::Broken
    );
    // A rally is made once an activation (HT-SG2-04): the next try waits for the next turn.
    assert!(
        b.rally(colonel, r, 5.0, &mut ScriptedDice::faces([4]))
            .is_err()
    );
    b.end_turn().unwrap();
    b.activate(colonel).unwrap();
    assert_eq!(
        b.rally(colonel, r, 5.0, &mut ScriptedDice::faces([4]))
            .unwrap(),
        ConfidenceLevel::Shaken
    );
    // The Tired colonel's own company cannot rise above Steady.
    assert_eq!(
        ConfidenceLevel::Steady.rallied(ConfidenceLevel::Steady),
        ConfidenceLevel::Steady
    );
    assert_eq!(
        acw_hardtack::tables::Fatigue::Exhausted.ceiling(),
        ConfidenceLevel::Shaken
    );
}

// HT-ACC-31, HT-SG2-14, HT-SG2-15, HT-MOR-06, HT-SG2-18: Regular LV2 goes In Position in cover on a roll above 2 and in
// the open above 4; in close formation above 1 and 3. Not behind a fortification.
#[test]
fn in_position() {
    let (mut b, a, _) = two(
        Options::default(),
        (8, Formation::Skirmish),
        (8, Formation::Line),
    );
    assert!(
        !b.go_in_position(a, Cover::Soft, &mut ScriptedDice::faces([2]))
            .unwrap()
    );
    // A failed reaction test's action cannot be retried in the same activation (HT-SG2-18).
    assert!(
        b.go_in_position(a, Cover::Soft, &mut ScriptedDice::faces([3]))
            .is_err()
    );
    b.end_turn().unwrap();
    b.activate(a).unwrap();
    assert!(
        b.go_in_position(a, Cover::Soft, &mut ScriptedDice::faces([3]))
            .unwrap()
    );
    assert!(b.company(a).unwrap().in_position());
    let (mut b, a, _) = two(
        Options::default(),
        (8, Formation::Line),
        (8, Formation::Line),
    );
    assert!(
        b.go_in_position(a, Cover::Open, &mut ScriptedDice::faces([4]))
            .unwrap()
    );
    assert!(matches!(
        b.go_in_position(a, Cover::Fortification, &mut ScriptedDice::faces([8])),
        Err(RuleViolation::Refused { .. })
    ));
    // HT-FRM-12, HT-SG2-14: an In Position company reorganises only after dropping In Position (one action)
    // or under a reaction test at TL 2 (-1 in line: T = 3): 3 fails and wastes the action, 4 passes.
    b.end_turn().unwrap();
    b.activate(a).unwrap();
    assert!(matches!(
        b.reorganise(a, Formation::Skirmish),
        Err(RuleViolation::Refused { .. })
    ));
    assert!(
        !b.reorganise_from_position(a, Formation::Skirmish, &mut ScriptedDice::faces([3]))
            .unwrap()
    );
    assert!(b.company(a).unwrap().in_position());
    b.end_turn().unwrap();
    b.activate(a).unwrap();
    assert!(
        b.reorganise_from_position(a, Formation::Skirmish, &mut ScriptedDice::faces([4]))
            .unwrap()
    );
    assert!(!b.company(a).unwrap().in_position());
    assert_eq!(b.company(a).unwrap().formation(), Formation::Skirmish);
    b.end_turn().unwrap();
    b.activate(a).unwrap();
    assert!(
        b.go_in_position(a, Cover::Soft, &mut ScriptedDice::faces([8]))
            .unwrap()
    );
    b.drop_in_position(a).unwrap();
    assert!(!b.company(a).unwrap().in_position());
}
