//! Shared test helpers.
#![allow(dead_code, clippy::unwrap_used)]

use acw_core::Side;
use acw_hardtack::state::{CompanySpec, Formation};
use acw_hardtack::{Battle, CompanyId, Options};

/// A battle with a Union company and a Confederate company, the Union one activated.
pub fn two(
    options: Options,
    union: (usize, Formation),
    rebels: (usize, Formation),
) -> (Battle, CompanyId, CompanyId) {
    let mut b = Battle::new(options);
    let mut u = CompanySpec::new("1st Minnesota, Company A", Side::Union, union.0);
    u.formation = union.1;
    let mut c = CompanySpec::new("8th Alabama, Company C", Side::Confederate, rebels.0);
    c.formation = rebels.1;
    let a = b.add_company(u).unwrap();
    let r = b.add_company(c).unwrap();
    b.activate(a).unwrap();
    (b, a, r)
}
