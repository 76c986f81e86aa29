//! Small-arms fire: range dice, firer dice, the whole procedure in the engine, and its refusals.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::dice::ScriptedDice;
use acw_hardtack::DieType::{self, D4, D6, D8, D10, D12};
use acw_hardtack::fire::{
    Cover, FireKind, FirepowerFacts, RangeDie, RangeFacts, Spill, firer_dice, potential_hits,
    range_die,
};
use acw_hardtack::ladder::Success;
use acw_hardtack::morale::Confidence;
use acw_hardtack::options::{FormationSpill, FpDieRounding, RangeOverflow};
use acw_hardtack::state::{FireFacts, Formation};
use acw_hardtack::tables::{ConfidenceLevel, Leadership};
use acw_hardtack::{Options, RuleViolation};
use common::two;

fn die(r: RangeDie) -> Option<DieType> {
    match r {
        RangeDie::Die { die, .. } => Some(die),
        RangeDie::OutOfReach => None,
    }
}

fn small(f: &RangeFacts) -> RangeDie {
    range_die(f, FireKind::SmallArms, false, &Options::default()).unwrap()
}

// HT-ACC-01, HT-FIR-05, HT-FIR-04: smoothbore at 10" behind a fence: D6, +1 smoothbore, +1 soft = D10;
// in line it would be D8.
#[test]
fn smoothbore_example_one() {
    let mut f = RangeFacts::at(10.0, 8.0);
    f.smoothbore = true;
    f.cover = Cover::Soft;
    assert_eq!(die(small(&f)), Some(D10));
    f.close_formation_target = true;
    assert_eq!(die(small(&f)), Some(D8));
}

// HT-ACC-02: at 6" the base die is D4 and the smoothbore shift does not apply: soft cover makes D6.
#[test]
fn smoothbore_example_two() {
    let mut f = RangeFacts::at(6.0, 8.0);
    f.smoothbore = true;
    f.cover = Cover::Soft;
    assert_eq!(die(small(&f)), Some(D6));
}

// HT-SG2-28, HT-FIR-03, HT-ACC-34: a Regular reaches 40" in the open, 32" in soft and 24" in hard cover;
// 16" against a fortification (HT-FIR-06).
#[test]
fn maximum_ranges() {
    for (cover, reach) in [
        (Cover::Open, 40.0),
        (Cover::Soft, 32.0),
        (Cover::Hard, 24.0),
        (Cover::Fortification, 16.0),
    ] {
        let mut f = RangeFacts::at(reach, 8.0);
        f.cover = cover;
        assert_eq!(die(small(&f)), Some(D12), "{cover} at {reach}");
        f.distance = reach + 0.5;
        assert_eq!(small(&f), RangeDie::OutOfReach, "{cover} beyond {reach}");
    }
}

// HT-ACC-38, HT-FIR-13, HT-SG2-26: a lone figure between 1 and 2 bands: D6 +1 = D8 in the open, D10 in soft
// cover.
#[test]
fn lone_figure_target() {
    let mut f = RangeFacts::at(12.0, 8.0);
    f.lone_figure = true;
    assert_eq!(die(small(&f)), Some(D8));
    f.cover = Cover::Soft;
    assert_eq!(die(small(&f)), Some(D10));
}

// HT-INT-14: band 5 in soft cover against a line: Sequential overflows before the formation shift, Net
// brings it back to D12.
#[test]
fn range_overflow_readings() {
    let mut f = RangeFacts::at(40.0, 8.0);
    f.cover = Cover::Soft;
    f.close_formation_target = true;
    assert_eq!(small(&f), RangeDie::OutOfReach);
    let mut net = Options::default();
    net.range_overflow = RangeOverflow::Net;
    assert_eq!(
        die(range_die(&f, FireKind::SmallArms, false, &net).unwrap()),
        Some(D12)
    );
}

