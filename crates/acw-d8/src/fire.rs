//! Fire: who may fire, arcs and range bands, dice per unit, the to-hit roll by D8, saves by D6, the whole volley's
//! casualties, artillery dice and saves, and the attached officer's risk (D8-FIR-*, D8-ART-*, D8-CAS-03).

use crate::options::Options;
use crate::tables::{
    Band, Class, Cover, FireSource, Formation, TargetKind, Weapon, save_score, to_hit_modifier,
    to_hit_need,
};
use acw_core::{Dice, Die, Dist, Resolve};

/// D8-FIR-03: the half-angle, in degrees, either side of the front a figure in `formation` may fire at (line and
/// column 22.5°, skirmishers all round), or either side of a gun's barrel (45°).
#[must_use]
pub const fn arc_half_degrees(formation: Formation, gun: bool) -> f64 {
    if gun {
        45.0
    } else {
        match formation {
            Formation::Line | Formation::Column => 22.5,
            Formation::Skirmish => 180.0,
        }
    }
}

/// D8-FIR-03, D8-ART-02, D8-MOV-12: whether a target `bearing_degrees` off the figure's front (or the gun's barrel)
/// is within the arc. A gun whose target is outside must realign, a whole move.
#[must_use]
pub fn in_arc(formation: Formation, gun: bool, bearing_degrees: f64) -> bool {
    bearing_degrees.is_finite() && bearing_degrees.abs() <= arc_half_degrees(formation, gun)
}

/// D8-FIR-05: the band of one figure's shot at `distance_cm` (base edge to base edge): short up to the short range,
/// long (−1) up to the long range, none beyond. A bow has only a long band, a shotgun only a short one.
#[must_use]
pub fn band(weapon: Weapon, distance_cm: f64, options: &Options) -> Option<Band> {
    if !(distance_cm.is_finite() && distance_cm >= 0.0) {
        return None;
    }
    let r = weapon.ranges(options.bow_short);
    if r.short.is_some_and(|s| distance_cm <= s) {
        Some(Band::Short)
    } else if r.long.is_some_and(|l| distance_cm <= l) {
        Some(Band::Long)
    } else {
        None
    }
}

/// How a firing unit stands, for its dice (D8-FIR-06).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FiringOrder {
    /// In line: a D8 a figure that can fire.
    Line,
    /// In skirmish order: a D8 per 2 figures.
    Skirmish,
    /// In column: only the front 2 may fire, 1D8 (2D8 under the option).
    Column,
    /// A large boat's shooters (at most 4): a D8 per 2 figures, or a figure under the option (D8-MOV-25).
    Boat,
    /// A battery: 2D8 (field) or 3D8 (heavy) an artilleryman (D8-ART-01).
    Battery(crate::tables::GunType),
}

/// D8-FIR-06, D8-ART-01, D8-MOV-25: the D8s rolled for `figures` figures that can fire.
#[must_use]
pub fn dice_for(order: FiringOrder, figures: u32, options: &Options) -> u32 {
    let half = |n: u32| {
        if options.skirmish_dice_round_up {
            n.div_ceil(2)
        } else {
            n / 2
        }
    };
    match order {
        FiringOrder::Line => figures,
        FiringOrder::Skirmish => half(figures),
        FiringOrder::Column => {
            let n = figures.min(2);
            if options.column_two_dice { n } else { half(n) }
        }
        FiringOrder::Boat => {
            let n = figures.min(4);
            if options.boat_dice_per_figure {
                n
            } else {
                half(n)
            }
        }
        FiringOrder::Battery(g) => figures * g.dice_per_artilleryman(),
    }
}

/// What the target is, for to-hit and saves (D8-FIR-07, D8-ART-07, D8-CMD-09).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetStance {
    /// Foot or horse in a formation.
    Troops(Formation),
    /// A battery's crew, limbered or not.
    Crew {
        /// Whether the gun is limbered.
        limbered: bool,
    },
    /// A lone officer.
    Officer,
}

