//! Morale, falling back, stand losses and removal (NORTH-MOR-*, NORTH-CAS-*, NORTH-OPT-08, NORTH-OPT-21,
//! NORTH-OPT-33, NORTH-OPT-34).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::measure::Inches;
use acw_core::{Arm, Resolve};
use acw_north::combat::Category;
use acw_north::morale::{
    Choice, ChoicePolicy, FallBackRoom, MoraleCheck, MoraleFacts, MoraleResponse, MoraleToss,
    RallyPolicy, morale_modifier,
};
use acw_north::movement::AccomplishmentToss;
use acw_north::options::BlockedFallBack;
use acw_north::setup::UnitSpec;
use acw_north::state::{GunState, UnitStatus};
use acw_north::tables::{
    Formation, MoraleBand, Quality, StandKind, losses_to_removal, morale_band,
};
use acw_north::{Battle, Options, RuleViolation, UnitId};
use common::*;

fn inf(q: Quality) -> UnitSpec {
    UnitSpec::infantry("x", q)
}

/// A battle whose Union first unit is `u1`.
fn with(u1: UnitSpec, o: Options) -> (Battle, UnitId) {
    let b = duel(
        u1,
        inf(Quality::Standard),
        inf(Quality::Standard),
        inf(Quality::Standard),
        o,
    );
    let u = id(&b, "U1");
    (b, u)
}

fn bands(m: i16) -> (f64, f64, f64) {
    let d = MoraleToss { modifier: m }.odds();
    (
        d.p(&MoraleBand::Rallies),
        d.p(&MoraleBand::Choice),
        d.p(&MoraleBand::Both),
    )
}

fn check_bands(what: &str, got: (f64, f64, f64), want: (f64, f64, f64)) {
    p(what, got.0, want.0);
    p(what, got.1, want.1);
    p(what, got.2, want.2);
}

fn fire(facts: MoraleFacts) -> MoraleFacts {
    MoraleFacts {
        source: Some(Category::Musketry),
        ..facts
    }
}

#[test]
fn north_mor_01_a_hit_forces_a_morale_check() {
    // NORTH-MOR-01: checked through the attack in the combat tests; here directly: a check resolves at once.
    let (mut b, u) = with(inf(Quality::Standard), Options::default());
    let r = b
        .resolve_morale(
            u,
            Category::Musketry,
            false,
            &MoraleResponse::default(),
            &mut dice([5]),
        )
        .unwrap();
    assert_eq!((r.face, r.outcome.band), (5, MoraleBand::Both));
    assert_eq!(b.unit(u).unwrap().current_stands(), 3);
    assert_eq!(b.unit(u).unwrap().formation(), Formation::Column);
}

#[test]
fn north_mor_02_morale_toss_bands() {
    // NORTH-MOR-02: 1-2 rallies, 3-4 choice, 5-6 both: 2/6 each with no modifier.
    check_bands("unmodified", bands(0), (2.0 / 6.0, 2.0 / 6.0, 2.0 / 6.0));
    assert_eq!(morale_band(2), MoraleBand::Rallies);
    assert_eq!(morale_band(3), MoraleBand::Choice);
    assert_eq!(morale_band(5), MoraleBand::Both);
}

