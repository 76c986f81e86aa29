//! Close assault: the attacker's and defender's tests, close-combat dice with open shifts, the melee fought
//! round by round to its end, downed figures' fates, and the whole assault as one exact procedure.

use crate::casualties::{HorseOrRider, Struck};
use crate::ladder::{DieType, OpenShift};
use crate::morale::{Confidence, ConfidenceTest, ReactionTest};
use crate::movement::{CombatMove, MoveResult};
use crate::options::AssaultTestCasualties;
use crate::options::TwoLevelDrop;
use crate::tables::{ConfidenceLevel, Leadership, MeleeWeapon};
use acw_core::{Dice, Die, Dist, Resolve};
use std::fmt;

/// Why a company may not close assault (HT-MEL-02).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AssaultBar {
    /// Shaken: it must be rallied to Steady first.
    Shaken,
    /// Broken or Routed.
    BrokenOrRouted,
}

impl fmt::Display for AssaultBar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AssaultBar::Shaken => {
                "a Shaken company must be rallied to Steady before it may assault"
            }
            AssaultBar::BrokenOrRouted => "Broken and Routed companies may not assault",
        })
    }
}

/// The attacker's reaction-test threat level (HT-SG2-35, HT-MEL-02, HT-MEL-03): Confident 0, Steady +1;
/// −1 in close formation; +1 once a combined-assault partner has dropped out (HT-SG2-42). Shaken and worse
/// may not assault.
pub fn attacker_tl(
    cl: ConfidenceLevel,
    close_formation: bool,
    partner_dropped_out: bool,
) -> Result<i16, AssaultBar> {
    let base = match cl {
        ConfidenceLevel::Confident => 0,
        ConfidenceLevel::Steady => 1,
        ConfidenceLevel::Shaken => return Err(AssaultBar::Shaken),
        ConfidenceLevel::Broken | ConfidenceLevel::Routed => {
            return Err(AssaultBar::BrokenOrRouted);
        }
    };
    Ok(base - i16::from(close_formation) + i16::from(partner_dropped_out))
}

/// The defender's stand-test base: the odds, attackers ÷ defenders rounded down, at least 1 (HT-SG2-36,
/// HT-MEL-04). Its modifiers (close formation, charged by close formation or mounted cavalry) are added by
/// [`crate::morale::threat_level`].
#[must_use]
pub const fn odds_tl(attackers: u32, defenders: u32) -> i16 {
    if defenders == 0 {
        return 1;
    }
    let r = attackers / defenders;
    if r < 1 {
        1
    } else if r > 100 {
        100
    } else {
        r as i16
    }
}

/// One figure's close-combat die before its opponents' spills (HT-SG2-39, HT-MEL-08..10): quality plus the
/// best weapon's shift, +1 mounted, +1 for a defender in cover, In Position or a fortification in the first
/// round, −1 for a rider dismounted by a horse hit last round; all open.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MeleeDie {
    /// The figure's quality die.
    pub quality: DieType,
    /// Its best close-combat weapon.
    pub weapon: MeleeWeapon,
    /// Mounted (HT-MEL-09).
    pub mounted: bool,
    /// Defender in cover, In Position or a fortification, in the first round (HT-MEL-10).
    pub defender_bonus: bool,
    /// Dismounted by a horse hit in the previous round (HT-MEL-12).
    pub dismounted_last_round: bool,
}

impl MeleeDie {
    /// The open shift: the die on the ladder and what spills onto each opponent.
    pub const fn shifted(&self) -> OpenShift {
        let by = self.weapon.shift() + self.mounted as i16 + self.defender_bonus as i16
            - self.dismounted_last_round as i16;
        self.quality.shift_open(by)
    }

    /// A plain die of a quality with no shifts.
    pub const fn plain(quality: DieType) -> MeleeDie {
        MeleeDie {
            quality,
            weapon: MeleeWeapon::None,
            mounted: false,
            defender_bonus: false,
            dismounted_last_round: false,
        }
    }
}

/// The dice two opposed figures roll after each one's spill onto the other (HT-SG2-39): (mine, theirs).
pub const fn opposed_dice(mine: OpenShift, theirs: OpenShift) -> (DieType, DieType) {
    (theirs.onto(mine.die), mine.onto(theirs.die))
}

/// A side of a melee: its figures and close-combat dice, and what its end-of-round tests roll.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MeleeSide {
    /// Figures fighting (1 or more).
    pub figures: u8,
    /// The close-combat die in the first round.
    pub first_round: MeleeDie,
    /// The unit's quality die, for its confidence tests.
    pub quality: DieType,
    /// The unit's leadership.
    pub lv: Leadership,
    /// Cumulative threat-level modifiers for its end-of-round tests (colours, combined-assault drop-out).
    pub modifier: i16,
    /// Of a mounted side's figures, the riders who lost their horse before this melee (under fire or in an
    /// earlier melee) and fight on foot from the start: no mounted +1 and no horse-or-rider D10 (HT-MEL-12).
    /// Ignored for a side on foot; at most `figures` count.
    #[cfg_attr(feature = "serde", serde(default))]
    pub on_foot: u8,
}

/// Which side of an assault.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum AssaultSide {
    /// The attacker.
    Attacker,
    /// The defender.
    Defender,
}

impl fmt::Display for AssaultSide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AssaultSide::Attacker => "the attacker",
            AssaultSide::Defender => "the defender",
        })
    }
}

/// The most rounds [`Melee`] fights before calling a stalemate (a documented limit: the rules say fight on).
pub const MAX_ROUNDS: u8 = 30;

/// How a melee ended.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum MeleeEnd {
    /// A side failed its end-of-round test and falls back, losing 1 or 2 confidence levels.
    FellBack {
        /// The side falling back.
        loser: AssaultSide,
        /// Levels it lost.
        levels: u8,
    },
    /// Every figure of a side is down.
    Destroyed {
        /// The side destroyed.
        loser: AssaultSide,
    },
    /// Both sides held for [`MAX_ROUNDS`] rounds.
    Stalemate,
}

/// The end of a melee and the figures each side has down.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MeleeOutcome {
    /// How it ended.
    pub end: MeleeEnd,
    /// Attacking figures down.
    pub attacker_down: u8,
    /// Defending figures down.
    pub defender_down: u8,
    /// Attacking riders whose horse was hit in the melee and who still stand, on foot (HT-MEL-12).
    pub attacker_unhorsed: u8,
    /// Defending riders whose horse was hit in the melee and who still stand, on foot (HT-MEL-12).
    pub defender_unhorsed: u8,
}

impl MeleeOutcome {
    /// The side that won, if any.
    #[must_use]
    pub const fn winner(&self) -> Option<AssaultSide> {
        match self.end {
            MeleeEnd::FellBack { loser, .. } | MeleeEnd::Destroyed { loser } => Some(match loser {
                AssaultSide::Attacker => AssaultSide::Defender,
                AssaultSide::Defender => AssaultSide::Attacker,
            }),
            MeleeEnd::Stalemate => None,
        }
    }
}

/// Confidence levels lost, in words: "one confidence level", "two confidence levels".
struct LevelsLost(u8);

impl fmt::Display for LevelsLost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            1 => f.write_str("one confidence level"),
            2 => f.write_str("two confidence levels"),
            3 => f.write_str("three confidence levels"),
            n => write!(f, "{n} confidence levels"),
        }
    }
}

impl fmt::Display for MeleeEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MeleeEnd::FellBack { loser, levels } => {
                write!(f, "{loser} falls back, losing {}", LevelsLost(levels))
            }
            MeleeEnd::Destroyed { loser } => write!(f, "{loser} has every figure down"),
            MeleeEnd::Stalemate => f.write_str("both sides still hold after the round limit"),
        }
    }
}

impl fmt::Display for MeleeOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.end)?;
        write!(
            f,
            "; {} attacking and {} defending figures down",
            self.attacker_down, self.defender_down
        )?;
        if self.attacker_unhorsed + self.defender_unhorsed > 0 {
            write!(
                f,
                "; {} attacking and {} defending riders unhorsed",
                self.attacker_unhorsed, self.defender_unhorsed
            )?;
        }
        Ok(())
    }
}

/// A melee from the first round to its end (HT-SG2-38..40, HT-MEL-01 steps 7–10, HT-MEL-10, HT-MEL-11,
/// HT-MEL-14): figures pair off (the larger side spread over the smaller), each figure rolls one die compared
/// with each opponent, the higher putting the lower down and ties nothing; after each round the side with more
/// casualties (the defender on a tie) tests confidence at +1 per casualty, then the other side; a failure
/// falls back. The first-round defender bonus is lost after round 1, when both sides are skirmishers.
///
/// Mounted figures (a side whose die is mounted) that lose their roll take HT-MEL-12's D10 ([`HorseOrRider`],
/// 1–4 horse against a mounted winner, 1–6 against one on foot): the rider is down, or his horse is hit and he
/// fights on, on foot — without the mounted +1 and at −1 in the next round only. He is not a casualty for the
/// round's tests. A lone figure beaten by several takes one D10, against a mounted winner if any winner was
/// mounted. Each side's figures line up mounted first, then riders unhorsed in the round before, then those
/// on foot; a group's lone figure takes the open spill of its first opponent.
///
/// Roll order per round: for each pairing group, the lone figure's die, then each of its opponents' (a beaten
/// mounted opponent's D10 straight after his die), then the lone figure's D10 if he was beaten and mounted;
/// then the first tester's quality die and, if it held, the second's.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Melee {
    /// The attacker.
    pub attacker: MeleeSide,
    /// The defender.
    pub defender: MeleeSide,
    /// Which casualties set the round tests' threat level.
    pub casualties: AssaultTestCasualties,
    /// The two-level confidence threshold.
    pub two_level: TwoLevelDrop,
}

/// Per-round dice: (attacker's, defender's).
fn round_dice(m: &Melee, first: bool) -> (DieType, DieType) {
    let mut a = m.attacker.first_round;
    let mut d = m.defender.first_round;
    if !first {
        a.defender_bonus = false;
        d.defender_bonus = false;
        a.dismounted_last_round = false;
        d.dismounted_last_round = false;
    }
    opposed_dice(a.shifted(), d.shifted())
}

/// The distribution of (figures of the many side down, lone figure down) for one lone figure with die `lone`
/// against `k` figures with die `many`.
fn group_odds(lone: DieType, many: DieType, k: u32) -> Vec<((u32, u32), f64)> {
    let lf = lone.faces();
    let mf = f64::from(many.faces());
    let mut out: Vec<((u32, u32), f64)> = Vec::new();
    for x in 1..=lf {
        let pl = f64::from((x - 1).min(many.faces())) / mf;
        let pg = f64::from(many.faces().saturating_sub(x)) / mf;
        let pe = 1.0 - pl - pg;
        // multinomial over (less, equal, greater)
        for less in 0..=k {
            for greater in 0..=(k - less) {
                let eq = k - less - greater;
                let coef = multinomial(k, less, greater);
                let p = coef * pl.powi(less as i32) * pg.powi(greater as i32) * pe.powi(eq as i32)
                    / f64::from(lf);
                if p > 0.0 {
                    out.push(((less, u32::from(greater > 0)), p));
                }
            }
        }
    }
    merge(out)
}

/// n! / (a! b! (n−a−b)!), built from two binomials so large groups do not overflow.
fn multinomial(n: u32, a: u32, b: u32) -> f64 {
    let binomial =
        |n: u32, k: u32| (1..=k).fold(1.0f64, |acc, i| acc * f64::from(n - k + i) / f64::from(i));
    binomial(n, a) * binomial(n - a, b)
}

fn merge<K: Ord + Copy>(mut v: Vec<(K, f64)>) -> Vec<(K, f64)> {
    v.sort_by_key(|a| a.0);
    let mut out: Vec<(K, f64)> = Vec::with_capacity(v.len());
    for (k, p) in v {
        match out.last_mut() {
            Some((lk, lp)) if *lk == k => *lp += p,
            _ => out.push((k, p)),
        }
    }
    out
}

/// A round's successors of a position and the ends it can reach, each with its chance.
type Moves<P, E> = (Vec<(P, f64)>, Vec<(E, f64)>);

/// Runs a melee's positions through [`MAX_ROUNDS`] rounds and gives the chance of each end.
///
/// `first` is the first round's moves from the start; `later(p)` a later round's moves from position `p`;
/// positions still fighting after the last round take `stalemate`'s end. `key` must fall strictly with every
/// round that changes the position (figures only go down, riders only get off their horses, companies only
/// drop out): positions are then taken largest key first, each once, when every way into it has been
/// counted, with its chance of standing there at the start of each round; its moves are worked out once and
/// dropped after use. Sums run in a fixed order, so the odds are the same on every run.
fn sweep<P, E, K>(
    first: Moves<P, E>,
    mut later: impl FnMut(&P) -> Moves<P, E>,
    stalemate: impl Fn(&P) -> E,
    key: impl Fn(&P) -> K,
) -> Vec<(E, f64)>
where
    P: Copy + Eq + std::hash::Hash,
    E: Copy + Eq + std::hash::Hash,
    K: Ord,
{
    const R: usize = MAX_ROUNDS as usize;
    let mut end_ids: FastMap<E, usize> = FastMap::default();
    let mut ends: Vec<(E, f64)> = Vec::new();
    let mut add_end = |e: E, w: f64| {
        let n = ends.len();
        let i = *end_ids.entry(e).or_insert(n);
        if i == n {
            ends.push((e, 0.0));
        }
        ends[i].1 += w;
    };
    let mut queue = Queue {
        pending: FastMap::default(),
        order: std::collections::BinaryHeap::new(),
        stored: Vec::new(),
    };
    let (next, first_ends) = first;
    for (e, w) in first_ends {
        add_end(e, w);
    }
    for (q, w) in next {
        queue.at(q, &key)[1] += w;
    }
    while let Some((p, mut r)) = queue.take() {
        let lo = (1..R).find(|&t| r[t] > 0.0).unwrap_or(R);
        let (next, later_ends) = if lo < R {
            later(&p)
        } else {
            (Vec::new(), Vec::new())
        };
        // a round that leaves the position as it was: the chance carries to the next round
        let stay: f64 = next.iter().filter(|(q, _)| *q == p).map(|e| e.1).sum();
        for t in lo..R {
            r[t + 1] += r[t] * stay;
        }
        let fought: f64 = r[lo..R].iter().sum();
        for (e, w) in later_ends {
            add_end(e, fought * w);
        }
        for (q, w) in next {
            if q == p || w <= 0.0 {
                continue;
            }
            let to = queue.at(q, &key);
            for t in lo..R {
                to[t + 1] += r[t] * w;
            }
        }
        if r[R] > 0.0 {
            add_end(stalemate(&p), r[R]);
        }
    }
    ends
}