/// D8-FIR-07, D8-ART-07, D8-CMD-09: the target's kind for the to-hit roll: skirmish order and unlimbered crews
/// are skirmishers, columns and limbered batteries are columns, the rest (a lone officer by default) formed.
#[must_use]
pub fn classify(stance: TargetStance, options: &Options) -> TargetKind {
    match stance {
        TargetStance::Troops(Formation::Skirmish) | TargetStance::Crew { limbered: false } => {
            TargetKind::Skirmishers
        }
        TargetStance::Troops(Formation::Column) | TargetStance::Crew { limbered: true } => {
            TargetKind::Column
        }
        TargetStance::Troops(Formation::Line) => TargetKind::Formed,
        TargetStance::Officer => {
            if options.officer_skirmisher_target {
                TargetKind::Skirmishers
            } else {
                TargetKind::Formed
            }
        }
    }
}

/// D8-FIR-11, D8-FIR-12, D8-ART-05, D8-ART-07: the D6 score that saves a hit figure, or `None` for no save. Crews
/// save as skirmishers behind soft cover or their own better cover (limbered crews as formed troops in their own
/// cover under the option). Under the "no open save" option troops in the open get none.
#[must_use]
pub fn save_for(
    source: FireSource,
    stance: TargetStance,
    cover: Cover,
    options: &Options,
) -> Option<u8> {
    let (skirmishers, cover) = match stance {
        TargetStance::Crew { limbered: true } if options.limbered_crew_formed_save => {
            (false, cover)
        }
        TargetStance::Crew { .. } => (true, cover.max(Cover::Soft)),
        TargetStance::Troops(f) => (f == Formation::Skirmish, cover),
        TargetStance::Officer => (options.officer_skirmisher_target, cover),
    };
    if cover == Cover::Open && options.no_open_save {
        None
    } else {
        Some(save_score(source, skirmishers, cover))
    }
}

/// D8-FIR-10: a group of D8s that all need the same face; the outcome is the hits, Binomial(dice, (9 − need)/8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ToHit {
    /// D8s rolled.
    pub dice: u32,
    /// The face each needs, 2 to 8 (see [`crate::tables::to_hit_need`]).
    pub need: u8,
}

impl ToHit {
    /// The chance one die hits.
    #[must_use]
    pub fn p(&self) -> f64 {
        f64::from(9u8.saturating_sub(self.need.clamp(1, 9))) / 8.0
    }
}

impl Resolve for ToHit {
    type Outcome = u32;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> u32 {
        (0..self.dice)
            .filter(|_| Die::D8.roll(dice) >= u16::from(self.need))
            .count() as u32
    }

    fn odds(&self) -> Dist<u32> {
        Dist::binomial(self.dice, self.p()).unwrap_or_else(|_| Dist::certain(0))
    }
}

/// D8-FIR-13, D8-ART-06: the save rolls for `hits` hit figures, a D6 each; the outcome is the casualties,
/// Binomial(hits, 1 − P(save)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Saves {
    /// Figures hit.
    pub hits: u32,
    /// The D6 face that saves, or `None` for no save.
    pub save: Option<u8>,
}

impl Saves {
    /// The chance a hit figure dies.
    #[must_use]
    pub fn p_fail(&self) -> f64 {
        match self.save {
            None => 1.0,
            Some(s) => f64::from(s.clamp(1, 7) - 1) / 6.0,
        }
    }
}

impl Resolve for Saves {
    type Outcome = u32;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> u32 {
        match self.save {
            None => self.hits,
            Some(s) => (0..self.hits)
                .filter(|_| Die::D6.roll(dice) < u16::from(s))
                .count() as u32,
        }
    }

    fn odds(&self) -> Dist<u32> {
        Dist::binomial(self.hits, self.p_fail()).unwrap_or_else(|_| Dist::certain(self.hits))
    }
}

/// What a volley's roll gave: hits and, after saves, casualties.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct VolleyRoll {
    /// Figures hit.
    pub hits: u32,
    /// Figures that failed their save.
    pub casualties: u32,
}