#[test]
fn north_mor_03_morale_modifiers_and_north_opt_33() {
    // NORTH-MOR-03
    let o = Options::default();
    let art = MoraleFacts {
        artillery: true,
        ..MoraleFacts::default()
    };
    assert_eq!(morale_modifier(&fire(art), &o), -1);
    assert_eq!(
        morale_modifier(
            &MoraleFacts {
                source: Some(Category::Melee),
                ..art
            },
            &o
        ),
        1
    );
    let covered = MoraleFacts {
        behind_cover: true,
        ..MoraleFacts::default()
    };
    assert_eq!(morale_modifier(&fire(covered), &o), -1);
    assert_eq!(
        morale_modifier(
            &MoraleFacts {
                source: Some(Category::Melee),
                ..covered
            },
            &o
        ),
        0
    );
    let sk = MoraleFacts {
        skirmishers: true,
        ..MoraleFacts::default()
    };
    assert_eq!(morale_modifier(&fire(sk), &o), -1);
    assert_eq!(
        morale_modifier(
            &MoraleFacts {
                source: Some(Category::Melee),
                ..sk
            },
            &o
        ),
        2
    );
    let art_cover = MoraleFacts {
        artillery: true,
        behind_cover: true,
        source: Some(Category::Artillery),
        ..MoraleFacts::default()
    };
    assert_eq!(morale_modifier(&art_cover, &o), -2);
    // The facts' odds.
    check_bands(
        "artillery by fire",
        bands(-1),
        (3.0 / 6.0, 2.0 / 6.0, 1.0 / 6.0),
    );
    check_bands(
        "artillery in melee",
        bands(1),
        (1.0 / 6.0, 2.0 / 6.0, 3.0 / 6.0),
    );
    check_bands(
        "artillery in cover by fire",
        bands(-2),
        (4.0 / 6.0, 2.0 / 6.0, 0.0),
    );
    check_bands(
        "skirmishers after melee",
        bands(2),
        (0.0, 2.0 / 6.0, 4.0 / 6.0),
    );
    // NORTH-OPT-33: by source: infantry hit by artillery -1; artillery hit by musketry 0.
    let mut by_source = Options::default();
    by_source.artillery_morale_by_source = true;
    let infantry_shelled = MoraleFacts {
        source: Some(Category::Artillery),
        ..MoraleFacts::default()
    };
    assert_eq!(morale_modifier(&infantry_shelled, &by_source), -1);
    assert_eq!(morale_modifier(&infantry_shelled, &o), 0);
    assert_eq!(morale_modifier(&fire(art), &by_source), 0);
    assert_eq!(
        morale_modifier(
            &MoraleFacts {
                source: Some(Category::Melee),
                ..art
            },
            &by_source
        ),
        1
    );
    // From the state: a battery in the open hit by musketry.
    let (b, g) = with(
        UnitSpec::artillery("x", Quality::Standard),
        Options::default(),
    );
    let f = b.morale_facts(g, Category::Musketry, false).unwrap();
    assert_eq!(morale_modifier(&f, b.options()), -1);
}

#[test]
fn north_mor_04_a_rally_changes_nothing() {
    // NORTH-MOR-04
    let (mut b, u) = with(inf(Quality::Standard), Options::default());
    let before = b.clone();
    let e = morale_result(
        &mut b,
        u,
        MoraleBand::Rallies,
        None,
        FallBackRoom::Clear,
        true,
    )
    .unwrap();
    assert_eq!(e, Default::default());
    assert_eq!(b, before);
}

#[test]
fn north_mor_05_the_owner_chooses_on_three_or_four() {
    // NORTH-MOR-05
    let (mut b, u) = with(inf(Quality::Standard), Options::default());
    let before = b.clone();
    // A choice is taken only while a 3–4 waits for it: with no morale check open, it is refused.
    assert_eq!(
        b.choose(Choice::LoseStand, &mut dice([])),
        Err(RuleViolation::NoMoraleDecision)
    );
    assert_eq!(b, before);
    let e = morale_result(
        &mut b,
        u,
        MoraleBand::Choice,
        Some(Choice::LoseStand),
        FallBackRoom::Clear,
        true,
    )
    .unwrap();
    assert!(e.stand_lost.is_some() && e.fell_back.is_none());
    assert_eq!(
        (
            b.unit(u).unwrap().current_stands(),
            b.unit(u).unwrap().formation()
        ),
        (3, Formation::Line)
    );
    let e = morale_result(
        &mut b,
        u,
        MoraleBand::Choice,
        Some(Choice::FallBack),
        FallBackRoom::Clear,
        true,
    )
    .unwrap();
    assert!(e.stand_lost.is_none() && e.fell_back == Some(Inches(10.0)));
    assert_eq!(
        (
            b.unit(u).unwrap().current_stands(),
            b.unit(u).unwrap().formation()
        ),
        (3, Formation::Column)
    );
    // The bot policy: fall back when the loss would remove the unit.
    let policy = ChoicePolicy::default();
    assert_eq!(policy.choose(true), Choice::FallBack);
    assert_eq!(policy.choose(false), Choice::LoseStand);
    assert_eq!(
        ChoicePolicy::Always(Choice::LoseStand).choose(true),
        Choice::LoseStand
    );
    let r = b
        .resolve_morale(
            u,
            Category::Musketry,
            false,
            &MoraleResponse::default(),
            &mut dice([3]),
        )
        .unwrap();
    assert_eq!(r.choice, Some(Choice::FallBack));
    assert!(b.unit(u).unwrap().in_play());
}