/// A hash map for positions and ends: a small multiply-and-rotate hash (the keys are a few small counts, not
/// caller-chosen), fixed rather than seeded; only looked up, never walked, so the odds do not depend on it.
type FastMap<K, V> = std::collections::HashMap<K, V, std::hash::BuildHasherDefault<WordHasher>>;

/// The hasher of [`FastMap`]: each word written is folded in with a rotate and a multiply.
#[derive(Clone, Copy, Default)]
struct WordHasher(u64);

impl WordHasher {
    const fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl std::hash::Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(w));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
}

/// A position's chance of standing there at the start of each round (the last entry: after the last round).
type ByRound = [f64; MAX_ROUNDS as usize + 1];

/// The positions a [`sweep`] has reached and not yet taken, with their chances by round, largest key first.
struct Queue<P, K> {
    pending: FastMap<P, ByRound>,
    order: std::collections::BinaryHeap<(K, usize)>,
    stored: Vec<P>,
}

impl<P: Copy + Eq + std::hash::Hash, K: Ord> Queue<P, K> {
    /// A position's chances by round, a new one queued at none.
    fn at(&mut self, q: P, key: &impl Fn(&P) -> K) -> &mut ByRound {
        let (order, stored) = (&mut self.order, &mut self.stored);
        self.pending.entry(q).or_insert_with(|| {
            order.push((key(&q), stored.len()));
            stored.push(q);
            [0.0; MAX_ROUNDS as usize + 1]
        })
    }

    /// The pending position with the largest key: every position that can lead to it has been taken.
    fn take(&mut self) -> Option<(P, ByRound)> {
        while let Some((_, i)) = self.order.pop() {
            let p = self.stored[i];
            if let Some(r) = self.pending.remove(&p) {
                return Some((p, r));
            }
        }
        None
    }
}

/// The group sizes when `many` figures spread over `few`: the first `many % few` groups get one extra.
fn group_size(many: u32, few: u32, i: u32) -> u32 {
    many / few + u32::from(i < many % few)
}

/// One round's (attackers down, defenders down) distribution.
fn round_odds(m: &Melee, a: u32, d: u32, first: bool) -> Vec<((u32, u32), f64)> {
    let (ad, dd) = round_dice(m, first);
    let attackers_many = a >= d;
    let (few, many) = if attackers_many { (d, a) } else { (a, d) };
    let mut cur: Vec<((u32, u32), f64)> = vec![((0, 0), 1.0)];
    for i in 0..few {
        let k = group_size(many, few, i);
        let g = if attackers_many {
            group_odds(dd, ad, k)
        } else {
            group_odds(ad, dd, k)
        };
        let mut next = Vec::with_capacity(cur.len() * g.len());
        for &((x, y), p) in &cur {
            for &((many_down, lone_down), q) in &g {
                let (ad_, dd_) = if attackers_many {
                    (many_down, lone_down)
                } else {
                    (lone_down, many_down)
                };
                next.push(((x + ad_, y + dd_), p * q));
            }
        }
        cur = merge(next);
    }
    cur
}

/// A figure's kind in a melee with riders (HT-MEL-12): mounted, unhorsed in the round before (−1 this round),
/// on foot.
pub(crate) const MOUNTED: usize = 0;
pub(crate) const UNHORSED: usize = 1;
pub(crate) const FOOT: usize = 2;

/// A side's standing figures by kind.
type Kinds = [u32; 3];

/// A round's losses: per side (attacker in 0..3, defender in 3..6), mounted figures down, riders unhorsed,
/// and other figures down.
type Delta = [u32; 6];

/// Where a loss goes in a side's part of a [`Delta`]: a mounted figure down, a rider unhorsed, another down.
const fn loss_slot(kind: usize) -> usize {
    if kind == MOUNTED { 0 } else { 2 }
}
const HORSE: usize = 1;

const fn total(c: &Kinds) -> u32 {
    c[0] + c[1] + c[2]
}

/// A side's figures at the start: mounted if its die is, less the riders already on foot; else all on foot.
const fn start_kinds(s: &MeleeSide) -> Kinds {
    let n = s.figures as u32;
    if s.first_round.mounted {
        let foot = if (s.on_foot as u32) < n {
            s.on_foot as u32
        } else {
            n
        };
        [n - foot, 0, foot]
    } else {
        [0, 0, n]
    }
}

/// The kind of a side's `i`-th standing figure: mounted first, then those unhorsed last round, then foot.
const fn kind_at(c: &Kinds, i: u32) -> usize {
    if i < c[0] {
        MOUNTED
    } else if i < c[0] + c[1] {
        UNHORSED
    } else {
        FOOT
    }
}

/// A figure kind's shifted die this round: the first-round bonuses only in round 1; no mounted +1 once
/// unhorsed, and −1 in the round after.
pub(crate) const fn kind_shift(base: MeleeDie, kind: usize, first: bool) -> OpenShift {
    let mut m = base;
    if !first {
        m.defender_bonus = false;
        m.dismounted_last_round = false;
    }
    if kind != MOUNTED {
        m.mounted = false;
    }
    if kind == UNHORSED {
        m.dismounted_last_round = true;
    }
    m.shifted()
}

/// A side after a round's losses (`d`: mounted down, riders unhorsed, others down).
const fn after(c: &Kinds, d: [u32; 3]) -> Kinds {
    [c[0] - d[0] - d[1], d[1], c[1] + c[2] - d[2]]
}

/// The chance that a beaten rider's horse is hit rather than the rider (HT-MEL-12).
fn horse_chance(by_mounted: bool) -> f64 {
    HorseOrRider { by_mounted }
        .odds()
        .prob(|s| *s == Struck::Horse)
}

/// The sides of a round: (few's kinds, many's kinds, few's die, many's die, few's slot, many's slot).
fn sides(m: &Melee, a: &Kinds, d: &Kinds) -> (Kinds, Kinds, MeleeDie, MeleeDie, usize, usize) {
    if total(a) >= total(d) {
        (*d, *a, m.defender.first_round, m.attacker.first_round, 3, 0)
    } else {
        (*a, *d, m.attacker.first_round, m.defender.first_round, 0, 3)
    }
}

/// Rolls one round of a melee with riders (HT-MEL-12); see [`Melee`] for the order.
fn roll_round<D: Dice + ?Sized>(
    m: &Melee,
    a: &Kinds,
    d: &Kinds,
    first: bool,
    dice: &mut D,
) -> Delta {
    let mut delta = [0u32; 6];
    let (few_c, many_c, few_base, many_base, few_slot, many_slot) = sides(m, a, d);
    let (few, many) = (total(&few_c), total(&many_c));
    let mut next = 0u32;
    for i in 0..few {
        let k = group_size(many, few, i);
        let kl = kind_at(&few_c, i);
        let lone = kind_shift(few_base, kl, first);
        let lead = kind_shift(many_base, kind_at(&many_c, next), first);
        let x = dice.face(lead.onto(lone.die).die());
        let mut beaten_by = 0u8;
        for j in next..next + k {
            let ko = kind_at(&many_c, j);
            let opp = kind_shift(many_base, ko, first);
            let y = dice.face(lone.onto(opp.die).die());
            if x > y {
                if ko == MOUNTED
                    && (HorseOrRider {
                        by_mounted: kl == MOUNTED,
                    })
                    .roll(dice)
                        == Struck::Horse
                {
                    delta[many_slot + HORSE] += 1;
                } else {
                    delta[many_slot + loss_slot(ko)] += 1;
                }
            } else if y > x {
                beaten_by = beaten_by.max(if ko == MOUNTED { 2 } else { 1 });
            }
        }
        if beaten_by > 0 {
            if kl == MOUNTED
                && (HorseOrRider {
                    by_mounted: beaten_by == 2,
                })
                .roll(dice)
                    == Struck::Horse
            {
                delta[few_slot + HORSE] += 1;
            } else {
                delta[few_slot + loss_slot(kl)] += 1;
            }
        }
        next += k;
    }
    delta
}

/// One group's distribution in a melee with riders: the many side's losses in 0..3, the lone figure's in 3..6.
fn group_dist(lone: OpenShift, kl: usize, opps: &[(OpenShift, usize)]) -> Vec<(Delta, f64)> {
    let Some(&(lead, _)) = opps.first() else {
        return vec![([0; 6], 1.0)];
    };
    let ld = lead.onto(lone.die);
    let lf = ld.faces();
    let mut out: Vec<(Delta, f64)> = Vec::new();
    for x in 1..=lf {
        let mut cur: Vec<(([u32; 3], u8), f64)> = vec![(([0; 3], 0), 1.0 / f64::from(lf))];
        for &(opp, ko) in opps {
            let od = lone.onto(opp.die);
            let of = od.faces();
            let pl = f64::from((x - 1).min(of)) / f64::from(of);
            let pg = f64::from(of.saturating_sub(x)) / f64::from(of);
            let pe = if x <= of { 1.0 / f64::from(of) } else { 0.0 };
            let mut nx = Vec::with_capacity(cur.len() * 3);
            for &((dl, b), p) in &cur {
                if pl > 0.0 {
                    if ko == MOUNTED {
                        let h = horse_chance(kl == MOUNTED);
                        let mut u = dl;
                        u[HORSE] += 1;
                        nx.push(((u, b), p * pl * h));
                        let mut r = dl;
                        r[loss_slot(MOUNTED)] += 1;
                        nx.push(((r, b), p * pl * (1.0 - h)));
                    } else {
                        let mut r = dl;
                        r[loss_slot(ko)] += 1;
                        nx.push(((r, b), p * pl));
                    }
                }
                if pg > 0.0 {
                    nx.push(((dl, b.max(if ko == MOUNTED { 2 } else { 1 })), p * pg));
                }
                if pe > 0.0 {
                    nx.push(((dl, b), p * pe));
                }
            }
            cur = merge(nx);
        }
        for ((dl, b), p) in cur {
            let mut key = [0u32; 6];
            key[..3].copy_from_slice(&dl);
            if b == 0 {
                out.push((key, p));
            } else if kl == MOUNTED {
                let h = horse_chance(b == 2);
                let mut u = key;
                u[3 + HORSE] += 1;
                out.push((u, p * h));
                key[3 + loss_slot(MOUNTED)] += 1;
                out.push((key, p * (1.0 - h)));
            } else {
                key[3 + loss_slot(kl)] += 1;
                out.push((key, p));
            }
        }
    }
    merge(out)
}

/// A pairing group's distribution, with the lone figure's kind and his opponents' kinds.
type GroupDist = (usize, Vec<usize>, Vec<(Delta, f64)>);

/// One round's distribution of losses in a melee with riders.
fn round_dist(m: &Melee, a: &Kinds, d: &Kinds, first: bool) -> Vec<(Delta, f64)> {
    let (few_c, many_c, few_base, many_base, few_slot, many_slot) = sides(m, a, d);
    let (few, many) = (total(&few_c), total(&many_c));
    let mut cur: Vec<(Delta, f64)> = vec![([0; 6], 1.0)];
    let mut next = 0u32;
    // Groups alike (the lone figure's kind and his opponents' kinds) share one distribution.
    let mut groups: Vec<GroupDist> = Vec::new();
    for i in 0..few {
        let k = group_size(many, few, i);
        let kl = kind_at(&few_c, i);
        let kinds: Vec<usize> = (next..next + k).map(|j| kind_at(&many_c, j)).collect();
        next += k;
        if !groups.iter().any(|(l, o, _)| *l == kl && *o == kinds) {
            let opps: Vec<(OpenShift, usize)> = kinds
                .iter()
                .map(|&ko| (kind_shift(many_base, ko, first), ko))
                .collect();
            let g = group_dist(kind_shift(few_base, kl, first), kl, &opps);
            groups.push((kl, kinds.clone(), g));
        }
        let Some((_, _, g)) = groups.iter().find(|(l, o, _)| *l == kl && *o == kinds) else {
            continue;
        };
        let mut nx = Vec::with_capacity(cur.len() * g.len());
        for &(c, p) in &cur {
            for &(gd, q) in g {
                let mut s = c;
                for t in 0..3 {
                    s[many_slot + t] += gd[t];
                    s[few_slot + t] += gd[3 + t];
                }
                nx.push((s, p * q));
            }
        }
        cur = merge(nx);
    }
    cur
}

/// Who tests first after a round: more casualties (this round in round 1, overall later); the defender on a
/// tie (HT-SG2-40).
const fn first_tester(first_round: bool, this: (u32, u32), overall: (u32, u32)) -> AssaultSide {
    let (a, d) = if first_round { this } else { overall };
    if a > d {
        AssaultSide::Attacker
    } else {
        AssaultSide::Defender
    }
}

impl Melee {
    fn side(&self, s: AssaultSide) -> &MeleeSide {
        match s {
            AssaultSide::Attacker => &self.attacker,
            AssaultSide::Defender => &self.defender,
        }
    }

    /// The end-of-round confidence test of a side (HT-SG2-40): +1 per casualty, plus its modifiers.
    fn round_test(&self, s: AssaultSide, this: (u32, u32), overall: (u32, u32)) -> ConfidenceTest {
        let pick = |c: (u32, u32)| match s {
            AssaultSide::Attacker => c.0,
            AssaultSide::Defender => c.1,
        };
        let cas = match self.casualties {
            AssaultTestCasualties::ThisRound => pick(this),
            AssaultTestCasualties::WholeAssault => pick(overall),
        };
        let side = self.side(s);
        ConfidenceTest {
            quality: side.quality,
            lv: side.lv,
            tl: i16::try_from(cas).unwrap_or(i16::MAX) + side.modifier,
            two_level: self.two_level,
        }
    }

    fn validate(&self) -> bool {
        self.attacker.figures > 0 && self.defender.figures > 0
    }

