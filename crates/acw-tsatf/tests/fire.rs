//! Fire: who fires, classes, mass fire, type firing, hit cards, individuals, guns, casualties.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::Side;
use acw_core::cards::{Card, Rank, Suit};
use acw_core::dice::{Scripted, ScriptedDice};
use acw_tsatf::battle::{FireOrder, MoveOrder};
use acw_tsatf::fire::{self, BoatPosition, Ranks, TargetArea};
use acw_tsatf::options::{
    BatteryFire, FigureChoice, FireSystem, GatlingFigures, HitDeck, IndividualFireCards,
    MissingCategory, Remainder, Rounding, WoundPolicy,
};
use acw_tsatf::setup::UnitSpec;
use acw_tsatf::state::{Formation, MoraleState, Phase, Role, Status, UnitKind};
use acw_tsatf::tables::{
    self, Category, FireBand, FireRow, HitEffect, MoveMode, Quality, TargetClass, TypeFireRow,
};
use acw_tsatf::{Options, RuleViolation, UnitId};
use common::*;

fn order(target: UnitId, range: f64, area: TargetArea) -> FireOrder {
    FireOrder {
        target,
        range,
        in_reach: None,
        area,
        canister: false,
        with: vec![],
        hit_order: vec![],
    }
}

fn close(n: u16) -> TargetArea {
    TargetArea {
        figures: n,
        close_order: n,
        ..TargetArea::default()
    }
}

fn card(r: Rank, s: Suit) -> Scripted {
    Scripted::Card(Card::Suited(r, s))
}

fn firing(o: Options) -> acw_tsatf::Battle {
    let mut b = battle_with(o);
    to_phase(&mut b, Phase::Firing);
    b
}

#[test]
fn the_fire_system_is_chosen_for_the_game() {
    // TSATF-FIR-01, TSATF-FIR-23, TSATF-OPT-12: type firing throws a D20 a firer; Average hits Class I on 1-7
    let mut o = Options::default();
    o.fire_system = FireSystem::TypeFiring;
    let mut b = battle_with(o);
    b.roll_ammunition(&mut faces(&[5, 5, 5, 5, 5, 5])).unwrap();
    to_phase(&mut b, Phase::Firing);
    turn(&mut b, Side::Confederate);
    let mut script: Vec<Scripted> = [1, 7, 8, 20, 3, 9, 10, 11, 12, 13]
        .iter()
        .map(|&f| Scripted::Face(f))
        .collect();
    script.extend([
        card(Rank::Two, Suit::Hearts),
        card(Rank::Three, Suit::Clubs),
        card(Rank::Four, Suit::Hearts),
    ]);
    let r = b
        .fire(
            CSA_C,
            &order(USA_A, 12.0, close(21)),
            &mut ScriptedDice::new(script),
        )
        .unwrap();
    assert_eq!((r.figures, r.hits), (10, 3));
    assert_eq!(b.unit(USA_A).unwrap().killed(), 2);
    // TSATF-FIR-25: one turn of ammunition used
    assert_eq!(b.unit(CSA_C).unwrap().ammunition(), Some(4));
}

#[test]
fn who_may_not_fire() {
    // TSATF-FIR-02: routed units, and wounded men do not count among the firers
    let mut b = small_battle(Options::default());
    rout_small(&mut b);
    to_phase(&mut b, Phase::Firing);
    turn(&mut b, Side::Union);
    let e = b
        .fire(USA_B, &order(UnitId(2), 10.0, close(21)), &mut faces(&[6]))
        .unwrap_err();
    assert_eq!(e.to_string(), "Co. B may not fire: it is routed");
    let mut o = Options::default();
    o.wound_policy = WoundPolicy::Campaign;
    let mut b = firing(o);
    turn(&mut b, Side::Confederate);
    let d = |r| card(r, Suit::Diamonds);
    // a 6 with Average at Class I: 10 firers, 2 hits; then the Veterans' 6... three wounds in all
    let mut s = ScriptedDice::new([Scripted::Face(6), d(Rank::Two), d(Rank::Three)]);
    b.fire(CSA_C, &order(USA_A, 10.0, close(21)), &mut s)
        .unwrap();
    turn(&mut b, Side::Confederate);
    let mut s = ScriptedDice::new([
        Scripted::Face(6),
        d(Rank::Four),
        card(Rank::Two, Suit::Spades),
    ]);
    b.fire(CSA_D, &order(USA_A, 10.0, close(21)), &mut s)
        .unwrap();
    assert_eq!(b.unit(USA_A).unwrap().wounded(), 3);
    turn(&mut b, Side::Union);
    // 17 unwounded rank and file in a two-rank line fire with 9
    let r = b
        .fire(
            USA_A,
            &order(CSA_C, 10.0, close(21)),
            &mut ScriptedDice::new([Scripted::Face(1), card(Rank::Two, Suit::Clubs)]),
        )
        .unwrap();
    assert_eq!((r.figures, r.hits), (9, 1));
}

