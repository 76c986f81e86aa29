//! The game layer on a toy ruleset (a firefight of two companies): play, resume, simulate, conformance and a
//! golden playthrough.

use acw_core::cards::{Card, Colour};
use acw_core::dice::Die;
use acw_core::dice::Scripted;
use acw_core::game::{
    Commander, Decision, Dicing, EndReason, Game, GameResult, Outcome, Owed, PlayError, Refusal,
    Ruleset, SavedGameOf, Submitted, Throw, ThrowError, game_seed, play, resume, simulate,
    simulate_with,
};
use acw_core::testing::conformance::{self, Suite};
use acw_core::vocab::{BySide, Side, Strength};
use acw_core::{Dice, GameRng};
use serde::{Deserialize, Serialize};
use std::sync::Mutex;

/// Each side in turn fires 1-3 dice, hitting on 5-6; each hit removes a stand of the enemy's 6. After a volley
/// that hits, the side hit decides (in the enemy's turn) whether to try a rally: a d6, 6 brings one stand back.
/// A side at 0 loses; after 8 turns (Confederates fire first in each) the side with more stands wins, equal is a
/// draw.
#[derive(Clone, Copy, Debug)]
struct Firefight;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct State {
    stands: BySide<Strength>,
    turn: u32,
    to_fire: Side,
    /// A side hit by the last volley, owing its rally decision.
    rally_owed: Option<Side>,
    rng: GameRng,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
enum Order {
    Fire(u32),
    Rally(bool),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Question {
    Fire,
    Rally,
}

impl std::fmt::Display for Question {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Question::Fire => "how many dice to fire",
            Question::Rally => "whether to try a rally",
        })
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
enum Event {
    Volley {
        side: Side,
        faces: Vec<u16>,
        hits: u32,
    },
    Rally {
        side: Side,
        face: Option<u16>,
    },
}

#[derive(Debug, thiserror::Error)]
enum Refused {
    #[error("a volley is 1 to 3 dice, not {0}")]
    Dice(u32),
    #[error("the rally decision is owed first")]
    RallyOwed,
    #[error("no rally is owed")]
    NoRally,
    #[error("a die was not thrown: {0}")]
    Faulted(String),
}

#[derive(Debug, thiserror::Error)]
#[error("no scenario can fail")]
struct NoSetupError;

impl Ruleset for Firefight {
    type Scenario = u32;
    type State = State;
    type Order = Order;
    type Event = Event;
    type Question = Question;
    type SetupError = NoSetupError;
    type RuleError = Refused;

    fn setup(&self, stands: &u32, seed: u64) -> Result<State, NoSetupError> {
        Ok(State {
            stands: BySide::new(Strength::full(*stands), Strength::full(*stands)),
            turn: 0,
            to_fire: Side::Confederate,
            rally_owed: None,
            rng: GameRng::seed(seed),
        })
    }

    fn owed(&self, s: &State) -> Option<Decision<Question>> {
        if self.outcome(s).is_some() {
            return None;
        }
        Some(match s.rally_owed {
            Some(side) => Decision {
                side,
                question: Question::Rally,
            },
            None => Decision {
                side: s.to_fire,
                question: Question::Fire,
            },
        })
    }

