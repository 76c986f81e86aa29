//! The `[geometry]` rules of fire and formation checked on the table, as the game plays them: positions set up
//! in a scenario, orders given through the game, the engine's answer (accepted or refused, and what a refusal
//! leaves unchanged). The Union faces up the table (+y), the Confederacy down it; a company's footprint is 1"
//! a figure wide in line, 2" a figure in skirmish order, 2" for a column, 1" deep.
#![allow(clippy::unwrap_used, clippy::expect_used)]
mod common;
use acw_core::Side;
use acw_core::dice::ScriptedDice;
use acw_core::game::Ruleset;
use acw_core::measure::{Inches, Point};
use acw_core::table::{Table, Terrain};
use acw_hardtack::CompanyId;
use acw_hardtack::Options;
use acw_hardtack::fire::Cover;
use acw_hardtack::game::{Deployed, Event, GameError, Hardtack, Order, Scenario, State};
use acw_hardtack::state::Formation;
use acw_hardtack::tables::{ConfidenceLevel, Motivation};
use common::deployed;

fn scenario(companies: Vec<Deployed>, terrain: Vec<Terrain>) -> Scenario {
    Scenario {
        name: "geometry".to_string(),
        turns: 3,
        table: Table::new(Inches(48.0), Inches(48.0), terrain).unwrap(),
        companies,
        guns: Vec::new(),
        dummies: Vec::new(),
        colonels: Vec::new(),
        options: Options::default(),
    }
}

/// Blue A: four in line at (20, 10), its front edge from (18, 10.5) to (22, 10.5).
fn blue_a(formation: Formation) -> Deployed {
    deployed("Blue A", Side::Union, 4, formation, (20.0, 10.0))
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
    Ok(log)
}

/// The game with the Union going first and company `id` activated.
fn union_active(s: &Scenario, id: u32) -> State {
    let mut state = State::new(s, 1).unwrap();
    let side = Hardtack.owed(&state).unwrap().side;
    apply(&mut state, side, Order::GoFirst(Side::Union), &[]).unwrap();
    apply(&mut state, Side::Union, Order::Activate(CompanyId(id)), &[]).unwrap();
    state
}

/// Checks that the Union's order is refused, by the check and by the game, and that the refusal changed nothing.
fn refused(state: &mut State, order: Order) -> String {
    assert!(
        !state.check_order(Side::Union, &order),
        "{order:?} passed the check"
    );
    let before = state.clone();
    let why = apply(state, Side::Union, order, &[])
        .unwrap_err()
        .to_string();
    assert_eq!(*state, before);
    why
}

fn fire(target: u32) -> Order {
    Order::Fire {
        target: CompanyId(target),
    }
}

/// HT-FIR-21, HT-FIR-02: a company in line fires only at a target whose centre lies in its front arc — 45
/// degrees out from each end of its front edge (the reading of "every figure sees the target's centre through
/// its front without its line crossing a neighbour", figures 1" wide and 1" deep). Blue A's arc's right
/// boundary runs from (22, 10.5) up at 45 degrees: x = 22 + (y − 10.5), x = 31.5 at y = 20. Grey A (one
/// skirmisher) centred at (31.4, 20) is accepted; at (31.6, 20), most of it still inside the arc but its centre
/// not, it is refused with nothing changed. Blue A in skirmish order ignores the arc: it
/// fires at Grey A even straight off its flank.
#[test]
fn ht_fir_21_a_line_fires_only_within_its_front_arc() {
    let at = |x: f64, formation| {
        scenario(
            vec![
                blue_a(formation),
                deployed(
                    "Grey A",
                    Side::Confederate,
                    1,
                    Formation::Skirmish,
                    (x, 20.0),
                ),
            ],
            vec![],
        )
    };
    let mut inside = union_active(&at(31.4, Formation::Line), 0);
    let f = inside.fire_facts(CompanyId(0), CompanyId(1)).unwrap();
    assert!(!f.arc_blocked);
    assert!(inside.check_order(Side::Union, &fire(1)));
    let mut log = Vec::new();
    Hardtack
        .apply_with(
            &mut inside,
            &fire(1),
            &mut acw_core::GameRng::seed(3),
            &mut log,
        )
        .unwrap();
    assert!(
        log[0].to_string().starts_with("Blue A fires at Grey A"),
        "{}",
        log[0]
    );

    let mut outside = union_active(&at(31.6, Formation::Line), 0);
    assert!(
        outside
            .fire_facts(CompanyId(0), CompanyId(1))
            .unwrap()
            .arc_blocked
    );
    let why = refused(&mut outside, fire(1));
    assert!(
        why.contains(
            "not every figure of a line or column can fire at the target through its front"
        ),
        "{why}"
    );

    // skirmishers (eight inches wide) fire at a target straight off their flank
    let s = scenario(
        vec![
            blue_a(Formation::Skirmish),
            deployed(
                "Grey A",
                Side::Confederate,
                1,
                Formation::Skirmish,
                (40.0, 10.0),
            ),
        ],
        vec![],
    );
    let state = union_active(&s, 0);
    assert!(
        state
            .fire_facts(CompanyId(0), CompanyId(1))
            .unwrap()
            .arc_blocked
    );
    assert!(state.check_order(Side::Union, &fire(1)));
}

