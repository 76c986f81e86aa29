//! Fire and artillery on the battle state: scripted volleys, bands, dice, modifiers, saves, refusals.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::dice::ScriptedDice;
use acw_core::{Resolve, Side};
use acw_d8::fire::{FiringOrder, TargetStance, Volley, band, classify, dice_for, in_arc, save_for};
use acw_d8::sequence::Phase;
use acw_d8::state::{FireFacts, Target};
use acw_d8::tables::{
    Band, Boat, Class, Cover, FireSource, Formation, GunType, TargetKind, Weapon, to_hit_need,
};
use acw_d8::{D8Error, Options, Refusal};
use common::*;

fn facts(n: usize, d: f64) -> FireFacts {
    FireFacts::all_at(n, d)
}

#[test]
fn a_volley_hits_saves_and_scores() {
    // D8-FIR-14, D8-FIR-06, D8-FIR-08, D8-FIR-10, D8-FIR-13, D8-CAS-01, D8-CAS-02, D8-VIC-04: an Experienced line
    // of 12 at 10 cm: 12 D8s needing 4+; 4 hit; formed troops in the open save on 5+: 2 saved, 2 die.
    let mut b = battle();
    to_phase(&mut b, Phase::Firing);
    let mut d = ScriptedDice::faces([4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 3, 5, 1, 2, 6]);
    let r = b
        .fire(
            uid(U + 1),
            Target::Unit(uid(C + 1)),
            &facts(12, 10.0),
            &mut d,
        )
        .unwrap();
    assert_eq!((r.dice, r.hits, r.casualties), (12, 4, 2));
    assert_eq!(d.remaining(), 0);
    let t = b.unit(uid(C + 1)).unwrap();
    assert_eq!((t.figures, t.lost_this_turn), (10, 2));
    assert_eq!(b.points().union.kills, 2 * 2);
    assert!(r.to_string().contains("12 dice"));
    // D8-SEQ-05: once a turn.
    let err = b.fire(
        uid(U + 1),
        Target::Unit(uid(C + 1)),
        &facts(12, 10.0),
        &mut ScriptedDice::faces([]),
    );
    assert!(matches!(err, Err(Refusal::CannotFire { .. })));
}

#[test]
fn each_figure_takes_its_own_band() {
    // D8-FIR-05: 6 figures at 10 cm (short, 4+) and 6 at 20 cm (long, 5+): faces of 4 hit only at short range.
    let mut b = battle();
    to_phase(&mut b, Phase::Firing);
    let mut f = facts(12, 10.0);
    f.distances_cm[6..12].fill(20.0);
    let mut d = ScriptedDice::faces([4; 12].into_iter().chain([1; 6]));
    let r = b
        .fire(uid(U + 1), Target::Unit(uid(C + 7)), &f, &mut d)
        .unwrap();
    assert_eq!((r.hits, r.casualties), (6, 6));
    // Beyond long range a figure cannot fire; nobody in range is a refusal.
    let o = Options::default();
    assert_eq!(band(Weapon::Musket, 15.0, &o), Some(Band::Short));
    assert_eq!(band(Weapon::Musket, 30.0, &o), Some(Band::Long));
    assert_eq!(band(Weapon::Musket, 30.5, &o), None);
    assert_eq!(band(Weapon::Bow, 5.0, &o), Some(Band::Long));
    assert_eq!(band(Weapon::Shotgun, 6.0, &o), None);
    assert_eq!(band(Weapon::Carbine, 50.0, &o), Some(Band::Long));
    assert_eq!(band(Weapon::ImprovedMusket, 90.0, &o), Some(Band::Long));
    assert_eq!(band(Weapon::Rifle, 120.0, &o), Some(Band::Long));
    let mut bow = Options::default();
    bow.bow_short = true;
    assert_eq!(band(Weapon::Bow, 5.0, &bow), Some(Band::Short));
    let before = b.clone();
    let far = b.fire(
        uid(U + 2),
        Target::Unit(uid(C + 1)),
        &facts(15, 31.0),
        &mut ScriptedDice::faces([]),
    );
    assert!(matches!(far, Err(Refusal::CannotFire { .. })));
    assert_eq!(b, before);
}

