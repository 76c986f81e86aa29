//! An attacker that stops short of contact in a close assault owes its side's choice (HT-SG2-37, HT-MEL-07):
//! still short after its second combat move, it stays mid-dash or aborts; faltering under final defensive
//! fire (or aborting), it falls back to the nearest cover or to its start point. Each is a question the game
//! pauses on, answered by an order, with the company moved on the table.
#![allow(clippy::unwrap_used, clippy::expect_used)]
use acw_core::Side;
use acw_core::dice::ScriptedDice;
use acw_core::game::{Commander, Ruleset};
use acw_core::measure::{Inches, Point};
use acw_core::table::{Table, Terrain};
use acw_hardtack::CompanyId;
use acw_hardtack::Options;
use acw_hardtack::bots::{Holder, Thruster};
use acw_hardtack::game::{
    Deployed, Event, GameError, Hardtack, Order, Question, Retreat, Scenario, State,
};
use acw_hardtack::state::{CompanySpec, Formation};

/// Blue A, eight figures in line at (20, 10), and Grey A, four in skirmish order at (20, 17): 6" apart,
/// footprint to footprint. With `wood`, a wood behind Blue A from y = 2 to y = 5.5.
fn scenario(wood: bool) -> Scenario {
    let mut blue = CompanySpec::new("Blue A", Side::Union, 8);
    blue.formation = Formation::Line;
    let mut grey = CompanySpec::new("Grey A", Side::Confederate, 4);
    grey.formation = Formation::Skirmish;
    let terrain = if wood {
        vec![
            Terrain::woods(
                "the copse",
                vec![
                    Point::new(10.0, 2.0),
                    Point::new(30.0, 2.0),
                    Point::new(30.0, 5.5),
                    Point::new(10.0, 5.5),
                ],
            )
            .unwrap(),
        ]
    } else {
        vec![]
    };
    Scenario {
        name: "short of contact".to_string(),
        turns: 3,
        table: Table::new(Inches(48.0), Inches(36.0), terrain).unwrap(),
        companies: vec![
            Deployed {
                spec: blue,
                at: Point::new(20.0, 10.0),
            },
            Deployed {
                spec: grey,
                at: Point::new(20.0, 17.0),
            },
        ],
        guns: Vec::new(),
        dummies: Vec::new(),
        colonels: Vec::new(),
        options: Options::default(),
    }
}

fn apply(
    state: &mut State,
    side: Side,
    order: Order,
    faces: &[u16],
) -> Result<Vec<Event>, GameError> {
    assert_eq!(Hardtack.owed(state).unwrap().side, side);
    let mut dice = ScriptedDice::faces(faces.to_vec());
    let mut log = Vec::new();
    Hardtack.apply_with(state, &order, &mut dice, &mut log)?;
    assert_eq!(dice.remaining(), 0, "{order:?} left dice unused");
    Ok(log)
}

/// Blue A declares a close assault on Grey A (test 2 passes) and Grey A stands (stand test 6 passes), with
/// or without final defensive fire; `charge` are the faces of the combat moves and the fire.
fn assault(wood: bool, final_fire: bool, charge: &[u16]) -> State {
    let mut state = State::new(&scenario(wood), 1).unwrap();
    apply(&mut state, Side::Union, Order::GoFirst(Side::Union), &[]).unwrap();
    apply(&mut state, Side::Union, Order::Activate(CompanyId(0)), &[]).unwrap();
    apply(
        &mut state,
        Side::Union,
        Order::Assault {
            defender: CompanyId(1),
        },
        &[2],
    )
    .unwrap();
    let mut faces = vec![6];
    faces.extend_from_slice(charge);
    apply(
        &mut state,
        Side::Confederate,
        Order::Defend {
            stand: true,
            final_fire,
        },
        &faces,
    )
    .unwrap();
    state
}

/// No final defensive fire; the line's D4 combat moves show 1 and 1: 2" and 2" more, still short of the 6".
fn still_short(wood: bool) -> State {
    assault(wood, false, &[1, 1])
}

fn centre(state: &State, id: u32) -> (f64, f64) {
    let c = state.field().footprint(CompanyId(id)).unwrap().centre;
    ((c.x * 1e6).round() / 1e6, (c.y * 1e6).round() / 1e6)
}

