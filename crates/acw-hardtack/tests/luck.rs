//! The luck of a game: the chance every rolling event carries, checked on scripted games against odds worked
//! out by hand, and the luck index over them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use acw_core::Side;
use acw_core::dice::ScriptedDice;
use acw_core::game::Ruleset;
use acw_core::luck::luck_of;
use acw_core::measure::{Heading, Inches, Point};
use acw_core::table::{Table, Terrain};
use acw_hardtack::game::{Deployed, Event, Hardtack, Order, Scenario, State};
use acw_hardtack::state::{CompanySpec, Formation};
use acw_hardtack::{CompanyId, Options};

/// A Union line of eight 4" in front of a Confederate line of eight on an open table.
fn face_to_face() -> State {
    face_to_face_on(Table::new(Inches(48.0), Inches(36.0), vec![]).unwrap())
}

/// The same with the Confederates in a wood whose edge lies 7" behind them.
fn face_to_face_by_a_wood() -> State {
    let wood = Terrain::woods(
        "the wood",
        vec![
            Point::new(10.0, 16.5),
            Point::new(38.0, 16.5),
            Point::new(38.0, 25.0),
            Point::new(10.0, 25.0),
        ],
    )
    .unwrap();
    face_to_face_on(Table::new(Inches(48.0), Inches(36.0), vec![wood]).unwrap())
}

fn face_to_face_on(table: Table) -> State {
    let mut companies = Vec::new();
    for (side, name, y) in [
        (Side::Union, "19th Indiana, Company A", 14.0),
        (Side::Confederate, "2nd Tennessee, Company F", 18.0),
    ] {
        let mut spec = CompanySpec::new(name, side, 8);
        spec.formation = Formation::Line;
        companies.push(Deployed {
            spec,
            at: Point::new(24.0, y),
        });
    }
    let scenario = Scenario {
        name: "Face to face".to_string(),
        turns: 3,
        table,
        companies,
        guns: Vec::new(),
        dummies: Vec::new(),
        colonels: Vec::new(),
        options: Options::default(),
    };
    Hardtack.setup(&scenario, 1).unwrap()
}

fn apply(state: &mut State, order: Order, faces: &[u16], log: &mut Vec<Event>) {
    let mut dice = ScriptedDice::faces(faces.to_vec());
    Hardtack
        .apply_with(state, &order, &mut dice, log)
        .unwrap_or_else(|e| panic!("{order:?} refused: {e}"));
    assert_eq!(dice.remaining(), 0, "every scripted face is used");
}

/// The Union goes first and assaults, passing its test with a D8's 8; the Confederate line stands and fails
/// its stand test with a 1, losing two levels (Shaken) and withdrawing straight back; then it activates.
fn stand_broken(state: &mut State) -> Vec<Event> {
    let mut log = Vec::new();
    apply(state, Order::GoFirst(Side::Union), &[], &mut log);
    apply(state, Order::Activate(CompanyId(0)), &[], &mut log);
    let assault = Order::Assault {
        defender: CompanyId(1),
    };
    apply(state, assault, &[8], &mut log);
    let stand = Order::Defend {
        stand: true,
        final_fire: false,
    };
    apply(state, stand, &[1], &mut log);
    // its side chooses the way back: straight away from the attacker, due north
    apply(state, Order::Withdraw(Heading::NORTH), &[], &mut log);
    apply(state, Order::Activate(CompanyId(1)), &[], &mut log);
    log
}

/// Every event that carries a chance, with it.
fn chances(log: &[Event]) -> Vec<(Side, f64)> {
    log.iter()
        .filter_map(|e| match e {
            Event::Fired { chance, .. }
            | Event::Moved { chance, .. }
            | Event::Rallied { chance, .. }
            | Event::AssaultDeclared { chance, .. } => chance.map(|c| (c.side, c.exactly)),
            _ => None,
        })
        .collect()
}

