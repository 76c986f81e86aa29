//! Organisation and setup: units, figures, categories, sides, vehicles, and loading from serde.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::Side;
use acw_core::cards::{Card, Rank, Suit};
use acw_tsatf::error::SetupError;
use acw_tsatf::options::{FireSystem, WoundPolicy};
use acw_tsatf::setup::UnitSpec;
use acw_tsatf::state::{Formation, OfficerRank, Role, Status, UnitKind};
use acw_tsatf::tables::{Category, FireRow, Quality};
use acw_tsatf::{Battle, Options};
use common::*;

#[test]
fn basic_infantry_unit_is_an_officer_two_ncos_and_eighteen() {
    // TSATF-SET-04, TSATF-SET-01: one figure a man, tracked one by one
    let b = battle();
    let u = b.unit(USA_A).unwrap();
    assert_eq!(u.figures().len(), 21);
    assert_eq!(u.starting_strength(), 21);
    let roles: Vec<Role> = u.figures().iter().map(|f| f.role()).collect();
    assert_eq!(
        roles
            .iter()
            .filter(|r| matches!(r, Role::Officer(_)))
            .count(),
        1
    );
    assert_eq!(roles.iter().filter(|r| **r == Role::Nco).count(), 2);
    assert_eq!(roles.iter().filter(|r| **r == Role::Private).count(), 18);
    // TSATF-OPT-11: the sergeant-major makes 22, and he is cadre
    let s = UnitSpec::infantry("Co. K", Side::Union, Quality::Average)
        .unwrap()
        .with_sergeant_major()
        .unwrap();
    let b2 = battle_of(
        vec![
            s,
            UnitSpec::infantry("Co. L", Side::Confederate, Quality::Average).unwrap(),
        ],
        Options::default(),
    );
    let u2 = b2.unit(USA_A).unwrap();
    assert_eq!(u2.figures().len(), 22);
    assert!(
        u2.figures()
            .iter()
            .any(|f| f.role() == Role::SergeantMajor && f.category() == Category::Cadre)
    );
}

#[test]
fn categories_of_figures() {
    // TSATF-SET-05
    assert_eq!(
        Role::Officer(OfficerRank::Captain).category(),
        Category::Cadre
    );
    assert_eq!(Role::Nco.category(), Category::Cadre);
    assert_eq!(Role::Gunner.category(), Category::Key);
    assert_eq!(Role::Sniper.category(), Category::Key);
    assert_eq!(Role::Crew.category(), Category::Key);
    assert_eq!(Role::Private.category(), Category::Enlisted);
}

#[test]
fn every_unit_has_a_class_and_a_weapon_row() {
    // TSATF-SET-03: cavalry and artillery carry a class for their tests
    let b = battle();
    assert_eq!(b.unit(CSA_CAV).unwrap().quality(), Quality::Veteran);
    assert_eq!(b.unit(USA_GUN).unwrap().quality(), Quality::Average);
    // TSATF-SET-08: the row follows the type; infantry cannot carry carbines
    assert_eq!(
        b.unit(CSA_D).unwrap().fire_row(),
        Some(FireRow::GreenMusket)
    );
    assert_eq!(
        b.unit(CSA_CAV).unwrap().fire_row(),
        Some(FireRow::CavalryCarbine)
    );
    let bad = UnitSpec::infantry("Co. M", Side::Union, Quality::Crack)
        .unwrap()
        .firing(FireRow::CavalryShotgun);
    assert!(matches!(
        bad,
        Err(SetupError::BadFireRow {
            row: FireRow::CavalryShotgun,
            ..
        })
    ));
    assert_eq!(
        bad.unwrap_err().to_string(),
        "Co. M cannot fire as cavalry shotguns"
    );
}

#[test]
fn sides_take_red_and_black() {
    // TSATF-SET-02
    assert_eq!(
        acw_tsatf::sequence::side_of(Card::Suited(Rank::Ace, Suit::Hearts)),
        Side::Union
    );
    assert_eq!(
        acw_tsatf::sequence::side_of(Card::Suited(Rank::Two, Suit::Diamonds)),
        Side::Union
    );
    assert_eq!(
        acw_tsatf::sequence::side_of(Card::Suited(Rank::King, Suit::Spades)),
        Side::Confederate
    );
    assert_eq!(
        acw_tsatf::sequence::side_of(Card::Suited(Rank::Five, Suit::Clubs)),
        Side::Confederate
    );
    // a side without units is refused
    let only = vec![UnitSpec::infantry("Co. A", Side::Union, Quality::Green).unwrap()];
    assert_eq!(
        Battle::new(&only, Options::default()).unwrap_err(),
        SetupError::EmptySide(Side::Confederate)
    );
}

