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

/// [`go_to`] without the command dice: the moving side's command rolls are still to be made. A battle already
/// past its Initiative phase (after [`bombard_hits`]) goes on from where it is, `first` having moved first.
pub fn go_to_unrolled(b: &mut Battle, first: Side, phase: Phase) {
    if b.phase() == Phase::Initiative {
        let mut d = ScriptedDice::faces([6, 1]);
        b.roll_initiative(&mut d).expect("initiative");
        b.choose_first_player(Side::Union, first).expect("choose");
    } else {
        assert_eq!(b.first_player(), Some(first), "the turn's first player");
    }
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

/// Records hits on units the way the engine records them: by bombardment. The battle is taken to a Bombardment
/// Phase (this turn's if it is still in its Initiative phase, else the next turn's, this one ended with
/// [`end_turn`]; the Union moves first). Each target is bombarded by the enemy artillery already able to fire
/// at it and, if their dice are too few, by new batteries of the other side (up to 3 stands each, 2 dice a
/// stand at 2 areas), each deployed 2 areas from its target in the free area farthest from every other unit (the nearest, then
/// all of them),
/// facing it. The dice are scripted: `hits` 6s a target, every other die a 1. Every unit must be out of cover
/// (the hits are checked to land whole). The report of each target, in the order given.
pub fn bombard_hits(
    b: &mut Battle,
    targets: &[(UnitId, u32)],
) -> Vec<acw_grid::casualties::HitReport> {
    use acw_grid::fire::BombardOrder;
    if b.phase() != Phase::Initiative {
        end_turn(b);
    }
    go_to_unrolled(b, Side::Union, Phase::Bombardment);
    let mut orders: Vec<BombardOrder> = Vec::new();
    let mut faces: Vec<u16> = Vec::new();
    for &(target, hits) in targets {
        let enemy = b
            .unit(target)
            .expect("a target on the board")
            .side()
            .enemy();
        let dice_of = |b: &Battle, orders: &mut Vec<BombardOrder>, battery: UnitId| -> u32 {
            if orders.iter().any(|o| o.battery == battery) {
                return 0;
            }
            match b.bombard_dice(BombardOrder { battery, target }) {
                Ok(d) => {
                    orders.push(BombardOrder { battery, target });
                    d.pool.dice()
                }
                Err(_) => 0,
            }
        };
        let mut n = 0u32;
        let existing: Vec<UnitId> = b
            .units()
            .filter(|u| u.side() == enemy && u.has(StandType::Artillery))
            .map(|u| u.id())
            .collect();
        for battery in existing {
            if n < hits.max(1) {
                n += dice_of(b, &mut orders, battery);
            }
        }
        while n < hits.max(1) {
            let at = b.unit(target).expect("target").area();
            let others: Vec<Area> = b.units().map(|u| u.area()).filter(|x| *x != at).collect();
            let area = b
                .board()
                .areas()
                .filter(|x| {
                    b.board().distance(*x, at, b.options()) == 2
                        && !b.occupied_by(*x, Side::Union)
                        && !b.occupied_by(*x, Side::Confederate)
                })
                .max_by_key(|x| {
                    let d: Vec<u32> = others
                        .iter()
                        .map(|o| b.board().distance(*x, *o, b.options()))
                        .collect();
                    let near = d.iter().min().copied().unwrap_or(u32::MAX);
                    (near, d.iter().sum::<u32>(), std::cmp::Reverse((x.x, x.y)))
                })
                .expect("a free area 2 from the target");
            let stands_needed = (hits - n).div_ceil(2).clamp(1, 3) as u8;
            let kind = b.board().kind();
            let battery = (0..8)
                .filter_map(|k| Facing::new(kind, k).ok())
                .find_map(|f| {
                    let mut t = b.clone();
                    let g = t
                        .deploy(
                            UnitSpec::new(
                                enemy,
                                area,
                                stands(stands_needed, &stand(enemy, StandType::Artillery)),
                            )
                            .facing(f),
                        )
                        .ok()?;
                    t.bombard_dice(BombardOrder { battery: g, target })
                        .is_ok()
                        .then_some((t, g))
                });
            let (t, g) = battery.expect("a battery that can fire at the target");
            *b = t;
            n += dice_of(b, &mut orders, g);
        }
        faces.extend((0..n).map(|i| if i < hits { 6 } else { 1 }));
    }
    let results = b
        .bombardment_phase(&orders, &mut dice(&faces))
        .expect("the bombardment");
    targets
        .iter()
        .map(|&(target, hits)| {
            let r = results
                .iter()
                .find(|r| r.target == target)
                .expect("the target's result");
            assert_eq!((r.raw, r.after_cover, r.cancelled), (hits, hits, 0));
            r.recorded.expect("the hits recorded")
        })
        .collect()
}

/// Fights the Combat Phase (the battle must be in it, its combats not yet fought) with every die a 2 (a miss,
/// and no effect on a commander's table) but up to four 6s, placed at each die in turn until `done` holds of
/// the battle afterwards: hits reached through the engine's own combat, not recorded by hand.
pub fn fight_until(b: &mut Battle, done: impl Fn(&Battle) -> bool) {
    const N: usize = 16;
    let mut sets: Vec<Vec<usize>> = vec![vec![]];
    for _ in 0..4 {
        let next: Vec<Vec<usize>> = sets
            .iter()
            .flat_map(|s| {
                let from = s.last().map_or(0, |l| l + 1);
                (from..N).map(move |k| {
                    let mut t = s.clone();
                    t.push(k);
                    t
                })
            })
            .collect();
        for six in &next {
            let mut faces = vec![2u16; 240];
            for &k in six {
                faces[k] = 6;
            }
            let mut t = b.clone();
            if t.resolve_combats(&acw_grid::combat::CombatPlan::default(), &mut dice(&faces))
                .is_ok()
                && done(&t)
            {
                *b = t;
                return;
            }
        }
        sets = next;
    }
    panic!("no combat dice gave the result wanted");
}
