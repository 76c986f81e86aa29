//! The combat toss and its modifiers; musketry and artillery (NORTH-CBT-*, NORTH-FIR-*, NORTH-ART-01 to
//! NORTH-ART-04, NORTH-ART-09 and their options).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::measure::{Heading, Inches, Point};
use acw_core::table::Footprint;
use acw_core::{Resolve, Side};
use acw_north::combat::{
    AttackGroup, Category, CombatSituation, CombatToss, Screen, Sight, TargetFacts, group_penalty,
    in_artillery_arc, in_fire_arc, is_long_range,
};
use acw_north::error::AttackRefusal;
use acw_north::melee::ChargeOrder;
use acw_north::morale::MoraleResponse;
use acw_north::movement::{MoveDirection, MoveOrder};
use acw_north::options::{
    CavalryAttackModifier, CavalryAttackScope, DismountedCavalryRange, GroupModifierPolicy,
    MountedTargetUnderFire, SkirmishScreen,
};
use acw_north::sequence::Step;
use acw_north::setup::UnitSpec;
use acw_north::tables::{Firer, Formation, Quality, hit_sixths, musketry_range};
use acw_north::{Battle, Options, RuleViolation, UnitId};
use common::*;

fn open(deployed: bool) -> TargetFacts {
    TargetFacts {
        deployed,
        ..TargetFacts::default()
    }
}

fn sit(category: Category, attackers: u8, target: TargetFacts) -> CombatSituation {
    CombatSituation {
        category,
        attackers,
        target,
        ..CombatSituation::default()
    }
}

fn phit(s: &CombatSituation, o: &Options) -> f64 {
    s.toss(o).odds().p(&true)
}

fn inf() -> UnitSpec {
    UnitSpec::infantry("x", Quality::Standard)
}
fn cav() -> UnitSpec {
    UnitSpec::cavalry("x", Quality::Standard)
}
fn gun() -> UnitSpec {
    UnitSpec::artillery("x", Quality::Standard)
}

fn one(category: Category, target: UnitId, a: UnitId) -> AttackGroup {
    AttackGroup {
        category,
        target,
        attackers: vec![a],
    }
}

fn try_fire(
    b: &mut Battle,
    g: &AttackGroup,
    sight: Sight,
) -> Result<acw_north::combat::AttackReport, RuleViolation> {
    b.attack(
        g,
        &vec![sight; g.attackers.len()],
        false,
        &MoraleResponse::default(),
        &mut dice([1, 1]),
    )
}

#[test]
fn north_cbt_01_who_attacks_in_each_category() {
    // NORTH-CBT-01: guns fire in the artillery category only; foot and horse in musketry; melee needs contact.
    let mut b = duel(
        inf(),
        inf(),
        gun(),
        inf().in_formation(Formation::Column),
        Options::default(),
    );
    let (c1, c2, u1) = (id(&b, "C1"), id(&b, "C2"), id(&b, "U1"));
    skip_to(&mut b, Step::Artillery).unwrap();
    assert!(matches!(
        try_fire(
            &mut b,
            &one(Category::Artillery, u1, c2),
            Sight::clear(Inches(5.0))
        ),
        Err(RuleViolation::CannotAttack {
            reason: AttackRefusal::WrongCategory,
            ..
        })
    ));
    skip_to(&mut b, Step::Musketry).unwrap();
    assert!(matches!(
        try_fire(
            &mut b,
            &one(Category::Musketry, u1, c1),
            Sight::clear(Inches(5.0))
        ),
        Err(RuleViolation::CannotAttack {
            reason: AttackRefusal::WrongCategory,
            ..
        })
    ));
    assert!(matches!(
        try_fire(
            &mut b,
            &one(Category::Musketry, u1, c2),
            Sight::clear(Inches(5.0))
        ),
        Err(RuleViolation::CannotAttack {
            reason: AttackRefusal::NotDeployed,
            ..
        })
    ));
    skip_to(&mut b, Step::Melee).unwrap();
    assert!(matches!(
        try_fire(&mut b, &one(Category::Melee, u1, c2), Sight::contact()),
        Err(RuleViolation::CannotAttack {
            reason: AttackRefusal::NotInContactWithTarget,
            ..
        })
    ));
    // Own units are no targets.
    assert_eq!(
        try_fire(&mut b, &one(Category::Melee, c1, c2), Sight::contact()).unwrap_err(),
        RuleViolation::BadTarget(c1)
    );
}

