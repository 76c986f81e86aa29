//! Invariants under random play: figures never negative, casualties never more than the figures, every
//! distribution sums to 1.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::{GameRng, Resolve, Side};
use acw_tsatf::battle::{ChargeOrder, ChargeReport, FireOrder, MeleeOrder};
use acw_tsatf::fire::{MassFire, TargetArea, TypeFire};
use acw_tsatf::melee::{Melee, MeleeSide};
use acw_tsatf::options::Remainder;
use acw_tsatf::state::Phase;
use acw_tsatf::tables::{FireRow, TargetClass};
use acw_tsatf::{Options, UnitId};
use common::*;
use proptest::prelude::*;
use strum::IntoEnumIterator;

fn sums_to_one<T>(d: &acw_core::Dist<T>) -> bool {
    (d.outcomes().iter().map(|(_, p)| p).sum::<f64>() - 1.0).abs() < 1e-9
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn fire_odds_sum_to_one(figures in 0u16..60, row in 0usize..11, class in 0usize..4, chance in any::<bool>(), dice in 0u16..30) {
        let row = FireRow::iter().nth(row).unwrap();
        let class = TargetClass::iter().nth(class).unwrap();
        let remainder = if chance { Remainder::Chance } else { Remainder::RoundHalfUp };
        let m = MassFire { row, class, figures, remainder, green_class3_pattern: false }.odds();
        prop_assert!(sums_to_one(&m));
        prop_assert!(*m.max() <= figures);
        let t = TypeFire::of(row, class, dice, &Options::default()).odds();
        prop_assert!(sums_to_one(&t));
        prop_assert!(*t.max() <= dice);
    }

    #[test]
    fn melee_odds_sum_to_one_and_winners_keep_no_more_than_they_had(
        ac in 0u8..3, ao in 0u8..6, dc in 0u8..3, dd in 0u8..6, am in -3i8..4, dm in -3i8..4, first in any::<bool>()
    ) {
        let a = MeleeSide { cadre: ac, others: ao.max(1), modifier: am, cadre_first: first };
        let d = MeleeSide { cadre: dc, others: dd.max(1), modifier: dm, cadre_first: !first };
        let mut o = Options::default();
        o.melee_overlap = first;
        let m = Melee::new(a, d, &o);
        let odds = m.odds();
        prop_assert!(sums_to_one(&odds));
        for (o, _) in odds.outcomes() {
            let had = match o.winner { acw_tsatf::melee::Party::Attackers => ac + ao.max(1), _ => dc + dd.max(1) };
            prop_assert!(o.left >= 1 && o.left <= u16::from(had));
        }
    }

    #[test]
    fn a_rolled_melee_of_any_size_ends(ac in any::<u8>(), ao in any::<u8>(), dc in any::<u8>(), dd in any::<u8>(), am in any::<i8>(), seed in any::<u64>()) {
        let a = MeleeSide { cadre: ac, others: ao, modifier: am, cadre_first: true };
        let d = MeleeSide { cadre: dc, others: dd, modifier: am.wrapping_neg(), cadre_first: false };
        let out = Melee::new(a, d, &Options::default()).roll(&mut GameRng::seed(seed));
        prop_assert!(out.left <= 510);
    }

    #[test]
    fn random_play_keeps_figures_sane(seed in any::<u64>()) {
        let mut rng = GameRng::seed(seed);
        let mut b = battle();
        // a charge, a volley and the melee, with random dice; whatever happens, the counts stay sane
        turn(&mut b, Side::Union);
        let order = ChargeOrder { target: CSA_C, distance: 6.0, rough_features: 0, flank_or_rear: false, protected: false };
        let charge = match b.charge(USA_A, &order, &mut rng) {
            Ok(ChargeReport::Contact { charge, .. }) => Some(charge),
            _ => None,
        };
        to_phase(&mut b, Phase::Firing);
        turn(&mut b, Side::Confederate);
        let fire = FireOrder { target: USA_B, range: 10.0, in_reach: None, area: TargetArea { figures: 21, close_order: 21, ..TargetArea::default() }, canister: false, with: vec![], hit_order: vec![] };
        let _ = b.fire(CSA_D, &fire, &mut rng);
        to_phase(&mut b, Phase::CloseCombat);
        if let Some(c) = charge
            && b.close_in(c, true, &mut rng).is_ok()
        {
            let _ = b.stand(c, &mut rng);
            let _ = b.melee(c, &MeleeOrder::default(), &mut rng);
        }
        for u in b.units() {
            let n = u.figures().len() as u16;
            prop_assert!(u.strength() <= n);
            prop_assert!(u.killed() + u.wounded() + u.captured() <= n);
            prop_assert_eq!(n, u.starting_strength());
        }
        let _ = UnitId(0);
    }
}
