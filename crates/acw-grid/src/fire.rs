//! Fire at range: artillery bombardment (simultaneous, in the Bombardment Phase) and skirmish fire.

use crate::board::Area;
use crate::casualties::{CoverHalving, Halved, HitReport};
use crate::error::RuleViolation;
use crate::morale::{RetreatCause, RetreatReport};
use crate::options::{BombardCoverScope, FractionMode, HillBonus, Options, SkirmishTiming};
use crate::pool::HitPool;
use crate::state::{Battle, Phase, Unit, UnitId};
use crate::tables::{self, Firepower, StandType};
use acw_core::dice::Dice;
use acw_core::vocab::Mount;
use acw_core::{Dist, Resolve, Side};

/// GRID-ART-05, GRID-ART-07, GRID-ART-09: the bombardment one target takes in a phase: each battery's dice
/// (5+ hits, per-die firepower modifiers), added up, then halved for cover — the phase total by default, or
/// each battery's hits with [`BombardCoverScope::PerBattery`] — in the fraction mode of GRID-CAS-05.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Bombardment {
    /// Each battery's dice.
    pub batteries: Vec<HitPool>,
    /// The target is in cover.
    pub cover: bool,
    /// Fraction mode (GRID-CAS-05).
    pub fractions: FractionMode,
    /// Half-hit the target already carries.
    pub carry: bool,
    /// What cover halves (GRID-ART-07).
    pub scope: BombardCoverScope,
}

impl Bombardment {
    fn halve<D: Dice + ?Sized>(&self, hits: u32, carry: bool, dice: &mut D) -> Halved {
        CoverHalving {
            hits,
            mode: self.fractions,
            carry,
        }
        .roll(dice)
    }

    fn halve_odds(&self, hits: u32, carry: bool) -> Dist<Halved> {
        CoverHalving {
            hits,
            mode: self.fractions,
            carry,
        }
        .odds()
    }
}

impl Resolve for Bombardment {
    type Outcome = Halved;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> Halved {
        let raw: u32;
        if !self.cover {
            raw = self.batteries.iter().map(|p| p.roll(dice)).sum();
            return Halved {
                hits: raw,
                carry: self.carry,
            };
        }
        match self.scope {
            BombardCoverScope::PerTargetPerPhase => {
                raw = self.batteries.iter().map(|p| p.roll(dice)).sum();
                self.halve(raw, self.carry, dice)
            }
            BombardCoverScope::PerBattery => {
                let mut acc = Halved {
                    hits: 0,
                    carry: self.carry,
                };
                for p in &self.batteries {
                    let h = self.halve(p.roll(dice), acc.carry, dice);
                    acc = Halved {
                        hits: acc.hits + h.hits,
                        carry: h.carry,
                    };
                }
                acc
            }
        }
    }

    fn odds(&self) -> Dist<Halved> {
        let total = |pools: &[HitPool]| {
            pools
                .iter()
                .fold(Dist::certain(0u32), |d, p| d.add(&p.odds()))
        };
        if !self.cover {
            let carry = self.carry;
            return total(&self.batteries).map(|&h| Halved { hits: h, carry });
        }
        match self.scope {
            BombardCoverScope::PerTargetPerPhase => {
                total(&self.batteries).and_then(|&h| self.halve_odds(h, self.carry))
            }
            BombardCoverScope::PerBattery => {
                let mut acc = Dist::certain(Halved {
                    hits: 0,
                    carry: self.carry,
                });
                for p in &self.batteries {
                    let pd = p.odds();
                    acc = acc.and_then(|a| {
                        let a = *a;
                        pd.and_then(|&h| {
                            self.halve_odds(h, a.carry).map(|x| Halved {
                                hits: a.hits + x.hits,
                                carry: x.carry,
                            })
                        })
                    });
                }
                acc
            }
        }
    }
}

/// GRID-FIR-03, GRID-FIR-04, GRID-FIR-05: a skirmish volley: up to 3 dice hitting on 5+, halved if the
/// target is in cover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Skirmish {
    /// The firers' dice.
    pub pool: HitPool,
    /// The target is in cover.
    pub cover: bool,
    /// Fraction mode (GRID-CAS-05).
    pub fractions: FractionMode,
    /// Half-hit the target already carries.
    pub carry: bool,
}