#[test]
fn range_table() {
    // D8-FIR-04.
    let r = |w: Weapon| {
        let x = w.ranges(false);
        (x.short, x.long)
    };
    assert_eq!(r(Weapon::Musket), (Some(15.0), Some(30.0)));
    assert_eq!(r(Weapon::ImprovedMusket), (Some(15.0), Some(90.0)));
    assert_eq!(r(Weapon::Rifle), (Some(30.0), Some(120.0)));
    assert_eq!(r(Weapon::Bow), (None, Some(20.0)));
    assert_eq!(r(Weapon::Shotgun), (Some(5.0), None));
    assert_eq!(r(Weapon::Carbine), (Some(15.0), Some(50.0)));
    // D8-ART-04: field 30/120, heavy 45/180.
    assert_eq!(r(Weapon::FieldGun), (Some(30.0), Some(120.0)));
    assert_eq!(r(Weapon::HeavyGun), (Some(45.0), Some(180.0)));
}

#[test]
fn dice_per_unit() {
    // D8-FIR-06: a D8 a figure in line, per 2 skirmishers (rounded down, up under the option), 1 for a column
    // (2 under the option).
    let o = Options::default();
    assert_eq!(dice_for(FiringOrder::Line, 11, &o), 11);
    assert_eq!(dice_for(FiringOrder::Skirmish, 5, &o), 2);
    assert_eq!(dice_for(FiringOrder::Column, 14, &o), 1);
    let mut up = Options::default();
    up.skirmish_dice_round_up = true;
    up.column_two_dice = true;
    assert_eq!(dice_for(FiringOrder::Skirmish, 5, &up), 3);
    assert_eq!(dice_for(FiringOrder::Column, 14, &up), 2);
    // D8-ART-01: 2D8 an artilleryman for a field gun, 3D8 for a heavy.
    assert_eq!(dice_for(FiringOrder::Battery(GunType::Field), 7, &o), 14);
    assert_eq!(dice_for(FiringOrder::Battery(GunType::Heavy), 8, &o), 24);
    // D8-MOV-25: a large boat's 4 shooters roll a D8 per 2 (per figure under the option).
    assert_eq!(dice_for(FiringOrder::Boat, 8, &o), 2);
    let mut per = Options::default();
    per.boat_dice_per_figure = true;
    assert_eq!(dice_for(FiringOrder::Boat, 8, &per), 4);
}

#[test]
fn targets_and_modifiers() {
    let o = Options::default();
    // D8-FIR-07: skirmishers and unlimbered crews −1; columns and limbered batteries +1; the rest formed.
    assert_eq!(
        classify(TargetStance::Troops(Formation::Skirmish), &o),
        TargetKind::Skirmishers
    );
    assert_eq!(
        classify(TargetStance::Crew { limbered: false }, &o),
        TargetKind::Skirmishers
    );
    assert_eq!(
        classify(TargetStance::Crew { limbered: true }, &o),
        TargetKind::Column
    );
    assert_eq!(
        classify(TargetStance::Troops(Formation::Column), &o),
        TargetKind::Column
    );
    assert_eq!(
        classify(TargetStance::Troops(Formation::Line), &o),
        TargetKind::Formed
    );
    // D8-CMD-09: a lone officer is formed (a skirmisher under the option).
    assert_eq!(classify(TargetStance::Officer, &o), TargetKind::Formed);
    let mut sk = Options::default();
    sk.officer_skirmisher_target = true;
    assert_eq!(
        classify(TargetStance::Officer, &sk),
        TargetKind::Skirmishers
    );
    // D8-FIR-08, D8-FIR-09: base score less modifiers.
    assert_eq!(to_hit_need(Class::Experienced, -2), 6);
    assert_eq!(to_hit_need(Class::Raw, -3), 8);
    assert_eq!(to_hit_need(Class::Veteran, 1), 2);
}

#[test]
fn a_formation_fail_costs_the_firer_one() {
    // D8-FRM-05, D8-FIR-09: an Experienced regiment with a formation fail firing at skirmishers needs 6.
    let mut b = battle();
    start(&mut b);
    b.formation_fail(uid(U + 1), acw_d8::formation::FfCause::CrossedCover)
        .unwrap();
    b.end_movement().unwrap();
    // 2 skirmishers of the sharpshooters... aim at the Confederate sharpshooters (skirmish order).
    let mut d = ScriptedDice::faces([5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 6, 1]);
    let r = b
        .fire(
            uid(U + 1),
            Target::Unit(uid(C + 10)),
            &facts(12, 10.0),
            &mut d,
        )
        .unwrap();
    assert_eq!((r.hits, r.casualties), (1, 1));
}

