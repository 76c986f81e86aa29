//! Moves traced on the table (HT-MOV-07): the footprint a company sweeps along its path may not touch an
//! enemy; close formations may not pass through each other; a close formation that passes through a friend,
//! or is passed through, is disordered. Played through acw-core's `Game` driver, positions pinned.
#![allow(clippy::unwrap_used, clippy::expect_used)]
mod common;
use acw_core::Side;
use acw_core::game::{Game, Owed, Submitted};
use acw_core::measure::{Inches, Point};
use acw_core::table::Table;
use acw_hardtack::CompanyId;
use acw_hardtack::Options;
use acw_hardtack::game::{Deployed, Event, Hardtack, Order, Scenario};
use acw_hardtack::state::Formation;
use common::deployed;

/// Blue A (eight in column: 2" wide, 1" deep, facing up the table) at (10, 10), `other` companies, and
/// Grey Z (eight in line) far off at (40, 32).
fn scenario(blue_a: Formation, others: Vec<Deployed>) -> Scenario {
    let mut companies = vec![deployed("Blue A", Side::Union, 8, blue_a, (10.0, 10.0))];
    companies.extend(others);
    companies.push(deployed(
        "Grey Z",
        Side::Confederate,
        8,
        Formation::Line,
        (40.0, 32.0),
    ));
    Scenario {
        name: "passing".to_string(),
        turns: 3,
        table: Table::new(Inches(48.0), Inches(36.0), vec![]).unwrap(),
        companies,
        guns: Vec::new(),
        dummies: Vec::new(),
        colonels: Vec::new(),
        options: Options::default(),
    }
}

/// The game with the Union going first and Blue A active.
fn blue_a_active(s: &Scenario) -> Game<Hardtack> {
    let mut game = Game::new(Hardtack, s, 1).unwrap();
    let side = match game.owed() {
        Owed::Decision(d) => d.side,
        other => panic!("{other:?}"),
    };
    game.submit(side, Order::GoFirst(Side::Union)).unwrap();
    game.submit(Side::Union, Order::Activate(CompanyId(0)))
        .unwrap();
    game
}

fn text(s: Submitted<'_, Event>) -> Vec<String> {
    match s {
        Submitted::Applied(ev) => ev.iter().map(ToString::to_string).collect(),
        Submitted::Waiting(_) => panic!("a move with no test rolls nothing"),
    }
}

fn centre(game: &Game<Hardtack>, id: u32) -> (f64, f64) {
    let c = game
        .state()
        .field()
        .footprint(CompanyId(id))
        .unwrap()
        .centre;
    ((c.x * 1e6).round() / 1e6, (c.y * 1e6).round() / 1e6)
}

fn formation(game: &Game<Hardtack>, id: u32) -> Formation {
    game.state()
        .battle()
        .company(CompanyId(id))
        .unwrap()
        .formation()
}

/// Submits a move the engine must refuse, and checks that the refusal changed nothing (the state with its
/// generator, the log) and that the listing, the check and the preview agree with it. Returns the refusal.
fn refused(game: &mut Game<Hardtack>, to: (f64, f64)) -> String {
    let order = Order::Move {
        to: Point::new(to.0, to.1),
    };
    let before = game.state().clone();
    let logged = game.log().len();
    assert!(!game.state().check_order(Side::Union, &order));
    assert!(game.check(Side::Union, &order).is_err());
    let preview = game
        .state()
        .preview_move(CompanyId(0), Point::new(to.0, to.1))
        .unwrap_err()
        .to_string();
    let why = game.submit(Side::Union, order).unwrap_err().to_string();
    assert_eq!(game.state(), &before);
    assert_eq!(game.log().len(), logged);
    assert!(why.contains(&preview), "{why} / {preview}");
    why
}

/// HT-MOV-07: enemy units may never be touched nor moved through. Blue A's move 6" straight up the table
/// from (10, 10) to (10, 16) would carry it across Grey A (two in skirmish order, 4" wide, at (10, 13)); its end
/// is free ground 2" beyond. Refused, nothing changed. With Grey A at (11.8, 13) instead the line Blue A's
/// centre follows (x = 10) misses it, but Blue A's footprint (x 9 to 11) sweeps over Grey A's corner (from
/// x = 10.8): refused too. Its move 6" to the side, clear of Grey A, is taken.
#[test]
fn ht_mov_07_no_move_touches_an_enemy_on_its_way() {
    let grey = |x| {
        vec![deployed(
            "Grey A",
            Side::Confederate,
            2,
            Formation::Skirmish,
            (x, 13.0),
        )]
    };
    let mut game = blue_a_active(&scenario(Formation::Column, grey(10.0)));
    let why = refused(&mut game, (10.0, 16.0));
    assert_eq!(
        why,
        "Blue A cannot move there: it would touch Grey A on its way, and enemy units may never be touched \
         nor moved through (only a close assault or the taking of a surrender closes with them)"
    );
    let mut game = blue_a_active(&scenario(Formation::Column, grey(11.8)));
    refused(&mut game, (10.0, 16.0));
    assert_eq!(centre(&game, 0), (10.0, 10.0));
    let moved = text(
        game.submit(
            Side::Union,
            Order::Move {
                to: Point::new(4.0, 10.0),
            },
        )
        .unwrap(),
    );
    assert_eq!(moved, ["Blue A moves 6.0\"."]);
    assert_eq!(centre(&game, 0), (4.0, 10.0));
}