/// Every order of a wrong kind, or from the wrong side, is refused and changes nothing.
fn refuses_all(state: &mut State, owner: Side, wrong: &[Order]) {
    let before = state.clone();
    for order in wrong {
        let mut log = Vec::new();
        let mut dice = ScriptedDice::faces([6; 8]);
        assert!(
            Hardtack
                .apply_with(state, order, &mut dice, &mut log)
                .is_err(),
            "{order:?} was accepted"
        );
        assert!(log.is_empty());
        assert_eq!(dice.remaining(), 8, "{order:?} rolled dice");
        assert_eq!(state, &before);
        assert!(!state.check_order(owner, order));
    }
    assert!(!state.check_order(owner.enemy(), &Order::StayMidDash));
    assert!(!state.check_order(owner.enemy(), &Order::AbortAssault));
}

/// HT-SG2-37, HT-MEL-07: the attacker still short after its second combat move owes the attacking side's
/// choice; the game pauses on it, the wrong answers are refused, and staying mid-dash puts Blue A 4" on,
/// at (20, 14), facing Grey A, with no test rolled.
#[test]
fn ht_sg2_37_still_short_stays_mid_dash_where_its_moves_left_it() {
    let mut state = still_short(false);
    let d = Hardtack.owed(&state).unwrap();
    assert_eq!(d.side, Side::Union);
    assert_eq!(
        d.question,
        Question::MidDash {
            company: "Blue A".to_string(),
            defender: "Grey A".to_string(),
        }
    );
    assert_eq!(
        d.question.to_string(),
        "Blue A is still short of Grey A after its second combat move: does it stay mid-dash or abort the assault?"
    );
    // the company has not moved yet
    assert_eq!(centre(&state, 0), (20.0, 10.0));
    refuses_all(
        &mut state,
        Side::Union,
        &[
            Order::FallBack(Retreat::StartPoint),
            Order::EndActivation,
            Order::Withdraw(acw_core::measure::Heading::SOUTH),
        ],
    );
    let log = apply(&mut state, Side::Union, Order::StayMidDash, &[]).unwrap();
    assert_eq!(
        log[0],
        Event::StayedMidDash {
            company: "Blue A".to_string(),
            defender: "Grey A".to_string(),
            distance: 4.0,
        }
    );
    assert_eq!(
        log[0].to_string(),
        "Blue A stays mid-dash, 4\" on toward Grey A."
    );
    assert_eq!(centre(&state, 0), (20.0, 14.0));
    let fp = state.field().footprint(CompanyId(0)).unwrap();
    assert!(fp.facing.as_degrees().abs() < 1e-9);
    // the assault spent both actions: the activation ends and the Confederates activate
    let d = Hardtack.owed(&state).unwrap();
    assert_eq!(d.side, Side::Confederate);
    assert!(matches!(d.question, Question::Activate { .. }));
    assert!(state.battle().short_of_contact().is_none());
}