    /// The outcome with each side's standing figures by kind.
    fn outcome(&self, end: MeleeEnd, a: &Kinds, d: &Kinds) -> MeleeOutcome {
        let count = |n: u32| u8::try_from(n).unwrap_or(u8::MAX);
        let unhorsed = |s: &MeleeSide, c: &Kinds| {
            if s.first_round.mounted {
                count(c[UNHORSED] + c[FOOT])
            } else {
                0
            }
        };
        MeleeOutcome {
            end,
            attacker_down: count(u32::from(self.attacker.figures).saturating_sub(total(a))),
            defender_down: count(u32::from(self.defender.figures).saturating_sub(total(d))),
            attacker_unhorsed: unhorsed(&self.attacker, a),
            defender_unhorsed: unhorsed(&self.defender, d),
        }
    }

    /// The exact odds when a side is mounted (HT-MEL-12): the position is each side's figures by kind.
    fn odds_with_riders(&self) -> Dist<MeleeOutcome> {
        let (a0k, d0k) = (start_kinds(&self.attacker), start_kinds(&self.defender));
        if !self.validate() {
            return Dist::certain(self.outcome(MeleeEnd::Stalemate, &a0k, &d0k));
        }
        let ends = sweep(
            self.rider_moves(&(a0k, d0k), true),
            |p| self.rider_moves(p, false),
            |(a, d)| self.outcome(MeleeEnd::Stalemate, a, d),
            // (mounted, unhorsed last round, on foot) only falls in this order: see `after`
            |&p| p,
        );
        Dist::weighted(ends)
            .unwrap_or_else(|_| Dist::certain(self.outcome(MeleeEnd::Stalemate, &a0k, &d0k)))
    }

    /// One round of a melee with riders from a position and the tests after it: the positions it can go on
    /// from and the ends it can reach, each with its chance.
    fn rider_moves(
        &self,
        &(a, d): &(Kinds, Kinds),
        first: bool,
    ) -> Moves<(Kinds, Kinds), MeleeOutcome> {
        let (a0, d0) = (
            u32::from(self.attacker.figures),
            u32::from(self.defender.figures),
        );
        let mut ends: Vec<(MeleeOutcome, f64)> = Vec::new();
        let mut next: Vec<((Kinds, Kinds), f64)> = Vec::new();
        for (l, q) in round_dist(self, &a, &d, first) {
            let na = after(&a, [l[0], l[1], l[2]]);
            let nd = after(&d, [l[3], l[4], l[5]]);
            if total(&na) == 0 || total(&nd) == 0 {
                let loser = if total(&na) == 0 {
                    AssaultSide::Attacker
                } else {
                    AssaultSide::Defender
                };
                ends.push((self.outcome(MeleeEnd::Destroyed { loser }, &na, &nd), q));
                continue;
            }
            let this = (total(&a) - total(&na), total(&d) - total(&nd));
            let overall = (a0 - total(&na), d0 - total(&nd));
            let t1 = first_tester(first, this, overall);
            let mut hold = q;
            for tester in [t1, other(t1)] {
                let test = self.round_test(tester, this, overall);
                let faces = test.quality.faces();
                let mut pr = [0.0f64; 3];
                for f in 1..=faces {
                    pr[usize::from(test.judge(f).levels())] += 1.0 / f64::from(faces);
                }
                for (levels, &x) in pr.iter().enumerate().skip(1) {
                    if x > 0.0 {
                        let end = MeleeEnd::FellBack {
                            loser: tester,
                            levels: u8::try_from(levels).unwrap_or(2),
                        };
                        ends.push((self.outcome(end, &na, &nd), hold * x));
                    }
                }
                hold *= pr[0];
            }
            next.push(((na, nd), hold));
        }
        (next, ends)
    }
}

const fn other(s: AssaultSide) -> AssaultSide {
    match s {
        AssaultSide::Attacker => AssaultSide::Defender,
        AssaultSide::Defender => AssaultSide::Attacker,
    }
}

impl Resolve for Melee {
    type Outcome = MeleeOutcome;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> MeleeOutcome {
        let (mut a, mut d) = (start_kinds(&self.attacker), start_kinds(&self.defender));
        let (a0, d0) = (total(&a), total(&d));
        if !self.validate() {
            return self.outcome(MeleeEnd::Stalemate, &a, &d);
        }
        for round in 0..MAX_ROUNDS {
            let first = round == 0;
            let l = roll_round(self, &a, &d, first, dice);
            let na = after(&a, [l[0], l[1], l[2]]);
            let nd = after(&d, [l[3], l[4], l[5]]);
            let this = (total(&a) - total(&na), total(&d) - total(&nd));
            (a, d) = (na, nd);
            if total(&a) == 0 {
                let loser = AssaultSide::Attacker;
                return self.outcome(MeleeEnd::Destroyed { loser }, &a, &d);
            }
            if total(&d) == 0 {
                let loser = AssaultSide::Defender;
                return self.outcome(MeleeEnd::Destroyed { loser }, &a, &d);
            }
            let overall = (a0 - total(&a), d0 - total(&d));
            let t1 = first_tester(first, this, overall);
            for tester in [t1, other(t1)] {
                let r = self.round_test(tester, this, overall).roll(dice);
                if r != Confidence::Pass {
                    let end = MeleeEnd::FellBack {
                        loser: tester,
                        levels: r.levels(),
                    };
                    return self.outcome(end, &a, &d);
                }
            }
        }
        self.outcome(MeleeEnd::Stalemate, &a, &d)
    }

    fn odds(&self) -> Dist<MeleeOutcome> {
        if self.attacker.first_round.mounted || self.defender.first_round.mounted {
            return self.odds_with_riders();
        }
        self.odds_on_foot()
    }
}

/// The ends of a melee on foot in the order [`MeleeEnd`] sorts (a side falling back one level, then two; the
/// attacker before the defender; then a side destroyed; then a stalemate): the index of an end in a grid of
/// ends.
const FOOT_ENDS: [MeleeEnd; 7] = [
    MeleeEnd::FellBack {
        loser: AssaultSide::Attacker,
        levels: 1,
    },
    MeleeEnd::FellBack {
        loser: AssaultSide::Attacker,
        levels: 2,
    },
    MeleeEnd::FellBack {
        loser: AssaultSide::Defender,
        levels: 1,
    },
    MeleeEnd::FellBack {
        loser: AssaultSide::Defender,
        levels: 2,
    },
    MeleeEnd::Destroyed {
        loser: AssaultSide::Attacker,
    },
    MeleeEnd::Destroyed {
        loser: AssaultSide::Defender,
    },
    MeleeEnd::Stalemate,
];

/// Where a side falling back `levels` (1 or 2) stands in [`FOOT_ENDS`].
const fn fell_back_index(loser: AssaultSide, levels: usize) -> usize {
    match loser {
        AssaultSide::Attacker => levels - 1,
        AssaultSide::Defender => levels + 1,
    }
}

/// Where a side destroyed stands in [`FOOT_ENDS`].
const fn destroyed_index(loser: AssaultSide) -> usize {
    match loser {
        AssaultSide::Attacker => 4,
        AssaultSide::Defender => 5,
    }
}

/// Where a stalemate stands in [`FOOT_ENDS`].
const STALEMATE_INDEX: usize = 6;

/// One way a round of a melee on foot can go from a position: the figures standing after it, its chance, and
/// what follows.
struct FootStep {
    standing: (u32, u32),
    chance: f64,
    then: FootThen,
}

/// What follows a round of a melee on foot: a side destroyed (its end's index in [`FOOT_ENDS`]), or both
/// sides' tests in the order taken, each with its side and its chances of passing, of losing one level and of
/// losing two.
enum FootThen {
    Destroyed(usize),
    Tests([(AssaultSide, [f64; 3]); 2]),
}

impl Melee {
    /// The exact odds of a melee with no side mounted. Positions are (attackers standing, defenders standing),
    /// taken round by round in their order; the chance of each end is added up in a grid of ends, and the
    /// positions standing after a round in a grid of positions, in the same order a map by end or position
    /// would take them, so the odds come out the same to the last bit ([`Melee`]'s tests hold this against
    /// sums kept in maps). A position's round (its ways and the tests after each) is worked out once.
    fn odds_on_foot(&self) -> Dist<MeleeOutcome> {
        let (a0, d0) = (
            u32::from(self.attacker.figures),
            u32::from(self.defender.figures),
        );
        let mk = |end, a: u32, d: u32| MeleeOutcome {
            end,
            attacker_down: u8::try_from(a0 - a).unwrap_or(u8::MAX),
            defender_down: u8::try_from(d0 - d).unwrap_or(u8::MAX),
            attacker_unhorsed: 0,
            defender_unhorsed: 0,
        };
        if !self.validate() {
            return Dist::certain(mk(MeleeEnd::Stalemate, a0, d0));
        }
        // Positions (a, d) with 0 <= a <= a0 and 0 <= d <= d0, at a * wd + d.
        let (wa, wd) = (a0 as usize + 1, d0 as usize + 1);
        let at = |a: u32, d: u32| a as usize * wd + d as usize;
        let mut ends = vec![0.0f64; FOOT_ENDS.len() * wa * wd];
        let mut reached = vec![false; ends.len()];
        let mut add_end = |e: usize, a: u32, d: u32, p: f64| {
            let i = e * wa * wd + at(a, d);
            ends[i] += p;
            reached[i] = true;
        };
        // A position's round, by position and whether it is the first round.
        let mut rounds: Vec<Option<Vec<FootStep>>> = Vec::new();
        rounds.resize_with(2 * wa * wd, || None);
        let mut live: Vec<((u32, u32), f64)> = vec![((a0, d0), 1.0)];
        let mut next = vec![0.0f64; wa * wd];
        let mut filled = vec![false; wa * wd];
        for round in 0..MAX_ROUNDS {
            let first = round == 0;
            for &((a, d), p) in &live {
                let steps = rounds[2 * at(a, d) + usize::from(first)]
                    .get_or_insert_with(|| self.foot_steps(a, d, first));
                for step in steps.iter() {
                    let (na, nd) = step.standing;
                    let pq = p * step.chance;
                    match &step.then {
                        FootThen::Destroyed(e) => add_end(*e, na, nd, pq),
                        FootThen::Tests(tests) => {
                            let mut hold = pq;
                            for (tester, pr) in tests {
                                for (levels, &x) in pr.iter().enumerate().skip(1) {
                                    if x > 0.0 {
                                        add_end(fell_back_index(*tester, levels), na, nd, hold * x);
                                    }
                                }
                                hold *= pr[0];
                            }
                            if hold > 0.0 {
                                let i = at(na, nd);
                                next[i] += hold;
                                filled[i] = true;
                            }
                        }
                    }
                }
            }
            live.clear();
            for a in 0..=a0 {
                for d in 0..=d0 {
                    let i = at(a, d);
                    if filled[i] {
                        live.push(((a, d), next[i]));
                        next[i] = 0.0;
                        filled[i] = false;
                    }
                }
            }
            if live.is_empty() {
                break;
            }
        }
        for &((a, d), p) in &live {
            add_end(STALEMATE_INDEX, a, d, p);
        }
        let mut out: Vec<(MeleeOutcome, f64)> = Vec::new();
        for (e, &end) in FOOT_ENDS.iter().enumerate() {
            for a in (0..=a0).rev() {
                for d in (0..=d0).rev() {
                    let i = e * wa * wd + at(a, d);
                    if reached[i] {
                        out.push((mk(end, a, d), ends[i]));
                    }
                }
            }
        }
        // already in order (fewer down first within an end); the sort only checks it
        out.sort_by_key(|o| o.0);
        Dist::weighted(out).unwrap_or_else(|_| Dist::certain(mk(MeleeEnd::Stalemate, a0, d0)))
    }

    /// The ways one round of a melee on foot can go from `a` attackers and `d` defenders standing, in the
    /// order of [`round_odds`], with the end-of-round tests after each.
    fn foot_steps(&self, a: u32, d: u32, first: bool) -> Vec<FootStep> {
        let (a0, d0) = (
            u32::from(self.attacker.figures),
            u32::from(self.defender.figures),
        );
        round_odds(self, a, d, first)
            .into_iter()
            .map(|((ca, cd), chance)| {
                let (na, nd) = (a - ca, d - cd);
                let then = if na == 0 {
                    FootThen::Destroyed(destroyed_index(AssaultSide::Attacker))
                } else if nd == 0 {
                    FootThen::Destroyed(destroyed_index(AssaultSide::Defender))
                } else {
                    let this = (ca, cd);
                    let overall = (a0 - na, d0 - nd);
                    let t1 = first_tester(first, this, overall);
                    FootThen::Tests([t1, other(t1)].map(|tester| {
                        let test = self.round_test(tester, this, overall);
                        let faces = test.quality.faces();
                        let mut p = [0.0f64; 3];
                        for f in 1..=faces {
                            p[usize::from(test.judge(f).levels())] += 1.0 / f64::from(faces);
                        }
                        (tester, p)
                    }))
                };
                FootStep {
                    standing: (na, nd),
                    chance,
                    then,
                }
            })
            .collect()
    }
}

/// Most attacking companies a [`CombinedMelee`] takes.
pub const MAX_COMBINED: usize = 4;

/// The melee of a combined assault (HT-SG2-42, HT-MEL-05), from contact to its end, exactly as the battle
/// fights it: the attacking companies' fit figures line up in the declared order and pair off with the
/// defender's (the larger side spread over the smaller, a group's lone figure taking each opponent's open
/// spill in turn); after each round the side with more casualties tests first (the defender on a tie; in
/// round 1 this round's, later the whole assault's), the defender once and each attacking company on its
/// own — at +1 per casualty (of the round or of the assault, by option) and +1 once a partner has dropped
/// out. A company that fails falls back and the others fight on; a company with every figure down leaves
/// the fight. It ends when the defender fails or is down, or every attacker has fallen back or is down.
///
/// Riders (HT-MEL-12), as in a single company's [`Melee`]: a mounted figure that loses its roll takes the
/// horse-or-rider D10 (1–4 horse against a mounted winner, 1–6 against one on foot; a lone figure beaten by
/// several, against a mounted winner if any was): a horse hit leaves the rider standing, on foot, without the
/// mounted +1 and at −1 in the next round only, and he is not a casualty for the round's tests. Within each
/// company the figures line up mounted first, then riders unhorsed in the round before, then those on foot
/// (riders unhorsed before the melee, [`MeleeSide::on_foot`], among them).
///
/// Roll order per round: for each pairing group, the lone figure's die, then each opponent's (a beaten
/// mounted opponent's D10 straight after his die), then the lone figure's D10 if he was beaten and mounted;
/// then the first side's tests (the attackers in declared order) and the other side's.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CombinedMelee {
    attackers: [MeleeSide; MAX_COMBINED],
    count: u8,
    /// The defender.
    pub defender: MeleeSide,
    /// Which casualties set the round tests' threat level.
    pub casualties: AssaultTestCasualties,
    /// The two-level confidence threshold.
    pub two_level: TwoLevelDrop,
    /// A partner dropped out before contact: every attacker's test is +1 from the start.
    pub dropped: bool,
}