#[test]
fn guns_need_gunners() {
    // TSATF-SET-06: gunners only on guns; a gun of 3 crew is built but may not fire (see the fire tests)
    let g = UnitSpec::gun("Gun", Side::Union, Quality::Average, UnitKind::Artillery, 3).unwrap();
    let b = battle_of(
        vec![
            g,
            UnitSpec::infantry("Co. A", Side::Confederate, Quality::Green).unwrap(),
        ],
        Options::default(),
    );
    assert_eq!(b.unit(USA_A).unwrap().crew(), 3);
    assert!(
        b.unit(USA_A)
            .unwrap()
            .figures()
            .iter()
            .any(|f| f.role() == Role::Gunner && f.category() == Category::Key)
    );
}

#[test]
fn game_mode_decides_what_a_wound_is() {
    // TSATF-SET-07: the policy is chosen before play and is part of the options
    assert_eq!(Options::default().wound_policy, WoundPolicy::WoundsAsKills);
    let mut o = Options::default();
    o.wound_policy = WoundPolicy::Campaign;
    let b = battle_with(o);
    assert_eq!(b.options().wound_policy, WoundPolicy::Campaign);
    assert_eq!(b.unit(USA_A).unwrap().wounded(), 0);
}

#[test]
fn ammunition_is_rolled_once_when_type_firing() {
    // TSATF-SET-09: 1D10 per unit, once
    let mut b = battle();
    assert!(b.roll_ammunition(&mut faces(&[1, 2, 3, 4, 5, 6])).is_err());
    let mut o = Options::default();
    o.fire_system = FireSystem::TypeFiring;
    let mut b = battle_with(o);
    assert_eq!(
        b.roll_ammunition(&mut faces(&[1, 2, 3, 4, 5, 10])).unwrap(),
        vec![1, 2, 3, 4, 5, 10]
    );
    assert_eq!(b.unit(CSA_CAV).unwrap().ammunition(), Some(10));
    assert!(b.roll_ammunition(&mut faces(&[1, 2, 3, 4, 5, 6])).is_err());
    // a dice source that runs out changes nothing
    let mut o = Options::default();
    o.fire_system = FireSystem::TypeFiring;
    let mut c = battle_with(o);
    assert!(c.roll_ammunition(&mut faces(&[3])).is_err());
    assert_eq!(c.unit(USA_A).unwrap().ammunition(), None);
}

#[test]
fn officers_have_ranks_and_the_highest_commands() {
    // TSATF-CMD-04, TSATF-CMD-03
    let a = UnitSpec::infantry("Co. A", Side::Union, Quality::Average).unwrap();
    let b_ = UnitSpec::infantry("Co. B", Side::Union, Quality::Average)
        .unwrap()
        .with_officers(&[OfficerRank::Lieutenant, OfficerRank::Colonel])
        .unwrap();
    let c = UnitSpec::infantry("Co. C", Side::Confederate, Quality::Average).unwrap();
    let b = battle_of(vec![a, b_, c], Options::default());
    assert_eq!(b.senior_officer(Side::Union), Some((USA_B, 1)));
    assert_eq!(
        b.unit(USA_B).unwrap().figures()[1].role(),
        Role::Officer(OfficerRank::Colonel)
    );
}

#[test]
fn gunboats_and_trains_have_limits() {
    // TSATF-OPT-06: at most four guns, 20-30 crew
    assert!(UnitSpec::gunboat("Tinclad 1", Side::Union, Quality::Average, 4, 24).is_ok());
    assert!(matches!(
        UnitSpec::gunboat("Tinclad 2", Side::Union, Quality::Average, 5, 24),
        Err(SetupError::Vehicle(_))
    ));
    assert!(matches!(
        UnitSpec::gunboat("Tinclad 3", Side::Union, Quality::Average, 2, 12),
        Err(SetupError::Vehicle(_))
    ));
    // TSATF-OPT-10: at most four cars
    assert!(UnitSpec::train("Up train", Side::Confederate, 4, 3).is_ok());
    assert!(matches!(
        UnitSpec::train("Down train", Side::Confederate, 5, 3),
        Err(SetupError::Vehicle(_))
    ));
}

