//! The game layer played through acw-core's driver: conformance, a golden playthrough, loading, the table.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use acw_core::Side;
use acw_core::game::Commander;
use acw_core::testing::conformance::{self, Suite};
use acw_hardtack::bots::{Holder, Thruster};
use acw_hardtack::game::{Hardtack, Order, Scenario, State};

fn scenario() -> Scenario {
    Scenario::meeting_at_the_fence().expect("the default scenario is valid")
}

fn commanders(side: Side, seed: u64) -> Box<dyn Commander<Hardtack>> {
    match side {
        Side::Union => Box::new(Thruster::new(seed ^ 0x5eed)),
        Side::Confederate => Box::new(Holder::new(seed ^ 0xc0de)),
    }
}

fn refused(state: &State, _side: Side) -> Vec<Order> {
    vec![
        Order::Move {
            to: acw_core::measure::Point::new(-5.0, -5.0),
        },
        Order::Activate(acw_hardtack::CompanyId(999)),
        // one company is no regimental formation; a unit that is not in the battle takes no transfer
        Order::ActivateRegiment {
            companies: vec![acw_hardtack::CompanyId(1)],
        },
        Order::Transfer {
            to: acw_hardtack::CompanyId(999),
        },
        Order::Defend {
            stand: true,
            final_fire: false,
        }
        .clone(),
    ]
    .into_iter()
    .filter(|o| !state.check_order(state.decision().map_or(Side::Union, |d| d.side), o))
    .collect()
}

fn invariants(state: &State) -> Result<(), String> {
    for id in state.battle().company_ids() {
        let c = state.battle().company(id).map_err(|e| e.to_string())?;
        if c.actions_left() > 2 {
            return Err(format!("{} has {} actions", c.name(), c.actions_left()));
        }
        let fp = state
            .field()
            .footprint(id)
            .ok_or("a company has no footprint")?;
        if !state.field().table().holds(fp) {
            return Err(format!("{} stands off the table", c.name()));
        }
    }
    Ok(())
}

#[test]
fn conformance_on_twenty_seeds() {
    let seeds: Vec<u64> = (1..=20).collect();
    let suite = Suite {
        seeds: &seeds,
        commanders: &commanders,
        refused_orders: &refused,
        invariants: &invariants,
    };
    conformance::run(&Hardtack, &scenario(), &suite).unwrap();
}

#[test]
fn golden_playthrough_seed_7() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/hardtack-seed-7.log");
    if let Err(e) = conformance::golden(&Hardtack, &scenario(), 7, &commanders, &path) {
        panic!("{e}");
    }
}

use acw_core::game::{Game, Ruleset, play};
use acw_core::measure::{Heading, Inches, Point};
use acw_core::table::{Table, Terrain};
use acw_hardtack::CompanyId;
use acw_hardtack::fire::Cover;
use acw_hardtack::game::{Deployed, Event, GameError, GameSetupError, Question};
use acw_hardtack::state::{CompanySpec, Formation};
use acw_hardtack::{Battle, Options};

fn company(name: &str, side: Side, x: f64, y: f64) -> Deployed {
    let mut spec = CompanySpec::new(name, side, 8);
    spec.formation = Formation::Line;
    Deployed {
        spec,
        at: Point::new(x, y),
    }
}

fn small(companies: Vec<Deployed>, terrain: Vec<Terrain>) -> Scenario {
    Scenario {
        name: "test".to_string(),
        turns: 3,
        table: Table::new(Inches(48.0), Inches(36.0), terrain).unwrap(),
        companies,
        guns: Vec::new(),
        dummies: Vec::new(),
        colonels: Vec::new(),
        options: Options::default(),
    }
}