impl Resolve for Skirmish {
    type Outcome = Halved;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> Halved {
        let hits = self.pool.roll(dice);
        if self.cover {
            CoverHalving {
                hits,
                mode: self.fractions,
                carry: self.carry,
            }
            .roll(dice)
        } else {
            Halved {
                hits,
                carry: self.carry,
            }
        }
    }

    fn odds(&self) -> Dist<Halved> {
        let carry = self.carry;
        if self.cover {
            self.pool.odds().and_then(|&hits| {
                CoverHalving {
                    hits,
                    mode: self.fractions,
                    carry,
                }
                .odds()
            })
        } else {
            self.pool.odds().map(|&hits| Halved { hits, carry })
        }
    }
}

/// An artillery unit's bombardment of one target (GRID-ART-09: all its dice on one target).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BombardOrder {
    /// The firing artillery unit.
    pub battery: UnitId,
    /// The target unit.
    pub target: UnitId,
}

/// A unit's skirmish fire at one target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SkirmishOrder {
    /// The firing unit.
    pub firer: UnitId,
    /// The target unit.
    pub target: UnitId,
}

/// The dice of one bombardment order, with the stands that fire.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BombardDice {
    /// The dice.
    pub pool: HitPool,
    /// Indices of the stands that fire (GRID-ART-08: at most 3).
    pub firing: Vec<usize>,
    /// Range in areas.
    pub range: u32,
}

/// All bombardment rolled in one phase, before anything is applied (GRID-SEQ-05).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BombardmentRoll {
    turn: u32,
    shots: Vec<(BombardOrder, BombardDice, u32)>,
}

impl BombardmentRoll {
    /// Each order with its dice and raw hits, in the order rolled.
    #[must_use]
    pub fn shots(&self) -> &[(BombardOrder, BombardDice, u32)] {
        &self.shots
    }
}

/// A silenced battery's choice (GRID-ART-12): cancel half its bombardment hits and retreat along `path`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Silence {
    /// The battery taking the option.
    pub unit: UnitId,
    /// Its retreat path (a full move away from the batteries that fired at it).
    pub path: Vec<Area>,
}

/// What the Bombardment Phase did to one target.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TargetResult {
    /// The target.
    pub target: UnitId,
    /// Raw hits rolled at it.
    pub raw: u32,
    /// Hits after cover halving.
    pub after_cover: u32,
    /// Hits cancelled by silencing (GRID-ART-12).
    pub cancelled: u32,
    /// The retreat of a silenced battery.
    pub retreat: Option<RetreatReport>,
    /// The hits recorded.
    pub recorded: Option<HitReport>,
}

impl Battle {
    /// GRID-ART-04: how far a battery's hill extends both range bands against a target in `target`.
    pub fn hill_extension(&self, battery: Area, target: Area) -> Result<u32, RuleViolation> {
        let e = u32::from(self.board.terrain(battery)?.elevation);
        let et = u32::from(self.board.terrain(target)?.elevation);
        Ok(match self.options.hill_bonus {
            HillBonus::Flat => u32::from(e >= 1),
            HillBonus::PerContour => e,
            HillBonus::OnlyVsLower => u32::from(e >= 1 && e > et),
        })
    }