    fn apply_with(
        &self,
        s: &mut State,
        order: &Order,
        dice: &mut dyn Dice,
        log: &mut Vec<Event>,
    ) -> Result<(), Refused> {
        let mut next = s.clone();
        let mut events = Vec::new();
        match (*order, s.rally_owed) {
            (Order::Fire(_), Some(_)) => return Err(Refused::RallyOwed),
            (Order::Rally(_), None) => return Err(Refused::NoRally),
            (Order::Fire(n), None) => {
                if !(1..=3).contains(&n) {
                    return Err(Refused::Dice(n));
                }
                let side = s.to_fire;
                if side == Side::Confederate {
                    next.turn += 1; // the Confederates open each turn
                }
                dice.about(format_args!("volley of the {side} side"));
                let faces: Vec<u16> = (0..n).map(|_| dice.face(Die::D6)).collect();
                let hits = faces.iter().filter(|&&f| f >= 5).count() as u32;
                next.stands[side.enemy()].lose(hits);
                events.push(Event::Volley { side, faces, hits });
                next.to_fire = side.enemy();
                if hits > 0 && !next.stands[side.enemy()].is_gone() {
                    next.rally_owed = Some(side.enemy());
                }
            }
            (Order::Rally(try_it), Some(side)) => {
                let face = try_it.then(|| {
                    dice.about(format_args!("rally of the {side} side"));
                    dice.face(Die::D6)
                });
                if face == Some(6) {
                    let st = next.stands[side];
                    if let Ok(back) = Strength::new(st.current() + 1, st.original()) {
                        next.stands[side] = back;
                    }
                }
                events.push(Event::Rally { side, face });
                next.rally_owed = None;
            }
        }
        if let Some(f) = dice.fault() {
            return Err(Refused::Faulted(f.to_string()));
        }
        *s = next;
        log.extend(events);
        Ok(())
    }

    fn rng_mut<'s>(&self, s: &'s mut State) -> &'s mut GameRng {
        &mut s.rng
    }

    fn outcome(&self, s: &State) -> Option<Outcome> {
        for side in Side::both() {
            if s.stands[side].is_gone() {
                return Some(Outcome {
                    result: GameResult::Winner(side.enemy()),
                    reason: EndReason::Annihilation,
                    turn: s.turn,
                });
            }
        }
        (s.turn == 8 && s.to_fire == Side::Confederate && s.rally_owed.is_none()).then(|| {
            let (u, c) = (s.stands.union.current(), s.stands.confederate.current());
            Outcome {
                result: match u.cmp(&c) {
                    std::cmp::Ordering::Greater => GameResult::Winner(Side::Union),
                    std::cmp::Ordering::Less => GameResult::Winner(Side::Confederate),
                    std::cmp::Ordering::Equal => GameResult::Draw,
                },
                reason: EndReason::TurnLimit,
                turn: 8,
            }
        })
    }

    fn losses(&self, s: &State) -> BySide<u32> {
        s.stands.map(|_, st| st.lost())
    }
}

/// Always fires `n` dice, and always tries to rally.
struct Fire(u32);

impl Commander<Firefight> for Fire {
    fn order(&mut self, rules: &Firefight, s: &State, _: Side) -> Order {
        match rules.owed(s).map(|d| d.question) {
            Some(Question::Rally) => Order::Rally(true),
            _ => Order::Fire(self.0),
        }
    }
}

fn both_fire_three(_: Side, _: u64) -> Box<dyn Commander<Firefight>> {
    Box::new(Fire(3))
}

#[test]
fn a_game_plays_to_an_outcome_and_repeats() {
    let (mut a, mut b) = (Fire(3), Fire(3));
    let one = play(
        &Firefight,
        &6,
        11,
        BySide::new(&mut a as &mut dyn Commander<Firefight>, &mut b),
    );
    let (mut a, mut b) = (Fire(3), Fire(3));
    let two = play(
        &Firefight,
        &6,
        11,
        BySide::new(&mut a as &mut dyn Commander<Firefight>, &mut b),
    );
    let (Ok(one), Ok(two)) = (one, two) else {
        panic!("both games play")
    };
    assert_eq!(one.log, two.log);
    assert_eq!(one.outcome, two.outcome);
    assert!(one.orders >= 1);
}

