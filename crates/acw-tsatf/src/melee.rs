//! Charges and close combat: stragglers and the 50% halt, the close-to-combat / stand-and-fight / rally test,
//! catching fleeing troops, figure-against-figure combat with its modifiers, the whole melee as an exact
//! Markov chain of rounds, and colours.

use crate::options::{AssaultColumn, IndiansLine, MeleeWoundAsMiss, Options, Tie, WoundPolicy};
use crate::tables::{self, MeleeColumn, MeleeRow, Quality};
use acw_core::{Dice, Die, Dist, Resolve};
use std::fmt;

/// The 1D6 Close to Combat / Stand and Fight / Rally test (TSATF-MEL-08, TSATF-MEL-10, TSATF-MOR-10): passed
/// when the die plus the modifier is at most the chart's number; "Always" passes without a roll (unless
/// [`Options::always_ignores_mods`] is off, when it reads 1–6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[must_use]
pub struct CloseTest {
    /// The top of the passing range, `None` for "Always".
    pub score: Option<u8>,
    /// The net test modifier (TSATF-MOR-14); positive is worse.
    pub modifier: i8,
    /// "Always" ignores modifiers.
    pub always_ignores_mods: bool,
}

impl CloseTest {
    /// The test for a unit's class and leader (TSATF-MEL-08): Indians read the Green line by default.
    pub fn new(quality: Quality, with_leader: bool, modifier: i8, options: &Options) -> CloseTest {
        let line = match (quality, options.indians_line) {
            (Quality::Indians, IndiansLine::Veteran) => Quality::Veteran,
            (Quality::Indians, _) => Quality::Green,
            (q, _) => q,
        };
        CloseTest {
            score: tables::close_combat_score(line, with_leader),
            modifier,
            always_ignores_mods: options.always_ignores_mods,
        }
    }

    fn automatic(&self) -> bool {
        self.score.is_none() && self.always_ignores_mods
    }

    fn pass(&self, face: u16) -> bool {
        let top = i16::from(self.score.unwrap_or(6));
        face as i16 + i16::from(self.modifier) <= top
    }
}

impl Resolve for CloseTest {
    type Outcome = bool;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> bool {
        self.automatic() || self.pass(dice.face(Die::D6))
    }
    fn odds(&self) -> Dist<bool> {
        if self.automatic() {
            Dist::certain(true)
        } else {
            Dist::die(Die::D6).map(|&f| self.pass(f as u16))
        }
    }
}

/// The straggler roll and the 50% halt (TSATF-MEL-02, TSATF-MEL-06): 1D6 figures of those who may straggle
/// stay behind; the charge halts if those still charging are half the unit's starting strength or fewer. The
/// outcome is (stragglers, halted).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[must_use]
pub struct StragglerRoll {
    /// Figures about to charge.
    pub charging: u16,
    /// Of them, the enlisted and key figures who may straggle (cadre never do).
    pub may_straggle: u16,
    /// The unit's starting strength (TSATF-MOR-13).
    pub starting: u16,
}

impl StragglerRoll {
    fn read(&self, face: u16) -> (u16, bool) {
        let s = face.min(self.may_straggle);
        let left = self.charging.saturating_sub(s);
        (s, 2 * u32::from(left) <= u32::from(self.starting))
    }
}

impl Resolve for StragglerRoll {
    type Outcome = (u16, bool);
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> (u16, bool) {
        self.read(dice.face(Die::D6))
    }
    fn odds(&self) -> Dist<(u16, bool)> {
        Dist::die(Die::D6).map(|&f| self.read(f as u16))
    }
}

/// Whether chargers catch a fleeing unit (TSATF-MEL-11, TSATF-MEL-21, without table geometry): the fleeing unit
/// started 1" away and flees 4D6; it is caught when the chargers' unused movement is at least 1" more than
/// its flight. The outcome is (caught, flight in inches).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[must_use]
pub struct CatchRoll {
    /// The chargers' unused movement in inches (TSATF-MEL-03).
    pub unused: f64,
}

impl CatchRoll {
    fn read(&self, flight: u32) -> (bool, u32) {
        (
            self.unused >= tables::CONTACT_DISTANCE + f64::from(flight),
            flight,
        )
    }
}