/// HT-FIR-21, HT-FRM-04: a column's figures stand in two files, so with fit figures in more than one row its
/// rear figures' lines to any target cross its own front row or its other file: it cannot fire, even at a
/// target straight ahead. Two figures in column stand in one row and fire as a line of two.
#[test]
fn ht_fir_21_a_column_cannot_fire_through_its_own_rows() {
    let s = |figures| {
        scenario(
            vec![
                deployed(
                    "Blue A",
                    Side::Union,
                    figures,
                    Formation::Column,
                    (20.0, 10.0),
                ),
                deployed(
                    "Grey A",
                    Side::Confederate,
                    4,
                    Formation::Line,
                    (20.0, 20.0),
                ),
            ],
            vec![],
        )
    };
    let mut four = union_active(&s(4), 0);
    assert!(
        four.fire_facts(CompanyId(0), CompanyId(1))
            .unwrap()
            .arc_blocked
    );
    refused(&mut four, fire(1));
    let two = union_active(&s(2), 0);
    assert!(
        !two.fire_facts(CompanyId(0), CompanyId(1))
            .unwrap()
            .arc_blocked
    );
    assert!(two.check_order(Side::Union, &fire(1)));
}

/// HT-FIR-22, HT-FIR-02: friends across the line of fire. Blue A fires up the table at Grey T (four in line at
/// (20, 26)). Blue S, friendly skirmishers at (20, 15) right across the line, never block it. Blue L, a friendly
/// line there, does: refused, nothing changed. Blue L directly ahead of Blue A and as near as the table lets two
/// companies stand (its rear edge 0.45" from Blue A's front edge; no move closes within half an inch) is a first
/// line Blue A fires through as a second line; 0.55" away it is not touching and blocks.
#[test]
fn ht_fir_22_friendly_companies_across_the_line_of_fire() {
    let s = |friend: Deployed| {
        scenario(
            vec![
                blue_a(Formation::Line),
                friend,
                deployed(
                    "Grey T",
                    Side::Confederate,
                    4,
                    Formation::Line,
                    (20.0, 26.0),
                ),
            ],
            vec![],
        )
    };
    let skirmishers = union_active(
        &s(deployed(
            "Blue S",
            Side::Union,
            2,
            Formation::Skirmish,
            (20.0, 15.0),
        )),
        0,
    );
    let f = skirmishers.fire_facts(CompanyId(0), CompanyId(2)).unwrap();
    assert_eq!(f.friendly_between, None);
    assert!((f.distance - 15.0).abs() < 1e-9, "{}", f.distance);
    assert!(skirmishers.check_order(Side::Union, &fire(2)));

    let line = |y| deployed("Blue L", Side::Union, 4, Formation::Line, (20.0, y));
    let mut blocked = union_active(&s(line(15.0)), 0);
    assert!(matches!(
        blocked.fire_facts(CompanyId(0), CompanyId(2)),
        Err(GameError::NoSight { .. })
    ));
    let why = refused(&mut blocked, fire(2));
    assert_eq!(
        why,
        "Blue A cannot see Grey T: something stands in the line of fire"
    );

    // Blue L's rear edge at 10.95 (centre 11.45): 0.45" from Blue A's front edge
    let second_line = union_active(&s(line(11.45)), 0);
    let f = second_line.fire_facts(CompanyId(0), CompanyId(2)).unwrap();
    assert_eq!(f.friendly_between, Some((CompanyId(1), true)));
    assert!(second_line.check_order(Side::Union, &fire(2)));
    let mut apart = union_active(&s(line(11.55)), 0);
    refused(&mut apart, fire(2));
}