#[test]
fn a_refused_order_stops_play_with_its_reason() {
    let (mut a, mut b) = (Fire(9), Fire(3)); // Union fires 9 dice, Confederates 3
    let r = play(
        &Firefight,
        &6,
        1,
        BySide::new(&mut a as &mut dyn Commander<Firefight>, &mut b),
    );
    match r {
        Err(PlayError::Refused {
            side: Side::Union,
            number,
            error: Refusal::Rules(Refused::Dice(9)),
        }) if number >= 1 => {}
        Err(e) => panic!("wrong error: {e}"),
        Ok(_) => panic!("a 9-dice volley must be refused"),
    }
}

#[test]
fn simulate_is_independent_of_thread_count() {
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap_or_else(|e| panic!("{e}"));
        pool.install(|| simulate(&Firefight, &6, 77, 400, both_fire_three, |_, _| {}))
    };
    let (Ok(one), Ok(two)) = (run(1), run(2)) else {
        panic!("simulations run")
    };
    assert_eq!(one, two);
    assert_eq!(one.games, 400);
    assert_eq!(one.wins.union + one.wins.confederate + one.draws, 400);
    // Each game's record matches that game played alone from its derived seed.
    let rec = &one.records[17];
    let (mut a, mut b) = (Fire(3), Fire(3));
    let alone = play(
        &Firefight,
        &6,
        game_seed(77, 17),
        BySide::new(&mut a as &mut dyn Commander<Firefight>, &mut b),
    );
    assert_eq!(alone.map(|p| p.outcome).ok().as_ref(), Some(&rec.outcome));
}

#[test]
fn simulate_reports_progress() {
    let seen = Mutex::new(Vec::new());
    let r = simulate(&Firefight, &6, 1, 50, both_fire_three, |done, total| {
        if let Ok(mut v) = seen.lock() {
            v.push((done, total));
        }
    });
    assert!(r.is_ok());
    let mut v = seen.into_inner().unwrap_or_default();
    v.sort_unstable();
    assert_eq!(v.len(), 50);
    assert_eq!(v.last(), Some(&(50, 50)));
}

#[test]
fn firefight_conforms() {
    let suite = Suite {
        seeds: &[1, 2, 3],
        commanders: &both_fire_three,
        refused_orders: &|s: &State, _| match s.rally_owed {
            Some(_) => vec![Order::Fire(2)],
            None => vec![Order::Fire(0), Order::Fire(4), Order::Rally(true)],
        },
        invariants: &|s: &State| {
            if s.stands.union.current() > 6 || s.stands.confederate.current() > 6 {
                return Err("more stands than the company started with".into());
            }
            Ok(())
        },
    };
    if let Err(e) = conformance::run(&Firefight, &6, &suite) {
        panic!("{e}");
    }
}

#[test]
fn firefight_golden_playthrough() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/firefight-seed-5.log");
    if let Err(e) = conformance::golden(&Firefight, &6, 5, &both_fire_three, &path) {
        panic!("{e}");
    }
}

fn table_game(seed: u64) -> Game<Firefight> {
    match Game::new(Firefight, &6, seed) {
        Ok(g) => g.with_dicing(Dicing::AtTheTable),
        Err(e) => panic!("{e}"),
    }
}

fn wanted(game: &Game<Firefight>) -> Throw {
    match game.owed() {
        Owed::Throw { throw, .. } => throw,
        other => panic!("expected a throw, the game owes {other}"),
    }
}

