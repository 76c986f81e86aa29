//! The end of the game and its result (NORTH-VIC-01, NORTH-VIC-02).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::{BySide, Side};
use acw_north::morale::{Choice, FallBackRoom};
use acw_north::sequence::Step;
use acw_north::setup::UnitSpec;
use acw_north::tables::{MoraleBand, Quality};
use acw_north::victory::{EndReason, GameEnd, GameResult, SideReport, StandardEnd, compare_losses};
use acw_north::{Battle, Options, UnitId};
use common::*;

fn lose(b: &mut Battle, u: UnitId) {
    morale_result(
        b,
        u,
        MoraleBand::Choice,
        Some(Choice::LoseStand),
        FallBackRoom::Clear,
        true,
    )
    .unwrap();
}

fn wipe(b: &mut Battle, side: Side) {
    let ids: Vec<UnitId> = b.units_in_play(side).map(|u| u.id()).collect();
    for u in ids {
        while b.unit(u).unwrap().in_play() {
            lose(b, u);
        }
    }
}

#[test]
fn north_vic_01_what_the_engine_reports() {
    // NORTH-VIC-01: units and stands left, units out, generals lost, guns abandoned or captured.
    let mut b = battle();
    let start = b.report(Side::Union);
    assert_eq!(
        start,
        SideReport {
            units_in_play: 14,
            stands_in_play: 3 * (3 * 4 + 2) + 2 * 4,
            starting_stands: 50,
            ..SideReport::default()
        }
    );
    let u = id(&b, "USA 1st Bde, Regt 1");
    lose(&mut b, u);
    lose(&mut b, u);
    let gun = id(&b, "USA 1st Bde, Battery");
    morale_result(
        &mut b,
        gun,
        MoraleBand::Choice,
        Some(Choice::FallBack),
        FallBackRoom::Clear,
        true,
    )
    .unwrap();
    let ac = b.army_commander(Side::Union);
    let with_ac = b.general(ac).unwrap().with_unit().unwrap();
    killed_rallying(&mut b, ac, with_ac, 1);
    let r = b.report(Side::Union);
    assert_eq!(
        (
            r.units_in_play,
            r.units_out,
            r.stands_in_play,
            r.stands_lost()
        ),
        (13, 1, 46, 4)
    );
    assert_eq!(
        (r.generals_lost, r.guns_abandoned, r.guns_lost_to_capture),
        (1, 1, 0)
    );
    assert_eq!(b.reports().confederate, start);
}

#[test]
fn north_vic_02_default_end_and_result() {
    // NORTH-VIC-02: annihilation ends the game at once.
    let mut b = battle();
    wipe(&mut b, Side::Union);
    skip_to(&mut b, Step::Melee).unwrap();
    let end = b.end_phase(&StandardEnd).unwrap();
    assert_eq!(
        end,
        Some(GameEnd {
            result: GameResult::Winner(Side::Confederate),
            reason: EndReason::Annihilation
        })
    );
    // Both sides gone in one phase (units can leave the table): a draw.
    let mut b = battle();
    wipe(&mut b, Side::Union);
    wipe(&mut b, Side::Confederate);
    skip_to(&mut b, Step::Melee).unwrap();
    assert_eq!(
        b.end_phase(&StandardEnd).unwrap(),
        Some(GameEnd {
            result: GameResult::Draw,
            reason: EndReason::Annihilation
        })
    );
    // At the turn limit the lower loss fraction wins; a removed unit's stands all count as lost.
    let mut o = Options::default();
    o.turn_limit = Some(1);
    let mut b = battle_with(o.clone());
    let u = id(&b, "USA 1st Bde, Regt 1");
    lose(&mut b, u);
    skip_to(&mut b, Step::Melee).unwrap();
    assert_eq!(b.end_phase(&StandardEnd).unwrap(), None);
    skip_to(&mut b, Step::Melee).unwrap();
    assert_eq!(
        b.end_phase(&StandardEnd).unwrap(),
        Some(GameEnd {
            result: GameResult::Winner(Side::Confederate),
            reason: EndReason::TurnLimit
        })
    );
    // Fractions compared exactly: 1/8 against 2/16 is a draw.
    let inf = || UnitSpec::infantry("x", Quality::Standard);
    let mut b = custom(
        vec![brigade(
            "U",
            acw_north::tables::BrigadeOrder::Hold,
            vec![
                UnitSpec {
                    name: "U1".into(),
                    ..inf()
                },
                UnitSpec {
                    name: "U2".into(),
                    ..inf()
                },
            ],
        )],
        vec![
            brigade(
                "C",
                acw_north::tables::BrigadeOrder::Hold,
                vec![
                    UnitSpec {
                        name: "C1".into(),
                        ..inf()
                    },
                    UnitSpec {
                        name: "C2".into(),
                        ..inf()
                    },
                ],
            ),
            brigade(
                "D",
                acw_north::tables::BrigadeOrder::Hold,
                vec![
                    UnitSpec {
                        name: "C3".into(),
                        ..inf()
                    },
                    UnitSpec {
                        name: "C4".into(),
                        ..inf()
                    },
                ],
            ),
        ],
        o,
    );
    let (u1, c1, c3) = (id(&b, "U1"), id(&b, "C1"), id(&b, "C3"));
    lose(&mut b, u1);
    lose(&mut b, c1);
    lose(&mut b, c3);
    skip_to(&mut b, Step::Melee).unwrap();
    b.end_phase(&StandardEnd).unwrap();
    skip_to(&mut b, Step::Melee).unwrap();
    assert_eq!(
        b.end_phase(&StandardEnd).unwrap().map(|e| e.result),
        Some(GameResult::Draw)
    );
    let r = |lost: u32, start: u32| SideReport {
        starting_stands: start,
        stands_in_play: start - lost,
        ..SideReport::default()
    };
    assert_eq!(
        compare_losses(&BySide::new(r(1, 3), r(1, 4))),
        GameResult::Winner(Side::Confederate)
    );
    assert_eq!(
        compare_losses(&BySide::new(r(2, 10), r(1, 5))),
        GameResult::Draw
    );
    assert_eq!(
        compare_losses(&BySide::new(r(0, 10), r(1, 50))),
        GameResult::Winner(Side::Union)
    );
}
