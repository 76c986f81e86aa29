//! Value stability: a fixed seed gives exactly these results. A change here is a deliberate diff: a rules
//! change, or a change in how faces are drawn.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::{GameRng, Resolve, Side};
use acw_tsatf::Options;
use acw_tsatf::battle::{ChargeOrder, ChargeReport, FireOrder, MeleeOrder};
use acw_tsatf::fire::{HitCard, MassFire, TargetArea};
use acw_tsatf::melee::{Combat, Melee, MeleeSide};
use acw_tsatf::morale::MoraleTest;
use acw_tsatf::movement::MoveDice;
use acw_tsatf::options::Remainder;
use acw_tsatf::state::Phase;
use acw_tsatf::tables::{FireRow, Quality, TargetClass};
use common::*;

fn summary(seed: u64) -> String {
    let mut rng = GameRng::seed(seed);
    let moves: Vec<u32> = (0..4)
        .map(|_| MoveDice { dice: 3, drops: 1 }.roll(&mut rng))
        .collect();
    let fire = MassFire {
        row: FireRow::VeteranMusket,
        class: TargetClass::I,
        figures: 9,
        remainder: Remainder::Drop,
        green_class3_pattern: false,
    };
    let hits: Vec<u16> = (0..4).map(|_| fire.roll(&mut rng)).collect();
    let card = HitCard.roll(&mut rng);
    let bouts: Vec<String> = (0..3)
        .map(|_| Combat { modifier: 1 }.roll(&mut rng).to_string())
        .collect();
    let morale = MoraleTest::critical(Quality::Green, true, 0).roll(&mut rng);
    let side = MeleeSide {
        cadre: 1,
        others: 5,
        modifier: 0,
        cadre_first: true,
    };
    let melee = Melee::new(side, side, &Options::default()).roll(&mut rng);
    // a short bout on the battle: a charge, a volley, the tests and the melee
    let mut b = battle();
    b.begin_phase(&mut rng).unwrap();
    let mut log = Vec::new();
    let first = b.turn_card(&mut rng).unwrap();
    log.push(format!("first card {first}"));
    if first != Side::Union {
        b.hold(CSA_CAV).unwrap();
        b.turn_card(&mut rng).unwrap();
    }
    let order = ChargeOrder {
        target: CSA_C,
        distance: 5.0,
        rough_features: 0,
        flank_or_rear: false,
        protected: false,
    };
    let report = b.charge(USA_A, &order, &mut rng).unwrap();
    log.push(report.to_string());
    to_phase(&mut b, Phase::Firing);
    turn(&mut b, Side::Confederate);
    let fo = FireOrder {
        target: USA_A,
        range: 4.0,
        in_reach: None,
        area: TargetArea {
            figures: 21,
            close_order: 21,
            ..TargetArea::default()
        },
        canister: false,
        with: vec![],
        hit_order: vec![],
    };
    log.push(b.fire(CSA_D, &fo, &mut rng).unwrap().to_string());
    to_phase(&mut b, Phase::CloseCombat);
    if let ChargeReport::Contact { charge, .. } = report {
        let close = b.close_in(charge, true, &mut rng).unwrap();
        log.push(close.to_string());
        if let Ok(s) = b.stand(charge, &mut rng) {
            log.push(s.to_string());
            if let Ok(m) = b.melee(charge, &MeleeOrder::default(), &mut rng) {
                log.push(m.to_string());
            }
        }
    }
    format!(
        "{moves:?} {hits:?} {} {} {bouts:?} {morale} {melee} | {}",
        card.0,
        card.1,
        log.join(" | ")
    )
}

#[test]
fn fixed_seed_sequence() {
    let got = summary(1863);
    assert_eq!(got, summary(1863));
    assert_eq!(
        got,
        "[5, 4, 5, 9] [2, 1, 3, 2] killed an enlisted man [\"won; the enemy figure is wounded\", \"lost and is killed\", \"lost and is wounded\"] true the defenders win with 4 figures still fighting | first card Union | 5 stragglers; the charge ran 12\" into contact with 8\" to spare | 4th Alabama, Company D fired 10 figures as Green muskets at 1st Maine, Company A (Class I): 1 hit, 1 killed and 0 wounded | the attackers failed to close, fell back six inches and are pinned"
    );
}