#[test]
fn north_cbt_02_hit_on_five_plus_after_modifiers() {
    // NORTH-CBT-02
    let t = CombatToss {
        modifier: 0,
        automatic: false,
    };
    assert!(t.hits(5) && !t.hits(4));
    let t = CombatToss {
        modifier: -1,
        automatic: false,
    };
    assert!(t.hits(6) && !t.hits(5));
    for m in -3..=5 {
        let t = CombatToss {
            modifier: m,
            automatic: false,
        };
        p(
            "clamp",
            t.odds().p(&true),
            f64::from((2 + m).clamp(0, 6)) / 6.0,
        );
    }
}

#[test]
fn north_cbt_03_the_reconstructed_table_fits_both_notes() {
    // NORTH-CBT-03: the cavalry note (a covered target hit only on 6 in the first round of melee) and the
    // artillery note (a long-range covered target only by combined batteries).
    let o = Options::default();
    let covered = TargetFacts {
        behind_cover: true,
        deployed: true,
        ..TargetFacts::default()
    };
    let cav_first = CombatSituation {
        mounted_cavalry_attackers: 1,
        first_round: true,
        ..sit(Category::Melee, 1, covered)
    };
    assert_eq!(cav_first.modifiers(&o).net(), -1);
    p(
        "cavalry vs cover, first round",
        phit(&cav_first, &o),
        1.0 / 6.0,
    );
    p(
        "cavalry vs cover, later",
        phit(
            &CombatSituation {
                first_round: false,
                ..cav_first
            },
            &o,
        ),
        0.0,
    );
    for (k, want) in [(1u8, 0.0), (2, 1.0), (3, 2.0)] {
        let s = CombatSituation {
            long_range_batteries: k,
            ..sit(Category::Artillery, k, covered)
        };
        p("batteries at 30 in cover", phit(&s, &o), want / 6.0);
    }
}

#[test]
fn north_cbt_04_artillery_beyond_24_inches() {
    // NORTH-CBT-04: strictly more than 24".
    assert!(!is_long_range(Inches(24.0)));
    assert!(is_long_range(Inches(24.5)));
    let mut b = battle();
    let gun = id(&b, "CSA 1st Bde, Battery");
    let t = id(&b, "USA 1st Bde, Regt 1");
    skip_to(&mut b, Step::Artillery).unwrap();
    let s = b
        .combat_situation(
            &one(Category::Artillery, t, gun),
            &[Sight::clear(Inches(24.0))],
            false,
        )
        .unwrap();
    assert_eq!(s.modifiers(b.options()).long_range, 0);
    p("exactly 24", phit(&s, b.options()), 2.0 / 6.0);
    let s = b
        .combat_situation(
            &one(Category::Artillery, t, gun),
            &[Sight::clear(Inches(30.0))],
            false,
        )
        .unwrap();
    assert_eq!(s.modifiers(b.options()).long_range, -1);
}

#[test]
fn north_cbt_05_cover_and_north_opt_28() {
    // NORTH-CBT-05: -1 in all categories; skirmishers count as covered against fire only; both give -1,
    // or -2 under NORTH-OPT-28.
    let o = Options::default();
    let covered = TargetFacts {
        behind_cover: true,
        deployed: true,
        ..TargetFacts::default()
    };
    for c in [Category::Artillery, Category::Musketry, Category::Melee] {
        assert_eq!(sit(c, 1, covered).modifiers(&o).cover, -1);
    }
    let sk = TargetFacts {
        skirmishers: true,
        deployed: true,
        ..TargetFacts::default()
    };
    assert_eq!(sit(Category::Musketry, 1, sk).modifiers(&o).cover, -1);
    assert_eq!(sit(Category::Melee, 1, sk).modifiers(&o).cover, 0);
    let both = TargetFacts {
        behind_cover: true,
        ..sk
    };
    assert_eq!(sit(Category::Musketry, 1, both).modifiers(&o).cover, -1);
    let mut stack = Options::default();
    stack.skirmisher_cover_stacks = true;
    assert_eq!(sit(Category::Musketry, 1, both).modifiers(&stack).cover, -2);
    assert_eq!(sit(Category::Melee, 1, both).modifiers(&stack).cover, -1);
}