/// HT-FIR-23, HT-FIR-02: enemy skirmishers across the line are fired through at the company behind them; the
/// range is the target's; skirmishers 1" behind a fence seen from the firer give the target (11" behind it)
/// the same soft cover. An enemy line across the line blocks it, as do two companies of skirmishers.
#[test]
fn ht_fir_23_fire_through_enemy_skirmishers() {
    let fence =
        || Terrain::fence("fence", vec![Point::new(0.0, 15.0), Point::new(48.0, 15.0)]).unwrap();
    let s = |between: Vec<Deployed>, terrain: Vec<Terrain>| {
        let mut c = vec![blue_a(Formation::Line)];
        c.push(deployed(
            "Grey T",
            Side::Confederate,
            4,
            Formation::Line,
            (20.0, 26.0),
        ));
        c.extend(between);
        scenario(c, terrain)
    };
    let sk = |name: &str, y| deployed(name, Side::Confederate, 2, Formation::Skirmish, (20.0, y));
    // no fence: the skirmishers are fired through, the target in the open
    let open = union_active(&s(vec![sk("Grey S", 16.0)], vec![]), 0);
    let f = open.fire_facts(CompanyId(0), CompanyId(1)).unwrap();
    assert_eq!(f.through, Some(CompanyId(2)));
    assert_eq!(f.cover, Cover::Open);
    assert!((f.distance - 15.0).abs() < 1e-9, "{}", f.distance);
    // behind the fence: the target takes the skirmishers' cover
    let mut fenced = union_active(&s(vec![sk("Grey S", 16.0)], vec![fence()]), 0);
    let f = fenced.fire_facts(CompanyId(0), CompanyId(1)).unwrap();
    assert_eq!((f.through, f.cover), (Some(CompanyId(2)), Cover::Soft));
    assert_eq!(
        open.fire_facts(CompanyId(0), CompanyId(1)).unwrap().through,
        Some(CompanyId(2))
    );
    // the fire is played through them, and the event says so
    let mut rng = acw_core::GameRng::seed(3);
    let mut log = Vec::new();
    Hardtack
        .apply_with(&mut fenced, &fire(1), &mut rng, &mut log)
        .unwrap();
    let line = log[0].to_string();
    assert!(
        line.starts_with("Blue A fires at Grey T 15.0\" away, through Grey S, the target in cover"),
        "{line}"
    );
    // an enemy line across the line of fire blocks it
    let line_between = deployed(
        "Grey L",
        Side::Confederate,
        4,
        Formation::Line,
        (20.0, 16.0),
    );
    let mut blocked = union_active(&s(vec![line_between], vec![]), 0);
    refused(&mut blocked, fire(1));
    // so do two companies of skirmishers
    let mut two = union_active(&s(vec![sk("Grey S", 16.0), sk("Grey R", 20.0)], vec![]), 0);
    assert!(matches!(
        two.fire_facts(CompanyId(0), CompanyId(1)),
        Err(GameError::NoSight { .. })
    ));
    refused(&mut two, fire(1));
}