#[test]
fn north_mor_06_five_or_six_loses_a_stand_and_falls_back() {
    // NORTH-MOR-06: the stand first; a removed unit does not fall back.
    let (mut b, u) = with(inf(Quality::Standard), Options::default());
    let e = morale_result(&mut b, u, MoraleBand::Both, None, FallBackRoom::Clear, true).unwrap();
    assert!(e.stand_lost.is_some() && e.fell_back.is_some() && !e.removed);
    let e = morale_result(&mut b, u, MoraleBand::Both, None, FallBackRoom::Clear, true).unwrap();
    assert!(e.removed && e.fell_back.is_none());
    assert_eq!(b.unit(u).unwrap().status(), UnitStatus::Removed);
    assert_eq!(
        morale_result(&mut b, u, MoraleBand::Both, None, FallBackRoom::Clear, true),
        Err(RuleViolation::NotInPlay(u))
    );
}

#[test]
fn north_mor_07_falling_back_and_reforming() {
    // NORTH-MOR-07: 10" (15" mounted cavalry), reform not deployed, the gun left behind.
    let o = Options::default;
    let fb = |spec: UnitSpec| {
        let (mut b, u) = with(spec, o());
        let e = morale_result(
            &mut b,
            u,
            MoraleBand::Choice,
            Some(Choice::FallBack),
            FallBackRoom::Clear,
            true,
        )
        .unwrap();
        let unit = b.unit(u).unwrap().clone();
        (e, unit)
    };
    let (e, u) = fb(inf(Quality::Standard).in_formation(Formation::Skirmish));
    assert_eq!(
        (e.fell_back, u.formation()),
        (Some(Inches(10.0)), Formation::Column)
    );
    let (e, u) = fb(UnitSpec::cavalry("x", Quality::Standard));
    assert_eq!(
        (e.fell_back, u.formation()),
        (Some(Inches(15.0)), Formation::Column)
    );
    let (e, u) = fb(UnitSpec::cavalry("x", Quality::Standard).dismounted());
    assert_eq!(
        (e.fell_back, u.formation(), u.mount()),
        (
            Some(Inches(10.0)),
            Formation::Column,
            acw_core::vocab::Mount::Dismounted
        )
    );
    let (e, u) = fb(UnitSpec::artillery("x", Quality::Standard));
    assert_eq!(
        (e.fell_back, u.formation(), e.gun_abandoned),
        (Some(Inches(10.0)), Formation::Limbered, true)
    );
    assert_eq!(
        u.gun(),
        Some(GunState::Abandoned {
            left_in: Formation::Unlimbered
        })
    );
}

#[test]
fn north_mor_08_generals_may_go_along() {
    // NORTH-MOR-08
    let mut o = Options::default();
    o.rally_requires_with = false;
    let mut b = battle_with(o);
    let u = id(&b, "USA 2nd Bde, Regt 1");
    let ac = b.army_commander(acw_core::Side::Union);
    assert_eq!(b.general(ac).unwrap().with_unit(), Some(u));
    morale_result(
        &mut b,
        u,
        MoraleBand::Choice,
        Some(Choice::FallBack),
        FallBackRoom::Clear,
        true,
    )
    .unwrap();
    assert_eq!(b.general(ac).unwrap().with_unit(), Some(u));
    morale_result(
        &mut b,
        u,
        MoraleBand::Choice,
        Some(Choice::FallBack),
        FallBackRoom::Clear,
        false,
    )
    .unwrap();
    assert_eq!(b.general(ac).unwrap().with_unit(), None);
}