#[test]
fn the_cone_of_fire() {
    // TSATF-FIR-03, TSATF-ART-05
    let mut o = Options::default();
    assert!(fire::in_cone(14.9, false, &o).unwrap());
    assert!(!fire::in_cone(15.1, false, &o).unwrap());
    assert!(fire::in_cone(-29.0, true, &o).unwrap());
    assert!(!fire::in_cone(31.0, true, &o).unwrap());
    o.cone_angle = acw_tsatf::options::ConeAngle::HalfAngle;
    assert!(fire::in_cone(29.0, false, &o).unwrap());
    assert!(fire::in_cone(f64::NAN, false, &o).is_err());
}

#[test]
fn ranges() {
    // TSATF-FIR-04
    assert!(fire::in_range(FireRow::AverageMusket, 36.0).unwrap());
    assert!(!fire::in_range(FireRow::AverageMusket, 36.5).unwrap());
    assert!(!fire::in_range(FireRow::CavalryPistol, 15.5).unwrap());
    assert!(fire::in_range(FireRow::CavalryShotgun, 21.0).unwrap());
    assert!(!fire::in_range(FireRow::ArtilleryLong, 36.0).unwrap());
    assert!(fire::in_range(FireRow::ArtilleryLong, 120.0).unwrap());
    assert!(fire::in_range(FireRow::Gatling, 48.0).unwrap());
    assert!(fire::in_range(FireRow::AverageMusket, -1.0).is_err());
    let mut b = firing(Options::default());
    turn(&mut b, Side::Union);
    let before = b.clone();
    assert_eq!(
        b.fire(USA_A, &order(CSA_C, 40.0, close(21)), &mut faces(&[6]))
            .unwrap_err(),
        RuleViolation::OutOfRange {
            row: FireRow::VeteranMusket,
            range: 40.0
        }
    );
    assert_eq!(b, before);
}

#[test]
fn one_rank_fires() {
    // TSATF-FIR-05
    let mut o = Options::default();
    assert_eq!(fire::firers(18, Ranks::TwoRankLine, &o), 9);
    assert_eq!(fire::firers(19, Ranks::TwoRankLine, &o), 10);
    assert_eq!(fire::firers(19, Ranks::Column { cavalry: false }, &o), 4);
    assert_eq!(fire::firers(19, Ranks::Column { cavalry: true }, &o), 2);
    assert_eq!(fire::firers(19, Ranks::Open, &o), 19);
    o.odd_rank_rounding = Rounding::Floor;
    assert_eq!(fire::firers(19, Ranks::TwoRankLine, &o), 9);
}

#[test]
fn target_classes() {
    // TSATF-FIR-06, TSATF-FIR-07, TSATF-ART-04 (deployed crews count as open order: Class II)
    let o = Options::default();
    let c = |area| fire::target_class(area, &o);
    assert_eq!(c(close(10)), TargetClass::I);
    assert_eq!(
        c(TargetArea {
            figures: 10,
            ..TargetArea::default()
        }),
        TargetClass::II
    );
    assert_eq!(
        c(TargetArea {
            figures: 10,
            light_cover: 5,
            close_order: 10,
            ..TargetArea::default()
        }),
        TargetClass::III
    );
    assert_eq!(
        c(TargetArea {
            figures: 10,
            light_cover: 4,
            close_order: 10,
            ..TargetArea::default()
        }),
        TargetClass::I
    );
    assert_eq!(
        c(TargetArea {
            figures: 10,
            substantial_cover: 5,
            light_cover: 5,
            ..TargetArea::default()
        }),
        TargetClass::IV
    );
    assert_eq!(
        c(TargetArea {
            figures: 10,
            substantial_cover: 3,
            light_cover: 3,
            ..TargetArea::default()
        }),
        TargetClass::III
    );
    let enf = TargetArea {
        figures: 10,
        substantial_cover: 10,
        enfiladed: true,
        ..TargetArea::default()
    };
    assert_eq!(c(enf), TargetClass::IV);
    let mut o2 = Options::default();
    o2.enfilade_overrides_cover = true;
    assert_eq!(fire::target_class(enf, &o2), TargetClass::I);
}

#[test]
fn enfilade_is_fire_from_outside_the_front() {
    // TSATF-FIR-08
    let o = Options::default();
    assert!(fire::outside_front(50.0, &o).unwrap());
    assert!(!fire::outside_front(-40.0, &o).unwrap());
    let enfiladed = TargetArea {
        figures: 10,
        enfiladed: fire::outside_front(90.0, &o).unwrap(),
        ..TargetArea::default()
    };
    assert_eq!(fire::target_class(enfiladed, &o), TargetClass::I);
}

