//! The switches between readings: the defaults, and the alternatives not exercised elsewhere.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::cards::{Card, Rank, Suit};
use acw_core::dice::{Scripted, ScriptedDice};
use acw_core::{Resolve, Side};
use acw_tsatf::melee::CloseTest;
use acw_tsatf::morale;
use acw_tsatf::options::*;
use acw_tsatf::setup::UnitSpec;
use acw_tsatf::state::{Phase, Status};
use acw_tsatf::tables::{HitEffect, LeaderRating, Quality};
use acw_tsatf::{Options, UnitId};
use common::*;

#[test]
fn the_default_reading() {
    let o = Options::default();
    assert_eq!(o.fire_system, FireSystem::MassFire);
    assert_eq!(o.sequencing_deck, SequencingDeck::PerUnit);
    assert_eq!(o.hit_deck, HitDeck::IndependentDraws);
    assert_eq!(o.remainder, Remainder::Drop);
    assert_eq!(o.tie, Tie::NoEffect);
    assert_eq!(o.wound_policy, WoundPolicy::WoundsAsKills);
    assert_eq!(o.column_frontage, (4, 2));
    assert_eq!(o.frontal_sector_half_angle, 45.0);
    assert_eq!(o.spotting_distance, 12.0);
    assert!(o.always_ignores_mods && o.hand_hauled_may_fire);
    assert!(!o.leader_quality && !o.green_class3_pattern && !o.stragglers_lost);
    assert!(o.validate().is_ok());
    assert_eq!(FireSystem::TypeFiring.to_string(), "type firing");
    assert_eq!(Remainder::Chance.to_string(), "a chance of r in n");
}

#[test]
fn indians_may_read_the_veteran_line() {
    // TSATF-MEL-08 (Indians), TSATF-OPT-03
    let mut o = Options::default();
    assert!(
        (CloseTest::new(Quality::Indians, true, 0, &o)
            .odds()
            .p(&true)
            - 0.5)
            .abs()
            < 1e-12
    );
    o.indians_line = IndiansLine::Veteran;
    assert!(
        (CloseTest::new(Quality::Indians, true, 0, &o)
            .odds()
            .p(&true)
            - 5.0 / 6.0)
            .abs()
            < 1e-12
    );
}

#[test]
fn literal_colours_are_two_worse() {
    // TSATF-MEL-23 (literal sign), TSATF-MOR-14
    let mut o = Options::default();
    assert_eq!(morale::test_modifier(None, 1, &o), -2);
    o.colours_literal_plus2 = true;
    assert_eq!(morale::test_modifier(None, 1, &o), 2);
    o.leader_quality = true;
    assert_eq!(morale::test_modifier(Some(LeaderRating::Good), 1, &o), 0);
}

#[test]
fn ncos_with_pistols_and_cards_for_individual_shots() {
    // TSATF-FIR-19 options: NCOs fire pistols (and leave the volley); a card's rank picks the figure's category
    let mut o = Options::default();
    o.nco_pistols = true;
    o.individual_fire_cards = IndividualFireCards::CardPicksCategory;
    let mut b = battle_with(o);
    to_phase(&mut b, Phase::Firing);
    turn(&mut b, Side::Union);
    // the Veteran line fires with its 18 privates only: 9 firers; a 1 at Class I is 1/5: one hit, a miss card
    let order = acw_tsatf::battle::FireOrder {
        target: CSA_C,
        range: 10.0,
        in_reach: None,
        area: acw_tsatf::fire::TargetArea {
            figures: 21,
            close_order: 21,
            ..Default::default()
        },
        canister: false,
        with: vec![],
        hit_order: vec![],
    };
    let mut s = ScriptedDice::new([
        Scripted::Face(1),
        Scripted::Card(Card::Suited(Rank::Two, Suit::Clubs)),
    ]);
    assert_eq!(b.fire(USA_A, &order, &mut s).unwrap().figures, 9);
    // the NCO's pistol rolls 6 (killed); the Ace makes it the enemy officer, not the private he aimed at
    let mut s = ScriptedDice::new([
        Scripted::Face(6),
        Scripted::Card(Card::Suited(Rank::Ace, Suit::Spades)),
    ]);
    let r = b.personal_fire(USA_A, 1, CSA_C, 10, 10.0, &mut s).unwrap();
    assert_eq!(r.effect, HitEffect::Killed);
    assert_eq!(r.struck, Some((0, Status::Killed)));
}

#[test]
fn the_successors_rating_in_major_morale() {
    // TSATF-MOR-05 (successor's rating)
    let mut o = Options::default();
    o.leader_quality = true;
    o.major_leader_mod = true;
    let mut b = small_battle(o);
    b.roll_leader_ratings(&mut faces(&[1, 6, 1, 1])).unwrap();
    to_phase(&mut b, Phase::Firing);
    turn(&mut b, Side::Confederate);
    volley(&mut b, UnitId(2), USA_A, &[heart(Rank::Ace)]);
    to_phase(&mut b, Phase::Morale);
    // Co. B's lieutenant (rated 6, -3) takes over: 5 + 5 - 3 = 7 passes Average's 8
    assert!(b.major_morale(Side::Union, &mut faces(&[5, 5])).unwrap());
}

#[test]
fn a_rated_officer_lends_his_rating_within_the_radius() {
    // TSATF-OPT-02 (leader radius)
    let mut o = Options::default();
    o.leader_quality = true;
    let mut b = small_battle(o.clone());
    assert!(b.attach((USA_A, 0), USA_B, 5.0).is_err());
    o.leader_radius = Some(6.0);
    let mut b = small_battle(o);
    b.set_rating(USA_A, 0, LeaderRating::Lion).unwrap();
    b.attach((USA_A, 0), USA_B, 5.0).unwrap();
    assert_eq!(b.test_modifier(USA_B).unwrap(), -3);
    assert!(b.attach((USA_A, 0), UnitId(2), 1.0).is_err());
    assert_eq!(b.flight_edge(), FleeEdge::Nearest);
    let _ = UnitSpec::infantry("x", Side::Union, Quality::Green);
}
