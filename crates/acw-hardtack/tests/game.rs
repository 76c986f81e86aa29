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
