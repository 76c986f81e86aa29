//! Melee: a D10 per attacking figure in contact, up to 3 on one defender, scores to kill by the defender's class
//! and cover, modifiers, and the kills (D8-MEL-*).

use crate::tables::{Class, Cover, kill_score};
use acw_core::{Dice, Die, Dist, Resolve};

/// The bonuses an attacker may have (D8-MEL-05), each +1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MeleeBonuses {
    /// The enemy unit fought has a formation fail.
    pub enemy_ff: bool,
    /// The attacker is in line or column and the enemy are skirmishers (unlimbered crews included).
    pub formed_against_skirmishers: bool,
    /// The attacker charged this turn.
    pub charged: bool,
}

/// D8-MEL-05, D8-MEL-06: the net bonus: +1 for each, cumulative; none at all if the attacker has a formation fail.
#[must_use]
pub fn melee_bonus(b: MeleeBonuses, attacker_ff: bool) -> u8 {
    if attacker_ff {
        0
    } else {
        u8::from(b.enemy_ff) + u8::from(b.formed_against_skirmishers) + u8::from(b.charged)
    }
}

/// What a defending figure is, for its score to kill (D8-MEL-04, D8-MEL-07, D8-MEL-08, D8-MEL-11).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Defender {
    /// A figure of foot or horse of this class.
    Figure(Class),
    /// An artilleryman of a battery of this class: always at least soft cover.
    Artilleryman(Class),
    /// An officer: as hard to kill as a Veteran.
    Officer,
}

/// D8-MEL-04, D8-MEL-07, D8-MEL-08, D8-MEL-11: the D10 score to kill a defender in `cover`, after `bonus`
/// (D8-MEL-05). Artillerymen count as behind soft cover (or their better cover); figures in a building are behind
/// hard cover (pass [`Cover::Hard`]); officers use the Veteran row. 11 means no face kills.
#[must_use]
pub fn kill_need(defender: Defender, cover: Cover, bonus: u8) -> u8 {
    let (class, cover) = match defender {
        Defender::Figure(c) => (c, cover),
        Defender::Artilleryman(c) => (c, cover.max(Cover::Soft)),
        Defender::Officer => (Class::Veteran, cover),
    };
    kill_score(class, cover).saturating_sub(bonus).max(1)
}

/// One defending figure in contact and the attackers on it (D8-MEL-01: 1 to 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// Attacking figures on this defender, 1 to 3.
    pub attackers: u8,
    /// The D10 face each needs.
    pub need: u8,
}

impl Pairing {
    /// The chance one attacker's D10 kills.
    #[must_use]
    pub fn p(&self) -> f64 {
        f64::from(11u8.saturating_sub(self.need.clamp(1, 11))) / 10.0
    }
}

/// D8-MEL-09: a melee's kills. By default each defender dies if any of its attackers' D10s succeeds
/// (1 − (1 − p)^k); pooled, every success counts, up to the defenders in contact. The outcome is the figures
/// killed.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Melee {
    /// Each defender in contact and its attackers.
    pub pairings: Vec<Pairing>,
    /// The pooled reading (D8-MEL-09 option).
    pub pooled: bool,
}

impl Melee {
    /// Rolls the melee: for each defender in order, its attackers' D10s; returns which defenders died as a bit
    /// mask over the first 64 and the count.
    pub fn roll_kills<D: Dice + ?Sized>(&self, dice: &mut D) -> (u64, u32) {
        let mut mask = 0u64;
        let mut successes = 0u32;
        let mut killed = 0u32;
        for (i, p) in self.pairings.iter().enumerate() {
            let mut hit = false;
            for _ in 0..p.attackers {
                if Die::D10.roll(dice) >= u16::from(p.need) {
                    hit = true;
                    successes += 1;
                }
            }
            if hit && !self.pooled {
                killed += 1;
                if i < 64 {
                    mask |= 1 << i;
                }
            }
        }
        if self.pooled {
            killed = successes.min(self.pairings.len() as u32);
            for i in 0..killed.min(64) {
                mask |= 1 << i;
            }
        }
        (mask, killed)
    }
}

impl Resolve for Melee {
    type Outcome = u32;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> u32 {
        self.roll_kills(dice).1
    }

    fn odds(&self) -> Dist<u32> {
        let mut acc = Dist::certain(0u32);
        for p in &self.pairings {
            let d = if self.pooled {
                Dist::binomial(u32::from(p.attackers), p.p())
            } else {
                Dist::bernoulli(1.0 - (1.0 - p.p()).powi(i32::from(p.attackers)))
            };
            acc = acc.add(&d.unwrap_or_else(|_| Dist::certain(0)));
        }
        let m = self.pairings.len() as u32;
        if self.pooled {
            acc.map(|&k| k.min(m))
        } else {
            acc
        }
    }
}
