//! Actions and formations in the engine: movement, travel, integrity, reaction fire, blocked fire, Gatling
//! guns, guns' crews and limbers, colours, command, panic, suppression, surrender, follow-through, tally.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::Side;
use acw_core::dice::ScriptedDice;
use acw_hardtack::DieType::{D4, D6, D8};
use acw_hardtack::advanced::Modern;
use acw_hardtack::fire::Cover;
use acw_hardtack::morale::Confidence;
use acw_hardtack::options::TravelRate;
use acw_hardtack::setup::Going;
use acw_hardtack::state::{
    Ammunition, CanisterFacts, Colours, CompanySpec, Condition, DefenderChoice, FireFacts,
    Formation, MoveOrder, Panic,
};
use acw_hardtack::tables::{ConfidenceLevel, FieldPiece, Leadership, Quality};
use acw_hardtack::{Battle, CompanyId, Options, RuleViolation};
use common::two;

fn mv(distance: f64) -> MoveOrder {
    MoveOrder {
        distance,
        ..MoveOrder::default()
    }
}

// HT-SG2-21, HT-SG2-22, HT-MOV-01, HT-MOV-02, HT-MOV-05: infantry moves 6" over clear ground, 3" over poor;
// a line 4"; impassable ground is refused.
#[test]
fn normal_moves() {
    let (mut b, a, _) = two(
        Options::default(),
        (8, Formation::Skirmish),
        (8, Formation::Line),
    );
    assert!(
        b.move_company(a, mv(6.0), &mut ScriptedDice::faces([]))
            .unwrap()
    );
    let poor = MoveOrder {
        going: Going::Poor,
        ..mv(3.5)
    };
    assert!(matches!(
        b.move_company(a, poor, &mut ScriptedDice::faces([])),
        Err(RuleViolation::Refused { .. })
    ));
    let imp = MoveOrder {
        going: Going::Impassable,
        ..mv(1.0)
    };
    assert!(
        b.move_company(a, imp, &mut ScriptedDice::faces([]))
            .is_err()
    );
    let (mut b, a, _) = two(
        Options::default(),
        (8, Formation::Line),
        (8, Formation::Line),
    );
    assert!(
        b.move_company(a, mv(4.5), &mut ScriptedDice::faces([]))
            .is_err()
    );
    assert!(
        b.move_company(a, mv(4.0), &mut ScriptedDice::faces([]))
            .unwrap()
    );
}

// HT-MOV-09, HT-MOR-07, HT-SG2-17, HT-SG2-18: a Shaken company may not move closer to the enemy and needs a
// reaction test (TL 2, T = 4) to leave cover; a failure loses the action.
#[test]
fn shaken_movement() {
    let (mut b, a, r) = two(
        Options::default(),
        (8, Formation::Line),
        (8, Formation::Skirmish),
    );
    // Shake the skirmishers: a minor result and a test roll of 1 (two levels).
    b.fire(
        a,
        r,
        FireFacts {
            distance: 6.0,
            ..FireFacts::default()
        },
        &mut ScriptedDice::faces([4, 7, 2, 1]),
    )
    .unwrap();
    b.end_activation().unwrap();
    b.activate(r).unwrap();
    assert_eq!(b.company(r).unwrap().confidence(), ConfidenceLevel::Shaken);
    let closer = MoveOrder {
        toward_enemy: true,
        ..mv(3.0)
    };
    assert!(matches!(
        b.move_company(r, closer, &mut ScriptedDice::faces([])),
        Err(RuleViolation::Refused { .. })
    ));
    let out = MoveOrder {
        leaves_cover: true,
        ..mv(3.0)
    };
    assert!(
        !b.move_company(r, out, &mut ScriptedDice::faces([4]))
            .unwrap()
    );
    assert_eq!(b.company(r).unwrap().actions_left(), 1);
    assert!(
        b.move_company(r, out, &mut ScriptedDice::faces([5]))
            .unwrap()
    );
}

// HT-SG2-14: an In Position company moving without first dropping it tests at TL 2.
#[test]
fn moving_from_position() {
    let (mut b, a, _) = two(
        Options::default(),
        (8, Formation::Skirmish),
        (8, Formation::Line),
    );
    assert!(
        b.go_in_position(a, Cover::Soft, &mut ScriptedDice::faces([8]))
            .unwrap()
    );
    assert!(
        !b.move_company(a, mv(2.0), &mut ScriptedDice::faces([4]))
            .unwrap()
    );
    assert!(b.company(a).unwrap().in_position());
}

// HT-MOV-07, HT-MOV-06, HT-FRM-09, HT-MOV-08: close formations may not pass through each other; a line
// passing through skirmishers is disordered, as is one crossing a stream; a routing company disorders the
// line it passes.
#[test]
fn passing_through_and_disorder() {
    let mut b = Battle::new(Options::default());
    let line = |name: &str| {
        let mut s = CompanySpec::new(name, Side::Union, 8);
        s.formation = Formation::Line;
        s
    };
    let a = b.add_company(line("A")).unwrap();
    let c = b.add_company(line("C")).unwrap();
    let sk = b
        .add_company(CompanySpec::new("S", Side::Union, 6))
        .unwrap();
    b.activate(a).unwrap();
    let through = |id| MoveOrder {
        through: Some(id),
        ..mv(3.0)
    };
    assert!(
        b.move_company(a, through(c), &mut ScriptedDice::faces([]))
            .is_err()
    );
    assert!(
        b.move_company(a, through(sk), &mut ScriptedDice::faces([]))
            .unwrap()
    );
    assert_eq!(b.company(a).unwrap().formation(), Formation::Skirmish);
    b.end_turn().unwrap();
    b.activate(c).unwrap();
    let stream = MoveOrder {
        disordering_terrain: true,
        going: Going::Difficult,
        ..mv(1.0)
    };
    assert!(
        b.move_company(c, stream, &mut ScriptedDice::faces([]))
            .unwrap()
    );
    assert_eq!(b.company(c).unwrap().formation(), Formation::Skirmish);
}