#[test]
fn the_mass_fire_chart() {
    // TSATF-FIR-09
    use FireBand::*;
    assert_eq!(
        FireRow::GreenMusket.divisor(TargetClass::I, One, false),
        Some(8)
    );
    assert_eq!(
        FireRow::GreenMusket.divisor(TargetClass::IV, One, false),
        None
    );
    assert_eq!(
        FireRow::GreenMusket.divisor(TargetClass::III, TwoToFive, false),
        Some(9)
    );
    assert_eq!(
        FireRow::GreenMusket.divisor(TargetClass::III, TwoToFive, true),
        Some(8)
    );
    assert_eq!(
        FireRow::CrackMusket.divisor(TargetClass::I, Six, false),
        Some(2)
    );
    assert_eq!(
        FireRow::Canister.divisor(TargetClass::I, Six, false),
        Some(1)
    );
    assert_eq!(FireRow::Canister.divisor(TargetClass::IV, Six, false), None);
    assert_eq!(
        FireRow::CavalryShotgun.divisor(TargetClass::III, Six, false),
        None
    );
    assert_eq!(
        FireRow::AverageMusket.divisor(TargetClass::IV, One, false),
        Some(9)
    );
    assert_eq!(
        [
            FireBand::of(1),
            FireBand::of(2),
            FireBand::of(5),
            FireBand::of(6)
        ],
        [One, TwoToFive, TwoToFive, Six]
    );
}

#[test]
fn a_volley_on_the_battle() {
    // TSATF-FIR-10: a Green company of 20 rank and file fires with 10; a 1 at Class II is 1/9: one hit
    let mut b = firing(Options::default());
    turn(&mut b, Side::Confederate);
    let mut s = ScriptedDice::new([Scripted::Face(1), card(Rank::Nine, Suit::Hearts)]);
    let r = b
        .fire(
            CSA_D,
            &order(
                USA_A,
                20.0,
                TargetArea {
                    figures: 21,
                    ..TargetArea::default()
                },
            ),
            &mut s,
        )
        .unwrap();
    assert_eq!((r.figures, r.hits, r.class), (10, 1, TargetClass::II));
    assert_eq!(
        r.to_string(),
        "4th Alabama, Company D fired 10 figures as Green muskets at 1st Maine, Company A (Class II): 1 hit, 1 killed and 0 wounded"
    );
    assert_eq!(b.unit(USA_A).unwrap().strength(), 20);
}

#[test]
fn pooled_fire_adds_figures_before_dividing() {
    // TSATF-FIR-11 (Pool): 10 + 10 Average at Class II on a 2-5 (1/6) make 3 hits, not 1 + 1
    let mut b = firing(Options::default());
    turn(&mut b, Side::Confederate);
    let mut pooled = order(
        USA_A,
        20.0,
        TargetArea {
            figures: 21,
            ..TargetArea::default()
        },
    );
    pooled.with = vec![CSA_D];
    assert!(matches!(
        b.fire(CSA_C, &pooled, &mut faces(&[3])),
        Err(RuleViolation::Cannot { .. })
    ));
    let mut o = Options::default();
    o.remainder = Remainder::Pool;
    let mut b = firing(o);
    turn(&mut b, Side::Confederate);
    // the Green company pools with the Average one only on the same row: refused
    assert!(b.fire(CSA_C, &pooled, &mut faces(&[3])).is_err());
    let units = vec![
        UnitSpec::infantry("Co. A", Side::Union, Quality::Average).unwrap(),
        UnitSpec::infantry("Co. B", Side::Union, Quality::Average).unwrap(),
        UnitSpec::infantry("Co. C", Side::Confederate, Quality::Average).unwrap(),
    ];
    let mut o = Options::default();
    o.remainder = Remainder::Pool;
    let mut b = battle_of(units, o);
    to_phase(&mut b, Phase::Firing);
    turn(&mut b, Side::Union);
    let mut p = order(
        UnitId(2),
        20.0,
        TargetArea {
            figures: 21,
            ..TargetArea::default()
        },
    );
    p.with = vec![UnitId(1)];
    let mut s = ScriptedDice::new([
        Scripted::Face(3),
        card(Rank::Two, Suit::Clubs),
        card(Rank::Two, Suit::Clubs),
        card(Rank::Two, Suit::Clubs),
    ]);
    let r = b.fire(UnitId(0), &p, &mut s).unwrap();
    assert_eq!((r.figures, r.hits), (20, 3));
    assert!(b.unit(UnitId(1)).unwrap().acted());
}