#[test]
fn saves_by_cover_and_order() {
    let o = Options::default();
    // D8-FIR-11: formed 5+/4+/3+, skirmishers a face better.
    assert_eq!(
        save_for(
            FireSource::SmallArms,
            TargetStance::Troops(Formation::Line),
            Cover::Open,
            &o
        ),
        Some(5)
    );
    assert_eq!(
        save_for(
            FireSource::SmallArms,
            TargetStance::Troops(Formation::Skirmish),
            Cover::Hard,
            &o
        ),
        Some(2)
    );
    // D8-FIR-12: everyone gets the Open row unless the option denies a save in the open.
    let mut none = Options::default();
    none.no_open_save = true;
    assert_eq!(
        save_for(
            FireSource::SmallArms,
            TargetStance::Troops(Formation::Line),
            Cover::Open,
            &none
        ),
        None
    );
    assert_eq!(
        save_for(
            FireSource::SmallArms,
            TargetStance::Troops(Formation::Line),
            Cover::Soft,
            &none
        ),
        Some(4)
    );
    // D8-ART-05: heavy guns a face worse.
    assert_eq!(
        save_for(
            FireSource::HeavyGun,
            TargetStance::Troops(Formation::Line),
            Cover::Open,
            &o
        ),
        Some(6)
    );
    assert_eq!(
        save_for(
            FireSource::FieldGun,
            TargetStance::Troops(Formation::Column),
            Cover::Soft,
            &o
        ),
        Some(4)
    );
    // D8-ART-07: crews save as skirmishers behind soft cover, or their better cover; limbered crews as formed in
    // their own cover under the option.
    assert_eq!(
        save_for(
            FireSource::SmallArms,
            TargetStance::Crew { limbered: false },
            Cover::Open,
            &o
        ),
        Some(3)
    );
    assert_eq!(
        save_for(
            FireSource::SmallArms,
            TargetStance::Crew { limbered: true },
            Cover::Hard,
            &o
        ),
        Some(2)
    );
    let mut formed = Options::default();
    formed.limbered_crew_formed_save = true;
    assert_eq!(
        save_for(
            FireSource::SmallArms,
            TargetStance::Crew { limbered: true },
            Cover::Open,
            &formed
        ),
        Some(5)
    );
}

#[test]
fn the_battle_gives_the_odds_of_the_volley_it_would_roll() {
    // D8-FIR-14: the Experienced line of 12 at 10 cm at formed troops in the open: 12 dice at 5/12 each, mean 5;
    // with 6 of them at 20 cm (long, 1/3 each) the mean is 6 × 5/12 + 6 × 1/3 = 4.5.
    let mut b = battle();
    to_phase(&mut b, Phase::Firing);
    let v = b
        .planned_volley(uid(U + 1), Target::Unit(uid(C + 1)), &facts(12, 10.0))
        .unwrap();
    assert_eq!(
        v,
        Volley::new(
            Class::Experienced,
            false,
            TargetKind::Formed,
            12,
            0,
            Some(5)
        )
    );
    assert!((v.odds().mean() - 5.0).abs() < 1e-12);
    let mut f = facts(12, 10.0);
    f.distances_cm[6..12].fill(20.0);
    let v = b
        .planned_volley(uid(U + 1), Target::Unit(uid(C + 1)), &f)
        .unwrap();
    assert!((v.odds().mean() - 4.5).abs() < 1e-12);
    // The same checks as firing: a Confederate unit may not fire in the Union turn.
    assert!(
        b.planned_volley(uid(C + 1), Target::Unit(uid(U + 1)), &f)
            .is_err()
    );
}

#[test]
fn exact_volley_odds() {
    // D8-FIR-14: 2 dice of an Experienced line at a formed target in the open, short: each kills with 5/12.
    let v = Volley::new(Class::Experienced, false, TargetKind::Formed, 2, 0, Some(5));
    let d = v.odds();
    assert!((d.p(&2) - 25.0 / 144.0).abs() < 1e-12);
    assert!((d.p(&0) - 49.0 / 144.0).abs() < 1e-12);
}