impl Resolve for CatchRoll {
    type Outcome = (bool, u32);
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> (bool, u32) {
        self.read(crate::movement::Flight.roll(dice))
    }
    fn odds(&self) -> Dist<(bool, u32)> {
        crate::movement::Flight.odds().map(|&f| self.read(f))
    }
}

/// What losing a combat does to the loser, by its unmodified die (TSATF-MEL-16).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::EnumIter, strum::Display,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Loss {
    /// 1 or 2: killed.
    #[strum(to_string = "killed")]
    Killed,
    /// 3 or 4: wounded.
    #[strum(to_string = "wounded")]
    Wounded,
    /// 5 or 6: pushed back 6".
    #[strum(to_string = "pushed back")]
    PushedBack,
}

impl Loss {
    /// The loss an unmodified die gives (TSATF-MEL-16).
    #[must_use]
    pub const fn of(face: u16) -> Loss {
        match face {
            0..=2 => Loss::Killed,
            3 | 4 => Loss::Wounded,
            _ => Loss::PushedBack,
        }
    }
}

/// One combat between two figures, from the first figure's side (TSATF-MEL-15).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Bout {
    /// The first figure won; the other suffers this.
    Won(Loss),
    /// Equal totals.
    Tie,
    /// The first figure lost and suffers this.
    Lost(Loss),
}

impl fmt::Display for Bout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bout::Won(l) => write!(f, "won; the enemy figure is {l}"),
            Bout::Tie => f.write_str("tied"),
            Bout::Lost(l) => write!(f, "lost and is {l}"),
        }
    }
}

/// One figure-against-figure combat (TSATF-MEL-15, TSATF-MEL-16): both roll 1D6 and add modifiers; the higher
/// total wins, the loser's unmodified die says what happens to him. `modifier` is the first figure's total
/// modifier less the second's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[must_use]
pub struct Combat {
    /// The first figure's modifier less the second's.
    pub modifier: i8,
}

impl Combat {
    /// The bout two faces give.
    #[must_use]
    pub fn bout(&self, a: u16, b: u16) -> Bout {
        let diff = a as i16 + i16::from(self.modifier) - b as i16;
        match diff {
            0 => Bout::Tie,
            d if d > 0 => Bout::Won(Loss::of(b)),
            _ => Bout::Lost(Loss::of(a)),
        }
    }
}

impl Resolve for Combat {
    type Outcome = Bout;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> Bout {
        let a = dice.face(Die::D6);
        let b = dice.face(Die::D6);
        self.bout(a, b)
    }
    fn odds(&self) -> Dist<Bout> {
        Dist::die(Die::D6)
            .product(&Dist::die(Die::D6))
            .map(|&(a, b)| self.bout(a as u16, b as u16))
    }
}

/// How a unit defends, for the close-combat modifiers (TSATF-MEL-19).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Defending {
    /// Not defending: the unit charged.
    #[strum(to_string = "attacking")]
    No,
    /// In open or skirmish order.
    #[strum(to_string = "in open order")]
    OpenOrder,
    /// In close order (a line, or a column).
    #[strum(to_string = "in close order")]
    CloseOrder,
}

/// What applies to one side of a melee, for the close-combat modifiers (TSATF-MEL-18, TSATF-MEL-19,
/// TSATF-MEL-26).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MeleeFacts {
    /// The chart row (dismounted cavalry use their class's infantry row).
    pub row: MeleeRow,
    /// The side charged this turn.
    pub charging: bool,
    /// The enemy is infantry (on foot), for cavalry's charge bonus.
    pub enemy_infantry: bool,
    /// How the side defends.
    pub defending: Defending,
    /// The side is in assault or march column.
    pub in_column: bool,
    /// The side defends behind cover.
    pub cover: bool,
    /// The side was charged in flank or rear (or is routed or caught fleeing).
    pub flank_or_rear: bool,
    /// The side fights from on top of an obstacle (−1).
    pub on_obstacle: bool,
}