#[test]
fn individuals_fire_after_their_unit_officers_before_snipers() {
    // TSATF-FIR-13, TSATF-FIR-21, TSATF-FIR-19, TSATF-FIR-20
    let spec = UnitSpec::infantry("Berdan's Co.", Side::Union, Quality::Crack)
        .unwrap()
        .with_snipers(1)
        .unwrap();
    let units = vec![
        spec,
        UnitSpec::infantry("Co. C", Side::Confederate, Quality::Average).unwrap(),
    ];
    let mut b = battle_of(units, Options::default());
    to_phase(&mut b, Phase::Firing);
    let sniper = 21;
    assert_eq!(
        b.unit(UnitId(0)).unwrap().figures()[sniper].role(),
        Role::Sniper
    );
    let before = b.clone();
    assert!(matches!(
        b.personal_fire(UnitId(0), sniper, UnitId(1), 0, 30.0, &mut faces(&[6])),
        Err(RuleViolation::FigureCannot { .. })
    ));
    assert_eq!(b, before);
    turn(&mut b, Side::Union);
    b.fire(
        UnitId(0),
        &order(UnitId(1), 30.0, close(21)),
        &mut ScriptedDice::new([
            Scripted::Face(1),
            card(Rank::Two, Suit::Clubs),
            card(Rank::Two, Suit::Clubs),
            card(Rank::Two, Suit::Clubs),
        ]),
    )
    .unwrap();
    // the sniper at 40" rolls 5: the enemy lieutenant is killed
    let r = b
        .personal_fire(UnitId(0), sniper, UnitId(1), 0, 40.0, &mut faces(&[5]))
        .unwrap();
    assert_eq!(r.struck, Some((0, Status::Killed)));
    assert_eq!(
        r.to_string(),
        "the sniper rifle shot struck figure 0, now killed"
    );
    // the officer may not fire after the sniper
    assert!(
        b.personal_fire(UnitId(0), 0, UnitId(1), 1, 10.0, &mut faces(&[6]))
            .is_err()
    );
    // a pistol reaches 15" only
    let mut c = before.clone();
    turn(&mut c, Side::Union);
    c.hold(UnitId(0)).unwrap();
    assert!(matches!(
        c.personal_fire(UnitId(0), 0, UnitId(1), 1, 16.0, &mut faces(&[6])),
        Err(RuleViolation::OutOfRange { .. })
    ));
    let r = c
        .personal_fire(UnitId(0), 0, UnitId(1), 1, 15.0, &mut faces(&[4]))
        .unwrap();
    assert_eq!(r.effect, HitEffect::Wounded);
    // wounds count as kills by default
    assert_eq!(r.struck, Some((1, Status::Killed)));
    // NCOs fire pistols only under the option
    assert!(
        c.personal_fire(UnitId(0), 1, UnitId(1), 2, 10.0, &mut faces(&[6]))
            .is_err()
    );
}

#[test]
fn hit_cards_read_suit_and_rank() {
    // TSATF-FIR-14
    assert_eq!(
        tables::read_hit_card(Card::Suited(Rank::Ace, Suit::Hearts)),
        (HitEffect::Killed, Category::Cadre)
    );
    assert_eq!(
        tables::read_hit_card(Card::Suited(Rank::King, Suit::Diamonds)),
        (HitEffect::Wounded, Category::Key)
    );
    assert_eq!(
        tables::read_hit_card(Card::Suited(Rank::Ten, Suit::Spades)),
        (HitEffect::Miss, Category::Enlisted)
    );
    assert_eq!(
        tables::read_hit_card(Card::Suited(Rank::Jack, Suit::Clubs)),
        (HitEffect::Miss, Category::Key)
    );
}

#[test]
fn one_real_hit_deck_has_odds_as_it_stands() {
    // TSATF-FIR-15
    let mut o = Options::default();
    o.hit_deck = HitDeck::Persistent;
    let mut b = firing(o);
    assert!((b.next_hit_odds().prob(|&(e, _)| e == HitEffect::Killed) - 13.0 / 52.0).abs() < 1e-12);
    turn(&mut b, Side::Confederate);
    let mut s = ScriptedDice::new([
        Scripted::Face(6),
        card(Rank::Ace, Suit::Hearts),
        card(Rank::Two, Suit::Hearts),
    ]);
    let r = b
        .fire(CSA_C, &order(USA_A, 10.0, close(21)), &mut s)
        .unwrap();
    assert_eq!(r.hits, 2);
    assert_eq!(b.hit_deck().remaining(), 50);
    // both cards read are on the hit deck's discard pile, the last on top
    assert_eq!(
        b.hit_deck().discards(),
        [
            Card::Suited(Rank::Two, Suit::Hearts),
            Card::Suited(Rank::Ace, Suit::Hearts)
        ]
    );
    let odds = b.next_hit_odds();
    assert!((odds.prob(|&(e, _)| e == HitEffect::Killed) - 11.0 / 50.0).abs() < 1e-12);
    assert!((odds.prob(|&(e, c)| e == HitEffect::Killed && c == Category::Cadre)).abs() < 1e-12);
    // independent draws always have the full deck's odds
    assert!(
        (firing(Options::default())
            .next_hit_odds()
            .p(&(HitEffect::Killed, Category::Cadre))
            - 1.0 / 52.0)
            .abs()
            < 1e-12
    );
}