#[test]
fn north_cbt_06_mounted_cavalry_attacking_and_north_opt_01_02() {
    // NORTH-CBT-06 / NORTH-OPT-01 / NORTH-OPT-02
    let o = Options::default();
    let first = |t| CombatSituation {
        mounted_cavalry_attackers: 1,
        first_round: true,
        ..sit(Category::Melee, 1, t)
    };
    p(
        "reading C, open, first round",
        phit(&first(open(true)), &o),
        2.0 / 6.0,
    );
    let musket = CombatSituation {
        mounted_cavalry_attackers: 1,
        ..sit(Category::Musketry, 1, open(true))
    };
    assert_eq!(musket.modifiers(&o).mounted_attacker, -1);
    let mut a = Options::default();
    a.cavalry_attack_modifier = CavalryAttackModifier::CoverOnly;
    p(
        "reading A, open, first round",
        phit(&first(open(true)), &a),
        3.0 / 6.0,
    );
    let covered = TargetFacts {
        behind_cover: true,
        deployed: true,
        ..TargetFacts::default()
    };
    p(
        "reading A, cover, first round",
        phit(&first(covered), &a),
        1.0 / 6.0,
    );
    let mut melee_only = Options::default();
    melee_only.cavalry_attack_scope = CavalryAttackScope::MeleeOnly;
    assert_eq!(musket.modifiers(&melee_only).mounted_attacker, 0);
    assert_eq!(
        first(open(true)).modifiers(&melee_only).mounted_attacker,
        -1
    );
    // Dismounted cavalry are not "mounted cavalry": the state gives no penalty.
    let mut b = duel(inf(), inf(), cav().dismounted(), cav(), Options::default());
    let (c1, c2, u1) = (id(&b, "C1"), id(&b, "C2"), id(&b, "U1"));
    skip_to(&mut b, Step::Musketry).unwrap();
    let s = b
        .combat_situation(
            &one(Category::Musketry, u1, c1),
            &[Sight::clear(Inches(10.0))],
            false,
        )
        .unwrap();
    assert_eq!(s.mounted_cavalry_attackers, 0);
    let s = b
        .combat_situation(
            &one(Category::Musketry, u1, c2),
            &[Sight::clear(Inches(10.0))],
            false,
        )
        .unwrap();
    assert_eq!(s.modifiers(b.options()).mounted_attacker, -1);
}

#[test]
fn north_cbt_07_first_round_of_melee() {
    // NORTH-CBT-07: +1 in melee only.
    let o = Options::default();
    let s = CombatSituation {
        first_round: true,
        ..sit(Category::Melee, 1, open(true))
    };
    assert_eq!(s.modifiers(&o).first_round, 1);
    let s = CombatSituation {
        first_round: true,
        ..sit(Category::Musketry, 1, open(true))
    };
    assert_eq!(s.modifiers(&o).first_round, 0);
    // Infantry charging a column in the open: first round 4/6, later 3/6.
    let col = CombatSituation {
        first_round: true,
        ..sit(Category::Melee, 1, open(false))
    };
    p("first round vs column", phit(&col, &o), 4.0 / 6.0);
    p(
        "later vs column",
        phit(
            &CombatSituation {
                first_round: false,
                ..col
            },
            &o,
        ),
        3.0 / 6.0,
    );
}

#[test]
fn north_cbt_08_target_not_deployed() {
    // NORTH-CBT-08: column, limbered, or a crew away from its gun: +1 in every category.
    let o = Options::default();
    for c in [Category::Artillery, Category::Musketry, Category::Melee] {
        assert_eq!(sit(c, 1, open(false)).modifiers(&o).not_deployed, 1);
        assert_eq!(sit(c, 1, open(true)).modifiers(&o).not_deployed, 0);
    }
    let mut b = duel(
        gun().in_formation(Formation::Limbered),
        inf().in_formation(Formation::Skirmish),
        gun(),
        inf(),
        Options::default(),
    );
    let (c1, u1, u2) = (id(&b, "C1"), id(&b, "U1"), id(&b, "U2"));
    skip_to(&mut b, Step::Artillery).unwrap();
    let s = b
        .combat_situation(
            &one(Category::Artillery, u1, c1),
            &[Sight::clear(Inches(10.0))],
            false,
        )
        .unwrap();
    assert!(!s.target.deployed);
    let s = b
        .combat_situation(
            &one(Category::Artillery, u2, c1),
            &[Sight::clear(Inches(10.0))],
            false,
        )
        .unwrap();
    assert!(s.target.deployed && s.target.skirmishers);
}

#[test]
fn north_cbt_09_mounted_cavalry_under_fire_and_north_opt_03() {
    // NORTH-CBT-09: +1 under fire, added to not deployed; not in melee. NORTH-OPT-03 turns it to -1.
    let o = Options::default();
    let line = TargetFacts {
        mounted_cavalry: true,
        deployed: true,
        ..TargetFacts::default()
    };
    let column = TargetFacts {
        deployed: false,
        ..line
    };
    p(
        "infantry at mounted cavalry in column",
        phit(&sit(Category::Musketry, 1, column), &o),
        4.0 / 6.0,
    );
    p(
        "infantry at mounted cavalry in line",
        phit(&sit(Category::Musketry, 1, line), &o),
        3.0 / 6.0,
    );
    assert_eq!(
        sit(Category::Artillery, 1, line)
            .modifiers(&o)
            .mounted_target,
        1
    );
    assert_eq!(
        sit(Category::Melee, 1, line).modifiers(&o).mounted_target,
        0
    );
    let mut d = Options::default();
    d.mounted_target_under_fire = MountedTargetUnderFire::Minus1;
    assert_eq!(
        sit(Category::Musketry, 1, line)
            .modifiers(&d)
            .mounted_target,
        -1
    );
}