// HT-MOV-03, HT-MOV-04, HT-INT-16, HT-SG2-23: only a column travels; 12" a move on a road (6" off it) by
// default, 24" (12") per action by option; fired on in travel mode the range die drops one.
#[test]
fn travel_mode() {
    let (mut b, a, r) = two(
        Options::default(),
        (8, Formation::Line),
        (8, Formation::Column),
    );
    assert!(matches!(
        b.travel_mode(a, true),
        Err(RuleViolation::Refused { .. })
    ));
    b.end_activation().unwrap();
    b.activate(r).unwrap();
    b.travel_mode(r, true).unwrap();
    let road = MoveOrder {
        road: true,
        ..mv(12.0)
    };
    assert!(
        b.move_company(r, road, &mut ScriptedDice::faces([]))
            .unwrap()
    );
    b.end_turn().unwrap();
    b.activate(a).unwrap();
    // At 12" (band 2, D6) travel mode makes D4, then the column's formation shift spills onto firepower.
    let rep = b
        .fire(
            a,
            r,
            FireFacts {
                distance: 12.0,
                ..FireFacts::default()
            },
            &mut ScriptedDice::faces([4, 1, 1]),
        )
        .unwrap();
    assert_eq!(rep.range, Some(D4));
    let mut o = Options::default();
    o.travel_rate = TravelRate::PerAction;
    let (mut b, _, r) = two(o, (8, Formation::Line), (8, Formation::Column));
    b.end_activation().unwrap();
    b.activate(r).unwrap();
    b.travel_mode(r, true).unwrap();
    assert!(
        b.move_company(
            r,
            MoveOrder {
                road: true,
                ..mv(24.0)
            },
            &mut ScriptedDice::faces([])
        )
        .unwrap()
    );
}

// HT-SG2-10, HT-FRM-10, HT-SG2-06: out of integrity, a company is disorganised and in skirmish order; it can do
// nothing but Reorganise, which restores it and may form it again.
#[test]
fn integrity() {
    let (mut b, a, _) = two(
        Options::default(),
        (8, Formation::Line),
        (8, Formation::Line),
    );
    b.out_of_integrity(a).unwrap();
    assert_eq!(b.company(a).unwrap().formation(), Formation::Skirmish);
    assert!(matches!(
        b.move_company(a, mv(2.0), &mut ScriptedDice::faces([])),
        Err(RuleViolation::Refused { .. })
    ));
    b.reorganise(a, Formation::Line).unwrap();
    assert!(!b.company(a).unwrap().disorganised());
    assert_eq!(b.company(a).unwrap().formation(), Formation::Line);
}

// HT-SG2-47: reaction fire by an unactivated company at a unit between its two moves; it spends its
// activation.
#[test]
fn reaction_fire() {
    let (mut b, a, r) = two(
        Options::default(),
        (8, Formation::Skirmish),
        (8, Formation::Skirmish),
    );
    b.move_company(a, mv(6.0), &mut ScriptedDice::faces([]))
        .unwrap();
    let rep = b
        .reaction_fire(
            r,
            a,
            FireFacts {
                distance: 10.0,
                ..FireFacts::default()
            },
            &mut ScriptedDice::faces([6, 1, 1]),
        )
        .unwrap();
    assert_eq!(rep.range, Some(D6));
    assert!(b.company(r).unwrap().activated());
    assert_eq!(b.company(r).unwrap().actions_left(), 0);
    assert!(
        b.reaction_fire(r, a, FireFacts::default(), &mut ScriptedDice::faces([]))
            .is_err()
    );
}

// HT-SG2-12, HT-FIR-21, HT-FIR-22: no fire into woods; a line whose arc is blocked cannot fire; a friendly line
// in the way blocks unless the firer is directly behind it and touching.
#[test]
fn blocked_fire() {
    let (mut b, a, r) = two(
        Options::default(),
        (8, Formation::Line),
        (8, Formation::Skirmish),
    );
    let friend = {
        let mut s = CompanySpec::new("front line", Side::Union, 8);
        s.formation = Formation::Line;
        b.add_company(s).unwrap()
    };
    let base = FireFacts {
        distance: 6.0,
        ..FireFacts::default()
    };
    for facts in [
        FireFacts {
            within_woods: true,
            ..base
        },
        FireFacts {
            arc_blocked: true,
            ..base
        },
        FireFacts {
            friendly_between: Some((friend, false)),
            ..base
        },
    ] {
        assert!(matches!(
            b.fire(a, r, facts, &mut ScriptedDice::faces([])),
            Err(RuleViolation::CannotFire { .. })
        ));
    }
    let second_line = FireFacts {
        friendly_between: Some((friend, true)),
        ..base
    };
    assert!(
        b.fire(a, r, second_line, &mut ScriptedDice::faces([4, 1, 1]))
            .is_ok()
    );
}

// HT-FIR-15, HT-SG2-34: a company with a Gatling gun rolls a D8 more; the hits use the musket's impact.
#[test]
fn gatling_gun() {
    let mut b = Battle::new(Options::default());
    let mut s = CompanySpec::new("Gatling section", Side::Union, 4);
    s.gatlings = 1;
    s.formation = Formation::Line;
    let g = b.add_company(s).unwrap();
    let r = b
        .add_company(CompanySpec::new("rebels", Side::Confederate, 8))
        .unwrap();
    b.activate(g).unwrap();
    // R 1; Q 1, FP 1, Gatling 8: minor. The fourth die is the Gatling's.
    let rep = b
        .fire(
            g,
            r,
            FireFacts {
                distance: 6.0,
                ..FireFacts::default()
            },
            &mut ScriptedDice::faces([1, 1, 1, 8, 8]),
        )
        .unwrap();
    assert_eq!(rep.effect.success, acw_hardtack::ladder::Success::Minor);
    let mut bad = CompanySpec::new("too many", Side::Union, 4);
    bad.gatlings = 3;
    assert!(b.add_company(bad).is_err());
}