/// HT-SG2-37, HT-MEL-07: aborting is as if the attacker had faltered: it takes the 1/0/NTR test (TL 0 with
/// no casualties: an 8 passes), then owes the fall back; with a wood 5" straight behind it, cover is (20, 5) and it goes there.
#[test]
fn ht_sg2_37_an_abort_tests_then_falls_back_to_the_nearest_cover() {
    let mut state = still_short(true);
    let log = apply(&mut state, Side::Union, Order::AbortAssault, &[8]).unwrap();
    assert_eq!(log.len(), 1);
    assert_eq!(
        log[0].to_string(),
        "Blue A aborts the assault: it passed its test at TL 0, is now Confident and withdraws (dice: D8 showed 8) (the confidence test's result had a chance of 75.0%)."
    );
    let d = Hardtack.owed(&state).unwrap();
    assert_eq!(d.side, Side::Union);
    assert_eq!(
        d.question,
        Question::FallBack {
            company: "Blue A".to_string(),
            defender: "Grey A".to_string(),
        }
    );
    assert_eq!(
        d.question.to_string(),
        "Blue A falls back short of Grey A: to the nearest cover or to its start point?"
    );
    assert_eq!(state.cover_for_fall_back(), Some(Point::new(20.0, 5.0)));
    refuses_all(
        &mut state,
        Side::Union,
        &[
            Order::StayMidDash,
            Order::AbortAssault,
            Order::EndActivation,
        ],
    );
    // to its start point: where it stands
    let mut start = state.clone();
    let log = apply(
        &mut start,
        Side::Union,
        Order::FallBack(Retreat::StartPoint),
        &[],
    )
    .unwrap();
    assert_eq!(
        log[0].to_string(),
        "Blue A falls back short of Grey A and stays at its start point."
    );
    assert_eq!(centre(&start, 0), (20.0, 10.0));
    // to cover: 5" straight back into the wood
    let log = apply(
        &mut state,
        Side::Union,
        Order::FallBack(Retreat::Cover),
        &[],
    )
    .unwrap();
    assert_eq!(
        log[0],
        Event::FellBack {
            company: "Blue A".to_string(),
            defender: "Grey A".to_string(),
            to: Retreat::Cover,
            distance: 5.0,
        }
    );
    assert_eq!(
        log[0].to_string(),
        "Blue A falls back 5.0\" from short of Grey A to the nearest cover."
    );
    assert_eq!(centre(&state, 0), (20.0, 5.0));
    assert!(matches!(
        Hardtack.owed(&state).unwrap().question,
        Question::Activate { .. }
    ));
}

/// HT-SG2-37, HT-MEL-07: final defensive fire at 4" kills one of Blue A (faces as in the battle's own
/// test: a major result, three hits, one killing), its casualty test passes and its reaction test at T 3 (a
/// 2) fails: it falters, takes the 1/0/NTR test, and owes the fall back. With no cover on the table the
/// cover answer is refused and changes nothing; the start point is taken.
#[test]
fn ht_mel_07_a_company_faltering_under_final_defensive_fire_falls_back_its_way() {
    let mut state = assault(
        false,
        true,
        &[1, 1, 8, 4, 2, 1, 2, 3, 4, 1, 4, 4, 2, 8, 2, 8],
    );
    assert_eq!(state.battle().company(CompanyId(0)).unwrap().dead(), 1);
    let d = Hardtack.owed(&state).unwrap();
    assert_eq!(d.side, Side::Union);
    assert!(matches!(d.question, Question::FallBack { .. }));
    assert_eq!(state.cover_for_fall_back(), None);
    let before = state.clone();
    let err = apply(
        &mut state,
        Side::Union,
        Order::FallBack(Retreat::Cover),
        &[],
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Blue A cannot move there: no cover lies within 6 inches that does not close on Grey A"
    );
    assert_eq!(state, before);
    assert!(!state.check_order(Side::Union, &Order::FallBack(Retreat::Cover)));
    assert!(state.check_order(Side::Union, &Order::FallBack(Retreat::StartPoint)));
    apply(
        &mut state,
        Side::Union,
        Order::FallBack(Retreat::StartPoint),
        &[],
    )
    .unwrap();
    assert_eq!(centre(&state, 0), (20.0, 10.0));
    assert!(state.battle().short_of_contact().is_none());
}

/// HT-SG2-37: a save taken while either choice is pending loads and asks the same question of the same
/// side, and accepts the same answers; a save whose pending choice names a company that is not acting is
/// refused.
#[test]
fn ht_sg2_37_a_saved_game_keeps_the_pending_choice() {
    for state in [still_short(false), {
        let mut s = still_short(true);
        apply(&mut s, Side::Union, Order::AbortAssault, &[8]).unwrap();
        s
    }] {
        let json = serde_json::to_string(&state).unwrap();
        let loaded: State = serde_json::from_str(&json).unwrap();
        assert_eq!(loaded, state);
        assert_eq!(loaded.decision(), state.decision());
        for order in [
            Order::StayMidDash,
            Order::AbortAssault,
            Order::FallBack(Retreat::Cover),
            Order::FallBack(Retreat::StartPoint),
        ] {
            assert_eq!(
                loaded.check_order(Side::Union, &order),
                state.check_order(Side::Union, &order)
            );
        }
        let moved = json.replace("\"active\":0", "\"active\":null");
        assert_ne!(moved, json);
        assert!(serde_json::from_str::<State>(&moved).is_err());
    }
}