#[test]
fn who_may_fire() {
    let mut b = battle();
    to_phase(&mut b, Phase::Firing);
    let before = b.clone();
    let nothing = &mut ScriptedDice::faces([]);
    // D8-FIR-01: only the active side, with sight.
    assert!(matches!(
        b.fire(
            uid(C + 1),
            Target::Unit(uid(U + 1)),
            &facts(12, 10.0),
            nothing
        ),
        Err(Refusal::WrongTime { .. })
    ));
    let mut blind = facts(12, 10.0);
    blind.sight_blocked = true;
    assert!(
        b.fire(uid(U + 1), Target::Unit(uid(C + 1)), &blind, nothing)
            .is_err()
    );
    // D8-ENV-01: a target inside a wood, back from its edge, cannot be seen.
    let mut deep = facts(12, 10.0);
    deep.target_deep_in_wood = true;
    assert!(
        b.fire(uid(U + 1), Target::Unit(uid(C + 1)), &deep, nothing)
            .is_err()
    );
    // D8-FIR-02: mounted cavalry must dismount to fire.
    assert!(
        b.fire(
            uid(U + 9),
            Target::Unit(uid(C + 1)),
            &facts(8, 10.0),
            nothing
        )
        .is_err()
    );
    // D8-MOV-11, D8-ART-04: a limbered gun cannot fire.
    assert!(
        b.fire(
            uid(U + 11),
            Target::Unit(uid(C + 1)),
            &facts(1, 10.0),
            nothing
        )
        .is_err()
    );
    assert_eq!(b, before);
    // D8-FIR-01: a unit that moved may not fire.
    let mut b = battle();
    start(&mut b);
    b.change_formation(uid(U + 1), Formation::Column).unwrap();
    b.end_movement().unwrap();
    let r = b.fire(
        uid(U + 1),
        Target::Unit(uid(C + 1)),
        &facts(2, 10.0),
        nothing,
    );
    assert!(matches!(r, Err(Refusal::CannotFire { ref why, .. }) if why.contains("moved")));
}

/// Unlimbers both Union batteries, dismounts the cavalry, and brings the Union round to its next Firing phase.
fn unlimbered() -> acw_d8::Battle {
    let mut b = battle();
    start(&mut b);
    b.set_limbered(uid(U + 11), false).unwrap();
    b.set_limbered(uid(U + 12), false).unwrap();
    b.set_mounted(uid(U + 9), false).unwrap();
    b.end_movement().unwrap();
    b.end_firing(&mut ScriptedDice::faces([])).unwrap();
    b.end_melee().unwrap();
    b.end_turn().unwrap();
    // The Confederates pass; their turn ends.
    to_phase(&mut b, Phase::Morale);
    b.end_turn().unwrap();
    // Union: the batteries' formation fails are tested (Exp 4+, Vet 3+) and passed; the cavalry passes too.
    let inf = all_in(&b);
    let tests = b
        .start_turn(&inf, &mut ScriptedDice::faces([8, 8, 8]))
        .unwrap();
    assert_eq!(tests.len(), 3);
    b.end_movement().unwrap();
    b
}