/// D8-FIR-14 (steps 3–6): a whole volley: the to-hit dice at short and long range (each group its own `need`),
/// then a D6 save for every hit. The outcome is the casualties; exactly, the sum of Binomial(dice, p_hit × p_fail)
/// over the two groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Volley {
    /// Dice at short range.
    pub short: ToHit,
    /// Dice at long range.
    pub long: ToHit,
    /// The save (one for the whole target, D8-FIR-12).
    pub save: Option<u8>,
}

impl Volley {
    /// D8-FIR-08, D8-FIR-09, D8-FIR-14: a volley by `class` firers: `short_dice` and `long_dice` D8s, with the
    /// firer's formation fail and the target's kind as modifiers, against a target saving on `save`.
    #[must_use]
    pub fn new(
        class: Class,
        firer_ff: bool,
        target: TargetKind,
        short_dice: u32,
        long_dice: u32,
        save: Option<u8>,
    ) -> Volley {
        Volley {
            short: ToHit {
                dice: short_dice,
                need: to_hit_need(class, to_hit_modifier(firer_ff, target, Band::Short)),
            },
            long: ToHit {
                dice: long_dice,
                need: to_hit_need(class, to_hit_modifier(firer_ff, target, Band::Long)),
            },
            save,
        }
    }

    /// Rolls the volley and reports hits as well as casualties.
    pub fn roll_detailed<D: Dice + ?Sized>(&self, dice: &mut D) -> VolleyRoll {
        let hits = self.short.roll(dice) + self.long.roll(dice);
        let casualties = Saves {
            hits,
            save: self.save,
        }
        .roll(dice);
        VolleyRoll { hits, casualties }
    }

    /// The chance of exactly `casualties`: `self.odds().p(&casualties)`, bit for bit, without building the
    /// whole distribution of the sum. The two groups' distributions are built as [`Resolve::odds`] builds
    /// them, and only the one term of their sum is added up, over the same products in the same order as
    /// [`Dist::add`] adds them (its dense sum, which it takes whenever the outcomes of both lie evenly spaced
    /// alike); otherwise the whole sum is built.
    #[must_use]
    pub fn p_casualties(&self, casualties: u32) -> f64 {
        let fail = Saves {
            hits: 0,
            save: self.save,
        }
        .p_fail();
        let group = |g: ToHit| casualty_group(g.dice, g.p() * fail);
        let (a, b) = (group(self.short), group(self.long));
        let (x, y) = (a.outcomes(), b.outcomes());
        let (n, m) = (x.len(), y.len());
        let even = n > 0
            && m > 0
            && (n < 2
                || m < 2
                || (x.windows(2).all(|w| w[1].0 + y[0].0 == w[0].0 + y[1].0)
                    && y.windows(2).all(|w| x[0].0 + w[1].0 == x[1].0 + w[0].0)));
        if !even {
            return a.add(&b).p(&casualties);
        }
        // The outcome of the sum's `k`th term, as the dense sum names it.
        let outcome = |k: usize| {
            let i = k.min(n - 1);
            x[i].0 + y[k - i].0
        };
        let Some(k) = (0..n + m - 1).find(|&k| outcome(k) == casualties) else {
            return 0.0;
        };
        let mut p = 0.0f64;
        for (i, &(_, pa)) in x.iter().enumerate() {
            if let Some(j) = k.checked_sub(i).filter(|&j| j < m) {
                p += pa * y[j].1;
            }
        }
        if p > 0.0 { p } else { 0.0 }
    }
}

/// [`casualty_group`]'s table: distributions by dice and chance (its bits), hashed by [`GroupKeyHasher`].
type CasualtyGroups = std::collections::HashMap<
    (u32, u64),
    std::rc::Rc<Dist<u32>>,
    std::hash::BuildHasherDefault<GroupKeyHasher>,
>;

thread_local! {
    /// [`casualty_group`]'s distributions, as worked out on this thread.
    static CASUALTY_GROUPS: std::cell::RefCell<CasualtyGroups> =
        std::cell::RefCell::new(CasualtyGroups::default());
}

