//! A small fixed battle for the rules tests.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use acw_core::Side;
use acw_core::dice::ScriptedDice;
use acw_d8::army::{Army, ArmyData, ArmyUnit};
use acw_d8::state::{Battle, OfficerId, UnitId};
use acw_d8::tables::{Class, GunType, Rank, Troop, Weapon};
use acw_d8::{Options, sequence::Phase};

fn unit(
    name: &str,
    troop: Troop,
    class: Class,
    figures: u32,
    weapon: Weapon,
    brigade: Option<u8>,
) -> ArmyUnit {
    ArmyUnit {
        name: name.into(),
        troop,
        class,
        figures,
        weapon,
        brigade,
    }
}

/// Units, in id order for each side (the Confederate ids are these plus 13):
/// 0 Vet 13 (brigade 1), 1 Exp 12 (b1), 2 Raw 15 (b1), 3 Exp 14 (b2), 4 Exp 12 (b2), 5 Raw 11 (b2),
/// 6 Vet 15 (b3), 7 Exp 18 (b3), 8 Raw 20 (b3), 9 cavalry Exp 8, 10 sharpshooters Vet 4,
/// 11 field battery Exp (7 Union, 6 Confederate), 12 heavy battery Vet (8 Union, 7 Confederate).
pub fn army(side: Side) -> Army {
    use Class::*;
    let f = |n: &str, c: Class, k: u32, b: u8| {
        unit(
            n,
            Troop::Foot,
            c,
            k,
            if c == Veteran {
                Weapon::Rifle
            } else {
                Weapon::Musket
            },
            Some(b),
        )
    };
    let units = vec![
        f("1st Zouaves", Veteran, 13, 1),
        f("2nd Volunteers", Experienced, 12, 1),
        f("3rd Recruits", Raw, 15, 1),
        f("4th Volunteers", Experienced, 14, 2),
        f("5th Volunteers", Experienced, 12, 2),
        f("6th Recruits", Raw, 11, 2),
        f("7th Zouaves", Veteran, 15, 3),
        f("8th Volunteers", Experienced, 18, 3),
        f("9th Recruits", Raw, 20, 3),
        unit(
            "1st Cavalry",
            Troop::Cavalry,
            Experienced,
            8,
            Weapon::Carbine,
            None,
        ),
        unit(
            "1st Sharpshooters",
            Troop::Sharpshooters,
            Veteran,
            4,
            Weapon::Rifle,
            None,
        ),
        unit(
            "1st Battery",
            Troop::Battery(GunType::Field),
            Experienced,
            GunType::Field.crew(side),
            Weapon::FieldGun,
            None,
        ),
        unit(
            "2nd Battery",
            Troop::Battery(GunType::Heavy),
            Veteran,
            GunType::Heavy.crew(side),
            Weapon::HeavyGun,
            None,
        ),
    ];
    Army::new(ArmyData {
        side,
        units,
        brigades: 3,
        divisions: 1,
        officers: vec![
            Rank::Division,
            Rank::Brigadier,
            Rank::Brigadier,
            Rank::Brigadier,
        ],
        baggage: 1,
        year: 1862,
    })
    .unwrap()
}

pub fn battle_with(options: Options) -> Battle {
    Battle::new(&army(Side::Union), &army(Side::Confederate), options).unwrap()
}

pub fn battle() -> Battle {
    battle_with(Options::default())
}

pub const U: u32 = 0;
pub const C: u32 = 13;

pub fn uid(n: u32) -> UnitId {
    UnitId(n)
}

/// Union officers: 0 Division, 1..=3 Brigadiers; Confederate 4, 5..=7.
pub fn oid(n: u32) -> OfficerId {
    OfficerId(n)
}

/// Every unit of the battle at 10 cm from its commander (in influence).
pub fn all_in(b: &Battle) -> Vec<(UnitId, f64)> {
    b.units().iter().map(|u| (u.id, 10.0)).collect()
}

/// Starts the active side's turn with no formation-fail tests due, everyone in influence.
pub fn start(b: &mut Battle) {
    let inf = all_in(b);
    b.start_turn(&inf, &mut ScriptedDice::faces([])).unwrap();
}

/// Goes on from the current phase to `phase` (starting the turn if need be), doing nothing on the way.
pub fn to_phase(b: &mut Battle, phase: Phase) {
    while b.phase() != phase {
        match b.phase() {
            Phase::Start => start(b),
            Phase::Movement => b.end_movement().unwrap(),
            Phase::Firing => {
                b.end_firing(&mut ScriptedDice::faces([])).unwrap();
            }
            Phase::Melee => b.end_melee().unwrap(),
            Phase::Morale | Phase::Over => panic!("cannot go on from {}", b.phase()),
        }
    }
}

pub mod table;
