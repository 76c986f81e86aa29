//! The turn, night and day, wind and smoke, structures, victory points and the optional rules.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::dice::ScriptedDice;
use acw_core::{BySide, Resolve, Side};
use acw_d8::environment::{
    NightDay, Season, Smoke, Wind, sight, start_hour_accepted, turns_per_player,
};
use acw_d8::flank::{
    Flank, FlankArrival, FlankMarch, arrivals, cancelled, extra_officer_counts, flank_square,
};
use acw_d8::map::Square;
use acw_d8::sequence::{FirstMove, Phase};
use acw_d8::state::{BombardFacts, FireFacts, Target};
use acw_d8::structures::works_built_cm;
use acw_d8::tables::{Class, Formation, StructureKind, Troop, Weapon};
use acw_d8::victory::{EndPosition, Verdict, verdict};
use acw_d8::{Battle, Options, Refusal};
use common::*;

fn pass(b: &mut Battle) {
    to_phase(b, Phase::Morale);
    b.end_turn().unwrap();
}

#[test]
fn the_turn() {
    // D8-SEQ-01: start, movement, firing, melee, morale, in that order; each action in its phase only.
    let mut b = battle();
    assert_eq!(b.phase(), Phase::Start);
    assert!(b.end_movement().is_err());
    start(&mut b);
    assert_eq!(b.phase(), Phase::Movement);
    let r = b.fire(
        uid(U + 1),
        Target::Unit(uid(C + 1)),
        &FireFacts::all_at(12, 10.0),
        &mut ScriptedDice::faces([]),
    );
    assert!(matches!(r, Err(Refusal::WrongTime { .. })));
    b.end_movement().unwrap();
    assert_eq!(b.phase(), Phase::Firing);
    b.end_firing(&mut ScriptedDice::faces([])).unwrap();
    assert_eq!(b.phase(), Phase::Melee);
    b.end_melee().unwrap();
    assert_eq!(b.phase(), Phase::Morale);
    b.end_turn().unwrap();
    assert_eq!((b.phase(), b.active()), (Phase::Start, Side::Confederate));
    assert_eq!(Phase::Morale.next(), Phase::Start);
    // D8-SEQ-03: each side counts its own moves.
    start(&mut b);
    assert_eq!(b.turns(), BySide::new(1, 1));
}

#[test]
fn who_moves_first() {
    // D8-SEQ-02: more cavalry figures; then artillery (artillerymen, or batteries under the option); then a D10.
    let b = battle();
    let m = b.first_move();
    assert_eq!(m.cavalry, BySide::new(8, 8));
    assert_eq!(m.artillery, BySide::new(15, 13));
    assert_eq!(m.roll(&mut ScriptedDice::faces([])), Side::Union);
    let mut o = Options::default();
    o.initiative_by_batteries = true;
    let b = battle_with(o);
    assert_eq!(b.first_move().artillery, BySide::new(2, 2));
    assert_eq!(
        b.first_move().roll(&mut ScriptedDice::faces([3, 3, 2, 9])),
        Side::Confederate
    );
    let tied = FirstMove {
        cavalry: BySide::new(4, 4),
        artillery: BySide::new(7, 7),
    };
    assert!((tied.odds().p(&Side::Union) - 0.5).abs() < 1e-12);
}

#[test]
fn night_and_day() {
    // D8-ENV-02: 1–2 spring or autumn, 3–6 summer. D8-ENV-03: 4D6, re-rolled at 6 or less and 17 or more.
    assert_eq!(Season::from_d6(2), Season::SpringOrAutumn);
    assert_eq!(Season::from_d6(3), Season::Summer);
    assert!(
        !start_hour_accepted(6)
            && start_hour_accepted(7)
            && start_hour_accepted(16)
            && !start_hour_accepted(17)
    );
    let day = NightDay.roll(&mut ScriptedDice::faces([
        4, 1, 1, 1, 1, 6, 6, 6, 6, 3, 3, 3, 4,
    ]));
    assert_eq!((day.season, day.start_hour), (Season::Summer, 13));
    // D8-ENV-04: a summer start at 13:00 gives 7 hours, 28 turns a player; spring 6 hours, 24.
    assert_eq!(day.turns_per_player(), 28);
    assert_eq!(turns_per_player(Season::SpringOrAutumn, 13), 24);
    assert_eq!(turns_per_player(Season::Summer, 7), 52);
    assert_eq!(turns_per_player(Season::SpringOrAutumn, 16), 12);
    assert!(day.to_string().contains("28 turns"));
    // D8-ENV-05: a 1 is no wind.
    assert!(!Wind.roll(&mut ScriptedDice::faces([1])));
    assert!(Wind.roll(&mut ScriptedDice::faces([2])));
    // Without night and day the options' turn limit stands and only the wind and first move are rolled.
    let mut o = Options::default();
    o.night_and_day = false;
    o.turn_limit = 1;
    let mut b = battle_with(o);
    let opening = b.open(&mut ScriptedDice::faces([5])).unwrap();
    assert_eq!((opening.day, opening.wind, b.turn_limit()), (None, true, 1));
    assert!(b.open(&mut ScriptedDice::faces([5])).is_err(), "only once");
    // D8-SEQ-06: after both players' last turns the game is over.
    pass(&mut b);
    assert_eq!(b.phase(), Phase::Start);
    pass(&mut b);
    assert_eq!(b.phase(), Phase::Over);
}