#[test]
fn a_card_for_a_category_that_is_not_there() {
    // TSATF-FIR-16: Co. B's only cadre is dead; another Ace of hearts kills a private, or is lost
    for (reading, want_killed) in [(MissingCategory::Redirect, 2), (MissingCategory::Lost, 1)] {
        let mut o = Options::default();
        o.missing_category = reading;
        let mut b = small_battle(o);
        to_phase(&mut b, Phase::Firing);
        turn(&mut b, Side::Confederate);
        volley(
            &mut b,
            UnitId(2),
            USA_B,
            &[heart(Rank::Ace), heart(Rank::Ace)],
        );
        assert_eq!(b.unit(USA_B).unwrap().killed(), want_killed);
    }
}

#[test]
fn the_owner_picks_the_figure_or_it_is_random() {
    // TSATF-FIR-17
    let mut b = firing(Options::default());
    turn(&mut b, Side::Confederate);
    let mut o1 = order(USA_A, 10.0, close(21));
    o1.hit_order = vec![12];
    let mut s = ScriptedDice::new([
        Scripted::Face(6),
        heart(Rank::Five).into_scripted(),
        card(Rank::Two, Suit::Clubs),
    ]);
    b.fire(CSA_C, &o1, &mut s).unwrap();
    assert_eq!(
        b.unit(USA_A).unwrap().figures()[12].status(),
        Status::Killed
    );
    let mut o = Options::default();
    o.figure_choice = FigureChoice::Random;
    let mut b = firing(o);
    turn(&mut b, Side::Confederate);
    // an index of 17 among the 18 privates (figures 3-20) picks figure 20
    let mut s = ScriptedDice::new([
        Scripted::Face(6),
        heart(Rank::Five).into_scripted(),
        Scripted::Index(17),
        card(Rank::Two, Suit::Clubs),
    ]);
    b.fire(CSA_C, &order(USA_A, 10.0, close(21)), &mut s)
        .unwrap();
    assert_eq!(
        b.unit(USA_A).unwrap().figures()[20].status(),
        Status::Killed
    );
}

trait IntoScripted {
    fn into_scripted(self) -> Scripted;
}
impl IntoScripted for Card {
    fn into_scripted(self) -> Scripted {
        Scripted::Card(self)
    }
}

#[test]
fn wounds_by_game_mode() {
    // TSATF-FIR-18, TSATF-CAS-02, TSATF-CAS-03, TSATF-SET-07
    for (policy, wounded, killed) in [
        (WoundPolicy::Campaign, 1, 1),
        (WoundPolicy::WoundsAsKills, 0, 2),
        (WoundPolicy::WoundsAsMisses, 0, 1),
    ] {
        let mut o = Options::default();
        o.wound_policy = policy;
        let mut b = firing(o);
        turn(&mut b, Side::Confederate);
        let mut s = ScriptedDice::new([
            Scripted::Face(6),
            card(Rank::Ace, Suit::Diamonds),
            card(Rank::Two, Suit::Hearts),
        ]);
        b.fire(CSA_C, &order(USA_A, 10.0, close(21)), &mut s)
            .unwrap();
        let u = b.unit(USA_A).unwrap();
        assert_eq!((u.wounded(), u.killed()), (wounded, killed), "{policy}");
        if policy == WoundPolicy::Campaign {
            // the wounded lieutenant stays on the table but no longer leads; the NCOs do
            assert_eq!(u.figures()[0].status(), Status::Wounded);
            assert!(b.with_leader(USA_A).unwrap());
        }
    }
}

#[test]
fn the_type_firing_chart() {
    // TSATF-FIR-22
    use TargetClass::*;
    let top = |r: TypeFireRow| [I, II, III, IV].map(|c| r.hit_top(c));
    assert_eq!(top(TypeFireRow::Green), [5, 4, 3, 2]);
    assert_eq!(top(TypeFireRow::Average), [7, 6, 5, 4]);
    assert_eq!(top(TypeFireRow::Veteran), [8, 7, 6, 5]);
    assert_eq!(top(TypeFireRow::Crack), [9, 8, 7, 6]);
    assert_eq!(top(TypeFireRow::Cavalry), [7, 6, 5, 4]);
    assert_eq!(top(TypeFireRow::ArtilleryShot), [7, 6, 5, 4]);
    assert_eq!(top(TypeFireRow::CanisterGatling), [9, 8, 7, 6]);
    assert_eq!(FireRow::CavalryShotgun.type_row(), TypeFireRow::Cavalry);
}