#[test]
fn artillery_fire() {
    // D8-ART-01: the Union field battery, 7 Experienced artillerymen, rolls 14 D8s.
    let mut b = unlimbered();
    let mut f = facts(1, 100.0);
    f.bearing_degrees = 10.0;
    // At 100 cm (long range, 5+): two of the 14 hit; field guns save as small arms: formed, open, 5+.
    let mut faces = vec![5, 5];
    faces.extend([4; 12]);
    faces.extend([1, 6]);
    let mut d2 = ScriptedDice::faces(faces);
    let r = b
        .fire(uid(U + 11), Target::Unit(uid(C + 8)), &f, &mut d2)
        .unwrap();
    assert_eq!((r.dice, r.hits, r.casualties), (14, 2, 1));
    // D8-ART-02: outside 45° of the barrel it must realign first.
    f.bearing_degrees = 50.0;
    let before = b.clone();
    assert!(
        b.fire(
            uid(U + 12),
            Target::Unit(uid(C + 8)),
            &f,
            &mut ScriptedDice::faces([])
        )
        .is_err()
    );
    assert_eq!(b, before);
    assert!(in_arc(Formation::Skirmish, true, 45.0) && !in_arc(Formation::Skirmish, true, 46.0));
    // D8-FIR-03: line and column ±22.5°, skirmishers all round.
    assert!(in_arc(Formation::Line, false, 22.5) && !in_arc(Formation::Line, false, 23.0));
    assert!(in_arc(Formation::Skirmish, false, 170.0));
    // D8-ART-05, D8-ART-06: the Veteran heavy battery (8 men, 24 D8s needing 3+ at 40 cm, short) at a formed
    // target in the open: only a 6 saves.
    f.bearing_degrees = 0.0;
    f.distances_cm[0] = 40.0;
    let mut faces = vec![3, 3];
    faces.extend([2; 22]);
    faces.extend([5, 6]);
    let r = b
        .fire(
            uid(U + 12),
            Target::Unit(uid(C + 8)),
            &f,
            &mut ScriptedDice::faces(faces),
        )
        .unwrap();
    assert_eq!((r.dice, r.hits, r.casualties), (24, 2, 1));
}

#[test]
fn only_crew_at_the_gun_under_the_option() {
    // D8-ART-01 option: only the artillerymen in base contact with the gun fire: 3 of the 7 roll 6 D8s.
    let mut o = Options::default();
    o.only_crew_at_gun = true;
    let mut b = battle_with(o);
    start(&mut b);
    b.set_limbered(uid(U + 11), false).unwrap();
    to_phase(&mut b, Phase::Morale);
    b.end_turn().unwrap();
    to_phase(&mut b, Phase::Morale);
    b.end_turn().unwrap();
    b.start_turn(&all_in(&b), &mut ScriptedDice::faces([8]))
        .unwrap();
    b.end_movement().unwrap();
    let mut f = facts(1, 100.0);
    assert!(
        b.fire(
            uid(U + 11),
            Target::Unit(uid(C + 8)),
            &f,
            &mut ScriptedDice::faces([])
        )
        .is_err(),
        "nobody at the gun"
    );
    f.crew_at_gun = 3;
    let r = b
        .fire(
            uid(U + 11),
            Target::Unit(uid(C + 8)),
            &f,
            &mut ScriptedDice::faces([1; 6]),
        )
        .unwrap();
    assert_eq!((r.dice, r.hits), (6, 0));
}

#[test]
fn firing_at_a_battery_crew() {
    // D8-ART-07: an unlimbered crew is a skirmisher target behind soft cover: −1 to hit, saves on 3+.
    let mut b = battle();
    // The Confederates go first here: unlimber their field battery, then the Union fires at it.
    start(&mut b);
    b.end_movement().unwrap();
    b.end_firing(&mut ScriptedDice::faces([])).unwrap();
    b.end_melee().unwrap();
    b.end_turn().unwrap();
    start(&mut b);
    b.set_limbered(uid(C + 11), false).unwrap();
    to_phase(&mut b, Phase::Morale);
    b.end_turn().unwrap();
    to_phase(&mut b, Phase::Firing);
    // Veteran Zouaves (13) at 10 cm: need 3 + 1 = 4; faces 4 hit, 3 miss. Saves 3+: a 2 dies.
    let mut faces = vec![4, 4];
    faces.extend([3; 11]);
    faces.extend([3, 2]);
    let r = b
        .fire(
            uid(U),
            Target::Unit(uid(C + 11)),
            &facts(13, 10.0),
            &mut ScriptedDice::faces(faces),
        )
        .unwrap();
    assert_eq!((r.hits, r.casualties), (2, 1));
    assert_eq!(b.unit(uid(C + 11)).unwrap().figures, 5);
}