#[test]
fn smoke_and_sight() {
    // D8-ENV-06: fire 2 moves running from one spot, not a 3rd; the smoke takes 2 moves to clear; only without
    // wind unless the option.
    let o = Options::default();
    let mut s = Smoke::default();
    s.fired();
    s.new_move(true);
    s.fired();
    assert!(s.blocks(false, &o) && !s.blocks(true, &o));
    let mut always = Options::default();
    always.smoke_whatever_wind = true;
    assert!(s.blocks(true, &always));
    s.new_move(true);
    assert_eq!(s.clearing, 2);
    s.new_move(false);
    assert!(s.blocks(false, &o));
    s.new_move(false);
    assert!(!s.blocks(false, &o));
    // Moving resets the count.
    let mut m = Smoke::default();
    m.fired();
    m.fired();
    m.moved();
    assert!(!m.blocks(false, &o));
    // D8-ENV-01: sight is mutual; blockers or being deep in a wood stop it.
    assert!(sight(false, false, false));
    assert!(!sight(true, false, false));
    assert!(!sight(false, false, true) && !sight(false, true, false));
}

/// The Union batteries unlimbered and ready to fire in the Union's second Firing phase.
fn guns_ready() -> Battle {
    let mut b = battle();
    start(&mut b);
    b.set_limbered(uid(U + 11), false).unwrap();
    b.set_limbered(uid(U + 12), false).unwrap();
    pass(&mut b);
    pass(&mut b);
    b.start_turn(&all_in(&b), &mut ScriptedDice::faces([8, 8]))
        .unwrap();
    b.end_movement().unwrap();
    b
}

