//! Helpers shared by the integration tests.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use acw_core::cards::Card;
use acw_core::dice::{Scripted, ScriptedDice};
use acw_core::{GameRng, Side};
use acw_tsatf::setup::{UnitSpec, default_forces};
use acw_tsatf::state::{Compulsory, Phase};
use acw_tsatf::{Battle, Options, UnitId};

pub const USA_A: UnitId = UnitId(0);
pub const USA_B: UnitId = UnitId(1);
pub const USA_GUN: UnitId = UnitId(2);
pub const CSA_C: UnitId = UnitId(3);
pub const CSA_D: UnitId = UnitId(4);
pub const CSA_CAV: UnitId = UnitId(5);

/// The default forces under default options.
pub fn battle() -> Battle {
    battle_with(Options::default())
}

/// The default forces under `options`.
pub fn battle_with(options: Options) -> Battle {
    Battle::new(&default_forces().unwrap(), options).unwrap()
}

/// A battle of the given units.
pub fn battle_of(units: Vec<UnitSpec>, options: Options) -> Battle {
    Battle::new(&units, options).unwrap()
}

/// Scripted faces.
pub fn faces(f: &[u16]) -> ScriptedDice {
    ScriptedDice::faces(f.iter().copied())
}

/// Scripted cards.
pub fn cards(c: &[Card]) -> ScriptedDice {
    ScriptedDice::new(c.iter().map(|&c| Scripted::Card(c)))
}

/// Shuffles the phase's deck if it is not yet shuffled.
pub fn shuffle(b: &mut Battle) {
    if b.sequencing_deck().is_none() {
        b.begin_phase(&mut GameRng::seed(99)).unwrap();
    }
}

/// Turns a card of `side`'s colour.
pub fn turn(b: &mut Battle, side: Side) {
    shuffle(b);
    let colour = acw_tsatf::sequence::colour_of(side);
    let card = *b
        .sequencing_deck()
        .unwrap()
        .pile()
        .iter()
        .find(|c| c.colour() == colour)
        .expect("a card of that colour");
    assert_eq!(b.turn_card(&mut cards(&[card])).unwrap(), side);
}

/// Lets every unit that has not acted take its card and hold (compulsory moves made), then advances.
pub fn finish_phase(b: &mut Battle) {
    if matches!(b.phase(), Phase::Movement | Phase::Firing) {
        shuffle(b);
        loop {
            let mut waiting: Vec<(UnitId, Side)> = b
                .units()
                .iter()
                .filter(|u| !u.acted() && !u.off_table() && u.strength() > 0)
                .map(|u| (u.id(), u.side()))
                .collect();
            waiting.sort_by_key(|w| b.unit(w.0).unwrap().compulsory().is_none());
            let Some(&(first, side)) = waiting.first() else {
                break;
            };
            let (id, side) = match b.card() {
                Some(s) => *waiting.iter().find(|w| w.1 == s).unwrap_or(&(first, side)),
                None => {
                    turn(b, side);
                    (first, side)
                }
            };
            let _ = side;
            if b.phase() == Phase::Movement && b.unit(id).unwrap().compulsory().is_some() {
                b.compulsory_move(id, false, &mut GameRng::seed(5)).unwrap();
            } else {
                b.hold(id).unwrap();
            }
        }
    }
    b.advance().unwrap();
}

/// Advances to `phase` (of this turn or the next), holding every unit on the way.
pub fn to_phase(b: &mut Battle, phase: Phase) {
    while b.phase() != phase {
        finish_phase(b);
    }
}

/// Whether a unit has a compulsory move of this kind.
pub fn compulsory(b: &Battle, id: UnitId) -> Option<Compulsory> {
    b.unit(id).unwrap().compulsory()
}

/// Union: a full company A and a four-man Company B (a lieutenant, three privates); Confederates: two
/// companies.
pub fn small_battle(options: Options) -> Battle {
    use acw_tsatf::tables::Quality;
    let units = vec![
        UnitSpec::infantry("Co. A", Side::Union, Quality::Veteran).unwrap(),
        UnitSpec::infantry("Co. B", Side::Union, Quality::Average)
            .unwrap()
            .with_ranks(0, 3)
            .unwrap(),
        UnitSpec::infantry("Co. C", Side::Confederate, Quality::Average).unwrap(),
        UnitSpec::infantry("Co. D", Side::Confederate, Quality::Green).unwrap(),
    ];
    battle_of(units, options)
}

/// The volley of Co. C at `target` with a 6 on the fire die and these cards.
pub fn volley(
    b: &mut Battle,
    firer: UnitId,
    target: UnitId,
    cards_drawn: &[Card],
) -> acw_tsatf::battle::FireReport {
    use acw_tsatf::battle::FireOrder;
    use acw_tsatf::fire::TargetArea;
    let order = FireOrder {
        target,
        range: 10.0,
        in_reach: None,
        area: TargetArea {
            figures: 21,
            close_order: 21,
            ..TargetArea::default()
        },
        canister: false,
        with: vec![],
        hit_order: vec![],
    };
    let mut script = vec![Scripted::Face(6)];
    script.extend(cards_drawn.iter().map(|&c| Scripted::Card(c)));
    // any further hits draw clubs: misses
    script.extend((0..12).map(|_| {
        Scripted::Card(Card::Suited(
            acw_core::cards::Rank::Two,
            acw_core::cards::Suit::Clubs,
        ))
    }));
    b.fire(firer, &order, &mut ScriptedDice::new(script))
        .unwrap()
}

/// A heart (a kill) of a rank: 2-10 an enlisted man, J-K a key figure, A cadre.
pub fn heart(rank: acw_core::cards::Rank) -> Card {
    Card::Suited(rank, acw_core::cards::Suit::Hearts)
}

/// In a [`small_battle`]: Co. C's volley kills two of Co. B's four; B fails Critical Morale (6, 6) and routs;
/// the battle is left at the start of turn 2.
pub fn rout_small(b: &mut Battle) {
    use acw_core::cards::Rank;
    to_phase(b, Phase::Firing);
    turn(b, Side::Confederate);
    let r = volley(
        b,
        UnitId(2),
        UnitId(1),
        &[heart(Rank::Two), heart(Rank::Three)],
    );
    assert_eq!(r.hits, 2);
    to_phase(b, Phase::Morale);
    assert!(!b.critical_morale(UnitId(1), &mut faces(&[6, 6])).unwrap());
    assert_eq!(
        b.unit(UnitId(1)).unwrap().morale(),
        acw_tsatf::state::MoraleState::Routed
    );
    b.advance().unwrap();
}