#[test]
fn north_cbt_10_each_additional_attacker() {
    // NORTH-CBT-10: +1 per attacker after the first; five units always hit.
    let o = Options::default();
    p(
        "one",
        phit(&sit(Category::Musketry, 1, open(true)), &o),
        2.0 / 6.0,
    );
    p(
        "three",
        phit(&sit(Category::Musketry, 3, open(true)), &o),
        4.0 / 6.0,
    );
    p(
        "five",
        phit(&sit(Category::Musketry, 5, open(true)), &o),
        1.0,
    );
    assert_eq!(
        sit(Category::Melee, 4, open(true))
            .modifiers(&o)
            .extra_attackers,
        3
    );
}

#[test]
fn north_cbt_11_hit_probability_table() {
    // NORTH-CBT-11
    let table = [
        (-3, 0),
        (-2, 0),
        (-1, 1),
        (0, 2),
        (1, 3),
        (2, 4),
        (3, 5),
        (4, 6),
        (7, 6),
    ];
    for (m, sixths) in table {
        assert_eq!(hit_sixths(m), sixths);
        assert_eq!(
            CombatToss {
                modifier: m,
                automatic: false
            }
            .sixths(),
            sixths
        );
    }
    // Extreme modifiers saturate rather than overflow.
    assert_eq!(hit_sixths(i16::MAX), 6);
    assert!(
        CombatToss {
            modifier: i16::MAX,
            automatic: false
        }
        .hits(1)
    );
    assert!(
        !CombatToss {
            modifier: i16::MIN,
            automatic: false
        }
        .hits(6)
    );
    // No automatic hit on a 6 at -2; no automatic miss on a 1 at +4.
    assert!(
        !CombatToss {
            modifier: -2,
            automatic: false
        }
        .hits(6)
    );
    assert!(
        CombatToss {
            modifier: 4,
            automatic: false
        }
        .hits(1)
    );
}

#[test]
fn north_cbt_12_mixed_groups_and_north_opt_04() {
    // NORTH-CBT-12 / NORTH-OPT-04: the first long-range battery nets 0, each further one +1.
    assert_eq!(group_penalty(1, 3, -1, GroupModifierPolicy::Any), -1);
    assert_eq!(group_penalty(0, 3, -1, GroupModifierPolicy::Any), 0);
    assert_eq!(group_penalty(2, 3, -1, GroupModifierPolicy::All), 0);
    assert_eq!(group_penalty(3, 3, -1, GroupModifierPolicy::All), -1);
    assert_eq!(group_penalty(2, 3, -1, GroupModifierPolicy::PerUnit), -2);
    let covered = TargetFacts {
        behind_cover: true,
        deployed: true,
        ..TargetFacts::default()
    };
    let mixed = CombatSituation {
        long_range_batteries: 1,
        ..sit(Category::Artillery, 2, covered)
    };
    let o = Options::default();
    assert_eq!(mixed.modifiers(&o).net(), -1);
    let mut all = Options::default();
    all.group_modifier_policy = GroupModifierPolicy::All;
    assert_eq!(mixed.modifiers(&all).net(), 0);
    // PerUnit: k long-range batteries on cover never hit.
    let mut per = Options::default();
    per.group_modifier_policy = GroupModifierPolicy::PerUnit;
    for k in 1..=5u8 {
        let s = CombatSituation {
            long_range_batteries: k,
            ..sit(Category::Artillery, k, covered)
        };
        assert_eq!(s.modifiers(&per).net(), -2);
    }
}

#[test]
fn north_cbt_13_modifiers_simply_add() {
    // NORTH-CBT-13: the sum with no cap.
    let o = Options::default();
    let s = CombatSituation {
        first_round: true,
        ..sit(
            Category::Melee,
            6,
            TargetFacts {
                deployed: false,
                ..TargetFacts::default()
            },
        )
    };
    let m = s.modifiers(&o);
    assert_eq!(m.net(), 1 + 1 + 5);
    assert_eq!(m.net(), m.first_round + m.not_deployed + m.extra_attackers);
    p("certain", phit(&s, &o), 1.0);
}