#[test]
fn north_mor_09_blocked_fall_backs_and_north_opt_21() {
    // NORTH-MOR-09 / NORTH-OPT-21
    let (mut b, u) = with(inf(Quality::Standard), Options::default());
    let e = morale_result(
        &mut b,
        u,
        MoraleBand::Choice,
        Some(Choice::FallBack),
        FallBackRoom::Blocked,
        true,
    )
    .unwrap();
    assert!(e.fall_back_short && e.blocked_loss.is_none());
    assert_eq!(b.unit(u).unwrap().current_stands(), 4);
    let mut o = Options::default();
    o.blocked_fall_back = BlockedFallBack::LoseStand;
    let (mut b, u) = with(inf(Quality::Elite), o.clone());
    let e = morale_result(
        &mut b,
        u,
        MoraleBand::Choice,
        Some(Choice::FallBack),
        FallBackRoom::TableEdge,
        true,
    )
    .unwrap();
    assert!(e.blocked_loss.is_some());
    assert_eq!(b.unit(u).unwrap().current_stands(), 4);
    // Not on top of the 5-6 loss.
    let e = morale_result(
        &mut b,
        u,
        MoraleBand::Both,
        None,
        FallBackRoom::Blocked,
        true,
    )
    .unwrap();
    assert!(e.stand_lost.is_some() && e.blocked_loss.is_none());
    assert_eq!(b.unit(u).unwrap().current_stands(), 3);
    let mut o = Options::default();
    o.blocked_fall_back = BlockedFallBack::ExitTable;
    let (mut b, u) = with(inf(Quality::Standard), o);
    let e = morale_result(
        &mut b,
        u,
        MoraleBand::Choice,
        Some(Choice::FallBack),
        FallBackRoom::Blocked,
        true,
    )
    .unwrap();
    assert!(!e.left_table);
    let e = morale_result(
        &mut b,
        u,
        MoraleBand::Choice,
        Some(Choice::FallBack),
        FallBackRoom::TableEdge,
        true,
    )
    .unwrap();
    assert!(e.left_table);
    assert_eq!(b.unit(u).unwrap().status(), UnitStatus::LeftTable);
}

#[test]
fn north_mor_10_bands_beyond_one_to_six() {
    // NORTH-MOR-10
    assert_eq!(morale_band(-2), MoraleBand::Rallies);
    assert_eq!(morale_band(0), MoraleBand::Rallies);
    assert_eq!(morale_band(7), MoraleBand::Both);
    assert_eq!(morale_band(8), MoraleBand::Both);
}

