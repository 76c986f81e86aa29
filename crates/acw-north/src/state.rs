//! The state a game holds: units, generals, brigades and the clock (NORTH-SET-10).
//!
//! Fields are read through accessors and changed only through the rule functions of the other modules, which
//! refuse what the rules forbid and then change nothing.

use crate::combat::Category;
use crate::error::RuleViolation;
use crate::options::Options;
use crate::sequence::{Clock, Step};
use crate::tables::{
    self, BrigadeOrder, FireIntent, Formation, MIN_STANDS_IN_PLAY, Quality, SKIRMISH_FRONT_STANDS,
    StandKind, Troop,
};
use acw_core::measure::Inches;
use acw_core::vocab::Mount;
use acw_core::{Arm, BySide, Side, Strength};
use std::fmt;

/// A unit's index in its battle, shown as "unit 14" (what a person reads names the unit: [`Unit::name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct UnitId(pub u32);

/// A brigade's index in its battle, shown as "brigade 3" (narration names the brigade).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct BrigadeId(pub u32);

/// A general's index in its battle, shown as "general 2" (narration names the general).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct GeneralId(pub u32);

impl fmt::Display for UnitId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unit {}", self.0)
    }
}
impl fmt::Display for BrigadeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "brigade {}", self.0)
    }
}
impl fmt::Display for GeneralId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "general {}", self.0)
    }
}

/// Where a battery's gun is (NORTH-ART-06 to NORTH-ART-08).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum GunState {
    /// The crew is with its gun.
    Manned,
    /// The crew fell back or was eliminated; the gun stays where it was, in the state it was left in.
    Abandoned {
        /// Limbered or unlimbered, as it was left.
        left_in: Formation,
    },
    /// Enemy infantry or cavalry took the gun; it is gone for good.
    Captured {
        /// The side that took it.
        by: Side,
    },
}

/// Whether a unit is still in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum UnitStatus {
    /// On the table and in play.
    InPlay,
    /// Removed by stand losses (NORTH-CAS-02, NORTH-CAS-03) or, under NORTH-OPT-20 (c), by falling back from
    /// its gun.
    Removed,
    /// Left the table (NORTH-OPT-21, NORTH-OPT-36).
    LeftTable,
}

/// The one action a unit takes in its activation (NORTH-SEQ-03).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Activity {
    /// A move (ordered or voluntary).
    Move,
    /// A formation change (NORTH-MOV-07), including limbering and unlimbering.
    FormationChange,
    /// A charge (NORTH-MEL-01).
    Charge,
    /// A withdrawal from melee (NORTH-MOV-15).
    WithdrawFromMelee,
    /// Skirmishers falling back to reform in column (NORTH-MOV-18).
    SkirmisherFallBack,
    /// Dismounting (NORTH-MOV-19).
    Dismount,
    /// Remounting (NORTH-MOV-21).
    Remount,
    /// A crew returning to its gun (NORTH-ART-07).
    RemanGun,
}

/// What a unit may still do after a failed accomplishment toss (NORTH-MOV-09).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum AfterFailure {
    /// It stays where it is (Hold orders, a failed withdrawal from melee, or a unit in contact).
    Stay,
    /// It makes its ordered move in its current formation; not deployed, it stands in place rather than
    /// reach an enemy (or stops short under NORTH-OPT-10).
    OrderedMove,
    /// It makes its ordered move but may not enter contact (a failed charge under Advance).
    OrderedMoveShortOfContact,
}

/// What a unit has done this phase (NORTH-SET-10).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PhaseRecord {
    /// The action taken, if any.
    pub activity: Option<Activity>,
    /// After a failed toss: what it may still do.
    pub after_failure: Option<AfterFailure>,
    /// Whether it has already moved after a failed toss.
    pub moved_after_failure: bool,
    /// Inches moved this phase.
    pub moved: Inches,
    /// Whether its move crossed an obstacle or rough terrain (for NORTH-FIR-04).
    pub crossed_obstacle_or_rough: bool,
    /// The category it attacked in, if it attacked (NORTH-SEQ-08).
    pub attacked: Option<Category>,
    /// Whether it entered contact by a successful charge this phase.
    pub charged: bool,
    /// Whether it declared it would fire when it moved (skirmishers, dismounted cavalry).
    pub fire_intent: FireIntent,
    /// Whether it has made its own order-change toss or check this phase (NORTH-CMD-13).
    pub order_toss_used: bool,
    /// Whether it has been the target of a toss in each category this phase (artillery, musketry, melee):
    /// every attacker on one target in one category tosses together (NORTH-SEQ-06).
    pub targeted: [bool; 3],
    /// Whether it owes no ordered move this phase: it stood where the rules let it, or its move could not be
    /// made (NORTH-MOV-03).
    #[cfg_attr(feature = "serde", serde(default))]
    pub excused: bool,
}