/// The Union's dice all come up worst and the Confederates' all best: the Union's fire misses with the
/// highest range die and the lowest firer's dice, the Confederate assault test shows its highest face. The
/// events carry the chances of those results, and the luck index places each at its mid-rank.
#[test]
fn worst_dice_for_the_union_and_best_for_the_confederates() {
    let mut state = face_to_face();
    let mut log = Vec::new();
    apply(&mut state, Order::GoFirst(Side::Union), &[], &mut log);
    apply(&mut state, Order::Activate(CompanyId(0)), &[], &mut log);
    // A Regular line of eight 3" away: range die D4, quality D8 and firepower D10. It fails when neither die
    // beats the range roll r: (1/4)·Σ (r/8)(r/10) for r = 1..4 = 30/320 = 3/32.
    apply(
        &mut state,
        Order::Fire {
            target: CompanyId(1),
        },
        &[4, 1, 1],
        &mut log,
    );
    apply(&mut state, Order::EndActivation, &[], &mut log);
    apply(&mut state, Order::Activate(CompanyId(1)), &[], &mut log);
    // The assault test of a Confident line, LV 2: its D8 must beat 2 + 0 − 1 (close formation) = 1, so 7/8.
    apply(
        &mut state,
        Order::Assault {
            defender: CompanyId(0),
        },
        &[8],
        &mut log,
    );
    // The Union withdraws: no die.
    apply(
        &mut state,
        Order::Defend {
            stand: false,
            final_fire: false,
        },
        &[],
        &mut log,
    );
    let chances = chances(&log);
    assert_eq!(chances.len(), 2, "{chances:?}");
    assert_eq!(chances[0].0, Side::Union);
    assert!((chances[0].1 - 3.0 / 32.0).abs() < 1e-12);
    assert_eq!(chances[1].0, Side::Confederate);
    assert!((chances[1].1 - 7.0 / 8.0).abs() < 1e-12);
    let text: Vec<String> = log.iter().map(ToString::to_string).collect();
    assert!(
        text.iter()
            .any(|t| t.contains("(dice: D4 showed 4, D8 showed 1, D10 showed 1), with a chance of 9.4% of that fire result")),
        "{text:#?}"
    );
    assert!(
        text.iter().any(|t| t.ends_with(
            "declares a close assault on 19th Indiana, Company A and passes its test (dice: D8 showed 8), with a chance of 87.5% of passing."
        )),
        "{text:#?}"
    );
    // The worst result scores half its own chance, 3/64; the best 1 − (7/8)/2 = 9/16.
    let luck = luck_of(&log);
    assert_eq!(luck.union.rolls, 1);
    assert!((luck.union.index - 3.0 / 64.0).abs() < 1e-12);
    assert_eq!(luck.confederate.rolls, 1);
    assert!((luck.confederate.index - 9.0 / 16.0).abs() < 1e-12);
}

/// A saved log reads back with the same chances, so `acw luck` on a saved log agrees with the game.
#[test]
fn a_saved_log_keeps_its_luck() {
    let mut state = face_to_face();
    let mut log = Vec::new();
    apply(&mut state, Order::GoFirst(Side::Union), &[], &mut log);
    apply(&mut state, Order::Activate(CompanyId(0)), &[], &mut log);
    apply(
        &mut state,
        Order::Fire {
            target: CompanyId(1),
        },
        &[4, 1, 1],
        &mut log,
    );
    let json: Vec<String> = log
        .iter()
        .map(|e| serde_json::to_string(e).unwrap())
        .collect();
    let back: Vec<Event> = json
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(back, log);
    assert_eq!(luck_of(&back), luck_of(&log));
}