/// HT-SG2-03: the side that chooses decides who goes first; the sides then alternate activations, and the
/// turn ends only when every company has acted.
#[test]
fn ht_sg2_03_sides_alternate_activations_until_all_have_acted() {
    let s = small(
        vec![
            company("Blue A", Side::Union, 10.0, 5.0),
            company("Blue B", Side::Union, 30.0, 5.0),
            company("Grey A", Side::Confederate, 10.0, 30.0),
            company("Grey B", Side::Confederate, 30.0, 30.0),
        ],
        vec![],
    );
    let mut game = Game::new(Hardtack, &s, 1).unwrap();
    // equal numbers: the Union chooses on the first turn
    let d = match game.owed() {
        acw_core::game::Owed::Decision(d) => d,
        other => panic!("{other:?}"),
    };
    assert_eq!(d.side, Side::Union);
    assert_eq!(d.question, Question::WhoGoesFirst { turn: 1 });
    game.submit(Side::Union, Order::GoFirst(Side::Confederate))
        .unwrap();
    // the Union may not activate now: it is the Confederates' activation
    assert!(
        game.submit(Side::Union, Order::Activate(CompanyId(0)))
            .is_err()
    );
    let mut sides = Vec::new();
    for (side, id) in [
        (Side::Confederate, 2),
        (Side::Union, 0),
        (Side::Confederate, 3),
        (Side::Union, 1),
    ] {
        sides.push(game.rules().owed(game.state()).unwrap().side);
        game.submit(side, Order::Activate(CompanyId(id))).unwrap();
        game.submit(side, Order::EndActivation).unwrap();
    }
    assert_eq!(
        sides,
        [
            Side::Confederate,
            Side::Union,
            Side::Confederate,
            Side::Union
        ]
    );
    assert_eq!(game.state().turn(), 2);
    assert!(game.log().contains(&Event::TurnEnded(1)));
    // a company that has acted cannot act again in the same turn
    let mut state = game.state().clone();
    let mut log = Vec::new();
    Hardtack
        .apply(&mut state, &Order::GoFirst(Side::Union), &mut log)
        .unwrap();
    Hardtack
        .apply(&mut state, &Order::Activate(CompanyId(0)), &mut log)
        .unwrap();
    Hardtack
        .apply(&mut state, &Order::EndActivation, &mut log)
        .unwrap();
    Hardtack
        .apply(&mut state, &Order::Activate(CompanyId(2)), &mut log)
        .unwrap();
    Hardtack
        .apply(&mut state, &Order::EndActivation, &mut log)
        .unwrap();
    let before = state.clone();
    assert!(
        Hardtack
            .apply(&mut state, &Order::Activate(CompanyId(0)), &mut log)
            .is_err()
    );
    assert_eq!(state, before);
}

/// HT-SG2-36 / HT-MEL-01: a declared assault pauses for the defender, whose side owes the decision; the
/// attacker's side is refused meanwhile; the answer resolves the assault.
#[test]
fn ht_sg2_36_an_assault_pauses_for_the_defenders_side() {
    let s = small(
        vec![
            company("Blue A", Side::Union, 20.0, 10.0),
            company("Grey A", Side::Confederate, 20.0, 14.0),
        ],
        vec![],
    );
    let mut found = false;
    for seed in 0..40 {
        let mut game = Game::new(Hardtack, &s, seed).unwrap();
        game.submit(Side::Union, Order::GoFirst(Side::Union))
            .unwrap();
        game.submit(Side::Union, Order::Activate(CompanyId(0)))
            .unwrap();
        game.submit(
            Side::Union,
            Order::Assault {
                defender: CompanyId(1),
            },
        )
        .unwrap();
        let Some(d) = game.rules().owed(game.state()) else {
            continue;
        };
        if d.side != Side::Confederate {
            continue;
        }
        found = true;
        assert_eq!(
            d.question,
            Question::Defend {
                defender: "Grey A".to_string()
            }
        );
        assert!(d.question.to_string().contains("stand"));
        let orders = game.orders();
        assert!(game.submit(Side::Union, Order::EndActivation).is_err());
        assert_eq!(game.orders(), orders);
        let events = game
            .submit(
                Side::Confederate,
                Order::Defend {
                    stand: false,
                    final_fire: false,
                },
            )
            .unwrap();
        let text: Vec<String> = match events {
            acw_core::game::Submitted::Applied(ev) => ev.iter().map(ToString::to_string).collect(),
            acw_core::game::Submitted::Waiting(_) => panic!("seeded dice never wait"),
        };
        assert!(
            text[0].contains("Grey A withdraws before the assault"),
            "{text:?}"
        );
        // its side now chooses the way back (HT-SG2-36); the first usual answer is straight away
        let d = game.rules().owed(game.state()).unwrap();
        assert_eq!(d.side, Side::Confederate);
        assert!(matches!(d.question, Question::Withdraw { .. }));
        let way = game.state().withdrawals()[0];
        game.submit(Side::Confederate, Order::Withdraw(way))
            .unwrap();
        // it fell back 6" straight away from the attacker
        let fp = game.state().field().footprint(CompanyId(1)).unwrap();
        assert!((fp.centre.y - 20.0).abs() < 1e-9, "{fp:?}");
        break;
    }
    assert!(found, "no seed passed the assault test");
}