/// A unit's part in a melee (NORTH-MEL-07).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum MeleeRole {
    /// It charged into contact.
    Charger,
    /// It was charged.
    Defender,
}

/// A unit's melee bookkeeping (NORTH-MEL-07, NORTH-CBT-07).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MeleeRecord {
    /// How it came into this melee.
    pub role: Option<MeleeRole>,
    /// Whether it has made a melee toss in this melee.
    pub tossed: bool,
    /// Whether a charge opened a new melee against it this phase.
    pub opened_this_phase: bool,
}

/// The name of a unit, brigade or general: shared between copies of the state (a game's state is copied for
/// every order, and names never change). Saved as a plain string.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Name(std::sync::Arc<str>);

impl Clone for Name {
    fn clone(&self) -> Name {
        Name(self.0.clone())
    }
    /// The same shared name is kept as it is: no count raised and lowered (see [`Battle`]'s `clone_from`).
    fn clone_from(&mut self, source: &Name) {
        if !std::sync::Arc::ptr_eq(&self.0, &source.0) {
            self.0.clone_from(&source.0);
        }
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Name {
        Name(s.into())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Name {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Name {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Name, D::Error> {
        String::deserialize(deserializer).map(|s| Name(s.into()))
    }
}

/// The units of a brigade: shared between copies of the state (a game's state is copied for every order, and a
/// brigade's units never change). Saved as a plain list.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct UnitList(std::sync::Arc<[UnitId]>);

impl Clone for UnitList {
    fn clone(&self) -> UnitList {
        UnitList(self.0.clone())
    }
    /// The same shared list is kept as it is: no count raised and lowered.
    fn clone_from(&mut self, source: &UnitList) {
        if !std::sync::Arc::ptr_eq(&self.0, &source.0) {
            self.0.clone_from(&source.0);
        }
    }
}

impl std::ops::Deref for UnitList {
    type Target = [UnitId];
    fn deref(&self) -> &[UnitId] {
        &self.0
    }
}

impl From<Vec<UnitId>> for UnitList {
    fn from(v: Vec<UnitId>) -> UnitList {
        UnitList(v.into())
    }
}

impl IntoIterator for UnitList {
    type Item = UnitId;
    type IntoIter = UnitListIter;
    fn into_iter(self) -> Self::IntoIter {
        UnitListIter {
            list: self,
            next: 0,
        }
    }
}

/// The units of a [`UnitList`], by value.
pub(crate) struct UnitListIter {
    list: UnitList,
    next: usize,
}

impl Iterator for UnitListIter {
    type Item = UnitId;
    fn next(&mut self) -> Option<UnitId> {
        let id = self.list.0.get(self.next).copied()?;
        self.next += 1;
        Some(id)
    }
}

impl<'a> IntoIterator for &'a UnitList {
    type Item = &'a UnitId;
    type IntoIter = std::slice::Iter<'a, UnitId>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for UnitList {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for UnitList {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<UnitList, D::Error> {
        Vec::<UnitId>::deserialize(deserializer).map(UnitList::from)
    }
}

/// A mark of one unit's contents, new (never given before, on any thread) each time a battle's unit may change:
/// two units with the same stamp are the same in every part. No part of the game: never saved, compared or
/// shown. See [`Units`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stamp(u64);

/// The next stamps' source: a block of 2^40 stamps per thread, taken from this count.
static STAMP_BLOCKS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

thread_local! {
    /// This thread's next stamp and the end of its block.
    static NEXT_STAMP: std::cell::Cell<(u64, u64)> = const { std::cell::Cell::new((0, 0)) };
}

impl Stamp {
    /// A stamp never given before.
    pub(crate) fn fresh() -> Stamp {
        NEXT_STAMP.with(|next| {
            let (mut at, mut end) = next.get();
            if at == end {
                let block = STAMP_BLOCKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                at = block << 40;
                end = at + (1 << 40);
            }
            next.set((at + 1, end));
            Stamp(at)
        })
    }
}

impl Default for Stamp {
    fn default() -> Stamp {
        Stamp::fresh()
    }
}

/// The units of a battle, by id: a list that hands out a unit to change only with a new [`Stamp`], so a copy
/// into a battle already there ([`Battle`]'s `clone_from`) passes over every unit whose stamp is the one it
/// copies. Shown and saved as the plain list.
#[derive(PartialEq)]
pub(crate) struct Units(Vec<Unit>);

impl Units {
    /// Unit `i`, to change (with a new stamp).
    #[inline]
    pub(crate) fn get_mut(&mut self, i: usize) -> Option<&mut Unit> {
        let u = self.0.get_mut(i)?;
        u.stamp = Stamp::fresh();
        Some(u)
    }
    /// Every unit, to change (each with a new stamp).
    pub(crate) fn iter_mut(&mut self) -> impl Iterator<Item = &mut Unit> {
        for u in &mut self.0 {
            u.stamp = Stamp::fresh();
        }
        self.0.iter_mut()
    }
}

impl From<Vec<Unit>> for Units {
    /// Each unit with a new stamp.
    fn from(mut units: Vec<Unit>) -> Units {
        for u in &mut units {
            u.stamp = Stamp::fresh();
        }
        Units(units)
    }
}

impl std::ops::Deref for Units {
    type Target = [Unit];
    fn deref(&self) -> &[Unit] {
        &self.0
    }
}

impl Clone for Units {
    fn clone(&self) -> Units {
        Units(self.0.clone())
    }
    fn clone_from(&mut self, source: &Units) {
        self.0.clone_from(&source.0);
    }
}

impl std::fmt::Debug for Units {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Units {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// One regiment or battery (NORTH-SET-01, NORTH-SET-10).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Unit {
    pub(crate) id: UnitId,
    pub(crate) name: Name,
    pub(crate) side: Side,
    pub(crate) brigade: BrigadeId,
    pub(crate) arm: Arm,
    pub(crate) quality: Quality,
    /// Infantry and cavalry: every stand, the horse holder included; artillery: crew stands.
    pub(crate) stands: Strength,
    pub(crate) mount: Mount,
    pub(crate) holder: bool,
    pub(crate) formation: Formation,
    pub(crate) gun: Option<GunState>,
    pub(crate) own_order: Option<BrigadeOrder>,
    pub(crate) contacts: Vec<UnitId>,
    pub(crate) melee: MeleeRecord,
    pub(crate) phase: PhaseRecord,
    pub(crate) status: UnitStatus,
    /// See [`Stamp`]: not saved (a loaded unit gets a new one).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) stamp: Stamp,
}

/// Every part but the stamp, which is no part of the game.
impl PartialEq for Unit {
    fn eq(&self, o: &Unit) -> bool {
        let Unit {
            id,
            name,
            side,
            brigade,
            arm,
            quality,
            stands,
            mount,
            holder,
            formation,
            gun,
            own_order,
            contacts,
            melee,
            phase,
            status,
            stamp: _,
        } = self;
        *id == o.id
            && *name == o.name
            && *side == o.side
            && *brigade == o.brigade
            && *arm == o.arm
            && *quality == o.quality
            && *stands == o.stands
            && *mount == o.mount
            && *holder == o.holder
            && *formation == o.formation
            && *gun == o.gun
            && *own_order == o.own_order
            && *contacts == o.contacts
            && *melee == o.melee
            && *phase == o.phase
            && *status == o.status
    }
}

/// Every part but the stamp, as `derive(Debug)` shows them.
impl std::fmt::Debug for Unit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Unit")
            .field("id", &self.id)
            .field("name", &self.name)
            .field("side", &self.side)
            .field("brigade", &self.brigade)
            .field("arm", &self.arm)
            .field("quality", &self.quality)
            .field("stands", &self.stands)
            .field("mount", &self.mount)
            .field("holder", &self.holder)
            .field("formation", &self.formation)
            .field("gun", &self.gun)
            .field("own_order", &self.own_order)
            .field("contacts", &self.contacts)
            .field("melee", &self.melee)
            .field("phase", &self.phase)
            .field("status", &self.status)
            .finish()
    }
}

/// Written out for `clone_from`: a copy made into a unit already there reuses its list of contacts and keeps
/// its shared name (see [`Battle`]'s `clone_from`).
impl Clone for Unit {
    fn clone(&self) -> Unit {
        Unit {
            id: self.id,
            name: self.name.clone(),
            side: self.side,
            brigade: self.brigade,
            arm: self.arm,
            quality: self.quality,
            stands: self.stands,
            mount: self.mount,
            holder: self.holder,
            formation: self.formation,
            gun: self.gun,
            own_order: self.own_order,
            contacts: self.contacts.clone(),
            melee: self.melee,
            phase: self.phase,
            status: self.status,
            stamp: self.stamp,
        }
    }
    fn clone_from(&mut self, source: &Unit) {
        // Destructured so that a field added to `Unit` cannot be left out here.
        let Unit {
            id,
            name,
            side,
            brigade,
            arm,
            quality,
            stands,
            mount,
            holder,
            formation,
            gun,
            own_order,
            contacts,
            melee,
            phase,
            status,
            stamp,
        } = source;
        // The same stamp: the same unit in every part, nothing to copy.
        if self.stamp == *stamp {
            return;
        }
        self.stamp = *stamp;
        self.id = *id;
        self.name.clone_from(name);
        self.side = *side;
        self.brigade = *brigade;
        self.arm = *arm;
        self.quality = *quality;
        self.stands = *stands;
        self.mount = *mount;
        self.holder = *holder;
        self.formation = *formation;
        self.gun = *gun;
        self.own_order = *own_order;
        self.contacts.clone_from(contacts);
        self.melee = *melee;
        self.phase = *phase;
        self.status = *status;
    }
}

/// Which stand a unit lost (NORTH-CAS-05).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct StandLoss {
    /// The kind of stand.
    pub kind: StandKind,
    /// Whether it came from a skirmish rear rank.
    pub rear_rank: bool,
    /// Whether the loss removed the unit.
    pub removed: bool,
}

impl Unit {
    /// Its id.
    #[must_use]
    pub fn id(&self) -> UnitId {
        self.id
    }
    /// Its name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name.0
    }
    /// Its side.
    #[must_use]
    pub fn side(&self) -> Side {
        self.side
    }
    /// Its brigade.
    #[must_use]
    pub fn brigade(&self) -> BrigadeId {
        self.brigade
    }
    /// Its arm.
    #[must_use]
    pub fn arm(&self) -> Arm {
        self.arm
    }
    /// Its quality (NORTH-SET-02).
    #[must_use]
    pub fn quality(&self) -> Quality {
        self.quality
    }
    /// Stands now and at the start (artillery: crew stands; dismounted cavalry: the holder included).
    #[must_use]
    pub fn stands(&self) -> Strength {
        self.stands
    }
    /// Current stands as a small count.
    #[must_use]
    pub fn current_stands(&self) -> u8 {
        u8::try_from(self.stands.current()).unwrap_or(u8::MAX)
    }
    /// Mounted or dismounted (meaningful for cavalry; infantry and artillery are "mounted" by convention).
    #[must_use]
    pub fn mount(&self) -> Mount {
        self.mount
    }
    /// Whether a dismounted unit still has its horse-holder stand.
    #[must_use]
    pub fn has_horse_holder(&self) -> bool {
        self.holder
    }
    /// Its formation.
    #[must_use]
    pub fn formation(&self) -> Formation {
        self.formation
    }
    /// Its gun (artillery only).
    #[must_use]
    pub fn gun(&self) -> Option<GunState> {
        self.gun
    }
    /// Its own order, once its brigade has lost its MG (NORTH-CMD-13).
    #[must_use]
    pub fn own_order(&self) -> Option<BrigadeOrder> {
        self.own_order
    }
    /// Enemy units it touches.
    #[must_use]
    pub fn contacts(&self) -> &[UnitId] {
        &self.contacts
    }
    /// Its melee bookkeeping.
    #[must_use]
    pub fn melee(&self) -> MeleeRecord {
        self.melee
    }
    /// What it has done this phase.
    #[must_use]
    pub fn phase(&self) -> &PhaseRecord {
        &self.phase
    }
    /// In play, removed or gone.
    #[must_use]
    pub fn status(&self) -> UnitStatus {
        self.status
    }