#[test]
fn north_fir_01_who_fires_musketry_and_north_opt_31() {
    // NORTH-FIR-01: deployed, not in contact, in range, in sight, in the front arc.
    let mut b = duel(inf(), inf(), inf(), inf(), Options::default());
    let (c1, c2, u1, u2) = (id(&b, "C1"), id(&b, "C2"), id(&b, "U1"), id(&b, "U2"));
    skip_to(&mut b, Step::Units).unwrap();
    b.attempt_charge(
        c2,
        u2,
        ChargeOrder {
            distance: Inches(2.0),
            ..ChargeOrder::default()
        },
        &mut dice([1]),
    )
    .unwrap();
    skip_to(&mut b, Step::Musketry).unwrap();
    let out_of_arc = Sight {
        in_arc: false,
        ..Sight::clear(Inches(10.0))
    };
    assert!(matches!(
        try_fire(&mut b, &one(Category::Musketry, u1, c1), out_of_arc),
        Err(RuleViolation::CannotAttack {
            reason: AttackRefusal::OutOfArc,
            ..
        })
    ));
    assert!(matches!(
        try_fire(
            &mut b,
            &one(Category::Musketry, u1, c2),
            Sight::clear(Inches(10.0))
        ),
        Err(RuleViolation::CannotAttack {
            reason: AttackRefusal::InContact,
            ..
        })
    ));
    assert!(
        try_fire(
            &mut b,
            &one(Category::Musketry, u1, c1),
            Sight::clear(Inches(10.0))
        )
        .is_ok()
    );
    // The arc: lines 45 degrees outward from the ends of the front edge, by default. A 4" line at the origin
    // facing north has its front edge from x = -2 to 2 at y = 0.25; at depth y the arc reaches x = 1.75 + y.
    // A 4" x 0.5" target centred at y = 10.5 spans y 10.25..10.75: the arc there reaches 12.0..12.5.
    let o = Options::default();
    let line = |x: f64, y: f64, h: Heading| {
        Footprint::new(Point::new(x, y), h, Inches(4.0), Inches(0.5)).unwrap()
    };
    let firer = line(0.0, 0.0, Heading::NORTH);
    assert!(in_fire_arc(&firer, &line(13.5, 10.5, Heading::SOUTH), &o)); // nearest corner x 11.5: inside
    assert!(!in_fire_arc(&firer, &line(15.0, 10.5, Heading::SOUTH), &o)); // nearest corner x 13.0: outside
    assert!(!in_fire_arc(&firer, &line(0.0, -10.0, Heading::NORTH), &o)); // behind
    let mut narrow = Options::default();
    narrow.fire_arc_degrees = 30.0;
    assert!(!in_fire_arc(
        &firer,
        &line(13.5, 10.5, Heading::SOUTH),
        &narrow
    ));
    narrow.fire_arc_degrees = 200.0;
    assert!(narrow.validate().is_err());
}

#[test]
fn north_fir_02_ranges_and_north_opt_07() {
    // NORTH-FIR-02 (NORTH-OPT-07 gives dismounted cavalry carbine range)
    let o = Options::default();
    assert_eq!(musketry_range(Firer::Infantry, &o), Inches(18.0));
    assert_eq!(musketry_range(Firer::MountedCavalry, &o), Inches(12.0));
    assert_eq!(musketry_range(Firer::DismountedCavalry, &o), Inches(18.0));
    let mut carb = Options::default();
    carb.dismounted_cavalry_range = DismountedCavalryRange::Carbine12;
    assert_eq!(
        musketry_range(Firer::DismountedCavalry, &carb),
        Inches(12.0)
    );
    let mut b = duel(inf(), inf(), inf(), cav(), Options::default());
    let (c1, c2, u1, u2) = (id(&b, "C1"), id(&b, "C2"), id(&b, "U1"), id(&b, "U2"));
    skip_to(&mut b, Step::Musketry).unwrap();
    assert!(matches!(
        try_fire(
            &mut b,
            &one(Category::Musketry, u1, c2),
            Sight::clear(Inches(12.5))
        ),
        Err(RuleViolation::CannotAttack {
            reason: AttackRefusal::OutOfRange,
            ..
        })
    ));
    assert!(
        try_fire(
            &mut b,
            &one(Category::Musketry, u1, c1),
            Sight::clear(Inches(18.0))
        )
        .is_ok()
    );
    assert!(
        try_fire(
            &mut b,
            &one(Category::Musketry, u2, c2),
            Sight::clear(Inches(12.0))
        )
        .is_ok()
    );
}

