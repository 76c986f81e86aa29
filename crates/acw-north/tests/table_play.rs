//! North played through the game driver as people play it at a table: every face thrown and typed in one at a
//! time, the defender asked for its rally and its choice after seeing the die, and one question per unit
//! answering what it may do now.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::dice::{Dice, ScriptedDice};
use acw_core::game::{Commander, Dicing, Game, Owed, Ruleset, Submitted, Throw, play};
use acw_core::measure::Inches;
use acw_core::{BySide, GameRng, Side};
use acw_north::RuleViolation;
use acw_north::bots::{Attacker, Holder};
use acw_north::combat::{AttackGroup, Category, Sight};
use acw_north::game::{North, Order, Question};
use acw_north::morale::{Choice, FallBackFacts, MoraleResponse, MoraleStep};
use acw_north::sequence::Step;
use acw_north::setup::Scenario;
use common::*;

fn bots(side: Side, seed: u64) -> Box<dyn Commander<North>> {
    match side {
        Side::Union => Box::new(Attacker::new(seed)),
        Side::Confederate => Box::new(Holder::new(seed)),
    }
}

#[test]
fn a_whole_game_at_the_table_pauses_for_the_defender_and_matches_the_seeded_game() {
    // NORTH-MOR-01 / NORTH-MOR-05 / NORTH-CMD-09: the defender decides after seeing the morale toss.
    let seed = 1863;
    let scenario = Scenario::default();
    let (mut u, mut c) = (bots(Side::Union, seed), bots(Side::Confederate, seed));
    let seeded = play(&North, &scenario, seed, BySide::new(u.as_mut(), c.as_mut())).unwrap();

    // The person at the table throws real dice; here their faces come from the same generator, in order.
    let mut thrown = GameRng::seed(seed);
    let mut game = Game::new(North, &scenario, seed)
        .unwrap()
        .with_dicing(Dicing::AtTheTable);
    let (mut u, mut c) = (bots(Side::Union, seed), bots(Side::Confederate, seed));
    let mut commanders = BySide::new(u.as_mut(), c.as_mut());
    let (mut throws, mut defender_decisions, mut choices) = (0, 0, 0);
    loop {
        match game.owed() {
            Owed::Over(outcome) => {
                assert_eq!(outcome, seeded.outcome);
                break;
            }
            Owed::Decision(d) => {
                let state = game.state();
                if d.side != state.phasing() {
                    defender_decisions += 1;
                    assert!(matches!(
                        d.question,
                        Question::Rally { .. } | Question::Choice { .. }
                    ));
                    // The defender sees the morale toss before deciding on a rally.
                    if let Question::Rally { face, .. } = &d.question {
                        assert!(face.is_some());
                    }
                    choices += usize::from(matches!(d.question, Question::Choice { .. }));
                }
                let order = commanders[d.side].order(&North, game.state(), d.side);
                game.submit(d.side, order).unwrap();
            }
            Owed::Throw { throw, .. } => {
                let Throw::Face { die, purpose, .. } = &throw else {
                    panic!("North draws no cards")
                };
                assert!(!purpose.is_empty(), "every roll says what it is for");
                let before = game.log().len();
                let face = thrown.face(*die);
                if let Submitted::Waiting(_) = game.throw(face).unwrap() {
                    assert_eq!(
                        game.log().len(),
                        before,
                        "nothing is logged before the last face"
                    );
                }
                throws += 1;
            }
            Owed::Stuck => panic!("stuck"),
        }
    }
    assert_eq!(game.log(), seeded.log.as_slice());
    assert_eq!(game.orders(), seeded.orders);
    // Pinned for this seed: every face of the game typed in one at a time, 36 decisions asked of the side not
    // in its phase (rallies with the toss seen, and 19 choices on 3–4).
    assert_eq!((throws, defender_decisions, choices), (260, 36, 19));
}

#[test]
fn a_throw_names_the_roll_it_is_for() {
    let mut game = Game::new(North, &Scenario::default(), 5)
        .unwrap()
        .with_dicing(Dicing::AtTheTable);
    let (mut u, mut c) = (bots(Side::Union, 5), bots(Side::Confederate, 5));
    let mut commanders = BySide::new(u.as_mut(), c.as_mut());
    // Play until the first attack waits for its combat toss.
    let mut rng = GameRng::seed(5);
    loop {
        match game.owed() {
            Owed::Decision(d) => {
                let order = commanders[d.side].order(&North, game.state(), d.side);
                let attack = matches!(order, Order::Attack { .. });
                let waiting = matches!(game.submit(d.side, order), Ok(Submitted::Waiting(_)));
                if attack && waiting {
                    break;
                }
            }
            Owed::Throw { .. } => {
                let Some(Owed::Throw {
                    throw: Throw::Face { die, .. },
                    ..
                }) = Some(game.owed())
                else {
                    unreachable!()
                };
                game.throw(rng.face(die)).unwrap();
            }
            other => panic!("{other}"),
        }
    }
    let Owed::Throw { throw, .. } = game.owed() else {
        panic!("the attack waits for a die")
    };
    let text = throw.to_string();
    assert!(
        text.starts_with("throw a d6 for the artillery combat toss against "),
        "{text}"
    );
    // A d6 cannot show 7 or 0: refused, and the same die is still wanted.
    assert!(game.throw(7).is_err());
    assert!(game.throw(0).is_err());
    assert_eq!(game.owed().to_string(), format!("Confederate: {text}"));
}