    /// Whether it is in play.
    #[must_use]
    pub fn in_play(&self) -> bool {
        self.status == UnitStatus::InPlay
    }
    /// Whether it touches an enemy unit.
    #[must_use]
    pub fn in_contact(&self) -> bool {
        !self.contacts.is_empty()
    }
    /// Its troop kind now.
    #[must_use]
    pub fn troop(&self) -> Troop {
        Troop::of(self.arm, self.mount)
    }
    /// Whether it is mounted cavalry.
    #[must_use]
    pub fn is_mounted_cavalry(&self) -> bool {
        self.troop() == Troop::MountedCavalry
    }
    /// Whether it is in skirmish order.
    #[must_use]
    pub fn is_skirmishers(&self) -> bool {
        self.formation == Formation::Skirmish
    }
    /// NORTH-MOV-01: whether it is deployed. A crew away from its gun is not (NORTH-ART-06).
    #[must_use]
    pub fn is_deployed(&self) -> bool {
        self.formation.is_deployed() && !self.crew_without_gun()
    }
    /// NORTH-ART-06: an artillery crew that is not with its gun.
    #[must_use]
    pub fn crew_without_gun(&self) -> bool {
        matches!(
            self.gun,
            Some(GunState::Abandoned { .. } | GunState::Captured { .. })
        )
    }

