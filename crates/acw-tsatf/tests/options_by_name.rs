//! Every option settable by name, refusals typed and nothing changed by them.
#![allow(clippy::unwrap_used)]

use acw_core::catalogue::{OptionError, OptionsByName};
use acw_tsatf::options::{FireSystem, Options, WoundPolicy};

#[test]
fn options_by_name() {
    let list = Options::options();
    let fire = list.iter().find(|o| o.name == "fire_system").unwrap();
    assert_eq!(fire.default, "mass-fire");
    assert_eq!(fire.kind.to_string(), "one of mass-fire, type-firing");
    let mut o = Options::default();
    o.set_pair("fire_system=type-firing").unwrap();
    o.set_pair("wound_policy=campaign").unwrap();
    o.set_pair("turn_limit=6").unwrap();
    o.set_pair("leader_radius=none").unwrap();
    assert_eq!(o.fire_system, FireSystem::TypeFiring);
    assert_eq!(o.wound_policy, WoundPolicy::Campaign);
    assert_eq!(o.turn_limit, Some(6));
    assert_eq!(o.leader_radius, None);
    let before = o.clone();
    assert!(matches!(
        o.set_pair("frontal_sector_half_angle=190"),
        Err(OptionError::Refused { .. })
    ));
    assert!(matches!(
        o.set_pair("split_cavalry_dice=none"),
        Err(OptionError::Unknown { .. })
    ));
    assert_eq!(o, before);
}
