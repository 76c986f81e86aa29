//! The baseline commanders remember the engine's answers between their orders; what they remember must change
//! no order. A bot that has played the whole game so far gives, at every decision, the order a fresh bot with
//! the same seed gives on the same state.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use acw_core::Side;
use acw_core::game::{Commander, Ruleset};
use acw_north::bots::{Attacker, Holder};
use acw_north::game::{North, Order};
use acw_north::setup::Scenario;

#[test]
fn remembering_bots_order_as_fresh_ones_do() {
    for seed in [3u64, 11] {
        let mut state = North.setup(&Scenario::default(), seed).unwrap();
        let (mut attacker, mut holder) = (Attacker::new(seed), Holder::new(seed ^ 1));
        let mut log = Vec::new();
        let (mut orders, mut attacks) = (0u32, 0u32);
        while let Some(side) = North.to_order(&state) {
            let fresh = match side {
                Side::Union => Attacker::new(seed).order(&North, &state, side),
                Side::Confederate => Holder::new(seed ^ 1).order(&North, &state, side),
            };
            let kept = match side {
                Side::Union => attacker.order(&North, &state, side),
                Side::Confederate => holder.order(&North, &state, side),
            };
            assert_eq!(kept, fresh, "seed {seed}, order {orders}");
            attacks += u32::from(matches!(kept, Order::Attack { .. }));
            North.apply(&mut state, &kept, &mut log).unwrap();
            orders += 1;
        }
        // The games are whole ones, with attacks chosen from the remembered answers.
        assert!(North.outcome(&state).is_some());
        assert!(orders > 300, "seed {seed}: {orders} orders");
        assert!(attacks > 20, "seed {seed}: {attacks} attacks");
    }
}
