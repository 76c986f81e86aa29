//! The procedure catalogue, options by name and the luck of a game, checked against hand-worked odds.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use acw_core::Side;
use acw_core::catalogue::{CatalogueError, OptionError, OptionsByName};
use acw_core::dice::{Dice, Die};
use acw_core::game::{Commander, Ruleset};
use acw_core::luck::{luck_of, rolls_of};
use acw_north::Options;
use acw_north::bots::{Attacker, Holder};
use acw_north::catalogue::catalogue;
use acw_north::game::{Event, North};
use acw_north::options::{ChargeReach, SkirmishScreen};
use acw_north::setup::Scenario;

#[test]
fn every_procedure_rolls_as_its_odds_say() {
    let c = catalogue();
    assert_eq!(c.entries().len(), 10);
    c.check_every_entry(acw_core::testing::DEFAULT_SAMPLES)
        .unwrap();
}

#[test]
fn a_whole_attack_by_hand() {
    // One unit fires at a deployed regiment of 4 stands in the open: a hit on 5-6 (1/3); the morale die then
    // 1-2 rallies, 3-4 loses a stand (the owner's default choice when the loss does not remove the unit), 5-6
    // loses a stand and falls back: 1/3 · 1/3 = 1/9 each.
    let t = catalogue().build("attack", "").unwrap().table();
    assert_eq!(t.rows().len(), 4);
    assert!((t.p("no hit") - 2.0 / 3.0).abs() < 1e-12);
    assert!((t.p("hit, the target rallies") - 1.0 / 9.0).abs() < 1e-12);
    assert!((t.p("hit, a stand lost") - 1.0 / 9.0).abs() < 1e-12);
    assert!((t.p("hit, a stand lost and a fall-back") - 1.0 / 9.0).abs() < 1e-12);
    // With 3 stands a loss removes the regiment: 3-4 falls back instead, 5-6 removes it.
    let t = catalogue().build("attack", "stands=3").unwrap().table();
    assert!((t.p("hit, the target falls back") - 1.0 / 9.0).abs() < 1e-12);
    assert!((t.p("hit, the target removed") - 1.0 / 9.0).abs() < 1e-12);
    // Three units together (+2): 3+ hits, 4/6; behind cover −1: 4+, 1/2.
    let t = catalogue()
        .build("combat-toss", "attackers=3 cover=true")
        .unwrap()
        .table();
    assert!((t.p("hit") - 0.5).abs() < 1e-12);
    // A rally from a melee hit: 1, 2, 3 subtract; 4 no effect; 5 captured; 6 killed.
    let t = catalogue()
        .build("rally-toss", "melee=true")
        .unwrap()
        .table();
    assert!((t.p("general captured") - 1.0 / 6.0).abs() < 1e-12);
    assert!((t.p("no effect") - 1.0 / 6.0).abs() < 1e-12);
}

#[test]
fn bad_parameters_are_refused() {
    let c = catalogue();
    assert!(matches!(
        c.build("attack", "stands=6"),
        Err(CatalogueError::BadValue { .. })
    ));
    assert_eq!(
        c.build("attack", "attackers=1 mounted_attackers=2")
            .unwrap_err()
            .to_string(),
        "attack cannot be built with these parameters: mounted_attackers is 2, more than the 1 attackers"
    );
    assert!(matches!(
        c.build("attack", "target_artillery=true stands=4"),
        Err(CatalogueError::Refused { .. })
    ));
    assert!(matches!(
        c.build("volley", ""),
        Err(CatalogueError::UnknownProcedure { .. })
    ));
}

#[test]
fn every_option_is_settable_by_name() {
    let list = Options::options();
    assert_eq!(list.len(), 45);
    let turn = list.iter().find(|o| o.name == "turn_limit").unwrap();
    assert_eq!(turn.default, "12");
    let mut o = Options::default();
    o.set_pair("skirmish_screen=as-cover").unwrap();
    o.set_pair("charge_reach=8").unwrap();
    o.set_pair("first_side=union").unwrap();
    o.set_pair("turn_limit=none").unwrap();
    assert_eq!(o.skirmish_screen, SkirmishScreen::AsCover);
    assert_eq!(
        o.charge_reach,
        ChargeReach::FixedInches(acw_core::measure::Inches(8.0))
    );
    assert_eq!(o.first_side, Side::Union);
    assert_eq!(o.turn_limit, None);
    let before = o.clone();
    assert!(matches!(
        o.set_pair("fire_arc_degrees=200"),
        Err(OptionError::Refused { .. })
    ));
    assert!(matches!(
        o.set_pair("skirmish_screen=sideways"),
        Err(OptionError::BadValue { .. })
    ));
    assert_eq!(o, before);
}

