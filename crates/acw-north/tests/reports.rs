//! What a person reads of a report the battle returns: each report's `Display` as an exact sentence, on
//! reports the engine produced from scripted dice, and no Rust `Debug` form in any report of whole games.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::game::{Commander, play};
use acw_core::measure::Inches;
use acw_core::{BySide, Side};
use acw_north::bots::{Attacker, Holder};
use acw_north::combat::{AttackGroup, Category, Sight};
use acw_north::game::{Event, North};
use acw_north::melee::ChargeOrder;
use acw_north::morale::MoraleResponse;
use acw_north::movement::{MoveDirection, MoveOrder};
use acw_north::sequence::Step;
use acw_north::setup::Scenario;
use acw_north::tables::{BrigadeOrder, Formation};
use common::*;

/// Whether `text` shows a Rust `Debug` form: a struct or tuple form, `Some(`, a raw id, a path.
fn debugish(text: &str) -> bool {
    text.contains('{')
        || text.contains("::")
        || text.contains("Id(")
        || text.contains("Some(")
        || text.contains("None")
        || text
            .split(|c: char| !c.is_alphanumeric() && c != '(')
            .any(|w| w.len() > 1 && w.ends_with('(') && w.starts_with(char::is_uppercase))
}

#[test]
fn a_clock_reads_as_the_turn_the_phase_and_the_step() {
    let mut b = battle();
    assert_eq!(
        b.clock().to_string(),
        "Turn 1, the Confederate phase, the command step."
    );
    goto(&mut b, Side::Union, Step::Artillery);
    assert_eq!(
        b.clock().to_string(),
        "Turn 1, the Union phase, the artillery step."
    );
}

#[test]
fn an_order_change_reads_as_the_toss_its_need_and_the_order_after() {
    let mut b = battle();
    let (first, second) = (
        brigade_of(&b, id(&b, "USA 1st Bde, Regt 1")),
        brigade_of(&b, id(&b, "USA 2nd Bde, Regt 1")),
    );
    goto(&mut b, Side::Union, Step::Command);
    let changed = b
        .attempt_order_change(first, BrigadeOrder::Hold, &mut dice([5]))
        .unwrap();
    assert_eq!(
        changed.to_string(),
        "The order change: tossed 5, needing 5 or 6 (a 33% chance) — the orders change; now Hold."
    );
    let stood = b
        .attempt_order_change(second, BrigadeOrder::Hold, &mut dice([4]))
        .unwrap();
    assert_eq!(
        stood.to_string(),
        "The order change: tossed 4, needing 5 or 6 (a 33% chance) — the orders stand; now Advance."
    );
}

#[test]
fn an_attack_reads_as_its_modifiers_toss_chance_and_the_morale_check_it_caused() {
    let mut b = battle();
    let gun = id(&b, "CSA 1st Bde, Battery");
    let target = id(&b, "USA 1st Bde, Regt 1");
    skip_to(&mut b, Step::Artillery).unwrap();
    let group = AttackGroup {
        category: Category::Artillery,
        target,
        attackers: vec![gun],
    };
    // Beyond 24" the artillery toss takes −1 and hits only on a 6 (1 in 6); the hit's morale toss is a 2.
    let r = b
        .attack(
            &group,
            &[Sight::clear(Inches(30.0))],
            false,
            &MoraleResponse::default(),
            &mut dice([6, 2]),
        )
        .unwrap();
    assert_eq!(
        r.to_string(),
        "The attack: artillery beyond 24\" −1; tossed 6 (a hit 17% of the time) — a hit. \
         The target checks morale: tossed 2 — it holds."
    );
}

#[test]
fn a_morale_check_reads_as_the_toss_the_rallies_the_generals_lost_and_the_result() {
    let mut b = battle();
    let ac = b.army_commander(Side::Union);
    let unit = b.general(ac).unwrap().with_unit().unwrap();
    let r = killed_rallying(&mut b, ac, unit, 1);
    assert_eq!(ac, acw_north::state::GeneralId(0));
    assert_eq!(
        r.to_string(),
        "The unit checks morale: tossed 1; general 0 tries to rally it: he is killed — it holds."
    );
    // A lost MG's brigade checks its orders: rally 6 kills him, order check 1 (+1 from Advance: Withdraw).
    let mut b = battle();
    let u = id(&b, "USA 1st Bde, Regt 1");
    let mg = mg_of(&b, u);
    let br = brigade_of(&b, u);
    goto(&mut b, Side::Union, Step::Command);
    b.move_general(mg, Inches(5.0), Some(u)).unwrap();
    let r = killed_rallying(&mut b, mg, u, 1);
    assert_eq!(
        r.to_string(),
        format!(
            "The unit checks morale: tossed 1; {mg} tries to rally it: he is killed, and his brigade must \
             check its orders; {br}, its general lost, checks its orders: now Withdraw — it holds."
        )
    );
}