/// The end of a [`CombinedMelee`].
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CombinedOutcome {
    /// The side that carried the fight; `None` if both still held after [`MAX_ROUNDS`] rounds.
    pub winner: Option<AssaultSide>,
    /// Attacking figures down, over every company.
    pub attacker_down: u8,
    /// Defending figures down.
    pub defender_down: u8,
    /// Attacking companies that failed a test and fell back.
    pub fell_back: u8,
    /// Attacking riders on foot and standing at the end, over every mounted company (HT-MEL-12).
    pub attacker_unhorsed: u8,
    /// Defending riders on foot and standing at the end, if the defender is mounted (HT-MEL-12).
    pub defender_unhorsed: u8,
}

impl fmt::Display for CombinedOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(AssaultSide::Attacker) => f.write_str("the attackers carry the position")?,
            Some(AssaultSide::Defender) => f.write_str("the defenders hold")?,
            None => f.write_str("both sides still hold after the round limit")?,
        }
        write!(
            f,
            "; {} attacking and {} defending figures down, {} attacking companies fell back",
            self.attacker_down, self.defender_down, self.fell_back
        )?;
        if self.attacker_unhorsed + self.defender_unhorsed > 0 {
            write!(
                f,
                "; {} attacking and {} defending riders on foot",
                self.attacker_unhorsed, self.defender_unhorsed
            )?;
        }
        Ok(())
    }
}

/// A company's standing figures by kind (mounted, unhorsed in the round before, on foot), small.
type Kinds8 = [u8; 3];

/// Where a combined melee stands between rounds: the standing figures of each attacking company and of the
/// defender by kind, the companies still fighting (a bit each), and whether a partner has dropped out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Fight {
    a: [Kinds8; MAX_COMBINED],
    d: Kinds8,
    holding: u8,
    dropped: bool,
}

/// Each slot's shifted die by kind this round (attacking companies, then the defender).
type ShiftTable = [[OpenShift; 3]; MAX_COMBINED + 1];

/// The defender's slot in a [`RoundLoss`]; attacking company `i` has slot `i`.
const DEFENDER_SLOT: usize = MAX_COMBINED;

/// A round's losses, three per slot (mounted figures down, riders unhorsed, other figures down).
type RoundLoss = [u8; 3 * (MAX_COMBINED + 1)];

/// A figure in a round: its shifted die, its kind and its slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Fighter {
    shift: OpenShift,
    kind: usize,
    slot: usize,
}

/// A pairing group met before in a round: its lone figure, his opponents, and its losses' distribution.
type SeenGroup = (Fighter, Vec<Fighter>, Vec<(RoundLoss, f64)>);

/// After a round, the fight going on: the position, whether the defender tests first, each attacking
/// company's casualties for its test, and the defender's.
type Settled = (Fight, bool, [u32; MAX_COMBINED], u32);

const fn total8(c: &Kinds8) -> u32 {
    c[0] as u32 + c[1] as u32 + c[2] as u32
}

/// A side's starting kinds, small.
fn start8(s: &MeleeSide) -> Kinds8 {
    let k = start_kinds(s);
    [k[0], k[1], k[2]].map(|n| u8::try_from(n).unwrap_or(u8::MAX))
}

/// Where a beaten figure's loss goes (HT-MEL-12): a mounted figure rolls the horse-or-rider D10.
fn struck_slot<D: Dice + ?Sized>(kind: usize, by_mounted: bool, dice: &mut D) -> usize {
    if kind != MOUNTED {
        loss_slot(kind)
    } else if (HorseOrRider { by_mounted }).roll(dice) == Struck::Horse {
        HORSE
    } else {
        loss_slot(MOUNTED)
    }
}

/// Rolls one pairing group of a combined melee; see [`CombinedMelee`] for the order.
fn roll_group<D: Dice + ?Sized>(
    lone: Fighter,
    opps: impl Iterator<Item = Fighter> + Clone,
    loss: &mut RoundLoss,
    dice: &mut D,
) {
    let mut lone_die = lone.shift.die;
    for o in opps.clone() {
        lone_die = o.shift.onto(lone_die);
    }
    let x = dice.face(lone_die.die());
    let mut beaten_by = 0u8;
    for o in opps {
        let y = dice.face(lone.shift.onto(o.shift.die).die());
        if x > y {
            loss[o.slot * 3 + struck_slot(o.kind, lone.kind == MOUNTED, dice)] += 1;
        } else if y > x {
            beaten_by = beaten_by.max(if o.kind == MOUNTED { 2 } else { 1 });
        }
    }
    if beaten_by > 0 {
        loss[lone.slot * 3 + struck_slot(lone.kind, beaten_by == 2, dice)] += 1;
    }
}

/// One pairing group's exact distribution of losses in a combined melee.
fn group_loss_odds(lone: Fighter, opps: &[Fighter]) -> Vec<(RoundLoss, f64)> {
    let mut lone_die = lone.shift.die;
    for o in opps {
        lone_die = o.shift.onto(lone_die);
    }
    let lf = lone_die.faces();
    let mut out: Vec<(RoundLoss, f64)> = Vec::new();
    for x in 1..=lf {
        // (losses, the lone figure beaten: 0 no, 1 by men on foot only, 2 by a mounted man)
        let mut inner: Vec<((RoundLoss, u8), f64)> = vec![(([0; 15], 0), 1.0 / f64::from(lf))];
        for o in opps {
            let yf = lone.shift.onto(o.shift.die).faces();
            let less = f64::from((x - 1).min(yf)) / f64::from(yf);
            let greater = f64::from(yf.saturating_sub(x)) / f64::from(yf);
            let equal = 1.0 - less - greater;
            let beat = if o.kind == MOUNTED { 2 } else { 1 };
            let mut nx = Vec::with_capacity(inner.len() * 4);
            for &((v, b), p) in &inner {
                if o.kind == MOUNTED {
                    let h = horse_chance(lone.kind == MOUNTED);
                    let mut horse = v;
                    horse[o.slot * 3 + HORSE] += 1;
                    nx.push(((horse, b), p * less * h));
                    let mut down = v;
                    down[o.slot * 3 + loss_slot(MOUNTED)] += 1;
                    nx.push(((down, b), p * less * (1.0 - h)));
                } else {
                    let mut down = v;
                    down[o.slot * 3 + loss_slot(o.kind)] += 1;
                    nx.push(((down, b), p * less));
                }
                nx.push(((v, b.max(beat)), p * greater));
                nx.push(((v, b), p * equal));
            }
            inner = merge(nx.into_iter().filter(|e| e.1 > 0.0).collect());
        }
        for ((mut v, b), p) in inner {
            if b == 0 {
                out.push((v, p));
            } else if lone.kind == MOUNTED {
                let h = horse_chance(b == 2);
                let mut horse = v;
                horse[lone.slot * 3 + HORSE] += 1;
                out.push((horse, p * h));
                v[lone.slot * 3 + loss_slot(MOUNTED)] += 1;
                out.push((v, p * (1.0 - h)));
            } else {
                v[lone.slot * 3 + loss_slot(lone.kind)] += 1;
                out.push((v, p));
            }
        }
    }
    merge(out.into_iter().filter(|e| e.1 > 0.0).collect())
}

impl CombinedMelee {
    /// The melee of `attackers` (in declared order) against `defender`. Refuses no attackers, more than
    /// [`MAX_COMBINED`], or a company with no figures or more than 48.
    pub fn new(
        attackers: &[MeleeSide],
        defender: MeleeSide,
        casualties: AssaultTestCasualties,
        two_level: TwoLevelDrop,
        dropped: bool,
    ) -> Result<CombinedMelee, crate::error::SetupError> {
        let n = attackers.len();
        let size = |f: u8| (1..=48).contains(&f);
        if n == 0
            || n > MAX_COMBINED
            || !size(defender.figures)
            || !attackers.iter().all(|a| size(a.figures))
        {
            return Err(crate::error::SetupError::Partners(n));
        }
        let mut all = [attackers[0]; MAX_COMBINED];
        all[..n].copy_from_slice(attackers);
        Ok(CombinedMelee {
            attackers: all,
            count: u8::try_from(n).map_err(|_| crate::error::SetupError::Partners(n))?,
            defender,
            casualties,
            two_level,
            dropped,
        })
    }

    /// The attacking companies, in declared order.
    pub fn attackers(&self) -> &[MeleeSide] {
        &self.attackers[..usize::from(self.count)]
    }

    fn start(&self) -> Fight {
        let mut a = [[0u8; 3]; MAX_COMBINED];
        for (i, s) in self.attackers().iter().enumerate() {
            a[i] = start8(s);
        }
        Fight {
            a,
            d: start8(&self.defender),
            holding: (1u8 << self.count) - 1,
            dropped: self.dropped,
        }
    }

    /// The attacking figures that fight this round.
    fn attacking(&self, f: &Fight) -> u32 {
        (0..usize::from(self.count))
            .filter(|&i| f.holding & (1 << i) != 0)
            .map(|i| total8(&f.a[i]))
            .sum()
    }

    /// Each company's and the defender's shifted die this round, by kind (the first-round bonuses only in
    /// round 1; no mounted +1 once unhorsed, −1 the round after).
    fn shift_table(&self, first: bool) -> ShiftTable {
        let mut t = [[kind_shift(self.defender.first_round, FOOT, first); 3]; MAX_COMBINED + 1];
        for (i, side) in self.attackers().iter().enumerate() {
            for (kind, shift) in t[i].iter_mut().enumerate() {
                *shift = kind_shift(side.first_round, kind, first);
            }
        }
        for (kind, shift) in t[DEFENDER_SLOT].iter_mut().enumerate() {
            *shift = kind_shift(self.defender.first_round, kind, first);
        }
        t
    }

    /// The `e`-th attacking figure in line: companies in declared order, each mounted, unhorsed, on foot.
    fn attacker_at(&self, f: &Fight, mut e: u32, t: &ShiftTable) -> Fighter {
        let mut last = 0;
        let companies = t.iter().zip(&f.a).enumerate();
        for (i, (shifts, kinds)) in companies.take(usize::from(self.count)) {
            if f.holding & (1 << i) == 0 {
                continue;
            }
            last = i;
            let n = total8(kinds);
            if e < n {
                let kind = kind_at(&kinds.map(u32::from), e);
                return Fighter {
                    shift: shifts[kind],
                    kind,
                    slot: i,
                };
            }
            e -= n;
        }
        Fighter {
            shift: t[last][FOOT],
            kind: FOOT,
            slot: last,
        }
    }

    /// The `j`-th defending figure in line: mounted, unhorsed, on foot.
    fn defender_at(&self, f: &Fight, j: u32, t: &ShiftTable) -> Fighter {
        let kind = kind_at(&f.d.map(u32::from), j);
        Fighter {
            shift: t[DEFENDER_SLOT][kind],
            kind,
            slot: DEFENDER_SLOT,
        }
    }

    /// Pairing group `g` of a round: its lone figure, how many opponents he has in the other line, and
    /// whether the lone figures are the defender's.
    fn group(&self, f: &Fight, g: u32, t: &ShiftTable) -> (Fighter, u32, bool) {
        let (total, d) = (self.attacking(f), total8(&f.d));
        if total >= d {
            (self.defender_at(f, g, t), group_size(total, d, g), true)
        } else {
            (self.attacker_at(f, g, t), group_size(d, total, g), false)
        }
    }

    fn outcome(&self, f: &Fight, winner: Option<AssaultSide>) -> CombinedOutcome {
        let count = |n: u32| u8::try_from(n).unwrap_or(u8::MAX);
        let (mut attacker_down, mut fell_back, mut unhorsed) = (0u32, 0u8, 0u32);
        for (i, s) in self.attackers().iter().enumerate() {
            attacker_down += u32::from(s.figures).saturating_sub(total8(&f.a[i]));
            fell_back += u8::from(f.holding & (1 << i) == 0 && total8(&f.a[i]) > 0);
            if s.first_round.mounted {
                unhorsed += u32::from(f.a[i][UNHORSED]) + u32::from(f.a[i][FOOT]);
            }
        }
        let defender_unhorsed = if self.defender.first_round.mounted {
            u32::from(f.d[UNHORSED]) + u32::from(f.d[FOOT])
        } else {
            0
        };
        CombinedOutcome {
            winner,
            attacker_down: count(attacker_down),
            defender_down: count(u32::from(self.defender.figures).saturating_sub(total8(&f.d))),
            fell_back,
            attacker_unhorsed: count(unhorsed),
            defender_unhorsed: count(defender_unhorsed),
        }
    }

    /// A side's end-of-round test.
    fn test(&self, side: &MeleeSide, casualties: u32, extra: i16) -> ConfidenceTest {
        ConfidenceTest {
            quality: side.quality,
            lv: side.lv,
            tl: i16::try_from(casualties).unwrap_or(i16::MAX) + side.modifier + extra,
            two_level: self.two_level,
        }
    }