/// The side's close-combat modifier, before the +1 of each officer and NCO (TSATF-MEL-18, TSATF-MEL-19,
/// TSATF-MEL-26): every column that applies is added, "–" reading 0 (or Crack's as −1 under
/// [`Options::crack_dash_as_minus1`]); cavalry's charge bonus counts only against infantry; the assault column
/// adds to charging, or under [`AssaultColumn::AttackOnlyReplacesCharging`] replaces it for chargers only.
#[must_use]
pub fn side_modifier(f: MeleeFacts, options: &Options) -> i8 {
    let cell = |c: MeleeColumn| -> i8 {
        match f.row.cell(c) {
            Some(v) => v,
            None if f.row == MeleeRow::CrackInfantry && options.crack_dash_as_minus1 => -1,
            None => 0,
        }
    };
    let mut m = 0i8;
    let charge = if f.charging && (f.row != MeleeRow::Cavalry || f.enemy_infantry) {
        cell(MeleeColumn::Charging)
    } else {
        0
    };
    let column = cell(MeleeColumn::AssaultColumn);
    match options.assault_column {
        AssaultColumn::AttackOnlyReplacesCharging => {
            m += if f.charging && f.in_column {
                charge.max(column)
            } else {
                charge
            };
        }
        _ => {
            m += charge;
            if f.in_column {
                m += column;
            }
        }
    }
    m += match f.defending {
        Defending::No => 0,
        Defending::OpenOrder => cell(MeleeColumn::DefendingOpen),
        Defending::CloseOrder => cell(MeleeColumn::DefendingClose),
    };
    if f.cover {
        m += cell(MeleeColumn::DefendingCover);
    }
    if f.flank_or_rear {
        m += cell(MeleeColumn::FlankOrRear);
    }
    if f.on_obstacle {
        m -= 1;
    }
    m
}

/// One side of a melee: its officers and NCOs (each +1, TSATF-MEL-20), its other fighting figures, its
/// modifier, and the order it puts them in the front rank (TSATF-MEL-14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MeleeSide {
    /// Officers and NCOs fighting.
    pub cadre: u8,
    /// Other figures fighting.
    pub others: u8,
    /// The side's modifier ([`side_modifier`]).
    pub modifier: i8,
    /// The owner puts the cadre in the front rank first (the default) or keeps them as the last reserves.
    pub cadre_first: bool,
}

impl MeleeSide {
    fn total(&self) -> u16 {
        u16::from(self.cadre) + u16::from(self.others)
    }
}

/// Which side of a melee.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Party {
    /// The chargers.
    #[strum(to_string = "the attackers")]
    Attackers,
    /// The charged.
    #[strum(to_string = "the defenders")]
    Defenders,
}

/// How a melee ends (TSATF-MEL-17): the side left in possession and how many of its figures are still
/// fighting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MeleeOutcome {
    /// The winners.
    pub winner: Party,
    /// Winning figures still in the fight.
    pub left: u16,
}

impl fmt::Display for MeleeOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} win with {} figures still fighting",
            self.winner, self.left
        )
    }
}

/// Losses of one side of a melee, by kind and by cadre (index 0) or other figures (index 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MeleeLosses {
    /// Killed.
    pub killed: [u8; 2],
    /// Wounded (tracked in campaign games; under one-off policies these are counted as killed or not at all).
    pub wounded: [u8; 2],
    /// Pushed back out of the fight.
    pub pushed_back: [u8; 2],
}

impl MeleeLosses {
    fn add(&mut self, cat: usize, loss: Loss) {
        let slot = match loss {
            Loss::Killed => &mut self.killed[cat],
            Loss::Wounded => &mut self.wounded[cat],
            Loss::PushedBack => &mut self.pushed_back[cat],
        };
        *slot += 1;
    }

    /// Figures out of the fight, of cadre (0) or others (1).
    #[must_use]
    pub fn out(&self, cat: usize) -> u8 {
        self.killed[cat] + self.wounded[cat] + self.pushed_back[cat]
    }
}

/// A whole melee fought out round by round: the losses of each side and the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MeleeTally {
    /// How it ended.
    pub outcome: MeleeOutcome,
    /// The attackers' losses.
    pub attackers: MeleeLosses,
    /// The defenders' losses.
    pub defenders: MeleeLosses,
    /// Rounds fought.
    pub rounds: u16,
}

/// What a wound in melee does (TSATF-MEL-16, TSATF-SET-07).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum MeleeWound {
    /// The figure is wounded and leaves (campaign).
    Wounded,
    /// The figure is killed (one-off, wounds as kills).
    Killed,
    /// Nothing: the figure fights on (one-off, wounds as misses).
    NoEffect,
    /// The figure is pushed back (one-off, wounds as misses, option).
    PushedBack,
}