/// HT-SG2-13 / HT-SG2-11 / HT-SG2-12 / HT-FIR-21: the line of fire is measured on the table — a fence
/// between gives cover, a company in the line blocks it, a wood between blocks sight, fire from outside the
/// target's front arc is enfilade, and a target outside the firer's arc is out of its arc of fire.
#[test]
fn ht_sg2_13_cover_sight_and_arcs_are_measured_on_the_table() {
    let fence =
        Terrain::fence("fence", vec![Point::new(0.0, 15.0), Point::new(48.0, 15.0)]).unwrap();
    let wood = Terrain::woods(
        "wood",
        vec![
            Point::new(36.0, 8.0),
            Point::new(44.0, 8.0),
            Point::new(44.0, 12.0),
            Point::new(36.0, 12.0),
        ],
    )
    .unwrap();
    let s = small(
        vec![
            company("Blue A", Side::Union, 10.0, 5.0),
            company("Grey A", Side::Confederate, 10.0, 16.0),
            company("Grey B", Side::Confederate, 24.0, 25.0),
            company("Blue B", Side::Union, 24.0, 20.0),
            company("Grey C", Side::Confederate, 40.0, 20.0),
            company("Blue C", Side::Union, 40.0, 3.0),
        ],
        vec![fence, wood],
    );
    let state = State::new(&s, 1).unwrap();
    // Grey A stands 1" behind the fence as seen from Blue A: soft cover, 10" between fronts
    let f = state.fire_facts(CompanyId(0), CompanyId(1)).unwrap();
    assert_eq!(f.cover, Cover::Soft);
    assert!((f.distance - 10.0).abs() < 1e-9, "{}", f.distance);
    assert!(!f.enfilade && !f.arc_blocked);
    // Blue B stands right in the line from Grey B back toward the fence: Grey B fires at Blue A through it
    assert!(matches!(
        state.fire_facts(CompanyId(2), CompanyId(5)),
        Err(GameError::NoSight { .. }) | Ok(_)
    ));
    let blocked = state.fire_facts(CompanyId(2), CompanyId(0));
    assert!(
        matches!(blocked, Err(GameError::NoSight { .. })),
        "{blocked:?}"
    );
    // the wood lies between Blue C and Grey C
    assert!(matches!(
        state.fire_facts(CompanyId(5), CompanyId(4)),
        Err(GameError::NoSight { .. })
    ));
    // Grey A faces south; Blue B, north-east of it past the fence, is beside and behind its front:
    // Blue B's fire at Grey A comes from outside Grey A's front arc
    let g = state.fire_facts(CompanyId(3), CompanyId(1)).unwrap();
    assert!(g.enfilade);
    // and Blue B faces north: Grey A lies behind it, out of its arc of fire
    assert!(g.arc_blocked);
}

/// HT-SG2-51: games end by breaking the enemy (half or more of a side's companies Broken, Routed or gone)
/// or, at the turn limit, on who holds the wood; the engine's ends agree with the state it ends in.
#[test]
fn ht_sg2_51_games_end_on_the_objectives() {
    let mut broken = 0;
    for seed in 1..=12 {
        let mut u = commanders(Side::Union, seed);
        let mut c = commanders(Side::Confederate, seed);
        let played = play(
            &Hardtack,
            &scenario(),
            seed,
            acw_core::BySide::new(u.as_mut(), c.as_mut()),
        )
        .unwrap();
        let o = played.outcome;
        match o.reason {
            acw_core::game::EndReason::ArmyBroken => {
                broken += 1;
                let acw_core::game::GameResult::Winner(w) = o.result else {
                    assert!(
                        played.state.broken(Side::Union) && played.state.broken(Side::Confederate)
                    );
                    continue;
                };
                assert!(played.state.broken(w.enemy()) && !played.state.broken(w));
            }
            acw_core::game::EndReason::TurnLimit => {
                assert_eq!(o.turn, 10);
                assert!(
                    !played.state.broken(Side::Union) && !played.state.broken(Side::Confederate)
                );
            }
            _ => {}
        }
        assert_eq!(played.log.last(), Some(&Event::Ended(o)));
    }
    assert!(
        broken > 0,
        "no game of twelve was decided by breaking a side"
    );
}