// HT-FIR-07, HT-ACC-42, HT-INT-07: a line target at 6": the range die is already D4, so the firer's
// firepower die goes D8 -> D10 (small arms) or its quality die (canister).
#[test]
fn formation_spill() {
    let mut f = RangeFacts::at(6.0, 8.0);
    f.close_formation_target = true;
    let r = small(&f);
    assert_eq!(
        r,
        RangeDie::Die {
            die: D4,
            spill: Some(Spill::Firepower)
        }
    );
    let pair = firer_dice(
        &FirepowerFacts {
            quality: D8,
            half_fp: 16,
            skirmish: false,
            first_volley: false,
            spill: Some(Spill::Firepower),
        },
        &Options::default(),
    )
    .unwrap();
    assert_eq!((pair.quality, pair.firepower), (D8, D10));
    let can = range_die(
        &RangeFacts { band: 6.0, ..f },
        FireKind::Canister,
        false,
        &Options::default(),
    )
    .unwrap();
    assert_eq!(
        can,
        RangeDie::Die {
            die: D4,
            spill: Some(Spill::Quality)
        }
    );
    let mut always = Options::default();
    always.formation_spill = FormationSpill::AlwaysQuality;
    assert_eq!(
        range_die(&f, FireKind::SmallArms, false, &always).unwrap(),
        RangeDie::Die {
            die: D4,
            spill: Some(Spill::Quality)
        }
    );
}

// HT-FIR-04: travel mode -1 (HT-SG2-23), In Position +1 (HT-SG2-14), mounted firers +1 (HT-FIR-12),
// prepared fire +1 (HT-OPT-21), blast-through +k.
#[test]
fn other_range_shifts() {
    let mut f = RangeFacts::at(12.0, 8.0);
    f.travel_mode = true;
    assert_eq!(die(small(&f)), Some(D4));
    let mut f = RangeFacts::at(12.0, 8.0);
    f.in_position = true;
    f.mounted_firers = true;
    assert_eq!(die(small(&f)), Some(D10));
    let mut f = RangeFacts::at(12.0, 8.0);
    f.prepared = true;
    f.blast_through = 2;
    assert_eq!(die(small(&f)), Some(D12));
}

// HT-ACC-12, HT-OPT-21: prepared fire at two bands: D6 + 1 = D8.
#[test]
fn prepared_fire_range() {
    let mut f = RangeFacts::at(16.0, 8.0);
    f.prepared = true;
    assert_eq!(die(small(&f)), Some(D8));
}

// HT-FIR-14: close-range-only weapons reach the first band only.
#[test]
fn close_range_only() {
    let f = RangeFacts::at(9.0, 8.0);
    assert_eq!(
        range_die(&f, FireKind::SmallArms, true, &Options::default()).unwrap(),
        RangeDie::OutOfReach
    );
    let f = RangeFacts::at(8.0, 8.0);
    assert_eq!(
        die(range_die(&f, FireKind::SmallArms, true, &Options::default()).unwrap()),
        Some(D4)
    );
}

fn pair(half_fp: u32, skirmish: bool, first_volley: bool, o: &Options) -> (DieType, DieType, bool) {
    let p = firer_dice(
        &FirepowerFacts {
            quality: D8,
            half_fp,
            skirmish,
            first_volley,
            spill: None,
        },
        o,
    )
    .unwrap();
    (p.quality, p.firepower, p.range_down)
}

// HT-ACC-03, HT-ACC-04, HT-FIR-09, HT-INT-15: three figures roll D8 + D4; two roll D6 + D4; skirmishing three
// stay {D8, D4} by default and become {D6, D4} on the D2 ladder.
#[test]
fn d2_firepower() {
    let o = Options::default();
    assert_eq!(pair(6, false, false, &o), (D8, D4, false));
    assert_eq!(pair(4, false, false, &o), (D6, D4, false));
    assert_eq!(pair(3, false, false, &o), (D6, D4, false));
    assert_eq!(pair(6, true, false, &o), (D8, D4, false));
    let mut ladder = Options::default();
    ladder.d2_ladder = true;
    assert_eq!(pair(6, true, false, &ladder), (D6, D4, false));
}