    /// NORTH-CAS-04: the stands that count for tosses and removal. The horse holder counts unless
    /// NORTH-OPT-08 says otherwise.
    #[must_use]
    pub fn counted_stands(&self, options: &Options) -> u8 {
        let n = self.current_stands();
        if self.troop() == Troop::DismountedCavalry && self.holder && !options.horse_holder_counted
        {
            n.saturating_sub(1)
        } else {
            n
        }
    }

    /// NORTH-MOV-05 / NORTH-MOV-06 / NORTH-CAS-06: N for the accomplishment toss: current counted stands, or
    /// crew figures for artillery.
    #[must_use]
    pub fn capacity(&self, options: &Options) -> u8 {
        if self.arm == Arm::Artillery {
            tables::crew_figures(self.current_stands())
        } else {
            self.counted_stands(options)
        }
    }

    /// Figures on the table (a horse holder's figures are not stated and not counted; the gun is no figure).
    #[must_use]
    pub fn figures(&self) -> u32 {
        let fighting = match self.troop() {
            Troop::DismountedCavalry if self.holder => self.stands.current().saturating_sub(1),
            _ => self.stands.current(),
        };
        let kind = match self.troop() {
            Troop::Infantry => StandKind::Infantry,
            Troop::MountedCavalry => StandKind::MountedCavalry,
            Troop::DismountedCavalry => StandKind::DismountedCavalry,
            Troop::Artillery => StandKind::ArtilleryCrew,
        };
        fighting * u32::from(tables::figures_per_stand(kind).unwrap_or(0))
    }