fn battery() -> (Battle, acw_hardtack::GunId, CompanyId, CompanyId) {
    let mut b = Battle::new(Options::default());
    let crew = b
        .add_company(CompanySpec::new("crew", Side::Union, 3))
        .unwrap();
    let gun = b
        .add_gun("Napoleon", FieldPiece::Napoleon12lb, false, crew)
        .unwrap();
    let foe = b
        .add_company(CompanySpec::new("rebels", Side::Confederate, 8))
        .unwrap();
    (b, gun, crew, foe)
}

// HT-ART-02, HT-FRM-14, HT-OPT-10, HT-ART-18, HT-ART-03: a limbered gun cannot fire; a target 20 degrees off
// the gun's facing is outside its arc; canister never fires through friends; a counted round is spent.
#[test]
fn gun_readiness() {
    let (mut b, gun, crew, foe) = battery();
    b.activate(crew).unwrap();
    b.load(gun, Ammunition::Canister).unwrap();
    b.end_turn().unwrap();
    b.activate(crew).unwrap();
    b.limber(gun, true, 4.0).unwrap();
    let facts = CanisterFacts {
        distance: 6.0,
        ..CanisterFacts::default()
    };
    assert!(matches!(
        b.fire_canister(gun, foe, facts, &mut ScriptedDice::faces([])),
        Err(RuleViolation::GunRefused { .. })
    ));
    b.end_turn().unwrap();
    b.activate(crew).unwrap();
    b.limber(gun, false, 0.0).unwrap();
    let wide = CanisterFacts {
        off_facing: 20.0,
        ..facts
    };
    assert!(
        b.fire_canister(gun, foe, wide, &mut ScriptedDice::faces([]))
            .is_err()
    );
    let friendly = CanisterFacts {
        friendly_between: true,
        ..facts
    };
    assert!(
        b.fire_canister(gun, foe, friendly, &mut ScriptedDice::faces([]))
            .is_err()
    );
    b.set_rounds(gun, Some(1)).unwrap();
    // A miss (R 4 against Q 1, FP 1, 1): no blast to carry; the company still tests (8).
    b.fire_canister(gun, foe, facts, &mut ScriptedDice::faces([4, 1, 1, 1, 8]))
        .unwrap();
    b.end_turn().unwrap();
    b.activate(crew).unwrap();
    b.load(gun, Ammunition::Canister).unwrap();
    let out = b
        .fire_canister(gun, foe, facts, &mut ScriptedDice::faces([]))
        .unwrap_err();
    assert!(out.to_string().contains("no rounds"), "{out}");
    assert!(matches!(
        b.limber(gun, true, 9.0),
        Err(RuleViolation::GunRefused { .. })
    ));
}

// HT-ART-04, HT-ART-05, HT-ART-23, HT-MOR-07, HT-ART-24: a gun with one crewman loads with both actions; a
// Routed crew abandons its gun; infantry captors work it as a partial crew; a Broken crew keeps its gun on a
// reaction test (TL 0); crews may not form line.
#[test]
fn crews_and_captured_guns() {
    let (mut b, gun, crew, foe) = battery();
    b.activate(crew).unwrap();
    assert!(matches!(
        b.reorganise(crew, Formation::Line),
        Err(RuleViolation::Refused { .. })
    ));
    b.end_turn().unwrap();
    // Two crewmen fall to the rebels' volley: R 1, Q 8, FP 4 (8 skirmishers: D6) on 3 figures (D4): 12/4 =
    // 3 hits: allocation 2 and 3 killed (armour 1, impact 6), 4 (the leader) missed; the crew tests (8).
    b.activate(foe).unwrap();
    let mut dice = ScriptedDice::faces([1, 8, 4, 2, 1, 6, 3, 1, 6, 4, 4, 1, 8]);
    b.fire(
        foe,
        crew,
        FireFacts {
            distance: 6.0,
            ..FireFacts::default()
        },
        &mut dice,
    )
    .unwrap();
    assert_eq!(b.company(crew).unwrap().fit(), 1);
    b.end_turn().unwrap();
    b.activate(crew).unwrap();
    b.load(gun, Ammunition::Canister).unwrap();
    assert_eq!(b.company(crew).unwrap().actions_left(), 0);
    // A Broken crew: a pass keeps the gun, a Routed one abandons it.
    let (mut b, gun, crew, foe) = battery();
    assert!(
        b.broken_crew_retreats(gun, &mut ScriptedDice::faces([8]))
            .is_err()
    );
    b.activate(foe).unwrap();
    // Minor result (R 4, Q 7, FP 2 — 8 fit figures skirmish: D6 firepower) and a test roll of 1: two levels;
    // then again with a roll of 1: Routed.
    common::fire_twice(&mut b, foe, crew, &[4, 7, 2, 1], &[4, 7, 2, 1]);
    assert_eq!(
        b.company(crew).unwrap().confidence(),
        ConfidenceLevel::Routed
    );
    assert!(b.gun(gun).unwrap().abandoned());
    b.capture_gun(gun, foe, false).unwrap();
    assert_eq!(b.gun(gun).unwrap().crew(), foe);
    b.end_turn().unwrap();
    b.activate(foe).unwrap();
    b.load(gun, Ammunition::Canister).unwrap();
    assert_eq!(b.company(foe).unwrap().actions_left(), 0);
    let (mut b, gun, crew, foe) = battery();
    b.activate(foe).unwrap();
    common::fire_twice(&mut b, foe, crew, &[4, 7, 2, 1], &[4, 7, 2, 2]);
    assert_eq!(
        b.company(crew).unwrap().confidence(),
        ConfidenceLevel::Broken
    );
    assert!(
        b.broken_crew_retreats(gun, &mut ScriptedDice::faces([3]))
            .unwrap()
    );
    assert!(
        !b.broken_crew_retreats(gun, &mut ScriptedDice::faces([2]))
            .unwrap()
    );
    assert!(b.gun(gun).unwrap().abandoned());
}