    /// GRID-ART-01 to GRID-ART-04, GRID-ART-06, GRID-ART-08, GRID-ART-11, GRID-GEO-07: the dice a bombardment
    /// order rolls, or why it may not fire. The battery must be deployed artillery, not engaged, not
    /// disordered; the target an enemy unit, not hidden, not engaged, in the battery's front arc, in line of
    /// sight (troops block, except that hill artillery fires over troops lower than itself) and in range. Each
    /// of at most 3 artillery stands rolls 2 dice to range 2 (3 on a hill), 1 die to range 4 (5 on a hill),
    /// ±1 per die for superior or inferior firepower.
    pub fn bombard_dice(&self, order: BombardOrder) -> Result<BombardDice, RuleViolation> {
        let b = self.unit(order.battery)?;
        let t = self.unit(order.target)?;
        let not = |why| RuleViolation::NotEligible {
            unit: order.battery,
            why,
        };
        let bad = |why| RuleViolation::BadTarget {
            target: order.target,
            why,
        };
        if !b.has(StandType::Artillery) {
            return Err(not("it has no artillery"));
        }
        if b.in_column() {
            return Err(not("limbered artillery may not bombard"));
        }
        if b.disordered() {
            return Err(not("disordered units may not bombard"));
        }
        if self.engaged(order.battery)? {
            return Err(not("engaged artillery may not bombard"));
        }
        if t.side() == b.side() {
            return Err(bad("it is friendly"));
        }
        if t.hidden() {
            return Err(bad("hidden units cannot be targeted"));
        }
        if self.engaged(order.target)? {
            return Err(bad("engaged units cannot be bombarded"));
        }
        if !self
            .board
            .in_front_arc(b.area(), b.facing(), t.area(), &self.options)
        {
            return Err(bad("it is not to the battery's front"));
        }
        let e_firer = self.board.terrain(b.area())?.elevation;
        let on_hill = e_firer >= 1;
        let seen = self
            .board
            .line_of_sight(b.area(), t.area(), &self.options, |a| {
                let occupied = self.occupied(a);
                let lower = self
                    .board
                    .terrain(a)
                    .map(|tr| tr.elevation < e_firer)
                    .unwrap_or(false);
                occupied && !(on_hill && lower)
            })?;
        if !seen {
            return Err(bad("it is out of sight"));
        }
        let range = self.board.distance(b.area(), t.area(), &self.options);
        let ext = self.hill_extension(b.area(), t.area())?;
        let Some(per) = tables::bombard_dice_per_stand(range, ext) else {
            return Err(bad("it is out of range"));
        };
        let fighting = usize::from(self.options.scale.fighting_stands());
        let firing: Vec<usize> = b
            .stands()
            .iter()
            .enumerate()
            .filter(|(_, s)| s.kind == StandType::Artillery)
            .map(|(i, _)| i)
            .take(fighting)
            .collect();
        let mut pool = HitPool::EMPTY;
        for &i in &firing {
            if let Some(s) = b.stands().get(i) {
                pool = pool.with(u32::from(per), tables::bombard_modifier(s.firepower))?;
            }
        }
        Ok(BombardDice {
            pool,
            firing,
            range,
        })
    }

    /// GRID-SEQ-05, GRID-ART-09: rolls every bombardment order of both sides before any is applied (Bombardment
    /// Phase only, once). Each battery fires once, at one target; several may fire at one target. Refused whole,
    /// rolling nothing, if any order is illegal. The battle keeps the roll (see
    /// [`Battle::pending_bombardment`]) until [`Battle::apply_bombardment`] applies it — the one way it takes
    /// effect, once; the phase cannot end while it waits.
    pub fn roll_bombardment<D: Dice + ?Sized>(
        &mut self,
        orders: &[BombardOrder],
        dice: &mut D,
    ) -> Result<&BombardmentRoll, RuleViolation> {
        let n = orders.len();
        self.roll_bombardment_announced(orders, dice, |i, _, d: &mut D| {
            d.about(format_args!("bombardment, battery {} of {n}", i + 1));
        })
    }

    /// As [`Battle::roll_bombardment`], saying what each battery's dice are for through `announce(index,
    /// order, dice)`.
    pub(crate) fn roll_bombardment_announced<D: Dice + ?Sized>(
        &mut self,
        orders: &[BombardOrder],
        dice: &mut D,
        announce: impl Fn(usize, BombardOrder, &mut D),
    ) -> Result<&BombardmentRoll, RuleViolation> {
        if self.bombardment.is_some() {
            return Err(RuleViolation::Inconsistent(
                "the bombardment was already rolled; apply it",
            ));
        }
        let out = self.roll_bombardment_unchecked(orders, dice, announce)?;
        crate::error::fault_check(dice)?;
        Ok(self.bombardment.insert(out))
    }

    /// The bombardment rolled this phase and not yet applied.
    #[must_use]
    pub fn pending_bombardment(&self) -> Option<&BombardmentRoll> {
        self.bombardment.as_ref()
    }