#[test]
fn structures() {
    // D8-STR-06: hit values.
    let hv: Vec<u32> = [
        StructureKind::StoneBuilding,
        StructureKind::StoneBridge,
        StructureKind::WoodenBuilding,
        StructureKind::WoodenBridge,
        StructureKind::Works,
        StructureKind::StoneWall,
        StructureKind::Fence,
    ]
    .iter()
    .map(|k| k.hit_value())
    .collect();
    assert_eq!(hv, [60, 60, 30, 30, 40, 30, 15]);
    // D8-STR-04, D8-ART-09: only guns damage structures.
    let mut b = guns_ready();
    let house = b.add_structure(StructureKind::WoodenBuilding);
    let near = BombardFacts {
        distance_cm: 20.0,
        ..BombardFacts::default()
    };
    let r = b.bombard(uid(U + 1), house, &near, &mut ScriptedDice::faces([]));
    assert!(matches!(r, Err(Refusal::CannotFire { .. })));
    // D8-STR-05: in sight, arc and range as for fire.
    let before = b.clone();
    let hidden = BombardFacts {
        sight_blocked: true,
        ..near.clone()
    };
    assert!(
        b.bombard(uid(U + 11), house, &hidden, &mut ScriptedDice::faces([]))
            .is_err()
    );
    let wide = BombardFacts {
        bearing_degrees: 50.0,
        ..near.clone()
    };
    assert!(
        b.bombard(uid(U + 11), house, &wide, &mut ScriptedDice::faces([]))
            .is_err()
    );
    let far = BombardFacts {
        distance_cm: 121.0,
        ..near.clone()
    };
    assert!(
        b.bombard(uid(U + 11), house, &far, &mut ScriptedDice::faces([]))
            .is_err()
    );
    assert_eq!(b, before);
    // The field battery (7 Experienced, 14 D6 at 4+) at 20 cm, short range: 10 hits, 2 points each = 20.
    let mut faces = vec![4; 10];
    faces.extend([3; 4]);
    assert_eq!(
        b.bombard(uid(U + 11), house, &near, &mut ScriptedDice::faces(faces))
            .unwrap(),
        20
    );
    assert!(!b.structure(house).unwrap().destroyed());
    // D8-STR-07, D8-CAS-07: the heavy battery (8 Veterans, 24 D6 at 3+) at 100 cm, long range: 10 hits, 10 points:
    // 30 reached, the house falls and the 5 Confederates inside die, scored for the Union.
    let mut faces = vec![3; 10];
    faces.extend([2; 14]);
    let before = b.points().union.kills;
    let long = BombardFacts {
        distance_cm: 100.0,
        occupants: vec![(uid(C + 1), 5)],
        ..BombardFacts::default()
    };
    assert_eq!(
        b.bombard(uid(U + 12), house, &long, &mut ScriptedDice::faces(faces))
            .unwrap(),
        10
    );
    assert!(b.structure(house).unwrap().destroyed());
    assert_eq!(b.unit(uid(C + 1)).unwrap().figures, 7);
    assert_eq!(b.points().union.kills, before + 5 * 2);
    // D8-STR-03: works at a base width (1.25 cm) a figure for every 4 moves.
    assert_eq!(works_built_cm(12, 3), 0.0);
    assert_eq!(works_built_cm(12, 4), 15.0);
    let mut b = battle();
    for n in 1..=4 {
        start(&mut b);
        let built = b.dig(uid(U + 1)).unwrap();
        assert_eq!(built, if n == 4 { 15.0 } else { 0.0 });
        pass(&mut b);
        pass(&mut b);
    }
    // A turn without digging breaks the run: 3 more, a pause, then 3: nothing more built.
    for n in 1..=7 {
        start(&mut b);
        if n != 4 {
            assert_eq!(b.dig(uid(U + 1)).unwrap(), 15.0);
        }
        pass(&mut b);
        pass(&mut b);
    }
    start(&mut b);
    assert_eq!(b.dig(uid(U + 1)).unwrap(), 30.0, "the 4th of the new run");
}

#[test]
fn victory_points() {
    let o = Options::default();
    let sq = |n| Square::new(n).unwrap();
    let mut pos = EndPosition::default();
    // The Union holds half a unit in square 15 (a farm) and 16 (the bridge); the Confederates in square 27.
    pos.squares[14].half_unit.union = true;
    pos.squares[15].half_unit.union = true;
    pos.squares[26].half_unit.confederate = true;
    // D8-VIC-07: occupied squares 15, 16; zones left/right/rear (towards the north for the Union): 14, 17, and
    // 8, 9, 10, 11 from row 1. The Confederates: 27, zones 26, 28 (no rear row beyond the south edge).
    let union: Vec<u8> = pos
        .scored_squares(Side::Union, &o)
        .iter()
        .map(|s| s.number())
        .collect();
    assert_eq!(union, [8, 9, 10, 11, 14, 15, 16, 17]);
    let conf: Vec<u8> = pos
        .scored_squares(Side::Confederate, &o)
        .iter()
        .map(|s| s.number())
        .collect();
    assert_eq!(conf, [26, 27, 28]);
    // An enemy figure in a square stops it counting.
    pos.squares[8].any_figure.confederate = true;
    assert!(!pos.scored_squares(Side::Union, &o).contains(&sq(9)));
    // Any enemy figure spoils occupation by default; under the option only half an enemy unit does.
    pos.squares[15].any_figure.confederate = true;
    assert!(!pos.occupies(Side::Union, sq(16), &o));
    let mut half = Options::default();
    half.occupation_by_half_unit = true;
    assert!(pos.occupies(Side::Union, sq(16), &half));
    pos.squares[15].any_figure.confederate = false;
    pos.squares[8].any_figure.confederate = false;
    // A contested empty zone square counts for both by default, for neither under the option: the Confederates
    // occupy 4, whose zone (south is their rear) reaches 9, 10, 11.
    pos.squares[3].half_unit.confederate = true;
    assert!(pos.scored_squares(Side::Union, &o).contains(&sq(10)));
    assert!(pos.scored_squares(Side::Confederate, &o).contains(&sq(10)));
    let mut neither = Options::default();
    neither.contested_zone_neither = true;
    assert!(!pos.scored_squares(Side::Union, &neither).contains(&sq(10)));
    // Under the outward reading the Union zone runs on west along row 2 to square 13.
    let mut outward = Options::default();
    outward.zones_run_outward = true;
    assert!(pos.scored_squares(Side::Union, &outward).contains(&sq(13)));
    pos.squares[3].half_unit.confederate = false;
    // D8-VIC-02, D8-VIC-03, D8-VIC-08: the farm in 15 (20) and the bridge in 16 (10) at the end; D8-VIC-06:
    // baggage captured during play (20); D8-VIC-01: more points wins.
    let mut b = battle();
    assert_eq!(b.capture_baggage(Side::Union).unwrap(), 20);
    assert!(b.capture_baggage(Side::Union).is_err(), "one wagon");
    let (p, v) = b.final_points(&pos, &[sq(15), sq(27)], Some(sq(16)));
    assert_eq!(
        (p.union.farms, p.union.bridge, p.union.baggage),
        (20, 10, 20)
    );
    assert_eq!(p.union.squares, 8 * 5);
    assert_eq!(p.confederate.farms, 20);
    assert_eq!(v, Verdict::Won(Side::Union));
    assert_eq!(verdict(BySide::new(5, 5)), Verdict::Draw);
    assert_eq!(v.to_string(), "the Union side wins on victory points");
    // Under the strict option, figures must be in the buildings.
    let mut strict = Options::default();
    strict.strict_farm_bridge_control = true;
    assert!(!pos.controls(Side::Union, sq(15), &strict));
    pos.squares[14].in_structure.union = true;
    assert!(pos.controls(Side::Union, sq(15), &strict));
}