#[test]
fn north_mor_11_exact_odds_with_and_without_a_rally() {
    // NORTH-MOR-11: the table, in 36ths.
    let table = [
        (-2, (24.0, 12.0, 0.0), (29.0, 7.0, 0.0)),
        (-1, (18.0, 12.0, 6.0), (24.0, 9.0, 3.0)),
        (0, (12.0, 12.0, 12.0), (18.0, 11.0, 7.0)),
        (1, (6.0, 12.0, 18.0), (12.0, 12.0, 12.0)),
        (2, (0.0, 12.0, 24.0), (6.0, 12.0, 18.0)),
    ];
    for (m, without, with) in table {
        for (rallies, want) in [(0u8, without), (1, with)] {
            for policy in [RallyPolicy::Always, RallyPolicy::IfWouldNotRally] {
                let d = MoraleCheck {
                    modifier: m,
                    rallies,
                    melee: false,
                    policy,
                    declared_before: false,
                }
                .odds();
                let got = (
                    d.prob(|o| o.band == MoraleBand::Rallies),
                    d.prob(|o| o.band == MoraleBand::Choice),
                    d.prob(|o| o.band == MoraleBand::Both),
                );
                check_bands(
                    &format!("m={m} rallies={rallies}"),
                    got,
                    (want.0 / 36.0, want.1 / 36.0, want.2 / 36.0),
                );
            }
        }
    }
    // Always attempting: the general dies 1/6 of the time; only when the toss is >= 3: 4/6 x 1/6.
    let always = MoraleCheck {
        rallies: 1,
        ..MoraleCheck::default()
    }
    .odds();
    p(
        "killed, always",
        always.prob(|o| o.general_killed()),
        1.0 / 6.0,
    );
    let sparing = MoraleCheck {
        rallies: 1,
        policy: RallyPolicy::IfWouldNotRally,
        ..MoraleCheck::default()
    }
    .odds();
    p(
        "killed, sparing",
        sparing.prob(|o| o.general_killed()),
        4.0 / 36.0,
    );
    let melee = MoraleCheck {
        rallies: 1,
        melee: true,
        policy: RallyPolicy::IfWouldNotRally,
        ..MoraleCheck::default()
    }
    .odds();
    p(
        "captured, sparing",
        melee.prob(|o| o.general_captured()),
        4.0 / 36.0,
    );
    // Declared before the toss: the same outcome for the unit.
    let before = MoraleCheck {
        rallies: 1,
        declared_before: true,
        ..MoraleCheck::default()
    }
    .odds();
    p(
        "declared before",
        before.prob(|o| o.band == MoraleBand::Rallies),
        0.5,
    );
}

#[test]
fn north_mor_12_several_checks_in_one_phase() {
    // NORTH-MOR-12: each hit checked on its own; nothing but stands, formation and place carries over.
    let (mut b, u) = with(inf(Quality::Elite), Options::default());
    let stand_fast = MoraleResponse {
        choice: ChoicePolicy::Always(Choice::LoseStand),
        ..MoraleResponse::default()
    };
    b.resolve_morale(u, Category::Artillery, false, &stand_fast, &mut dice([3]))
        .unwrap();
    b.resolve_morale(u, Category::Musketry, false, &stand_fast, &mut dice([4]))
        .unwrap();
    let r = b
        .resolve_morale(u, Category::Musketry, false, &stand_fast, &mut dice([2]))
        .unwrap();
    assert_eq!((r.modifier, r.outcome.band), (0, MoraleBand::Rallies));
    assert_eq!(b.unit(u).unwrap().current_stands(), 3);
}

#[test]
fn north_cas_01_stands_go_only_through_morale() {
    // NORTH-CAS-01: a rally costs nothing, nothing restores a stand.
    let (mut b, u) = with(inf(Quality::Standard), Options::default());
    b.resolve_morale(
        u,
        Category::Melee,
        false,
        &MoraleResponse::default(),
        &mut dice([1]),
    )
    .unwrap();
    assert_eq!(b.unit(u).unwrap().current_stands(), 4);
    morale_result(
        &mut b,
        u,
        MoraleBand::Choice,
        Some(Choice::LoseStand),
        FallBackRoom::Clear,
        true,
    )
    .unwrap();
    for _ in 0..2 {
        skip_to(&mut b, acw_north::sequence::Step::Melee).unwrap();
        b.end_phase(&acw_north::victory::StandardEnd).unwrap();
    }
    assert_eq!(b.unit(u).unwrap().stands().current(), 3);
    assert_eq!(b.unit(u).unwrap().stands().lost(), 1);
}

fn losses_until_removed(spec: UnitSpec, o: Options) -> u8 {
    let (mut b, u) = with(spec, o);
    let mut n = 0;
    while b.unit(u).unwrap().in_play() {
        morale_result(
            &mut b,
            u,
            MoraleBand::Choice,
            Some(Choice::LoseStand),
            FallBackRoom::Clear,
            true,
        )
        .unwrap();
        n += 1;
    }
    n
}