    fn roll_bombardment_unchecked<D: Dice + ?Sized>(
        &self,
        orders: &[BombardOrder],
        dice: &mut D,
        announce: impl Fn(usize, BombardOrder, &mut D),
    ) -> Result<BombardmentRoll, RuleViolation> {
        self.phase_is(Phase::Bombardment)?;
        let mut seen: Vec<UnitId> = Vec::new();
        let mut dice_for = Vec::with_capacity(orders.len());
        for o in orders {
            if seen.contains(&o.battery) {
                return Err(RuleViolation::NotEligible {
                    unit: o.battery,
                    why: "a battery fires at one target a phase",
                });
            }
            seen.push(o.battery);
            if self.unit(o.battery)?.flags().bombarded {
                return Err(RuleViolation::NotEligible {
                    unit: o.battery,
                    why: "it already fired this phase",
                });
            }
            dice_for.push((*o, self.bombard_dice(*o)?));
        }
        let shots = dice_for
            .into_iter()
            .enumerate()
            .map(|(i, (o, d))| {
                announce(i, o, dice);
                let hits = d.pool.roll(dice);
                (o, d, hits)
            })
            .collect();
        Ok(BombardmentRoll {
            turn: self.turn,
            shots,
        })
    }

    pub(crate) fn in_cover(&self, u: &Unit) -> bool {
        u.own_cover()
            || self
                .board
                .terrain(u.area())
                .map(|t| t.gives_cover())
                .unwrap_or(false)
    }

    /// GRID-SEQ-05, GRID-ART-07, GRID-ART-12, GRID-ART-13, GRID-CAS-02: applies a phase's bombardment: cover
    /// halves each target's hits (the phase total, or each battery's with the option; fractions per
    /// GRID-CAS-05), then silenced batteries (every stand artillery, 2+ hits after cover) that chose to cancel
    /// half their hits (rounded down, or up with the option) retreat a full move away from the batteries that
    /// fired at them and become disordered; then hits are recorded and stands removed. A battery destroyed now
    /// still fired. No morale test follows. Firing stands may not move this turn (GRID-MOV-11).
    /// The roll applied is the one [`Battle::roll_bombardment`] kept; refused if there is none (not rolled yet,
    /// or already applied).
    pub fn apply_bombardment<D: Dice + ?Sized>(
        &mut self,
        silenced: &[Silence],
        dice: &mut D,
    ) -> Result<Vec<TargetResult>, RuleViolation> {
        if self.bombardment.is_none() {
            return Err(RuleViolation::Inconsistent(
                "no bombardment waits to be applied: roll it first (it applies once)",
            ));
        }
        let mut next = self.clone();
        let out = next.apply_bombardment_in_place(silenced, dice)?;
        *self = next;
        Ok(out)
    }

    /// [`Battle::apply_bombardment`] carried out on this battle itself, for a caller that works on a copy of its own and drops it
    /// on a refusal (the game's orders): a refusal may leave this battle partly changed.
    pub(crate) fn apply_bombardment_in_place<D: Dice + ?Sized>(
        &mut self,
        silenced: &[Silence],
        dice: &mut D,
    ) -> Result<Vec<TargetResult>, RuleViolation> {
        let Some(roll) = self.bombardment.take() else {
            return Err(RuleViolation::Inconsistent(
                "no bombardment waits to be applied: roll it first (it applies once)",
            ));
        };
        let out = self.apply_bombardment_unchecked(&roll, silenced, dice)?;
        crate::error::fault_check(dice)?;
        Ok(out)
    }