#[test]
fn flank_marches() {
    let mut on = Options::default();
    on.flank_marches = true;
    // D8-OPT-01: only when in play; 1 or 2 units.
    assert!(FlankMarch::new(Side::Union, Flank::West, 1, &Options::default()).is_err());
    assert!(FlankMarch::new(Side::Union, Flank::West, 3, &on).is_err());
    let a = FlankMarch::new(Side::Union, Flank::West, 2, &on).unwrap();
    let b = FlankMarch::new(Side::Confederate, Flank::West, 1, &on).unwrap();
    let c = FlankMarch::new(Side::Confederate, Flank::East, 1, &on).unwrap();
    // D8-OPT-04: the same edge cancels both.
    assert!(cancelled(&a, &b) && !cancelled(&a, &c));
    let mut battle = battle();
    assert!(
        battle
            .cancel_flank_forces(&a, &c, &[uid(U + 9), uid(C + 9)])
            .is_err(),
        "different edges"
    );
    assert!(
        battle
            .cancel_flank_forces(&a, &b, &[uid(U + 9), uid(C + 9), uid(C + 10)])
            .is_err(),
        "1 declared"
    );
    battle
        .cancel_flank_forces(&a, &b, &[uid(U + 9), uid(C + 9)])
        .unwrap();
    assert!(battle.unit(uid(U + 9)).unwrap().removed);
    assert_eq!(battle.points().union.kills, 0);
    // D8-OPT-02: numbered from each side's own base line (south to north for both under the option).
    let n = |side, flank, k, o: &Options| flank_square(side, flank, k, o).unwrap().number();
    let o = Options::default();
    assert_eq!(
        (1..=5)
            .map(|k| n(Side::Union, Flank::West, k, &o))
            .collect::<Vec<_>>(),
        [1, 7, 13, 19, 25]
    );
    assert_eq!(
        (1..=5)
            .map(|k| n(Side::Confederate, Flank::East, k, &o))
            .collect::<Vec<_>>(),
        [30, 24, 18, 12, 6]
    );
    let mut sn = Options::default();
    sn.flank_numbering_south_to_north = true;
    assert_eq!(n(Side::Union, Flank::West, 1, &sn), 25);
    assert!(flank_square(Side::Union, Flank::West, 6, &o).is_err());
    // D8-OPT-03: a D20: 7 arrives on move 7 in flank square 2.
    let r = FlankArrival.roll(&mut ScriptedDice::faces([7]));
    assert_eq!((r.on_move, r.square), (7, 2));
    // A roll per unit by default, one for the group under the option.
    // The Union marching by the west edge: move 3 by flank square 1 (grid square 1), move 18 by flank square 5
    // (grid square 25).
    let per_unit = arrivals(&a, &mut ScriptedDice::faces([3, 18]), &on).unwrap();
    let got: Vec<_> = per_unit
        .iter()
        .map(|(r, s)| (r.on_move, r.square, s.number()))
        .collect();
    assert_eq!(got, [(3, 1, 1), (18, 5, 25)]);
    let mut group = on.clone();
    group.flank_roll_per_group = true;
    let together = arrivals(&a, &mut ScriptedDice::faces([13]), &group).unwrap();
    let got: Vec<_> = together
        .iter()
        .map(|(r, s)| (r.on_move, r.square, s.number()))
        .collect();
    assert_eq!(got, [(13, 4, 19), (13, 4, 19)]);
    assert!(
        arrivals(&a, &mut ScriptedDice::faces([3]), &on).is_err(),
        "the dice ran out"
    );
    // D8-OPT-06: extra officers count only if agreed.
    assert!(!extra_officer_counts(&o));
    let mut extra = Options::default();
    extra.extra_officers_count = true;
    assert!(extra_officer_counts(&extra));
}