// HT-SG2-29, HT-FIR-08, HT-INT-06, HT-SET-11: totals round up (5 -> D6, 7 -> D8, 11 -> D12); pistols count
// half; the designer's-notes reading rounds odd totals down.
#[test]
fn firepower_rounding() {
    let o = Options::default();
    assert_eq!(pair(10, false, false, &o).1, D6);
    assert_eq!(pair(14, false, false, &o).1, D8);
    assert_eq!(pair(9, false, false, &o).1, D6);
    assert_eq!(pair(22, false, false, &o).1, D12);
    let mut down = Options::default();
    down.fp_die_rounding = FpDieRounding::RoundDownOddMinD4;
    assert_eq!(pair(10, false, false, &down).1, D4);
    assert_eq!(pair(14, false, false, &down).1, D6);
    assert_eq!(pair(24, false, false, &down).1, D12);
}

// HT-FIR-10, HT-FRM-02: a skirmish company's firepower die drops one (D6 -> D4).
#[test]
fn skirmish_firepower() {
    assert_eq!(pair(12, true, false, &Options::default()).1, D4);
    assert_eq!(pair(16, true, false, &Options::default()).1, D6);
}

// HT-ACC-25, HT-OPT-12: a first volley raises D8 to D10; at D12 it lowers the range die instead.
#[test]
fn first_volley_firepower() {
    let o = Options::default();
    assert_eq!(pair(16, false, true, &o), (D8, D10, false));
    assert_eq!(pair(24, false, true, &o), (D8, D12, true));
}

// HT-ACC-32, HT-SG2-31, HT-FIR-17: 18 against a D8 is 2 hits and a remainder of 2.
#[test]
fn potential_hits_example() {
    assert_eq!(potential_hits(18, D8), (2, 2));
    assert_eq!(potential_hits(19, D8), (2, 3));
    assert_eq!(potential_hits(3, D6), (0, 3));
}

// HT-FIR-01, HT-FIR-02, HT-FIR-18, HT-FIR-19, HT-FIR-26, HT-MOR-02, HT-MOR-10,
// HT-SG2-20, HT-SG2-33, HT-CAS-01: a Regular line of 8 fires at 8 skirmishers 6" away (R D4; Q D8 + FP D8).
// Scripted: R 2, Q 5, FP 7 -> major, 12/4 = 3 potential casualties. Hits: figure 1 (the leader), armour 2,
// impact 5 -> killed; figure 3, armour 3, impact 4 -> wounded; figure 3 again, armour 1, impact 1 -> nothing.
// The test: fired on 0 + casualties 1 = 1, leader 3 -> TL 3, T = 5; roll 6 passes. New leader: D6 6 -> LV1.
#[test]
fn a_volley_in_the_engine() {
    let (mut b, a, r) = two(
        Options::default(),
        (8, Formation::Line),
        (8, Formation::Skirmish),
    );
    let mut dice = ScriptedDice::faces([2, 5, 7, 1, 2, 5, 3, 3, 4, 3, 1, 1, 6, 6]);
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
    assert_eq!(rep.range, Some(D4));
    // HT-FIR-16: a major result brings potential casualties (12/4 = 3) and the fired-on test below.
    assert_eq!(rep.effect.success, Success::Major);
    assert_eq!(rep.effect.potential, 3);
    let c = &rep.companies[0];
    assert_eq!((c.killed, c.wounded, c.leader_fell), (1, 1, true));
    assert_eq!(
        c.test,
        Some((3, Confidence::Pass, ConfidenceLevel::Confident))
    );
    assert_eq!(c.new_lv, Some(Leadership::ONE));
    let target = b.company(r).unwrap();
    assert_eq!((target.fit(), target.dead(), target.wounded()), (6, 1, 1));
    assert_eq!(target.lv(), Leadership::ONE);
    let firer = b.company(a).unwrap();
    // HT-FIR-20: every figure that fired carries a Reload marker (the second fire below is refused).
    assert!(firer.needs_reload());
    assert_eq!(firer.actions_left(), 1);
    assert!(rep.to_string().contains("killed"));
    // Every figure now carries a Reload marker: no figure can fire.
    let again = b.fire(
        a,
        r,
        FireFacts {
            distance: 6.0,
            ..FireFacts::default()
        },
        &mut ScriptedDice::faces([1]),
    );
    assert!(matches!(again, Err(RuleViolation::CannotFire { .. })));
    // HT-SEQ-07: a Reload clears them.
    b.reload(a).unwrap();
    assert!(!b.company(a).unwrap().needs_reload());
}