#[test]
fn ammunition_limits_fire() {
    // TSATF-FIR-24, TSATF-FIR-25
    let mut o = Options::default();
    o.ammo_in_mass_fire = true;
    let mut b = battle_with(o.clone());
    to_phase(&mut b, Phase::Firing);
    turn(&mut b, Side::Confederate);
    assert_eq!(
        b.fire(CSA_C, &order(USA_A, 10.0, close(21)), &mut faces(&[1]))
            .unwrap_err()
            .to_string(),
        "4th Alabama, Company C may not fire: its ammunition supply has not been rolled"
    );
    let mut b = battle_with(o);
    b.roll_ammunition(&mut faces(&[1, 1, 1, 1, 1, 1])).unwrap();
    to_phase(&mut b, Phase::Firing);
    turn(&mut b, Side::Confederate);
    b.fire(
        CSA_C,
        &order(USA_A, 10.0, close(21)),
        &mut ScriptedDice::new([Scripted::Face(1), card(Rank::Two, Suit::Clubs)]),
    )
    .unwrap();
    assert_eq!(b.unit(CSA_C).unwrap().ammunition(), Some(0));
    to_phase(&mut b, Phase::Morale);
    finish_phase(&mut b);
    to_phase(&mut b, Phase::Firing);
    turn(&mut b, Side::Confederate);
    assert_eq!(
        b.fire(CSA_C, &order(USA_A, 10.0, close(21)), &mut faces(&[1]))
            .unwrap_err()
            .to_string(),
        "4th Alabama, Company C may not fire: it is out of ammunition"
    );
}

fn gun_battle(kind: UnitKind, crew: u16, o: Options) -> acw_tsatf::Battle {
    let units = vec![
        UnitSpec::gun("Gun", Side::Union, Quality::Average, kind, crew).unwrap(),
        UnitSpec::infantry("Co. C", Side::Confederate, Quality::Average).unwrap(),
    ];
    battle_of(units, o)
}

fn unlimber(b: &mut acw_tsatf::Battle) {
    turn(b, Side::Union);
    b.move_unit(
        UnitId(0),
        &MoveOrder {
            mode: Some(MoveMode::CrossCountry),
            limber: Some(false),
            ..MoveOrder::default()
        },
        &mut faces(&[1, 1, 1, 1]),
    )
    .unwrap();
    to_phase(b, Phase::Firing);
}

#[test]
fn guns_need_four_crew_and_fire_as_twelve() {
    // TSATF-ART-01, TSATF-ART-02, TSATF-ART-07, TSATF-CAS-06, TSATF-ART-04
    let mut b = gun_battle(UnitKind::Artillery, 5, Options::default());
    to_phase(&mut b, Phase::Firing);
    turn(&mut b, Side::Union);
    assert_eq!(
        b.fire(
            UnitId(0),
            &order(UnitId(1), 20.0, close(21)),
            &mut faces(&[6])
        )
        .unwrap_err()
        .to_string(),
        "Gun may not fire: a limbered gun cannot fire"
    );
    let mut b = gun_battle(UnitKind::Artillery, 5, Options::default());
    unlimber(&mut b);
    turn(&mut b, Side::Union);
    // short range at Class I: a 2-5 is 1/4 of 12 = 3 hits
    let r = b
        .fire(
            UnitId(0),
            &order(UnitId(1), 20.0, close(21)),
            &mut ScriptedDice::new([
                Scripted::Face(3),
                card(Rank::Two, Suit::Clubs),
                card(Rank::Two, Suit::Clubs),
                card(Rank::Two, Suit::Clubs),
            ]),
        )
        .unwrap();
    assert_eq!((r.row, r.figures, r.hits), (FireRow::ArtilleryShort, 12, 3));
    // two gunners fall: the spare keeps four, the next loss silences the gun
    let mut c = gun_battle(UnitKind::Artillery, 5, Options::default());
    unlimber(&mut c);
    turn(&mut c, Side::Confederate);
    let k = |r| card(r, Suit::Hearts);
    c.fire(
        UnitId(1),
        &order(
            UnitId(0),
            10.0,
            TargetArea {
                figures: 6,
                ..TargetArea::default()
            },
        ),
        &mut ScriptedDice::new([Scripted::Face(6), k(Rank::Jack), k(Rank::Queen)]),
    )
    .unwrap();
    assert_eq!(c.unit(UnitId(0)).unwrap().crew(), 3);
    turn(&mut c, Side::Union);
    assert_eq!(
        c.fire(
            UnitId(0),
            &order(UnitId(1), 20.0, close(21)),
            &mut faces(&[6])
        )
        .unwrap_err()
        .to_string(),
        "Gun may not fire: a gun needs four crew to fire"
    );
    assert_eq!(fire::gun_figures(5, false, &Options::default()), Ok(12));
}