impl MeleeWound {
    /// The reading of a wound under the options.
    #[must_use]
    pub fn of(options: &Options) -> MeleeWound {
        match options.wound_policy {
            WoundPolicy::Campaign => MeleeWound::Wounded,
            WoundPolicy::WoundsAsKills => MeleeWound::Killed,
            WoundPolicy::WoundsAsMisses => match options.melee_wound_as_miss {
                MeleeWoundAsMiss::PushedBack => MeleeWound::PushedBack,
                _ => MeleeWound::NoEffect,
            },
        }
    }

    fn apply(self, loss: Loss) -> Option<Loss> {
        match (loss, self) {
            (Loss::Wounded, MeleeWound::Wounded) => Some(Loss::Wounded),
            (Loss::Wounded, MeleeWound::Killed) => Some(Loss::Killed),
            (Loss::Wounded, MeleeWound::NoEffect) => None,
            (Loss::Wounded, MeleeWound::PushedBack) => Some(Loss::PushedBack),
            (l, _) => Some(l),
        }
    }
}

/// A whole melee (TSATF-MEL-14, TSATF-MEL-17): each round the figures are paired one against one in the
/// owners' order, the rest waiting as reserves; every pair fights ([`Combat`]); those killed, wounded or
/// pushed back leave, reserves step in, and the rounds go on until one side has no one left fighting. The
/// exact odds come from a Markov chain over (cadre and others left on each side).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[must_use]
pub struct Melee {
    /// The chargers.
    pub attackers: MeleeSide,
    /// The charged.
    pub defenders: MeleeSide,
    /// What a tie does.
    pub tie: Tie,
    /// What a wound does.
    pub wound: MeleeWound,
    /// Figures left over fight an enemy already paired instead of waiting ([`Options::melee_overlap`]).
    pub overlap: bool,
    /// The most pairs that fight at once: across an obstacle, the attacking figures the obstacle holds
    /// (TSATF-MEL-26); the rest wait as reserves and step onto it as places come free. [`u16::MAX`]: no limit.
    #[cfg_attr(feature = "serde", serde(default = "no_limit"))]
    pub front: u16,
}

#[cfg(feature = "serde")]
fn no_limit() -> u16 {
    u16::MAX
}

/// The most rounds a rolled melee fights before it is called for the side with more figures left (a safety
/// net against a faulted dice source; the exact odds have no such limit).
const MAX_ROUNDS: u16 = 10_000;

/// Counts of pairs by category: [attacker cadre?0:1][defender cadre?0:1], at most `front` pairs (TSATF-MEL-14:
/// one against one in each side's order, the rest reserves).
fn pairs(a: (u8, u8, bool), d: (u8, u8, bool), front: u16) -> [[u8; 2]; 2] {
    // each side's fighting order as runs of (category, count)
    let runs = |c: u8, o: u8, first: bool| -> [(usize, u8); 2] {
        if first {
            [(0, c), (1, o)]
        } else {
            [(1, o), (0, c)]
        }
    };
    let (ra, rd) = (runs(a.0, a.1, a.2), runs(d.0, d.1, d.2));
    let n = (u16::from(a.0) + u16::from(a.1))
        .min(u16::from(d.0) + u16::from(d.1))
        .min(front);
    let mut out = [[0u8; 2]; 2];
    let (mut ia, mut id, mut la, mut ld) = (0usize, 0usize, ra[0].1, rd[0].1);
    let mut placed = 0u16;
    while placed < n {
        while la == 0 {
            ia += 1;
            la = ra[ia].1;
        }
        while ld == 0 {
            id += 1;
            ld = rd[id].1;
        }
        let k = la.min(ld).min(u8::try_from(n - placed).unwrap_or(u8::MAX));
        out[ra[ia].0][rd[id].0] += k;
        la -= k;
        ld -= k;
        placed += u16::from(k);
    }
    out
}

impl Melee {
    /// The melee of two sides under the options' tie and wound readings.
    pub fn new(attackers: MeleeSide, defenders: MeleeSide, options: &Options) -> Melee {
        Melee {
            attackers,
            defenders,
            tie: options.tie,
            wound: MeleeWound::of(options),
            overlap: options.melee_overlap,
            front: u16::MAX,
        }
    }