    /// The bombardment `target` would take from `batteries` now, as a procedure with exact odds: each
    /// battery's dice as [`Battle::bombard_dice`] counts them, the target's cover, its half-hit and the
    /// options' fraction mode and cover scope — a researcher's question in one call. Refused, changing nothing,
    /// if a battery may not fire at the target (range, sight, disorder …) or a unit does not exist.
    ///
    /// ```
    /// # use acw_grid::prelude::*;
    /// # use acw_core::{Resolve, Side};
    /// let mut battle = Battle::new(Board::rectangle(GridKind::Square, 8, 8)?, Options::default());
    /// battle.add_commander(CommanderId(1), Side::Union, Rank::Division(DivisionId(1)), None, Area::new(0, 0))?;
    /// battle.add_commander(CommanderId(2), Side::Confederate, Rank::Division(DivisionId(2)), None, Area::new(7, 7))?;
    /// let gun = Stand::new(StandType::Artillery, DivisionId(1), BrigadeId(1));
    /// let battery = battle.deploy(UnitSpec::new(Side::Union, Area::new(3, 1), vec![gun]))?;
    /// let rebels = Stand::new(StandType::Infantry, DivisionId(2), BrigadeId(2));
    /// let target = battle.deploy(UnitSpec::new(Side::Confederate, Area::new(3, 3), stands(3, &rebels)))?;
    /// // Range 2: two dice hitting on 5 or 6; P(no hit) = (2/3)^2 = 4/9.
    /// let odds = battle.bombardment_of(target, &[battery])?.odds();
    /// assert!((odds.prob(|h| h.hits == 0) - 4.0 / 9.0).abs() < 1e-12);
    /// # Ok::<(), acw_grid::RuleViolation>(())
    /// ```
    pub fn bombardment_of(
        &self,
        target: UnitId,
        batteries: &[UnitId],
    ) -> Result<Bombardment, RuleViolation> {
        let tu = self.unit(target)?;
        let pools = batteries
            .iter()
            .map(|&battery| {
                self.bombard_dice(BombardOrder { battery, target })
                    .map(|d| d.pool)
            })
            .collect::<Result<Vec<HitPool>, RuleViolation>>()?;
        Ok(Bombardment {
            batteries: pools,
            cover: self.in_cover(tu),
            fractions: self.options.fractions,
            carry: tu.half_hit(),
            scope: self.options.bombard_cover_scope,
        })
    }

    fn apply_bombardment_unchecked<D: Dice + ?Sized>(
        &mut self,
        roll: &BombardmentRoll,
        silenced: &[Silence],
        dice: &mut D,
    ) -> Result<Vec<TargetResult>, RuleViolation> {
        self.phase_is(Phase::Bombardment)?;
        if roll.turn != self.turn {
            return Err(RuleViolation::Inconsistent(
                "that bombardment belongs to another turn",
            ));
        }
        let mut targets: Vec<UnitId> = roll.shots.iter().map(|(o, _, _)| o.target).collect();
        targets.sort();
        targets.dedup();
        for (o, _, _) in &roll.shots {
            self.unit(o.battery)?;
            self.unit(o.target)?;
        }
        // Cover halving, per target.
        let mut results: Vec<(TargetResult, bool, Vec<Area>)> = Vec::new();
        for &t in &targets {
            let tu = self.unit(t)?;
            let shots: Vec<u32> = roll
                .shots
                .iter()
                .filter(|(o, _, _)| o.target == t)
                .map(|(_, _, h)| *h)
                .collect();
            let firers: Vec<Area> = roll
                .shots
                .iter()
                .filter(|(o, _, _)| o.target == t)
                .filter_map(|(o, _, _)| self.unit(o.battery).ok().map(Unit::area))
                .collect();
            let raw: u32 = shots.iter().sum();
            let carry0 = tu.half_hit();
            let mut halved = Halved {
                hits: raw,
                carry: carry0,
            };
            if self.in_cover(tu) {
                let mode = self.options.fractions;
                let halve = |hits: u32, carry: bool, dice: &mut D| {
                    CoverHalving { hits, mode, carry }.roll(dice)
                };
                halved = match self.options.bombard_cover_scope {
                    BombardCoverScope::PerTargetPerPhase => halve(raw, carry0, dice),
                    BombardCoverScope::PerBattery => {
                        let mut acc = Halved {
                            hits: 0,
                            carry: carry0,
                        };
                        for h in &shots {
                            let x = halve(*h, acc.carry, dice);
                            acc = Halved {
                                hits: acc.hits + x.hits,
                                carry: x.carry,
                            };
                        }
                        acc
                    }
                };
            }
            results.push((
                TargetResult {
                    target: t,
                    raw,
                    after_cover: halved.hits,
                    cancelled: 0,
                    retreat: None,
                    recorded: None,
                },
                halved.carry,
                firers,
            ));
        }
        // Silenced batteries: check every choice on a copy first, so a bad one changes nothing.
        let mut probe = self.clone();
        for s in silenced {
            let Some((r, _, firers)) = results.iter().find(|(r, _, _)| r.target == s.unit) else {
                return Err(RuleViolation::NotEligible {
                    unit: s.unit,
                    why: "it was not bombarded",
                });
            };
            let u = self.unit(s.unit)?;
            if !u.all_artillery() || r.after_cover < 2 {
                return Err(RuleViolation::NotEligible {
                    unit: s.unit,
                    why: "only artillery with 2 or more bombardment hits may be silenced",
                });
            }
            probe.retreat_by(s.unit, RetreatCause::Silenced, firers, &s.path, None)?;
        }
        // Flags: firers and targets.
        for (o, d, _) in &roll.shots {
            if let Ok(b) = self.unit_mut(o.battery) {
                b.flags_mut().bombarded = true;
                b.set_hidden(false);
                for &i in &d.firing {
                    if let Some(s) = b.stands_mut().get_mut(i) {
                        s.set_fired(true);
                    }
                }
            }
        }
        for (r, carry, firers) in &mut results {
            if let Some(s) = silenced.iter().find(|s| s.unit == r.target) {
                r.cancelled = crate::casualties::silenced_cancel(
                    r.after_cover,
                    self.options.silenced_rounding,
                );
                r.retreat =
                    Some(self.retreat_by(s.unit, RetreatCause::Silenced, firers, &s.path, None)?);
            }
            let hits = r.after_cover - r.cancelled;
            if let Ok(u) = self.unit_mut(r.target) {
                u.flags_mut().was_bombarded = true;
                u.flags_mut().took_bombard_hits |= hits > 0;
                let h = u.hits();
                u.set_hits(h, *carry);
            }
            let dest = match &r.retreat {
                Some(RetreatReport::Retreated {
                    joined: Some(j), ..
                }) => *j,
                _ => r.target,
            };
            if self.unit(dest).is_ok() {
                r.recorded = Some(self.apply_hits(dest, hits)?);
            }
        }
        Ok(results.into_iter().map(|(r, _, _)| r).collect())
    }