// HT-OPT-27, HT-OPT-28: the colour bearer does not fire; when he falls the colours fall; an enemy company
// takes them with a Reorganise and every company of the regiment then tests at +1.
#[test]
fn colours() {
    let mut b = Battle::new(Options::default());
    let mut s = CompanySpec::new("colour company", Side::Confederate, 4);
    s.regiment = Some(26);
    s.colour_bearer = true;
    let colour = b.add_company(s).unwrap();
    let mut s2 = CompanySpec::new("sister company", Side::Confederate, 8);
    s2.regiment = Some(26);
    let sister = b.add_company(s2).unwrap();
    let mut line = CompanySpec::new("Union line", Side::Union, 8);
    line.formation = Formation::Line;
    let u = b.add_company(line).unwrap();
    b.activate(colour).unwrap();
    // Three firers: FP 3 -> D4 (skirmish, closed) and Q D8. R 4, Q 1, FP 1: nothing.
    b.fire(
        colour,
        u,
        FireFacts {
            distance: 6.0,
            ..FireFacts::default()
        },
        &mut ScriptedDice::faces([4, 1, 1]),
    )
    .unwrap();
    assert_eq!(
        b.company(colour)
            .unwrap()
            .figures()
            .iter()
            .filter(|f| f.reload)
            .count(),
        3
    );
    b.end_turn().unwrap();
    b.activate(u).unwrap();
    // R 1, Q 8, FP 8: 4 hits on 4 figures (D4): the bearer (allocation 2) killed, the rest missed.
    let mut dice = ScriptedDice::faces([1, 8, 8, 2, 1, 6, 3, 4, 1, 4, 4, 1, 1, 4, 1, 8]);
    b.fire(
        u,
        colour,
        FireFacts {
            distance: 6.0,
            ..FireFacts::default()
        },
        &mut dice,
    )
    .unwrap();
    assert_eq!(b.colours(26), Some(Colours::Fallen));
    b.end_activation().unwrap();
    assert!(matches!(
        b.take_colours(u, 26),
        Err(RuleViolation::NoActionLeft { .. })
    ));
    b.end_turn().unwrap();
    b.activate(u).unwrap();
    assert_eq!(b.take_colours(u, 26).unwrap(), Colours::Captured);
    b.end_turn().unwrap();
    b.activate(sister).unwrap();
    // The sister company goes In Position in cover at TL 0 + 1 = 1 (T = 3): 3 fails.
    assert!(
        !b.go_in_position(sister, Cover::Soft, &mut ScriptedDice::faces([3]))
            .unwrap()
    );
}

// HT-CMD-04, HT-CMD-05, HT-MOR-10: the colonel falls: each company tests (4/3/1 at Medium, -1 in line); the
// successor is the best-quality company still steady enough; its new leader's LV from the D6.
#[test]
fn colonel_falls() {
    let mut b = Battle::new(Options::default());
    let mk = |name: &str, q| {
        let mut s = CompanySpec::new(name, Side::Union, 8);
        s.formation = Formation::Line;
        s.quality = q;
        s
    };
    let a = b.add_company(mk("A", Quality::Veteran)).unwrap();
    let c = b.add_company(mk("B", Quality::Regular)).unwrap();
    // Tests: A D10 (T = 2 + 2 = 4) roll 10; B D8 roll 8; then the successor is A (the only Veteran): no roll;
    // its new leader D6 6 -> LV1.
    let colonel = b
        .add_company(CompanySpec::new("colonel", Side::Union, 1))
        .unwrap();
    let chosen = b
        .colonel_falls(colonel, &[a, c], &mut ScriptedDice::faces([10, 8, 6]))
        .unwrap();
    assert_eq!(chosen, a);
    assert_eq!(b.company(a).unwrap().lv(), Leadership::ONE);
    // The stand is named for its new colonel and the one first appointed.
    assert_eq!(
        b.company(colonel).unwrap().name(),
        "Acting colonel from A, succeeding colonel"
    );
    assert!(
        b.colonel_falls(colonel, &[], &mut ScriptedDice::faces([]))
            .is_err()
    );
    // He falls too: B tests (D8 8) and, alone, succeeds him (its new leader's D6 6); the stand still names
    // the colonel first appointed, not a chain of successors.
    let chosen = b
        .colonel_falls(colonel, &[c], &mut ScriptedDice::faces([8, 6]))
        .unwrap();
    assert_eq!(chosen, c);
    assert_eq!(
        b.company(colonel).unwrap().name(),
        "Acting colonel from B, succeeding colonel"
    );
}

// HT-CMD-07, HT-SEQ-06: a formation rally rolls for each company within 6"; a brigadier's transfer lets the
// colonel activate a second formation.
#[test]
fn formation_rally_and_second_regiment() {
    let mut b = Battle::new(Options::default());
    let col = b
        .add_company(CompanySpec::new("colonel", Side::Union, 2))
        .unwrap();
    let brig = b
        .add_company(CompanySpec::new("brigadier", Side::Union, 3))
        .unwrap();
    let mut ids = Vec::new();
    for i in 0..4 {
        let mut s = CompanySpec::new(&format!("company {i}"), Side::Union, 6);
        s.formation = Formation::Line;
        s.fatigue = acw_hardtack::tables::Fatigue::Tired;
        ids.push(b.add_company(s).unwrap());
    }
    b.activate(col).unwrap();
    b.activate_regiment(col, &[(ids[0], 3.0), (ids[1], 3.0)])
        .unwrap();
    b.end_activation().unwrap();
    b.activate(brig).unwrap();
    b.transfer(brig, col, 4.0).unwrap();
    b.activate_regiment(col, &[(ids[2], 3.0), (ids[3], 3.0)])
        .unwrap();
    assert!(b.company(ids[3]).unwrap().activated());
    assert!(
        b.activate_regiment(col, &[(ids[0], 3.0), (ids[1], 3.0)])
            .is_err()
    );
    b.end_turn().unwrap();
    b.activate(col).unwrap();
    let r = b
        .rally_formation(
            col,
            &[(ids[0], 5.0), (ids[1], 5.0)],
            &mut ScriptedDice::faces([8, 1]),
        )
        .unwrap();
    assert_eq!(r, vec![ConfidenceLevel::Steady, ConfidenceLevel::Steady]);
    assert!(
        b.rally_formation(col, &[(ids[0], 7.0)], &mut ScriptedDice::faces([]))
            .is_err()
    );
}