// HT-MOR-02: a minor result brings the fired-on test only (TL 0 at Medium, T = 2): a roll of 2 loses one
// level; no casualties are rolled.
#[test]
fn minor_result_tests_only() {
    let (mut b, a, r) = two(
        Options::default(),
        (8, Formation::Line),
        (8, Formation::Skirmish),
    );
    let mut dice = ScriptedDice::faces([4, 7, 2, 2]);
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
    assert_eq!(rep.effect.success, Success::Minor);
    assert_eq!(
        rep.companies[0].test,
        Some((0, Confidence::LoseOne, ConfidenceLevel::Steady))
    );
    assert_eq!(b.company(r).unwrap().confidence(), ConfidenceLevel::Steady);
}

// HT-ACC-15, HT-ACC-16, HT-FIR-23: fire through 4 enemy skirmishers at an 8-figure line: 12 figures share
// the hits on a D12 and both companies test; In Position skirmishers take no hits and no test.
#[test]
fn firing_through_skirmishers() {
    let mut b = acw_hardtack::Battle::new(Options::default());
    let mut u = acw_hardtack::state::CompanySpec::new("Union", acw_core::Side::Union, 12);
    u.formation = Formation::Line;
    let a = b.add_company(u).unwrap();
    let mut l = acw_hardtack::state::CompanySpec::new("Line", acw_core::Side::Confederate, 8);
    l.formation = Formation::Line;
    let line = b.add_company(l).unwrap();
    let sk = b
        .add_company(acw_hardtack::state::CompanySpec::new(
            "Skirmishers",
            acw_core::Side::Confederate,
            4,
        ))
        .unwrap();
    b.activate(a).unwrap();
    // 12 muskets (D12 firepower) against the line at 12" (D6, -1 in line = D4). R 1, Q 8, FP 12: 20/4 = 5.
    // Hits on D12 allocation: 10 (skirmisher 2), 2, 3, 4, 5 (line) — each armour 1, impact 6 (killed).
    let mut dice = ScriptedDice::faces([
        1, 8, 12, 10, 1, 6, 2, 1, 6, 3, 1, 6, 4, 1, 6, 5, 1, 6, // fire and hits
        8, 8, // line's test, skirmishers' test
    ]);
    let facts = FireFacts {
        distance: 12.0,
        through: Some(sk),
        ..FireFacts::default()
    };
    let rep = b.fire(a, line, facts, &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert_eq!(rep.companies.len(), 2);
    assert_eq!(rep.companies[0].killed, 4);
    assert_eq!(rep.companies[1].killed, 1);
    assert!(rep.companies[1].test.is_some());

    // The same with the skirmishers In Position: only the line's 8 figures (D8 allocation); the skirmishers
    // take no test.
    let mut b2 = acw_hardtack::Battle::new(Options::default());
    let mut u = acw_hardtack::state::CompanySpec::new("Union", acw_core::Side::Union, 12);
    u.formation = Formation::Line;
    let a = b2.add_company(u).unwrap();
    let mut l = acw_hardtack::state::CompanySpec::new("Line", acw_core::Side::Confederate, 8);
    l.formation = Formation::Line;
    let line = b2.add_company(l).unwrap();
    let sk = b2
        .add_company(acw_hardtack::state::CompanySpec::new(
            "Skirmishers",
            acw_core::Side::Confederate,
            4,
        ))
        .unwrap();
    b2.activate(sk).unwrap();
    assert!(
        b2.go_in_position(sk, Cover::Soft, &mut ScriptedDice::faces([8]))
            .unwrap()
    );
    b2.end_activation().unwrap();
    b2.activate(a).unwrap();
    let mut dice = ScriptedDice::faces([1, 8, 12, 8, 1, 6, 2, 1, 6, 3, 1, 6, 4, 1, 6, 5, 1, 6, 8]);
    let rep = b2
        .fire(
            a,
            line,
            FireFacts {
                distance: 12.0,
                through: Some(sk),
                ..FireFacts::default()
            },
            &mut dice,
        )
        .unwrap();
    assert_eq!(dice.remaining(), 0);
    assert_eq!(rep.companies[0].killed, 5);
    assert_eq!(rep.companies[1].killed, 0);
    assert!(rep.companies[1].test.is_none());
}

// A fire whose dice run out is refused and changes nothing; so is fire at one's own side, a fire by a Routed
// company, and a bad distance.
#[test]
fn refusals_change_nothing() {
    let (mut b, a, r) = two(
        Options::default(),
        (8, Formation::Line),
        (8, Formation::Skirmish),
    );
    let before = b.clone();
    let err = b.fire(
        a,
        r,
        FireFacts {
            distance: 6.0,
            ..FireFacts::default()
        },
        &mut ScriptedDice::faces([2, 5]),
    );
    assert!(matches!(err, Err(RuleViolation::Dice(_))));
    assert_eq!(b, before);
    assert!(matches!(
        b.fire(a, a, FireFacts::default(), &mut ScriptedDice::faces([])),
        Err(RuleViolation::SameSide { .. })
    ));
    let bad = b.fire(
        a,
        r,
        FireFacts {
            distance: f64::NAN,
            ..FireFacts::default()
        },
        &mut ScriptedDice::faces([]),
    );
    assert!(matches!(bad, Err(RuleViolation::Setup(_))));
    assert!(bad.unwrap_err().to_string().contains("distance"));
    assert_eq!(b, before);
}

// HT-FIR-02: a Broken company fires only at a unit that fired on it.
#[test]
fn broken_fires_back_only() {
    let (mut b, a, r) = two(
        Options::default(),
        (8, Formation::Line),
        (8, Formation::Skirmish),
    );
    // A minor result and a test roll of 1 (T = 2: two levels) leaves the target Shaken; a second minor
    // result and a roll of 2 (one level) leaves it Broken.
    b.fire(
        a,
        r,
        FireFacts {
            distance: 6.0,
            ..FireFacts::default()
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
        FireFacts {
            distance: 6.0,
            ..FireFacts::default()
        },
        &mut ScriptedDice::faces([4, 7, 2, 2]),
    )
    .unwrap();
    assert_eq!(b.company(r).unwrap().confidence(), ConfidenceLevel::Broken);
    assert_eq!(b.company(r).unwrap().formation(), Formation::Skirmish);
    b.end_activation().unwrap();
    // A third company that never fired cannot be its target.
    let other = b
        .add_company(acw_hardtack::state::CompanySpec::new(
            "Bystanders",
            acw_core::Side::Union,
            6,
        ))
        .unwrap();
    b.activate(r).unwrap();
    let err = b.fire(
        r,
        other,
        FireFacts {
            distance: 6.0,
            ..FireFacts::default()
        },
        &mut ScriptedDice::faces([]),
    );
    assert!(matches!(err, Err(RuleViolation::CannotFire { .. })));
    assert!(
        b.fire(
            r,
            a,
            FireFacts {
                distance: 6.0,
                ..FireFacts::default()
            },
            &mut ScriptedDice::faces([4, 1, 1])
        )
        .is_ok()
    );
}

// HT-SG2-04, HT-SG2-03, HT-SEQ-02: two actions per activation, one activation per turn; a move may be
// doubled, a Reorganise may not; the action table's costs.
#[test]
fn activations() {
    let (mut b, a, r) = two(
        Options::default(),
        (8, Formation::Line),
        (8, Formation::Skirmish),
    );
    assert!(matches!(
        b.activate(r),
        Err(RuleViolation::OtherActivating { .. })
    ));
    b.reorganise(a, Formation::Column).unwrap();
    let twice = b.reorganise(a, Formation::Line).unwrap_err();
    assert!(twice.to_string().contains("only once"), "{twice}");
    let step = acw_hardtack::state::MoveOrder {
        distance: 3.0,
        ..Default::default()
    };
    b.move_company(a, step, &mut ScriptedDice::faces([]))
        .unwrap();
    assert!(matches!(
        b.move_company(a, step, &mut ScriptedDice::faces([])),
        Err(RuleViolation::NoActionLeft { .. })
    ));
    b.end_turn().unwrap();
    b.activate(a).unwrap();
    b.move_company(a, step, &mut ScriptedDice::faces([]))
        .unwrap();
    b.move_company(a, step, &mut ScriptedDice::faces([]))
        .unwrap();
    use acw_hardtack::state::Action;
    assert_eq!(Action::CloseAssault.cost(), 2);
    assert_eq!(Action::Reload.cost(), 1);
    assert!(Action::Move.may_repeat() && !Action::Rally.may_repeat());
    assert!(matches!(
        b.activate(a),
        Err(RuleViolation::AlreadyActivated { .. })
    ));
    b.activate(r).unwrap();
    b.end_turn().unwrap();
    b.activate(a).unwrap();
}

// HT-SG2-04: each weapon fires once an activation: breechloaders need no reload, but the same figures cannot
// fire twice until the company activates again.
#[test]
fn once_per_activation() {
    let mut b = acw_hardtack::Battle::new(Options::default());
    let mut spec = acw_hardtack::state::CompanySpec::new("Sharps men", acw_core::Side::Union, 6);
    spec.weapon = acw_hardtack::tables::Weapon {
        breechloader: true,
        ..acw_hardtack::tables::Weapon::of(acw_hardtack::tables::SmallArm::Carbine)
    };
    let a = b.add_company(spec).unwrap();
    let r = b
        .add_company(acw_hardtack::state::CompanySpec::new(
            "rebels",
            acw_core::Side::Confederate,
            8,
        ))
        .unwrap();
    b.activate(a).unwrap();
    let facts = FireFacts {
        distance: 6.0,
        ..FireFacts::default()
    };
    b.fire(a, r, facts, &mut ScriptedDice::faces([4, 1, 1]))
        .unwrap();
    assert!(!b.company(a).unwrap().needs_reload());
    assert!(matches!(
        b.fire(a, r, facts, &mut ScriptedDice::faces([4, 1, 1])),
        Err(RuleViolation::CannotFire { .. })
    ));
    b.end_turn().unwrap();
    b.activate(a).unwrap();
    assert!(
        b.fire(a, r, facts, &mut ScriptedDice::faces([4, 1, 1]))
            .is_ok()
    );
}

// HT-SG2-03: the side with fewer units chooses who goes first; a side may pass only while it has fewer
// unactivated units than the other.
#[test]
fn who_goes_first_and_passing() {
    let mut b = acw_hardtack::Battle::new(Options::default());
    let u = b
        .add_company(acw_hardtack::state::CompanySpec::new(
            "U1",
            acw_core::Side::Union,
            6,
        ))
        .unwrap();
    for name in ["C1", "C2"] {
        b.add_company(acw_hardtack::state::CompanySpec::new(
            name,
            acw_core::Side::Confederate,
            6,
        ))
        .unwrap();
    }
    assert_eq!(b.chooses_first(), Some(acw_core::Side::Union));
    assert!(b.may_pass(acw_core::Side::Union));
    assert!(!b.may_pass(acw_core::Side::Confederate));
    b.activate(u).unwrap();
    // Union 0 waiting, Confederates 2: now only the Union may pass.
    assert!(b.may_pass(acw_core::Side::Union));
    assert!(!b.may_pass(acw_core::Side::Confederate));
    b.end_activation().unwrap();
    let c1 = acw_hardtack::CompanyId(1);
    b.activate(c1).unwrap();
    b.end_activation().unwrap();
    let c2 = acw_hardtack::CompanyId(2);
    b.activate(c2).unwrap();
    assert!(!b.may_pass(acw_core::Side::Union));
}

// HT-FIR-11: the rules' reserved number for First Volley firepower is the first-volley step of the firer's
// dice, played only with the advanced rule: eight line muskets make an FP D8, raised to D10 — a firepower
// face of 10 (range 4, quality 1, FP 10, test 8) is a minor result. Without the rule the die stays a D8, so
// the same faces are refused as an impossible roll and the battle is unchanged.
#[test]
fn reserved_first_volley_number_plays_only_with_the_rule() {
    let facts = FireFacts {
        distance: 6.0,
        ..FireFacts::default()
    };
    let mut o = Options::default();
    o.first_volley = true;
    let (mut b, a, r) = two(o, (8, Formation::Line), (8, Formation::Skirmish));
    let rep = b
        .fire(a, r, facts, &mut ScriptedDice::faces([4, 1, 10, 8]))
        .unwrap();
    assert_eq!(rep.effect.success, Success::Minor);
    assert_eq!(rep.companies[0].test.unwrap().0, 0);

    let (mut b, a, r) = two(
        Options::default(),
        (8, Formation::Line),
        (8, Formation::Skirmish),
    );
    let before = b.clone();
    let err = b
        .fire(a, r, facts, &mut ScriptedDice::faces([4, 1, 10, 8]))
        .unwrap_err();
    assert!(matches!(err, RuleViolation::Dice(_)));
    assert_eq!(b, before);
}

// HT-INT-21: the firer's formation adds nothing to the target's threat level. A line (FP D8) and a
// skirmish company (FP D8 lowered to D6) each get a minor result (range 4, quality 5, FP 2) against the
// same skirmish target: both times it tests at TL 0 (fired on, Medium), a roll of 2 at LV 2 + 0 losing one
// level each time.
#[test]
fn firer_formation_does_not_change_the_tl() {
    let facts = FireFacts {
        distance: 6.0,
        ..FireFacts::default()
    };
    for firer in [Formation::Line, Formation::Skirmish] {
        let (mut b, a, r) = two(Options::default(), (8, firer), (8, Formation::Skirmish));
        let rep = b
            .fire(a, r, facts, &mut ScriptedDice::faces([4, 5, 2, 2]))
            .unwrap();
        assert_eq!(rep.effect.success, Success::Minor);
        assert_eq!(
            rep.companies[0].test,
            Some((0, Confidence::LoseOne, ConfidenceLevel::Steady)),
            "fired on by a company in {firer:?}"
        );
    }
    // The firer's formation does change its firepower die: a 7 is impossible on the skirmishers' D6.
    let (mut b, a, r) = two(
        Options::default(),
        (8, Formation::Skirmish),
        (8, Formation::Skirmish),
    );
    assert!(matches!(
        b.fire(a, r, facts, &mut ScriptedDice::faces([4, 5, 7, 2])),
        Err(RuleViolation::Dice(_))
    ));
}

// HT-ENV-02: no visibility limit beyond what the caller measures. A Regular fires at a skirmisher 39" away
// in the open (band 5: D12) and the fire is rolled (range 7, quality 3, FP 8: a minor result); a hidden
// company 100" away is observed against a D12 (the range shift stops there): target 1, quality 2, D4 1 — a
// minor result, revealed. Only a target within woods is refused.
#[test]
fn visibility_is_unlimited_in_daylight() {
    let (mut b, a, r) = two(
        Options::default(),
        (8, Formation::Line),
        (8, Formation::Skirmish),
    );
    let rep = b
        .fire(
            a,
            r,
            FireFacts {
                distance: 39.0,
                ..FireFacts::default()
            },
            &mut ScriptedDice::faces([7, 3, 8, 8]),
        )
        .unwrap();
    assert_eq!(rep.range, Some(D12));
    assert_eq!(rep.effect.success, Success::Minor);

    let mut b = acw_hardtack::Battle::new(Options::default());
    let u = b
        .add_company(acw_hardtack::state::CompanySpec::new(
            "Union scouts",
            acw_core::Side::Union,
            6,
        ))
        .unwrap();
    let mut spec =
        acw_hardtack::state::CompanySpec::new("hidden rebels", acw_core::Side::Confederate, 8);
    spec.hidden = true;
    let h = b.add_company(spec).unwrap();
    b.activate(u).unwrap();
    let seen = b
        .observe(
            u,
            h,
            100.0,
            Cover::Open,
            &mut ScriptedDice::faces([1, 2, 1]),
        )
        .unwrap();
    assert_eq!(seen, Success::Minor);
    assert!(!b.company(h).unwrap().hidden());
    assert!(matches!(
        b.fire(
            u,
            h,
            FireFacts {
                distance: 6.0,
                within_woods: true,
                ..FireFacts::default()
            },
            &mut ScriptedDice::faces([]),
        ),
        Err(RuleViolation::CannotFire { .. })
    ));
}

// HT-FIR-23, HT-FIR-19, HT-CAS-07: small-arms fire through skirmishers plays as the exact `ScreenedVolley`
// says. Twelve Union muskets in line fire at a Confederate line company of eight 12" away through four
// skirmishers in breastplates (D6 armour) not In Position. Over 300 seeds the procedure, built from the
// battle's own fire roll and fed the faces the battle drew (up to the companies' tests), gives the battle's
// fire result and the casualties of each company; both companies take casualties in some seeds.
#[test]
fn fire_through_skirmishers_plays_as_the_exact_procedure() {
    use acw_core::Resolve;
    use acw_core::dice::{Ask, Scripted, TableDice};
    use acw_hardtack::fire::{Impact, ScreenedVolley, Volley};
    use acw_hardtack::state::{CompanySpec, FireRoll};
    use acw_hardtack::tables::Armour;
    let (mut line_hit, mut screen_hit) = (0, 0);
    for seed in 0..300u64 {
        let mut b = acw_hardtack::Battle::new(Options::default());
        let mut u = CompanySpec::new("20th Maine, Company A", acw_core::Side::Union, 12);
        u.formation = Formation::Line;
        let a = b.add_company(u).unwrap();
        let mut l = CompanySpec::new("15th Alabama, Company B", acw_core::Side::Confederate, 8);
        l.formation = Formation::Line;
        let line = b.add_company(l).unwrap();
        let mut s = CompanySpec::new("15th Alabama, Company G", acw_core::Side::Confederate, 4);
        s.armour = Armour::Breastplate;
        let sk = b.add_company(s).unwrap();
        b.activate(a).unwrap();
        let mut rng = acw_core::GameRng::seed(seed);
        let mut faces = Vec::new();
        let rep = {
            let mut dice = TableDice::new(|ask| match ask {
                Ask::Face(die) => {
                    let face = acw_core::Dice::face(&mut rng, die);
                    faces.push(face);
                    Some(Scripted::Face(face))
                }
                _ => None,
            });
            let facts = FireFacts {
                distance: 12.0,
                through: Some(sk),
                ..FireFacts::default()
            };
            b.fire(a, line, facts, &mut dice).unwrap()
        };
        let Some(FireRoll::Dice(fire)) = rep.roll else {
            panic!("seed {seed}: {rep}");
        };
        let v = ScreenedVolley {
            volley: Volley {
                fire,
                impact: Impact {
                    impact: CompanySpec::new("x", acw_core::Side::Union, 1)
                        .weapon
                        .arm
                        .impact(),
                    armour: D4,
                    armour_shift: 0,
                    kill: Options::default().kill_threshold,
                },
                pool: 8,
            },
            screen_armour: D6,
            screen: 4,
        };
        let mut dice = ScriptedDice::faces(faces.clone());
        let out = v.roll(&mut dice);
        assert!(dice.remaining() < faces.len(), "seed {seed}");
        assert_eq!(out.target.effect, rep.effect, "seed {seed}");
        assert_eq!(
            (
                u32::from(out.target.killed),
                u32::from(out.target.wounded),
                u32::from(out.screen.killed),
                u32::from(out.screen.wounded)
            ),
            (
                rep.companies[0].killed,
                rep.companies[0].wounded,
                rep.companies[1].killed,
                rep.companies[1].wounded
            ),
            "seed {seed}"
        );
        line_hit += usize::from(out.target.casualties() > 0);
        screen_hit += usize::from(out.screen.casualties() > 0);
    }
    assert!(line_hit > 0 && screen_hit > 0, "{line_hit} {screen_hit}");
}
