//! Helpers shared by the integration tests.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use acw_core::dice::ScriptedDice;
use acw_core::{BySide, Side};
use acw_north::combat::Category;
use acw_north::error::RuleViolation;
use acw_north::morale::{
    Choice, ChoicePolicy, FallBackRoom, MoraleApplied, MoraleReport, MoraleResponse,
    morale_modifier,
};
use acw_north::sequence::Step;
use acw_north::setup::{ArmySpec, BrigadeSpec, ForceSpec, UnitSpec, default_forces};
use acw_north::state::{BrigadeId, GeneralId};
use acw_north::tables::{BrigadeOrder, MoraleBand, morale_band};
use acw_north::victory::StandardEnd;
use acw_north::{Battle, Options, UnitId};

/// The default scenario's battle under default options.
pub fn battle() -> Battle {
    Battle::new(&default_forces(), Options::default()).unwrap()
}

/// The default scenario's battle under `options`.
pub fn battle_with(options: Options) -> Battle {
    Battle::new(&default_forces(), options).unwrap()
}

/// A unit's id by name.
pub fn id(b: &Battle, name: &str) -> UnitId {
    b.unit_named(name)
        .unwrap_or_else(|| panic!("no unit {name}"))
        .id()
}

/// The brigade of a unit.
pub fn brigade_of(b: &Battle, unit: UnitId) -> BrigadeId {
    b.unit(unit).unwrap().brigade()
}

/// The MG of a unit's brigade.
pub fn mg_of(b: &Battle, unit: UnitId) -> GeneralId {
    b.brigade(brigade_of(b, unit)).unwrap().major_general()
}

/// Scripted faces.
pub fn dice<const N: usize>(faces: [u16; N]) -> ScriptedDice {
    ScriptedDice::faces(faces)
}

/// Moves `b` on to `step` of the current phase, excusing the ordered moves still owed when the units step
/// ends (NORTH-MOV-03): these tests are about other rules, and no table is measured.
pub fn skip_to(b: &mut Battle, step: Step) -> Result<(), RuleViolation> {
    if step > Step::Units && b.clock().step() <= Step::Units {
        b.advance_to(Step::Units)?;
        for u in b.owed_moves() {
            b.excuse_move(u)?;
        }
    }
    b.advance_to(step)
}

/// Ends phases until it is `side`'s phase, then moves to `step`.
pub fn goto(b: &mut Battle, side: Side, step: Step) {
    while b.clock().phasing() != side {
        skip_to(b, Step::Melee).unwrap();
        assert!(b.end_phase(&StandardEnd).unwrap().is_none());
    }
    skip_to(b, step).unwrap();
}

/// A brigade spec.
pub fn brigade(name: &str, order: BrigadeOrder, units: Vec<UnitSpec>) -> BrigadeSpec {
    BrigadeSpec {
        name: name.into(),
        major_general: format!("MG of {name}"),
        order,
        units,
    }
}

/// A small custom battle (army size check off): each side's brigades as given; each AC with the first unit
/// of his first brigade.
pub fn custom(
    union: Vec<BrigadeSpec>,
    confederate: Vec<BrigadeSpec>,
    mut options: Options,
) -> Battle {
    options.allow_non_standard_army_size = true;
    let army = |tag: &str, brigades: Vec<BrigadeSpec>| ArmySpec {
        army_commander: format!("{tag} AC"),
        army_commander_with: Some((0, 0)),
        brigades,
    };
    let forces = ForceSpec {
        armies: BySide::new(army("USA", union), army("CSA", confederate)),
    };
    Battle::new(&forces, options).unwrap()
}

/// Two units a side in one brigade each: the Union's are "U1" and "U2", the Confederates' "C1" and "C2".
pub fn duel(u1: UnitSpec, u2: UnitSpec, c1: UnitSpec, c2: UnitSpec, options: Options) -> Battle {
    let name = |mut s: UnitSpec, n: &str| {
        s.name = n.into();
        s
    };
    custom(
        vec![brigade(
            "Union",
            BrigadeOrder::Advance,
            vec![name(u1, "U1"), name(u2, "U2")],
        )],
        vec![brigade(
            "Rebel",
            BrigadeOrder::Advance,
            vec![name(c1, "C1"), name(c2, "C2")],
        )],
        options,
    )
}

/// Asserts two probabilities agree to 1e-12.
#[track_caller]
pub fn p(what: &str, got: f64, want: f64) {
    acw_core::testing::assert_prob(what, got, want);
}

/// The morale check a hit forces on `unit`, played by the engine ([`Battle::resolve_morale`]) with no rally
/// attempt and a scripted morale toss whose total lands in `band`: a musketry hit when that band can be
/// reached so, otherwise a melee hit (a band neither can reach fails the test). On a 3–4 the owner takes `choice` (losing a stand when none is given);
/// `room` and `generals_follow` are the fall-back's facts. Returns what the check did to the unit.
pub fn morale_result(
    b: &mut Battle,
    unit: UnitId,
    band: MoraleBand,
    choice: Option<Choice>,
    room: FallBackRoom,
    generals_follow: bool,
) -> Result<MoraleApplied, RuleViolation> {
    let (source, face) = [Category::Musketry, Category::Melee]
        .into_iter()
        .find_map(|source| {
            let facts = b.morale_facts(unit, source, false).ok()?;
            let m = morale_modifier(&facts, b.options());
            (1..=6u16)
                .find(|&face| morale_band(face as i16 + m) == band)
                .map(|face| (source, face))
        })
        .unwrap_or_else(|| panic!("no morale toss lands {unit} in the {band:?} band"));
    let response = MoraleResponse {
        choice: ChoicePolicy::Always(choice.unwrap_or(Choice::LoseStand)),
        room,
        generals_follow,
        ..MoraleResponse::default()
    };
    b.resolve_morale(unit, source, false, &response, &mut dice([face]))
        .map(|report| report.effect)
}

/// `general` tries to rally `unit` after a musketry hit, played by the engine: the morale toss is 1 (the unit
/// holds) and his rally toss a 6, which kills him (NORTH-CMD-10). Any order check his loss owes is thrown
/// with `order_check_face`.
pub fn killed_rallying(
    b: &mut Battle,
    general: GeneralId,
    unit: UnitId,
    order_check_face: u16,
) -> MoraleReport {
    let response = MoraleResponse {
        rally_by: vec![general],
        generals_follow: true,
        ..MoraleResponse::default()
    };
    b.resolve_morale(
        unit,
        Category::Musketry,
        false,
        &response,
        &mut dice([1, 6, order_check_face]),
    )
    .unwrap()
}