// HT-SG2-19, HT-MOR-08: a Green company first fired on tests for panic (TL 0, T = 2): a 2 panics it; it can
// do nothing; removal takes both actions and beats 2; a failed 1 also costs a level; once removed, immune.
#[test]
fn panic() {
    let mut b = Battle::new(Options::default());
    let mut l = CompanySpec::new("Union line", Side::Union, 8);
    l.formation = Formation::Line;
    let u = b.add_company(l).unwrap();
    let mut g = CompanySpec::new("new regiment", Side::Confederate, 8);
    g.quality = Quality::Green;
    let green = b.add_company(g).unwrap();
    b.activate(u).unwrap();
    // A minor result (R 4, Q 7, FP 2); the test (T = 2) roll 6 passes; the panic roll 2 fails.
    b.fire(
        u,
        green,
        FireFacts {
            distance: 6.0,
            ..FireFacts::default()
        },
        &mut ScriptedDice::faces([4, 7, 2, 6, 2]),
    )
    .unwrap();
    assert_eq!(b.company(green).unwrap().panic(), Panic::Panicked);
    b.end_activation().unwrap();
    b.activate(green).unwrap();
    assert!(matches!(
        b.move_company(green, mv(2.0), &mut ScriptedDice::faces([])),
        Err(RuleViolation::Refused { .. })
    ));
    assert!(
        !b.remove_panic(green, &mut ScriptedDice::faces([1]))
            .unwrap()
    );
    assert_eq!(
        b.company(green).unwrap().confidence(),
        ConfidenceLevel::Steady
    );
    b.end_turn().unwrap();
    b.activate(green).unwrap();
    assert!(
        b.remove_panic(green, &mut ScriptedDice::faces([3]))
            .unwrap()
    );
    assert_eq!(b.company(green).unwrap().panic(), Panic::Immune);
}

// HT-SG2-53, HT-OPT-32: a suppression marker from modern weapons comes off for an action and a roll above LV.
#[test]
fn suppression_removal() {
    let mut b = Battle::new(Options::default());
    let mut ak = CompanySpec::new("AK squad", Side::Confederate, 3);
    ak.modern = Some(Modern::ASSAULT_RIFLE);
    let squad = b.add_company(ak).unwrap();
    let skirm = b
        .add_company(CompanySpec::new("skirmishers", Side::Union, 8))
        .unwrap();
    b.activate(squad).unwrap();
    b.fire(
        squad,
        skirm,
        FireFacts {
            distance: 12.0,
            ..FireFacts::default()
        },
        &mut ScriptedDice::faces([4, 3, 6, 8]),
    )
    .unwrap();
    b.end_activation().unwrap();
    b.activate(skirm).unwrap();
    assert!(
        !b.remove_suppression(skirm, &mut ScriptedDice::faces([2]))
            .unwrap()
    );
    assert!(
        b.remove_suppression(skirm, &mut ScriptedDice::faces([3]))
            .unwrap()
    );
    assert_eq!(b.company(skirm).unwrap().suppression(), 0);
    assert!(
        b.remove_suppression(skirm, &mut ScriptedDice::faces([3]))
            .is_err()
    );
}

// HT-SG2-48, HT-VIC-01: a blocked Routed company surrenders with an enemy within 12", else disperses; the tally
// counts what each side lost.
#[test]
fn surrender_and_tally() {
    let (mut b, a, r) = two(
        Options::default(),
        (8, Formation::Line),
        (8, Formation::Skirmish),
    );
    assert!(b.rout_blocked(r, true).is_err());
    b.fire(
        a,
        r,
        FireFacts {
            distance: 6.0,
            ..FireFacts::default()
        },
        &mut ScriptedDice::faces([4, 7, 2, 1]),
    )
    .unwrap();
    b.reload(a).unwrap();
    b.end_turn().unwrap();
    b.activate(a).unwrap();
    b.fire(
        a,
        r,
        FireFacts {
            distance: 6.0,
            ..FireFacts::default()
        },
        &mut ScriptedDice::faces([4, 7, 2, 1]),
    )
    .unwrap();
    assert_eq!(b.company(r).unwrap().confidence(), ConfidenceLevel::Routed);
    b.end_activation().unwrap();
    b.rout_blocked(r, true).unwrap();
    assert!(
        b.company(r)
            .unwrap()
            .figures()
            .iter()
            .all(|f| f.condition == Condition::Captured)
    );
    let t = b.tally(Side::Confederate);
    assert_eq!((t.broken, t.figures_lost), (1, 8));
    assert!(t.to_string().contains("8 figures lost"));
    assert_eq!(b.tally(Side::Union).figures_lost, 0);
}