#[test]
fn scenarios_that_cannot_be_set_up_are_refused() {
    let overlap = small(
        vec![
            company("Blue A", Side::Union, 10.0, 5.0),
            company("Blue B", Side::Union, 12.0, 5.0),
            company("Grey A", Side::Confederate, 10.0, 30.0),
        ],
        vec![],
    );
    assert_eq!(
        State::new(&overlap, 1).unwrap_err(),
        GameSetupError::Overlap("Blue A".to_string(), "Blue B".to_string())
    );
    let off = small(
        vec![
            company("Blue A", Side::Union, 1.0, 5.0),
            company("Grey A", Side::Confederate, 10.0, 30.0),
        ],
        vec![],
    );
    assert_eq!(
        State::new(&off, 1).unwrap_err().to_string(),
        "Blue A does not stand wholly on the table"
    );
    let one_sided = small(vec![company("Blue A", Side::Union, 10.0, 5.0)], vec![]);
    assert_eq!(
        State::new(&one_sided, 1).unwrap_err(),
        GameSetupError::NoCompany(Side::Confederate)
    );
    let mut long = scenario();
    long.turns = 0;
    assert_eq!(State::new(&long, 1).unwrap_err(), GameSetupError::Turns(0));
}

#[test]
fn scenarios_load_from_json_through_the_same_checks() {
    let default = Scenario::default();
    assert_eq!(default, scenario());
    assert_eq!(default.check(), Ok(()));
    let json = serde_json::to_string(&default).unwrap();
    let back: Scenario = serde_json::from_str(&json).unwrap();
    assert_eq!(back, default);
    let v = serde_json::to_value(&default).unwrap();
    assert_eq!(v["companies"][0]["spec"]["name"], "19th Indiana, Company A");
    assert_eq!(
        v["companies"][0]["at"],
        serde_json::json!({"x": 8.0, "y": 6.0})
    );
    let refused = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut bad = v.clone();
        edit(&mut bad);
        serde_json::from_value::<Scenario>(bad)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        refused(&|b| b["turns"] = serde_json::json!(51)),
        GameSetupError::Turns(51).to_string()
    );
    // the fifth company (Union skirmishers) moved onto the first
    assert_eq!(
        refused(&|b| b["companies"][4]["at"] = serde_json::json!({"x": 8.5, "y": 6.0})),
        GameSetupError::Overlap(
            "19th Indiana, Company A".to_string(),
            "19th Indiana, Company E".to_string()
        )
        .to_string()
    );
    assert_eq!(
        refused(&|b| b["companies"][0]["at"] = serde_json::json!({"x": 47.0, "y": 6.0})),
        "19th Indiana, Company A does not stand wholly on the table"
    );
    assert_eq!(
        refused(&|b| b["companies"][9]["spec"]["figures"] = serde_json::json!(0)),
        "a company cannot be raised: company 2nd Tennessee, Company K has 0 figures; a company needs 1 to 48"
    );
    assert_eq!(
        refused(&|b| {
            let all = b["companies"].as_array_mut().unwrap();
            all.retain(|c| c["spec"]["side"] == "Union");
        }),
        GameSetupError::NoCompany(Side::Confederate).to_string()
    );
    assert!(
        refused(&|b| b["turn_limit"] = serde_json::json!(3))
            .starts_with("unknown field `turn_limit`")
    );
    assert!(
        refused(&|b| b["companies"][0]["spec"]["quality"] = serde_json::json!("Heroic"))
            .contains("unknown variant `Heroic`")
    );
}