#[test]
fn range_bands_and_ammunition_of_guns() {
    // TSATF-ART-03, TSATF-ART-10, TSATF-OPT-05
    let o = Options::default();
    assert_eq!(
        fire::gun_row(20.0, true, false, &o).unwrap(),
        FireRow::Canister
    );
    assert_eq!(
        fire::gun_row(30.0, false, false, &o).unwrap(),
        FireRow::ArtilleryShort
    );
    assert_eq!(
        fire::gun_row(50.0, false, false, &o).unwrap(),
        FireRow::ArtilleryLong
    );
    assert!(matches!(
        fire::gun_row(30.0, true, false, &o),
        Err(RuleViolation::OutOfRange {
            row: FireRow::Canister,
            ..
        })
    ));
    assert!(fire::gun_row(130.0, false, false, &o).is_err());
    let mut m = Options::default();
    m.mortar_plunging = true;
    assert!(fire::gun_row(20.0, false, true, &m).is_err());
    assert_eq!(
        fire::gun_row(60.0, false, true, &m).unwrap(),
        FireRow::ArtilleryLong
    );
    assert_eq!(fire::plunging(TargetClass::IV), TargetClass::III);
    // a mortar on the battle at a target in substantial cover fires at Class III
    let mut b = gun_battle(UnitKind::HeavyGun { mortar: true }, 4, m);
    unlimber(&mut b);
    turn(&mut b, Side::Union);
    let area = TargetArea {
        figures: 21,
        substantial_cover: 21,
        ..TargetArea::default()
    };
    let r = b
        .fire(
            UnitId(0),
            &order(UnitId(1), 60.0, area),
            &mut ScriptedDice::new([Scripted::Face(3), card(Rank::Two, Suit::Clubs)]),
        )
        .unwrap();
    assert_eq!(
        (r.row, r.class, r.hits),
        (FireRow::ArtilleryLong, TargetClass::III, 1)
    );
}

#[test]
fn hand_hauled_guns() {
    // TSATF-ART-06: an unlimbered gun moves 2D6 by hand and may fire (or not, under the option)
    let mut b = gun_battle(UnitKind::Artillery, 4, Options::default());
    unlimber(&mut b);
    to_phase(&mut b, Phase::Movement);
    turn(&mut b, Side::Union);
    let r = b
        .move_unit(
            UnitId(0),
            &MoveOrder {
                mode: Some(MoveMode::CrossCountry),
                ..MoveOrder::default()
            },
            &mut faces(&[2, 5]),
        )
        .unwrap();
    assert_eq!(r.rolled, 7);
    to_phase(&mut b, Phase::Firing);
    turn(&mut b, Side::Union);
    assert!(
        b.fire(
            UnitId(0),
            &order(UnitId(1), 20.0, close(21)),
            &mut ScriptedDice::new([
                Scripted::Face(1),
                card(Rank::Two, Suit::Clubs),
                card(Rank::Two, Suit::Clubs)
            ])
        )
        .is_ok()
    );
    let mut o = Options::default();
    o.hand_hauled_may_fire = false;
    let mut b = gun_battle(UnitKind::Artillery, 4, o);
    unlimber(&mut b);
    to_phase(&mut b, Phase::Movement);
    turn(&mut b, Side::Union);
    b.move_unit(
        UnitId(0),
        &MoveOrder {
            mode: Some(MoveMode::CrossCountry),
            ..MoveOrder::default()
        },
        &mut faces(&[2, 5]),
    )
    .unwrap();
    to_phase(&mut b, Phase::Firing);
    turn(&mut b, Side::Union);
    assert!(matches!(
        b.fire(
            UnitId(0),
            &order(UnitId(1), 20.0, close(21)),
            &mut faces(&[1])
        ),
        Err(RuleViolation::MayNotFire { .. })
    ));
}

