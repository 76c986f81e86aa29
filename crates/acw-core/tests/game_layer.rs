//! The game layer on a toy ruleset (a firefight of two companies): play, resume, simulate, conformance and a
//! golden playthrough.

use acw_core::dice::Die;
use acw_core::game::{
    Commander, GameResult, Outcome, PlayError, Ruleset, game_seed, play, simulate,
};
use acw_core::testing::conformance::{self, Suite};
use acw_core::vocab::{BySide, Side, Strength};
use acw_core::{Dice, GameRng};
use serde::{Deserialize, Serialize};
use std::sync::Mutex;

/// Each side in turn fires 1-3 dice, hitting on 5-6; each hit removes a stand of the enemy's 6. A side at 0
/// loses; after 8 turns (Confederates fire first in each) the side with more stands wins, equal is a draw.
struct Firefight;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct State {
    stands: BySide<Strength>,
    turn: u32,
    to_fire: Side,
    rng: GameRng,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
enum Event {
    Volley {
        side: Side,
        faces: Vec<u16>,
        hits: u32,
    },
}

#[derive(Debug, thiserror::Error)]
enum Refused {
    #[error("a volley is 1 to 3 dice, not {0}")]
    Dice(u32),
}

#[derive(Debug, thiserror::Error)]
#[error("no scenario can fail")]
struct NoSetupError;

impl Ruleset for Firefight {
    type Scenario = u32;
    type State = State;
    type Order = u32;
    type Event = Event;
    type SetupError = NoSetupError;
    type RuleError = Refused;

    fn setup(&self, stands: &u32, seed: u64) -> Result<State, NoSetupError> {
        Ok(State {
            stands: BySide::new(Strength::full(*stands), Strength::full(*stands)),
            turn: 0,
            to_fire: Side::Confederate,
            rng: GameRng::seed(seed),
        })
    }

    fn to_order(&self, s: &State) -> Option<Side> {
        self.outcome(s).is_none().then_some(s.to_fire)
    }

    fn apply(&self, s: &mut State, dice: u32, log: &mut Vec<Event>) -> Result<(), Refused> {
        if !(1..=3).contains(&dice) {
            return Err(Refused::Dice(dice));
        }
        let side = s.to_fire;
        if side == Side::Confederate {
            s.turn += 1; // the Confederates open each turn
        }
        let faces: Vec<u16> = (0..dice).map(|_| s.rng.face(Die::D6)).collect();
        let hits = faces.iter().filter(|&&f| f >= 5).count() as u32;
        s.stands[side.enemy()].lose(hits);
        log.push(Event::Volley { side, faces, hits });
        s.to_fire = side.enemy();
        Ok(())
    }

    fn outcome(&self, s: &State) -> Option<Outcome> {
        for side in Side::both() {
            if s.stands[side].is_gone() {
                return Some(Outcome {
                    result: GameResult::Winner(side.enemy()),
                    reason: format!("{side} destroyed"),
                    turn: s.turn,
                });
            }
        }
        (s.turn == 8 && s.to_fire == Side::Confederate).then(|| {
            let (u, c) = (s.stands.union.current(), s.stands.confederate.current());
            Outcome {
                result: match u.cmp(&c) {
                    std::cmp::Ordering::Greater => GameResult::Winner(Side::Union),
                    std::cmp::Ordering::Less => GameResult::Winner(Side::Confederate),
                    std::cmp::Ordering::Equal => GameResult::Draw,
                },
                reason: "turn limit".into(),
                turn: 8,
            }
        })
    }

    fn losses(&self, s: &State) -> BySide<u32> {
        s.stands.map(|_, st| st.lost())
    }
}

/// Always fires `n` dice.
struct Fire(u32);

impl Commander<Firefight> for Fire {
    fn order(&mut self, _: &Firefight, _: &State, _: Side) -> u32 {
        self.0
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
            number: 1,
            error: Refused::Dice(9),
        }) => {}
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
        refused_orders: &|_, _| vec![0, 4],
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
