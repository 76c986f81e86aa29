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
