//! Artillery: canister with blast-through, round shot with deviation and bounces, in the engine.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use acw_core::Side;
use acw_core::dice::ScriptedDice;
use acw_hardtack::DieType::{D6, D8, D10, D12};
use acw_hardtack::artillery::{
    BounceTest, Landing, ShotAccuracy, ShotRange, bounce_distance, shot_impact,
};
use acw_hardtack::fire::Cover;
use acw_hardtack::ladder::Success;
use acw_hardtack::morale::Confidence;
use acw_hardtack::state::{
    Ammunition, CanisterFacts, CompanySpec, FigureRef, Formation, ShotImpactFacts,
};
use acw_hardtack::tables::{ConfidenceLevel, FieldPiece, Leadership};
use acw_hardtack::{Battle, CompanyId, GunId, Options, RuleViolation};

fn battery(options: Options) -> (Battle, GunId, CompanyId) {
    let mut b = Battle::new(options);
    let crew = b
        .add_company(CompanySpec::new("Battery B crew", Side::Union, 3))
        .unwrap();
    let gun = b
        .add_gun("3-inch rifle", FieldPiece::Rifle10lbOr3in, true, crew)
        .unwrap();
    (b, gun, crew)
}

fn rebels(b: &mut Battle, name: &str, n: usize, formation: Formation) -> CompanyId {
    let mut c = CompanySpec::new(name, Side::Confederate, n);
    c.formation = formation;
    b.add_company(c).unwrap()
}