#[test]
fn at_the_table_each_face_is_asked_for_with_its_purpose_and_nothing_commits_before_the_last() {
    let mut game = table_game(1);
    assert_eq!(
        game.owed().to_string(),
        "Confederate: how many dice to fire"
    );
    let waiting = game.submit(Side::Confederate, Order::Fire(3));
    assert!(matches!(waiting, Ok(Submitted::Waiting(_))));
    let throw = wanted(&game);
    assert_eq!(
        throw.to_string(),
        "throw a d6 for the volley of the Confederate side"
    );
    // The first face: still waiting for the second, nothing committed.
    assert!(matches!(game.throw(5), Ok(Submitted::Waiting(_))));
    assert_eq!(
        wanted(&game).to_string(),
        "throw a d6 for the volley of the Confederate side (the 2nd of that roll)"
    );
    assert!(game.log().is_empty());
    assert_eq!(game.orders(), 0);
    assert_eq!(game.state().stands.union.current(), 6);
    // Impossible faces are refused, and the same die is still wanted.
    let before = game.state().clone();
    assert!(matches!(
        game.throw(7),
        Err(ThrowError::Impossible { face: 7, .. })
    ));
    assert!(matches!(
        game.throw(0),
        Err(ThrowError::Impossible { face: 0, .. })
    ));
    assert!(matches!(
        game.draw(Card::Joker(Colour::Red)),
        Err(ThrowError::WrongKind { .. })
    ));
    assert_eq!(game.state(), &before);
    assert!(game.log().is_empty());
    // An order while one waits is refused and given back.
    match game.submit(Side::Confederate, Order::Fire(1)) {
        Err(r) => {
            assert_eq!(r.order, Order::Fire(1));
            assert!(matches!(r.reason, Refusal::AwaitingThrow(_)));
        }
        Ok(_) => panic!("an order while another waits for dice must be refused"),
    }
    // The second and third faces: 5, 2, 6 hit twice; the volley is applied as one event.
    assert!(matches!(game.throw(2), Ok(Submitted::Waiting(_))));
    match game.throw(6) {
        Ok(Submitted::Applied(events)) => assert_eq!(
            events,
            &[Event::Volley {
                side: Side::Confederate,
                faces: vec![5, 2, 6],
                hits: 2
            }]
        ),
        other => panic!("the third face applies the volley: {other:?}"),
    }
    assert_eq!(game.state().stands.union.current(), 4);
    assert_eq!(game.orders(), 1);
    // Now the Union, hit in the Confederate turn, owes its rally decision.
    assert_eq!(game.owed().to_string(), "Union: whether to try a rally");
    // A face nobody asked for is refused.
    assert!(matches!(game.throw(3), Err(ThrowError::NotWanted)));
    // The Confederates may not answer for the Union.
    match game.submit(Side::Confederate, Order::Rally(true)) {
        Err(r) => {
            assert_eq!(r.order, Order::Rally(true));
            assert_eq!(
                r.reason.to_string(),
                "the Union side owes the next decision, not the Confederate side"
            );
        }
        Ok(_) => panic!("the wrong side's order must be refused"),
    }
    // The Union tries, and then withdraws its order before throwing: nothing happened.
    assert!(matches!(
        game.submit(Side::Union, Order::Rally(true)),
        Ok(Submitted::Waiting(Throw::Face { .. }))
    ));
    assert_eq!(game.withdraw(), Some(Order::Rally(true)));
    assert_eq!(game.owed().to_string(), "Union: whether to try a rally");
    assert_eq!(game.orders(), 1);
    // A decision that needs no die is applied at once.
    assert!(matches!(
        game.submit(Side::Union, Order::Rally(false)),
        Ok(Submitted::Applied([Event::Rally { face: None, .. }]))
    ));
}

#[test]
fn faces_given_with_an_order_must_be_exactly_enough() {
    let mut game = table_game(2);
    let faces = |v: &[u16]| v.iter().map(|&f| Scripted::Face(f)).collect::<Vec<_>>();
    let cases: [(&[u16], &str); 3] = [
        (
            &[4, 4],
            "the order needs more dice: throw a d6 for the volley of the Confederate side (the 3rd of that roll)",
        ),
        (
            &[4, 4, 4, 4],
            "the order used 3 of the 4 faces and cards given",
        ),
        (&[4, 9, 4], "a face given does not fit: a d6 cannot show 9"),
    ];
    for (given, why) in cases {
        match game.submit_with_faces(Side::Confederate, Order::Fire(3), &faces(given)) {
            Err(r) => {
                assert_eq!(r.order, Order::Fire(3));
                assert_eq!(r.reason.to_string(), why);
            }
            Ok(_) => panic!("{given:?} must be refused"),
        }
        assert!(game.log().is_empty());
        assert_eq!(game.orders(), 0);
        assert_eq!(game.state().stands.union.current(), 6);
    }
    let applied = game.submit_with_faces(Side::Confederate, Order::Fire(3), &faces(&[4, 5, 6]));
    assert!(matches!(applied, Ok([Event::Volley { hits: 2, .. }])));
}