    /// The same melee with at most `front` pairs fighting at once (at least one): the attacking figures an
    /// obstacle holds (TSATF-MEL-26).
    pub fn with_front(self, front: u16) -> Melee {
        Melee {
            front: front.max(1),
            ..self
        }
    }

    /// Whether the round of `na` attackers and `nd` defenders fights with overlapping pairs: under the option,
    /// when the sides differ and every figure of both finds a place on the obstacle (if there is one).
    fn overlapping(&self, na: u16, nd: u16) -> bool {
        self.overlap && na != nd && na.max(nd) <= self.front
    }

    /// A bout of attacker category `ca` against defender category `cd`, a tie rerolled under the option.
    fn bout<D: Dice + ?Sized>(&self, ca: usize, cd: usize, dice: &mut D) -> Bout {
        let c = Combat {
            modifier: self.pair_modifier(ca, cd),
        };
        let mut bout = c.roll(dice);
        while bout == Bout::Tie && self.tie == Tie::Reroll && dice.fault().is_none() {
            bout = c.roll(dice);
        }
        bout
    }

    fn pair_modifier(&self, ca: usize, cd: usize) -> i8 {
        let a = self.attackers.modifier.saturating_add(i8::from(ca == 0));
        let d = self.defenders.modifier.saturating_add(i8::from(cd == 0));
        a.saturating_sub(d)
    }

    /// The chance that a pair of (attacker category, defender category) removes the defender, removes the
    /// attacker, or neither.
    fn pair_odds(&self, ca: usize, cd: usize) -> (f64, f64, f64) {
        let c = Combat {
            modifier: self.pair_modifier(ca, cd),
        };
        let (mut d_out, mut a_out, mut tie) = (0.0, 0.0, 0.0);
        for a in 1..=6u16 {
            for b in 1..=6u16 {
                match c.bout(a, b) {
                    Bout::Won(l) if self.wound.apply(l).is_some() => d_out += 1.0 / 36.0,
                    Bout::Lost(l) if self.wound.apply(l).is_some() => a_out += 1.0 / 36.0,
                    Bout::Tie => tie += 1.0 / 36.0,
                    _ => {}
                }
            }
        }
        // a tie rerolled at once is the bout conditioned on not tying
        if self.tie == Tie::Reroll && tie < 1.0 {
            d_out /= 1.0 - tie;
            a_out /= 1.0 - tie;
        }
        // a tie rerolled leaves no chance of neither; rounding must not make it negative, or the chain's
        // weights go below zero
        (d_out, a_out, (1.0 - d_out - a_out).max(0.0))
    }