/// A fire's confidence test counts for the side of the company testing. The Union's D8 beats the range roll
/// and its D10 does not: a minor result, with a chance of (1/4)·Σ ((8−r)/8·r/10 + r/8·(10−r)/10) = 120/320 =
/// 3/8, and at least as good 1 − 3/32 = 29/32, so it scores 1 − 29/32 + 3/16 = 9/32. The Confederate line
/// tests at TL 0 − 1 (close formation): its D8 must beat LV 2 − 1 = 1, and a 1 loses one level (two levels
/// would need half of 1 or less): 1/8, the worst result there is, scoring 1/16.
#[test]
fn a_fires_confidence_test_counts_for_the_side_testing() {
    let mut state = face_to_face();
    let mut log = Vec::new();
    apply(&mut state, Order::GoFirst(Side::Union), &[], &mut log);
    apply(&mut state, Order::Activate(CompanyId(0)), &[], &mut log);
    apply(
        &mut state,
        Order::Fire {
            target: CompanyId(1),
        },
        &[4, 5, 1, 1],
        &mut log,
    );
    let Some(Event::Fired { chance, tests, .. }) = log.last() else {
        panic!("{log:?}");
    };
    let chance = chance.unwrap();
    assert_eq!(chance.side, Side::Union);
    assert!((chance.exactly - 3.0 / 8.0).abs() < 1e-12);
    assert_eq!(tests.len(), 1);
    assert_eq!(tests[0].side, Side::Confederate);
    assert!((tests[0].exactly - 1.0 / 8.0).abs() < 1e-12);
    let text = log.last().unwrap().to_string();
    assert!(
        text.ends_with("now Steady (the confidence test's result had a chance of 12.5%)"),
        "{text}"
    );
    let luck = luck_of(&log);
    assert!((luck.union.index - 9.0 / 32.0).abs() < 1e-12);
    assert!((luck.confederate.index - 1.0 / 16.0).abs() < 1e-12);
}

/// The defender's stand test and a rally carry their chances. The Confederate line stands against a close
/// assault at TL 1 (8 attackers to 8 defenders): its D8 must beat LV 2 + 1 = 3, and a 1 (half of 3 or less)
/// loses two levels — 1/8, the worst result, scoring 1/16. Shaken, it rallies itself: its D8 must beat LV 2
/// plus the rallier's LV 2, so 5 passes with a chance of 1/2, scoring 1 − 1/2 + 1/4 = 3/4. The Confederate
/// index is the mean, 13/32; the Union's assault test, passed with its best face, scores 1 − 7/16 = 9/16.
#[test]
fn a_stand_test_and_a_rally_carry_their_chances() {
    let mut state = face_to_face();
    let mut log = stand_broken(&mut state);
    apply(
        &mut state,
        Order::Rally {
            target: CompanyId(1),
        },
        &[5],
        &mut log,
    );
    let text: Vec<String> = log.iter().map(ToString::to_string).collect();
    assert!(
        text.iter().any(|t| t.ends_with(
            "is now Shaken and withdraws (dice: D8 showed 1) (the confidence test's result had a chance of 12.5%)."
        )),
        "{text:#?}"
    );
    assert!(
        text.iter().any(|t| t.ends_with(
            "passing its test, which is now Steady (dice: D8 showed 5), with a chance of 50.0% of passing."
        )),
        "{text:#?}"
    );
    let luck = luck_of(&log);
    assert_eq!(luck.union.rolls, 1);
    assert!((luck.union.index - 9.0 / 16.0).abs() < 1e-12);
    assert_eq!(luck.confederate.rolls, 2);
    assert!((luck.confederate.index - 13.0 / 32.0).abs() < 1e-12);
}

/// A move's reaction test carries its chance. The Confederate line in the wood fails its stand test (a 1:
/// Shaken, 1/8, scoring 1/16) and falls back 6", still in the wood; it then moves 2" out of it. A Shaken company
/// leaving cover tests at TL 2 − 1 (close formation): its D8 must beat LV 2 + 1 = 3, so it fails on 1–3, 3/8,
/// scoring 3/16. The Confederate index is the mean, 1/8.
#[test]
fn a_moves_reaction_test_carries_its_chance() {
    let mut state = face_to_face_by_a_wood();
    let mut log = stand_broken(&mut state);
    assert_eq!(
        state.field().footprint(CompanyId(1)).unwrap().centre,
        Point::new(24.0, 24.0)
    );
    apply(
        &mut state,
        Order::Move {
            to: Point::new(24.0, 26.0),
        },
        &[2],
        &mut log,
    );
    let Some(Event::Moved { moved, chance, .. }) = log.last() else {
        panic!("{log:?}");
    };
    assert!(!moved);
    assert!((chance.unwrap().exactly - 3.0 / 8.0).abs() < 1e-12);
    assert_eq!(
        log.last().unwrap().to_string(),
        "2nd Tennessee, Company F fails its test and stays put (dice: D8 showed 2), with a chance of 37.5% of failing."
    );
    let luck = luck_of(&log);
    assert_eq!(luck.confederate.rolls, 2);
    assert!((luck.confederate.index - 1.0 / 8.0).abs() < 1e-12);
}