/// HT-FRM-03, HT-FRM-04: reorganising on the table. Blue A, eight in skirmish order (16" wide), forms a line
/// one row of eight (8" wide, 1" deep) in place, or a column (two files: 2" wide). A line whose frontage would
/// come within half an inch of a friend is refused, nothing changed. A Broken company (in a wood, so not
/// compelled to move) may not enter a close formation.
#[test]
fn ht_frm_03_entering_a_close_formation_on_the_table() {
    let s = scenario(
        vec![
            deployed("Blue A", Side::Union, 8, Formation::Skirmish, (20.0, 10.0)),
            deployed("Blue B", Side::Union, 4, Formation::Column, (30.0, 10.0)),
            deployed(
                "Grey Z",
                Side::Confederate,
                8,
                Formation::Line,
                (20.0, 40.0),
            ),
        ],
        vec![],
    );
    let mut state = union_active(&s, 0);
    let width = |state: &State, id| state.field().footprint(CompanyId(id)).unwrap().frontage.0;
    assert!((width(&state, 0) - 16.0).abs() < 1e-9);
    apply(
        &mut state,
        Side::Union,
        Order::Reorganise(Formation::Line),
        &[],
    )
    .unwrap();
    assert!((width(&state, 0) - 8.0).abs() < 1e-9);
    let fp = state.field().footprint(CompanyId(0)).unwrap();
    assert_eq!((fp.centre, fp.depth.0), (Point::new(20.0, 10.0), 1.0));
    // once an activation: the column from skirmish order in a game of its own
    let mut state = union_active(&s, 0);
    apply(
        &mut state,
        Side::Union,
        Order::Reorganise(Formation::Column),
        &[],
    )
    .unwrap();
    assert!((width(&state, 0) - 2.0).abs() < 1e-9);
    assert_eq!(
        state.battle().company(CompanyId(0)).unwrap().formation(),
        Formation::Column
    );

    // a line of eight beside a friendly line
    let crowded = scenario(
        vec![
            deployed("Blue A", Side::Union, 8, Formation::Column, (20.0, 10.0)),
            deployed("Blue B", Side::Union, 4, Formation::Line, (26.3, 10.0)),
            deployed(
                "Grey Z",
                Side::Confederate,
                8,
                Formation::Line,
                (20.0, 40.0),
            ),
        ],
        vec![],
    );
    // Blue A's line would span x 16 to 24, 0.3" from Blue B's left edge at 24.3
    let mut state = union_active(&crowded, 0);
    let why = refused(&mut state, Order::Reorganise(Formation::Line));
    assert!(why.contains("within half an inch of Blue B"), "{why}");

    // Broken, in a wood: its side acts for it, but not into a close formation
    let wood = Terrain::woods(
        "wood",
        vec![
            Point::new(10.0, 5.0),
            Point::new(30.0, 5.0),
            Point::new(30.0, 15.0),
            Point::new(10.0, 15.0),
        ],
    )
    .unwrap();
    let s = scenario(
        vec![
            deployed("Blue A", Side::Union, 4, Formation::Skirmish, (20.0, 10.0)),
            // two companies more, so that one Broken company does not lose the Union the game
            deployed("Blue B", Side::Union, 4, Formation::Line, (40.0, 10.0)),
            deployed("Blue C", Side::Union, 4, Formation::Line, (40.0, 20.0)),
            deployed(
                "Grey Z",
                Side::Confederate,
                8,
                Formation::Line,
                (20.0, 40.0),
            ),
        ],
        vec![wood],
    );
    let state = State::new(&s, 1).unwrap();
    let mut v = serde_json::to_value(&state).unwrap();
    v["battle"]["companies"][0]["cl"] = serde_json::to_value(ConfidenceLevel::Broken).unwrap();
    let mut state: State = serde_json::from_value(v).unwrap();
    let side = Hardtack.owed(&state).unwrap().side;
    apply(&mut state, side, Order::GoFirst(Side::Union), &[]).unwrap();
    apply(&mut state, Side::Union, Order::Activate(CompanyId(0)), &[]).unwrap();
    let why = refused(&mut state, Order::Reorganise(Formation::Line));
    assert!(
        why.contains("Broken and Routed companies stay in skirmish order"),
        "{why}"
    );
}