    /// NORTH-CAS-02 / NORTH-CAS-03 / NORTH-CAS-04: whether losing one more stand removes the unit.
    #[must_use]
    pub fn next_loss_removes(&self, options: &Options) -> bool {
        match self.arm {
            Arm::Artillery => self.current_stands() <= 1,
            Arm::Infantry | Arm::Cavalry => self.counted_stands(options) <= MIN_STANDS_IN_PLAY,
        }
    }

    /// NORTH-CAS-01, NORTH-CAS-02, NORTH-CAS-03, NORTH-CAS-05: loses one stand. Dismounted cavalry lose
    /// fighting stands before the holder; skirmishers lose rear-rank stands first. An infantry or cavalry unit
    /// below 3 counted stands, or a battery with no crew, is removed (its gun stays, NORTH-ART-06).
    pub(crate) fn lose_stand(&mut self, options: &Options) -> StandLoss {
        let removes = self.next_loss_removes(options);
        let fighting = self.current_stands().saturating_sub(u8::from(self.holder));
        let kind = match self.troop() {
            Troop::Infantry => StandKind::Infantry,
            Troop::MountedCavalry => StandKind::MountedCavalry,
            Troop::DismountedCavalry if fighting == 0 => StandKind::HorseHolder,
            Troop::DismountedCavalry => StandKind::DismountedCavalry,
            Troop::Artillery => StandKind::ArtilleryCrew,
        };
        let rear_rank = self.is_skirmishers() && self.current_stands() > SKIRMISH_FRONT_STANDS;
        self.stands.lose(1);
        if kind == StandKind::HorseHolder {
            self.holder = false;
        }
        if removes {
            self.remove(UnitStatus::Removed);
        }
        StandLoss {
            kind,
            rear_rank,
            removed: removes,
        }
    }

    /// Takes the unit out of play; a manned gun is left where it stands (NORTH-ART-06).
    pub(crate) fn remove(&mut self, status: UnitStatus) {
        self.status = status;
        if self.gun == Some(GunState::Manned) {
            self.gun = Some(GunState::Abandoned {
                left_in: self.formation,
            });
        }
    }

    /// Whether it has already taken its one action this phase.
    #[must_use]
    pub fn has_acted(&self) -> bool {
        self.phase.activity.is_some()
    }
}

/// A general's rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Rank {
    /// The Army Commander of a side (NORTH-SET-05).
    ArmyCommander,
    /// The Major General commanding a brigade (NORTH-SET-04).
    MajorGeneral(BrigadeId),
}

/// Whether a general is still in play (NORTH-SET-10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum GeneralStatus {
    /// In play.
    Active,
    /// Killed by his own rally toss.
    Killed,
    /// Captured by his own rally toss in a melee.
    Captured,
}