#[test]
fn crews_replace_crews() {
    // D8-CAS-04, D8-ART-03: an artilleryman replaces an artilleryman from another battery.
    let mut b = battle();
    start(&mut b);
    assert!(
        b.replace_artilleryman(uid(U + 12), uid(U + 11)).is_err(),
        "the field battery has lost nobody"
    );
    assert!(
        b.replace_artilleryman(uid(U + 1), uid(U + 11)).is_err(),
        "only artillerymen"
    );
    // After the heavy battery loses a man, the field battery sends one.
    let mut b = unlimbered();
    b.end_firing(&mut ScriptedDice::faces([])).unwrap();
    b.end_melee().unwrap();
    b.end_turn().unwrap();
    to_phase(&mut b, Phase::Firing);
    // The Confederate Zouaves fire at the Union heavy battery's crew: one hit, the save fails.
    let mut faces = vec![8];
    faces.extend([1; 12]);
    faces.push(1);
    b.fire(
        uid(C),
        Target::Unit(uid(U + 12)),
        &facts(13, 10.0),
        &mut ScriptedDice::faces(faces),
    )
    .unwrap();
    assert_eq!(b.unit(uid(U + 12)).unwrap().figures, 7);
    b.end_firing(&mut ScriptedDice::faces([])).unwrap();
    b.end_melee().unwrap();
    // The morale test for the battery: 7 of 8 Veteran, no modifiers: 7 > 3, it stands.
    b.morale(uid(U + 12), &acw_d8::morale::MoraleFacts::default())
        .unwrap();
    b.end_turn().unwrap();
    start(&mut b);
    b.replace_artilleryman(uid(U + 11), uid(U + 12)).unwrap();
    assert_eq!(b.unit(uid(U + 12)).unwrap().figures, 8);
    assert_eq!(b.unit(uid(U + 11)).unwrap().figures, 6);
}

#[test]
fn the_attached_officer_risks_his_life() {
    // D8-CAS-03, D8-CMD-08: a Brigadier attached to the 2nd Volunteers; the regiment loses 3 to fire in the
    // Confederate turn; the D6s show 2 and 1: he is killed, 10 VP to the Confederates.
    let mut b = battle();
    start(&mut b);
    b.attach(oid(1), uid(U + 1)).unwrap();
    // D8-CMD-08: he may not leave before a later Movement phase.
    assert!(b.move_officer(oid(1), 10.0).is_err());
    to_phase(&mut b, Phase::Morale);
    b.end_turn().unwrap();
    to_phase(&mut b, Phase::Firing);
    // D8-CMD-09: an attached officer may not be fired at.
    let err = b.fire(
        uid(C + 1),
        Target::Officer(oid(1)),
        &facts(12, 10.0),
        &mut ScriptedDice::faces([]),
    );
    assert!(matches!(err, Err(Refusal::CannotFire { .. })));
    let mut faces = vec![8, 8, 8];
    faces.extend([1; 9]);
    faces.extend([1, 1, 1]);
    b.fire(
        uid(C + 1),
        Target::Unit(uid(U + 1)),
        &facts(12, 10.0),
        &mut ScriptedDice::faces(faces),
    )
    .unwrap();
    let killed = b.end_firing(&mut ScriptedDice::faces([2, 1])).unwrap();
    assert_eq!(killed, vec![oid(1)]);
    assert!(!b.officer(oid(1)).unwrap().alive);
    assert_eq!(b.points().confederate.officers, 10);
}

#[test]
fn a_lone_officer_can_be_shot() {
    // D8-CMD-09, D8-VIC-05: an officer not attached and not screened is a target of one figure.
    let mut b = battle();
    to_phase(&mut b, Phase::Firing);
    let mut f = facts(2, 10.0);
    f.officer_screened = true;
    assert!(
        b.fire(
            uid(U + 1),
            Target::Officer(oid(5)),
            &f,
            &mut ScriptedDice::faces([])
        )
        .is_err()
    );
    f.officer_screened = false;
    // Two D8s, one hit; the save (formed, open, 5+) fails on a 3.
    let r = b
        .fire(
            uid(U + 1),
            Target::Officer(oid(5)),
            &f,
            &mut ScriptedDice::faces([4, 1, 3]),
        )
        .unwrap();
    assert_eq!(r.casualties, 1);
    assert!(!b.officer(oid(5)).unwrap().alive);
    assert_eq!(b.points().union.officers, 10);
}