#[test]
fn north_fir_03_musketry_modifiers() {
    // NORTH-FIR-03: no first-round bonus or range penalty in musketry.
    let o = Options::default();
    let s = CombatSituation {
        long_range_batteries: 1,
        first_round: true,
        ..sit(Category::Musketry, 2, open(false))
    };
    let m = s.modifiers(&o);
    assert_eq!(
        (
            m.long_range,
            m.first_round,
            m.not_deployed,
            m.extra_attackers
        ),
        (0, 0, 1, 1)
    );
    p("two units at a column", phit(&s, &o), 4.0 / 6.0);
}

#[test]
fn north_fir_04_skirmishers_crossing_before_firing() {
    // NORTH-FIR-04: skirmishers that crossed rough ground (or an obstacle) and fire: -1.
    let sk = || inf().in_formation(Formation::Skirmish);
    let mut b = duel(inf(), inf(), sk(), sk(), Options::default());
    let (c1, c2, u1, u2) = (id(&b, "C1"), id(&b, "C2"), id(&b, "U1"), id(&b, "U2"));
    skip_to(&mut b, Step::Units).unwrap();
    let mv = |rough| MoveOrder {
        distance: Inches(5.0),
        direction: Some(MoveDirection::TowardEnemy),
        intent: acw_north::tables::FireIntent::Fire,
        crosses_rough: rough,
        ..MoveOrder::default()
    };
    b.move_unit(c1, &mv(true), &mut dice([])).unwrap();
    b.move_unit(c2, &mv(false), &mut dice([])).unwrap();
    skip_to(&mut b, Step::Musketry).unwrap();
    let s = b
        .combat_situation(
            &one(Category::Musketry, u1, c1),
            &[Sight::clear(Inches(10.0))],
            false,
        )
        .unwrap();
    assert_eq!(s.modifiers(b.options()).skirmisher_crossing, -1);
    let s = b
        .combat_situation(
            &one(Category::Musketry, u2, c2),
            &[Sight::clear(Inches(10.0))],
            false,
        )
        .unwrap();
    assert_eq!(s.modifiers(b.options()).skirmisher_crossing, 0);
}

#[test]
fn north_fir_05_skirmishers_count_as_covered_against_fire() {
    // NORTH-FIR-05: one unit firing at skirmishers 1/6, two 2/6; no cover in melee.
    let o = Options::default();
    let sk = TargetFacts {
        skirmishers: true,
        deployed: true,
        ..TargetFacts::default()
    };
    p(
        "one at skirmishers",
        phit(&sit(Category::Musketry, 1, sk), &o),
        1.0 / 6.0,
    );
    p(
        "two at skirmishers",
        phit(&sit(Category::Musketry, 2, sk), &o),
        2.0 / 6.0,
    );
    p(
        "artillery at skirmishers",
        phit(&sit(Category::Artillery, 1, sk), &o),
        1.0 / 6.0,
    );
    assert_eq!(sit(Category::Melee, 1, sk).modifiers(&o).cover, 0);
}

#[test]
fn north_fir_06_skirmish_screens_and_north_opt_14() {
    // NORTH-FIR-06 / NORTH-OPT-14
    let run = |screen: SkirmishScreen, s: Screen| {
        let mut o = Options::default();
        o.skirmish_screen = screen;
        let mut b = duel(inf(), inf(), inf(), inf(), o);
        let (c1, u1) = (id(&b, "C1"), id(&b, "U1"));
        skip_to(&mut b, Step::Musketry).unwrap();
        b.combat_situation(
            &one(Category::Musketry, u1, c1),
            &[Sight {
                screen: s,
                ..Sight::clear(Inches(10.0))
            }],
            false,
        )
    };
    let screened = Err(RuleViolation::CannotAttack {
        unit: UnitId(2),
        category: Category::Musketry,
        reason: AttackRefusal::Screened,
    });
    assert_eq!(
        run(SkirmishScreen::BlockBothWays, Screen::EnemySkirmishers).map(|s| s.target),
        screened.clone()
    );
    assert_eq!(
        run(SkirmishScreen::BlockBothWays, Screen::FriendlySkirmishers).map(|s| s.target),
        screened.clone()
    );
    let cover = run(SkirmishScreen::AsCover, Screen::EnemySkirmishers).unwrap();
    assert!(cover.target.screened);
    let mut o = Options::default();
    o.skirmish_screen = SkirmishScreen::AsCover;
    assert_eq!(cover.modifiers(&o).cover, -1);
    assert!(run(SkirmishScreen::AsCover, Screen::FriendlySkirmishers).is_ok());
    assert_eq!(
        run(SkirmishScreen::MutualScreen, Screen::EnemySkirmishers).map(|s| s.target),
        screened
    );
    assert!(run(SkirmishScreen::MutualScreen, Screen::FriendlySkirmishers).is_ok());
    assert!(run(SkirmishScreen::BlockBothWays, Screen::Clear).is_ok());
}