/// A Major General or an Army Commander.
#[derive(Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct General {
    pub(crate) id: GeneralId,
    pub(crate) name: Name,
    pub(crate) side: Side,
    pub(crate) rank: Rank,
    pub(crate) status: GeneralStatus,
    pub(crate) with_unit: Option<UnitId>,
    pub(crate) moved: Inches,
}

/// Written out for `clone_from`, which keeps the shared name (see [`Battle`]'s `clone_from`).
impl Clone for General {
    fn clone(&self) -> General {
        General {
            id: self.id,
            name: self.name.clone(),
            side: self.side,
            rank: self.rank,
            status: self.status,
            with_unit: self.with_unit,
            moved: self.moved,
        }
    }
    fn clone_from(&mut self, source: &General) {
        let General {
            id,
            name,
            side,
            rank,
            status,
            with_unit,
            moved,
        } = source;
        self.id = *id;
        self.name.clone_from(name);
        self.side = *side;
        self.rank = *rank;
        self.status = *status;
        self.with_unit = *with_unit;
        self.moved = *moved;
    }
}

impl General {
    /// His id.
    #[must_use]
    pub fn id(&self) -> GeneralId {
        self.id
    }
    /// His name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name.0
    }
    /// His side.
    #[must_use]
    pub fn side(&self) -> Side {
        self.side
    }
    /// His rank.
    #[must_use]
    pub fn rank(&self) -> Rank {
        self.rank
    }
    /// Alive, killed or captured.
    #[must_use]
    pub fn status(&self) -> GeneralStatus {
        self.status
    }
    /// Whether he is in play.
    #[must_use]
    pub fn is_active(&self) -> bool {
        self.status == GeneralStatus::Active
    }
    /// The unit he is with (NORTH-CMD-08), if any.
    #[must_use]
    pub fn with_unit(&self) -> Option<UnitId> {
        self.with_unit
    }
    /// Inches moved this phase.
    #[must_use]
    pub fn moved(&self) -> Inches {
        self.moved
    }
}

/// A brigade of 2–5 units under one Major General (NORTH-SET-04).
#[derive(Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Brigade {
    pub(crate) id: BrigadeId,
    pub(crate) name: Name,
    pub(crate) side: Side,
    pub(crate) order: BrigadeOrder,
    pub(crate) mg: GeneralId,
    pub(crate) units: UnitList,
    pub(crate) leaderless: bool,
    pub(crate) order_change_used: bool,
    pub(crate) order_check_due: bool,
}

/// Written out for `clone_from`, which keeps the shared name and list of units (see [`Battle`]'s
/// `clone_from`).
impl Clone for Brigade {
    fn clone(&self) -> Brigade {
        Brigade {
            id: self.id,
            name: self.name.clone(),
            side: self.side,
            order: self.order,
            mg: self.mg,
            units: self.units.clone(),
            leaderless: self.leaderless,
            order_change_used: self.order_change_used,
            order_check_due: self.order_check_due,
        }
    }
    fn clone_from(&mut self, source: &Brigade) {
        let Brigade {
            id,
            name,
            side,
            order,
            mg,
            units,
            leaderless,
            order_change_used,
            order_check_due,
        } = source;
        self.id = *id;
        self.name.clone_from(name);
        self.side = *side;
        self.order = *order;
        self.mg = *mg;
        self.units.clone_from(units);
        self.leaderless = *leaderless;
        self.order_change_used = *order_change_used;
        self.order_check_due = *order_check_due;
    }
}

impl Brigade {
    /// Its id.
    #[must_use]
    pub fn id(&self) -> BrigadeId {
        self.id
    }
    /// Its name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name.0
    }
    /// Its side.
    #[must_use]
    pub fn side(&self) -> Side {
        self.side
    }
    /// Its order (NORTH-CMD-01); once leaderless, each unit holds its own.
    #[must_use]
    pub fn order(&self) -> BrigadeOrder {
        self.order
    }
    /// Its Major General.
    #[must_use]
    pub fn major_general(&self) -> GeneralId {
        self.mg
    }
    /// Its units.
    #[must_use]
    pub fn units(&self) -> &[UnitId] {
        &self.units
    }
    /// Whether it has lost its MG (NORTH-CMD-13).
    #[must_use]
    pub fn is_leaderless(&self) -> bool {
        self.leaderless
    }
    /// Whether its one order change of this phase is spent (NORTH-CMD-07).
    #[must_use]
    pub fn order_change_used(&self) -> bool {
        self.order_change_used
    }
    /// Whether it owes a brigade order check for a lost MG (NORTH-CMD-11).
    #[must_use]
    pub fn order_check_due(&self) -> bool {
        self.order_check_due
    }
}