/// A fire's impact dice carry the chance of the casualties they gave, from the exact odds of the volley's
/// casualties (`fire::Volley`). The Union line's D8 and D10 both show 2 against a range D4's 1: a major result,
/// 2 + 2 = 4 over the D4's 4 faces, one potential hit, no remainder. The hit falls on the Confederates' fifth
/// figure (D8: 5) and its armour D4 shows 3 against the musket's impact D6's 4: more than 3, less than twice 3,
/// a wound. Over the D4 and the D6 (24 pairs) a hit does nothing on 1+2+3+4 = 10, kills (impact at least twice
/// the armour) on 5+3+1+0 = 9 and wounds on 0+1+2+2 = 5: one figure wounded has a chance of 5/24 (20.8%), and
/// a result at least as good for the Union (a wound or a kill) 14/24.
#[test]
fn a_fires_impact_dice_carry_their_chance() {
    let mut state = face_to_face();
    let mut log = Vec::new();
    apply(&mut state, Order::GoFirst(Side::Union), &[], &mut log);
    apply(&mut state, Order::Activate(CompanyId(0)), &[], &mut log);
    apply(
        &mut state,
        Order::Fire {
            target: CompanyId(1),
        },
        &[1, 2, 2, 5, 3, 4, 8],
        &mut log,
    );
    let Some(Event::Fired { impact, .. }) = log.last() else {
        panic!("{log:?}");
    };
    let impact = impact.unwrap();
    assert_eq!(impact.side, Side::Union);
    assert!((impact.exactly - 5.0 / 24.0).abs() < 1e-12);
    assert!((impact.at_least_as_good - 14.0 / 24.0).abs() < 1e-12);
    let text = log.last().unwrap().to_string();
    assert!(
        text.contains("of that fire result and of 20.8% of those casualties. "),
        "{text}"
    );
    assert!(text.contains("0 killed, 1 wounded"), "{text}");
}

/// An assault's combat moves and final defensive fire carry the chances of their results. The Union line
/// (eight, LV 2) assaults the Confederate line 3" off (between fronts) and passes its test (D8: 8); the
/// Confederates stand (D8: 8 beats LV 2 + TL 1) with final defensive fire. The Union's combat move, a line's
/// D4 (the infantry D6 one down), carries it 2" a pip: a 1 leaves it 2" short, with a chance of 1/4 (25.0%),
/// the worst result. The Confederates' final fire, range D4 against their quality D8 and firepower D8 (the
/// attackers, disordered by their move, bring no formation shift to spill onto it), shows 4 against 1 and 1:
/// no die beats the range, a chance of Σ_r (r/8)²/4 = 30/256 (11.7%). With no one hit the Union
/// goes on: its second move needs 1" and any face reaches it, a chance of 1 (100.0%). The melee follows.
#[test]
fn an_assaults_moves_and_final_fire_carry_their_chances() {
    let mut state = face_to_face();
    let mut log = Vec::new();
    apply(&mut state, Order::GoFirst(Side::Union), &[], &mut log);
    apply(&mut state, Order::Activate(CompanyId(0)), &[], &mut log);
    let assault = Order::Assault {
        defender: CompanyId(1),
    };
    apply(&mut state, assault, &[8], &mut log);
    let stand = Order::Defend {
        stand: true,
        final_fire: true,
    };
    // the stand test, the first move, the final fire, the second move, then faces enough for the melee
    let mut faces = vec![8, 1, 4, 1, 1, 1];
    faces.extend(std::iter::repeat_n(3, 2000));
    let mut dice = ScriptedDice::faces(faces);
    Hardtack
        .apply_with(&mut state, &stand, &mut dice, &mut log)
        .unwrap();
    let Some(Event::Assault { chances, .. }) = log
        .iter()
        .rev()
        .find(|e| matches!(e, Event::Assault { .. }))
    else {
        panic!("{log:?}");
    };
    let got: Vec<(&str, Side, f64)> = chances
        .iter()
        .map(|c| (c.roll.as_str(), c.chance.side, c.chance.exactly))
        .collect();
    assert_eq!(got.len(), 4, "{got:?}");
    assert_eq!(got[0], ("a combat move", Side::Union, 0.25));
    assert_eq!(
        (got[1].0, got[1].1),
        ("the final defensive fire", Side::Confederate)
    );
    assert!((got[1].2 - 30.0 / 256.0).abs() < 1e-12, "{got:?}");
    assert_eq!(got[2], ("a combat move", Side::Union, 1.0));
    assert_eq!((got[3].0, got[3].1), ("the melee", Side::Union));
    // a stalemate with no one down: neither the best nor the worst the melee could give
    assert!(got[3].2 > 0.0 && got[3].2 < 1.0, "{got:?}");
    let text = log
        .iter()
        .rev()
        .find(|e| matches!(e, Event::Assault { .. }))
        .unwrap()
        .to_string();
    assert!(
        text.contains(
            "(the other rolls' results had chances of 25.0% (a combat move), 11.7% (the final defensive fire), 100.0% (a combat move) and "
        ),
        "{text}"
    );
}