    /// Fights the melee out with faces from `dice`, keeping every loss (allocation-free).
    pub fn fight<D: Dice + ?Sized>(&self, dice: &mut D) -> MeleeTally {
        let mut a = self.attackers;
        let mut d = self.defenders;
        let mut la = MeleeLosses::default();
        let mut ld = MeleeLosses::default();
        let mut rounds = 0u16;
        while a.total() > 0 && d.total() > 0 && rounds < MAX_ROUNDS && dice.fault().is_none() {
            rounds += 1;
            let mut out_a = [0u8; 2];
            let mut out_d = [0u8; 2];
            let (na, nd) = (a.total(), d.total());
            if self.overlapping(na, nd) {
                // every figure fights: the extras of the larger side join the smaller side's figures in turn,
                // and a figure facing several rolls against each and suffers the worst of its losses
                let a_small = na < nd;
                let (ns, nl) = if a_small { (na, nd) } else { (nd, na) };
                for j in 0..ns {
                    let fc = if a_small {
                        cat_at(&a, j)
                    } else {
                        cat_at(&d, j)
                    };
                    let mut worst: Option<Loss> = None;
                    let mut k = j;
                    while k < nl {
                        let oc = if a_small {
                            cat_at(&d, k)
                        } else {
                            cat_at(&a, k)
                        };
                        let (ca, cd) = if a_small { (fc, oc) } else { (oc, fc) };
                        match self.bout(ca, cd, dice) {
                            Bout::Won(l) => {
                                if let Some(l) = self.wound.apply(l) {
                                    if a_small {
                                        ld.add(oc, l);
                                        out_d[oc] += 1;
                                    } else {
                                        worst = Some(worst.map_or(l, |w| w.min(l)));
                                    }
                                }
                            }
                            Bout::Lost(l) => {
                                if let Some(l) = self.wound.apply(l) {
                                    if a_small {
                                        worst = Some(worst.map_or(l, |w| w.min(l)));
                                    } else {
                                        la.add(oc, l);
                                        out_a[oc] += 1;
                                    }
                                }
                            }
                            Bout::Tie => {}
                        }
                        k += ns;
                    }
                    if let Some(l) = worst {
                        if a_small {
                            la.add(fc, l);
                            out_a[fc] += 1;
                        } else {
                            ld.add(fc, l);
                            out_d[fc] += 1;
                        }
                    }
                }
            } else {
                let p = pairs(
                    (a.cadre, a.others, a.cadre_first),
                    (d.cadre, d.others, d.cadre_first),
                    self.front,
                );
                for (ca, row) in p.iter().enumerate() {
                    for (cd, &n) in row.iter().enumerate() {
                        for _ in 0..n {
                            match self.bout(ca, cd, dice) {
                                Bout::Won(l) => {
                                    if let Some(l) = self.wound.apply(l) {
                                        ld.add(cd, l);
                                        out_d[cd] += 1;
                                    }
                                }
                                Bout::Lost(l) => {
                                    if let Some(l) = self.wound.apply(l) {
                                        la.add(ca, l);
                                        out_a[ca] += 1;
                                    }
                                }
                                Bout::Tie => {}
                            }
                        }
                    }
                }
            }
            a.cadre -= out_a[0];
            a.others -= out_a[1];
            d.cadre -= out_d[0];
            d.others -= out_d[1];
        }
        // a melee cut short (a faulted source, the round limit) goes to the side with more figures left
        let outcome = if a.total() > 0 && (d.total() == 0 || a.total() > d.total()) {
            MeleeOutcome {
                winner: Party::Attackers,
                left: a.total(),
            }
        } else {
            MeleeOutcome {
                winner: Party::Defenders,
                left: d.total(),
            }
        };
        MeleeTally {
            outcome,
            attackers: la,
            defenders: ld,
            rounds,
        }
    }

    /// One round's removals with overlapping pairs (option): each figure of the smaller side fights the
    /// figures of the larger side assigned to it, and leaves if it loses any of those bouts; the groups are
    /// independent, so their removals are convolved.
    fn overlap_round(
        &self,
        s: [u8; 4],
        odds: &[[(f64, f64, f64); 2]; 2],
        moves: &mut Vec<([u8; 4], f64)>,
    ) {
        let sides = (
            MeleeSide {
                cadre: s[0],
                others: s[1],
                ..self.attackers
            },
            MeleeSide {
                cadre: s[2],
                others: s[3],
                ..self.defenders
            },
        );
        let (na, nd) = (sides.0.total(), sides.1.total());
        let a_small = na < nd;
        let (ns, nl) = if a_small { (na, nd) } else { (nd, na) };
        let (small, large) = if a_small {
            (&sides.0, &sides.1)
        } else {
            (&sides.1, &sides.0)
        };
        let dims = s.map(|x| x as usize + 1);
        let size = dims.iter().product::<usize>();
        let idx = |v: [usize; 4]| ((v[0] * dims[1] + v[1]) * dims[2] + v[2]) * dims[3] + v[3];
        let mut acc = vec![0.0f64; size];
        acc[0] = 1.0;
        for j in 0..ns {
            let fc = cat_at(small, j);
            // (opponents out by category, the focal figure out, probability)
            let mut group: Vec<([u8; 2], bool, f64)> = vec![([0, 0], false, 1.0)];
            let mut k = j;
            while k < nl {
                let oc = cat_at(large, k);
                let (d_out, a_out, _) = if a_small { odds[fc][oc] } else { odds[oc][fc] };
                let (p_opp, p_focal) = if a_small {
                    (d_out, a_out)
                } else {
                    (a_out, d_out)
                };
                let p_none = 1.0 - p_opp - p_focal;
                let mut next: Vec<([u8; 2], bool, f64)> = Vec::with_capacity(group.len() * 3);
                let mut put = |o: [u8; 2], f: bool, p: f64| {
                    if p == 0.0 {
                        return;
                    }
                    match next.iter_mut().find(|e| e.0 == o && e.1 == f) {
                        Some(e) => e.2 += p,
                        None => next.push((o, f, p)),
                    }
                };
                for &(o, f, p) in &group {
                    let mut up = o;
                    up[oc] += 1;
                    put(up, f, p * p_opp);
                    put(o, true, p * p_focal);
                    put(o, f, p * p_none);
                }
                group = next;
                k += ns;
            }
            let mut next = vec![0.0f64; size];
            for (i, &w) in acc.iter().enumerate() {
                if w == 0.0 {
                    continue;
                }
                let mut v = [0usize; 4];
                let mut r = i;
                for q in (0..4).rev() {
                    v[q] = r % dims[q];
                    r /= dims[q];
                }
                for &(o, f, p) in &group {
                    let mut u = v;
                    let (mine, theirs) = if a_small { (0, 2) } else { (2, 0) };
                    u[mine + fc] += usize::from(f);
                    u[theirs] += usize::from(o[0]);
                    u[theirs + 1] += usize::from(o[1]);
                    if u.iter().zip(dims.iter()).all(|(a, b)| a < b) {
                        next[idx(u)] += w * p;
                    }
                }
            }
            acc = next;
        }
        moves.clear();
        for (i, &w) in acc.iter().enumerate() {
            if w == 0.0 {
                continue;
            }
            let mut v = [0u8; 4];
            let mut r = i;
            for q in (0..4).rev() {
                v[q] = (r % dims[q]) as u8;
                r /= dims[q];
            }
            moves.push((v, w));
        }
    }