/// Dice that always show their highest face.
struct Sixes;

impl Dice for Sixes {
    fn face(&mut self, die: Die) -> u16 {
        die.sides()
    }
    fn index(&mut self, _n: usize) -> usize {
        0
    }
}

#[test]
fn luck_of_a_game_of_sixes() {
    // Every die a 6: every combat toss hits (the best result for the attacker), every morale die reads 5-6
    // or worse (the worst for the unit checking), every accomplishment toss fails, every order change
    // succeeds.
    let scenario = Scenario::default();
    let mut state = North.setup(&scenario, 7).unwrap();
    let mut log: Vec<Event> = Vec::new();
    let mut bots: [Box<dyn Commander<North>>; 2] =
        [Box::new(Attacker::new(7)), Box::new(Holder::new(8))];
    for _ in 0..3000 {
        let Some(side) = North.to_order(&state) else {
            break;
        };
        let bot = &mut bots[usize::from(side == Side::Confederate)];
        let order = bot.order(&North, &state, side);
        North
            .apply_with(&mut state, &order, &mut Sixes, &mut log)
            .unwrap();
    }
    let attacks = log
        .iter()
        .filter(|e| matches!(e, Event::Attack { report, .. } if report.face.is_some()))
        .count();
    let morale = log
        .iter()
        .filter(|e| matches!(e, Event::Morale { .. }))
        .count();
    assert!(
        attacks > 0 && morale > 0,
        "{attacks} attacks, {morale} checks"
    );
    let rolls = rolls_of(&log);
    // Each hit scores 1 - P(hit)/2; each morale die 5-6 scores P(5-6)/2 = 1/6 unmodified.
    let mut best = 0;
    let mut worst = 0;
    for r in &rolls {
        if (r.at_least_as_good - r.exactly).abs() < 1e-12 {
            best += 1;
        }
        if (r.at_least_as_good - 1.0).abs() < 1e-12 && r.exactly < 1.0 {
            worst += 1;
        }
    }
    assert_eq!(
        best + worst,
        rolls.len(),
        "every roll is the best or the worst"
    );
    assert!(best >= attacks && worst >= morale);
    let luck = luck_of(&log);
    assert_eq!(
        luck.union.rolls + luck.confederate.rolls,
        u32::try_from(rolls.len()).unwrap()
    );
    let mean = |side: Side| {
        let mine: Vec<f64> = rolls
            .iter()
            .filter(|r| r.side == side)
            .map(|r| 1.0 - r.at_least_as_good + r.exactly / 2.0)
            .collect();
        mine.iter().sum::<f64>() / mine.len() as f64
    };
    assert!((luck.union.index - mean(Side::Union)).abs() < 1e-12);
    assert!((luck.confederate.index - mean(Side::Confederate)).abs() < 1e-12);
}

#[test]
fn luck_of_a_written_log() {
    use acw_north::UnitId;
    use acw_north::combat::{AttackReport, Category, ModifierBreakdown};
    // The Union's phase: one hit at 5+ (1/3) scores 1 - 1/6 = 5/6; a miss at 5+ scores 1 - 1 + (2/3)/2 = 1/3.
    let attack = |hit_sixths: u8, hit: bool| Event::Attack {
        category: Category::Musketry,
        target: UnitId(20),
        attackers: vec![UnitId(1)],
        cover: false,
        report: AttackReport {
            modifiers: ModifierBreakdown::default(),
            face: Some(if hit { 6 } else { 1 }),
            hit_sixths,
            hit,
            morale: None,
        },
    };
    let log = vec![
        Event::PhaseBegan {
            turn: 1,
            side: Side::Union,
        },
        attack(2, true),
        attack(2, false),
    ];
    let luck = luck_of(&log);
    assert_eq!(luck.union.rolls, 2);
    assert!((luck.union.index - 7.0 / 12.0).abs() < 1e-12);
    assert_eq!(luck.confederate.rolls, 0);
}
