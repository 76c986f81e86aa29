//! Options: GRID-OPT-05, GRID-OPT-06, and loading saved data through the checking constructors.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::Side;
use acw_grid::board::{Board, GridKind};
use acw_grid::combat::CombatPlan;
use acw_grid::error::RuleViolation;
use acw_grid::options::*;
use acw_grid::setup::Scenario;
use acw_grid::state::Phase;
use common::*;

#[test]
fn opt_06_defaults_are_the_default_readings() {
    // GRID-OPT-06: every switch defaults to the reading docs/rulesets/grid.md gives.
    let o = Options::default();
    assert_eq!(o.square_distance, SquareDistance::Manhattan);
    assert_eq!(o.front_arc, FrontArc::Standard);
    assert_eq!(o.hex_flanks, HexFlanks::ThreeSideFront);
    assert_eq!(o.los_tie, LosTie::BothBlock);
    assert_eq!(o.first_turn_tie, FirstTurnTie::Reroll);
    assert_eq!(o.division_roll, DivisionRoll::PerDivision);
    assert!(!o.command_roll_for_rally);
    assert_eq!(o.commander_replacement_turns, None);
    assert_eq!(o.commander_fate, CommanderFate::Escapes);
    assert_eq!(o.commander_cancel, CancelTiming::AfterCover);
    assert!(!o.commander_ground_penalty);
    assert!(!o.cumulative_double_costs);
    assert!(o.commanders_use_roads);
    assert!(!o.strict_formation_change);
    assert!(o.facing_change_is_move);
    assert_eq!(o.attack_front_check, AttackFrontCheck::AllContacted);
    assert!(o.attack_path_in_arc);
    assert_eq!(o.bombarded_for_entrenching, BombardedMeans::Targeted);
    assert!(!o.dismounted_cavalry_entrench);
    assert!(!o.minimum_move);
    assert!(!o.inferior_in_close_fire);
    assert!(o.skirmish_at_engaged);
    assert_eq!(o.skirmish_timing, SkirmishTiming::CombatPhase);
    assert_eq!(o.hill_bonus, HillBonus::Flat);
    assert_eq!(o.bombard_cover_scope, BombardCoverScope::PerTargetPerPhase);
    assert_eq!(o.silenced_rounding, Rounding::Down);
    assert!(!o.superior_and_shock_cumulative);
    assert!(o.clamp_net_modifier);
    assert!(!o.support_every_combat);
    assert!(o.disordered_or_column_support);
    assert_eq!(o.halving_rounding, Rounding::Down);
    assert!(!o.halve_outside_support);
    assert!(!o.stacking_disadvantages);
    assert_eq!(o.flank_test, FlankTest::Positions);
    assert_eq!(o.hit_allocation, HitAllocation::Even);
    assert_eq!(o.hit_comparison, HitComparison::AfterReductions);
    assert_eq!(o.side_morale_dice, SideMoraleDice::PerUnit);
    assert_eq!(o.blocked_retreat, BlockedRetreat::StopAndDisorder);
    assert!(o.rally_after_retreat);
    assert_eq!(o.fractions, FractionMode::RoundDown);
    assert_eq!(o.detached_hit, DetachedHit::StaysWithOriginal);
    assert_eq!(o.no_corps_commander, NoCorpsCommander::SkipCheck);
    assert!(!o.game_master && !o.hidden_units);
    assert_eq!(o.initiative_bonus, None);
}

#[test]
fn opt_06_options_round_trip_and_fill_in_defaults() {
    // GRID-OPT-06: options are data: saved and loaded; missing fields take the defaults; a bad scale is refused.
    let o = opts(|o| {
        o.hex_flanks = HexFlanks::NarrowFront;
        o.fractions = FractionMode::DiceForFraction;
        o.scale = Scale::new(8, 4, 2, 1).unwrap();
    });
    let text = serde_json::to_string(&o).unwrap();
    let back: Options = serde_json::from_str(&text).unwrap();
    assert_eq!(back, o);
    let partial: Options = serde_json::from_str(r#"{"minimum_move": true}"#).unwrap();
    assert!(partial.minimum_move);
    assert_eq!(partial.front_arc, FrontArc::Standard);
    let bad = r#"{"scale": {"stack_limit": 2, "fighting_stands": 3, "dice_per_stand": 2, "inner_support_dice": 1}}"#;
    assert!(serde_json::from_str::<Options>(bad).is_err());
}

#[test]
fn opt_05_game_master() {
    // GRID-OPT-05: with a GM the GM splits combats; without one only the initiative player may.
    let mut b = square();
    let u = put_inf(&mut b, Side::Union, a(5, 5), 3, 0);
    let c = put_inf(&mut b, Side::Confederate, a(5, 6), 3, 2);
    go_to(&mut b, Side::Union, Phase::Combat);
    assert!(b.check_split_author(Some(Side::Union)).is_ok());
    assert!(b.check_split_author(None).is_err());
    set_opt(&mut b, |o| o.game_master = true);
    assert!(b.check_split_author(None).is_ok());
    assert!(matches!(
        b.check_split_author(Some(Side::Union)),
        Err(RuleViolation::BadCombatSplit(_))
    ));
    let plan = CombatPlan {
        combats: Some(vec![acw_grid::combat::Combat {
            centre: c,
            opponents: vec![u],
        }]),
        ..CombatPlan::default()
    };
    assert_eq!(
        b.resolve_combats(&plan, &mut dice(&[1; 12]))
            .unwrap()
            .combats[0]
            .combat
            .centre,
        c
    );
}

#[test]
fn saved_games_load_through_checks() {
    // A saved battle or scenario reloads identically; a board file that breaks the rules is refused.
    let s = Scenario::meeting_engagement(11, GridKind::Hex);
    let text = serde_json::to_string(&s).unwrap();
    let back: Scenario = serde_json::from_str(&text).unwrap();
    assert_eq!(back, s);
    let mut b = s.build().unwrap();
    go_to(&mut b, Side::Union, Phase::FirstMovement);
    let text = serde_json::to_string(&b).unwrap();
    let back: acw_grid::Battle = serde_json::from_str(&text).unwrap();
    assert_eq!(back, b);
    // A unit holding 7 leftover hits cannot be loaded.
    assert!(text.contains(r#""hits":0"#));
    let tampered = text.replacen(r#""hits":0"#, r#""hits":7"#, 1);
    assert!(serde_json::from_str::<acw_grid::Battle>(&tampered).is_err());
    let board_text =
        serde_json::to_string(&Board::rectangle(GridKind::Square, 2, 2).unwrap()).unwrap();
    let broken = board_text.replace(
        r#""roads":[]"#,
        r#""roads":[[{"x":0,"y":0},{"x":1,"y":1}]]"#,
    );
    assert_ne!(broken, board_text);
    assert!(serde_json::from_str::<Board>(&broken).is_err());
}