#[test]
fn smoke_without_wind() {
    // D8-SEQ-02, D8-ENV-02 to D8-ENV-05: open the game: roll-off 6–1, spring? no: a 4 is summer; 4D6 = 13, so
    // 28 turns a player; wind 1: calm; cavalry tied, more Union artillerymen (15 to 13): the Union moves first.
    let mut b = battle();
    let o = b
        .open(&mut ScriptedDice::faces([6, 1, 4, 3, 3, 3, 4, 1]))
        .unwrap();
    assert_eq!(o.first, Side::Union);
    assert!(!o.wind && !b.wind());
    assert_eq!(b.turn_limit(), 28);
    assert!(o.to_string().contains("no wind"));
    // D8-ENV-06: with no wind a unit fires 2 moves running from one spot, not a 3rd.
    for round in 0..3 {
        to_phase(&mut b, Phase::Firing);
        let r = b.fire(
            uid(U + 1),
            Target::Unit(uid(C + 8)),
            &facts(12, 25.0),
            &mut ScriptedDice::faces([1; 12]),
        );
        if round < 2 {
            assert!(r.is_ok(), "round {round}");
        } else {
            assert!(matches!(r, Err(Refusal::CannotFire { ref why, .. }) if why.contains("smoke")));
        }
        b.end_firing(&mut ScriptedDice::faces([])).unwrap();
        b.end_melee().unwrap();
        b.end_turn().unwrap();
        to_phase(&mut b, Phase::Morale);
        b.end_turn().unwrap();
    }
}

#[test]
fn firing_from_boats() {
    // D8-MOV-25: nobody fires from a canoe; up to 4 from a large boat.
    let mut b = battle();
    start(&mut b);
    b.boat(uid(U + 10), Some(Boat::Canoe), &mut ScriptedDice::faces([]))
        .unwrap();
    b.end_movement().unwrap();
    let r = b.fire(
        uid(U + 10),
        Target::Unit(uid(C + 1)),
        &facts(4, 10.0),
        &mut ScriptedDice::faces([]),
    );
    assert!(matches!(r, Err(Refusal::CannotFire { .. })));
}

#[test]
fn dice_that_run_out_change_nothing() {
    let mut b = battle();
    to_phase(&mut b, Phase::Firing);
    let before = b.clone();
    let r = b.fire(
        uid(U + 1),
        Target::Unit(uid(C + 1)),
        &facts(12, 10.0),
        &mut ScriptedDice::faces([8, 8]),
    );
    assert!(matches!(r, Err(Refusal::Input(D8Error::Dice(_)))));
    assert_eq!(b, before);
    // Bad measurements are typed errors.
    let r = b.fire(
        uid(U + 1),
        Target::Unit(uid(C + 1)),
        &facts(12, f64::NAN),
        &mut ScriptedDice::faces([]),
    );
    assert!(matches!(r, Err(Refusal::Input(D8Error::BadLength { .. }))));
    assert_eq!(b, before);
}

/// D8-FIR-14: the chance of one count of casualties that a volley's narration quotes (`Volley::p_casualties`)
/// is the whole distribution's (`Resolve::odds`) chance of it, bit for bit, for every count from none to past
/// the most, over groups of dice at every need, with and without a save, one group empty or both.
#[test]
fn a_volleys_chance_of_its_casualties_is_the_distributions_bit_for_bit() {
    use acw_d8::fire::ToHit;
    let mut compared = 0;
    for (short, long) in [
        (0, 0),
        (1, 0),
        (0, 3),
        (2, 2),
        (6, 1),
        (12, 12),
        (24, 0),
        (40, 17),
    ] {
        for (need_s, need_l) in [(2, 2), (4, 6), (5, 8), (8, 7)] {
            for save in [None, Some(2), Some(4), Some(6)] {
                let v = Volley {
                    short: ToHit {
                        dice: short,
                        need: need_s,
                    },
                    long: ToHit {
                        dice: long,
                        need: need_l,
                    },
                    save,
                };
                let whole = v.odds();
                for c in 0..=short + long + 2 {
                    assert_eq!(
                        v.p_casualties(c).to_bits(),
                        whole.p(&c).to_bits(),
                        "{v:?} {c}"
                    );
                    compared += 1;
                }
            }
        }
    }
    // (short + long + 3) counts for each of the 16 needs and saves: 144 counts over the eight pairs.
    assert_eq!(compared, 16 * 144);
}
