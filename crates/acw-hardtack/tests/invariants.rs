//! Property tests: the procedures never panic on any input a caller can give, their odds are distributions,
//! and the engine keeps its books.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::dice::ScriptedDice;
use acw_core::{GameRng, Resolve};
use acw_hardtack::DieType;
use acw_hardtack::Options;
use acw_hardtack::fire::{
    Cover, FireDice, FireKind, FirepowerFacts, FirerDice, Impact, RangeDie, RangeFacts,
    ScreenedVolley, StandFire, Volley, firer_dice, range_die,
};
use acw_hardtack::melee::{
    AssaultEnd, AtShort, CloseAssault, CombinedMelee, Melee, MeleeDie, MeleeSide,
};
use acw_hardtack::morale::{ConfidenceTest, ReactionTest};
use acw_hardtack::movement::CombatMove;
use acw_hardtack::options::{AssaultTestCasualties, KillThreshold, TwoLevelDrop};
use acw_hardtack::state::{FireFacts, Formation};
use acw_hardtack::tables::{ConfidenceLevel, Leadership};
use common::two;
use proptest::prelude::*;

fn die() -> impl Strategy<Value = DieType> {
    prop::sample::select(DieType::ALL.to_vec())
}

fn cover() -> impl Strategy<Value = Cover> {
    prop::sample::select(vec![
        Cover::Open,
        Cover::Soft,
        Cover::Hard,
        Cover::Fortification,
    ])
}