    /// After a round's losses: the figures left, who still fights, and the test facts; or the winner when
    /// a side is down. A rider unhorsed is not a casualty.
    fn after_round(
        &self,
        f: &Fight,
        loss: &RoundLoss,
        first: bool,
    ) -> Result<Settled, (Fight, AssaultSide)> {
        let mut n = *f;
        let step = |c: &Kinds8, l: &[u8]| -> Kinds8 {
            [
                c[0].saturating_sub(l[0]).saturating_sub(l[1]),
                l[1],
                (c[1] + c[2]).saturating_sub(l[2]),
            ]
        };
        for i in 0..MAX_COMBINED {
            n.a[i] = step(&f.a[i], &loss[i * 3..i * 3 + 3]);
        }
        let ds = DEFENDER_SLOT * 3;
        n.d = step(&f.d, &loss[ds..ds + 3]);
        if total8(&n.d) == 0 {
            return Err((n, AssaultSide::Attacker));
        }
        for i in 0..usize::from(self.count) {
            if total8(&n.a[i]) == 0 {
                n.holding &= !(1 << i);
            }
        }
        if n.holding == 0 {
            return Err((n, AssaultSide::Defender));
        }
        let mut counts = [0u32; MAX_COMBINED];
        let (mut a_sum, mut d_sum) = (0u32, 0u32);
        for (i, c) in counts.iter_mut().enumerate().take(usize::from(self.count)) {
            let this = u32::from(loss[i * 3]) + u32::from(loss[i * 3 + 2]);
            let whole = u32::from(self.attackers[i].figures).saturating_sub(total8(&n.a[i]));
            // every company that fought this round counts, one just cut down included
            if f.holding & (1 << i) != 0 {
                a_sum += if first { this } else { whole };
            }
            *c = match self.casualties {
                AssaultTestCasualties::ThisRound => this,
                AssaultTestCasualties::WholeAssault => whole,
            };
        }
        let d_this = u32::from(loss[ds]) + u32::from(loss[ds + 2]);
        let d_whole = u32::from(self.defender.figures).saturating_sub(total8(&n.d));
        d_sum += if first { d_this } else { d_whole };
        let d_count = match self.casualties {
            AssaultTestCasualties::ThisRound => d_this,
            AssaultTestCasualties::WholeAssault => d_whole,
        };
        Ok((n, d_sum >= a_sum, counts, d_count))
    }

    /// The opponents of a group: `k` figures of the other line from `next`.
    fn opponents(
        &self,
        f: &Fight,
        defenders_lone: bool,
        next: u32,
        k: u32,
        t: &ShiftTable,
    ) -> impl Iterator<Item = Fighter> + Clone + '_ {
        let (f, t) = (*f, *t);
        (next..next + k).map(move |e| {
            if defenders_lone {
                self.attacker_at(&f, e, &t)
            } else {
                self.defender_at(&f, e, &t)
            }
        })
    }

    /// The number of pairing groups: the smaller line's figures.
    fn groups(&self, f: &Fight) -> u32 {
        self.attacking(f).min(total8(&f.d))
    }

    /// Rolls one round's losses from a position.
    fn roll_round<D: Dice + ?Sized>(&self, f: &Fight, first: bool, dice: &mut D) -> RoundLoss {
        let mut loss: RoundLoss = [0; 15];
        let mut next = 0u32;
        let t = self.shift_table(first);
        for g in 0..self.groups(f) {
            let (lone, k, defenders_lone) = self.group(f, g, &t);
            roll_group(
                lone,
                self.opponents(f, defenders_lone, next, k, &t),
                &mut loss,
                dice,
            );
            next += k;
        }
        loss
    }

    /// The distribution of one round's losses from a position.
    fn round_odds(&self, f: &Fight, first: bool) -> Vec<(RoundLoss, f64)> {
        let mut cur: Vec<(RoundLoss, f64)> = vec![([0; 15], 1.0)];
        // groups alike (the lone figure and his opponents) share one distribution
        let mut seen: Vec<SeenGroup> = Vec::new();
        let mut next = 0u32;
        let t = self.shift_table(first);
        for g in 0..self.groups(f) {
            let (lone, k, defenders_lone) = self.group(f, g, &t);
            let opps: Vec<Fighter> = self.opponents(f, defenders_lone, next, k, &t).collect();
            next += k;
            let i = match seen.iter().position(|(l, o, _)| *l == lone && *o == opps) {
                Some(i) => i,
                None => {
                    let dist = group_loss_odds(lone, &opps);
                    seen.push((lone, opps, dist));
                    seen.len() - 1
                }
            };
            let group = &seen[i].2;
            let mut nx = Vec::with_capacity(cur.len() * group.len());
            for &(a, p) in &cur {
                for &(b, q) in group {
                    let mut s = a;
                    for (x, y) in s.iter_mut().zip(b) {
                        *x += y;
                    }
                    nx.push((s, p * q));
                }
            }
            cur = merge(nx);
        }
        cur
    }
}

fn pass_chance(t: &ConfidenceTest) -> f64 {
    let faces = t.quality.faces();
    let pass = (1..=faces)
        .filter(|&r| t.judge(r) == Confidence::Pass)
        .count();
    pass as f64 / f64::from(faces)
}

impl Resolve for CombinedMelee {
    type Outcome = CombinedOutcome;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> CombinedOutcome {
        let mut f = self.start();
        for round in 0..MAX_ROUNDS {
            let first = round == 0;
            let loss = self.roll_round(&f, first, dice);
            let (n, defender_first, counts, d_count) = match self.after_round(&f, &loss, first) {
                Ok(x) => x,
                Err((n, winner)) => return self.outcome(&n, Some(winner)),
            };
            f = n;
            for side in if defender_first {
                [true, false]
            } else {
                [false, true]
            } {
                if side {
                    let t = self.test(&self.defender, d_count, 0);
                    if t.roll(dice) != Confidence::Pass {
                        return self.outcome(&f, Some(AssaultSide::Attacker));
                    }
                } else {
                    for (i, (side, &cas)) in self.attackers().iter().zip(&counts).enumerate() {
                        if f.holding & (1 << i) == 0 {
                            continue;
                        }
                        let t = self.test(side, cas, i16::from(f.dropped));
                        if t.roll(dice) != Confidence::Pass {
                            f.holding &= !(1 << i);
                            f.dropped = true;
                        }
                    }
                    if f.holding == 0 {
                        return self.outcome(&f, Some(AssaultSide::Defender));
                    }
                }
            }
        }
        self.outcome(&f, None)
    }

    fn odds(&self) -> Dist<CombinedOutcome> {
        let start = self.start();
        let ends = sweep(
            self.moves(&start, true),
            |f| self.moves(f, false),
            |f| self.outcome(f, None),
            // kinds only fall, companies only drop out, and a drop-out is for good
            |f| (f.a, f.d, f.holding, !f.dropped),
        );
        Dist::weighted(ends).unwrap_or_else(|_| Dist::certain(self.outcome(&start, None)))
    }
}

impl CombinedMelee {
    /// One round from a position and the tests after it: the positions it can leave the fight in and the
    /// ends it can reach, each with its chance.
    fn moves(&self, f: &Fight, first: bool) -> Moves<Fight, CombinedOutcome> {
        let mut ends: Vec<(CombinedOutcome, f64)> = Vec::new();
        let mut next: Vec<(Fight, f64)> = Vec::new();
        for (loss, q) in self.round_odds(f, first) {
            let (n, defender_first, counts, d_count) = match self.after_round(f, &loss, first) {
                Ok(x) => x,
                Err((n, winner)) => {
                    ends.push((self.outcome(&n, Some(winner)), q));
                    continue;
                }
            };
            let hold_d = pass_chance(&self.test(&self.defender, d_count, 0));
            // the attackers' tests in order, each failure +1 to the later ones
            let mut branches: Vec<(Fight, f64)> = vec![(n, 1.0)];
            for (i, (side, &cas)) in self.attackers().iter().zip(&counts).enumerate() {
                if n.holding & (1 << i) == 0 {
                    continue;
                }
                let mut nb = Vec::with_capacity(branches.len() * 2);
                for &(b, w) in &branches {
                    let t = self.test(side, cas, i16::from(b.dropped));
                    let ph = pass_chance(&t);
                    nb.push((b, w * ph));
                    let mut out = b;
                    out.holding &= !(1 << i);
                    out.dropped = true;
                    nb.push((out, w * (1.0 - ph)));
                }
                branches = nb.into_iter().filter(|e| e.1 > 0.0).collect();
            }
            if defender_first {
                ends.push((
                    self.outcome(&n, Some(AssaultSide::Attacker)),
                    q * (1.0 - hold_d),
                ));
                for (b, w) in branches {
                    let w = q * hold_d * w;
                    if b.holding == 0 {
                        ends.push((self.outcome(&b, Some(AssaultSide::Defender)), w));
                    } else {
                        next.push((b, w));
                    }
                }
            } else {
                for (b, w) in branches {
                    let w = q * w;
                    if b.holding == 0 {
                        ends.push((self.outcome(&b, Some(AssaultSide::Defender)), w));
                    } else {
                        ends.push((
                            self.outcome(&b, Some(AssaultSide::Attacker)),
                            w * (1.0 - hold_d),
                        ));
                        next.push((b, w * hold_d));
                    }
                }
            }
        }
        (next, ends)
    }
}

/// One company of a [`CombinedAssault`].
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Partner {
    /// Its reaction test to go in, as if no partner had failed: once one has, the procedure adds +1.
    pub attack: ReactionTest,
    /// In close formation as it goes in: the defender's stand test is +1 (HT-MEL-04).
    pub close_formation: bool,
    /// Mounted cavalry: the defender's stand test is +1 unless it is mounted too (HT-MEL-04).
    pub mounted: bool,
    /// Its combat move to contact; one that falls short moves again over what is left.
    pub approach: CombatMove,
    /// Its side of the melee; its figures also count toward the stand test's odds, and are the pool final
    /// defensive fire falls on.
    pub melee: MeleeSide,
    /// Its armour die against final defensive fire (D4 for a Civil War soldier).
    pub armour: DieType,
    /// Its leader's place among its figures (None without a fit leader): a leader down to final defensive
    /// fire is replaced, and the new leader's LV rolled, if a figure is left.
    pub leader: Option<u8>,
    /// The places among its figures, in the order they stand in the company (bit i for the i-th), of the
    /// riders already on foot (`melee.on_foot` of them), which final defensive fire counts along; 0 stands
    /// them after the riders still mounted.
    pub on_foot_at: u64,
}

/// Final defensive fire in a [`CombinedAssault`] (HT-MEL-07, HT-SG2-37, First Volley HT-OPT-14): the
/// defender's free small-arms fire at the first company to fall short, at the distance it has left — the
/// range die from the defender's quality band, the firer's dice from its firepower with the range's spill,
/// each potential hit allocated over the company's figures and rolled against its armour.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FinalFire {
    /// The defender's firepower: quality, firing figures' half-dice, skirmish, First Volley (its `spill` is
    /// set by the range).
    pub firepower: crate::fire::FirepowerFacts,
    /// The defender's range band in inches (its quality's).
    pub band_inches: f64,
    /// The defender's small arm's impact die.
    pub impact: DieType,
    /// The options in force (range and firer dice, the kill threshold).
    pub options: crate::options::Options,
}

impl FinalFire {
    /// The fire's dice at `distance`, or None beyond its reach.
    fn dice_at(&self, distance: f64) -> Option<crate::fire::FireDice> {
        use crate::fire::{FireKind, RangeDie, RangeFacts};
        let rf = RangeFacts::at(distance, self.band_inches);
        let RangeDie::Die { die, spill } =
            crate::fire::range_die(&rf, FireKind::SmallArms, false, &self.options).ok()?
        else {
            return None;
        };
        let pair = crate::fire::firer_dice(
            &crate::fire::FirepowerFacts {
                spill,
                ..self.firepower
            },
            &self.options,
        )
        .ok()?;
        Some(crate::fire::FireDice {
            firer: crate::fire::FirerDice::two(pair.quality, pair.firepower),
            range: die,
        })
    }

    fn impact(&self, armour: DieType) -> crate::fire::Impact {
        crate::fire::Impact {
            impact: self.impact,
            armour,
            armour_shift: 0,
            kill: self.options.kill_threshold,
        }
    }

    /// Rolls the fire at a company whose fighting figures are `side`, from `distance` (HT-MEL-07): each
    /// potential hit allocated over them (counting along them as they stand in the company, HT-SG2-33) and
    /// rolled against `armour`; a hit on a rider still on his horse rolls horse or rider (HT-CAS-03). The
    /// riders already on foot stand at the places `on_foot_at` gives (0: after those still mounted);
    /// `leader` is the leader's place.
    fn roll_on<D: Dice + ?Sized>(
        &self,
        side: &MeleeSide,
        armour: DieType,
        leader: Option<u8>,
        on_foot_at: u64,
        distance: f64,
        dice: &mut D,
    ) -> FireHit {
        let Some(fd) = self.dice_at(distance) else {
            return FireHit::default();
        };
        let effect = fd.roll_effect(dice);
        let n = usize::from(side.figures).clamp(1, crate::fire::MAX_POOL);
        let rides = riders_of(side, on_foot_at, n);
        let on_horse = |i: usize| rides >> i & 1 == 1;
        let mut wounds = [0u8; crate::fire::MAX_POOL];
        let mut killed = [false; crate::fire::MAX_POOL];
        let mut unhorsed = [false; crate::fire::MAX_POOL];
        let impact = self.impact(armour);
        for _ in 0..effect.potential {
            let s = crate::fire::allocate(n, dice);
            let mut hit = impact.roll(dice);
            if on_horse(s) && !unhorsed[s] {
                let (h, lost) = crate::casualties::rider_hit(hit, self.impact, &self.options, dice);
                hit = h;
                unhorsed[s] |= lost;
            }
            match hit {
                crate::fire::HitResult::Killed => killed[s] = true,
                crate::fire::HitResult::Wounded => wounds[s] = wounds[s].saturating_add(1),
                crate::fire::HitResult::NoEffect => {}
            }
        }
        let down = |i: usize| killed[i] || wounds[i] > 0;
        let count = |f: &dyn Fn(usize) -> bool| {
            u8::try_from((0..n).filter(|&i| f(i)).count()).unwrap_or(u8::MAX)
        };
        FireHit {
            casualties: count(&down),
            leader: leader.is_some_and(|l| usize::from(l) < n && down(usize::from(l))),
            unhorsed: count(&|i| on_horse(i) && unhorsed[i] && !down(i)),
            foot_down: count(&|i| !on_horse(i) && down(i)),
        }
    }

    /// The exact odds of [`FinalFire::roll_on`].
    fn odds_on(
        &self,
        side: &MeleeSide,
        armour: DieType,
        leader: Option<u8>,
        on_foot_at: u64,
        distance: f64,
    ) -> Vec<(FireHit, f64)> {
        let Some(fd) = self.dice_at(distance) else {
            return vec![(FireHit::default(), 1.0)];
        };
        let n = usize::from(side.figures).clamp(1, crate::fire::MAX_POOL);
        let probs = self.impact(armour).probabilities();
        let rider = crate::casualties::rider_hit_chances(probs, self.impact, &self.options);
        let leader = leader.map(usize::from).filter(|&l| l < n);
        let mut out = Vec::new();
        for (e, q) in fd.odds().outcomes() {
            for (k, r) in hit_odds(
                n,
                riders_of(side, on_foot_at, n),
                u32::from(e.potential),
                probs,
                rider,
                leader,
            ) {
                out.push((k, q * r));
            }
        }
        merge(out)
    }
}

