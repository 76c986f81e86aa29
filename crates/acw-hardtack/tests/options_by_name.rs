//! Every option settable by name, refusals typed and nothing changed by them.
#![allow(clippy::unwrap_used)]

use acw_core::catalogue::{OptionError, OptionsByName};
use acw_hardtack::options::Options;

#[test]
fn options_by_name() {
    let list = Options::options();
    let volley = list.iter().find(|o| o.name == "first_volley").unwrap();
    assert_eq!(volley.default, Options::default().first_volley.to_string());
    let mut o = Options::default();
    o.set_pair("first_volley=false").unwrap();
    o.set_pair("enfilade=no").unwrap();
    assert!(!o.first_volley && !o.enfilade);
    let before = o;
    assert!(matches!(
        o.set_pair("first_volley=sometimes"),
        Err(OptionError::BadValue { .. })
    ));
    assert!(matches!(
        o.set_pair("volley_size=3"),
        Err(OptionError::Unknown { .. })
    ));
    assert_eq!(o, before);
}

// HT-OPT-33: stand-based fire is an option a table-side app can set by name, like every other switch.
#[test]
fn stand_based_fire_by_name() {
    let list = Options::options();
    let stands = list.iter().find(|o| o.name == "stand_based_fire").unwrap();
    assert_eq!(stands.default, "false");
    let mut o = Options::default();
    o.set_pair("stand_based_fire=true").unwrap();
    assert!(o.stand_based_fire);
    let mut back = o;
    back.stand_based_fire = false;
    assert_eq!(back, Options::default());
}