    /// Rolls and applies a Bombardment Phase with no silenced batteries.
    pub fn bombardment_phase<D: Dice + ?Sized>(
        &mut self,
        orders: &[BombardOrder],
        dice: &mut D,
    ) -> Result<Vec<TargetResult>, RuleViolation> {
        let mut next = self.clone();
        next.roll_bombardment(orders, dice)?;
        let out = next.apply_bombardment(&[], dice)?;
        *self = next;
        Ok(out)
    }

    /// GRID-FIR-01 to GRID-FIR-04, GRID-FIR-07, GRID-GEO-05: the dice a skirmish order rolls, or why not. The
    /// firer must hold infantry or dismounted cavalry and be not engaged, not disordered, not in march column;
    /// the target an enemy unit, not hidden, exactly 2 areas directly in front, with a clear line of fire (the
    /// area between holds no troops and its terrain does not block); with the option, the target must not be
    /// engaged. One die per eligible stand, at most 3; +1 per die for superior firepower (−1 for inferior only
    /// with the option).
    pub fn skirmish_dice(&self, order: SkirmishOrder) -> Result<HitPool, RuleViolation> {
        let f = self.unit(order.firer)?;
        let t = self.unit(order.target)?;
        let not = |why| RuleViolation::NotEligible {
            unit: order.firer,
            why,
        };
        let bad = |why| RuleViolation::BadTarget {
            target: order.target,
            why,
        };
        let eligible: Vec<&crate::state::Stand> = f
            .stands()
            .iter()
            .filter(|s| {
                s.kind == StandType::Infantry
                    || (s.kind == StandType::Cavalry && f.mount() == Mount::Dismounted)
            })
            .take(usize::from(self.options.scale.fighting_stands()))
            .collect();
        if eligible.is_empty() {
            return Err(not("only infantry and dismounted cavalry skirmish"));
        }
        if self.engaged(order.firer)? {
            return Err(not("engaged units may not skirmish"));
        }
        if f.disordered() {
            return Err(not("disordered units may not skirmish"));
        }
        if f.in_column() {
            return Err(not("march columns may not skirmish"));
        }
        if t.side() == f.side() {
            return Err(bad("it is friendly"));
        }
        if t.hidden() {
            return Err(bad("hidden units cannot be targeted"));
        }
        let two = self
            .board
            .directly_in_front(f.area(), f.facing(), tables::SKIRMISH_RANGE);
        if t.area() != two {
            return Err(bad("it is not directly in front, 2 areas away"));
        }
        let mid = self.board.directly_in_front(f.area(), f.facing(), 1);
        let (ef, et) = (
            self.board.terrain(f.area())?.elevation,
            self.board.terrain(t.area())?.elevation,
        );
        if self.occupied(mid) || self.board.terrain_blocks(mid, ef, et) {
            return Err(bad("the line of fire is not clear"));
        }
        if !self.options.skirmish_at_engaged && self.engaged(order.target)? {
            return Err(bad("the target is engaged"));
        }
        let mut pool = HitPool::EMPTY;
        for s in eligible {
            pool = pool.with(1, skirmish_modifier(s.firepower, &self.options))?;
        }
        Ok(pool)
    }

