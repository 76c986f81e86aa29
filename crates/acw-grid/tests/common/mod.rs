//! Shared helpers for the integration tests.
#![allow(dead_code, missing_docs)]

use acw_core::Side;
use acw_core::dice::ScriptedDice;
use acw_grid::board::{Area, Board, Facing, GridKind};
use acw_grid::options::Options;
use acw_grid::setup::{UnitSpec, stands};
use acw_grid::state::{Battle, BrigadeId, CommanderId, DivisionId, Phase, Rank, Stand, UnitId};
use acw_grid::tables::StandType;

pub const UNION_DIV: DivisionId = DivisionId(1);
pub const REBEL_DIV: DivisionId = DivisionId(2);
pub const UNION_CORPS: CommanderId = CommanderId(100);
pub const UNION_DC: CommanderId = CommanderId(1);
pub const REBEL_DC: CommanderId = CommanderId(2);

pub fn a(x: i32, y: i32) -> Area {
    Area::new(x, y)
}

pub fn div_of(side: Side) -> DivisionId {
    match side {
        Side::Union => UNION_DIV,
        Side::Confederate => REBEL_DIV,
    }
}

pub fn stand(side: Side, kind: StandType) -> Stand {
    Stand::new(kind, div_of(side), BrigadeId(1))
}

pub fn inf(side: Side) -> Stand {
    stand(side, StandType::Infantry)
}

/// A board of `kind`, `w` × `h`, with a division commander for each side in a far corner (out of the way) and
/// the given options.
pub fn battle_with(kind: GridKind, w: u32, h: u32, opts: Options) -> Battle {
    let board = Board::rectangle(kind, w, h).expect("board");
    let mut b = Battle::new(board, opts);
    b.add_commander(UNION_CORPS, Side::Union, Rank::Corps, None, a(0, 0))
        .expect("corps");
    b.add_commander(
        UNION_DC,
        Side::Union,
        Rank::Division(UNION_DIV),
        Some(UNION_CORPS),
        a(0, 0),
    )
    .expect("union dc");
    let far = b.board().areas().last().expect("area");
    b.add_commander(
        REBEL_DC,
        Side::Confederate,
        Rank::Division(REBEL_DIV),
        None,
        far,
    )
    .expect("rebel dc");
    b
}

pub fn battle(kind: GridKind) -> Battle {
    battle_with(kind, 12, 12, Options::default())
}

pub fn square() -> Battle {
    battle(GridKind::Square)
}

pub fn put(b: &mut Battle, side: Side, area: Area, stand: &Stand, n: u8, facing: u8) -> UnitId {
    let kind = b.board().kind();
    b.deploy(
        UnitSpec::new(side, area, stands(n, stand))
            .facing(Facing::new(kind, facing).expect("facing")),
    )
    .expect("deploy")
}

pub fn put_inf(b: &mut Battle, side: Side, area: Area, n: u8, facing: u8) -> UnitId {
    put(b, side, area, &inf(side), n, facing)
}

pub fn facing(b: &Battle, k: u8) -> Facing {
    Facing::new(b.board().kind(), k).expect("facing")
}

/// Takes a fresh battle (Initiative phase, turn 1) to `phase`, with `first` moving first. In a movement
/// phase the moving side's command dice are then rolled, every one a 6 (GRID-SEQ-06: before anything moves).
pub fn go_to(b: &mut Battle, first: Side, phase: Phase) {
    go_to_unrolled(b, first, phase);
    if let Some(side) = b.moving_side() {
        b.command_phase(side, &mut ScriptedDice::faces([6; 64]))
            .expect("command rolls");
    }
}

/// Rolls the moving side's command dice, every one a 6.
pub fn roll_command(b: &mut Battle) {
    let side = b.moving_side().expect("a movement phase");
    b.command_phase(side, &mut ScriptedDice::faces([6; 64]))
        .expect("command rolls");
}