/// Whether figures are in unit integrity (HT-SG2-10): all inside a circle 6" across (read as: every two
/// within 6" of each other, the circle through the two farthest), or every figure within 2" of another in a
/// chain that links them all.
fn in_integrity(points: &[Point]) -> bool {
    let d = |a: Point, b: Point| a.distance(b).0;
    if points
        .iter()
        .all(|&a| points.iter().all(|&b| d(a, b) <= 6.0 + 1e-9))
    {
        return true;
    }
    let mut linked = vec![false; points.len()];
    let mut stack = vec![0];
    linked[0] = true;
    while let Some(i) = stack.pop() {
        for j in 0..points.len() {
            if !linked[j] && d(points[i], points[j]) <= 2.0 + 1e-9 {
                linked[j] = true;
                stack.push(j);
            }
        }
    }
    linked.iter().all(|&l| l)
}

/// HT-SG2-10, HT-FRM-04: the game places a company's figures from its footprint, and every whole company so
/// placed is in integrity: twelve in skirmish order stand 2" apart in one rank 24" wide (the chain, not the
/// circle), twelve in line 1" apart, twelve in column in two files of six ranks. The check itself refuses
/// figures 2.1" apart (a skirmish rank spaced wider than the game spaces it). A company that has just moved
/// keeps its figures so.
#[test]
fn ht_sg2_10_companies_on_the_table_keep_their_integrity() {
    let s = scenario(
        vec![
            deployed("Blue S", Side::Union, 12, Formation::Skirmish, (14.0, 6.0)),
            deployed("Blue L", Side::Union, 12, Formation::Line, (14.0, 12.0)),
            deployed("Blue C", Side::Union, 12, Formation::Column, (34.0, 12.0)),
            deployed(
                "Grey Z",
                Side::Confederate,
                8,
                Formation::Line,
                (20.0, 40.0),
            ),
        ],
        vec![],
    );
    let mut state = union_active(&s, 0);
    let points = |state: &State, id| state.figure_points(CompanyId(id));
    let skirmish = points(&state, 0);
    assert_eq!(skirmish.len(), 12);
    assert!((skirmish[0].distance(skirmish[1]).0 - 2.0).abs() < 1e-9);
    assert!((skirmish[0].distance(skirmish[11]).0 - 22.0).abs() < 1e-9);
    let line = points(&state, 1);
    assert!((line[0].distance(line[1]).0 - 1.0).abs() < 1e-9);
    let column = points(&state, 2);
    // two files 1" apart; six ranks through the 1" depth
    assert!((column[0].distance(column[1]).0 - 1.0).abs() < 1e-9);
    assert!((column[0].distance(column[2]).0 - 1.0 / 6.0).abs() < 1e-9);
    for id in 0..3 {
        assert!(in_integrity(&points(&state, id)), "company {id}");
    }
    let wide: Vec<Point> = (0..12)
        .map(|i| Point::new(2.1 * f64::from(i), 0.0))
        .collect();
    assert!(!in_integrity(&wide));
    apply(
        &mut state,
        Side::Union,
        Order::Move {
            to: Point::new(14.0, 2.0),
        },
        &[],
    )
    .unwrap();
    assert!(in_integrity(&points(&state, 0)));
    assert!(!state.battle().company(CompanyId(0)).unwrap().disorganised());
}