#[test]
fn north_cas_02_foot_and_horse_leave_below_three_stands() {
    // NORTH-CAS-02: elite at the 3rd loss, standard the 2nd, poor the 1st.
    for (q, n) in [
        (Quality::Elite, 3),
        (Quality::Standard, 2),
        (Quality::Poor, 1),
    ] {
        assert_eq!(losses_until_removed(inf(q), Options::default()), n);
        assert_eq!(
            losses_until_removed(UnitSpec::cavalry("x", q), Options::default()),
            n
        );
        assert_eq!(losses_to_removal(Arm::Infantry, q), n);
    }
    // Under a fall-back-on-3-4 policy one hit removes a poor unit with probability 2/6 (its 5-6).
    let d = MoraleToss { modifier: 0 }.odds();
    p(
        "poor removed by one hit's check",
        d.p(&MoraleBand::Both),
        2.0 / 6.0,
    );
}

#[test]
fn north_cas_03_batteries_leave_with_their_last_crew() {
    // NORTH-CAS-03: standard after 2, elite 3, poor 1; the gun stays.
    for (q, n) in [
        (Quality::Elite, 3),
        (Quality::Standard, 2),
        (Quality::Poor, 1),
    ] {
        assert_eq!(
            losses_until_removed(UnitSpec::artillery("x", q), Options::default()),
            n
        );
        assert_eq!(losses_to_removal(Arm::Artillery, q), n);
    }
    let (mut b, g) = with(UnitSpec::artillery("x", Quality::Poor), Options::default());
    morale_result(
        &mut b,
        g,
        MoraleBand::Choice,
        Some(Choice::LoseStand),
        FallBackRoom::Clear,
        true,
    )
    .unwrap();
    assert_eq!(
        b.unit(g).unwrap().gun(),
        Some(GunState::Abandoned {
            left_in: Formation::Unlimbered
        })
    );
    // NORTH-OPT-20 (c): a crew that falls back is removed.
    let mut o = Options::default();
    o.crews_without_guns_removed = true;
    let (mut b, g) = with(UnitSpec::artillery("x", Quality::Elite), o);
    let e = morale_result(
        &mut b,
        g,
        MoraleBand::Choice,
        Some(Choice::FallBack),
        FallBackRoom::Clear,
        true,
    )
    .unwrap();
    assert!(e.removed && e.gun_abandoned);
}

#[test]
fn north_cas_04_the_horse_holder_counts_and_north_opt_08() {
    // NORTH-CAS-04 / NORTH-OPT-08
    let dc = || UnitSpec::cavalry("x", Quality::Standard).dismounted();
    assert_eq!(losses_until_removed(dc(), Options::default()), 2);
    let (b, u) = with(dc(), Options::default());
    assert_eq!(b.unit(u).unwrap().counted_stands(b.options()), 4);
    let mut o = Options::default();
    o.horse_holder_counted = false;
    assert_eq!(losses_until_removed(dc(), o.clone()), 1);
    let (b, u) = with(dc(), o.clone());
    assert_eq!(b.unit(u).unwrap().counted_stands(b.options()), 3);
    p(
        "toss without the holder",
        AccomplishmentToss::for_unit(b.unit(u).unwrap(), b.options())
            .odds()
            .p(&true),
        3.0 / 6.0,
    );
    // A poor unit (2 + 1) would count 2 stands: it cannot start dismounted, nor dismount.
    let mut forces = acw_north::setup::default_forces();
    forces.armies.union.brigades[3].units[0] =
        UnitSpec::cavalry("poor", Quality::Poor).dismounted();
    assert!(matches!(
        Battle::new(&forces, o.clone()),
        Err(acw_north::SetupError::TooFewStands { stands: 2, .. })
    ));
    let mut b = duel(
        inf(Quality::Standard),
        inf(Quality::Standard),
        UnitSpec::cavalry("x", Quality::Poor),
        inf(Quality::Standard),
        o,
    );
    let c1 = id(&b, "C1");
    skip_to(&mut b, acw_north::sequence::Step::Units).unwrap();
    assert_eq!(
        b.attempt_dismount(c1, &mut dice([1])),
        Err(RuleViolation::TooFewStands(c1))
    );
}