#[test]
fn a_game_saved_while_a_face_is_wanted_loads_and_waits_for_it() {
    let mut game = table_game(3);
    assert!(game.submit(Side::Confederate, Order::Fire(2)).is_ok());
    assert!(game.throw(6).is_ok());
    let json = serde_json::to_string(&game.to_saved()).unwrap_or_else(|e| panic!("{e}"));
    let saved: SavedGameOf<Firefight> =
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}"));
    let mut loaded = Game::from_saved(Firefight, saved).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        loaded.owed().to_string(),
        "Confederate: throw a d6 for the volley of the Confederate side (the 2nd of that roll)"
    );
    assert!(matches!(
        loaded.throw(1),
        Ok(Submitted::Applied([Event::Volley { hits: 1, .. }]))
    ));
    // A save whose held order already has all its faces cannot be loaded.
    let mut bad: SavedGameOf<Firefight> =
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}"));
    if let Some(h) = bad.held.as_mut() {
        h.given.push(Scripted::Face(3));
    }
    assert!(Game::from_saved(Firefight, bad).is_err());
}

#[test]
fn resume_counts_every_order_of_the_game() {
    let mut game = Game::new(Firefight, &6, 9).unwrap_or_else(|e| panic!("{e}"));
    for _ in 0..3 {
        let Owed::Decision(d) = game.owed() else {
            panic!("a decision is owed")
        };
        let order = Fire(3).order(&Firefight, game.state(), d.side);
        assert!(game.submit(d.side, order).is_ok());
    }
    let (mut a, mut b) = (Fire(3), Fire(3));
    let whole = play(
        &Firefight,
        &6,
        9,
        BySide::new(&mut a as &mut dyn Commander<Firefight>, &mut b),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let (mut a, mut b) = (Fire(3), Fire(3));
    let resumed = resume(
        game,
        BySide::new(&mut a as &mut dyn Commander<Firefight>, &mut b),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(resumed.orders, whole.orders);
    assert_eq!(resumed.log, whole.log);
}

#[test]
fn play_refuses_to_run_a_game_at_the_table() {
    let (mut a, mut b) = (Fire(3), Fire(3));
    let r = resume(
        table_game(4),
        BySide::new(&mut a as &mut dyn Commander<Firefight>, &mut b),
    );
    assert!(matches!(r, Err(PlayError::NeedsDice(Throw::Face { .. }))));
}

#[test]
fn simulate_with_collects_a_measure_per_game_in_index_order() {
    let measured = simulate_with(
        &Firefight,
        &6,
        5,
        60,
        both_fire_three,
        |p| {
            p.log
                .iter()
                .filter(|e| matches!(e, Event::Rally { face: Some(6), .. }))
                .count()
        },
        |_, _| {},
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(measured.measures.len(), 60);
    // Game 11 played alone gives the same measure.
    let (mut a, mut b) = (Fire(3), Fire(3));
    let alone = play(
        &Firefight,
        &6,
        game_seed(5, 11),
        BySide::new(&mut a as &mut dyn Commander<Firefight>, &mut b),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let rallies = alone
        .log
        .iter()
        .filter(|e| matches!(e, Event::Rally { face: Some(6), .. }))
        .count();
    assert_eq!(measured.measures[11], rallies);
    assert_eq!(
        measured.summary.records[11].outcome, alone.outcome,
        "the summary and the measures describe the same games"
    );
}