/// A plain multiplicative hash of the few integers of a casualty group's key (the keys are the game's own
/// numbers, not a caller's, so no defence against chosen collisions is wanted).
#[derive(Default)]
struct GroupKeyHasher(u64);

impl std::hash::Hasher for GroupKeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// How many distributions [`casualty_group`] keeps on a thread before it starts afresh.
const CASUALTY_GROUPS_KEPT: usize = 4096;

/// The casualties of `dice` dice each killing with chance `p`: `Dist::binomial(dice, p)` (no casualty when it
/// refuses), remembered on the thread by dice and chance (the same pairs come back volley after volley), so
/// each is worked out once: the same distribution, bit for bit.
fn casualty_group(dice: u32, p: f64) -> std::rc::Rc<Dist<u32>> {
    let work = || std::rc::Rc::new(Dist::binomial(dice, p).unwrap_or_else(|_| Dist::certain(0)));
    CASUALTY_GROUPS
        .try_with(|groups| {
            let mut groups = groups.borrow_mut();
            if let Some(d) = groups.get(&(dice, p.to_bits())) {
                return d.clone();
            }
            if groups.len() >= CASUALTY_GROUPS_KEPT {
                groups.clear();
            }
            let d = work();
            groups.insert((dice, p.to_bits()), d.clone());
            d
        })
        .unwrap_or_else(|_| work())
}

impl Resolve for Volley {
    type Outcome = u32;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> u32 {
        self.roll_detailed(dice).casualties
    }

    fn odds(&self) -> Dist<u32> {
        let fail = Saves {
            hits: 0,
            save: self.save,
        }
        .p_fail();
        let group =
            |g: ToHit| Dist::binomial(g.dice, g.p() * fail).unwrap_or_else(|_| Dist::certain(0));
        group(self.short).add(&group(self.long))
    }
}

/// D8-CAS-03: the attached officer's check when his unit takes casualties from fire: none for 0–1, a D6 then a
/// second on a 1 (1/36) for exactly 2, on 1–2 twice (1/9) for 3 or more. The outcome: he is killed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct OfficerCheck {
    /// The unit's casualties from fire (the Firing phase by default, one volley under the option).
    pub casualties: u32,
}

impl OfficerCheck {
    fn worst(&self) -> Option<u16> {
        match self.casualties {
            0 | 1 => None,
            2 => Some(1),
            _ => Some(2),
        }
    }
}

impl Resolve for OfficerCheck {
    type Outcome = bool;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> bool {
        match self.worst() {
            None => false,
            Some(w) => Die::D6.roll(dice) <= w && Die::D6.roll(dice) <= w,
        }
    }

    fn odds(&self) -> Dist<bool> {
        let p = self.worst().map_or(0.0, |w| (f64::from(w) / 6.0).powi(2));
        Dist::chance(p).unwrap_or_else(|_| Dist::certain(false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A remembered casualty group is `Dist::binomial` (no casualty when it refuses), bit for bit, each time it
    /// is asked for: every count of dice to 40 at 120 chances (more pairs than are kept, so the memory starts
    /// afresh on the way), twice over, and refused chances.
    #[test]
    fn remembered_casualty_groups_are_the_binomials() {
        let bits = |d: &Dist<u32>| -> Vec<(u32, u64)> {
            d.outcomes()
                .iter()
                .map(|&(k, p)| (k, p.to_bits()))
                .collect()
        };
        for round in 0..2 {
            for dice in 0..=40 {
                for step in 0..120 {
                    let p = f64::from(step) / 119.0 * (1.0 - 1e-3 * f64::from(round));
                    let want = Dist::binomial(dice, p).unwrap_or_else(|_| Dist::certain(0));
                    assert_eq!(bits(&casualty_group(dice, p)), bits(&want), "{dice} at {p}");
                }
            }
        }
        for p in [f64::NAN, -0.5, 1.5] {
            assert_eq!(bits(&casualty_group(3, p)), bits(&Dist::certain(0)), "{p}");
        }
    }
}