/// Of a pool of `n` fighting figures, which ride (bit i for the i-th): a mounted side's figures but its
/// riders on foot, at the places `on_foot_at` gives, or with none given its last `side.on_foot`.
fn riders_of(side: &MeleeSide, on_foot_at: u64, n: usize) -> u64 {
    if !side.first_round.mounted {
        return 0;
    }
    let all = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    let foot = if on_foot_at != 0 {
        on_foot_at
    } else {
        let k = usize::from(side.on_foot).min(n);
        all & !(all >> k)
    };
    all & !foot
}

/// What final defensive fire did to a company, as the exact odds follow it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct FireHit {
    /// Figures down.
    casualties: u8,
    /// Its leader among them.
    leader: bool,
    /// Riders whose horse fell who still stand.
    unhorsed: u8,
    /// Riders already on foot who are down.
    foot_down: u8,
}

impl FireHit {
    /// The company's side of the melee after the fire, with its leader's `lv`.
    fn after(&self, side: &MeleeSide, lv: Leadership) -> MeleeSide {
        let figures = side.figures.saturating_sub(self.casualties);
        let on_foot = if side.first_round.mounted {
            side.on_foot
                .min(side.figures)
                .saturating_sub(self.foot_down)
                .saturating_add(self.unhorsed)
                .min(figures)
        } else {
            side.on_foot.min(figures)
        };
        MeleeSide {
            figures,
            lv,
            on_foot,
            ..*side
        }
    }

    /// What a person reads of it.
    fn toll(&self) -> FireToll {
        FireToll {
            casualties: self.casualties,
            unhorsed: self.unhorsed,
        }
    }
}

/// The exact odds of `hits` hits on a pool of `n` figures, those in `rides` (bit i for the i-th) on horseback
/// (HT-SG2-33 allocation, HT-CAS-03 horse or rider): `foot` = one hit's (no effect, wounded, killed) on a
/// man on foot, `rider` = one hit's (rides on, unhorsed, down) on a man on his horse. Figure by figure,
/// a multinomial over the hits each takes.
fn hit_odds(
    n: usize,
    rides: u64,
    hits: u32,
    foot: [f64; 3],
    rider: [f64; 3],
    marked: Option<usize>,
) -> Vec<(FireHit, f64)> {
    let alloc = crate::fire::allocation_odds(n.max(1));
    let h = hits as usize;
    let mut fact = vec![1.0f64; h + 1];
    for i in 1..=h {
        fact[i] = fact[i - 1] * i as f64;
    }
    // state: (hits used, the toll so far) -> weight (without the H! factor)
    let mut cur: Vec<((usize, FireHit), f64)> = vec![((0, FireHit::default()), 1.0)];
    for (fi, &pi) in alloc.iter().enumerate() {
        let last = fi + 1 == alloc.len();
        let mut next: Vec<((usize, FireHit), f64)> = Vec::new();
        for &((used, t), q) in &cur {
            let left = h - used;
            let lo = if last { left } else { 0 };
            for (m, &fm) in fact.iter().enumerate().take(left + 1).skip(lo) {
                let share = pi.powi(m as i32) / fm;
                if share == 0.0 && m > 0 {
                    continue;
                }
                let stay_on_foot = foot[0].powi(m as i32);
                // (stands as he was, stands unhorsed, down) after m hits
                let on_horse = rides >> fi & 1 == 1;
                let fates = if on_horse {
                    let ride = rider[0].powi(m as i32);
                    let unhorsed: f64 = (0..m)
                        .map(|j| {
                            rider[0].powi(j as i32) * rider[1] * foot[0].powi((m - 1 - j) as i32)
                        })
                        .sum();
                    [ride, unhorsed, (1.0 - ride - unhorsed).max(0.0)]
                } else {
                    [stay_on_foot, 0.0, (1.0 - stay_on_foot).max(0.0)]
                };
                for (k, &f) in fates.iter().enumerate() {
                    if f <= 0.0 {
                        continue;
                    }
                    let mut t2 = t;
                    match k {
                        1 => t2.unhorsed += 1,
                        2 => {
                            t2.casualties += 1;
                            t2.leader |= marked == Some(fi);
                            if !on_horse {
                                t2.foot_down += 1;
                            }
                        }
                        _ => {}
                    }
                    next.push(((used + m, t2), q * share * f));
                }
            }
        }
        next.sort_by_key(|a| a.0);
        cur.clear();
        for (key, q) in next {
            match cur.last_mut() {
                Some((lk, lq)) if *lk == key => *lq += q,
                _ => cur.push((key, q)),
            }
        }
    }
    cur.into_iter()
        .filter(|((used, _), _)| *used == h)
        .map(|((_, t), q)| (t, q * fact[h]))
        .collect()
}

/// What final defensive fire did to the attacking company it fell on (HT-MEL-07, HT-CAS-03).
#[must_use]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FireToll {
    /// Figures down, killed or wounded.
    pub casualties: u8,
    /// Riders whose horse fell under the fire and who still stand, on foot.
    pub unhorsed: u8,
}

impl fmt::Display for FireToll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.casualties, self.unhorsed) {
            (0, 0) => f.write_str("no loss to final defensive fire"),
            (c, 0) => write!(f, "{c} down to final defensive fire"),
            (0, u) => write!(f, "{u} unhorsed by final defensive fire"),
            (c, u) => write!(f, "{c} down and {u} unhorsed by final defensive fire"),
        }
    }
}

/// How a [`CombinedAssault`] ended.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CombinedEnd {
    /// Every company failed its test to go in.
    Refused,
    /// The defender failed its stand test (or, Broken, routed) and withdrew, losing this many levels.
    DefenderWithdrew {
        /// Confidence levels it lost.
        levels: u8,
    },
    /// Every company that went in fell short twice and abandoned the assault.
    NoContact,
    /// The melee was fought.
    Melee(CombinedOutcome),
}

impl fmt::Display for CombinedEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CombinedEnd::Refused => f.write_str("no company went in"),
            CombinedEnd::DefenderWithdrew { levels } => {
                write!(f, "the defender withdrew, losing {}", LevelsLost(*levels))
            }
            CombinedEnd::NoContact => f.write_str("no company reached the defender"),
            CombinedEnd::Melee(m) => write!(f, "melee: {m}"),
        }
    }
}

/// A combined close assault from the attackers' tests to the melee's end (HT-SG2-42, HT-MEL-05, HT-MEL-01),
/// as the battle plays it: each company's reaction test in the declared order (+1 once a partner has
/// failed); the defender's stand test at the odds of the fighting figures of those going in (+1 if any is
/// in close formation, +1 if any is mounted and it is not), none for a Broken defender, who routs; each
/// company's combat move, and a second over what is left if it falls short (short again, it drops out, +1
/// to the others' tests); then the [`CombinedMelee`] of those in contact with a figure left.
///
/// With [`CombinedAssault::with_final_fire`] the defender stands with final defensive fire (HT-MEL-07,
/// HT-SG2-37): it falls on the first company to fall short, at the distance it has left ([`FinalFire`]);
/// its casualties leave the melee; a fallen leader is replaced and his successor's LV rolled (HT-SG2-20) if
/// a figure is left; a company with casualties takes a reaction test (TL casualties + its colours + 1 once a
/// partner dropped out) and, failing, withdraws; otherwise it moves again.
///
/// Roll order: the reaction tests, the stand test, each company's move; for the first short with final
/// defensive fire, the fire (its roll, then per hit the allocation die, armour, impact), its casualty
/// confidence test's die (if `fdf_confidence_test`, and there are casualties), the successor's D6, the
/// reaction test and, failing, its confidence test's die; the second move; the melee.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CombinedAssault {
    partners: [Partner; MAX_COMBINED],
    count: u8,
    /// The defender's stand test with its own modifiers in its TL (close formation −1, colours); the
    /// odds and the charge rows are added. `None` for a Broken defender.
    pub stand: Option<ConfidenceTest>,
    /// The defender is mounted cavalry.
    pub defender_mounted: bool,
    /// The defender's side of the melee; its figures set the odds.
    pub defender: MeleeSide,
    /// Which casualties set the melee's round tests.
    pub casualties: AssaultTestCasualties,
    /// The two-level confidence threshold of the melee's tests.
    pub two_level: TwoLevelDrop,
    /// The defender's final defensive fire, if it stands with it (HT-MEL-07).
    pub final_fire: Option<FinalFire>,
}

/// What the moves leave: the companies in contact, whether a partner dropped out, whether final defensive
/// fire was spent, and the company it hit with its side of the melee after it.
type Approach = (u8, bool, bool, Option<(usize, Left)>);

/// A company's fighting figures, riders on foot among them, and LV after final defensive fire.
type Left = (u8, u8, Leadership);

impl FireHit {
    /// [`FireHit::after`] as the key the exact odds merge on.
    fn left(&self, side: &MeleeSide, lv: Leadership) -> Left {
        let a = self.after(side, lv);
        (a.figures, a.on_foot, a.lv)
    }
}

impl CombinedAssault {
    /// A combined assault by `partners` (in declared order). Refuses no partners, more than
    /// [`MAX_COMBINED`], or a company of no figures or more than 48.
    pub fn new(
        partners: &[Partner],
        stand: Option<ConfidenceTest>,
        defender_mounted: bool,
        defender: MeleeSide,
        casualties: AssaultTestCasualties,
        two_level: TwoLevelDrop,
    ) -> Result<CombinedAssault, crate::error::SetupError> {
        let sides: Vec<MeleeSide> = partners.iter().map(|p| p.melee).collect();
        let _ = CombinedMelee::new(&sides, defender, casualties, two_level, false)?;
        let mut all = [partners[0]; MAX_COMBINED];
        all[..partners.len()].copy_from_slice(partners);
        Ok(CombinedAssault {
            partners: all,
            count: u8::try_from(partners.len())
                .map_err(|_| crate::error::SetupError::Partners(partners.len()))?,
            stand,
            defender_mounted,
            defender,
            casualties,
            two_level,
            final_fire: None,
        })
    }

    /// The same assault with the defender standing with final defensive fire (HT-MEL-07).
    pub const fn with_final_fire(self, fire: FinalFire) -> CombinedAssault {
        CombinedAssault {
            final_fire: Some(fire),
            ..self
        }
    }

    /// The companies, in declared order.
    pub fn partners(&self) -> &[Partner] {
        &self.partners[..usize::from(self.count)]
    }

    /// The stand test against the companies in `going` (a bit each).
    fn stand_test(&self, stand: ConfidenceTest, going: u8) -> ConfidenceTest {
        let (mut fighters, mut close, mut mounted) = (0u32, false, false);
        for (i, p) in self.partners().iter().enumerate() {
            if going & (1 << i) != 0 {
                fighters += u32::from(p.melee.figures);
                close |= p.close_formation;
                mounted |= p.mounted;
            }
        }
        ConfidenceTest {
            tl: stand.tl
                + odds_tl(fighters, u32::from(self.defender.figures))
                + i16::from(close)
                + i16::from(mounted && !self.defender_mounted),
            ..stand
        }
    }

    /// The melee of the companies in `reached`, one of them (`hit`) with its side as final defensive fire
    /// left it; a company with no figure left does not fight.
    fn melee(
        &self,
        reached: u8,
        dropped: bool,
        hit: Option<(usize, Left)>,
    ) -> Result<CombinedMelee, crate::error::SetupError> {
        let mut sides = [self.defender; MAX_COMBINED];
        let mut n = 0;
        for (i, p) in self.partners().iter().enumerate() {
            if reached & (1 << i) != 0 {
                let mut side = p.melee;
                if let Some((h, (figures, on_foot, lv))) = hit
                    && h == i
                {
                    side.figures = figures;
                    side.on_foot = on_foot;
                    side.lv = lv;
                }
                if side.figures == 0 {
                    continue;
                }
                sides[n] = side;
                n += 1;
            }
        }
        CombinedMelee::new(
            &sides[..n],
            self.defender,
            self.casualties,
            self.two_level,
            dropped,
        )
    }

    /// A company's reaction test after final defensive fire hit it (HT-MEL-07): at +1 per casualty, its
    /// colours and a partner's drop-out; failing, it withdraws.
    fn after_fire_test(
        &self,
        p: &Partner,
        casualties: u8,
        lv: Leadership,
        dropped: bool,
    ) -> ReactionTest {
        ReactionTest {
            quality: p.melee.quality,
            lv,
            tl: i16::from(casualties) + p.melee.modifier + i16::from(dropped),
        }
    }

    /// The chance a company reaches contact: its first move, or its second over what is left.
    fn reach_chance(approach: &CombatMove) -> f64 {
        approach
            .odds()
            .outcomes()
            .iter()
            .map(|(r, p)| match r {
                MoveResult::Reached => *p,
                MoveResult::Short(moved) => {
                    let left = (approach.distance() - f64::from(*moved)).max(0.0);
                    CombatMove::new(approach.die(), left).map_or(0.0, |second| {
                        p * second.odds().prob(|r| *r == MoveResult::Reached)
                    })
                }
            })
            .sum()
    }
}

