//! Random play on generated armies: whatever is asked, the battle never panics, a refusal changes nothing, and
//! figures, points and phases stay sane.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use acw_core::{Dice, Die, GameRng, Side};
use acw_d8::army::Army;
use acw_d8::morale::MoraleFacts;
use acw_d8::movement::{ChargeFacts, MoveFacts};
use acw_d8::sequence::Phase;
use acw_d8::state::{FireFacts, MeleeFacts, Struck, Target, UnitId};
use acw_d8::tables::{Cover, Formation, Ground};
use acw_d8::{Battle, Options};
use proptest::prelude::*;

fn pick(rng: &mut GameRng, n: usize) -> usize {
    rng.index(n.max(1))
}

fn act(b: &mut Battle, rng: &mut GameRng) -> bool {
    let n = b.units().len();
    let id = UnitId(pick(rng, n) as u32);
    let other = UnitId(pick(rng, n) as u32);
    let before = b.clone();
    let d = f64::from(Die::new(40).unwrap().roll(rng));
    let r = match (b.phase(), pick(rng, 5)) {
        (Phase::Movement, 0) => {
            let crossed = [Ground::Fence, Ground::Hedge, Ground::River, Ground::Wood][pick(rng, 4)];
            let f = MoveFacts {
                distance_cm: d,
                crossed: vec![crossed],
                nearer_enemy: pick(rng, 2) == 0,
                ..MoveFacts::default()
            };
            b.move_unit(id, &f, rng).map(|_| ())
        }
        (Phase::Movement, 1) => {
            let to = [Formation::Line, Formation::Column, Formation::Skirmish][pick(rng, 3)];
            b.change_formation(id, to)
        }
        (Phase::Movement, 2) => {
            let f = ChargeFacts {
                distance_cm: d,
                path_open: true,
                target_in_cover: false,
                in_contact_order: true,
            };
            b.charge(id, other, &f)
        }
        (Phase::Movement, 3) => b.set_limbered(id, pick(rng, 2) == 0),
        (Phase::Movement, _) => b.set_mounted(id, pick(rng, 2) == 0),
        (Phase::Firing, _) => {
            let mut f = FireFacts::all_at(pick(rng, 25), d);
            f.target_cover = [Cover::Open, Cover::Soft, Cover::Hard][pick(rng, 3)];
            b.fire(id, Target::Unit(other), &f, rng).map(|_| ())
        }
        (Phase::Melee, _) => {
            let pairs = (0..pick(rng, 6))
                .map(|_| (Struck::Figure, 1 + pick(rng, 4) as u8))
                .collect();
            b.melee(
                id,
                other,
                &MeleeFacts {
                    pairings: pairs,
                    ..MeleeFacts::default()
                },
                rng,
            )
            .map(|_| ())
        }
        _ => Ok(()),
    };
    if let Err(e) = &r {
        if *b != before {
            let a = serde_json::to_value(&before).unwrap();
            let z = serde_json::to_value(&*b).unwrap();
            let diff: Vec<String> = a["units"]
                .as_array()
                .unwrap()
                .iter()
                .zip(z["units"].as_array().unwrap())
                .filter(|(x, y)| x != y)
                .map(|(x, y)| format!("{x}\n=> {y}"))
                .collect();
            panic!("a refusal changed the battle: {e}\n{}", diff.join("\n"));
        }
        assert!(!e.to_string().is_empty());
    }
    r.is_ok()
}

fn play(seed: u64) {
    let o = Options::default();
    let mut rng = GameRng::seed(seed);
    let u = Army::generate(Side::Union, &mut rng, &o, 1, 1863).unwrap();
    let c = Army::generate(Side::Confederate, &mut rng, &o, 2, 1863).unwrap();
    let mut b = Battle::new(&u, &c, o).unwrap();
    b.open(&mut rng).unwrap();
    let mut last_points = 0;
    let mut done = 0;
    for _turn in 0..12 {
        if b.phase() == Phase::Over {
            break;
        }
        let influence: Vec<(UnitId, f64)> = b
            .units()
            .iter()
            .map(|u| (u.id, f64::from(Die::D100.roll(&mut rng))))
            .collect();
        b.start_turn(&influence, &mut rng).unwrap();
        for phase in [Phase::Movement, Phase::Firing, Phase::Melee] {
            assert_eq!(b.phase(), phase);
            for _ in 0..20 {
                done += usize::from(act(&mut b, &mut rng));
            }
            match phase {
                Phase::Movement => b.end_movement().unwrap(),
                Phase::Firing => {
                    b.end_firing(&mut rng).unwrap();
                }
                _ => b.end_melee().unwrap(),
            }
        }
        for id in b.must_test() {
            b.morale(
                id,
                &MoraleFacts {
                    enemy_near: true,
                    ..MoraleFacts::default()
                },
            )
            .unwrap();
        }
        b.end_turn().unwrap();
        for u in b.units() {
            assert!(u.figures <= u.original, "{u}");
            assert!(u.removed || u.figures > 0, "{u}");
        }
        let points = b.points().union.total() + b.points().confederate.total();
        assert!(points >= last_points);
        last_points = points;
    }
    assert!(done > 20, "only {done} actions were allowed");
    // The state saves and loads.
    let back: Battle = serde_json::from_str(&serde_json::to_string(&b).unwrap()).unwrap();
    assert_eq!(back, b);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]
    #[test]
    fn random_play_keeps_the_rules(seed in any::<u64>()) {
        play(seed);
    }
}