#[test]
fn north_cas_05_which_stand_goes() {
    // NORTH-CAS-05: fighting stands before the holder; skirmishers lose the rear rank first.
    let mut o = Options::default();
    o.horse_holder_counted = false;
    let (mut b, u) = with(UnitSpec::cavalry("x", Quality::Elite).dismounted(), o);
    let e = morale_result(
        &mut b,
        u,
        MoraleBand::Choice,
        Some(Choice::LoseStand),
        FallBackRoom::Clear,
        true,
    )
    .unwrap();
    assert_eq!(e.stand_lost.unwrap().kind, StandKind::DismountedCavalry);
    assert!(b.unit(u).unwrap().has_horse_holder());
    let (mut b, u) = with(
        inf(Quality::Elite).in_formation(Formation::Skirmish),
        Options::default(),
    );
    let e = morale_result(
        &mut b,
        u,
        MoraleBand::Choice,
        Some(Choice::LoseStand),
        FallBackRoom::Clear,
        true,
    )
    .unwrap();
    let loss = e.stand_lost.unwrap();
    assert!(loss.rear_rank && loss.kind == StandKind::Infantry);
}

#[test]
fn north_cas_06_tosses_use_current_stands() {
    // NORTH-CAS-06: standard infantry less a stand passes 3/6; elite at 4 stands 4/6.
    let (mut b, u) = with(inf(Quality::Standard), Options::default());
    morale_result(
        &mut b,
        u,
        MoraleBand::Choice,
        Some(Choice::LoseStand),
        FallBackRoom::Clear,
        true,
    )
    .unwrap();
    p(
        "standard less one",
        AccomplishmentToss::for_unit(b.unit(u).unwrap(), b.options())
            .odds()
            .p(&true),
        3.0 / 6.0,
    );
    let (mut b, u) = with(inf(Quality::Elite), Options::default());
    p(
        "elite",
        AccomplishmentToss::for_unit(b.unit(u).unwrap(), b.options())
            .odds()
            .p(&true),
        5.0 / 6.0,
    );
    morale_result(
        &mut b,
        u,
        MoraleBand::Choice,
        Some(Choice::LoseStand),
        FallBackRoom::Clear,
        true,
    )
    .unwrap();
    p(
        "elite at four",
        AccomplishmentToss::for_unit(b.unit(u).unwrap(), b.options())
            .odds()
            .p(&true),
        4.0 / 6.0,
    );
}

#[test]
fn north_opt_34_fall_back_obstacle_toss() {
    // NORTH-OPT-34: off by default (no die); on, a failed toss stops the fall-back short.
    let response = MoraleResponse {
        fall_back_obstacles: 1,
        choice: ChoicePolicy::Always(Choice::FallBack),
        ..MoraleResponse::default()
    };
    let (mut b, u) = with(inf(Quality::Standard), Options::default());
    let mut d = dice([3]);
    let r = b
        .resolve_morale(u, Category::Musketry, false, &response, &mut d)
        .unwrap();
    assert!(r.fall_back_obstacle.is_none() && !r.effect.fall_back_short);
    assert_eq!(d.remaining(), 0);
    let mut o = Options::default();
    o.fall_back_obstacle_toss = true;
    let (mut b, u) = with(inf(Quality::Standard), o);
    let r = b
        .resolve_morale(u, Category::Musketry, false, &response, &mut dice([3, 6]))
        .unwrap();
    assert_eq!(
        r.fall_back_obstacle,
        Some(acw_north::movement::ObstacleOutcome::HaltedBefore(0))
    );
    assert!(r.effect.fall_back_short);
    let r = b
        .resolve_morale(u, Category::Musketry, false, &response, &mut dice([4, 2]))
        .unwrap();
    assert_eq!(
        r.fall_back_obstacle,
        Some(acw_north::movement::ObstacleOutcome::Crossed)
    );
    assert!(!r.effect.fall_back_short);
}