/// The whole game in progress: forces, generals, orders and the clock, with the options it is played under.
///
/// `clone_from` copies into a battle already there without allocating: every list keeps its room, and the
/// shared names and brigades' lists are kept where they are the same ones (a game's state is copied into a kept
/// spare before every order, so that a refused order changes nothing).
#[derive(Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "crate::setup::BattleData"))]
pub struct Battle {
    pub(crate) units: Units,
    pub(crate) brigades: Vec<Brigade>,
    pub(crate) generals: Vec<General>,
    pub(crate) army_commanders: BySide<GeneralId>,
    pub(crate) clock: Clock,
    pub(crate) options: Options,
    pub(crate) ac_order_used: bool,
    pub(crate) declared: Vec<crate::combat::AttackGroup>,
    pub(crate) declared_category: Option<Category>,
    pub(crate) over: bool,
    /// A morale check waiting for its owner's decisions.
    pub(crate) morale: Option<crate::morale::MoraleInProgress>,
}

impl Clone for Battle {
    fn clone(&self) -> Battle {
        Battle {
            units: self.units.clone(),
            brigades: self.brigades.clone(),
            generals: self.generals.clone(),
            army_commanders: self.army_commanders,
            clock: self.clock,
            options: self.options.clone(),
            ac_order_used: self.ac_order_used,
            declared: self.declared.clone(),
            declared_category: self.declared_category,
            over: self.over,
            morale: self.morale.clone(),
        }
    }
    fn clone_from(&mut self, source: &Battle) {
        let Battle {
            units,
            brigades,
            generals,
            army_commanders,
            clock,
            options,
            ac_order_used,
            declared,
            declared_category,
            over,
            morale,
        } = source;
        self.units.clone_from(units);
        self.brigades.clone_from(brigades);
        self.generals.clone_from(generals);
        self.army_commanders = *army_commanders;
        self.clock = *clock;
        self.options.clone_from(options);
        self.ac_order_used = *ac_order_used;
        self.declared.clone_from(declared);
        self.declared_category = *declared_category;
        self.over = *over;
        self.morale.clone_from(morale);
    }
}

impl Battle {
    /// The options it is played under.
    #[must_use]
    pub fn options(&self) -> &Options {
        &self.options
    }
    /// The clock.
    #[must_use]
    pub fn clock(&self) -> &Clock {
        &self.clock
    }
    /// Every unit, removed ones included.
    #[must_use]
    pub fn units(&self) -> &[Unit] {
        &self.units
    }
    /// Every brigade.
    #[must_use]
    pub fn brigades(&self) -> &[Brigade] {
        &self.brigades
    }
    /// Every general.
    #[must_use]
    pub fn generals(&self) -> &[General] {
        &self.generals
    }
    /// The Army Commander of `side`.
    #[must_use]
    pub fn army_commander(&self, side: Side) -> GeneralId {
        self.army_commanders[side]
    }
    /// Whether the game has ended.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// A unit by id.
    #[inline]
    pub fn unit(&self, id: UnitId) -> Result<&Unit, RuleViolation> {
        self.units
            .get(id.0 as usize)
            .ok_or(RuleViolation::UnknownUnit(id))
    }
    pub(crate) fn unit_mut(&mut self, id: UnitId) -> Result<&mut Unit, RuleViolation> {
        self.units
            .get_mut(id.0 as usize)
            .ok_or(RuleViolation::UnknownUnit(id))
    }
    /// A brigade by id.
    pub fn brigade(&self, id: BrigadeId) -> Result<&Brigade, RuleViolation> {
        self.brigades
            .get(id.0 as usize)
            .ok_or(RuleViolation::UnknownBrigade(id))
    }
    pub(crate) fn brigade_mut(&mut self, id: BrigadeId) -> Result<&mut Brigade, RuleViolation> {
        self.brigades
            .get_mut(id.0 as usize)
            .ok_or(RuleViolation::UnknownBrigade(id))
    }
    /// A general by id.
    pub fn general(&self, id: GeneralId) -> Result<&General, RuleViolation> {
        self.generals
            .get(id.0 as usize)
            .ok_or(RuleViolation::UnknownGeneral(id))
    }
    pub(crate) fn general_mut(&mut self, id: GeneralId) -> Result<&mut General, RuleViolation> {
        self.generals
            .get_mut(id.0 as usize)
            .ok_or(RuleViolation::UnknownGeneral(id))
    }