impl Resolve for CombinedAssault {
    type Outcome = CombinedEnd;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> CombinedEnd {
        let mut dropped = false;
        let mut going = 0u8;
        for (i, p) in self.partners().iter().enumerate() {
            let t = ReactionTest {
                tl: p.attack.tl + i16::from(dropped),
                ..p.attack
            };
            if t.roll(dice) {
                going |= 1 << i;
            } else {
                dropped = true;
            }
        }
        if going == 0 {
            return CombinedEnd::Refused;
        }
        let Some(stand) = self.stand else {
            return CombinedEnd::DefenderWithdrew { levels: 1 };
        };
        let r = self.stand_test(stand, going).roll(dice);
        if r != Confidence::Pass {
            return CombinedEnd::DefenderWithdrew { levels: r.levels() };
        }
        let mut reached = 0u8;
        let mut fired = false;
        let mut hit: Option<(usize, Left)> = None;
        for (i, p) in self.partners().iter().enumerate() {
            if going & (1 << i) == 0 {
                continue;
            }
            let moved = match p.approach.roll(dice) {
                MoveResult::Reached => {
                    reached |= 1 << i;
                    continue;
                }
                MoveResult::Short(moved) => moved,
            };
            let left = (p.approach.distance() - f64::from(moved)).max(0.0);
            let mut go_on = true;
            if let Some(ff) = self.final_fire
                && !fired
            {
                // final defensive fire at the first company short (HT-MEL-07)
                fired = true;
                let fh = ff.roll_on(&p.melee, p.armour, p.leader, p.on_foot_at, left, dice);
                let cas = fh.casualties;
                if cas > 0 && ff.options.fdf_confidence_test {
                    // its casualty confidence test: the level it may lose is no part of the end
                    dice.face(p.melee.quality.die());
                }
                let figures = p.melee.figures.saturating_sub(cas);
                let mut lv = p.melee.lv;
                if fh.leader && figures > 0 {
                    lv = crate::morale::ReplacementLeader { old: lv }.roll(dice);
                }
                hit = Some((i, fh.left(&p.melee, lv)));
                if cas > 0 {
                    go_on = self.after_fire_test(p, cas, lv, dropped).roll(dice);
                    if !go_on {
                        // withdrawing, it tests confidence: again only its level
                        dice.face(p.melee.quality.die());
                    }
                }
            }
            if go_on {
                go_on = CombatMove::new(p.approach.die(), left)
                    .is_ok_and(|second| second.roll(dice) == MoveResult::Reached);
            }
            if go_on {
                reached |= 1 << i;
            }
            dropped |= !go_on;
        }
        if reached == 0 {
            return CombinedEnd::NoContact;
        }
        match self.melee(reached, dropped, hit) {
            Ok(m) => CombinedEnd::Melee(m.roll(dice)),
            Err(_) => CombinedEnd::NoContact,
        }
    }

    fn odds(&self) -> Dist<CombinedEnd> {
        let mut ends: std::collections::BTreeMap<CombinedEnd, f64> =
            std::collections::BTreeMap::new();
        // the reaction tests: (going, dropped) -> chance
        let mut tests: Vec<((u8, bool), f64)> = vec![((0, false), 1.0)];
        for (i, p) in self.partners().iter().enumerate() {
            let mut next = Vec::with_capacity(tests.len() * 2);
            for &((going, dropped), w) in &tests {
                let t = ReactionTest {
                    tl: p.attack.tl + i16::from(dropped),
                    ..p.attack
                };
                let pass = t.odds().prob(|&b| b);
                next.push(((going | (1 << i), dropped), w * pass));
                next.push(((going, true), w * (1.0 - pass)));
            }
            tests = merge(next.into_iter().filter(|e| e.1 > 0.0).collect());
        }
        let reach: Vec<f64> = self
            .partners()
            .iter()
            .map(|p| Self::reach_chance(&p.approach))
            .collect();
        for ((going, dropped), w) in tests {
            if going == 0 {
                *ends.entry(CombinedEnd::Refused).or_default() += w;
                continue;
            }
            let Some(stand) = self.stand else {
                *ends
                    .entry(CombinedEnd::DefenderWithdrew { levels: 1 })
                    .or_default() += w;
                continue;
            };
            let mut hold = 0.0;
            for (r, p) in self.stand_test(stand, going).odds().outcomes() {
                if *r == Confidence::Pass {
                    hold += p;
                } else {
                    *ends
                        .entry(CombinedEnd::DefenderWithdrew { levels: r.levels() })
                        .or_default() += w * p;
                }
            }
            // the moves: (reached, dropped, final fire spent, the company it hit) -> chance
            let mut moves: Vec<(Approach, f64)> = vec![((0, dropped, false, None), w * hold)];
            for (i, (p, &r)) in self.partners().iter().zip(&reach).enumerate() {
                if going & (1 << i) == 0 {
                    continue;
                }
                let mut next = Vec::with_capacity(moves.len() * 2);
                for &((reached, dropped, fired, hit), q) in &moves {
                    let Some(ff) = self.final_fire.filter(|_| !fired) else {
                        next.push(((reached | (1 << i), dropped, fired, hit), q * r));
                        next.push(((reached, true, fired, hit), q * (1.0 - r)));
                        continue;
                    };
                    for &(m, pm) in p.approach.odds().outcomes() {
                        let MoveResult::Short(moved) = m else {
                            next.push(((reached | (1 << i), dropped, false, hit), q * pm));
                            continue;
                        };
                        let left = (p.approach.distance() - f64::from(moved)).max(0.0);
                        let second = CombatMove::new(p.approach.die(), left)
                            .map_or(0.0, |s| s.odds().prob(|r| *r == MoveResult::Reached));
                        for (fh, pf) in ff.odds_on(&p.melee, p.armour, p.leader, p.on_foot_at, left)
                        {
                            let cas = fh.casualties;
                            let figures = p.melee.figures.saturating_sub(cas);
                            let lvs: Vec<(Leadership, f64)> = if fh.leader && figures > 0 {
                                crate::morale::ReplacementLeader { old: p.melee.lv }
                                    .odds()
                                    .outcomes()
                                    .to_vec()
                            } else {
                                vec![(p.melee.lv, 1.0)]
                            };
                            for (lv, pl) in lvs {
                                let pass = if cas > 0 {
                                    self.after_fire_test(p, cas, lv, dropped)
                                        .odds()
                                        .prob(|&b| b)
                                } else {
                                    1.0
                                };
                                let w = q * pm * pf * pl;
                                let h = Some((i, fh.left(&p.melee, lv)));
                                next.push((
                                    (reached | (1 << i), dropped, true, h),
                                    w * pass * second,
                                ));
                                next.push(((reached, true, true, h), w * (1.0 - pass * second)));
                            }
                        }
                    }
                }
                moves = merge(next.into_iter().filter(|e| e.1 > 0.0).collect());
            }
            for ((reached, dropped, _, hit), q) in moves {
                if reached == 0 {
                    *ends.entry(CombinedEnd::NoContact).or_default() += q;
                    continue;
                }
                match self.melee(reached, dropped, hit) {
                    Ok(m) => {
                        for (o, p) in m.odds().outcomes() {
                            *ends.entry(CombinedEnd::Melee(*o)).or_default() += q * p;
                        }
                    }
                    // every company in contact was cut down by the fire: no melee
                    Err(_) => *ends.entry(CombinedEnd::NoContact).or_default() += q,
                }
            }
        }
        Dist::weighted(ends).unwrap_or_else(|_| Dist::certain(CombinedEnd::Refused))
    }
}

/// What happens to a downed figure after the assault (HT-SG2-41, HT-MEL-15).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum DownedFate {
    /// D6 1–2.
    Dead,
    /// D6 3–4.
    Wounded,
    /// D6 5–6: returns to a winning side, captured from a losing one.
    Stunned,
}

impl DownedFate {
    /// The fate a D6 roll gives.
    pub const fn of(roll: u16) -> DownedFate {
        match roll {
            1 | 2 => DownedFate::Dead,
            3 | 4 => DownedFate::Wounded,
            _ => DownedFate::Stunned,
        }
    }
}

/// The fates of `downed` figures (HT-SG2-41): one D6 each, counted as (dead, wounded, stunned).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DownedFates {
    /// Figures down.
    pub downed: u8,
}

impl Resolve for DownedFates {
    type Outcome = (u8, u8, u8);
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> (u8, u8, u8) {
        let mut c = (0, 0, 0);
        for _ in 0..self.downed {
            match DownedFate::of(dice.face(Die::D6)) {
                DownedFate::Dead => c.0 += 1,
                DownedFate::Wounded => c.1 += 1,
                DownedFate::Stunned => c.2 += 1,
            }
        }
        c
    }
    fn odds(&self) -> Dist<(u8, u8, u8)> {
        let one = Dist::die(Die::D6).map(|&f| match DownedFate::of(f as u16) {
            DownedFate::Dead => (1u8, 0u8, 0u8),
            DownedFate::Wounded => (0, 1, 0),
            DownedFate::Stunned => (0, 0, 1),
        });
        let mut acc = Dist::certain((0u8, 0u8, 0u8));
        for _ in 0..self.downed {
            acc = acc
                .product(&one)
                .map(|(a, b)| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
        }
        acc
    }
}

/// How a whole close assault ended.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum AssaultEnd {
    /// The attacker failed its reaction test and does not assault.
    AttackerRefused,
    /// The defender failed its stand test (or was Broken) and withdrew, losing levels.
    DefenderWithdrew {
        /// Levels the defender lost (a Broken defender routs: 1).
        levels: u8,
    },
    /// Hit by final defensive fire, the attacker failed its reaction test to go on and withdrew.
    Faltered {
        /// What the fire did.
        fire: FireToll,
    },
    /// The attacker was still short of contact after its second move and abandoned the assault.
    FellShort {
        /// What final defensive fire did on the way.
        fire: FireToll,
    },
    /// Still short of contact after its second move, the attacker aborted (its side's choice,
    /// [`AtShort::Abort`]): it took the 1/0/NTR test in place of suppression and fell back (HT-SG2-37).
    Aborted {
        /// What final defensive fire did on the way.
        fire: FireToll,
        /// The test's result; `None` where its threat level calls for no test.
        test: Option<Confidence>,
    },
    /// Final defensive fire left no attacker standing to fight: no melee.
    CutDown {
        /// What the fire did.
        fire: FireToll,
    },
    /// Contact: the melee's end.
    Melee {
        /// What final defensive fire did on the way (nothing if the first move reached).
        fire: FireToll,
        /// The melee's end.
        melee: MeleeOutcome,
    },
}

impl fmt::Display for AssaultEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lost = |f: &mut fmt::Formatter<'_>, fire: &FireToll| {
            if *fire == FireToll::default() {
                Ok(())
            } else {
                write!(f, " ({fire})")
            }
        };
        match self {
            AssaultEnd::AttackerRefused => f.write_str("the attackers refused to go in"),
            AssaultEnd::DefenderWithdrew { levels } => {
                write!(f, "the defenders withdrew, losing {}", LevelsLost(*levels))
            }
            AssaultEnd::Faltered { fire } => {
                write!(f, "the attackers faltered under fire and withdrew ({fire})")
            }
            AssaultEnd::FellShort { fire } => {
                f.write_str("the attackers fell short of contact and abandoned the assault")?;
                lost(f, fire)
            }
            AssaultEnd::Aborted { fire, test } => {
                f.write_str("the attackers, still short of contact, aborted the assault")?;
                match test {
                    Some(t) => write!(f, " (their test {t}) and fell back")?,
                    None => f.write_str(" and fell back")?,
                }
                lost(f, fire)
            }
            AssaultEnd::CutDown { fire } => {
                write!(f, "final defensive fire cut down every attacker ({fire})")
            }
            AssaultEnd::Melee { fire, melee } => {
                write!(f, "melee: {melee}")?;
                lost(f, fire)
            }
        }
    }
}

/// Final defensive fire in a [`CloseAssault`] (HT-MEL-07): the defender's fire and the attacking company's
/// armour and leader.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AssaultFire {
    /// The defender's fire.
    pub fire: FinalFire,
    /// The attacker's armour die against it (D4 for a Civil War soldier).
    pub armour: DieType,
    /// The attacker's leader's place among its fighting figures (None without a fit leader): a leader down
    /// to the fire is replaced, and the new leader's LV rolled, if a figure is left.
    pub leader: Option<u8>,
    /// The places among its fighting figures, in the order they stand in the company (bit i for the i-th),
    /// of the riders already on foot (`melee.attacker.on_foot` of them), which the fire counts along; 0
    /// stands them after the riders still mounted.
    #[cfg_attr(feature = "serde", serde(default))]
    pub on_foot_at: u64,
}

/// What an attacker still short of contact after its second combat move does (HT-SG2-37): its side's
/// choice, which the game asks (`Order::StayMidDash`, `Order::AbortAssault`).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum AtShort {
    /// It stays mid-dash where its two moves left it, with no test ([`AssaultEnd::FellShort`]).
    #[default]
    StayMidDash,
    /// It aborts as if it had faltered: the test that replaces suppression (HT-INT-04: 1/0/NTR by
    /// motivation, with its modifiers — close formation −1 and the rest), then it falls back
    /// ([`AssaultEnd::Aborted`]). `tl` is that test's threat level (`None`: no test), `two_level` the
    /// two-level threshold; the test rolls the company's quality die against its LV as it then stands (a
    /// leader replaced under final defensive fire rolls with his own).
    Abort {
        /// The threat level of the test, or `None` where the company's row calls for none.
        tl: Option<i16>,
        /// The two-level threshold (HT-SG2-16).
        two_level: TwoLevelDrop,
    },
}

impl AtShort {
    /// The abort's test for a company of `quality` led at `lv`, or `None` (staying, or no test).
    fn test(self, quality: DieType, lv: Leadership) -> Option<ConfidenceTest> {
        match self {
            AtShort::StayMidDash => None,
            AtShort::Abort { tl, two_level } => tl.map(|tl| ConfidenceTest {
                quality,
                lv,
                tl,
                two_level,
            }),
        }
    }
}

/// A close assault by one company from the attacker's test to its end (HT-MEL-01, HT-SG2-35..40), as the
/// battle plays it: the attacker's reaction test, the defender's stand test (none for a Broken defender,
/// who routs, HT-MEL-16), the combat move to contact and, short, a second one over what is left (short
/// again, its side chooses, [`AtShort`]: it stays mid-dash, or aborts, taking its test and falling back),
/// then the melee.
///
/// With `final_fire` the defender stands with final defensive fire (HT-MEL-07, HT-SG2-37), read as the
/// exact [`CombinedAssault`] reads it: after a short first move the fire falls on the company's fighting
/// figures at the distance it has left (beyond the band's reach, no fire), a hit on a rider still on his
/// horse rolls horse or rider (HT-CAS-03); a fallen leader's successor rolls his LV (HT-SG2-20) if a figure
/// is left; a company with casualties takes a reaction test (TL casualties + its melee modifier) and,
/// failing, withdraws ([`AssaultEnd::Faltered`]); otherwise it moves again. Its casualties leave the melee
/// and its unhorsed riders fight it on foot.
///
/// Roll order: the reaction test, the stand test, the move; after a short move with final defensive fire,
/// the fire (its roll, then per hit the allocation die, armour, impact and, for a rider, the D10 and the
/// horse's state), its casualty confidence test's die (if `fdf_confidence_test`, and there are casualties),
/// the successor's D6, the reaction test and, failing, its confidence test's die; the second move; short
/// again, the abort's test if it aborts; the melee. The levels the fire's two confidence tests cost are no
/// part of the end; the abort's test is ([`AssaultEnd::Aborted`]).
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CloseAssault {
    /// The attacker's reaction test.
    pub attack: ReactionTest,
    /// The defender's stand test; `None` for a Broken defender.
    pub stand: Option<ConfidenceTest>,
    /// The combat move into contact; one that falls short moves again over what is left.
    pub approach: CombatMove,
    /// The melee on contact.
    pub melee: Melee,
    /// The defender's final defensive fire, if it stands with it (HT-MEL-07).
    #[cfg_attr(feature = "serde", serde(default))]
    pub final_fire: Option<AssaultFire>,
    /// What it does if still short after its second move (HT-SG2-37).
    #[cfg_attr(feature = "serde", serde(default))]
    pub at_short: AtShort,
}

