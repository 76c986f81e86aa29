//! Odds straight from a battle: `Battle::attack_odds` gives the exact chances of what `Battle::attack` would do
//! with the same group, sights and response, and refuses what `attack` refuses.

use acw_core::dice::ScriptedDice;
use acw_core::measure::Inches;
use acw_north::combat::AttackReport;
use acw_north::prelude::*;

/// The default battle at the Confederate artillery step, its first battery and the Union's first regiment.
fn at_artillery() -> Result<(Battle, UnitId, UnitId), Box<dyn std::error::Error>> {
    let mut battle = Battle::new(&default_forces(), Options::default())?;
    let gun = battle
        .unit_named("CSA 1st Bde, Battery")
        .map(Unit::id)
        .ok_or("no gun")?;
    let regiment = battle
        .unit_named("USA 1st Bde, Regt 1")
        .map(Unit::id)
        .ok_or("no regiment")?;
    battle.advance_to(Step::Units)?;
    for unit in battle.owed_moves() {
        battle.excuse_move(unit)?;
    }
    battle.advance_to(Step::Artillery)?;
    Ok((battle, gun, regiment))
}

/// What an attack did to its target, in the terms of the odds.
fn effect_of(report: &AttackReport) -> AttackEffect {
    let Some(m) = report.morale.as_ref().filter(|_| report.hit) else {
        return AttackEffect::NoHit;
    };
    let e = m.effect;
    match (e.removed, e.stand_lost.is_some(), e.fell_back.is_some()) {
        (true, _, _) => AttackEffect::Removed,
        (false, true, true) => AttackEffect::StandLostAndFellBack,
        (false, true, false) => AttackEffect::StandLost,
        (false, false, true) => AttackEffect::FellBack,
        (false, false, false) => AttackEffect::Rallied,
    }
}

#[test]
fn a_battery_at_twenty_inches_in_ninths() -> Result<(), Box<dyn std::error::Error>> {
    let (battle, gun, regiment) = at_artillery()?;
    let group = AttackGroup {
        category: Category::Artillery,
        target: regiment,
        attackers: vec![gun],
    };
    let odds = battle.attack_odds(
        &group,
        &[Sight::clear(Inches(20.0))],
        false,
        &MoraleResponse::default(),
    )?;
    // One battery at a deployed regiment in the open: no modifier, a hit on 5–6 (1/3). The morale die is
    // unmodified: 1–2 rallies, 3–4 the default choice loses a stand (a 4-stand regiment stays in play), 5–6 a
    // stand and a fall-back: 1/3 each of the hits.
    let p = |e: AttackEffect| odds.prob(|o| o.effect == e);
    assert!((p(AttackEffect::NoHit) - 2.0 / 3.0).abs() < 1e-12);
    assert!((p(AttackEffect::Rallied) - 1.0 / 9.0).abs() < 1e-12);
    assert!((p(AttackEffect::StandLost) - 1.0 / 9.0).abs() < 1e-12);
    assert!((p(AttackEffect::StandLostAndFellBack) - 1.0 / 9.0).abs() < 1e-12);
    assert_eq!(p(AttackEffect::Removed), 0.0);
    Ok(())
}

#[test]
fn odds_agree_with_the_attack_face_by_face() -> Result<(), Box<dyn std::error::Error>> {
    let (battle, gun, regiment) = at_artillery()?;
    let group = AttackGroup {
        category: Category::Artillery,
        target: regiment,
        attackers: vec![gun],
    };
    let sights = [Sight::clear(Inches(20.0))];
    // A regiment behind cover, its owner falling back on 3–4.
    let response = MoraleResponse {
        choice: ChoicePolicy::Always(Choice::FallBack),
        ..MoraleResponse::default()
    };
    let odds = battle.attack_odds(&group, &sights, true, &response)?;
    let mut counted = std::collections::BTreeMap::new();
    for toss in 1..=6 {
        for morale in 1..=6 {
            let mut b = battle.clone();
            let report = b.attack(
                &group,
                &sights,
                true,
                &response,
                &mut ScriptedDice::faces([toss, morale]),
            )?;
            *counted.entry(effect_of(&report)).or_insert(0u32) += 1;
        }
    }
    for (effect, n) in &counted {
        let p = odds.prob(|o| o.effect == *effect);
        assert!(
            (p - f64::from(*n) / 36.0).abs() < 1e-12,
            "{effect}: odds {p}, faces {n}/36"
        );
    }
    let total: f64 = odds.outcomes().iter().map(|(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-12);
    // Cover takes one from the toss (a hit on 6 only); the fall-back choice shows.
    assert_eq!(counted.get(&AttackEffect::NoHit), Some(&30));
    assert_eq!(counted.get(&AttackEffect::FellBack), Some(&2));
    Ok(())
}

#[test]
fn refuses_what_the_attack_refuses_and_changes_nothing() -> Result<(), Box<dyn std::error::Error>> {
    let (battle, gun, regiment) = at_artillery()?;
    let before = battle.clone();
    let empty = AttackGroup {
        category: Category::Artillery,
        target: regiment,
        attackers: Vec::new(),
    };
    assert_eq!(
        battle.attack_odds(&empty, &[], false, &MoraleResponse::default()),
        Err(RuleViolation::BadGroup)
    );
    // A Union regiment cannot fire in the Confederate phase.
    let wrong_side = AttackGroup {
        category: Category::Artillery,
        target: gun,
        attackers: vec![regiment],
    };
    assert!(
        battle
            .attack_odds(
                &wrong_side,
                &[Sight::clear(Inches(20.0))],
                false,
                &MoraleResponse::default()
            )
            .is_err()
    );
    assert_eq!(battle, before);
    Ok(())
}