/// [`go_to`] without the command dice: the moving side's command rolls are still to be made.
pub fn go_to_unrolled(b: &mut Battle, first: Side, phase: Phase) {
    let mut d = ScriptedDice::faces([6, 1]);
    b.roll_initiative(&mut d).expect("initiative");
    b.choose_first_player(Side::Union, first).expect("choose");
    while b.phase() != phase {
        b.advance().expect("advance");
    }
}

pub fn dice(faces: &[u16]) -> ScriptedDice {
    ScriptedDice::faces(faces.iter().copied())
}

/// Default options changed by `f`.
pub fn opts(f: impl FnOnce(&mut Options)) -> Options {
    let mut o = Options::default();
    f(&mut o);
    o
}

/// Changes a battle's options.
pub fn set_opt(b: &mut Battle, f: impl FnOnce(&mut Options)) {
    let mut o = b.options().clone();
    f(&mut o);
    b.set_options(o).expect("options");
}

/// Ends the current turn and takes the next one to `phase`, with `first` moving first.
pub fn next_turn(b: &mut Battle, first: Side, phase: Phase) {
    end_turn(b);
    go_to(b, first, phase);
}

/// Advances to the next turn's Initiative phase, fighting the Combat Phase (with seeded dice) if it has not been
/// fought and carrying out the morale tests and retreats it left owed: the battle refuses to leave it before.
pub fn end_turn(b: &mut Battle) {
    while b.phase() != Phase::Initiative {
        if b.advance().is_err() && b.phase() == Phase::Combat {
            if b.pending_combats().is_none() && b.owed_morale_tests().is_empty() {
                let _ = b.resolve_combats(
                    &acw_grid::combat::CombatPlan::default(),
                    &mut acw_core::GameRng::seed(0),
                );
            }
            settle_morale(b);
        }
    }
}

/// Rolls every morale test the combats left owed (seeded dice) and carries out every retreat they left owed,
/// with the engine's default route.
pub fn settle_morale(b: &mut Battle) {
    let tests: Vec<UnitId> = b.owed_morale_tests().iter().map(|t| t.unit).collect();
    for u in tests {
        b.test_morale(&[u], &mut acw_core::GameRng::seed(0))
            .expect("an owed morale test");
    }
    while let Some(r) = b.owed_retreats().first().map(|r| r.unit) {
        b.carry_out(r).expect("an owed retreat");
    }
}

/// Fights the Combat Phase (the battle must be in it, its combats not yet fought) so that every unit of
/// `losers` ends up owing a morale test: every die shows 2 (a miss, and no effect on a commander's table) but
/// one or two 6s, placed at each die in turn
/// until the engine's own comparison makes them the losers (GRID-MEL-14). A losing combat played through the
/// engine, not a result made up.
pub fn lose_combat(b: &mut Battle, losers: &[UnitId]) {
    let owes = |t: &Battle| {
        losers
            .iter()
            .all(|l| t.owed_morale_tests().iter().any(|o| o.unit == *l))
    };
    for hits in 1..=2usize {
        for k1 in 0..40 {
            for k2 in k1 + 1..if hits == 2 { 40 } else { k1 + 2 } {
                let mut faces = vec![2u16; 240];
                faces[k1] = 6;
                if hits == 2 {
                    faces[k2] = 6;
                }
                let mut t = b.clone();
                if t.resolve_combats(&acw_grid::combat::CombatPlan::default(), &mut dice(&faces))
                    .is_ok()
                    && owes(&t)
                {
                    *b = t;
                    return;
                }
            }
        }
    }
    panic!("{losers:?} could not be made to lose their combats");
}

/// `loser` loses its combat ([`lose_combat`]) and tests its morale with `face`: the unit's parts after the
/// test, each with its result (the ones not steady now owe their retreats).
pub fn lose_and_test(
    b: &mut Battle,
    loser: UnitId,
    face: u16,
) -> Vec<(UnitId, acw_grid::tables::MoraleResult)> {
    lose_combat(b, &[loser]);
    b.test_morale(&[loser], &mut dice(&[face]))
        .expect("the morale test")
        .into_iter()
        .flat_map(|o| o.parts)
        .collect()
}