#[test]
fn figures_on_bases_are_still_single_figures() {
    // TSATF-OPT-14: each figure keeps its own status
    let mut o = Options::default();
    o.wound_policy = WoundPolicy::Campaign;
    let b = battle_with(o);
    let u = b.unit(CSA_C).unwrap();
    assert!(u.figures().iter().all(|f| f.status() == Status::Active));
    assert_eq!(u.strength(), 21);
}

#[test]
fn bad_setups_are_refused() {
    assert_eq!(
        UnitSpec::infantry(" ", Side::Union, Quality::Green).unwrap_err(),
        SetupError::NoName
    );
    assert!(matches!(
        UnitSpec::infantry("Co. A", Side::Union, Quality::Green)
            .unwrap()
            .in_formation(Formation::Limbered),
        Err(SetupError::BadFormation { .. })
    ));
    assert!(matches!(
        UnitSpec::infantry("Co. A", Side::Union, Quality::Green)
            .unwrap()
            .hidden(),
        Err(SetupError::Vehicle(_))
    ));
    let a = UnitSpec::infantry("Co. A", Side::Union, Quality::Green).unwrap();
    let twice = vec![
        a.clone(),
        a,
        UnitSpec::infantry("Co. Z", Side::Confederate, Quality::Green).unwrap(),
    ];
    assert_eq!(
        Battle::new(&twice, Options::default()).unwrap_err(),
        SetupError::DuplicateName("Co. A".into())
    );
    let mut o = Options::default();
    o.frontal_sector_half_angle = f64::NAN;
    assert!(matches!(
        Battle::new(&default_forces_unwrapped(), o),
        Err(SetupError::Options(_))
    ));
}

fn default_forces_unwrapped() -> Vec<UnitSpec> {
    acw_tsatf::setup::default_forces().unwrap()
}

#[test]
fn serde_round_trips_and_refuses_bad_input() {
    let b = battle();
    let json = serde_json::to_string(&b).unwrap();
    let back: Battle = serde_json::from_str(&json).unwrap();
    assert_eq!(back, b);
    // a unit spec with an impossible formation is refused on load
    let spec = UnitSpec::infantry("Co. A", Side::Union, Quality::Green).unwrap();
    let text = serde_json::to_string(&spec)
        .unwrap()
        .replace("CloseOrderLine", "Limbered");
    assert!(serde_json::from_str::<UnitSpec>(&text).is_err());
    // options out of range are refused on load
    assert!(serde_json::from_str::<Options>(r#"{"spotting_distance": -1.0}"#).is_err());
    assert!(serde_json::from_str::<Options>(r#"{"no_such_switch": true}"#).is_err());
    let o: Options = serde_json::from_str(r#"{"tie": "Reroll"}"#).unwrap();
    assert_eq!(o.tie, acw_tsatf::options::Tie::Reroll);
    // a battle whose numbers disagree is refused
    let broken = json.replacen("\"turn\":1", "\"turn\":0", 1);
    assert!(serde_json::from_str::<Battle>(&broken).is_err());
}

#[test]
fn figure_statuses_and_casualties() {
    // TSATF-CAS-01: killed, wounded, captured and off-table figures are casualties; stragglers are not
    use acw_core::cards::{Card, Rank, Suit};
    use acw_tsatf::state::Phase;
    let mut o = Options::default();
    o.wound_policy = WoundPolicy::Campaign;
    let mut b = battle_with(o);
    to_phase(&mut b, Phase::Firing);
    turn(&mut b, Side::Confederate);
    volley(
        &mut b,
        CSA_C,
        USA_A,
        &[
            Card::Suited(Rank::Two, Suit::Diamonds),
            Card::Suited(Rank::Three, Suit::Hearts),
        ],
    );
    let u = b.unit(USA_A).unwrap();
    let statuses: Vec<Status> = u.figures().iter().map(|f| f.status()).collect();
    assert_eq!(
        statuses.iter().filter(|s| **s == Status::Wounded).count(),
        1
    );
    assert_eq!(statuses.iter().filter(|s| **s == Status::Killed).count(), 1);
    assert_eq!(u.figures().iter().filter(|f| f.is_casualty()).count(), 2);
    assert_eq!(u.strength(), 19);
    assert_eq!(Status::Captured.to_string(), "captured");
    assert_eq!(Status::OffTable.to_string(), "off the table");
}