#[test]
fn indians() {
    // D8-OPT-07: Raw, mounted, skirmish only, bows (20 cm, long range), fire mounted.
    let mut b = battle();
    assert!(b.add_indians(Side::Union, "Scouts", 6).is_err());
    let mut o = Options::default();
    o.indians = true;
    let mut b = battle_with(o);
    assert!(b.add_indians(Side::Union, "Scouts", 3).is_err());
    let id = b.add_indians(Side::Union, "Scouts", 6).unwrap();
    let u = b.unit(id).unwrap();
    assert_eq!(
        (u.class, u.troop, u.weapon, u.formation, u.mounted),
        (
            Class::Raw,
            Troop::Indians,
            Weapon::Bow,
            Formation::Skirmish,
            true
        )
    );
    start(&mut b);
    assert!(b.change_formation(id, Formation::Line).is_err());
    b.end_movement().unwrap();
    // 6 skirmishers: 3 D8s, Raw 5+ less 1 for long range: 6 needed; one 6 hits; formed in the open, a 2 dies.
    let r = b
        .fire(
            id,
            Target::Unit(uid(C + 1)),
            &FireFacts::all_at(6, 15.0),
            &mut ScriptedDice::faces([5, 6, 1, 2]),
        )
        .unwrap();
    assert_eq!((r.dice, r.hits, r.casualties), (3, 1, 1));
}

#[test]
fn extra_officers_are_decorative() {
    // D8-OPT-06, D8-VIC-05: a fourth Brigadier for three brigades is decorative: no VP for shooting him, unless the
    // players agree.
    let with_extra = |o: Options| {
        let mut c = army(Side::Confederate).data().clone();
        c.officers.push(acw_d8::tables::Rank::Brigadier);
        let c = acw_d8::army::Army::new(c).unwrap();
        let mut b = Battle::new(&army(Side::Union), &c, o).unwrap();
        let extra = b.officers().iter().find(|o| o.decorative).unwrap().id;
        to_phase(&mut b, Phase::Firing);
        b.fire(
            uid(U + 1),
            Target::Officer(extra),
            &FireFacts::all_at(1, 10.0),
            &mut ScriptedDice::faces([8, 1]),
        )
        .unwrap();
        assert!(!b.officer(extra).unwrap().alive);
        b.points().union.officers
    };
    assert_eq!(with_extra(Options::default()), 0);
    let mut o = Options::default();
    o.extra_officers_count = true;
    assert_eq!(with_extra(o), 10);
}

#[test]
fn a_battle_saves_and_loads() {
    let mut b = battle();
    start(&mut b);
    b.change_formation(uid(U), Formation::Skirmish).unwrap();
    b.attach(oid(1), uid(U + 1)).unwrap();
    let json = serde_json::to_string(&b).unwrap();
    let back: Battle = serde_json::from_str(&json).unwrap();
    assert_eq!(back, b);
    // A state the rules cannot reach is refused on loading: more figures than the unit started with, a Raw
    // regiment skirmishing, an officer attached to an enemy unit.
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["units"][1]["figures"] = serde_json::json!(13);
    assert!(serde_json::from_value::<Battle>(v).is_err());
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["units"][2]["formation"] = serde_json::json!("Skirmish");
    assert!(serde_json::from_value::<Battle>(v).is_err());
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["officers"][1]["attached"] = serde_json::json!([14, 1]);
    assert!(serde_json::from_value::<Battle>(v).is_err());
}