// HT-SG2-43: with the option, after the defender withdraws the attacker may follow through on a reaction test
// at +2 (T = 4, -1 for its line: 3).
#[test]
fn follow_through() {
    let mut o = Options::default();
    o.sgii_follow_through = true;
    let (mut b, a, r) = two(o, (8, Formation::Line), (4, Formation::Skirmish));
    assert!(b.follow_through(&mut ScriptedDice::faces([8])).is_err());
    b.assault(a, r, &mut ScriptedDice::faces([8])).unwrap();
    b.defend(DefenderChoice::Withdraw, &mut ScriptedDice::faces([]))
        .unwrap();
    assert!(!b.follow_through(&mut ScriptedDice::faces([3])).unwrap());
    let (mut b, a, r) = two(
        Options::default(),
        (8, Formation::Line),
        (4, Formation::Skirmish),
    );
    b.assault(a, r, &mut ScriptedDice::faces([8])).unwrap();
    b.defend(DefenderChoice::Withdraw, &mut ScriptedDice::faces([]))
        .unwrap();
    assert!(b.follow_through(&mut ScriptedDice::faces([8])).is_err());
}

// HT-SG2-09, HT-CMD-08: a leader details 3 figures as a detached element (one action); the element cannot
// activate itself; his leader activates it within 6" (not beyond) for two actions; back in integrity it
// rejoins.
#[test]
fn detached_element() {
    let (mut b, a, _) = two(
        Options::default(),
        (8, Formation::Skirmish),
        (8, Formation::Skirmish),
    );
    let el = b.detach(a, 3, false).unwrap();
    assert_eq!(b.company(a).unwrap().fit(), 5);
    assert_eq!(b.company(el).unwrap().fit(), 3);
    b.end_turn().unwrap();
    assert!(matches!(b.activate(el), Err(RuleViolation::Refused { .. })));
    b.activate(a).unwrap();
    assert!(b.activate_element(a, el, 7.0).is_err());
    b.activate_element(a, el, 5.0).unwrap();
    assert_eq!(b.company(el).unwrap().actions_left(), 2);
    assert!(
        b.move_company(el, mv(6.0), &mut ScriptedDice::faces([]))
            .unwrap()
    );
    b.rejoin(el).unwrap();
    assert_eq!(b.company(a).unwrap().fit(), 8);
    assert!(b.rejoin(el).is_err());
}

// HT-CMD-02: a runner (one figure) may only move and carry a transferred action: he gives a company 6" away a
// full activation; he cannot go In Position, and cannot deliver an Activate Regiment.
#[test]
fn runner() {
    let mut b = Battle::new(Options::default());
    let colonel = b
        .add_company(CompanySpec::new("colonel's staff", Side::Union, 3))
        .unwrap();
    let far = b
        .add_company(CompanySpec::new("Company F", Side::Union, 8))
        .unwrap();
    b.activate(colonel).unwrap();
    let runner = b.detach(colonel, 1, true).unwrap();
    assert!(b.detach(colonel, 2, true).is_err());
    b.end_turn().unwrap();
    b.activate(runner).unwrap();
    let no = b
        .go_in_position(runner, Cover::Soft, &mut ScriptedDice::faces([8]))
        .unwrap_err();
    assert!(no.to_string().contains("runner"), "{no}");
    assert!(
        b.move_company(runner, mv(6.0), &mut ScriptedDice::faces([]))
            .unwrap()
    );
    b.transfer(runner, far, 4.0).unwrap();
    assert_eq!(b.company(far).unwrap().actions_left(), 2);
    assert!(b.activate_regiment(runner, &[(far, 1.0)]).is_err());
}

// HT-SG2-26: a runner is an independent figure with no confidence level of his own. Fired on (the range die
// one up for a lone figure: 30" to a sharpshooter is D6, here D8), R 1, Q 5, D8 7: the shot hits him, armour 4
// against impact 1 does nothing; he tests at LV 2 + TL 0 and rolls 2: a one-level failure gives a suppression
// marker, his level unchanged. He removes it for one action (3 beats LV 2). Shot again, he rolls 1: a
// two-level failure gives a panic marker; he can do nothing but remove it, for one action, and a 1 on that
// roll takes him out of play.
#[test]
fn independent_figure_markers() {
    let mut b = Battle::new(Options::default());
    let a = b
        .add_company(CompanySpec::new("Company A", Side::Union, 8))
        .unwrap();
    let sharp = [
        b.add_company(CompanySpec::new("first marksman", Side::Confederate, 1))
            .unwrap(),
        b.add_company(CompanySpec::new("second marksman", Side::Confederate, 1))
            .unwrap(),
    ];
    b.activate(a).unwrap();
    let runner = b.detach(a, 1, true).unwrap();
    assert!(b.company(runner).unwrap().lone());
    assert!(!b.company(a).unwrap().lone());
    let level = b.company(runner).unwrap().confidence();
    let facts = FireFacts {
        distance: 30.0,
        ..FireFacts::default()
    };
    b.end_activation().unwrap();
    b.activate(sharp[0]).unwrap();
    let mut dice = ScriptedDice::faces([1, 5, 7, 4, 1, 2]);
    let (rep, _) = b
        .sharpshoot(sharp[0], runner, facts, Some(0), &mut dice)
        .unwrap();
    assert_eq!(dice.remaining(), 0);
    assert_eq!(rep.range, Some(D8));
    assert_eq!(rep.companies[0].killed + rep.companies[0].wounded, 0);
    assert_eq!(
        rep.companies[0].test.map(|t| (t.0, t.1)),
        Some((0, Confidence::LoseOne))
    );
    let r = b.company(runner).unwrap();
    assert_eq!(
        (r.suppression(), r.confidence(), r.panic()),
        (1, level, Panic::Untested)
    );
    b.end_turn().unwrap();
    b.activate(runner).unwrap();
    assert!(
        b.remove_suppression(runner, &mut ScriptedDice::faces([3]))
            .unwrap()
    );
    let r = b.company(runner).unwrap();
    assert_eq!((r.suppression(), r.actions_left()), (0, 1));
    b.end_activation().unwrap();
    b.activate(sharp[1]).unwrap();
    let mut dice = ScriptedDice::faces([1, 5, 7, 4, 1, 1]);
    let (rep, _) = b
        .sharpshoot(sharp[1], runner, facts, Some(0), &mut dice)
        .unwrap();
    assert_eq!(
        rep.companies[0].test.map(|t| (t.0, t.1)),
        Some((0, Confidence::LoseTwo))
    );
    let r = b.company(runner).unwrap();
    assert_eq!(
        (r.suppression(), r.confidence(), r.panic()),
        (0, level, Panic::Panicked)
    );
    b.end_turn().unwrap();
    b.activate(runner).unwrap();
    assert!(
        b.move_company(runner, mv(6.0), &mut ScriptedDice::faces([]))
            .is_err()
    );
    assert!(
        !b.remove_panic(runner, &mut ScriptedDice::faces([1]))
            .unwrap()
    );
    let r = b.company(runner).unwrap();
    assert_eq!(r.actions_left(), 1);
    assert_eq!(r.fit(), 0);
    assert_eq!(r.figures()[0].condition, Condition::Dispersed);
}