#[test]
fn saves_load_exactly_and_impossible_saves_are_refused() {
    let state = State::new(&scenario(), 3).unwrap();
    let json = serde_json::to_string(&state).unwrap();
    let back: State = serde_json::from_str(&json).unwrap();
    assert_eq!(back, state);
    // a battle with a company holding three actions
    let battle = serde_json::to_value(state.battle()).unwrap();
    let mut bad = battle.clone();
    bad["companies"][0]["actions"] = serde_json::json!(3);
    let err = serde_json::from_value::<Battle>(bad)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("has 3 actions left; a company has two"),
        "{err}"
    );
    // a battle whose company has no figures
    let mut bad = battle.clone();
    bad["companies"][1]["figures"] = serde_json::json!([]);
    assert!(serde_json::from_value::<Battle>(bad).is_err());
    // a game with a footprint missing
    let mut v = serde_json::to_value(&state).unwrap();
    v["field"]["at"].as_array_mut().unwrap().pop();
    let err = serde_json::from_value::<State>(v).unwrap_err().to_string();
    assert!(err.contains("one footprint per company"), "{err}");
    // a game past its turn limit
    let mut v = serde_json::to_value(&state).unwrap();
    v["turn"] = serde_json::json!(11);
    assert!(serde_json::from_value::<State>(v).is_err());
}

/// HT-SG2-04: a move is measured on the table; a move off the table or into another company is refused and
/// changes nothing.
#[test]
fn ht_sg2_04_moves_are_measured_and_bad_ground_refused() {
    let s = small(
        vec![
            company("Blue A", Side::Union, 10.0, 5.0),
            company("Grey A", Side::Confederate, 10.0, 30.0),
        ],
        vec![],
    );
    let mut state = State::new(&s, 1).unwrap();
    let mut log = Vec::new();
    Hardtack
        .apply(&mut state, &Order::GoFirst(Side::Union), &mut log)
        .unwrap();
    Hardtack
        .apply(&mut state, &Order::Activate(CompanyId(0)), &mut log)
        .unwrap();
    let before = state.clone();
    let off = Hardtack.apply(
        &mut state,
        &Order::Move {
            to: Point::new(2.0, 5.0),
        },
        &mut log,
    );
    assert!(off.unwrap_err().to_string().contains("leave the table"));
    assert_eq!(state, before);
    Hardtack
        .apply(
            &mut state,
            &Order::Move {
                to: Point::new(10.0, 9.0),
            },
            &mut log,
        )
        .unwrap();
    let moved = log.last().unwrap();
    assert!(matches!(moved, Event::Moved { moved: true, .. }));
    assert_eq!(moved.to_string(), "Blue A moves 4.0\".");
    let fp = state.field().footprint(CompanyId(0)).unwrap();
    assert!((fp.centre.y - 9.0).abs() < 1e-9);
}

/// HT-SG2-47: a company's second move waits for the other side, which may give reaction fire with a company
/// that has not activated; that company has then spent its activation, and the move goes on.
#[test]
fn ht_sg2_47_a_second_move_pauses_for_reaction_fire() {
    let s = small(
        vec![
            company("Blue A", Side::Union, 10.0, 5.0),
            company("Grey A", Side::Confederate, 10.0, 25.0),
        ],
        vec![],
    );
    let mut game = Game::new(Hardtack, &s, 4).unwrap();
    game.submit(Side::Union, Order::GoFirst(Side::Union))
        .unwrap();
    game.submit(Side::Union, Order::Activate(CompanyId(0)))
        .unwrap();
    game.submit(
        Side::Union,
        Order::Move {
            to: Point::new(10.0, 8.0),
        },
    )
    .unwrap();
    // the first move is not interrupted; the second is
    game.submit(
        Side::Union,
        Order::Move {
            to: Point::new(10.0, 11.0),
        },
    )
    .unwrap();
    let d = game.rules().owed(game.state()).unwrap();
    assert_eq!(d.side, Side::Confederate);
    assert_eq!(
        d.question,
        Question::React {
            mover: "Blue A".to_string()
        }
    );
    // Blue A has not moved yet
    let fp = *game.state().field().footprint(CompanyId(0)).unwrap();
    assert!((fp.centre.y - 8.0).abs() < 1e-9);
    // only the Confederates answer, and only with a company that may react
    assert!(game.submit(Side::Union, Order::React(None)).is_err());
    assert!(
        game.submit(Side::Confederate, Order::React(Some(CompanyId(0))))
            .is_err()
    );
    let events = match game
        .submit(Side::Confederate, Order::React(Some(CompanyId(1))))
        .unwrap()
    {
        acw_core::game::Submitted::Applied(ev) => ev.to_vec(),
        acw_core::game::Submitted::Waiting(_) => panic!("seeded dice never wait"),
    };
    assert!(
        events[0]
            .to_string()
            .starts_with("Grey A gives reaction fire at Blue A 16.0\" away"),
        "{}",
        events[0]
    );
    // Blue A moved on; Grey A has spent its activation, so with no company left to act the turn ends
    assert!(
        matches!(events[1], Event::Moved { moved: true, .. }),
        "{}",
        events[1]
    );
    assert!(events.contains(&Event::TurnEnded(1)));
    assert_eq!(game.state().turn(), 2);
}