#[test]
fn a_battle_method_with_a_missing_face_changes_nothing() {
    // The Confederate first battery hits (6), but the morale die is never thrown.
    let mut b = battle();
    let gun = id(&b, "CSA 1st Bde, Battery");
    let target = id(&b, "USA 1st Bde, Regt 1");
    skip_to(&mut b, Step::Artillery).unwrap();
    let before = b.clone();
    let group = AttackGroup {
        category: Category::Artillery,
        target,
        attackers: vec![gun],
    };
    let r = b.attack(
        &group,
        &[Sight::clear(Inches(20.0))],
        false,
        &MoraleResponse::default(),
        &mut ScriptedDice::faces([6]),
    );
    assert!(matches!(r, Err(RuleViolation::Dice(_))), "{r:?}");
    assert_eq!(b, before);
    // An impossible face likewise.
    let r = b.attack(
        &group,
        &[Sight::clear(Inches(20.0))],
        false,
        &MoraleResponse::default(),
        &mut ScriptedDice::faces([6, 9]),
    );
    assert!(matches!(r, Err(RuleViolation::Dice(_))), "{r:?}");
    assert_eq!(b, before);
    // With both faces: a hit, and 5 on morale loses a stand and falls back.
    let r = b
        .attack(
            &group,
            &[Sight::clear(Inches(20.0))],
            false,
            &MoraleResponse::default(),
            &mut ScriptedDice::faces([6, 5]),
        )
        .unwrap();
    assert_eq!(r.morale.map(|m| m.face), Some(5));
    assert_eq!(b.unit(target).unwrap().current_stands(), 3);
}

#[test]
fn the_morale_check_waits_for_its_owner_and_nothing_else_happens_meanwhile() {
    // NORTH-MOR-01 / NORTH-MOR-05: the staged check: the hit and the toss, then the owner's choice on 3–4.
    let mut b = battle();
    let gun = id(&b, "CSA 1st Bde, Battery");
    let target = id(&b, "USA 1st Bde, Regt 1");
    skip_to(&mut b, Step::Artillery).unwrap();
    let group = AttackGroup {
        category: Category::Artillery,
        target,
        attackers: vec![gun],
    };
    let report = b
        .open_attack(
            &group,
            &[Sight::clear(Inches(20.0))],
            false,
            FallBackFacts::default(),
            Vec::new(),
            &mut ScriptedDice::faces([6, 3]),
        )
        .unwrap();
    assert!(report.hit && report.morale.is_none());
    // No general is with the regiment, so no rally is asked: the 3 waits for the owner's choice.
    assert_eq!(b.rally_candidates(), Vec::new());
    assert_eq!(b.morale_step(), Some(MoraleStep::Choice));
    assert_eq!(b.morale_in_progress().and_then(|m| m.face), Some(3));
    // Nothing else happens meanwhile, and the wrong decision is refused.
    assert_eq!(b.next_step(), Err(RuleViolation::MoralePending));
    assert_eq!(
        b.end_rallies(&mut ScriptedDice::faces([])),
        Err(RuleViolation::NoMoraleDecision)
    );
    let before = b.clone();
    assert_eq!(
        b.rally(mg_of(&b, target), &mut ScriptedDice::faces([1])),
        Err(RuleViolation::NoMoraleDecision)
    );
    assert_eq!(b, before);
    // The owner falls back rather than lose a stand.
    let m = b
        .choose(Choice::FallBack, &mut ScriptedDice::faces([]))
        .unwrap();
    assert_eq!(m.choice, Some(Choice::FallBack));
    assert_eq!(m.effect.fell_back, Some(Inches(10.0)));
    assert_eq!(b.unit(target).unwrap().current_stands(), 4);
    assert_eq!(b.morale_step(), None);
}

#[test]
fn north_what_a_unit_may_do_agrees_with_what_the_engine_accepts() {
    // NORTH-SEQ-03: State::actions lists every action with its verdict; each verdict matches apply.
    let (mut states, mut checked) = (0, 0);
    for seed in [3, 11] {
        let mut game = Game::new(North, &Scenario::default(), seed).unwrap();
        let (mut u, mut c) = (bots(Side::Union, seed), bots(Side::Confederate, seed));
        let mut commanders = BySide::new(u.as_mut(), c.as_mut());
        let mut n = 0;
        while let Owed::Decision(d) = game.owed() {
            let state = game.state();
            if state.step() == Step::Units && state.battle().morale_step().is_none() && n % 3 == 0 {
                states += 1;
                for unit in state.battle().units_in_play(d.side).map(|u| u.id()) {
                    for choice in state.actions(unit) {
                        let mut copy = state.clone();
                        let order = Order::Act {
                            unit,
                            action: choice.action,
                        };
                        let applied = North.apply(&mut copy, &order, &mut Vec::new());
                        assert_eq!(
                            applied.is_ok(),
                            choice.allowed.is_ok(),
                            "seed {seed}: {:?} of {unit}: listed {:?}, applied {applied:?}",
                            choice.action,
                            choice.allowed
                        );
                        if let (Err(a), Err(b)) = (&applied, &choice.allowed) {
                            assert_eq!(a, b);
                        }
                        checked += 1;
                    }
                }
            }
            n += 1;
            let order = commanders[d.side].order(&North, game.state(), d.side);
            game.submit(d.side, order).unwrap();
        }
    }
    assert!(
        states > 100 && checked > 5000,
        "{states} states, {checked} actions"
    );
}