#[test]
fn north_fir_07_line_of_sight_and_north_opt_38() {
    // NORTH-FIR-07: no sight, no fire; firing into a melee is allowed unless NORTH-OPT-38.
    let make = |o: Options| {
        let mut b = duel(inf(), inf(), inf(), inf(), o);
        let (c1, c2, u1) = (id(&b, "C1"), id(&b, "C2"), id(&b, "U1"));
        skip_to(&mut b, Step::Units).unwrap();
        b.attempt_charge(
            c2,
            u1,
            ChargeOrder {
                distance: Inches(2.0),
                ..ChargeOrder::default()
            },
            &mut dice([1]),
        )
        .unwrap();
        skip_to(&mut b, Step::Musketry).unwrap();
        (b, c1, u1)
    };
    let (mut b, c1, u1) = make(Options::default());
    let blind = Sight {
        line_of_sight: false,
        ..Sight::clear(Inches(10.0))
    };
    assert!(matches!(
        try_fire(&mut b, &one(Category::Musketry, u1, c1), blind),
        Err(RuleViolation::CannotAttack {
            reason: AttackRefusal::NoLineOfSight,
            ..
        })
    ));
    assert!(
        try_fire(
            &mut b,
            &one(Category::Musketry, u1, c1),
            Sight::clear(Inches(10.0))
        )
        .is_ok()
    );
    let mut o = Options::default();
    o.no_fire_into_melee = true;
    let (mut b, c1, u1) = make(o);
    assert!(matches!(
        try_fire(
            &mut b,
            &one(Category::Musketry, u1, c1),
            Sight::clear(Inches(10.0))
        ),
        Err(RuleViolation::CannotAttack {
            reason: AttackRefusal::TargetInMelee,
            ..
        })
    ));
}

#[test]
fn north_art_01_who_fires_artillery_and_north_opt_27() {
    // NORTH-ART-01: unlimbered, crewed, with its gun, not in contact, in sight and arc; no maximum range
    // unless NORTH-OPT-27 sets one.
    let mut b = duel(
        inf(),
        inf(),
        gun(),
        gun().in_formation(Formation::Limbered),
        Options::default(),
    );
    let (c1, c2, u1) = (id(&b, "C1"), id(&b, "C2"), id(&b, "U1"));
    skip_to(&mut b, Step::Artillery).unwrap();
    assert!(matches!(
        try_fire(
            &mut b,
            &one(Category::Artillery, u1, c2),
            Sight::clear(Inches(10.0))
        ),
        Err(RuleViolation::CannotAttack {
            reason: AttackRefusal::NotDeployed,
            ..
        })
    ));
    let no_arc = Sight {
        in_arc: false,
        ..Sight::clear(Inches(10.0))
    };
    assert!(matches!(
        try_fire(&mut b, &one(Category::Artillery, u1, c1), no_arc),
        Err(RuleViolation::CannotAttack {
            reason: AttackRefusal::OutOfArc,
            ..
        })
    ));
    assert!(
        try_fire(
            &mut b,
            &one(Category::Artillery, u1, c1),
            Sight::clear(Inches(120.0))
        )
        .is_ok()
    );
    let mut o = Options::default();
    o.artillery_max_range = Some(Inches(60.0));
    let mut b = duel(inf(), inf(), gun(), gun(), o);
    let (c1, u1) = (id(&b, "C1"), id(&b, "U1"));
    skip_to(&mut b, Step::Artillery).unwrap();
    assert!(matches!(
        try_fire(
            &mut b,
            &one(Category::Artillery, u1, c1),
            Sight::clear(Inches(61.0))
        ),
        Err(RuleViolation::CannotAttack {
            reason: AttackRefusal::OutOfRange,
            ..
        })
    ));
}

#[test]
fn north_art_02_artillery_modifiers() {
    // NORTH-ART-02: range, cover, not deployed, mounted target, extra batteries; no melee or cavalry rows.
    let o = Options::default();
    let s = CombatSituation {
        long_range_batteries: 2,
        mounted_cavalry_attackers: 1,
        first_round: true,
        ..sit(
            Category::Artillery,
            2,
            TargetFacts {
                mounted_cavalry: true,
                deployed: false,
                behind_cover: true,
                ..TargetFacts::default()
            },
        )
    };
    let m = s.modifiers(&o);
    assert_eq!(
        (
            m.long_range,
            m.cover,
            m.not_deployed,
            m.mounted_target,
            m.extra_attackers,
            m.mounted_attacker,
            m.first_round
        ),
        (-1, -1, 1, 1, 1, 0, 0)
    );
    p("net +1", phit(&s, &o), 3.0 / 6.0);
}