// HT-ACC-06, HT-ACC-07, HT-ART-14, HT-ART-16, HT-ART-18, HT-ART-19, HT-ART-20,
// HT-SEQ-08, HT-ART-03: the printed canister example. A 3" rifle, Regular crew, at a line company 22" away
// (band 4 = D10, line -1 = D8) through 4 skirmishers. R 2; Q 6, FP 4, FP 9: major, 19/8 = 2 rem 3; the
// remainder D8 rolls 3: a third casualty. Allocation over 8 + 4 = 12 figures (D12): 2 and 3 (line), 10
// (skirmisher). (armour, impact) = (3, 6) killed, (4, 5) wounded, (1, 3) killed. Tests: the line 2 + 1 - 1
// = 2, the skirmishers 2 + 1 = 3. Then the next company of the formation at 18" (D8) +1 blast -1 line = D8;
// R 8 against Q 4, FP 3, FP 1: nothing, the blast stops; the company still tests at 2 - 1 = 1. The crew's
// second action loads canister again.
#[test]
fn canister_example() {
    let (mut b, gun, crew) = battery(Options::default());
    let line = rebels(&mut b, "lead company", 8, Formation::Line);
    let sk = rebels(&mut b, "skirmishers", 4, Formation::Skirmish);
    let next = rebels(&mut b, "second company", 8, Formation::Line);
    b.activate(crew).unwrap();
    b.load(gun, Ammunition::Canister).unwrap();
    b.end_turn().unwrap();
    b.activate(crew).unwrap();
    let mut dice = ScriptedDice::faces([
        2, 6, 4, 9, 3, // fire
        2, 3, 6, 3, 4, 5, 10, 1, 3, // hits
        8, 8, // tests
    ]);
    let facts = CanisterFacts {
        distance: 22.0,
        through: Some(sk),
        ..CanisterFacts::default()
    };
    let rep = b.fire_canister(gun, line, facts, &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    // HT-ART-17: band 4's D10 shifted down one for a line: D8.
    assert_eq!(rep.range, Some(D8));
    // HT-ART-15: the 3" rifle's canister dice are two D10s (the 9 rolled) beside the Regular crew's D8, and
    // its 6" band puts 22" in band 4.
    assert_eq!(
        rep.roll.map(|r| match r {
            acw_hardtack::state::FireRoll::Dice(fd) => fd.firer,
            acw_hardtack::state::FireRoll::Stands(_) => panic!("{r:?}"),
        }),
        Some(acw_hardtack::fire::FirerDice::three(D8, D10, D10))
    );
    assert_eq!(rep.effect.potential, 3);
    assert_eq!((rep.companies[0].killed, rep.companies[0].wounded), (1, 1));
    assert_eq!((rep.companies[1].killed, rep.companies[1].wounded), (1, 0));
    assert_eq!(rep.companies[0].test.map(|t| t.0), Some(2));
    assert_eq!(rep.companies[1].test.map(|t| t.0), Some(3));
    assert_eq!(b.gun(gun).unwrap().loaded(), None);
    // The blast is pending: nothing else may happen until it is carried on or ended.
    assert!(matches!(
        b.load(gun, Ammunition::Canister),
        Err(RuleViolation::OutOfOrder(_))
    ));
    let mut dice = ScriptedDice::faces([8, 4, 3, 1, 8]);
    let step = b
        .blast_through(
            next,
            CanisterFacts {
                distance: 18.0,
                ..CanisterFacts::default()
            },
            &mut dice,
        )
        .unwrap();
    assert_eq!(step.range, Some(D8));
    assert_eq!(step.effect.success, Success::Fail);
    assert_eq!(step.companies[0].test.map(|t| t.0), Some(1));
    assert!(matches!(b.end_blast(), Err(RuleViolation::OutOfOrder(_))));
    b.load(gun, Ammunition::Canister).unwrap();
    assert_eq!(b.gun(gun).unwrap().loaded(), Some(Ammunition::Canister));
}

// HT-INT-11, HT-ART-19: blast-through beyond D12 stops, and that company takes no test.
#[test]
fn blast_beyond_d12_stops() {
    let (mut b, gun, crew) = battery(Options::default());
    let first = rebels(&mut b, "first", 8, Formation::Skirmish);
    let far = rebels(&mut b, "far", 8, Formation::Skirmish);
    b.activate(crew).unwrap();
    b.load(gun, Ammunition::Canister).unwrap();
    // Point blank at 6" (D4): R 1, Q 8, FP 10, 10: 28/4 = 7 casualties; no casualties scripted (armour
    // beats impact), so the company tests at 2 (Medium canister).
    let mut script = vec![1, 8, 10, 10];
    for _ in 0..7 {
        script.extend([2, 4, 1]);
    }
    script.push(8);
    let rep = b
        .fire_canister(
            gun,
            first,
            CanisterFacts {
                distance: 6.0,
                ..CanisterFacts::default()
            },
            &mut ScriptedDice::faces(script),
        )
        .unwrap();
    assert_eq!(rep.effect.potential, 7);
    assert_eq!(rep.companies[0].test.map(|t| t.0), Some(2));
    // The far company at 30" (band 5 = D12) +1 for the hit step is beyond D12.
    let step = b
        .blast_through(
            far,
            CanisterFacts {
                distance: 30.0,
                ..CanisterFacts::default()
            },
            &mut ScriptedDice::faces([]),
        )
        .unwrap();
    assert_eq!(step.range, None);
    assert!(step.companies.is_empty());
    assert!(b.end_blast().is_err());
}

// HT-ART-19: with `blast_requires_casualties`, a hit without casualties ends the blast.
#[test]
fn blast_requires_casualties_option() {
    let mut o = Options::default();
    o.blast_requires_casualties = true;
    let (mut b, gun, crew) = battery(o);
    let first = rebels(&mut b, "first", 8, Formation::Skirmish);
    b.activate(crew).unwrap();
    b.load(gun, Ammunition::Canister).unwrap();
    let mut script = vec![1, 8, 10, 10];
    for _ in 0..7 {
        script.extend([2, 4, 1]);
    }
    script.push(8);
    b.fire_canister(
        gun,
        first,
        CanisterFacts {
            distance: 6.0,
            ..CanisterFacts::default()
        },
        &mut ScriptedDice::faces(script),
    )
    .unwrap();
    assert!(matches!(b.end_blast(), Err(RuleViolation::OutOfOrder(_))));
}

// HT-ACC-05, HT-ART-06, HT-ART-08, HT-ART-09, HT-ART-10, HT-ART-12: round shot with two bounces, each
// carried on along the line. Regular LV2 crew: Q 1 misses; D12 11, D8 5
// (5" toward 11 o'clock). First impact: two figures, (4, 6) wounded and (2, 9) killed; the company tests at
// 0 + 1 = 1. Bounce: Q 5 > 4; 49" from the gun gives 24"; D12 12, D4 1. Second impact: four figures in light
// cover (D6 armour against D8): (3, 5), (2, 3) wounded, (5, 4), (6, 2) nothing; test at 1. Bounce: Q 8 > 6,
// 12" on; D12 12, D4 2. The ball strikes a building with a D6 impact die and stops.
#[test]
fn shot_with_two_bounces() {
    let mut b = Battle::new(Options::default());
    let crew = b
        .add_company(CompanySpec::new("Battery A crew", Side::Union, 3))
        .unwrap();
    let gun = b
        .add_gun("12lb Napoleon", FieldPiece::Napoleon12lb, false, crew)
        .unwrap();
    let first = rebels(&mut b, "first company", 8, Formation::Skirmish);
    let second = rebels(&mut b, "second company", 8, Formation::Skirmish);
    b.activate(crew).unwrap();
    b.load(gun, Ammunition::Shot).unwrap();
    assert_eq!(b.company(crew).unwrap().actions_left(), 1);
    let landing = b
        .fire_shot(
            gun,
            ShotRange::Medium,
            0.0,
            &mut ScriptedDice::faces([1, 11, 5]),
        )
        .unwrap();
    // HT-ART-01: firing takes the crew's one action left (not two) and uses up the load.
    assert_eq!(b.company(crew).unwrap().actions_left(), 0);
    assert_eq!(b.gun(gun).unwrap().loaded(), None);
    // HT-SG2-44: over open sights the miss deviates D12 11 o'clock and D8 5", not multiplied by the roll.
    assert_eq!(
        landing,
        Landing::Deviated {
            clock: 11,
            inches: 5
        }
    );
    let facts = ShotImpactFacts {
        gun_distance: 49.0,
        figures: vec![
            (
                FigureRef {
                    company: first,
                    index: 1,
                },
                Cover::Open,
                false,
            ),
            (
                FigureRef {
                    company: first,
                    index: 2,
                },
                Cover::Open,
                false,
            ),
        ],
        guns: vec![],
        horses: vec![],
        ground_allows_bounce: true,
    };
    let mut dice = ScriptedDice::faces([4, 6, 2, 9, 8, 5, 12, 1]);
    let one = b.shot_impact(&facts, &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert_eq!(one.impact, D10);
    // HT-SG2-45: each figure in the area rolls its own armour against the impact, two wounds or 2x killing:
    // (4, 6) wounded, (2, 9) killed.
    assert_eq!((one.companies[0].wounded, one.companies[0].killed), (1, 1));
    assert_eq!(
        one.companies[0].test,
        Some((1, Confidence::Pass, ConfidenceLevel::Confident))
    );
    // HT-ART-11: the first bounce is half the gun's 49" to the impact point, rounded down.
    assert_eq!(
        one.bounce,
        Some((
            24,
            Landing::Deviated {
                clock: 12,
                inches: 1
            }
        ))
    );
    let facts = ShotImpactFacts {
        gun_distance: 73.0,
        figures: (1..5)
            .map(|i| {
                (
                    FigureRef {
                        company: second,
                        index: i,
                    },
                    Cover::Soft,
                    false,
                )
            })
            .collect(),
        guns: vec![],
        horses: vec![],
        ground_allows_bounce: true,
    };
    let mut dice = ScriptedDice::faces([3, 5, 2, 3, 5, 4, 6, 2, 8, 8, 12, 2]);
    let two = b.shot_impact(&facts, &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert_eq!(two.impact, D8);
    assert_eq!(two.companies[0].wounded, 2);
    assert_eq!(two.companies[0].test.map(|t| t.0), Some(1));
    // HT-ART-11, HT-INT-18: the second bounce is half the first's 24", reported as inches on along the ball's
    // line of travel from this impact point (never back toward the previous one), with its D12/D4 deviation;
    // the caller measures that line on the table.
    assert_eq!(
        two.bounce,
        Some((
            12,
            Landing::Deviated {
                clock: 12,
                inches: 2
            }
        ))
    );
    // HT-ART-13: a ball that meets a building strikes it with the current impact die (D6 after two bounces)
    // and goes no further: no bounce, and the shot is over.
    let building = ShotImpactFacts {
        gun_distance: 88.0,
        ..ShotImpactFacts::default()
    };
    let three = b
        .shot_impact(&building, &mut ScriptedDice::faces([]))
        .unwrap();
    assert_eq!(three.impact, D6);
    assert_eq!(three.bounce, None);
    assert!(
        b.shot_impact(&building, &mut ScriptedDice::faces([]))
            .is_err()
    );
    // HT-ACC-05 (05f): a third bounce would need more than 8 on a D8: impossible, no roll.
    let third = BounceTest {
        quality: D8,
        lv: Leadership::TWO,
        k: 3,
        rifled: false,
    };
    assert!(!third.possible());
}

// HT-ART-08, HT-ART-12: the impact die falls one type per bounce and stops after D4; bounce distances halve.
#[test]
fn bounce_arithmetic() {
    assert_eq!(shot_impact(0), Some(D10));
    assert_eq!(shot_impact(3), Some(acw_hardtack::DieType::D4));
    assert_eq!(shot_impact(4), None);
    assert_eq!(bounce_distance(49.0, None), 24);
    assert_eq!(bounce_distance(49.0, Some(24)), 12);
    assert_eq!(bounce_distance(49.0, Some(7)), 3);
}

// HT-ACC-22, HT-OPT-01: with Artillery Shot Ranges, LV2 needs 3+ at medium, 2+ at short, 4+ at long.
#[test]
fn shot_range_modifiers() {
    let mut o = Options::default();
    o.artillery_shot_ranges = true;
    let need = |range| {
        let a = ShotAccuracy::new(D8, Leadership::TWO, range, &o);
        (1..=8).find(|&r| a.hits(r))
    };
    assert_eq!(need(ShotRange::Medium), Some(3));
    assert_eq!(need(ShotRange::Short), Some(2));
    assert_eq!(need(ShotRange::Long), Some(4));
    let plain = ShotAccuracy::new(D8, Leadership::TWO, ShotRange::Long, &Options::default());
    assert!(plain.hits(3));
}

// HT-OPT-02: Rifled Artillery Bounces: a rifled gun needs 2 more.
#[test]
fn rifled_bounces() {
    let t = BounceTest {
        quality: D8,
        lv: Leadership::TWO,
        k: 1,
        rifled: true,
    };
    assert_eq!(t.number(), 6);
}

// HT-ART-21, HT-SG2-46, HT-SEQ-08: a gun model in a shot's area rolls D8 armour; a kill disables it; a disabled gun
// cannot load. A gun without a load cannot fire.
#[test]
fn gun_damage_and_loads() {
    let (mut b, gun, crew) = battery(Options::default());
    let enemy_crew = b
        .add_company(CompanySpec::new("rebel crew", Side::Confederate, 3))
        .unwrap();
    let target = b
        .add_gun(
            "rebel Napoleon",
            FieldPiece::Napoleon12lb,
            false,
            enemy_crew,
        )
        .unwrap();
    b.activate(crew).unwrap();
    assert!(matches!(
        b.fire_shot(gun, ShotRange::Medium, 0.0, &mut ScriptedDice::faces([8])),
        Err(RuleViolation::GunRefused { .. })
    ));
    b.load(gun, Ammunition::Shot).unwrap();
    assert_eq!(
        b.fire_shot(gun, ShotRange::Medium, 0.0, &mut ScriptedDice::faces([8]))
            .unwrap(),
        Landing::OnTarget
    );
    // Armour 2 against impact 10: killed, the gun is disabled.
    let facts = ShotImpactFacts {
        gun_distance: 30.0,
        guns: vec![target],
        horses: vec![],
        ..ShotImpactFacts::default()
    };
    let rep = b
        .shot_impact(&facts, &mut ScriptedDice::faces([2, 10]))
        .unwrap();
    assert_eq!(rep.guns_disabled, vec!["rebel Napoleon".to_string()]);
    assert!(b.gun(target).unwrap().disabled());
    b.end_turn().unwrap();
    b.activate(enemy_crew).unwrap();
    assert!(matches!(
        b.load(target, Ammunition::Shot),
        Err(RuleViolation::GunRefused { .. })
    ));
}

// HT-ART-22, HT-MOV-12, HT-FRM-14: round shot through a limbered gun's team: the first horse (armour 1 against
// impact 10) is hit and dies (D6 1); the second (armour 4 against 1) is not. Cut loose with a Reorganise, the
// team moves on a D8 (8", not 9"); with both horses gone the gun must be unlimbered before it moves.
#[test]
fn horse_team_losses() {
    let mut b = Battle::new(Options::default());
    let enemy = b
        .add_company(CompanySpec::new("rebel crew", Side::Confederate, 3))
        .unwrap();
    let rebel_gun = b
        .add_gun("rebel Napoleon", FieldPiece::Napoleon12lb, false, enemy)
        .unwrap();
    let crew = b
        .add_company(CompanySpec::new("Union crew", Side::Union, 3))
        .unwrap();
    let gun = b
        .add_gun("Parrott", FieldPiece::Rifle10lbOr3in, true, crew)
        .unwrap();
    b.activate(crew).unwrap();
    b.limber(gun, true, 3.0).unwrap();
    b.end_turn().unwrap();
    let shoot = |b: &mut Battle, horses: usize, dice: Vec<u16>| {
        b.activate(enemy).unwrap();
        b.load(rebel_gun, Ammunition::Shot).unwrap();
        assert_eq!(
            b.fire_shot(
                rebel_gun,
                ShotRange::Medium,
                0.0,
                &mut ScriptedDice::faces([8]),
            )
            .unwrap(),
            Landing::OnTarget
        );
        let facts = ShotImpactFacts {
            gun_distance: 30.0,
            horses: vec![gun; horses],
            ..ShotImpactFacts::default()
        };
        b.shot_impact(&facts, &mut ScriptedDice::faces(dice))
            .unwrap();
        b.end_turn().unwrap();
    };
    shoot(&mut b, 2, vec![1, 10, 1, 4, 1]);
    assert_eq!(b.gun(gun).unwrap().horses(), (2, 1));
    b.activate(crew).unwrap();
    b.cut_horse_loose(gun).unwrap();
    assert!(b.cut_horse_loose(gun).is_err());
    let mv = |d| acw_hardtack::state::MoveOrder {
        distance: d,
        ..Default::default()
    };
    assert!(
        b.move_company(crew, mv(9.0), &mut ScriptedDice::faces([]))
            .is_err()
    );
    assert!(
        b.move_company(crew, mv(8.0), &mut ScriptedDice::faces([]))
            .unwrap()
    );
    b.end_turn().unwrap();
    shoot(&mut b, 1, vec![1, 10, 2]);
    b.activate(crew).unwrap();
    b.cut_horse_loose(gun).unwrap();
    assert_eq!(b.gun(gun).unwrap().horses(), (0, 0));
    assert!(
        b.move_company(crew, mv(1.0), &mut ScriptedDice::faces([]))
            .is_err()
    );
}

// A shot's facts naming a figure the company does not have are refused, and the ball stays in flight.
#[test]
fn bad_shot_facts_refused() {
    let (mut b, gun, crew) = battery(Options::default());
    let foe = rebels(&mut b, "rebels", 4, Formation::Skirmish);
    b.activate(crew).unwrap();
    b.load(gun, Ammunition::Shot).unwrap();
    let landing = b.fire_shot(gun, ShotRange::Medium, 0.0, &mut ScriptedDice::faces([8]));
    assert_eq!(landing, Ok(Landing::OnTarget));
    let before = b.clone();
    let facts = ShotImpactFacts {
        gun_distance: 30.0,
        figures: vec![(
            FigureRef {
                company: foe,
                index: 9,
            },
            Cover::Open,
            false,
        )],
        ..ShotImpactFacts::default()
    };
    let err = b
        .shot_impact(&facts, &mut ScriptedDice::faces([1, 10]))
        .unwrap_err();
    assert!(matches!(err, RuleViolation::UnknownFigure { index: 9, .. }));
    assert_eq!(err.to_string(), "rebels has no figure number 9");
    assert_eq!(b, before);
    let nan = ShotImpactFacts {
        gun_distance: f64::NAN,
        ..ShotImpactFacts::default()
    };
    assert!(matches!(
        b.shot_impact(&nan, &mut ScriptedDice::faces([])),
        Err(RuleViolation::Setup(_))
    ));
    assert!(
        b.shot_impact(
            &ShotImpactFacts {
                gun_distance: 30.0,
                ..ShotImpactFacts::default()
            },
            &mut ScriptedDice::faces([])
        )
        .is_ok()
    );
}

/// A Union battery whose gun is limbered (its two horse figures with the crew), and a Confederate line of
/// eight muskets that has not activated.
fn limbered_battery_and_line() -> (Battle, GunId, CompanyId, CompanyId) {
    let (mut b, gun, crew) = battery(Options::default());
    let line = rebels(&mut b, "8th Alabama", 8, Formation::Line);
    b.activate(crew).unwrap();
    b.limber(gun, true, 2.0).unwrap();
    b.end_turn().unwrap();
    (b, gun, crew, line)
}

fn at(distance: f64) -> acw_hardtack::state::FireFacts {
    acw_hardtack::state::FireFacts {
        distance,
        ..acw_hardtack::state::FireFacts::default()
    }
}

// HT-ART-22, HT-ART-24: small arms hit a limbered gun's horses. The pool is the 3 crew and the team's 2
// horse figures (a D6). R 1, Q 5, FP 7: major, 12/4 = 3 hits. Allocation 4 is the first horse: armour 1,
// impact 6 hits it, and its state roll 1 kills it; allocation 5, the second horse: armour 4, impact 2, no
// effect; allocation 2, a gunner: armour 2, impact 3 wounds him. The crew tests at 1 (8 passes); the dead
// horse stays in the team until cut loose.
#[test]
fn small_arms_hit_team_horses() {
    let (mut b, gun, crew, line) = limbered_battery_and_line();
    b.activate(line).unwrap();
    let mut dice = ScriptedDice::faces([1, 5, 7, 4, 1, 6, 1, 5, 4, 2, 2, 2, 3, 8]);
    let rep = b.fire(line, crew, at(6.0), &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    let c = &rep.companies[0];
    assert_eq!((c.killed, c.wounded, c.horses_down), (0, 1, 1));
    assert_eq!(c.test.map(|t| t.0), Some(1));
    assert!(c.to_string().contains("one team horse down"));
    assert_eq!(b.gun(gun).unwrap().horses(), (2, 1));
    assert_eq!(b.gun(gun).unwrap().sound_horses(), 1);
}

// HT-ART-22, HT-MOV-12, HT-SG2-47: a horse killed by reaction fire between the team's two moves stops the
// unit — the crew's second action is lost; a horse only wounded (state 3) lets it move on.
#[test]
fn horse_killed_mid_move_stops_the_team() {
    for (state, moves_on) in [(1, false), (3, true)] {
        let (mut b, gun, crew, line) = limbered_battery_and_line();
        b.activate(crew).unwrap();
        let step = acw_hardtack::state::MoveOrder {
            distance: 10.0,
            ..acw_hardtack::state::MoveOrder::default()
        };
        assert!(
            b.move_company(crew, step, &mut ScriptedDice::faces([]))
                .unwrap()
        );
        let mut dice = ScriptedDice::faces([1, 5, 7, 4, 1, 6, state, 5, 4, 2, 2, 2, 3, 8]);
        let rep = b.reaction_fire(line, crew, at(6.0), &mut dice).unwrap();
        assert_eq!(rep.companies[0].horses_down, 1);
        assert_eq!(b.gun(gun).unwrap().horses(), (2, 1));
        assert_eq!(b.company(crew).unwrap().actions_left(), u8::from(moves_on));
        assert_eq!(
            b.move_company(crew, step, &mut ScriptedDice::faces([]))
                .is_ok(),
            moves_on
        );
    }
}

// HT-ART-22, HT-ART-14: canister hits a limbered gun's horses too. A Confederate 3" rifle at 3" (D4): R 3,
// Q 4, canister 4 and 1 — a major result, 9/4 = 2 rem 1, the remainder D4 shows 2 (no extra). Allocation 4,
// the first horse: armour 1, impact 12, state 3 (wounded); allocation 5, the second: armour 1, impact 6,
// state 6 (unhurt). No man is hit; the crew takes the canister test at 2 (8 passes).
#[test]
fn canister_hits_team_horses() {
    let (mut b, gun, crew, _) = limbered_battery_and_line();
    let gunners = rebels(&mut b, "rebel gunners", 3, Formation::Skirmish);
    let rifle = b
        .add_gun(
            "rebel 3-inch rifle",
            FieldPiece::Rifle10lbOr3in,
            true,
            gunners,
        )
        .unwrap();
    b.activate(gunners).unwrap();
    b.load(rifle, Ammunition::Canister).unwrap();
    b.end_turn().unwrap();
    b.activate(gunners).unwrap();
    let mut dice = ScriptedDice::faces([3, 4, 4, 1, 2, 4, 1, 12, 3, 5, 1, 6, 6, 8]);
    let facts = CanisterFacts {
        distance: 3.0,
        ..CanisterFacts::default()
    };
    let rep = b.fire_canister(rifle, crew, facts, &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert_eq!(rep.effect.potential, 2);
    let c = &rep.companies[0];
    assert_eq!((c.killed, c.wounded, c.horses_down), (0, 0, 1));
    assert_eq!(c.test.map(|t| t.0), Some(2));
    assert_eq!(b.gun(gun).unwrap().horses(), (2, 1));
    b.end_blast().unwrap();
}

// HT-ART-22: small arms at an unlimbered gun's detached team. The Confederate line fires at the team of the
// unlimbered 3" rifle 6" away: R 1, Q 5, FP 7, a major result, 3 hits over the team's 2 horse figures (a
// D2). The first falls on horse 1: armour 1 against impact 6, struck, state 1: dead. The second on horse 2:
// armour 4 against impact 2, no effect. The third on horse 1 again, already down. No men are hit and the
// crew does not test. Refused and nothing changed: a limbered gun's team (fire at the crew reaches it), a
// team beyond the line's reach, fire through skirmishers, a firer of the gun's own side, dice that run out.
#[test]
fn small_arms_at_a_detached_team() {
    let (mut b, gun, crew) = battery(Options::default());
    let line = rebels(&mut b, "8th Alabama", 8, Formation::Line);
    let skirmishers = rebels(&mut b, "skirmishers", 4, Formation::Skirmish);
    let union = b
        .add_company(CompanySpec::new("Union line", Side::Union, 6))
        .unwrap();
    b.activate(line).unwrap();
    let before = b.clone();
    for refused in [
        b.clone()
            .fire_at_team(line, gun, at(500.0), &mut ScriptedDice::faces([])),
        b.clone().fire_at_team(
            line,
            gun,
            acw_hardtack::state::FireFacts {
                through: Some(skirmishers),
                ..at(6.0)
            },
            &mut ScriptedDice::faces([]),
        ),
        b.clone()
            .fire_at_team(union, gun, at(6.0), &mut ScriptedDice::faces([])),
    ] {
        assert!(refused.is_err());
    }
    assert!(
        b.fire_at_team(line, gun, at(6.0), &mut ScriptedDice::faces([1, 5, 7, 1]))
            .is_err()
    );
    assert_eq!(b, before);
    let mut dice = ScriptedDice::faces([1, 5, 7, 1, 1, 6, 1, 2, 4, 2, 1]);
    let rep = b.fire_at_team(line, gun, at(6.0), &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    let c = &rep.companies[0];
    assert_eq!((c.killed, c.wounded, c.horses_down), (0, 0, 1));
    assert_eq!(c.test, None);
    assert_eq!(c.name, "the team of 3-inch rifle");
    assert_eq!(b.gun(gun).unwrap().horses(), (2, 1));
    assert_eq!(
        b.company(crew).unwrap().confidence(),
        before.company(crew).unwrap().confidence()
    );

    let (mut b, gun, _, line) = limbered_battery_and_line();
    b.activate(line).unwrap();
    assert!(matches!(
        b.fire_at_team(line, gun, at(6.0), &mut ScriptedDice::faces([1, 5, 7])),
        Err(RuleViolation::CannotFire { .. })
    ));
}

// HT-CAS-04, HT-ART-22: under `horse_status_roll = ImpactVsD4` a team horse that is hit rolls its state
// afresh — its D4 and the impact die again — rather than keeping the hit's own roll. The Confederate line
// fires at the team 6" away: R 1, Q 5, FP 7, 3 hits over the 2 horses (a D2). The first on horse 1: armour 1
// against impact 6, hit (a kill by the hit's own roll); the state roll is armour 3 against impact 2: unhurt.
// The second on horse 2: armour 1 against impact 5, hit; state armour 2 against impact 4: down. The third on
// horse 1 again, still sound: armour 4 against impact 2, no effect. One horse down, and every face used; had
// the hit's own roll been its state, horse 1 would be down and the faces would not fit.
#[test]
fn impact_vs_d4_rolls_a_team_horse_state_afresh() {
    use acw_core::Resolve;
    use acw_hardtack::options::HorseStatusRoll;
    let mut o = Options::default();
    o.horse_status_roll = HorseStatusRoll::ImpactVsD4;
    let (mut b, gun, _) = battery(o);
    let line = rebels(&mut b, "8th Alabama", 8, Formation::Line);
    b.activate(line).unwrap();
    let faces = [1, 5, 7, 1, 1, 6, 3, 2, 2, 1, 5, 2, 4, 1, 4, 2];
    let mut dice = ScriptedDice::faces(faces);
    let rep = b.fire_at_team(line, gun, at(6.0), &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert_eq!(rep.effect.potential, 3);
    assert_eq!(rep.companies[0].horses_down, 1);
    assert_eq!(b.gun(gun).unwrap().horses(), (2, 1));
    // the exact procedure rolls the same faces to the same horses down
    let team = acw_hardtack::artillery::TeamFire {
        fire: rep.roll.unwrap(),
        impact: CompanySpec::new("x", Side::Confederate, 1)
            .weapon
            .arm
            .impact(),
        armour_shift: 0,
        horses: 2,
        options: o,
    };
    let mut dice = ScriptedDice::faces(faces);
    let out = team.roll(&mut dice);
    assert_eq!((dice.remaining(), out.horses_down), (0, 1));
}

// HT-ART-22, HT-ART-14: canister at an unlimbered gun's detached team. A Confederate 3" rifle at the Union
// rifle's team 3" away (D4): R 3, Q 4, canister 4 and 1, a major result, 9/4 = 2 rem 1, the remainder D4
// shows 2 (no extra). The pool is the team's 2 horse figures (a D2): allocation 1, armour 1 against impact
// 12, state 3 (wounded); allocation 2, armour 1 against impact 6, state 6 (unhurt). No man is hit and no one
// tests; the hit leaves a blast-through pending. Refused and nothing changed: a team beyond the canister's
// reach, fire through skirmishers, dice that run out, and a limbered gun's team.
#[test]
fn canister_at_a_detached_team() {
    let (mut b, gun, _) = battery(Options::default());
    let gunners = rebels(&mut b, "rebel gunners", 3, Formation::Skirmish);
    let skirmishers = rebels(&mut b, "skirmishers", 4, Formation::Skirmish);
    let rifle = b
        .add_gun(
            "rebel 3-inch rifle",
            FieldPiece::Rifle10lbOr3in,
            true,
            gunners,
        )
        .unwrap();
    b.activate(gunners).unwrap();
    b.load(rifle, Ammunition::Canister).unwrap();
    b.end_turn().unwrap();
    b.activate(gunners).unwrap();
    let facts = CanisterFacts {
        distance: 3.0,
        ..CanisterFacts::default()
    };
    let before = b.clone();
    let far = CanisterFacts {
        distance: 300.0,
        ..facts
    };
    let through = CanisterFacts {
        through: Some(skirmishers),
        ..facts
    };
    for f in [far, through] {
        assert!(matches!(
            b.fire_canister_at_team(rifle, gun, f, &mut ScriptedDice::faces([])),
            Err(RuleViolation::GunRefused { .. })
        ));
    }
    assert!(matches!(
        b.fire_canister_at_team(rifle, gun, facts, &mut ScriptedDice::faces([3, 4, 4])),
        Err(RuleViolation::Dice(_))
    ));
    assert_eq!(b, before);
    let mut dice = ScriptedDice::faces([3, 4, 4, 1, 2, 1, 1, 12, 3, 2, 1, 6, 6]);
    let rep = b
        .fire_canister_at_team(rifle, gun, facts, &mut dice)
        .unwrap();
    assert_eq!(dice.remaining(), 0);
    assert_eq!(rep.effect.potential, 2);
    let c = &rep.companies[0];
    assert_eq!(
        (c.killed, c.wounded, c.horses_down, c.test),
        (0, 0, 1, None)
    );
    assert_eq!(b.gun(gun).unwrap().horses(), (2, 1));
    assert_eq!(b.gun(rifle).unwrap().loaded(), None);
    b.end_blast().unwrap();

    let (mut b, gun, _, _) = limbered_battery_and_line();
    let gunners = rebels(&mut b, "rebel gunners", 3, Formation::Skirmish);
    let rifle = b
        .add_gun("rebel rifle", FieldPiece::Rifle10lbOr3in, true, gunners)
        .unwrap();
    b.activate(gunners).unwrap();
    b.load(rifle, Ammunition::Canister).unwrap();
    b.end_turn().unwrap();
    b.activate(gunners).unwrap();
    assert!(
        b.fire_canister_at_team(rifle, gun, facts, &mut ScriptedDice::faces([3, 4, 4, 1, 2]))
            .is_err()
    );
}

/// The Union battery's gun and crew, a Confederate 3" rifle's gunners and the skirmishers beside them; the
/// rifle has fired canister at a Union company of 4 in skirmish order 6" away, in front of the battery's
/// detached team (band 1 of 6": D4): R 3, Q 4, canister 4 and 1, a major result, 9/4 = 2 rem 1, the remainder
/// D4 shows 2 (no extra). Allocation 2: armour 1 against impact 12 kills the second man; allocation 3:
/// armour 4 against 3, nothing. The company's canister test rolls 8. The hit leaves the blast pending.
fn blast_from_the_front() -> (Battle, GunId, CompanyId, GunId, CompanyId) {
    let (mut b, gun, crew) = battery(Options::default());
    let front = b
        .add_company(CompanySpec::new("1st Minnesota, Company A", Side::Union, 4))
        .unwrap();
    let gunners = rebels(&mut b, "rebel gunners", 3, Formation::Skirmish);
    let skirmishers = rebels(&mut b, "skirmishers", 4, Formation::Skirmish);
    let rifle = b
        .add_gun(
            "rebel 3-inch rifle",
            FieldPiece::Rifle10lbOr3in,
            true,
            gunners,
        )
        .unwrap();
    assert!(matches!(
        b.blast_through_team(gun, canister_at(9.0), &mut ScriptedDice::faces([])),
        Err(RuleViolation::OutOfOrder(_))
    ));
    b.activate(gunners).unwrap();
    b.load(rifle, Ammunition::Canister).unwrap();
    b.end_turn().unwrap();
    b.activate(gunners).unwrap();
    let mut dice = ScriptedDice::faces([3, 4, 4, 1, 2, 2, 1, 12, 3, 4, 3, 8]);
    let rep = b
        .fire_canister(rifle, front, canister_at(6.0), &mut dice)
        .unwrap();
    assert_eq!(dice.remaining(), 0);
    assert_eq!((rep.companies[0].killed, rep.companies[0].wounded), (1, 0));
    (b, gun, crew, rifle, skirmishers)
}

/// Canister facts for a target `distance` inches away, in the open.
fn canister_at(distance: f64) -> CanisterFacts {
    CanisterFacts {
        distance,
        ..CanisterFacts::default()
    }
}

// HT-ART-19, HT-ART-22: a canister blast carries through a company onto an unlimbered gun's detached team
// behind it (the company hit as `blast_from_the_front` says; with no blast pending, the team is refused).
// The blast goes on to the Union battery's team 9" away (band 2: D6, up one for the step that hit: D8): the
// firer's dice again, R 2, Q 8, canister 10 and 10, 28/8 = 3 rem 4, the remainder D8 shows 5 (no extra): 3
// hits on the team's 2 horses (allocation D4). The first (1) falls on the first horse: armour 1 against
// impact 12, and its state D6 2: dead. The second (3) falls on the same horse, already down: no roll. The
// third (2) on the second horse: armour 4 against 3, unhurt. One horse down, no man of the crew hit and no
// test; the blast is still pending.
#[test]
fn blast_through_onto_a_detached_team() {
    let (mut b, gun, crew, rifle, skirmishers) = blast_from_the_front();
    // refused, and the blast still pending: the gun's own team, skirmishers in between, friends in the
    // way, dice that run out
    let before = b.clone();
    assert!(matches!(
        b.blast_through_team(rifle, canister_at(9.0), &mut ScriptedDice::faces([])),
        Err(RuleViolation::SameSide { .. })
    ));
    for f in [
        CanisterFacts {
            through: Some(skirmishers),
            ..canister_at(9.0)
        },
        CanisterFacts {
            friendly_between: true,
            ..canister_at(9.0)
        },
    ] {
        assert!(matches!(
            b.blast_through_team(gun, f, &mut ScriptedDice::faces([])),
            Err(RuleViolation::GunRefused { .. })
        ));
    }
    assert!(matches!(
        b.blast_through_team(gun, canister_at(9.0), &mut ScriptedDice::faces([2, 8, 10])),
        Err(RuleViolation::Dice(_))
    ));
    assert_eq!(b, before);
    let mut dice = ScriptedDice::faces([2, 8, 10, 10, 5, 1, 1, 12, 2, 3, 2, 4, 3]);
    let step = b
        .blast_through_team(gun, canister_at(9.0), &mut dice)
        .unwrap();
    assert_eq!(dice.remaining(), 0);
    assert_eq!(step.range, Some(D8));
    assert_eq!(step.effect.potential, 3);
    let t = &step.companies[0];
    assert_eq!(
        (t.killed, t.wounded, t.horses_down, t.test),
        (0, 0, 1, None)
    );
    assert_eq!(b.gun(gun).unwrap().horses(), (2, 1));
    assert_eq!(b.company(crew).unwrap().fit(), 3);
    // the team hit carries the blast on: it is still pending
    b.end_blast().unwrap();
}

// HT-ART-19, HT-ART-22: a blast carried on to a team beyond D12 stops there: the team 30" away (band 5 of
// 6", D12) is one step up, beyond D12; no die is rolled, no horse is hit, and the blast is over.
#[test]
fn blast_onto_a_team_beyond_d12_stops() {
    let (mut b, gun, _, _, _) = blast_from_the_front();
    let step = b
        .blast_through_team(gun, canister_at(30.0), &mut ScriptedDice::faces([]))
        .unwrap();
    assert_eq!(step.range, None);
    assert!(step.companies.is_empty());
    assert_eq!(b.gun(gun).unwrap().horses(), (2, 0));
    assert!(b.end_blast().is_err());
}

/// Rolls `f` with `seed`'s dice and returns its result and every face it drew, in order.
fn recorded<T>(seed: u64, f: impl FnOnce(&mut dyn acw_core::Dice) -> T) -> (T, Vec<u16>) {
    use acw_core::dice::{Ask, Scripted, TableDice};
    let mut rng = acw_core::GameRng::seed(seed);
    let mut faces = Vec::new();
    let out = {
        let mut dice = TableDice::new(|ask| match ask {
            Ask::Face(die) => {
                let face = acw_core::Dice::face(&mut rng, die);
                faces.push(face);
                Some(Scripted::Face(face))
            }
            _ => None,
        });
        f(&mut dice)
    };
    (out, faces)
}

// HT-ART-22, HT-CAS-04, HT-OPT-33: the exact procedure of fire at a gun's detached team plays as the
// battle does. Over 200 seeds each, small arms (the Confederate line 6" away; then a line of 24 under
// stand-based fire, three stands) and canister (a Confederate 3" rifle 3" away) at the Union rifle's team
// of two horses: the procedure built from the battle's own fire roll, fed the
// faces the battle drew, gives the battle's fire result and horses down; both ends come up.
#[test]
fn the_team_fire_procedure_plays_as_the_battle() {
    use acw_core::Resolve;
    use acw_core::dice::ScriptedDice;
    use acw_hardtack::artillery::TeamFire;
    let mut seen = [0usize; 3];
    for seed in 0..200u64 {
        let (mut b, gun, _) = battery(Options::default());
        let line = rebels(&mut b, "8th Alabama", 8, Formation::Line);
        b.activate(line).unwrap();
        let (rep, faces) = recorded(seed, |d| b.fire_at_team(line, gun, at(6.0), d).unwrap());
        let team = TeamFire {
            fire: rep.roll.unwrap(),
            impact: CompanySpec::new("x", Side::Confederate, 1)
                .weapon
                .arm
                .impact(),
            armour_shift: 0,
            horses: 2,
            options: Options::default(),
        };
        let mut dice = ScriptedDice::faces(faces);
        let out = team.roll(&mut dice);
        assert_eq!(dice.remaining(), 0, "seed {seed}");
        assert_eq!(
            (out.effect, u32::from(out.horses_down)),
            (rep.effect, rep.companies[0].horses_down),
            "seed {seed}"
        );
        seen[usize::from(out.horses_down)] += 1;
    }
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    // stand-based fire (HT-OPT-33): a line of 24 fires in three stands, their hits pooled on the team
    let mut stands = Options::default();
    stands.stand_based_fire = true;
    let mut seen = [0usize; 3];
    for seed in 0..200u64 {
        let (mut b, gun, _) = battery(stands);
        let line = rebels(&mut b, "8th Alabama", 24, Formation::Line);
        b.activate(line).unwrap();
        let (rep, faces) = recorded(seed, |d| b.fire_at_team(line, gun, at(6.0), d).unwrap());
        let Some(fire @ acw_hardtack::state::FireRoll::Stands(s)) = rep.roll else {
            panic!("seed {seed}: {rep}");
        };
        assert_eq!(s.stands().len(), 3);
        let team = TeamFire {
            fire,
            impact: CompanySpec::new("x", Side::Confederate, 1)
                .weapon
                .arm
                .impact(),
            armour_shift: 0,
            horses: 2,
            options: stands,
        };
        let mut dice = ScriptedDice::faces(faces);
        let out = team.roll(&mut dice);
        assert_eq!(dice.remaining(), 0, "seed {seed}");
        assert_eq!(
            (out.effect, u32::from(out.horses_down)),
            (rep.effect, rep.companies[0].horses_down),
            "seed {seed}"
        );
        seen[usize::from(out.horses_down)] += 1;
    }
    assert!(seen[2] > 0, "{seen:?}");
    let mut seen = [0usize; 3];
    for seed in 0..200u64 {
        let (mut b, gun, _) = battery(Options::default());
        let gunners = rebels(&mut b, "rebel gunners", 3, Formation::Skirmish);
        let rifle = b
            .add_gun("rebel rifle", FieldPiece::Rifle10lbOr3in, true, gunners)
            .unwrap();
        b.activate(gunners).unwrap();
        b.load(rifle, Ammunition::Canister).unwrap();
        b.end_turn().unwrap();
        b.activate(gunners).unwrap();
        let (rep, faces) = recorded(seed, |d| {
            b.fire_canister_at_team(rifle, gun, canister_at(3.0), d)
                .unwrap()
        });
        let team = TeamFire {
            fire: rep.roll.unwrap(),
            impact: acw_hardtack::tables::CANISTER_IMPACT,
            armour_shift: 0,
            horses: 2,
            options: Options::default(),
        };
        let mut dice = ScriptedDice::faces(faces);
        let out = team.roll(&mut dice);
        assert_eq!(dice.remaining(), 0, "seed {seed}");
        assert_eq!(
            (out.effect, u32::from(out.horses_down)),
            (rep.effect, rep.companies[0].horses_down),
            "seed {seed}"
        );
        seen[usize::from(out.horses_down)] += 1;
    }
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
}

// HT-ART-19, HT-ART-22, HT-INT-11: the exact chain of a canister blast through a company onto the gun team
// behind it plays as the battle does. The Confederate 3" rifle fires canister at a Union company of four 6"
// away (a D4), then the blast goes on to the Union battery's team 9" away (a D6 before the blast's shift).
// Over 200 seeds under each way of counting the steps (a step that hit; a company with casualties, the
// blast carrying on only after casualties), the chain fed the faces the battle drew for the company's
// canister and then for the team gives the battle's casualties in the company, whether the blast reached
// the team, and its horses down. The blast stops at the company in some seeds and reaches the team in
// others, with a horse down in some.
#[test]
fn the_blast_procedure_plays_as_the_battle() {
    use acw_core::Resolve;
    use acw_core::dice::ScriptedDice;
    use acw_hardtack::artillery::{BlastOntoTeam, canister_dice};
    use acw_hardtack::fire::{Impact, Volley};
    use acw_hardtack::options::BlastThroughCount;
    use acw_hardtack::state::FireRoll;
    let mut counted = Options::default();
    counted.blast_through_count = BlastThroughCount::EveryDamagedCompany;
    counted.blast_requires_casualties = true;
    for options in [Options::default(), counted] {
        let (mut stopped, mut reached, mut down) = (0, 0, 0);
        for seed in 0..200u64 {
            let (mut b, gun, _) = battery(options);
            let front = b
                .add_company(CompanySpec::new("1st Minnesota, Company A", Side::Union, 4))
                .unwrap();
            let gunners = rebels(&mut b, "rebel gunners", 3, Formation::Skirmish);
            let rifle = b
                .add_gun("rebel rifle", FieldPiece::Rifle10lbOr3in, true, gunners)
                .unwrap();
            b.activate(gunners).unwrap();
            b.load(rifle, Ammunition::Canister).unwrap();
            b.end_turn().unwrap();
            b.activate(gunners).unwrap();
            let (first, at_company) = recorded(seed, |d| {
                b.fire_canister(rifle, front, canister_at(6.0), d).unwrap()
            });
            let (second, at_team) = recorded(seed + 1000, |d| {
                b.blast_through_team(gun, canister_at(9.0), d)
            });
            let Some(FireRoll::Dice(fire)) = first.roll else {
                panic!("seed {seed}: {first}");
            };
            assert_eq!(
                fire.firer,
                canister_dice(D8, FieldPiece::Rifle10lbOr3in, None)
            );
            let company = Volley {
                fire,
                impact: Impact {
                    impact: acw_hardtack::tables::CANISTER_IMPACT,
                    armour: acw_hardtack::DieType::D4,
                    armour_shift: 0,
                    kill: options.kill_threshold,
                },
                pool: 4,
            };
            let chain =
                BlastOntoTeam::new(company, D8, FieldPiece::Rifle10lbOr3in, D6, 0, 2, options);
            // the faces of the company's volley (the battle then rolls the company's tests), then the team's
            let used = {
                let mut d = ScriptedDice::faces(at_company.clone());
                let _ = company.roll(&mut d);
                at_company.len() - d.remaining()
            };
            let mut dice = ScriptedDice::faces(at_company[..used].iter().chain(&at_team).copied());
            let out = chain.roll(&mut dice);
            assert_eq!(dice.remaining(), 0, "seed {seed}");
            let c = &first.companies[0];
            assert_eq!(
                (out.company.effect, out.company.killed, out.company.wounded),
                (
                    first.effect,
                    u8::try_from(c.killed).unwrap(),
                    u8::try_from(c.wounded).unwrap()
                ),
                "seed {seed}"
            );
            match (out.team, second) {
                (None, Err(RuleViolation::OutOfOrder(_))) => stopped += 1,
                (Some(t), Ok(step)) => {
                    assert_eq!(
                        (t.effect, u32::from(t.horses_down)),
                        (step.effect, step.companies[0].horses_down),
                        "seed {seed}"
                    );
                    reached += 1;
                    down += usize::from(t.horses_down > 0);
                }
                (t, s) => panic!("seed {seed}: {t:?} / {s:?}"),
            }
        }
        assert!(
            stopped > 0 && reached > 0 && down > 0,
            "{stopped} {reached} {down}"
        );
    }
}

// HT-ART-19, HT-ART-16, HT-INT-11, HT-ART-22: the exact chain of a whole canister blast — through two
// companies and on to a gun team behind them — plays as the battle does. The Confederate 3" rifle fires
// canister at a Union company of four 6" away, the blast carries through a second company of four 9" away
// (`blast_through`) and on to the Union battery's team 12" away (`blast_through_team`). Over 300 seeds under
// each way of counting the steps (a step that hit; a company with casualties, the blast carrying on only
// after casualties), `BlastChain` built from the companies' facts and fed the faces the battle drew for each
// step's fire (not the companies' tests) gives the battle's fire result and casualties in each company,
// where the blast stopped, and the team's horses down. The blast stops at the first company in some seeds,
// at the second in others, and reaches the team in others.
#[test]
fn the_blast_chain_plays_as_the_battle() {
    use acw_core::Resolve;
    use acw_hardtack::artillery::{BlastChain, BlastCompany, BlastTeam};
    use acw_hardtack::fire::{RangeFacts, Volley};
    use acw_hardtack::options::BlastThroughCount;
    use acw_hardtack::state::FireRoll;
    let mut counted = Options::default();
    counted.blast_through_count = BlastThroughCount::EveryDamagedCompany;
    counted.blast_requires_casualties = true;
    let band = FieldPiece::Rifle10lbOr3in.canister_band();
    for options in [Options::default(), counted] {
        let mut ends = [0usize; 3];
        let mut down = 0;
        for seed in 0..300u64 {
            let (mut b, gun, _) = battery(options);
            let union = |b: &mut Battle, name: &str| {
                b.add_company(CompanySpec::new(name, Side::Union, 4))
                    .unwrap()
            };
            let front = union(&mut b, "1st Minnesota, Company A");
            let behind = union(&mut b, "1st Minnesota, Company B");
            let close = b.company(front).unwrap().formation().is_close();
            let gunners = rebels(&mut b, "rebel gunners", 3, Formation::Skirmish);
            let rifle = b
                .add_gun("rebel rifle", FieldPiece::Rifle10lbOr3in, true, gunners)
                .unwrap();
            b.activate(gunners).unwrap();
            b.load(rifle, Ammunition::Canister).unwrap();
            b.end_turn().unwrap();
            b.activate(gunners).unwrap();
            let (first, f1) = recorded(seed, |d| {
                b.fire_canister(rifle, front, canister_at(6.0), d).unwrap()
            });
            let (second, f2) = recorded(seed + 10_000, |d| {
                b.blast_through(behind, canister_at(9.0), d)
            });
            let (third, f3) = recorded(seed + 20_000, |d| {
                b.blast_through_team(gun, canister_at(12.0), d)
            });
            let company = |d: f64| BlastCompany {
                range: RangeFacts {
                    close_formation_target: close,
                    ..RangeFacts::at(d, band)
                },
                armour: acw_hardtack::DieType::D4,
                pool: 4,
            };
            let chain = BlastChain::new(
                D8,
                FieldPiece::Rifle10lbOr3in,
                &[company(6.0), company(9.0)],
                Some(BlastTeam {
                    range: RangeFacts::at(12.0, band),
                    horses: 2,
                }),
                options,
            )
            .unwrap();
            // each company's faces up to its tests: the volley its own fire roll makes on them
            let volley_faces = |rep: &acw_hardtack::state::FireReport, faces: &[u16]| {
                let Some(FireRoll::Dice(fire)) = rep.roll else {
                    return Vec::new();
                };
                let v = Volley {
                    fire,
                    impact: acw_hardtack::fire::Impact {
                        impact: acw_hardtack::tables::CANISTER_IMPACT,
                        armour: acw_hardtack::DieType::D4,
                        armour_shift: 0,
                        kill: options.kill_threshold,
                    },
                    pool: 4,
                };
                let mut d = ScriptedDice::faces(faces.to_vec());
                let _ = v.roll(&mut d);
                faces[..faces.len() - d.remaining()].to_vec()
            };
            let mut faces = volley_faces(&first, &f1);
            if let Ok(s) = &second {
                faces.extend(volley_faces(s, &f2));
            }
            if third.is_ok() {
                faces.extend(&f3);
            }
            let mut dice = ScriptedDice::faces(faces);
            let out = chain.roll(&mut dice);
            assert_eq!(dice.remaining(), 0, "seed {seed}");
            let same = |o: Option<acw_hardtack::fire::VolleyOutcome>,
                        rep: &acw_hardtack::state::FireReport| {
                match (o, rep.companies.first()) {
                    (None, None) => assert_eq!(rep.range, None, "seed {seed}"),
                    (Some(o), Some(c)) => assert_eq!(
                        (o.effect, u32::from(o.killed), u32::from(o.wounded)),
                        (rep.effect, c.killed, c.wounded),
                        "seed {seed}"
                    ),
                    (o, _) => panic!("seed {seed}: {o:?} / {rep}"),
                }
            };
            same(out.companies[0], &first);
            assert_eq!(out.companies[2..], [None, None]);
            match &second {
                Err(RuleViolation::OutOfOrder(_)) => {
                    assert_eq!(out.companies[1], None, "seed {seed}");
                    ends[0] += 1;
                }
                Ok(s) => same(out.companies[1], s),
                Err(e) => panic!("seed {seed}: {e}"),
            }
            match (out.team, &third) {
                (None, Err(RuleViolation::OutOfOrder(_))) => {
                    if second.is_ok() {
                        ends[1] += 1;
                    }
                }
                (None, Ok(step)) => assert_eq!(step.range, None, "seed {seed}"),
                (Some(t), Ok(step)) => {
                    assert_eq!(
                        (t.effect, u32::from(t.horses_down)),
                        (step.effect, step.companies[0].horses_down),
                        "seed {seed}"
                    );
                    ends[2] += 1;
                    down += usize::from(t.horses_down > 0);
                }
                (t, s) => panic!("seed {seed}: {t:?} / {s:?}"),
            }
        }
        assert!(ends.iter().all(|&n| n > 0) && down > 0, "{ends:?} {down}");
    }
}

// HT-ART-18, HT-ART-19, HT-FIR-23, HT-INT-11: a canister blast through enemy skirmishers plays as the exact
// chain does. The Confederate 3" rifle fires canister at a Union line company of four 6" away through three
// Union skirmishers in breastplates (D6 armour) in front of it, not In Position: the seven figures are one
// pool, the line's against D4 armour and the skirmishers' against D6. The blast carries through a second
// company of four 9" away and on to the Union battery's team 12" away. Over 300 seeds under each way of
// counting the steps (a step that hit; every damaged company, the skirmishers one of their own, with and
// without the blast needing casualties), `BlastChain::with_screens` built from the companies' facts and fed
// the faces the battle drew for each step's fire (not the companies' tests) gives the battle's fire result
// and casualties in each company, the skirmishers' casualties, where the blast stopped and the team's
// horses down. The skirmishers are hit in some seeds, the blast stops at each company in some and reaches
// the team in others.
#[test]
fn a_blast_through_skirmishers_plays_as_the_battle() {
    use acw_core::Resolve;
    use acw_hardtack::artillery::{BlastChain, BlastCompany, BlastScreen, BlastTeam};
    use acw_hardtack::fire::{Impact, RangeFacts, ScreenedVolley, Volley};
    use acw_hardtack::options::BlastThroughCount;
    use acw_hardtack::state::{FireReport, FireRoll};
    use acw_hardtack::tables::Armour;
    let mut damaged = Options::default();
    damaged.blast_through_count = BlastThroughCount::EveryDamagedCompany;
    let mut counted = damaged;
    counted.blast_requires_casualties = true;
    let band = FieldPiece::Rifle10lbOr3in.canister_band();
    for options in [Options::default(), damaged, counted] {
        let mut ends = [0usize; 3];
        let (mut screen_hit, mut down) = (0, 0);
        for seed in 0..300u64 {
            let (mut b, gun, _) = battery(options);
            let mut line = CompanySpec::new("1st Minnesota, Company A", Side::Union, 4);
            line.formation = Formation::Line;
            let front = b.add_company(line).unwrap();
            let mut sk = CompanySpec::new("Berdan's Sharpshooters, Company C", Side::Union, 3);
            sk.armour = Armour::Breastplate;
            let screen = b.add_company(sk).unwrap();
            let behind = b
                .add_company(CompanySpec::new("1st Minnesota, Company B", Side::Union, 4))
                .unwrap();
            let gunners = rebels(&mut b, "rebel gunners", 3, Formation::Skirmish);
            let rifle = b
                .add_gun("rebel rifle", FieldPiece::Rifle10lbOr3in, true, gunners)
                .unwrap();
            b.activate(gunners).unwrap();
            b.load(rifle, Ammunition::Canister).unwrap();
            b.end_turn().unwrap();
            b.activate(gunners).unwrap();
            let (first, f1) = recorded(seed, |d| {
                let facts = CanisterFacts {
                    through: Some(screen),
                    ..canister_at(6.0)
                };
                b.fire_canister(rifle, front, facts, d).unwrap()
            });
            let (second, f2) = recorded(seed + 10_000, |d| {
                b.blast_through(behind, canister_at(9.0), d)
            });
            let (third, f3) = recorded(seed + 20_000, |d| {
                b.blast_through_team(gun, canister_at(12.0), d)
            });
            let company = |d: f64, close| BlastCompany {
                range: RangeFacts {
                    close_formation_target: close,
                    ..RangeFacts::at(d, band)
                },
                armour: acw_hardtack::DieType::D4,
                pool: 4,
            };
            let chain = BlastChain::with_screens(
                D8,
                FieldPiece::Rifle10lbOr3in,
                &[company(6.0, true), company(9.0, false)],
                &[Some(BlastScreen {
                    armour: acw_hardtack::DieType::D6,
                    pool: 3,
                })],
                Some(BlastTeam {
                    range: RangeFacts::at(12.0, band),
                    horses: 2,
                }),
                options,
            )
            .unwrap();
            // each step's faces up to its companies' tests: what its own fire makes of them
            let step_faces = |rep: &FireReport, faces: &[u16], screen: u8| {
                let Some(FireRoll::Dice(fire)) = rep.roll else {
                    return Vec::new();
                };
                let v = ScreenedVolley {
                    volley: Volley {
                        fire,
                        impact: Impact {
                            impact: acw_hardtack::tables::CANISTER_IMPACT,
                            armour: acw_hardtack::DieType::D4,
                            armour_shift: 0,
                            kill: options.kill_threshold,
                        },
                        pool: 4,
                    },
                    screen_armour: acw_hardtack::DieType::D6,
                    screen,
                };
                let mut d = ScriptedDice::faces(faces.to_vec());
                let _ = v.roll(&mut d);
                faces[..faces.len() - d.remaining()].to_vec()
            };
            let mut faces = step_faces(&first, &f1, 3);
            if let Ok(s) = &second {
                faces.extend(step_faces(s, &f2, 0));
            }
            if third.is_ok() {
                faces.extend(&f3);
            }
            let mut dice = ScriptedDice::faces(faces);
            let out = chain.roll(&mut dice);
            assert_eq!(dice.remaining(), 0, "seed {seed}");
            let same = |o: Option<acw_hardtack::fire::VolleyOutcome>, rep: &FireReport| match (
                o,
                rep.companies.first(),
            ) {
                (None, None) => assert_eq!(rep.range, None, "seed {seed}"),
                (Some(o), Some(c)) => assert_eq!(
                    (o.effect, u32::from(o.killed), u32::from(o.wounded)),
                    (rep.effect, c.killed, c.wounded),
                    "seed {seed}"
                ),
                (o, _) => panic!("seed {seed}: {o:?} / {rep}"),
            };
            same(out.companies[0], &first);
            let sk = out.screens[0].unwrap();
            assert_eq!(
                (u32::from(sk.killed), u32::from(sk.wounded)),
                (first.companies[1].killed, first.companies[1].wounded),
                "seed {seed}"
            );
            screen_hit += usize::from(sk.casualties() > 0);
            assert_eq!(out.screens[1..], [None, None, None]);
            match &second {
                Err(RuleViolation::OutOfOrder(_)) => {
                    assert_eq!(out.companies[1], None, "seed {seed}");
                    ends[0] += 1;
                }
                Ok(s) => same(out.companies[1], s),
                Err(e) => panic!("seed {seed}: {e}"),
            }
            match (out.team, &third) {
                (None, Err(RuleViolation::OutOfOrder(_))) => {
                    if second.is_ok() {
                        ends[1] += 1;
                    }
                }
                (None, Ok(step)) => assert_eq!(step.range, None, "seed {seed}"),
                (Some(t), Ok(step)) => {
                    assert_eq!(
                        (t.effect, u32::from(t.horses_down)),
                        (step.effect, step.companies[0].horses_down),
                        "seed {seed}"
                    );
                    ends[2] += 1;
                    down += usize::from(t.horses_down > 0);
                }
                (t, s) => panic!("seed {seed}: {t:?} / {s:?}"),
            }
        }
        assert!(
            ends.iter().all(|&n| n > 0) && screen_hit > 0 && down > 0,
            "{ends:?} {screen_hit} {down}"
        );
    }
}

// HT-ART-07: every figure the caller finds in a shot's ½" × 2" area is a potential casualty, horse figures
// and gun models included, each rolling once against the ball's D10: a rebel skirmisher (armour 1 against
// impact 10: killed), a gun model (D8 armour 2 against 10: disabled) and a horse of a limbered team (armour 1
// against 10, struck, D6 1: dead), in that order, then the skirmishers' test (8). The area's shape and which figures lie in it are measured by the caller
// (the crate keeps no table positions for round shot).
#[test]
fn everything_in_a_shot_area_rolls() {
    let (mut b, gun, crew) = battery(Options::default());
    let sk = rebels(&mut b, "skirmishers", 4, Formation::Skirmish);
    let rebel_crew = rebels(&mut b, "rebel crew", 3, Formation::Skirmish);
    let target = b
        .add_gun(
            "rebel Napoleon",
            FieldPiece::Napoleon12lb,
            false,
            rebel_crew,
        )
        .unwrap();
    let limbered = b
        .add_gun("rebel 6lb", FieldPiece::Gun6lb, true, rebel_crew)
        .unwrap();
    b.activate(crew).unwrap();
    b.load(gun, Ammunition::Shot).unwrap();
    assert_eq!(
        b.fire_shot(gun, ShotRange::Medium, 0.0, &mut ScriptedDice::faces([8]))
            .unwrap(),
        Landing::OnTarget
    );
    let facts = ShotImpactFacts {
        gun_distance: 30.0,
        figures: vec![(
            FigureRef {
                company: sk,
                index: 1,
            },
            Cover::Open,
            false,
        )],
        guns: vec![target],
        horses: vec![limbered],
        ground_allows_bounce: false,
    };
    let mut dice = ScriptedDice::faces([1, 10, 2, 10, 1, 10, 1, 8]);
    let rep = b.shot_impact(&facts, &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert_eq!(rep.companies[0].killed, 1);
    assert_eq!(rep.guns_disabled, vec!["rebel Napoleon".to_string()]);
    assert_eq!(b.gun(limbered).unwrap().horses(), (2, 1));
    assert_eq!(rep.bounce, None);
}

// HT-ART-14, HT-ART-15: canister reaches five bands of the piece's canister band (6" for a 3" rifle): a
// skirmish company 29" away rolls a D12, one 31" away is beyond D12. The battle refuses the far shot before
// anything is spent — the crew keeps its action, the gun its canister, the dice are not touched — and takes
// the near one, spending the load.
#[test]
fn canister_beyond_its_reach_is_refused() {
    let (mut b, gun, crew) = battery(Options::default());
    let target = rebels(&mut b, "rebel skirmishers", 4, Formation::Skirmish);
    b.activate(crew).unwrap();
    b.load(gun, Ammunition::Canister).unwrap();
    b.end_turn().unwrap();
    b.activate(crew).unwrap();
    let before = b.clone();
    let mut dice = ScriptedDice::faces([1, 1, 1, 1]);
    let e = b
        .fire_canister(gun, target, canister_at(31.0), &mut dice)
        .unwrap_err();
    assert_eq!(
        e,
        RuleViolation::GunRefused {
            name: "3-inch rifle".into(),
            what: "fire canister",
            why: "the target lies beyond the reach of its canister",
        }
    );
    assert_eq!(
        e.to_string(),
        "the 3-inch rifle cannot fire canister: the target lies beyond the reach of its canister"
    );
    assert_eq!(b, before);
    assert_eq!(dice.remaining(), 4);
    let rep = b
        .fire_canister(
            gun,
            target,
            canister_at(29.0),
            &mut ScriptedDice::faces([12, 1, 1, 1, 1, 1, 1, 1]),
        )
        .unwrap();
    assert_eq!(rep.range, Some(D12));
    assert_eq!(rep.effect.success, Success::Fail);
    assert_eq!(b.gun(gun).unwrap().loaded(), None);
}