/// HT-MOV-07: close formation through close formation is forbidden. Blue A (column) may not move 6" up the
/// table through Blue B (four in line, 4" wide, at (10, 13)); the battle refuses it and nothing changes.
#[test]
fn ht_mov_07_close_formation_may_not_pass_through_close_formation() {
    let blue_b = vec![deployed(
        "Blue B",
        Side::Union,
        4,
        Formation::Line,
        (10.0, 13.0),
    )];
    let mut game = blue_a_active(&scenario(Formation::Column, blue_b));
    let why = refused(&mut game, (10.0, 16.0));
    assert_eq!(
        why,
        "Blue A may not make that move: a close formation may not pass through another"
    );
    assert_eq!(formation(&game, 0), Formation::Column);
    assert_eq!(formation(&game, 1), Formation::Line);
}

/// HT-MOV-07: close formation through friendly skirmish is allowed, and the close formation that moves
/// through is disordered (into skirmish order); the skirmishers are already in skirmish order. Blue A
/// (column at (10, 10)) moves 6" up through Blue B (two in skirmish order at (10, 13)) to (10, 16). A
/// path across two friends at once (Blue B and Blue C side by side) is refused: the battle takes one company
/// passed through at a time.
#[test]
fn ht_mov_07_close_formation_through_friendly_skirmish_is_disordered() {
    let blue_b = vec![deployed(
        "Blue B",
        Side::Union,
        2,
        Formation::Skirmish,
        (10.0, 13.0),
    )];
    let mut game = blue_a_active(&scenario(Formation::Column, blue_b));
    let preview = game
        .state()
        .preview_move(CompanyId(0), Point::new(10.0, 16.0))
        .unwrap();
    assert_eq!(preview.through, Some(CompanyId(1)));
    assert!((preview.distance - 6.0).abs() < 1e-9);
    let log = text(
        game.submit(
            Side::Union,
            Order::Move {
                to: Point::new(10.0, 16.0),
            },
        )
        .unwrap(),
    );
    assert_eq!(
        log,
        [
            "Blue A moves 6.0\".",
            "Blue A passes through Blue B and is disordered into skirmish order.",
        ]
    );
    assert_eq!(centre(&game, 0), (10.0, 16.0));
    assert_eq!(centre(&game, 1), (10.0, 13.0));
    assert_eq!(formation(&game, 0), Formation::Skirmish);
    assert_eq!(formation(&game, 1), Formation::Skirmish);

    let two = vec![
        deployed("Blue B", Side::Union, 1, Formation::Skirmish, (8.5, 13.0)),
        deployed("Blue C", Side::Union, 1, Formation::Skirmish, (11.5, 13.0)),
    ];
    let mut game = blue_a_active(&scenario(Formation::Column, two));
    assert_eq!(
        refused(&mut game, (10.0, 16.0)),
        "Blue A cannot move there: it would pass through more than one company in one move"
    );
}

/// HT-MOV-07: skirmish through any friendly company; the close formation moved through is disordered, the
/// skirmishers moving are not. Blue A (two in skirmish order, 4" wide, at (10, 10)) moves 6" up through
/// Blue B (four in line at (10, 13)), which falls into skirmish order where it stands.
#[test]
fn ht_mov_07_skirmishers_through_a_close_formation_disorder_it() {
    let blue_b = vec![deployed(
        "Blue B",
        Side::Union,
        4,
        Formation::Line,
        (10.0, 13.0),
    )];
    let mut s = scenario(Formation::Skirmish, blue_b);
    s.companies[0].spec.figures = 2;
    let mut game = blue_a_active(&s);
    let log = text(
        game.submit(
            Side::Union,
            Order::Move {
                to: Point::new(10.0, 16.0),
            },
        )
        .unwrap(),
    );
    assert_eq!(
        log,
        [
            "Blue A moves 6.0\".",
            "Blue A passes through Blue B, which is disordered into skirmish order.",
        ]
    );
    assert_eq!(centre(&game, 0), (10.0, 16.0));
    assert_eq!(formation(&game, 0), Formation::Skirmish);
    assert_eq!(formation(&game, 1), Formation::Skirmish);
}

/// HT-MOV-07, the bots: a commander prefers a move that disorders none of its own close formations. Blue A
/// (in column) advances on Grey Z; Blue B (two in skirmish order) stands 2.3" along that line. The thruster's
/// first choice, 5" straight on, is legal but would take Blue A through Blue B and disorder it; the thruster
/// takes a move the engine accepts that passes no one instead.
#[test]
fn ht_mov_07_the_thruster_keeps_its_close_formations_in_order() {
    use acw_core::game::Commander;
    use acw_hardtack::bots::Thruster;
    let from = Point::new(10.0, 10.0);
    let heading = from.heading_to(Point::new(40.0, 32.0));
    let screen = from.moved(heading, Inches(2.3));
    let s = scenario(
        Formation::Column,
        vec![deployed(
            "Blue B",
            Side::Union,
            2,
            Formation::Skirmish,
            (screen.x, screen.y),
        )],
    );
    let game = blue_a_active(&s);
    let straight = from.moved(heading, Inches(5.0));
    assert!(
        game.state()
            .check_order(Side::Union, &Order::Move { to: straight })
    );
    let through = game
        .state()
        .preview_move(CompanyId(0), straight)
        .unwrap()
        .through;
    assert_eq!(through, Some(CompanyId(1)));
    for seed in 0..4 {
        let order = Thruster::new(seed).order(&Hardtack, game.state(), Side::Union);
        let Order::Move { to } = order else {
            panic!("{order:?}");
        };
        assert!(game.state().check_order(Side::Union, &order));
        let m = game.state().preview_move(CompanyId(0), to).unwrap();
        assert_eq!(m.through, None, "seed {seed}: to {to:?}");
        assert!(m.toward_enemy, "seed {seed}: to {to:?}");
    }
    assert_eq!(formation(&game, 0), Formation::Column);
}
