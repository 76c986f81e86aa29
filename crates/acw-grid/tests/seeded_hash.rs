//! A fingerprint of many seeded default games on both boards (outcomes and every event), for checking that a
//! speed change leaves every seeded result as it was: `cargo test -p acw-grid --release --test seeded_hash --
//! --ignored --nocapture` prints it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use acw_core::BySide;
use acw_core::game::{Commander, play};
use acw_grid::board::GridKind;
use acw_grid::bots::{Attacker, Holder};
use acw_grid::game::Grid;
use acw_grid::setup::Scenario;
use std::hash::{DefaultHasher, Hash, Hasher};

#[test]
#[ignore = "a fingerprint to compare by hand before and after a speed change"]
fn seeded_games_fingerprint() {
    for kind in [GridKind::Square, GridKind::Hex] {
        let mut h = DefaultHasher::new();
        for seed in 0..300u64 {
            let scenario = Scenario::meeting_engagement(seed % 7, kind);
            let (mut a, mut b) = (Attacker::new(seed), Holder::new(seed ^ 1));
            let game = play(
                &Grid,
                &scenario,
                seed,
                BySide::new(&mut a as &mut dyn Commander<Grid>, &mut b),
            )
            .expect("a default game plays to its end");
            game.outcome.to_string().hash(&mut h);
            game.orders.hash(&mut h);
            for e in &game.log {
                format!("{e:?}").hash(&mut h);
            }
        }
        println!("{kind:?}: {:016x}", h.finish());
    }
}