#[test]
fn gatling_guns() {
    // TSATF-ART-08
    let o = Options::default();
    assert_eq!(fire::gun_figures(4, true, &o), Ok(12));
    assert!(fire::gun_figures(3, true, &o).is_err());
    let mut c = Options::default();
    c.gatling_figures = GatlingFigures::CrewTimesThree;
    assert_eq!(fire::gun_figures(3, true, &c), Ok(9));
    let mut b = gun_battle(UnitKind::Gatling, 4, Options::default());
    unlimber(&mut b);
    turn(&mut b, Side::Union);
    // Gatling at Class I on a 6 is 1/2 of 12: 6 hits
    let mut s = vec![Scripted::Face(6)];
    s.extend((0..6).map(|_| card(Rank::Two, Suit::Clubs)));
    let r = b
        .fire(
            UnitId(0),
            &order(UnitId(1), 40.0, close(21)),
            &mut ScriptedDice::new(s),
        )
        .unwrap();
    assert_eq!((r.row, r.hits), (FireRow::Gatling, 6));
}

#[test]
fn type_firing_artillery_rolls_three_d20_a_crewman() {
    // TSATF-ART-09
    let mut o = Options::default();
    o.fire_system = FireSystem::TypeFiring;
    let mut b = gun_battle(UnitKind::Artillery, 4, o);
    b.roll_ammunition(&mut faces(&[3, 3])).unwrap();
    unlimber(&mut b);
    turn(&mut b, Side::Union);
    // twelve D20 at Class I, shot 1-7: faces 1..12 give 7 hits
    let mut s: Vec<Scripted> = (1..=12).map(Scripted::Face).collect();
    s.extend((0..7).map(|_| card(Rank::Two, Suit::Clubs)));
    let r = b
        .fire(
            UnitId(0),
            &order(UnitId(1), 30.0, close(21)),
            &mut ScriptedDice::new(s),
        )
        .unwrap();
    assert_eq!((r.figures, r.hits), (12, 7));
    // a full gun's mean is 12 x 7/20 = 4.2 hits
    let t = fire::TypeFire::of(
        FireRow::ArtilleryShort,
        TargetClass::I,
        12,
        &Options::default(),
    );
    assert!((acw_core::Resolve::odds(&t).mean() - 4.2).abs() < 1e-12);
}

#[test]
fn batteries_may_pool() {
    // TSATF-ART-02 (battery option): two guns fire as 24
    let mut o = Options::default();
    o.battery_fire = BatteryFire::Pooled;
    let units = vec![
        UnitSpec::gun(
            "Gun 1",
            Side::Union,
            Quality::Average,
            UnitKind::Artillery,
            4,
        )
        .unwrap()
        .in_formation(Formation::Unlimbered)
        .unwrap(),
        UnitSpec::gun(
            "Gun 2",
            Side::Union,
            Quality::Average,
            UnitKind::Artillery,
            4,
        )
        .unwrap()
        .in_formation(Formation::Unlimbered)
        .unwrap(),
        UnitSpec::infantry("Co. C", Side::Confederate, Quality::Average).unwrap(),
    ];
    let mut b = battle_of(units, o);
    to_phase(&mut b, Phase::Firing);
    turn(&mut b, Side::Union);
    let mut p = order(UnitId(2), 50.0, close(21));
    p.with = vec![UnitId(1)];
    // long range at Class I, a 2-5: 1/5 of 24 = 4 hits (two guns alone would make 2 + 2)
    let mut s = vec![Scripted::Face(4)];
    s.extend((0..4).map(|_| card(Rank::Two, Suit::Clubs)));
    let r = b.fire(UnitId(0), &p, &mut ScriptedDice::new(s)).unwrap();
    assert_eq!((r.figures, r.hits), (24, 4));
}

#[test]
fn gunboat_crews_by_their_cover() {
    // TSATF-OPT-07
    let mut o = Options::default();
    assert_eq!(
        fire::gunboat_class(BoatPosition::Exposed, &o),
        TargetClass::II
    );
    assert_eq!(
        fire::gunboat_class(BoatPosition::LightCover, &o),
        TargetClass::III
    );
    assert_eq!(
        fire::gunboat_class(BoatPosition::Casemate, &o),
        TargetClass::IV
    );
    o.gunboat_light_cover_class2 = true;
    assert_eq!(
        fire::gunboat_class(BoatPosition::LightCover, &o),
        TargetClass::II
    );
}

#[test]
fn losing_the_highest_officer_calls_for_major_morale() {
    // TSATF-CAS-05
    let mut b = firing(Options::default());
    turn(&mut b, Side::Confederate);
    let (u, f) = b.senior_officer(Side::Union).unwrap();
    assert_eq!((u, f), (USA_A, 0));
    volley(&mut b, CSA_C, USA_A, &[heart(Rank::Ace)]);
    assert_ne!(b.senior_officer(Side::Union), Some((USA_A, 0)));
    to_phase(&mut b, Phase::Morale);
    assert!(
        b.checks_due()
            .contains(&acw_tsatf::battle::CheckDue::Major(Side::Union))
    );
    let _ = MoraleState::Steady;
    let _ = IndividualFireCards::CardPicksCategory;
}