fn index(r: RangeDie) -> i16 {
    match r {
        RangeDie::Die { die, .. } => die.index(),
        RangeDie::OutOfReach => 99,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    // HT-FIR-04: any distance gives a die on the ladder or out of reach; farther is never easier.
    #[test]
    fn range_die_is_monotone(d in 0.0f64..200.0, extra in 0.0f64..50.0, band in 1.0f64..24.0, c in cover(),
                             ip: bool, line: bool, sb: bool) {
        let mut f = RangeFacts::at(d, band);
        f.cover = c;
        f.in_position = ip;
        f.close_formation_target = line;
        f.smoothbore = sb;
        let near = range_die(&f, FireKind::SmallArms, false, &Options::default()).unwrap();
        f.distance = d + extra;
        let far = range_die(&f, FireKind::SmallArms, false, &Options::default()).unwrap();
        prop_assert!(index(near) <= index(far));
    }

    // Bad lengths are refused, never a panic.
    #[test]
    fn bad_lengths_refused(d in prop::num::f64::ANY) {
        let r = range_die(&RangeFacts::at(d, 8.0), FireKind::SmallArms, false, &Options::default());
        prop_assert_eq!(r.is_err(), !(d.is_finite() && d >= 0.0));
    }

    // HT-FIR-08: more firepower never gives a smaller firepower die.
    #[test]
    fn firepower_is_monotone(h in 1u32..60, q in die(), skirmish: bool) {
        let f = |half_fp| firer_dice(&FirepowerFacts { quality: q, half_fp, skirmish, first_volley: false, spill: None },
                                     &Options::default()).unwrap();
        let (a, b) = (f(h), f(h + 1));
        prop_assert!(a.firepower <= b.firepower);
        prop_assert!(a.quality <= b.quality);
    }

    // HT-FIR-01: the chain's odds are a distribution and never allot more casualties than figures.
    #[test]
    fn volley_odds(q in die(), fp in die(), r in die(), i in die(), pool in 1u8..13) {
        let v = Volley {
            fire: FireDice { firer: FirerDice::two(q, fp), range: r },
            impact: Impact { impact: i, armour: DieType::D4, armour_shift: 0, kill: KillThreshold::DoubleOrMore },
            pool,
        };
        let o = v.odds();
        let total: f64 = o.outcomes().iter().map(|(_, p)| p).sum();
        prop_assert!((total - 1.0).abs() < 1e-9);
        prop_assert!(o.outcomes().iter().all(|(x, _)| x.casualties() <= pool && x.casualties() <= x.effect.potential));
    }

    // HT-FIR-23, HT-ART-18: fire through skirmishers: the odds are a distribution; no company loses more
    // figures than it has, the two together no more than the potential hits; with no skirmisher in the
    // pool it is the volley at the target alone, and the target never fares worse for a screen in front.
    #[test]
    fn screened_volley_odds(q in die(), fp in die(), r in die(), i in die(), armour in die(),
                            pool in 1u8..9, screen in 0u8..7) {
        let volley = Volley {
            fire: FireDice { firer: FirerDice::two(q, fp), range: r },
            impact: Impact { impact: i, armour: DieType::D4, armour_shift: 0, kill: KillThreshold::DoubleOrMore },
            pool,
        };
        let v = ScreenedVolley { volley, screen_armour: armour, screen };
        let o = v.odds();
        let total: f64 = o.outcomes().iter().map(|(_, p)| p).sum();
        prop_assert!((total - 1.0).abs() < 1e-9);
        prop_assert!(o.outcomes().iter().all(|(x, _)| x.target.casualties() <= pool
            && x.screen.casualties() <= screen
            && x.target.casualties() + x.screen.casualties() <= x.target.effect.potential));
        let clear = o.prob(|x| x.target.casualties() == 0);
        let alone = volley.odds().prob(|x| x.casualties() == 0);
        prop_assert!(clear >= alone - 1e-9);
        if screen == 0 {
            prop_assert!((clear - alone).abs() < 1e-12);
        }
    }

    // HT-SG2-37: an attacker aborting when still short ends where one staying mid-dash would have ended,
    // its test's results sharing that chance; every other end keeps its chance.
    #[test]
    fn the_abort_takes_the_place_of_staying(q in die(), distance in 0u8..16, a in 1u8..4, d in 1u8..4,
                                            tl in proptest::option::of(-1i16..3)) {
        let side = |figures| MeleeSide {
            figures, first_round: MeleeDie::plain(q), quality: q, lv: Leadership::TWO, modifier: 0, on_foot: 0,
        };
        let stay = CloseAssault {
            attack: ReactionTest { quality: q, lv: Leadership::TWO, tl: 0 },
            stand: Some(ConfidenceTest { quality: q, lv: Leadership::TWO, tl: 0, two_level: TwoLevelDrop::HalfOrLess }),
            approach: CombatMove::new(DieType::D4, f64::from(distance)).unwrap(),
            melee: Melee { attacker: side(a), defender: side(d), casualties: AssaultTestCasualties::ThisRound,
                           two_level: TwoLevelDrop::HalfOrLess },
            final_fire: None,
            at_short: AtShort::StayMidDash,
        };
        let abort = CloseAssault { at_short: AtShort::Abort { tl, two_level: TwoLevelDrop::HalfOrLess }, ..stay };
        let (s, t) = (stay.odds(), abort.odds());
        let short = s.prob(|e| matches!(e, AssaultEnd::FellShort { .. }));
        let aborted = t.prob(|e| matches!(e, AssaultEnd::Aborted { .. }));
        let stayed = t.prob(|e| matches!(e, AssaultEnd::FellShort { .. }));
        let tested = t.prob(|e| matches!(e, AssaultEnd::Aborted { test: Some(_), .. }));
        prop_assert!((aborted - short).abs() < 1e-12, "{} {}", aborted, short);
        prop_assert!(stayed == 0.0, "{}", stayed);
        prop_assert!((tested - if tl.is_some() { short } else { 0.0 }).abs() < 1e-12, "{}", tested);
        for (e, p) in s.outcomes() {
            if !matches!(e, AssaultEnd::FellShort { .. }) {
                prop_assert!((t.prob(|x| x == e) - p).abs() < 1e-12);
            }
        }
    }

    // HT-SG2-16: a higher threat level never makes a pass likelier.
    #[test]
    fn confidence_is_monotone(q in die(), lv in 1u8..4, tl in -2i16..8) {
        let t = |tl| ConfidenceTest { quality: q, lv: Leadership::new(lv).unwrap(), tl, two_level: TwoLevelDrop::HalfOrLess }
            .odds().p(&acw_hardtack::morale::Confidence::Pass);
        prop_assert!(t(tl + 1) <= t(tl));
    }

    // HT-SG2-40: a melee's odds are a distribution and nobody loses more figures than fought.
    #[test]
    fn melee_odds(a in 1u8..7, d in 1u8..7, qa in die(), qd in die()) {
        let side = |n, q| MeleeSide { figures: n, first_round: MeleeDie::plain(q), quality: q, lv: Leadership::TWO, modifier: 0, on_foot: 0 };
        let m = Melee { attacker: side(a, qa), defender: side(d, qd), casualties: AssaultTestCasualties::ThisRound,
                        two_level: TwoLevelDrop::HalfOrLess };
        let o = m.odds();
        let total: f64 = o.outcomes().iter().map(|(_, p)| p).sum();
        prop_assert!((total - 1.0).abs() < 1e-9);
        prop_assert!(o.outcomes().iter().all(|(x, _)| x.attacker_down <= a && x.defender_down <= d));
    }

    // HT-MEL-12: with riders on either side the odds are still a distribution; a side's figures down and riders
    // unhorsed never exceed those that fought, and a side on foot never has a rider unhorsed.
    #[test]
    fn melee_with_riders_odds(a in 1u8..4, d in 1u8..4, qa in die(), qd in die(), ma: bool, md: bool) {
        let side = |n, q, mounted| MeleeSide { figures: n, first_round: MeleeDie { mounted, ..MeleeDie::plain(q) },
                                               quality: q, lv: Leadership::TWO, modifier: 0, on_foot: 0 };
        let m = Melee { attacker: side(a, qa, ma || !md), defender: side(d, qd, md), casualties: AssaultTestCasualties::ThisRound,
                        two_level: TwoLevelDrop::HalfOrLess };
        let o = m.odds();
        let total: f64 = o.outcomes().iter().map(|(_, p)| p).sum();
        prop_assert!((total - 1.0).abs() < 1e-9);
        prop_assert!(o.outcomes().iter().all(|(x, _)| x.attacker_down + x.attacker_unhorsed <= a
            && x.defender_down + x.defender_unhorsed <= d
            && (md || x.defender_unhorsed == 0)));
    }

    // HT-SG2-42, HT-MEL-05: a combined melee's odds are a distribution; nobody loses more figures than
    // fought and no more companies fall back than went in.
    #[test]
    fn combined_melee_odds(a1 in 1u8..4, a2 in 1u8..4, d in 1u8..5, qa in die(), qd in die(), dropped: bool) {
        let side = |n, q| MeleeSide { figures: n, first_round: MeleeDie::plain(q), quality: q, lv: Leadership::TWO, modifier: 0, on_foot: 0 };
        let m = CombinedMelee::new(&[side(a1, qa), side(a2, qd)], side(d, qd), AssaultTestCasualties::WholeAssault,
                                   TwoLevelDrop::HalfOrLess, dropped).unwrap();
        let o = m.odds();
        let total: f64 = o.outcomes().iter().map(|(_, p)| p).sum();
        prop_assert!((total - 1.0).abs() < 1e-9);
        prop_assert!(o.outcomes().iter().all(|(x, _)| x.attacker_down <= a1 + a2 && x.defender_down <= d && x.fell_back <= 2));
    }

    // HT-OPT-33: stand-based fire's odds are a distribution; casualties never exceed the pool nor the hits.
    #[test]
    fn stand_fire_odds(q in die(), fp in die(), r in die(), stands in 1usize..4, pool in 1usize..10) {
        let stand = FireDice { firer: FirerDice::two(q, fp), range: r };
        let f = StandFire::new(&vec![stand; stands],
            Impact { impact: DieType::D6, armour: DieType::D4, armour_shift: 0, kill: KillThreshold::DoubleOrMore }, pool).unwrap();
        let o = f.odds();
        let total: f64 = o.outcomes().iter().map(|(_, p)| p).sum();
        prop_assert!((total - 1.0).abs() < 1e-9);
        prop_assert!(o.outcomes().iter().all(|(x, _)| usize::from(x.casualties()) <= pool && x.casualties() <= x.effect.potential));
    }

    // HT-ART-22, HT-ART-19: fire at a gun's team, and a canister blast through a company onto it: the odds
    // are distributions; horses down never exceed the team nor the hits, and a blast reaches the team only
    // after a hit on the company (with casualties, if it needs them) and within D12.
    #[test]
    fn team_fire_odds(q in die(), fp in die(), r in die(), horses in 1u8..9, shift in -1i16..3, quick: bool,
                      company in die(), team_range in die(), pool in 1u8..9, per_step: bool, needs: bool) {
        let mut o = Options::default();
        o.quick_combat_resolution = quick;
        o.blast_requires_casualties = needs;
        if !per_step {
            o.blast_through_count = acw_hardtack::options::BlastThroughCount::EveryDamagedCompany;
        }
        let team = acw_hardtack::artillery::TeamFire {
            fire: acw_hardtack::state::FireRoll::Dice(FireDice { firer: FirerDice::two(q, fp), range: r }),
            impact: DieType::D6, armour_shift: shift, horses, options: o,
        };
        let d = team.odds();
        let total: f64 = d.outcomes().iter().map(|(_, p)| p).sum();
        prop_assert!((total - 1.0).abs() < 1e-9);
        prop_assert!(d.outcomes().iter().all(|(x, _)| x.horses_down <= horses && x.horses_down <= x.effect.potential));
        let volley = Volley {
            fire: FireDice { firer: FirerDice::three(q, DieType::D8, DieType::D8), range: company },
            impact: Impact { impact: DieType::D12, armour: DieType::D4, armour_shift: 0, kill: KillThreshold::DoubleOrMore },
            pool,
        };
        let blast = acw_hardtack::artillery::BlastOntoTeam::new(volley, q,
            acw_hardtack::tables::FieldPiece::Gun6lb, team_range, shift, horses, o);
        let d = blast.odds();
        let total: f64 = d.outcomes().iter().map(|(_, p)| p).sum();
        prop_assert!((total - 1.0).abs() < 1e-9);
        for (x, _) in d.outcomes() {
            if let Some(t) = x.team {
                prop_assert!(x.company.effect.success != acw_hardtack::ladder::Success::Fail);
                prop_assert!(!needs || x.company.casualties() > 0);
                // past D12 after a step counted; a D12 only with none (no casualties, counted by company)
                let counted = per_step || x.company.casualties() > 0;
                prop_assert!(!(counted && team_range == DieType::D12) && t.horses_down <= horses);
            }
        }
    }

    // The engine: fire never creates or loses figures, never raises confidence, and a fire whose dice run
    // out leaves the battle as it was.
    #[test]
    fn engine_books(seed: u64, dist in 1.0f64..40.0, short in 0usize..4) {
        let (mut b, a, r) = two(Options::default(), (8, Formation::Line), (8, Formation::Skirmish));
        let before = b.clone();
        let mut rng = GameRng::seed(seed);
        let faces: Vec<u16> = (0..short).map(|_| 1).collect();
        if b.fire(a, r, FireFacts { distance: dist, ..FireFacts::default() }, &mut ScriptedDice::faces(faces)).is_err() {
            prop_assert_eq!(&b, &before);
        }
        let mut b = before.clone();
        if b.fire(a, r, FireFacts { distance: dist, ..FireFacts::default() }, &mut rng).is_ok() {
            let t = b.company(r).unwrap();
            prop_assert_eq!(t.fit() + t.dead() + t.wounded(), 8);
            prop_assert!(t.confidence() >= ConfidenceLevel::Confident);
        }
    }
}