    /// The exact distribution of the end state (cadre and others left on each side) — the Markov chain.
    ///
    /// States only lose figures, so they are visited from the most figures down, each passing its probability
    /// on to the states one round can reach; a round in which nobody leaves (all ties, or wounds that do
    /// nothing) is a self-loop, removed by conditioning on leaving. A round's removals are, for each kind of pair
    /// (officer or not on either side), a trinomial of (attackers out, defenders out, neither); the trinomials are
    /// computed once per kind and count.
    #[must_use]
    pub fn end_states(&self) -> Dist<[u8; 4]> {
        let start = [
            self.attackers.cadre,
            self.attackers.others,
            self.defenders.cadre,
            self.defenders.others,
        ];
        let dims = start.map(|x| x as usize + 1);
        let size = dims.iter().product::<usize>();
        let idx = |v: [u8; 4]| {
            ((v[0] as usize * dims[1] + v[1] as usize) * dims[2] + v[2] as usize) * dims[3]
                + v[3] as usize
        };
        let odds = [
            [self.pair_odds(0, 0), self.pair_odds(0, 1)],
            [self.pair_odds(1, 0), self.pair_odds(1, 1)],
        ];
        // trinomials[ca][cd][n]: the nonzero (attackers out, defenders out, probability) of n pairs of that kind
        let most = (usize::from(start[0]) + usize::from(start[1]))
            .min(usize::from(start[2]) + usize::from(start[3]));
        let mut trinomials: [[Vec<Trinomial>; 2]; 2] = Default::default();
        for (ca, row) in trinomials.iter_mut().enumerate() {
            for (cd, list) in row.iter_mut().enumerate() {
                let (pd, pa, pn) = odds[ca][cd];
                let mut t = vec![vec![0.0f64; most + 1]; most + 1];
                t[0][0] = 1.0;
                list.push(vec![(0, 0, 1.0)]);
                for n in 1..=most {
                    let mut next = vec![vec![0.0f64; most + 1]; most + 1];
                    for x in 0..n {
                        for y in 0..n - x {
                            let w = t[x][y];
                            if w != 0.0 {
                                next[x][y] += w * pn;
                                next[x + 1][y] += w * pa;
                                next[x][y + 1] += w * pd;
                            }
                        }
                    }
                    t = next;
                    let entries: Trinomial = t
                        .iter()
                        .enumerate()
                        .flat_map(|(x, row)| {
                            row.iter()
                                .enumerate()
                                .filter(|&(_, &w)| w != 0.0)
                                .map(move |(y, &w)| (x as u8, y as u8, w))
                        })
                        .collect();
                    list.push(entries);
                }
            }
        }
        let mut mass = vec![0.0f64; size];
        mass[idx(start)] = 1.0;
        let mut ends: Vec<([u8; 4], f64)> = Vec::new();
        let total: usize = start.iter().map(|&x| x as usize).sum();
        let mut moves: Vec<([u8; 4], f64)> = Vec::new();
        let mut grown: Vec<([u8; 4], f64)> = Vec::new();
        for sum in (0..=total).rev() {
            for a0 in 0..=start[0] {
                for a1 in 0..=start[1] {
                    for d0 in 0..=start[2] {
                        let used = a0 as usize + a1 as usize + d0 as usize;
                        if used > sum || sum - used > start[3] as usize {
                            continue;
                        }
                        let s = [a0, a1, d0, (sum - used) as u8];
                        let w = mass[idx(s)];
                        if w == 0.0 {
                            continue;
                        }
                        if (s[0] == 0 && s[1] == 0) || (s[2] == 0 && s[3] == 0) {
                            ends.push((s, w));
                            continue;
                        }
                        let (na, nd) = (
                            u16::from(s[0]) + u16::from(s[1]),
                            u16::from(s[2]) + u16::from(s[3]),
                        );
                        if self.overlapping(na, nd) {
                            self.overlap_round(s, &odds, &mut moves);
                        } else {
                            let p = pairs(
                                (s[0], s[1], self.attackers.cadre_first),
                                (s[2], s[3], self.defenders.cadre_first),
                                self.front,
                            );
                            // the removals of the round, kind by kind: [a cadre, a others, d cadre, d others]
                            moves.clear();
                            moves.push(([0; 4], 1.0));
                            for (ca, row) in p.iter().enumerate() {
                                for (cd, &n) in row.iter().enumerate() {
                                    if n == 0 {
                                        continue;
                                    }
                                    let list = &trinomials[ca][cd][usize::from(n)];
                                    grown.clear();
                                    for &(lost, q) in &moves {
                                        for &(x, y, r) in list {
                                            let mut l = lost;
                                            l[ca] += x;
                                            l[2 + cd] += y;
                                            grown.push((l, q * r));
                                        }
                                    }
                                    std::mem::swap(&mut moves, &mut grown);
                                }
                            }
                        }
                        let stay: f64 = moves
                            .iter()
                            .filter(|(l, _)| *l == [0; 4])
                            .map(|(_, q)| q)
                            .sum();
                        let leave = 1.0 - stay;
                        if leave <= 0.0 {
                            ends.push((s, w));
                            continue;
                        }
                        for &(lost, q) in &moves {
                            if lost != [0; 4] {
                                let next = [0, 1, 2, 3].map(|k| s[k] - lost[k]);
                                mass[idx(next)] += w * q / leave;
                            }
                        }
                    }
                }
            }
        }
        Dist::weighted(ends).unwrap_or_else(|_| Dist::certain(start))
    }
}