// HT-SG2-25: a hidden company: fire at it causes no casualties, a major result reveals it and it tests; an
// Observe at 30" into soft cover (target D4 + 2 + 1 = D10) with the observer's D8 and a D4 — target 3, 5 and
// 2: one die beats it and it is revealed; a hidden unit that activates is revealed.
#[test]
fn hidden_units() {
    let mut b = Battle::new(Options::default());
    let mut line = CompanySpec::new("Union line", Side::Union, 8);
    line.formation = Formation::Line;
    let u = b.add_company(line).unwrap();
    let mut h = CompanySpec::new("hidden rebels", Side::Confederate, 8);
    h.hidden = true;
    let r = b.add_company(h).unwrap();
    let mut h2 = CompanySpec::new("more hidden rebels", Side::Confederate, 8);
    h2.hidden = true;
    let r2 = b.add_company(h2).unwrap();
    b.activate(u).unwrap();
    // R 1, Q 8, FP 8: a major result at a hidden counter: no casualties rolled; revealed; the test (8).
    let rep = b
        .fire(
            u,
            r,
            FireFacts {
                distance: 6.0,
                ..FireFacts::default()
            },
            &mut ScriptedDice::faces([1, 8, 8, 8]),
        )
        .unwrap();
    assert_eq!(rep.companies[0].killed + rep.companies[0].wounded, 0);
    assert!(!b.company(r).unwrap().hidden());
    let seen = b
        .observe(
            u,
            r2,
            30.0,
            Cover::Soft,
            &mut ScriptedDice::faces([3, 5, 2]),
        )
        .unwrap();
    assert_eq!(seen, acw_hardtack::ladder::Success::Minor);
    assert!(!b.company(r2).unwrap().hidden());
    assert!(
        b.observe(u, r2, 30.0, Cover::Soft, &mut ScriptedDice::faces([]))
            .is_err()
    );
    let mut h3 = CompanySpec::new("last hidden", Side::Confederate, 8);
    h3.hidden = true;
    let r3 = b.add_company(h3).unwrap();
    b.end_turn().unwrap();
    b.activate(r3).unwrap();
    assert!(!b.company(r3).unwrap().hidden());
}

// HT-SG2-25 dummy counters: a side deploys dummies only among its hidden units. A Union leader (Regular: D8
// and a D4) observes a Confederate counter 30" away in soft cover (D4 + 2 for range + 1 for cover = D10):
// target 9 against 5 and 2 fails, the counter stays and the action is spent; next activation target 3
// against 5 and 2, one die beats it (minor: the counter is flipped), it is empty and taken off the table. A
// second dummy is taken off when a Union company sees it in the open. Refusals change nothing: a dummy of
// one's own side, one already removed, an unknown id, dice that run out.
#[test]
fn dummy_counters() {
    let mut b = Battle::new(Options::default());
    let u = b
        .add_company(CompanySpec::new("Union line", Side::Union, 8))
        .unwrap();
    let refused = b.add_dummy(Side::Confederate).unwrap_err();
    assert!(matches!(refused, RuleViolation::Refused { .. }));
    assert!(
        refused.to_string().contains("the Confederate side"),
        "{refused}"
    );
    let mut h = CompanySpec::new("hidden rebels", Side::Confederate, 8);
    h.hidden = true;
    b.add_company(h).unwrap();
    let d1 = b.add_dummy(Side::Confederate).unwrap();
    let d2 = b.add_dummy(Side::Confederate).unwrap();
    assert_eq!(d2.to_string(), "dummy 1");
    assert_eq!(b.dummies().count(), 2);
    b.activate(u).unwrap();
    let before = b.clone();
    assert!(
        b.observe_dummy(u, d1, 30.0, Cover::Soft, &mut ScriptedDice::faces([9, 5]))
            .is_err()
    );
    assert_eq!(b, before);
    let r = b
        .observe_dummy(
            u,
            d1,
            30.0,
            Cover::Soft,
            &mut ScriptedDice::faces([9, 5, 2]),
        )
        .unwrap();
    assert_eq!(r, acw_hardtack::ladder::Success::Fail);
    assert!(b.dummy(d1).unwrap().on_table);
    b.end_turn().unwrap();
    b.activate(u).unwrap();
    let r = b
        .observe_dummy(
            u,
            d1,
            30.0,
            Cover::Soft,
            &mut ScriptedDice::faces([3, 5, 2]),
        )
        .unwrap();
    assert_eq!(r, acw_hardtack::ladder::Success::Minor);
    assert!(!b.dummy(d1).unwrap().on_table);
    assert_eq!(b.dummies().map(|(id, _)| id).collect::<Vec<_>>(), vec![d2]);
    let before = b.clone();
    assert!(
        b.observe_dummy(
            u,
            d1,
            30.0,
            Cover::Soft,
            &mut ScriptedDice::faces([3, 5, 2])
        )
        .is_err()
    );
    assert!(matches!(
        b.sight_dummy(u, acw_hardtack::DummyId(7)),
        Err(RuleViolation::UnknownDummy(_))
    ));
    assert_eq!(b, before);
    // a saved battle keeps its dummies
    let saved = serde_json::to_string(&b).unwrap();
    assert_eq!(serde_json::from_str::<Battle>(&saved).unwrap(), b);
    b.sight_dummy(u, d2).unwrap();
    assert_eq!(b.dummies().count(), 0);
    let mut h2 = CompanySpec::new("Union hidden", Side::Union, 4);
    h2.hidden = true;
    b.add_company(h2).unwrap();
    let own = b.add_dummy(Side::Union).unwrap();
    let before = b.clone();
    assert!(b.sight_dummy(u, own).is_err());
    assert_eq!(b, before);
}

