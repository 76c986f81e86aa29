//! The procedure catalogue and options by name: text read into typed values, every refusal typed and worded.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use acw_core::catalogue::{
    Built, Catalogue, CatalogueError, Entry, Kind, OptionError, OptionsByName, Param, Value,
    ValueError, Values,
};
use acw_core::dice::{Dice, Die};
use acw_core::measure::Inches;
use acw_core::{Dist, Resolve, Side};

/// Hits at `target`+ on a d6 plus a modifier; with `twice`, two dice and the better one.
struct Shot {
    modifier: i64,
    target: i64,
    twice: bool,
}

impl Resolve for Shot {
    type Outcome = bool;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> bool {
        let mut face = i64::from(dice.face(Die::D6));
        if self.twice {
            face = face.max(i64::from(dice.face(Die::D6)));
        }
        face + self.modifier >= self.target
    }
    fn odds(&self) -> Dist<bool> {
        let die = Dist::die(Die::D6);
        let face = if self.twice {
            die.zip_with(&die, |a, b| *a.max(b))
        } else {
            die
        };
        face.map(|&f| i64::from(f) + self.modifier >= self.target)
    }
}

fn shot(v: &Values) -> Result<Built, String> {
    if v.choice("dice") == 1 && v.int("modifier") > 2 {
        return Err("two dice take a modifier of at most +2".into());
    }
    Ok(Built::labelled(
        Shot {
            modifier: v.int("modifier"),
            target: if v.bool("hard") { 6 } else { 5 },
            twice: v.choice("dice") == 1,
        },
        |&h| if h { "hit".into() } else { "miss".into() },
    ))
}

static ENTRIES: &[Entry] = &[Entry {
    name: "shot",
    rules: &["EX-01"],
    summary: "one d6 (or the better of two), 5+ hits",
    params: &[
        Param::int("modifier", -3, 3, 0, "added to the die"),
        Param::bool("hard", false, "6+ instead of 5+"),
        Param::choice("dice", &["one", "better-of-two"], 0, "dice thrown"),
    ],
    build: shot,
}];

const CAT: Catalogue = Catalogue::new("example", ENTRIES);

#[test]
fn builds_from_text_with_exact_odds() {
    // 5+ with +1: 4+ on a d6 = 1/2. Better of two at 6+: 1 - 25/36 = 11/36.
    let t = CAT.build("shot", "modifier=+1").unwrap().table();
    assert_eq!(t.rows().len(), 2);
    assert!((t.p("hit") - 0.5).abs() < 1e-12);
    let t = CAT
        .build("Shot", "hard=yes dice=better_of_two")
        .unwrap()
        .table();
    assert!((t.p("hit") - 11.0 / 36.0).abs() < 1e-12);
    assert!((t.p("miss") - 25.0 / 36.0).abs() < 1e-12);
    assert!(!t.numeric());
    CAT.check_every_entry(20_000).unwrap();
}

#[test]
fn refusals_are_typed_and_worded() {
    let e = CAT.build("volley", "").unwrap_err();
    assert_eq!(
        e.to_string(),
        "the example rules have no procedure called \"volley\"; they have: shot"
    );
    assert!(matches!(
        CAT.build("shot", "range=3"),
        Err(CatalogueError::UnknownKey { .. })
    ));
    assert!(matches!(
        CAT.build("shot", "modifier"),
        Err(CatalogueError::NotKeyValue { .. })
    ));
    assert!(matches!(
        CAT.build("shot", "modifier=1 modifier=2"),
        Err(CatalogueError::Repeated {
            key: "modifier",
            ..
        })
    ));
    let e = CAT.build("shot", "modifier=4").unwrap_err();
    assert!(matches!(
        e,
        CatalogueError::BadValue {
            source: ValueError::OutOfRange { .. },
            ..
        }
    ));
    assert_eq!(
        e.to_string(),
        "the parameter modifier of shot: 4 is out of range: the value must be a whole number from -3 to 3"
    );
    assert!(matches!(
        CAT.build("shot", "hard=maybe"),
        Err(CatalogueError::BadValue {
            source: ValueError::Malformed { .. },
            ..
        })
    ));
    assert_eq!(
        CAT.build("shot", "dice=better-of-two modifier=3")
            .unwrap_err()
            .to_string(),
        "shot cannot be built with these parameters: two dice take a modifier of at most +2"
    );
}

#[test]
fn kinds_read_text() {
    assert_eq!(Kind::Side.parse("Union"), Ok(Value::Side(Side::Union)));
    assert!(Kind::Number { min: 0.0, max: 1.0 }.parse("NaN").is_err());
    let k = Kind::IntOrNone { min: 1, max: 50 };
    assert_eq!(k.parse("none"), Ok(Value::None));
    assert_eq!(k.parse("+8"), Ok(Value::Int(8)));
    assert!(matches!(k.parse("0"), Err(ValueError::OutOfRange { .. })));
}

#[derive(Clone, Copy, Debug, PartialEq, Default, strum::EnumIter, strum::Display)]
enum Screen {
    #[default]
    BlockBothWays,
    AsCover,
}
acw_core::choice_option!(Screen);

#[derive(Clone, Debug, PartialEq)]
struct Opts {
    turn_limit: Option<u32>,
    screen: Screen,
    gap: Inches,
    first_side: Side,
    stacks: bool,
}

impl Default for Opts {
    fn default() -> Self {
        Opts {
            turn_limit: Some(12),
            screen: Screen::BlockBothWays,
            gap: Inches(0.5),
            first_side: Side::Confederate,
            stacks: false,
        }
    }
}

acw_core::options_by_name!(
    Opts,
    check = |o| {
        if o.turn_limit == Some(0) {
            Err("a game needs at least one turn".to_string())
        } else {
            Ok(())
        }
    },
    [turn_limit, screen, gap, first_side, stacks]
);

#[test]
fn options_by_name() {
    let list = Opts::options();
    assert_eq!(list.len(), 5);
    assert_eq!(list[0].name, "turn_limit");
    assert_eq!(list[0].default, "12");
    assert_eq!(list[1].kind, Kind::Choice(&["block-both-ways", "as-cover"]));
    assert_eq!(list[1].default, "block-both-ways");
    assert_eq!(list[3].default, "confederate");
    let mut o = Opts::default();
    o.set_pair("screen=as_cover").unwrap();
    o.set_option("turn_limit", "none").unwrap();
    o.set_option("gap", "1.5").unwrap();
    o.set_option("first_side", "union").unwrap();
    assert_eq!(o.screen, Screen::AsCover);
    assert_eq!(o.turn_limit, None);
    assert_eq!(o.gap, Inches(1.5));
    assert_eq!(o.option_value("first_side").as_deref(), Some("union"));
    let before = o.clone();
    assert!(matches!(
        o.set_option("turn_limit", "0"),
        Err(OptionError::Refused { .. })
    ));
    assert!(matches!(
        o.set_option("gap", "-1"),
        Err(OptionError::BadValue { .. })
    ));
    assert!(matches!(
        o.set_option("speed", "3"),
        Err(OptionError::Unknown { .. })
    ));
    assert!(matches!(
        o.set_pair("stacks"),
        Err(OptionError::NotNameValue { .. })
    ));
    assert_eq!(o, before);
}
