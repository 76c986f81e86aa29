//! Every option settable by name, refusals typed and nothing changed by them.
#![allow(clippy::unwrap_used)]

use acw_core::catalogue::{OptionError, OptionsByName};
use acw_d8::options::{ImprovedMuskets, Options};

#[test]
fn options_by_name() {
    let list = Options::options();
    assert_eq!(
        list.iter()
            .find(|o| o.name == "improved_muskets")
            .unwrap()
            .default,
        "quarter"
    );
    let mut o = Options::default();
    o.set_pair("improved_muskets=all_experienced").unwrap();
    o.set_pair("pooled_melee=yes").unwrap();
    assert_eq!(o.improved_muskets, ImprovedMuskets::AllExperienced);
    assert!(o.pooled_melee);
    let before = o.clone();
    o.set_pair("night_and_day=false").unwrap();
    assert!(matches!(
        o.set_pair("turn_limit=0"),
        Err(OptionError::Refused { .. })
    ));
    assert!(matches!(
        o.set_pair("turn_limit=x"),
        Err(OptionError::BadValue { .. })
    ));
    o.set_pair("night_and_day=true").unwrap();
    assert_eq!(o, before);
}

#[test]
fn catalogued_procedures_roll_as_their_odds_say() {
    use acw_d8::catalogue::catalogue;
    let c = catalogue();
    assert_eq!(c.entries().len(), 27);
    // Whose map: the umpire's D3, 1 the Union's, 2 the Confederates', 3 the umpire's: 1/3 each.
    let t = c.build("map-choice", "").unwrap().table();
    assert!((t.p("the umpire's map") - 1.0 / 3.0).abs() < 1e-12);
    c.check_every_entry(acw_core::testing::DEFAULT_SAMPLES)
        .unwrap();
    // A Veteran regiment: 10 plus a D5, so 15 figures 1/5. A roll-off, ties rolled again: 1/2 each.
    let t = c.build("regiment-size", "class=veteran").unwrap().table();
    assert!((t.p("15") - 1.0 / 5.0).abs() < 1e-12);
    let t = c.build("roll-off", "die=d10").unwrap().table();
    assert!((t.p("the first player") - 1.0 / 2.0).abs() < 1e-12);
    // The wind: a D6, only a 1 is still air.
    let t = c.build("wind", "").unwrap().table();
    assert!((t.p("no wind") - 1.0 / 6.0).abs() < 1e-12);
    // Summer (3-6 on the D6, 2/3) starting at 7:00: 4D6 make 7 in 20 of the 971 ways of 7 to 16.
    let t = c.build("night-day", "").unwrap().table();
    let row = t
        .rows()
        .iter()
        .find(|r| r.label.starts_with("summer, starting at 7:00"))
        .unwrap();
    assert!((row.p - 2.0 / 3.0 * 20.0 / 971.0).abs() < 1e-12);
    // Ten D8s needing 5+ (1/2 each), no save: P(no casualty) = 1/1024.
    let t = c.build("volley", "").unwrap().table();
    assert!((t.p("0") - 1.0 / 1024.0).abs() < 1e-15);
    // The formation test of Veterans: a D8 needing 3+, 6/8.
    let t = c.build("formation-test", "class=veteran").unwrap().table();
    assert!((t.p("passes") - 0.75).abs() < 1e-12);
    // Exactly two casualties: the officer dies on a 1 then a 1, 1/36.
    let t = c.build("officer-check", "casualties=2").unwrap().table();
    assert!((t.p("the officer killed") - 1.0 / 36.0).abs() < 1e-12);
    // The ends of every range build and sum to 1.
    for (name, params) in [
        ("volley", "short_need=1 long_need=9 long_dice=3 save=7"),
        ("saves", "save=1 hits=0"),
        ("melee", "need=11 attackers=4 defenders=40 pooled=true"),
        ("hazard", "kills_on=6 figures=0"),
        ("bombard", "dice=60 rule=pips band=long"),
    ] {
        let t = c.build(name, params).unwrap().table();
        let sum: f64 = t.rows().iter().map(|r| r.p).sum();
        assert!((sum - 1.0).abs() < 1e-9, "{name} {params}: {sum}");
    }
}

#[test]
fn luck_of_a_written_log() {
    use acw_core::Side;
    use acw_core::luck::luck_of;
    use acw_d8::game::Event;
    use acw_d8::tables::Cover;
    let fired = |casualties: u32| Event::Fired {
        unit: "1st Ohio".into(),
        target: "4th Texas".into(),
        short: (1, 5),
        long: (0, 6),
        save: None,
        cover: Cover::Open,
        hits: casualties,
        casualties,
        chance: 0.5,
        officer_killed: false,
    };
    // The Union's turn: one D8 at 5+ (1/2) with no save. A casualty scores 1 - 1/2 + 1/4 = 3/4, none 1/4.
    let log = vec![
        Event::TurnBegan {
            side: Side::Union,
            turn: 1,
            tests: vec![],
            out_of_influence: 0,
        },
        fired(1),
        fired(1),
        fired(0),
    ];
    let luck = luck_of(&log);
    assert_eq!(luck.union.rolls, 3);
    assert!((luck.union.index - (0.75 + 0.75 + 0.25) / 3.0).abs() < 1e-12);
    assert_eq!(luck.confederate.rolls, 0);
}