#[test]
fn lengths_that_are_not_lengths_are_refused() {
    let mut b = battle();
    let gun = id(&b, "CSA 1st Bde, Battery");
    let target = id(&b, "USA 1st Bde, Regt 1");
    skip_to(&mut b, Step::Artillery).unwrap();
    let before = b.clone();
    for bad in [f64::NAN, -1.0, f64::INFINITY] {
        let group = AttackGroup {
            category: Category::Artillery,
            target,
            attackers: vec![gun],
        };
        let r = b.attack(
            &group,
            &[Sight::clear(Inches(bad))],
            false,
            &MoraleResponse::default(),
            &mut ScriptedDice::faces([6, 6]),
        );
        assert!(
            matches!(r, Err(RuleViolation::BadLength(_))),
            "{bad}: {r:?}"
        );
        let ac = b.army_commander(Side::Confederate);
        assert!(matches!(
            b.move_general(ac, Inches(bad), None),
            Err(RuleViolation::BadLength(_))
        ));
        assert_eq!(b, before);
    }
}

#[test]
fn a_narrated_game_reads_as_sentences_with_names_faces_modifiers_and_chances() {
    let mut text = String::new();
    for seed in [1, 5, 9] {
        let (mut u, mut c) = (bots(Side::Union, seed), bots(Side::Confederate, seed));
        let game = play(
            &North,
            &Scenario::default(),
            seed,
            BySide::new(u.as_mut(), c.as_mut()),
        )
        .unwrap();
        // Names do not change during a game, so the final state names every unit and general.
        for e in &game.log {
            let line = game.state.narrate(e).to_string();
            if !line.is_empty() {
                text.push_str(&line);
                text.push('\n');
            }
        }
        text.push_str(&format!("{}\n", game.outcome));
    }
    // No Rust Debug form: no `Name(`, no `{`, no `::`, no raw ids.
    for line in text.lines() {
        let debugish = line.contains('{')
            || line.contains("::")
            || line.contains("Id(")
            || line
                .split(|c: char| !c.is_alphanumeric() && c != '(')
                .any(|w| w.len() > 1 && w.ends_with('(') && w.starts_with(char::is_uppercase));
        assert!(!debugish, "a Debug form in: {line}");
        assert!(!line.contains("moves 0.0\""), "a move of nothing: {line}");
    }
    // What the defender and the generals did, and why a toss came out as it did, are all told.
    for needle in [
        "— Turn 1, the Confederate phase —",
        "tries to rally it",
        "checks morale: tossed",
        "(a hit 33% of the time)",
        "cover −1",
        "its owner chooses",
        "tries to change its orders to Hold: tossed",
        "The game ends on turn 12",
    ] {
        assert!(text.contains(needle), "no {needle:?} in the narration");
    }
}

#[test]
fn north_opt_16_a_general_near_enough_counts_as_with_the_unit() {
    // NORTH-OPT-16 / NORTH-CMD-08: with `with_distance` set, a general standing that close to a unit hit counts as
    // with it and may rally it though he is attached to another unit; by default only the attached general may.
    let rallies = |with: f64| {
        let mut scenario = Scenario::default();
        scenario.options.with_distance = Inches(with);
        let mut game = Game::new(North, &scenario, 1863).unwrap();
        let (mut u, mut c) = (bots(Side::Union, 1863), bots(Side::Confederate, 1863));
        let mut commanders = BySide::new(u.as_mut(), c.as_mut());
        let (mut offered_unattached, mut tried) = (0, 0);
        while let Owed::Decision(d) = game.owed() {
            if let Question::Rally { unit, generals, .. } = &d.question {
                let b = game.state().battle();
                offered_unattached += generals
                    .iter()
                    .filter(|&&g| b.general(g).unwrap().with_unit() != Some(*unit))
                    .count();
            }
            let order = commanders[d.side].order(&North, game.state(), d.side);
            tried += usize::from(matches!(order, Order::Rally { .. }));
            game.submit(d.side, order).unwrap();
        }
        (offered_unattached, tried)
    };
    let (default_offered, default_tried) = rallies(0.0);
    assert_eq!(
        default_offered, 0,
        "by default only the attached general is with a unit"
    );
    let (near_offered, near_tried) = rallies(6.0);
    assert!(
        near_offered > 0,
        "no general within 6\" was offered a rally"
    );
    assert!(
        near_tried > default_tried,
        "rallies tried: {near_tried} within 6\", {default_tried} by default"
    );
}
