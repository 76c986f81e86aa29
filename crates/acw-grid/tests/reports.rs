//! What a person reads of a report the battle returns: each report's `Display` as an exact sentence, on
//! reports the engine produced from scripted dice, never a Rust `Debug` form.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::game::{Commander, play};
use acw_core::{BySide, Side};
use acw_grid::board::GridKind;
use acw_grid::bots::{Attacker, Holder};
use acw_grid::combat::CombatPlan;
use acw_grid::game::Grid;
use acw_grid::movement::MoveOrder;
use acw_grid::setup::Scenario;
use acw_grid::state::Phase;
use common::*;

/// `text`, after checking it shows no Rust `Debug` form: no struct or tuple form, no `Some(`, no raw id.
fn read(text: String) -> String {
    let debugish = text.contains('{')
        || text.contains("::")
        || text.contains("Id(")
        || text.contains("Some(")
        || text.contains("None")
        || text
            .split(|c: char| !c.is_alphanumeric() && c != '(')
            .any(|w| w.len() > 1 && w.ends_with('(') && w.starts_with(char::is_uppercase));
    assert!(!debugish, "a Debug form in: {text}");
    text
}

#[test]
fn a_command_report_reads_as_each_roll_its_need_and_who_may_not_move() {
    // A unit more than 3 areas from its Division Commander rolls 3+ to move; a 2 halts it.
    let mut b = square();
    let far = put_inf(&mut b, Side::Union, a(8, 8), 3, 0);
    let mut near = square();
    put_inf(&mut near, Side::Union, a(1, 1), 3, 0);
    go_to_unrolled(&mut b, Side::Union, Phase::FirstMovement);
    let r = b.command_phase(Side::Union, &mut dice(&[2])).unwrap();
    assert_eq!(far.to_string(), "unit 1");
    assert_eq!(
        read(r.to_string()),
        "Command dice: unit 1 of division 1 rolls 2, needing 3 or more — it fails. The stands of division 1 \
         in unit 1 may not move this turn."
    );
    go_to_unrolled(&mut near, Side::Union, Phase::FirstMovement);
    let r = near.command_phase(Side::Union, &mut dice(&[])).unwrap();
    assert_eq!(
        read(r.to_string()),
        "Every unit is in command: no command dice."
    );
}

#[test]
fn a_move_report_reads_as_the_cost_and_the_attack() {
    let mut b = square();
    let u = put_inf(&mut b, Side::Union, a(5, 3), 3, 0);
    put_inf(&mut b, Side::Confederate, a(5, 6), 3, 0);
    go_to(&mut b, Side::Union, Phase::FirstMovement);
    let r = b
        .move_unit(&MoveOrder::along(
            b.unit(u).unwrap(),
            vec![a(5, 4), a(5, 5)],
        ))
        .unwrap();
    assert_eq!(
        read(r.to_string()),
        "Unit 1 moves, spending 2 areas of its allowance, and attacks."
    );
}

#[test]
fn combat_hit_and_phase_reports_read_as_the_hits_the_losses_and_the_morale_test() {
    // GRID-MEL-09: each 5 or 6 hits. The Union unit's six dice (3 stands, 2 each) come first: three hits;
    // the Confederates' six all miss. Three hits take one stand and leave one over.
    let mut b = square();
    let u = put_inf(&mut b, Side::Union, a(5, 5), 3, 0);
    let c = put_inf(&mut b, Side::Confederate, a(5, 6), 3, 2);
    go_to(&mut b, Side::Union, Phase::Combat);
    let r = b
        .resolve_combats(
            &CombatPlan::default(),
            &mut dice(&[5, 6, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1]),
        )
        .unwrap();
    assert_eq!(
        (u.to_string(), c.to_string()),
        ("unit 1".into(), "unit 2".into())
    );
    let (_, hit) = r.combats[0]
        .recorded
        .iter()
        .find(|(id, _)| *id == c)
        .unwrap();
    assert_eq!(
        read(hit.to_string()),
        "The unit takes 3 hits and loses 1 stand; 1 hit is left over."
    );
    assert_eq!(
        read(r.combats[0].to_string()),
        read(r.to_string()),
        "a phase of one combat and no skirmish reads as that combat"
    );
    assert_eq!(
        read(r.to_string()),
        "Combat around unit 1 (Union), against unit 2: the Union side takes 0 hits, the Confederate side \
         3 hits. Unit 1 takes 0 hits. Unit 2 takes 3 hits and loses 1 stand. The Confederate side took more \
         hits and tests morale. Testing: unit 2."
    );
    // A phase with nothing to fight.
    let mut quiet = square();
    put_inf(&mut quiet, Side::Union, a(1, 1), 3, 0);
    go_to(&mut quiet, Side::Union, Phase::Combat);
    let r = quiet
        .resolve_combats(&CombatPlan::default(), &mut dice(&[]))
        .unwrap();
    assert_eq!(read(r.to_string()), "No skirmish fire and no combat.");
}

#[test]
fn a_victory_report_reads_as_each_sides_stands_losses_and_ground() {
    let mut b = square();
    put_inf(&mut b, Side::Union, a(5, 5), 1, 0);
    put_inf(&mut b, Side::Union, a(1, 1), 4, 0);
    put_inf(&mut b, Side::Confederate, a(5, 6), 1, 2);
    go_to(&mut b, Side::Union, Phase::Combat);
    // GRID-MEL-09: the Union stand's 5 and 6 are two hits, which destroy the one-stand Confederate unit.
    b.resolve_combats(&CombatPlan::default(), &mut dice(&[5, 6, 4, 1]))
        .unwrap();
    assert_eq!(
        read(b.victory_report().to_string()),
        "Turn 1: the Union side has 5 stands on the table (0 stands lost; 0 units destroyed, 0 routed, \
         0 surrendered, 0 removed; 0 commanders lost); the Confederate side has 0 stands on the table \
         (1 stand lost; 1 unit destroyed, 0 routed, 0 surrendered, 0 removed; 0 commanders lost); the Union \
         side holds 2 areas, the Confederate side 0."
    );
}

#[test]
fn the_reports_of_whole_games_read_without_a_debug_form() {
    for seed in [1, 5, 9] {
        for kind in [GridKind::Square, GridKind::Hex] {
            let (mut blue, mut grey) = (Attacker::new(seed), Holder::new(seed ^ 1));
            let game = play(
                &Grid,
                &Scenario::meeting_engagement(seed, kind),
                seed,
                BySide::new(&mut blue as &mut dyn Commander<Grid>, &mut grey),
            )
            .unwrap();
            let b = game.state.battle();
            let text = read(b.victory_report().to_string());
            let turn = format!("Turn {}", b.turn());
            assert!(text.starts_with(&turn), "{text}");
            assert_eq!(
                text.contains(", the game's length has run out:"),
                b.game_over(),
                "{text}"
            );
            for e in &game.log {
                read(e.to_string());
            }
        }
    }
}