/// HT-OPT-11: with the enfilade option on, fire from outside a close-formation target's front arc (the game's
/// reading of "the sides or rear": 45 degrees out from each end of its front edge) adds the enfilade row,
/// +3/+2/+2 by motivation (low/medium/high), to the target's confidence test: +2 for Grey T at medium, +3 at
/// low. Grey T (four in line at (20, 20), facing down the table) has its arc's boundary
/// through (22, 19.5) at 45 degrees: Blue A (one skirmisher, 2" × 1", at (x, 10)) is partly inside it up to
/// x = 33 (its corner (x − 1, 9.5)). The same dice at x = 32.9 and at x = 33.1 give the same fire; the test's
/// threat level is 2 (3) higher from the flank.
#[test]
fn ht_opt_11_enfilade_from_outside_the_front_arc() {
    let s = |x: f64, motivation| {
        let mut s = scenario(
            vec![
                deployed("Blue A", Side::Union, 1, Formation::Skirmish, (x, 10.0)),
                deployed(
                    "Grey T",
                    Side::Confederate,
                    4,
                    Formation::Line,
                    (20.0, 20.0),
                ),
            ],
            vec![],
        );
        s.companies[1].spec.motivation = motivation;
        s.options.enfilade = true;
        s
    };
    let tl = |report: &str| -> i32 {
        let at = report.find("confidence test at TL ").unwrap() + "confidence test at TL ".len();
        report[at..]
            .split_whitespace()
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    for (motivation, row) in [(Motivation::Medium, 2), (Motivation::Low, 3)] {
        let mut compared = 0;
        for seed in 1..40 {
            let mut results = Vec::new();
            for x in [32.9, 33.1] {
                let mut state = union_active(&s(x, motivation), 0);
                let f = state.fire_facts(CompanyId(0), CompanyId(1)).unwrap();
                assert_eq!(f.enfilade, x > 33.0);
                let mut log = Vec::new();
                Hardtack
                    .apply_with(
                        &mut state,
                        &fire(1),
                        &mut acw_core::GameRng::seed(seed),
                        &mut log,
                    )
                    .unwrap();
                let Event::Fired { report, .. } = &log[0] else {
                    panic!("{:?}", log[0]);
                };
                results.push(report.clone());
            }
            if results[0].contains("confidence test at TL ") {
                assert_eq!(tl(&results[1]), tl(&results[0]) + row, "{results:?}");
                compared += 1;
            }
        }
        assert!(compared > 0, "no seed brought a confidence test");
    }
}

/// HT-FIR-22, HT-SG2-25: a look (or a fire) at a counter passes friendly skirmishers and is blocked by a
/// friendly line. Blue A (four in line at (20, 10)) looks up the table at a Confederate counter at (20, 26);
/// Blue S (friendly skirmishers) across the line leaves the look open; Blue L (a friendly line) there closes it.
/// The counter stands behind a fence, so that no look in the open takes it off the table first.
#[test]
fn ht_fir_22_friends_across_a_look_at_a_counter() {
    let s = |friend: Deployed| {
        let mut s = scenario(
            vec![
                blue_a(Formation::Line),
                friend,
                deployed(
                    "Grey Z",
                    Side::Confederate,
                    4,
                    Formation::Line,
                    (40.0, 40.0),
                ),
            ],
            // the counter stands 1.5" behind a fence: in cover, so not seen clearly in the open and taken off
            vec![
                Terrain::fence("fence", vec![Point::new(0.0, 24.5), Point::new(48.0, 24.5)])
                    .unwrap(),
            ],
        );
        // dummies are deployed among a side's hidden companies
        s.companies[2].spec.hidden = true;
        s.dummies = vec![acw_hardtack::game::DeployedDummy {
            side: Side::Confederate,
            at: Point::new(20.0, 26.0),
        }];
        s
    };
    let look = Order::Observe {
        dummy: acw_hardtack::state::DummyId(0),
    };
    let open = union_active(
        &s(deployed(
            "Blue S",
            Side::Union,
            2,
            Formation::Skirmish,
            (20.0, 15.0),
        )),
        0,
    );
    assert!(open.check_order(Side::Union, &look));
    let mut closed = union_active(
        &s(deployed(
            "Blue L",
            Side::Union,
            4,
            Formation::Line,
            (20.0, 15.0),
        )),
        0,
    );
    let why = refused(&mut closed, look);
    assert!(why.contains("Blue A cannot see"), "{why}");
}