// HT-SG2-25: speculative fire at a counter that is a dummy. A Union company fires at it 6" away: R 4, Q 1,
// FP 1 fails and the counter stays; a second company's R 1, Q 8, FP 6 (a skirmish company's D6) is a major
// result (its potential casualties' remainder D4 shows 1): the counter is empty and taken off the table, and
// no one tests (no die is rolled after the fire's own). Refused: a counter of one's own side, one already
// removed.
#[test]
fn speculative_fire_at_a_dummy() {
    let mut b = Battle::new(Options::default());
    let u1 = b
        .add_company(CompanySpec::new("1st Union", Side::Union, 8))
        .unwrap();
    let u2 = b
        .add_company(CompanySpec::new("2nd Union", Side::Union, 8))
        .unwrap();
    let mut h = CompanySpec::new("hidden rebels", Side::Confederate, 8);
    h.hidden = true;
    b.add_company(h).unwrap();
    let dummy = b.add_dummy(Side::Confederate).unwrap();
    let at = FireFacts {
        distance: 6.0,
        ..FireFacts::default()
    };
    b.activate(u1).unwrap();
    let mut dice = ScriptedDice::faces([4, 1, 1]);
    let rep = b.fire_at_dummy(u1, dummy, at, &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert_eq!(rep.effect.success, acw_hardtack::ladder::Success::Fail);
    assert!(b.dummy(dummy).unwrap().on_table);
    b.end_turn().unwrap();
    b.activate(u2).unwrap();
    let mut dice = ScriptedDice::faces([1, 8, 6, 1]);
    let rep = b.fire_at_dummy(u2, dummy, at, &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert_eq!(rep.effect.success, acw_hardtack::ladder::Success::Major);
    assert!(rep.companies.is_empty());
    assert!(!b.dummy(dummy).unwrap().on_table);
    let before = b.clone();
    assert!(
        b.fire_at_dummy(u2, dummy, at, &mut ScriptedDice::faces([1, 8, 6]))
            .is_err()
    );
    let mut h2 = CompanySpec::new("Union hidden", Side::Union, 4);
    h2.hidden = true;
    let mut b2 = b.clone();
    b2.add_company(h2).unwrap();
    let own = b2.add_dummy(Side::Union).unwrap();
    assert!(
        b2.clone()
            .fire_at_dummy(u2, own, at, &mut ScriptedDice::faces([1, 8, 6]))
            .is_err()
    );
    assert_eq!(b, before);
}

// HT-SEQ-03, HT-SG2-05: a battle saved in the middle of a regimental activation (every member with its two
// actions) or after a transfer (the commander with one action left, the receiver with two) loads back as it
// was; a saved battle with two companies acting and nothing to account for it is refused.
#[test]
fn saved_mid_regiment_or_transfer_loads_back() {
    let mut b = Battle::new(Options::default());
    let col = b
        .add_company(CompanySpec::new("colonel", Side::Union, 2))
        .unwrap();
    let mut ids = Vec::new();
    for i in 0..2 {
        let mut s = CompanySpec::new(&format!("company {i}"), Side::Union, 6);
        s.formation = Formation::Line;
        ids.push(b.add_company(s).unwrap());
    }
    let lone = b
        .add_company(CompanySpec::new("lone company", Side::Confederate, 6))
        .unwrap();
    b.activate(col).unwrap();
    b.activate_regiment(col, &[(ids[0], 3.0), (ids[1], 3.0)])
        .unwrap();
    assert_eq!(b.company(ids[0]).unwrap().actions_left(), 2);
    assert_eq!(b.company(ids[1]).unwrap().actions_left(), 2);
    let saved = serde_json::to_string(&b).unwrap();
    assert_eq!(serde_json::from_str::<Battle>(&saved).unwrap(), b);

    let mut t = Battle::new(Options::default());
    let colonel = t
        .add_company(CompanySpec::new("colonel", Side::Union, 2))
        .unwrap();
    let crew = t
        .add_company(CompanySpec::new("crew", Side::Union, 4))
        .unwrap();
    t.activate(colonel).unwrap();
    t.transfer(colonel, crew, 3.0).unwrap();
    assert_eq!(t.company(colonel).unwrap().actions_left(), 1);
    assert_eq!(t.company(crew).unwrap().actions_left(), 2);
    let saved = serde_json::to_string(&t).unwrap();
    assert_eq!(serde_json::from_str::<Battle>(&saved).unwrap(), t);

    // forged: the regiment's record removed, and a Confederate company acting beside the Union's
    let mut v = serde_json::to_value(&b).unwrap();
    v["regiment"] = serde_json::Value::Null;
    let e = serde_json::from_value::<Battle>(v).unwrap_err().to_string();
    assert!(e.contains("more than one company is acting at once"), "{e}");
    let mut v = serde_json::to_value(&b).unwrap();
    v["companies"][lone.0 as usize]["actions"] = 2.into();
    let e = serde_json::from_value::<Battle>(v).unwrap_err().to_string();
    assert!(e.contains("more than one company is acting at once"), "{e}");
}