impl CloseAssault {
    /// The attacker's reaction test after final defensive fire hit it (HT-MEL-07): +1 per casualty and its
    /// melee modifier (colours); failing, it withdraws.
    fn after_fire_test(&self, casualties: u8, lv: Leadership) -> ReactionTest {
        let a = &self.melee.attacker;
        ReactionTest {
            quality: a.quality,
            lv,
            tl: i16::from(casualties) + a.modifier,
        }
    }

    /// The chance a second move over `left` inches reaches.
    fn second_reach(&self, left: f64) -> f64 {
        CombatMove::new(self.approach.die(), left)
            .map_or(0.0, |m| m.odds().prob(|r| *r == MoveResult::Reached))
    }
}

impl Resolve for CloseAssault {
    type Outcome = AssaultEnd;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> AssaultEnd {
        if !self.attack.roll(dice) {
            return AssaultEnd::AttackerRefused;
        }
        match self.stand {
            None => return AssaultEnd::DefenderWithdrew { levels: 1 },
            Some(s) => {
                let r = s.roll(dice);
                if r != Confidence::Pass {
                    return AssaultEnd::DefenderWithdrew { levels: r.levels() };
                }
            }
        }
        let moved = match self.approach.roll(dice) {
            MoveResult::Reached => {
                return AssaultEnd::Melee {
                    fire: FireToll::default(),
                    melee: self.melee.roll(dice),
                };
            }
            MoveResult::Short(moved) => moved,
        };
        let left = (self.approach.distance() - f64::from(moved)).max(0.0);
        let mut side = self.melee.attacker;
        let mut toll = FireToll::default();
        let mut faltered = false;
        if let Some(af) = self.final_fire {
            let fh = af
                .fire
                .roll_on(&side, af.armour, af.leader, af.on_foot_at, left, dice);
            let cas = fh.casualties;
            if cas > 0 && af.fire.options.fdf_confidence_test {
                // its casualty confidence test: the level it may lose is no part of the end
                dice.face(side.quality.die());
            }
            let mut lv = side.lv;
            if fh.leader && side.figures > cas {
                lv = crate::morale::ReplacementLeader { old: lv }.roll(dice);
            }
            if cas > 0 && !self.after_fire_test(cas, lv).roll(dice) {
                // withdrawing, it tests confidence: again only its level
                dice.face(side.quality.die());
                faltered = true;
            }
            toll = fh.toll();
            side = fh.after(&side, lv);
        }
        let reached = !faltered
            && CombatMove::new(self.approach.die(), left)
                .is_ok_and(|second| second.roll(dice) == MoveResult::Reached);
        if side.figures == 0 {
            AssaultEnd::CutDown { fire: toll }
        } else if faltered {
            AssaultEnd::Faltered { fire: toll }
        } else if !reached {
            match self.at_short {
                AtShort::StayMidDash => AssaultEnd::FellShort { fire: toll },
                AtShort::Abort { .. } => AssaultEnd::Aborted {
                    fire: toll,
                    test: self
                        .at_short
                        .test(side.quality, side.lv)
                        .map(|t| t.roll(dice)),
                },
            }
        } else {
            AssaultEnd::Melee {
                fire: toll,
                melee: Melee {
                    attacker: side,
                    ..self.melee
                }
                .roll(dice),
            }
        }
    }

    fn odds(&self) -> Dist<AssaultEnd> {
        let mut ends: std::collections::BTreeMap<AssaultEnd, f64> =
            std::collections::BTreeMap::new();
        let go = self.attack.odds().prob(|&b| b);
        *ends.entry(AssaultEnd::AttackerRefused).or_default() += 1.0 - go;
        let hold = match self.stand {
            None => {
                *ends
                    .entry(AssaultEnd::DefenderWithdrew { levels: 1 })
                    .or_default() += go;
                0.0
            }
            Some(s) => {
                let mut hold = 0.0;
                for (r, p) in s.odds().outcomes() {
                    if *r == Confidence::Pass {
                        hold += p;
                    } else {
                        *ends
                            .entry(AssaultEnd::DefenderWithdrew { levels: r.levels() })
                            .or_default() += go * p;
                    }
                }
                hold
            }
        };
        let w = go * hold;
        // the melees to fight: (the attacker's figures, riders on foot, LV; the fire's toll) -> chance
        let mut melees: Vec<((Left, FireToll), f64)> = Vec::new();
        let start = &self.melee.attacker;
        for &(m, pm) in self.approach.odds().outcomes() {
            let MoveResult::Short(moved) = m else {
                melees.push((
                    (
                        (start.figures, start.on_foot, start.lv),
                        FireToll::default(),
                    ),
                    w * pm,
                ));
                continue;
            };
            let left = (self.approach.distance() - f64::from(moved)).max(0.0);
            let second = self.second_reach(left);
            let hits = match self.final_fire {
                Some(af) => af
                    .fire
                    .odds_on(start, af.armour, af.leader, af.on_foot_at, left),
                None => vec![(FireHit::default(), 1.0)],
            };
            for (fh, pf) in hits {
                let toll = fh.toll();
                let cas = fh.casualties;
                if start.figures <= cas {
                    *ends.entry(AssaultEnd::CutDown { fire: toll }).or_default() += w * pm * pf;
                    continue;
                }
                let lvs: Vec<(Leadership, f64)> = if fh.leader {
                    crate::morale::ReplacementLeader { old: start.lv }
                        .odds()
                        .outcomes()
                        .to_vec()
                } else {
                    vec![(start.lv, 1.0)]
                };
                for (lv, pl) in lvs {
                    let q = w * pm * pf * pl;
                    let pass = if cas > 0 {
                        self.after_fire_test(cas, lv).odds().prob(|&b| b)
                    } else {
                        1.0
                    };
                    *ends.entry(AssaultEnd::Faltered { fire: toll }).or_default() +=
                        q * (1.0 - pass);
                    let short = q * pass * (1.0 - second);
                    match (self.at_short, self.at_short.test(start.quality, lv)) {
                        (AtShort::StayMidDash, _) => {
                            *ends
                                .entry(AssaultEnd::FellShort { fire: toll })
                                .or_default() += short;
                        }
                        (AtShort::Abort { .. }, None) => {
                            *ends
                                .entry(AssaultEnd::Aborted {
                                    fire: toll,
                                    test: None,
                                })
                                .or_default() += short;
                        }
                        (AtShort::Abort { .. }, Some(t)) => {
                            for (r, p) in t.odds().outcomes() {
                                *ends
                                    .entry(AssaultEnd::Aborted {
                                        fire: toll,
                                        test: Some(*r),
                                    })
                                    .or_default() += short * p;
                            }
                        }
                    }
                    melees.push(((fh.left(start, lv), toll), q * pass * second));
                }
            }
        }
        let melees = merge(melees.into_iter().filter(|e| e.1 > 0.0).collect());
        for (((figures, on_foot, lv), fire), q) in melees {
            let m = Melee {
                attacker: MeleeSide {
                    figures,
                    on_foot,
                    lv,
                    ..*start
                },
                ..self.melee
            };
            for (o, p) in m.odds().outcomes() {
                *ends
                    .entry(AssaultEnd::Melee { fire, melee: *o })
                    .or_default() += q * p;
            }
        }
        Dist::weighted(ends.into_iter().filter(|e| e.1 > 0.0))
            .unwrap_or_else(|_| Dist::certain(AssaultEnd::AttackerRefused))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // HT-SG2-36: the odds threat level.
    #[test]
    fn odds_levels() {
        assert_eq!(odds_tl(6, 4), 1);
        assert_eq!(odds_tl(8, 4), 2);
        assert_eq!(odds_tl(3, 4), 1);
    }

    /// The odds of a melee on foot as they were first worked out, with the ends and the positions of each
    /// round summed in maps: what [`Melee::odds`] must give to the last bit.
    fn odds_by_maps(m: &Melee) -> Dist<MeleeOutcome> {
        let (a0, d0) = (u32::from(m.attacker.figures), u32::from(m.defender.figures));
        let mk = |end, a: u32, d: u32| MeleeOutcome {
            end,
            attacker_down: u8::try_from(a0 - a).unwrap_or(u8::MAX),
            defender_down: u8::try_from(d0 - d).unwrap_or(u8::MAX),
            attacker_unhorsed: 0,
            defender_unhorsed: 0,
        };
        if !m.validate() {
            return Dist::certain(mk(MeleeEnd::Stalemate, a0, d0));
        }
        let mut ends: std::collections::BTreeMap<MeleeOutcome, f64> =
            std::collections::BTreeMap::new();
        let mut live: Vec<((u32, u32), f64)> = vec![((a0, d0), 1.0)];
        type Rounds = Vec<((u32, u32), f64)>;
        let mut cache: std::collections::BTreeMap<(u32, u32, bool), Rounds> =
            std::collections::BTreeMap::new();
        for round in 0..MAX_ROUNDS {
            let first = round == 0;
            let mut next: Vec<((u32, u32), f64)> = Vec::new();
            for &((a, d), p) in &live {
                let rounds = cache
                    .entry((a, d, first))
                    .or_insert_with(|| round_odds(m, a, d, first));
                for &((ca, cd), q) in rounds.iter() {
                    let (na, nd) = (a - ca, d - cd);
                    let pq = p * q;
                    if na == 0 {
                        let loser = AssaultSide::Attacker;
                        *ends
                            .entry(mk(MeleeEnd::Destroyed { loser }, na, nd))
                            .or_default() += pq;
                        continue;
                    }
                    if nd == 0 {
                        let loser = AssaultSide::Defender;
                        *ends
                            .entry(mk(MeleeEnd::Destroyed { loser }, na, nd))
                            .or_default() += pq;
                        continue;
                    }
                    let this = (ca, cd);
                    let overall = (a0 - na, d0 - nd);
                    let t1 = first_tester(first, this, overall);
                    let mut hold = pq;
                    for tester in [t1, other(t1)] {
                        let test = m.round_test(tester, this, overall);
                        let faces = test.quality.faces();
                        let mut p = [0.0f64; 3];
                        for f in 1..=faces {
                            p[usize::from(test.judge(f).levels())] += 1.0 / f64::from(faces);
                        }
                        for (levels, &pr) in p.iter().enumerate().skip(1) {
                            if pr > 0.0 {
                                let levels = u8::try_from(levels).unwrap_or(2);
                                let end = mk(
                                    MeleeEnd::FellBack {
                                        loser: tester,
                                        levels,
                                    },
                                    na,
                                    nd,
                                );
                                *ends.entry(end).or_default() += hold * pr;
                            }
                        }
                        hold *= p[0];
                    }
                    if hold > 0.0 {
                        next.push(((na, nd), hold));
                    }
                }
            }
            live = merge(next);
            if live.is_empty() {
                break;
            }
        }
        for ((a, d), p) in live {
            *ends.entry(mk(MeleeEnd::Stalemate, a, d)).or_default() += p;
        }
        Dist::weighted(ends).unwrap_or_else(|_| Dist::certain(mk(MeleeEnd::Stalemate, a0, d0)))
    }

    // A melee on foot's odds from the grids are the odds summed in maps, bit for bit, over sides of 1 to 12
    // figures (and a few larger), every die, weapons, the defender's bonus, leadership, test modifiers and both
    // options for the tests.
    #[test]
    fn foot_odds_match_the_maps_bit_for_bit() {
        let seed = std::cell::Cell::new(0x2545_f491_4f6c_dd1du64);
        let next = |n: u64| {
            let mut x = seed.get();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            seed.set(x);
            (x % n) as usize
        };
        let weapons = [
            MeleeWeapon::None,
            MeleeWeapon::Pistol,
            MeleeWeapon::Sword,
            MeleeWeapon::Shotgun,
        ];
        let mut sizes: Vec<(u8, u8)> = (1..=12)
            .flat_map(|a| (1..=12).map(move |d| (a, d)))
            .collect();
        sizes.extend([(20, 16), (16, 20), (24, 3), (2, 18)]);
        let mut compared = 0usize;
        for (a, d) in sizes {
            let side = |figures: u8, defender: bool| {
                let quality = DieType::ALL[next(5)];
                MeleeSide {
                    figures,
                    first_round: MeleeDie {
                        quality: DieType::ALL[next(5)],
                        weapon: weapons[next(4)],
                        mounted: false,
                        defender_bonus: defender && next(2) == 0,
                        dismounted_last_round: false,
                    },
                    quality,
                    lv: [Leadership::ONE, Leadership::TWO, Leadership::THREE][next(3)],
                    modifier: [-1, 0, 1, 2, 3][next(5)],
                    on_foot: 0,
                }
            };
            let m = Melee {
                attacker: side(a, false),
                defender: side(d, true),
                casualties: if next(2) == 0 {
                    AssaultTestCasualties::ThisRound
                } else {
                    AssaultTestCasualties::WholeAssault
                },
                two_level: if next(2) == 0 {
                    TwoLevelDrop::HalfOrLess
                } else {
                    TwoLevelDrop::LessThanHalf
                },
            };
            let (got, want) = (m.odds(), odds_by_maps(&m));
            assert_eq!(got.len(), want.len(), "{m:?}");
            for ((o, p), (wo, wp)) in got.outcomes().iter().zip(want.outcomes()) {
                assert_eq!(o, wo, "{m:?}");
                assert_eq!(p.to_bits(), wp.to_bits(), "{m:?} {o:?}");
                compared += 1;
            }
        }
        assert!(compared > 5_000, "{compared} outcomes compared");
    }
}