/// Blue A (20, 10) assaults Grey A (20, 14); the first seed whose assault test passes, with the game paused
/// for Grey A's answer.
fn assault_waiting_for_grey() -> Game<Hardtack> {
    let s = small(
        vec![
            company("Blue A", Side::Union, 20.0, 10.0),
            company("Grey A", Side::Confederate, 20.0, 14.0),
        ],
        vec![],
    );
    for seed in 0..40 {
        let mut game = Game::new(Hardtack, &s, seed).unwrap();
        game.submit(Side::Union, Order::GoFirst(Side::Union))
            .unwrap();
        game.submit(Side::Union, Order::Activate(CompanyId(0)))
            .unwrap();
        game.submit(
            Side::Union,
            Order::Assault {
                defender: CompanyId(1),
            },
        )
        .unwrap();
        if game
            .rules()
            .owed(game.state())
            .is_some_and(|d| d.side == Side::Confederate)
        {
            return game;
        }
    }
    panic!("no seed passed the assault test");
}

/// The same, Grey A having chosen to withdraw: the game waits for its side's choice of way.
fn withdrawal_waiting_for_grey() -> Game<Hardtack> {
    let mut game = assault_waiting_for_grey();
    game.submit(
        Side::Confederate,
        Order::Defend {
            stand: false,
            final_fire: false,
        },
    )
    .unwrap();
    game
}

fn applied(s: acw_core::game::Submitted<'_, Event>) -> Vec<Event> {
    match s {
        acw_core::game::Submitted::Applied(ev) => ev.to_vec(),
        acw_core::game::Submitted::Waiting(_) => panic!("seeded dice never wait"),
    }
}