/// The reaction test of an attacker hit by final defensive fire carries its chance (HT-MEL-07: +1 a casualty).
/// As above, the Union line assaults and is 2" short after its first move (D4: 1). The Confederates' final fire
/// shows 1 on the range D4 and 2 and 2 on their D8s: both beat it, a major result, 2 + 2 = 4 over the D4's 4
/// faces, one potential hit. It falls on the fifth figure (D8: 5), whose armour D4 shows 1 against the
/// musket's D6 6: a kill. The Union line passes its casualty test (D8: 8), then takes the reaction test, its
/// quality D8 against LV 2 + TL 1 (one casualty): 4 passes, as every face of 4 to 8 would, a chance of 5/8
/// (62.5%) for the Union; it goes on.
#[test]
fn the_reaction_test_after_final_fire_carries_its_chance() {
    let mut state = face_to_face();
    let mut log = Vec::new();
    apply(&mut state, Order::GoFirst(Side::Union), &[], &mut log);
    apply(&mut state, Order::Activate(CompanyId(0)), &[], &mut log);
    let assault = Order::Assault {
        defender: CompanyId(1),
    };
    apply(&mut state, assault, &[8], &mut log);
    let stand = Order::Defend {
        stand: true,
        final_fire: true,
    };
    // the stand test, the first move, the final fire (range, quality, firepower), the hit (allocation,
    // armour, impact), the casualty test, the reaction test, then the second move and the melee
    let mut faces = vec![8, 1, 1, 2, 2, 5, 1, 6, 8, 4];
    faces.extend(std::iter::repeat_n(3, 2000));
    let mut dice = ScriptedDice::faces(faces);
    Hardtack
        .apply_with(&mut state, &stand, &mut dice, &mut log)
        .unwrap();
    let assault = log
        .iter()
        .rev()
        .find(|e| matches!(e, Event::Assault { .. }))
        .unwrap();
    let Event::Assault { chances, .. } = assault else {
        unreachable!()
    };
    let names: Vec<&str> = chances.iter().map(|c| c.roll.as_str()).collect();
    assert_eq!(
        names,
        [
            "a combat move",
            "the final defensive fire",
            "its casualties",
            "the reaction test after the final defensive fire",
            "a combat move",
            "the melee"
        ]
    );
    let reaction = chances[3].chance;
    assert_eq!(reaction.side, Side::Union);
    assert_eq!(reaction.exactly, 5.0 / 8.0);
    assert_eq!(reaction.at_least_as_good, 5.0 / 8.0);
    let text = assault.to_string();
    assert!(
        text.contains(
            "62.5% (the reaction test after the final defensive fire), 100.0% (a combat move)"
        ),
        "{text}"
    );
}