#[test]
fn a_charge_reads_as_its_toss_and_what_came_of_it() {
    let mut b = battle();
    let c = id(&b, "CSA 1st Bde, Regt 1");
    let target = id(&b, "USA 1st Bde, Regt 1");
    skip_to(&mut b, Step::Units).unwrap();
    let order = ChargeOrder {
        distance: Inches(3.0),
        ..ChargeOrder::default()
    };
    let mut failed = b.clone();
    let r = b.attempt_charge(c, target, order, &mut dice([1])).unwrap();
    assert_eq!(r.to_string(), "The charge: tossed 1, passed — contact!");
    let r = failed
        .attempt_charge(c, target, order, &mut dice([6]))
        .unwrap();
    assert_eq!(
        r.to_string(),
        "The charge: tossed 6, failed — the charge falters. It may still make its ordered move, but not \
         into contact."
    );
}

#[test]
fn a_move_and_an_action_read_as_what_the_unit_did() {
    let mut b = battle();
    let u = id(&b, "CSA 1st Bde, Regt 1");
    let v = id(&b, "CSA 1st Bde, Regt 2");
    skip_to(&mut b, Step::Units).unwrap();
    let toward = MoveOrder {
        distance: Inches(5.0),
        direction: Some(MoveDirection::TowardEnemy),
        ..MoveOrder::default()
    };
    let r = b.move_unit(u, &toward, &mut dice([])).unwrap();
    assert_eq!(r.to_string(), "The unit moves 5.0\".");
    let mut failed = b.clone();
    let r = b
        .attempt_formation_change(v, Formation::Column, &mut dice([1]))
        .unwrap();
    assert_eq!(r.to_string(), "Tossed 1 — done.");
    let r = failed
        .attempt_formation_change(v, Formation::Column, &mut dice([6]))
        .unwrap();
    assert_eq!(
        r.to_string(),
        "Tossed 6 — it fails. It may still make its ordered move."
    );
}

#[test]
fn a_side_report_reads_as_what_is_left_and_what_is_lost() {
    let mut b = battle();
    assert_eq!(
        b.report(Side::Union).to_string(),
        "14 units in play with 50 of 50 stands (0 lost); no unit out, no general lost, no gun abandoned, \
         no gun captured."
    );
    let ac = b.army_commander(Side::Union);
    let with = b.general(ac).unwrap().with_unit().unwrap();
    killed_rallying(&mut b, ac, with, 1);
    assert_eq!(
        b.report(Side::Union).to_string(),
        "14 units in play with 50 of 50 stands (0 lost); no unit out, 1 general lost, no gun abandoned, \
         no gun captured."
    );
}

#[test]
fn no_report_of_whole_games_shows_a_debug_form() {
    let mut seen = 0;
    for seed in [1, 5, 9] {
        let (mut blue, mut grey) = (Attacker::new(seed), Holder::new(seed ^ 1));
        let game = play(
            &North,
            &Scenario::default(),
            seed,
            BySide::new(&mut blue as &mut dyn Commander<North>, &mut grey),
        )
        .unwrap();
        let b = game.state.battle();
        let mut text = vec![b.clock().to_string()];
        text.extend([Side::Union, Side::Confederate].map(|s| b.report(s).to_string()));
        for e in &game.log {
            text.push(match e {
                Event::OrderToss { report, .. } => report.to_string(),
                Event::Moved { report, .. } => report.to_string(),
                Event::Tried { report, .. } => report.to_string(),
                Event::Charged { report, .. } => report.to_string(),
                Event::Attack { report, .. } => report.to_string(),
                Event::Morale { report, .. } => report.to_string(),
                _ => continue,
            });
        }
        for line in &text {
            assert!(!debugish(line), "a Debug form in: {line}");
        }
        seen += text.len();
    }
    assert!(seen > 300, "only {seen} reports");
}