/// HT-SG2-36: a defender that withdraws is not moved by a standing default: the game pauses and its side
/// chooses the way back, typed in at the table. The usual answers are listed (straight away first); a way
/// that closes on the attacker, an answer from the wrong side or another kind of order is refused and
/// changes nothing; a way 90 degrees off straight away is taken, 6" along it.
#[test]
fn ht_sg2_36_a_withdrawal_waits_for_its_sides_choice_of_way() {
    let mut game = withdrawal_waiting_for_grey();
    let d = game.rules().owed(game.state()).unwrap();
    assert_eq!(d.side, Side::Confederate);
    assert_eq!(
        d.question,
        Question::Withdraw {
            company: "Grey A".to_string(),
            from: "Blue A".to_string(),
        }
    );
    assert_eq!(
        d.question.to_string(),
        "Grey A withdraws 6 inches from Blue A: which way does it go, not closing on Blue A?"
    );
    // Grey A stands 4" north of Blue A: straight away is north, then 45 and 90 degrees to either side
    let ways: Vec<f64> = game
        .state()
        .withdrawals()
        .iter()
        .map(|h| h.as_degrees())
        .collect();
    assert_eq!(ways, vec![0.0, 315.0, 45.0, 270.0, 90.0]);
    // Grey A has not moved yet
    let fp = *game.state().field().footprint(CompanyId(1)).unwrap();
    assert_eq!((fp.centre.x, fp.centre.y), (20.0, 14.0));
    let (before, orders) = (game.state().clone(), game.orders());
    let south = Heading::degrees(180.0).unwrap();
    let closing = Heading::degrees(91.0).unwrap();
    let err = game
        .submit(Side::Confederate, Order::Withdraw(south))
        .unwrap_err();
    assert!(
        err.to_string().contains(
            "180 degrees off straight away from Blue A: a withdrawal may not close on it"
        ),
        "{err}"
    );
    assert!(
        game.submit(Side::Confederate, Order::Withdraw(closing))
            .is_err()
    );
    assert!(
        game.submit(Side::Union, Order::Withdraw(Heading::NORTH))
            .is_err()
    );
    assert!(
        game.submit(Side::Confederate, Order::EndActivation)
            .is_err()
    );
    assert_eq!(game.state(), &before);
    assert_eq!(game.orders(), orders);
    // east, 90 degrees off the straight line back: 6" along it
    let events = applied(
        game.submit(Side::Confederate, Order::Withdraw(Heading::EAST))
            .unwrap(),
    );
    assert_eq!(
        events[0],
        Event::Withdrew {
            company: "Grey A".to_string(),
            from: "Blue A".to_string(),
            distance: 6.0,
            off: 90.0,
        }
    );
    assert_eq!(
        events[0].to_string(),
        "Grey A withdraws 6\" away from Blue A, 90 degrees off the straight line back."
    );
    let fp = *game.state().field().footprint(CompanyId(1)).unwrap();
    assert!((fp.centre.x - 26.0).abs() < 1e-9 && (fp.centre.y - 14.0).abs() < 1e-9);
    // the question is answered: the game goes on with the other side's activation
    assert!(!matches!(
        game.rules().owed(game.state()).unwrap().question,
        Question::Withdraw { .. }
    ));
}

/// HT-SG2-36: a bot answers the withdrawal question with the first usual way, straight away from the
/// attacker: Grey A ends 6" north, the event says so.
#[test]
fn ht_sg2_36_a_bot_answers_the_withdrawal_straight_away() {
    let mut game = withdrawal_waiting_for_grey();
    let mut bot = Holder::new(3);
    let order = bot.order(&Hardtack, game.state(), Side::Confederate);
    assert_eq!(order, Order::Withdraw(Heading::NORTH));
    let events = applied(game.submit(Side::Confederate, order).unwrap());
    assert_eq!(
        events[0].to_string(),
        "Grey A withdraws 6\" straight away from Blue A."
    );
    let fp = *game.state().field().footprint(CompanyId(1)).unwrap();
    assert!((fp.centre.x - 20.0).abs() < 1e-9 && (fp.centre.y - 20.0).abs() < 1e-9);
}

/// HT-SG2-36: a saved game keeps the pending withdrawal: loaded, it asks the same question of the same side
/// and accepts the same answers; a save whose withdrawal names a company of the same side as the one it
/// falls back from, or an unknown company, is refused.
#[test]
fn ht_sg2_36_a_saved_game_keeps_the_pending_withdrawal() {
    let game = withdrawal_waiting_for_grey();
    let json = serde_json::to_string(game.state()).unwrap();
    let loaded: State = serde_json::from_str(&json).unwrap();
    assert_eq!(&loaded, game.state());
    let d = loaded.decision().unwrap();
    assert_eq!(d.side, Side::Confederate);
    assert!(matches!(d.question, Question::Withdraw { .. }));
    assert_eq!(loaded.withdrawals(), game.state().withdrawals());
    assert!(loaded.check_order(Side::Confederate, &Order::Withdraw(Heading::EAST)));
    assert!(!loaded.check_order(Side::Confederate, &Order::Withdraw(Heading::SOUTH)));
    let same_side = json.replace("\"withdrawal\":[1,0]", "\"withdrawal\":[1,1]");
    assert_ne!(same_side, json);
    let err = serde_json::from_str::<State>(&same_side).unwrap_err();
    assert!(
        err.to_string().contains(
            "a withdrawal is asked for that is not one company falling back from an enemy"
        ),
        "{err}"
    );
    let unknown = json.replace("\"withdrawal\":[1,0]", "\"withdrawal\":[7,0]");
    assert!(serde_json::from_str::<State>(&unknown).is_err());
}