    fn skirmish_phase_ok(&self, firer: Side) -> Result<(), RuleViolation> {
        match self.options.skirmish_timing {
            SkirmishTiming::CombatPhase => self.phase_is(Phase::Combat),
            SkirmishTiming::BombardmentPhase => self.phase_is(Phase::Bombardment),
            SkirmishTiming::OwnMovementStep => self.in_movement_of(firer),
        }
    }

    /// GRID-FIR-05, GRID-FIR-06, GRID-FIR-08: rolls skirmish orders in the phase the timing option names
    /// (all are rolled before any is recorded), halving for a target in cover, and records the hits: each
    /// order with its hits after cover and what recording them did to the target (`None` if earlier fire of
    /// the same call destroyed it). No morale test follows, and skirmish hits never count in a combat's
    /// comparison. Each unit fires once a turn; a firer is revealed. Refused, changing nothing, if an order
    /// breaks the rules or the dice fault.
    pub fn roll_skirmish<D: Dice + ?Sized>(
        &mut self,
        orders: &[SkirmishOrder],
        dice: &mut D,
    ) -> Result<Vec<(SkirmishOrder, Halved, Option<HitReport>)>, RuleViolation> {
        let rolled = self.roll_skirmish_unchecked(orders, dice)?;
        crate::error::fault_check(dice)?;
        let mut next = self.clone();
        let mut out = Vec::with_capacity(rolled.len());
        for (o, h) in rolled {
            if let Ok(f) = next.unit_mut(o.firer) {
                f.flags_mut().skirmished = true;
                f.set_hidden(false);
            }
            let recorded = if next.unit(o.target).is_ok() {
                Some(next.apply_hits(o.target, h.hits)?)
            } else {
                None
            };
            out.push((o, h, recorded));
        }
        *self = next;
        Ok(out)
    }

    fn roll_skirmish_unchecked<D: Dice + ?Sized>(
        &self,
        orders: &[SkirmishOrder],
        dice: &mut D,
    ) -> Result<Vec<(SkirmishOrder, Halved)>, RuleViolation> {
        let mut pools = Vec::with_capacity(orders.len());
        let mut seen = Vec::new();
        for o in orders {
            let f = self.unit(o.firer)?;
            self.skirmish_phase_ok(f.side())?;
            if seen.contains(&o.firer) || f.flags().skirmished {
                return Err(RuleViolation::NotEligible {
                    unit: o.firer,
                    why: "a unit skirmishes once a turn",
                });
            }
            seen.push(o.firer);
            let t = self.unit(o.target)?;
            pools.push((
                *o,
                Skirmish {
                    pool: self.skirmish_dice(*o)?,
                    cover: self.in_cover(t),
                    fractions: self.options.fractions,
                    carry: false,
                },
            ));
        }
        Ok(pools.into_iter().map(|(o, s)| (o, s.roll(dice))).collect())
    }
}

/// GRID-FIR-04: a skirmish die's modifier: +1 for superior firepower; −1 for inferior only with the option.
#[must_use]
pub fn skirmish_modifier(firepower: Firepower, opts: &Options) -> i8 {
    match firepower {
        Firepower::Superior => 1,
        Firepower::Normal => 0,
        Firepower::Inferior => -i8::from(opts.inferior_in_close_fire),
    }
}