/// The category (0 an officer or NCO, 1 another figure) at a place in a side's fighting order.
fn cat_at(side: &MeleeSide, place: u16) -> usize {
    if side.cadre_first {
        usize::from(place >= u16::from(side.cadre))
    } else {
        usize::from(place < u16::from(side.others))
    }
}

/// The nonzero (attackers out, defenders out, probability) of a number of pairs of one kind.
type Trinomial = Vec<(u8, u8, f64)>;

fn outcome_of(s: [u8; 4]) -> MeleeOutcome {
    let (a, d) = (
        u16::from(s[0]) + u16::from(s[1]),
        u16::from(s[2]) + u16::from(s[3]),
    );
    if d == 0 && a > 0 {
        MeleeOutcome {
            winner: Party::Attackers,
            left: a,
        }
    } else {
        MeleeOutcome {
            winner: Party::Defenders,
            left: d,
        }
    }
}

impl Resolve for Melee {
    type Outcome = MeleeOutcome;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> MeleeOutcome {
        self.fight(dice).outcome
    }
    fn odds(&self) -> Dist<MeleeOutcome> {
        self.end_states().map(|&s| outcome_of(s))
    }
}

/// The colours roll after a melee lost by the unit carrying them, and the recovery roll (TSATF-MEL-23,
/// TSATF-MEL-24): 4, 5 or 6 on 1D6.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[must_use]
pub struct ColoursRoll;

impl Resolve for ColoursRoll {
    type Outcome = bool;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> bool {
        dice.face(Die::D6) >= 4
    }
    fn odds(&self) -> Dist<bool> {
        Dist::die(Die::D6).map(|&f| f >= 4)
    }
}