/// HT-SG2-37: the bots answer: the thruster stays mid-dash, the holder aborts; falling back, both take cover
/// when there is any.
#[test]
fn ht_sg2_37_the_bots_answer_the_choice() {
    let state = still_short(true);
    let mut thruster = Thruster::new(1);
    let mut holder = Holder::new(1);
    assert_eq!(
        thruster.order(&Hardtack, &state, Side::Union),
        Order::StayMidDash
    );
    assert_eq!(
        holder.order(&Hardtack, &state, Side::Union),
        Order::AbortAssault
    );
    let mut s = state.clone();
    apply(&mut s, Side::Union, Order::AbortAssault, &[8]).unwrap();
    assert_eq!(
        thruster.order(&Hardtack, &s, Side::Union),
        Order::FallBack(Retreat::Cover)
    );
    let plain = assault(
        false,
        true,
        &[1, 1, 8, 4, 2, 1, 2, 3, 4, 1, 4, 4, 2, 8, 2, 8],
    );
    assert_eq!(
        holder.order(&Hardtack, &plain, Side::Union),
        Order::FallBack(Retreat::StartPoint)
    );
}

/// Blue A still short (as [`still_short`]) with `other` at (20, 12.4) in `formation` with `figures`, across
/// the way Blue A's footprint (x 16 to 24) sweeps toward Grey A.
fn still_short_past(other: (&str, Side), figures: usize, formation: Formation) -> State {
    let mut s = scenario(false);
    let mut spec = CompanySpec::new(other.0, other.1, figures);
    spec.formation = formation;
    s.companies.push(Deployed {
        spec,
        at: Point::new(20.0, 12.4),
    });
    let mut state = State::new(&s, 1).unwrap();
    let chooser = Hardtack.owed(&state).unwrap().side;
    apply(&mut state, chooser, Order::GoFirst(Side::Union), &[]).unwrap();
    apply(&mut state, Side::Union, Order::Activate(CompanyId(0)), &[]).unwrap();
    apply(
        &mut state,
        Side::Union,
        Order::Assault {
            defender: CompanyId(1),
        },
        &[2],
    )
    .unwrap();
    apply(
        &mut state,
        Side::Confederate,
        Order::Defend {
            stand: true,
            final_fire: false,
        },
        &[6, 1, 1],
    )
    .unwrap();
    state
}

/// HT-SG2-37, HT-MOV-07: the mid-dash placing is traced as a move. Blue A, in skirmish order for its
/// assault, stays mid-dash: with Blue B (eight in line, x 16 to 24, y 11.9 to 12.9) across its way it passes
/// through Blue B the whole 4" to (20, 14), and Blue B, a close formation passed through, is disordered into
/// skirmish order. With Grey B (an enemy, two in skirmish order) there instead, the 4" way would touch it and
/// every shorter place (3", 2", 1") is on or within half an inch of its ground: Blue A stays where it stood,
/// 0" on.
#[test]
fn ht_mov_07_the_mid_dash_placing_is_traced() {
    let mut state = still_short_past(("Blue B", Side::Union), 8, Formation::Line);
    let log = apply(&mut state, Side::Union, Order::StayMidDash, &[]).unwrap();
    let text: Vec<String> = log.iter().map(ToString::to_string).collect();
    assert_eq!(
        text[..2],
        [
            "Blue A stays mid-dash, 4\" on toward Grey A.".to_string(),
            "Blue A passes through Blue B, which is disordered into skirmish order.".to_string(),
        ]
    );
    assert_eq!(centre(&state, 0), (20.0, 14.0));
    assert_eq!(
        state.battle().company(CompanyId(2)).unwrap().formation(),
        Formation::Skirmish
    );

    let mut state = still_short_past(("Grey B", Side::Confederate), 2, Formation::Skirmish);
    let log = apply(&mut state, Side::Union, Order::StayMidDash, &[]).unwrap();
    assert_eq!(
        log[0].to_string(),
        "Blue A stays mid-dash, 0\" on toward Grey A."
    );
    assert_eq!(centre(&state, 0), (20.0, 10.0));
}