    /// A unit that must be in play.
    pub(crate) fn live_unit(&self, id: UnitId) -> Result<&Unit, RuleViolation> {
        let u = self.unit(id)?;
        if u.in_play() {
            Ok(u)
        } else {
            Err(RuleViolation::NotInPlay(id))
        }
    }

    /// A unit by name, if any.
    #[must_use]
    pub fn unit_named(&self, name: &str) -> Option<&Unit> {
        self.units.iter().find(|u| &*u.name.0 == name)
    }

    /// NORTH-CMD-01 / NORTH-CMD-13: the order a unit follows: its brigade's, or its own once the brigade has
    /// lost its MG.
    pub fn order_of(&self, id: UnitId) -> Result<BrigadeOrder, RuleViolation> {
        let u = self.unit(id)?;
        let b = self.brigade(u.brigade)?;
        Ok(if b.leaderless {
            u.own_order.unwrap_or(b.order)
        } else {
            b.order
        })
    }

    /// Refuses unless the game runs, it is `side`'s phase and the clock is at `step` (NORTH-SEQ-02,
    /// NORTH-SEQ-05).
    pub(crate) fn require_phase(&self, side: Side, step: Step) -> Result<(), RuleViolation> {
        if self.over {
            return Err(RuleViolation::GameOver);
        }
        if self.morale.is_some() {
            return Err(RuleViolation::MoralePending);
        }
        if self.clock.phasing() != side {
            return Err(RuleViolation::NotPhasing {
                side,
                phasing: self.clock.phasing(),
            });
        }
        if self.clock.step() != step {
            return Err(RuleViolation::WrongStep {
                expected: step,
                actual: self.clock.step(),
            });
        }
        Ok(())
    }

    /// NORTH-SEQ-02: moves to the next step of the phase. After melee the phase must be ended instead.
    pub fn next_step(&mut self) -> Result<Step, RuleViolation> {
        if self.over {
            return Err(RuleViolation::GameOver);
        }
        if self.morale.is_some() {
            return Err(RuleViolation::MoralePending);
        }
        let from = self.clock.step();
        if from == Step::Units
            && let Some(&unit) = self.owed_moves().first()
        {
            return Err(RuleViolation::MoveOwed(unit));
        }
        match from.next() {
            Some(to) => {
                self.clock.advance_to(to);
                self.on_step_change();
                Ok(to)
            }
            None => Err(RuleViolation::StepBackwards {
                from,
                to: Step::Command,
            }),
        }
    }

    /// NORTH-SEQ-02 / NORTH-SEQ-04: moves forward to `step` (steps are never revisited in a phase).
    pub fn advance_to(&mut self, step: Step) -> Result<(), RuleViolation> {
        if self.over {
            return Err(RuleViolation::GameOver);
        }
        let from = self.clock.step();
        if step < from {
            return Err(RuleViolation::StepBackwards { from, to: step });
        }
        // Step by step, so every step's obligations are checked on the way (NORTH-MOV-03 moves owed).
        let mut next = self.clone();
        while next.clock.step() < step {
            next.next_step()?;
        }
        *self = next;
        Ok(())
    }

    fn on_step_change(&mut self) {
        self.declared.clear();
        self.declared_category = None;
    }

    /// Clears what lasts one phase: actions, moves, attacks, order changes, fresh-melee marks.
    pub(crate) fn reset_phase(&mut self) {
        for u in self.units.iter_mut() {
            u.phase = PhaseRecord::default();
            u.melee.opened_this_phase = false;
        }
        for b in &mut self.brigades {
            b.order_change_used = false;
        }
        for g in &mut self.generals {
            g.moved = Inches(0.0);
        }
        self.ac_order_used = false;
        self.on_step_change();
    }

    /// Breaks every contact of unit `id` (both ends) and clears its melee bookkeeping; opponents left with no
    /// contact clear theirs too.
    pub(crate) fn break_contacts(&mut self, id: UnitId) {
        let others = match self.units.get_mut(id.0 as usize) {
            Some(u) => {
                u.melee = MeleeRecord::default();
                std::mem::take(&mut u.contacts)
            }
            None => return,
        };
        for o in others {
            if let Some(other) = self.units.get_mut(o.0 as usize) {
                other.contacts.retain(|&c| c != id);
                if other.contacts.is_empty() {
                    other.melee = MeleeRecord::default();
                }
            }
        }
    }

    /// Units of `side` in play.
    pub fn units_in_play(&self, side: Side) -> impl Iterator<Item = &Unit> {
        self.units
            .iter()
            .filter(move |u| u.side == side && u.in_play())
    }
}