#[test]
fn north_art_03_batteries_combine() {
    // NORTH-ART-03: beyond 24" at cover, 1 battery cannot hit, 2 on a 6, 3 on 5-6, 4 on 4-6; in play too.
    let o = Options::default();
    let covered = TargetFacts {
        behind_cover: true,
        deployed: true,
        ..TargetFacts::default()
    };
    for (k, want) in [(1u8, 0.0), (2, 1.0), (3, 2.0), (4, 3.0)] {
        let s = CombatSituation {
            long_range_batteries: k,
            ..sit(Category::Artillery, k, covered)
        };
        p("combined batteries", phit(&s, &o), want / 6.0);
    }
    let mut b = battle();
    let guns: Vec<UnitId> = [
        "CSA 1st Bde, Battery",
        "CSA 2nd Bde, Battery",
        "CSA 3rd Bde, Battery",
    ]
    .iter()
    .map(|n| id(&b, n))
    .collect();
    let t = id(&b, "USA 1st Bde, Regt 1");
    skip_to(&mut b, Step::Artillery).unwrap();
    let g = AttackGroup {
        category: Category::Artillery,
        target: t,
        attackers: guns,
    };
    // 30" into cover: m = -1 (range) -1 (cover) +2 (two more batteries) = 0: a 5 hits.
    let r = b
        .attack(
            &g,
            &[Sight::clear(Inches(30.0)); 3],
            true,
            &MoraleResponse::default(),
            &mut dice([5, 1]),
        )
        .unwrap();
    assert_eq!((r.modifiers.net(), r.hit), (0, true));
}

#[test]
fn north_art_04_muzzle_arc_and_north_opt_31() {
    // NORTH-ART-04 / NORTH-OPT-31: a 1.5" x 2" battery at the origin; its front edge runs x -0.75..0.75 at
    // y = 1, so at depth y the arc reaches x = y - 0.25. A 1" square target at y 10.5..11.5 meets an arc
    // reaching 10.25..11.25.
    let o = Options::default();
    let gun = Footprint::new(
        Point::new(0.0, 0.0),
        Heading::NORTH,
        Inches(1.5),
        Inches(2.0),
    )
    .unwrap();
    let target = |x: f64| {
        Footprint::new(
            Point::new(x, 11.0),
            Heading::SOUTH,
            Inches(1.0),
            Inches(1.0),
        )
        .unwrap()
    };
    assert!(in_artillery_arc(&gun, &target(10.5), &o)); // near corner x 10.0
    assert!(!in_artillery_arc(&gun, &target(12.0), &o)); // near corner x 11.5
    let south = Footprint::new(
        Point::new(0.0, 0.0),
        Heading::SOUTH,
        Inches(1.5),
        Inches(2.0),
    )
    .unwrap();
    assert!(!in_artillery_arc(&south, &target(10.5), &o));
    let mut wide = Options::default();
    wide.artillery_arc_degrees = 60.0;
    assert!(in_artillery_arc(&gun, &target(12.0), &wide)); // 60°: the arc reaches 17.2 at y 10.5
}

#[test]
fn north_art_09_artillery_in_melee_and_north_opt_23() {
    // NORTH-ART-09: a contacted battery strikes back in its own melee step; not under NORTH-OPT-23.
    let make = |o: Options| {
        let mut b = duel(gun(), inf(), inf(), inf(), o);
        let (c1, u1) = (id(&b, "C1"), id(&b, "U1"));
        skip_to(&mut b, Step::Units).unwrap();
        b.attempt_charge(
            c1,
            u1,
            ChargeOrder {
                distance: Inches(2.0),
                ..ChargeOrder::default()
            },
            &mut dice([1]),
        )
        .unwrap();
        goto(&mut b, Side::Union, Step::Melee);
        (b, c1, u1)
    };
    let (mut b, c1, u1) = make(Options::default());
    let r = b
        .attack(
            &one(Category::Melee, c1, u1),
            &[Sight::contact()],
            false,
            &MoraleResponse::default(),
            &mut dice([5, 1]),
        )
        .unwrap();
    assert!(r.hit);
    let mut o = Options::default();
    o.artillery_no_melee_attack = true;
    let (mut b, c1, u1) = make(o);
    assert!(matches!(
        b.attack(
            &one(Category::Melee, c1, u1),
            &[Sight::contact()],
            false,
            &MoraleResponse::default(),
            &mut dice([5, 1])
        ),
        Err(RuleViolation::CannotAttack {
            reason: AttackRefusal::ArtilleryDoesNotMelee,
            ..
        })
    ));
}
