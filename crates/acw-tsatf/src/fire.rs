//! Fire: who fires, the target class, the cone and range, mass fire, type firing, pistols and snipers,
//! ammunition, guns and hit cards.

use crate::error::RuleViolation;
use crate::options::{ConeAngle, GatlingFigures, Options, Remainder, Rounding};
use crate::tables::{
    self, CREW_FIRE_FACTOR, Category, FireBand, FireRow, HitEffect, MIN_GUN_CREW, TargetClass,
    TypeFireRow,
};
use acw_core::cards::{Card, Deck, Rank, Suit};
use acw_core::{Dice, Die, Dist, Resolve};

/// How a firing unit stands, for the one-rank rule (TSATF-FIR-05).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Ranks {
    /// A close-order, two-rank line: half fire.
    #[strum(to_string = "a two-rank line")]
    TwoRankLine,
    /// A march or assault column: the front rank fires.
    #[strum(to_string = "a column")]
    Column {
        /// Mounted or cavalry column (front rank of 2 by default) instead of infantry (4).
        cavalry: bool,
    },
    /// Open or skirmish order: everyone fires.
    #[strum(to_string = "open order")]
    Open,
}

/// The figures that fire of `eligible` rank-and-file (TSATF-FIR-05): half a two-rank line (the odd figure
/// rounded up by default), a column's front rank, everyone in open order.
#[must_use]
pub fn firers(eligible: u16, ranks: Ranks, options: &Options) -> u16 {
    match ranks {
        Ranks::TwoRankLine => match options.odd_rank_rounding {
            Rounding::Ceil => eligible.div_ceil(2),
            Rounding::Floor => eligible / 2,
        },
        Ranks::Column { cavalry } => {
            let front = if cavalry {
                options.column_frontage.1
            } else {
                options.column_frontage.0
            };
            eligible.min(u16::from(front))
        }
        Ranks::Open => eligible,
    }
}

/// The figures of the target area, by what protects them, as counted at the table (TSATF-FIR-06).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TargetArea {
    /// Target figures inside the firers' cone and range.
    pub figures: u16,
    /// Of them, in close order or column.
    pub close_order: u16,
    /// Of them, prone, in rough ground or behind light cover (substantial cover not included).
    pub light_cover: u16,
    /// Of them, behind substantial cover.
    pub substantial_cover: u16,
    /// Whether the fire enfilades them (TSATF-FIR-08).
    pub enfiladed: bool,
}

/// The target class (TSATF-FIR-06, TSATF-FIR-07): IV if at least half are behind substantial cover; else III if
/// at least half are prone, in rough ground or any cover; else I if most are in close order or the fire
/// enfilades; else II. Exactly half goes to the class better for the target. Under
/// [`Options::enfilade_overrides_cover`] enfilade is Class I whatever the cover.
#[must_use]
pub fn target_class(area: TargetArea, options: &Options) -> TargetClass {
    let n = u32::from(area.figures);
    let half = |k: u16| 2 * u32::from(k) >= n && n > 0;
    if area.enfiladed && options.enfilade_overrides_cover {
        return TargetClass::I;
    }
    if half(area.substantial_cover) {
        TargetClass::IV
    } else if half(area.light_cover.saturating_add(area.substantial_cover)) {
        TargetClass::III
    } else if area.enfiladed || 2 * u32::from(area.close_order) > n {
        TargetClass::I
    } else {
        TargetClass::II
    }
}

/// Whether a target lies in the cone of fire (TSATF-FIR-03, TSATF-ART-05): `off_facing` is the measured angle in
/// degrees between the firer's facing and the target; small arms have 30°, guns 60°, read as the full angle
/// (half each side) by default.
pub fn in_cone(off_facing: f64, gun: bool, options: &Options) -> Result<bool, RuleViolation> {
    if !off_facing.is_finite() {
        return Err(RuleViolation::BadLength {
            what: "the angle off the firer's facing",
            value: off_facing,
        });
    }
    let printed = if gun { 60.0 } else { 30.0 };
    let half = match options.cone_angle {
        ConeAngle::FullAngle => printed / 2.0,
        ConeAngle::HalfAngle => printed,
    };
    Ok(off_facing.abs() <= half)
}

/// Whether fire or a charge comes from outside the target's frontal sector (TSATF-FIR-08, TSATF-MEL-19):
/// `off_front` is the measured angle in degrees between the target's facing and the line to the firer or
/// charger, taken from the target's centre.
pub fn outside_front(off_front: f64, options: &Options) -> Result<bool, RuleViolation> {
    if !off_front.is_finite() {
        return Err(RuleViolation::BadLength {
            what: "the angle off the target's front",
            value: off_front,
        });
    }
    Ok(off_front.abs() > options.frontal_sector_half_angle)
}

/// Whether `range` inches is within a row's reach (TSATF-FIR-04); long-range artillery begins beyond 36".
pub fn in_range(row: FireRow, range: f64) -> Result<bool, RuleViolation> {
    crate::movement::length("the range", range)?;
    let (lo, hi) = row.range();
    Ok(range <= hi && (range > lo || lo == 0.0))
}

/// The row a gun fires on at a range (TSATF-ART-03, TSATF-ART-10, TSATF-OPT-05: heavier guns and mortars use
/// the field rows, the heavier-artillery chart being missing): canister if asked for inside 24", shot at
/// short range to 36", long range to 120". A mortar under [`Options::mortar_plunging`] fires only at long range.
pub fn gun_row(
    range: f64,
    canister: bool,
    mortar: bool,
    options: &Options,
) -> Result<FireRow, RuleViolation> {
    crate::movement::length("the range", range)?;
    let row = if mortar && options.mortar_plunging {
        FireRow::ArtilleryLong
    } else if canister {
        FireRow::Canister
    } else if range <= 36.0 {
        FireRow::ArtilleryShort
    } else {
        FireRow::ArtilleryLong
    };
    if in_range(row, range)? {
        Ok(row)
    } else {
        Err(RuleViolation::OutOfRange { row, range })
    }
}

/// A plunging mortar lowers its target's class by one, IV to III, III to II (TSATF-ART-10, option).
#[must_use]
pub const fn plunging(class: TargetClass) -> TargetClass {
    match class {
        TargetClass::IV => TargetClass::III,
        TargetClass::III => TargetClass::II,
        c => c,
    }
}

/// The figures a gun fires as in mass fire (TSATF-ART-01, TSATF-ART-02, TSATF-ART-08): 12 with four crew or more
/// (three for each of the basic four, extra crew adding nothing); a gun with fewer than four may not fire.
/// A Gatling under [`GatlingFigures::CrewTimesThree`] fires as three per crewman with no minimum.
pub fn gun_figures(crew: u16, gatling: bool, options: &Options) -> Result<u16, &'static str> {
    if gatling && options.gatling_figures == GatlingFigures::CrewTimesThree {
        return Ok(crew * CREW_FIRE_FACTOR);
    }
    if crew < MIN_GUN_CREW {
        Err("a gun needs four crew to fire")
    } else {
        Ok(MIN_GUN_CREW * CREW_FIRE_FACTOR)
    }
}

/// One unit's mass fire (TSATF-FIR-10, TSATF-FIR-11): one D6 picks the band, the chart gives 1/n, hits are
/// the whole part of figures / n; the leftover figures are handled by [`Remainder`]. Under
/// [`Remainder::Pool`] the caller sums the figures of units firing together, and leftovers are dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[must_use]
pub struct MassFire {
    /// The chart row.
    pub row: FireRow,
    /// The target class.
    pub class: TargetClass,
    /// Figures firing (12 per gun).
    pub figures: u16,
    /// The leftover rule.
    pub remainder: Remainder,
    /// Green Class III read by the pattern (TSATF-FIR-09 option).
    pub green_class3_pattern: bool,
}

impl MassFire {
    fn divisor(&self, band: FireBand) -> Option<u16> {
        self.row
            .divisor(self.class, band, self.green_class3_pattern)
            .map(u16::from)
    }

    fn base(&self, n: u16) -> (u16, u16) {
        (self.figures / n, self.figures % n)
    }
}

impl Resolve for MassFire {
    type Outcome = u16;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> u16 {
        let band = FireBand::of(dice.face(Die::D6));
        let Some(n) = self.divisor(band) else {
            return 0;
        };
        let (hits, left) = self.base(n);
        match self.remainder {
            Remainder::Drop | Remainder::Pool => hits,
            Remainder::RoundHalfUp => hits + u16::from(2 * left >= n && left > 0),
            Remainder::Chance => {
                if left == 0 || n < 2 {
                    hits
                } else {
                    let die = Die::new(n).unwrap_or(Die::D6);
                    hits + u16::from(dice.face(die) <= left)
                }
            }
        }
    }
    fn odds(&self) -> Dist<u16> {
        let bands = [
            (FireBand::One, 1.0 / 6.0),
            (FireBand::TwoToFive, 4.0 / 6.0),
            (FireBand::Six, 1.0 / 6.0),
        ];
        let mut pairs: Vec<(u16, f64)> = Vec::new();
        for (band, p) in bands {
            match self.divisor(band) {
                None => pairs.push((0, p)),
                Some(n) => {
                    let (hits, left) = self.base(n);
                    match self.remainder {
                        Remainder::Drop | Remainder::Pool => pairs.push((hits, p)),
                        Remainder::RoundHalfUp => {
                            pairs.push((hits + u16::from(2 * left >= n && left > 0), p));
                        }
                        Remainder::Chance => {
                            if left == 0 || n < 2 {
                                pairs.push((hits, p));
                            } else {
                                let q = f64::from(left) / f64::from(n);
                                pairs.push((hits + 1, p * q));
                                pairs.push((hits, p * (1.0 - q)));
                            }
                        }
                    }
                }
            }
        }
        Dist::weighted(pairs).unwrap_or_else(|_| Dist::certain(0))
    }
}

/// Type Firing (TSATF-FIR-23, TSATF-ART-09, TSATF-OPT-12): each of `dice` D20 hits at or below the row's number for the
/// class. Under [`Options::type_fire_carry_dashes`] a "–" cell of the mass chart means no hits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[must_use]
pub struct TypeFire {
    /// The Type Firing row.
    pub row: TypeFireRow,
    /// The target class.
    pub class: TargetClass,
    /// D20 rolled: one per firing figure, three per gun crewman.
    pub dice: u16,
    /// No effect at all (a carried-over "–").
    pub no_effect: bool,
}

impl TypeFire {
    /// The Type Firing of a mass-chart row at a class, with `dice` D20, under `options` (TSATF-FIR-22,
    /// TSATF-FIR-23).
    pub fn of(row: FireRow, class: TargetClass, dice: u16, options: &Options) -> TypeFire {
        let dash = row.divisor(class, FireBand::TwoToFive, false).is_none()
            && row.divisor(class, FireBand::Six, false).is_none();
        TypeFire {
            row: row.type_row(),
            class,
            dice,
            no_effect: options.type_fire_carry_dashes && dash,
        }
    }

    fn p(&self) -> f64 {
        if self.no_effect {
            0.0
        } else {
            f64::from(self.row.hit_top(self.class)) / 20.0
        }
    }
}

impl Resolve for TypeFire {
    type Outcome = u16;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> u16 {
        let top = u16::from(self.row.hit_top(self.class));
        let hits = (0..self.dice)
            .filter(|_| dice.face(Die::D20) <= top)
            .count() as u16;
        if self.no_effect { 0 } else { hits }
    }
    fn odds(&self) -> Dist<u16> {
        Dist::binomial(u32::from(self.dice), self.p())
            .map(|d| d.map(|&k| k as u16))
            .unwrap_or_else(|_| Dist::certain(0))
    }
}

/// An individual's weapon (TSATF-FIR-19, TSATF-FIR-20).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Personal {
    /// An officer's (or pistol-armed NCO's) pistol, 15": 4–5 wounds, 6 kills.
    #[strum(to_string = "pistol")]
    Pistol,
    /// A sniper's rifle, 48": 3–4 wounds, 5–6 kills.
    #[strum(to_string = "sniper rifle")]
    SniperRifle,
}

impl Personal {
    /// The range in inches.
    #[must_use]
    pub const fn range(self) -> f64 {
        match self {
            Personal::Pistol => tables::PISTOL_RANGE,
            Personal::SniperRifle => tables::SNIPER_RANGE,
        }
    }

    /// The effect of a D6 face.
    #[must_use]
    pub const fn effect(self, face: u16) -> HitEffect {
        match (self, face) {
            (Personal::Pistol, 6..) | (Personal::SniperRifle, 5..) => HitEffect::Killed,
            (Personal::Pistol, 4..) | (Personal::SniperRifle, 3..) => HitEffect::Wounded,
            _ => HitEffect::Miss,
        }
    }
}

/// One individual shot (TSATF-FIR-19, TSATF-FIR-20): 1D6 read by the weapon.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[must_use]
pub struct PersonalShot(pub Personal);

impl Resolve for PersonalShot {
    type Outcome = HitEffect;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> HitEffect {
        self.0.effect(dice.face(Die::D6))
    }
    fn odds(&self) -> Dist<HitEffect> {
        Dist::die(Die::D6).map(|&f| self.0.effect(f as u16))
    }
}

/// The ammunition supply (TSATF-SET-09, TSATF-FIR-24): 1D10 turns of fire.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[must_use]
pub struct AmmunitionRoll;

impl Resolve for AmmunitionRoll {
    type Outcome = u8;
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> u8 {
        dice.face(Die::D10) as u8
    }
    fn odds(&self) -> Dist<u8> {
        Dist::die(Die::D10).map(|&f| f as u8)
    }
}

/// One hit card drawn from a full, shuffled 52-card deck: independent draws (TSATF-FIR-14, TSATF-FIR-15
/// default). The outcome is the effect by suit and the category by rank.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[must_use]
pub struct HitCard;

impl Resolve for HitCard {
    type Outcome = (HitEffect, Category);
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> (HitEffect, Category) {
        let i = dice.draw(&FULL_DECK);
        tables::read_hit_card(nth_card(i))
    }
    fn odds(&self) -> Dist<(HitEffect, Category)> {
        Dist::uniform((0..52).map(|i| tables::read_hit_card(nth_card(i))))
            .unwrap_or_else(|_| Dist::certain((HitEffect::Miss, Category::Enlisted)))
    }
}

const RANKS: [Rank; 13] = [
    Rank::Two,
    Rank::Three,
    Rank::Four,
    Rank::Five,
    Rank::Six,
    Rank::Seven,
    Rank::Eight,
    Rank::Nine,
    Rank::Ten,
    Rank::Jack,
    Rank::Queen,
    Rank::King,
    Rank::Ace,
];
const SUITS: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

/// The 52 cards of a full deck without jokers, the pile every independent hit card is drawn from.
pub static FULL_DECK: [Card; 52] = {
    let mut cards = [Card::Suited(Rank::Two, Suit::Clubs); 52];
    let mut i = 0;
    while i < 52 {
        cards[i] = Card::Suited(RANKS[i % 13], SUITS[i / 13]);
        i += 1;
    }
    cards
};

fn nth_card(i: usize) -> Card {
    FULL_DECK[i % 52]
}

/// The next hit card from one real deck as it stands (TSATF-FIR-15, option
/// [`crate::options::HitDeck::Persistent`]): drawn from the cards left in its pile, so the odds are those of the
/// deck's remaining cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[must_use]
pub struct DeckHitCard<'a> {
    /// The cards left to draw; an empty pile is a spent deck, reshuffled whole.
    pub pile: &'a [Card],
}

impl Resolve for DeckHitCard<'_> {
    type Outcome = (HitEffect, Category);
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> (HitEffect, Category) {
        let pile = if self.pile.is_empty() {
            &FULL_DECK[..]
        } else {
            self.pile
        };
        let i = dice.draw(pile).min(pile.len() - 1);
        tables::read_hit_card(pile[i])
    }
    fn odds(&self) -> Dist<(HitEffect, Category)> {
        let pile = if self.pile.is_empty() {
            &FULL_DECK[..]
        } else {
            self.pile
        };
        Dist::uniform(pile.iter().map(|&c| tables::read_hit_card(c)))
            .unwrap_or_else(|_| Dist::certain((HitEffect::Miss, Category::Enlisted)))
    }
}

/// The exact odds of the next hit card from one real deck as it stands ([`DeckHitCard`]).
#[must_use]
pub fn deck_hit_odds(deck: &Deck) -> Dist<(HitEffect, Category)> {
    DeckHitCard { pile: deck.pile() }.odds()
}

/// A unit's fire with either system (TSATF-FIR-01).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Fire {
    /// Mass fire.
    Mass(MassFire),
    /// Type firing.
    Type(TypeFire),
}

/// What a volley does to its target, hit cards and all (TSATF-FIR-10, TSATF-FIR-14, TSATF-FIR-18, TSATF-CAS-03):
/// the hits of the fire, then an independent hit card for each, read under the wound policy. The outcome is
/// (killed, wounded); under one-off policies wounds are counted as kills or not at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[must_use]
pub struct Volley {
    /// The fire.
    pub fire: Fire,
    /// The game's wound policy.
    pub wounds: crate::options::WoundPolicy,
}

impl Volley {
    fn read(&self, effect: HitEffect) -> (u16, u16) {
        use crate::options::WoundPolicy;
        match (effect, self.wounds) {
            (HitEffect::Killed, _) | (HitEffect::Wounded, WoundPolicy::WoundsAsKills) => (1, 0),
            (HitEffect::Wounded, WoundPolicy::Campaign) => (0, 1),
            _ => (0, 0),
        }
    }
}

impl Resolve for Volley {
    type Outcome = (u16, u16);
    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> (u16, u16) {
        let hits = match self.fire {
            Fire::Mass(m) => m.roll(dice),
            Fire::Type(t) => t.roll(dice),
        };
        let (mut killed, mut wounded) = (0, 0);
        for _ in 0..hits {
            let (k, w) = self.read(HitCard.roll(dice).0);
            killed += k;
            wounded += w;
        }
        (killed, wounded)
    }
    fn odds(&self) -> Dist<(u16, u16)> {
        let hits = match self.fire {
            Fire::Mass(m) => m.odds(),
            Fire::Type(t) => t.odds(),
        };
        let card = HitCard.odds().map(|&(e, _)| self.read(e));
        hits.and_then(|&n| {
            let mut total = Dist::certain((0u16, 0u16));
            for _ in 0..n {
                total = total.zip_with(&card, |&(k, w), &(k2, w2)| (k + k2, w + w2));
            }
            total
        })
    }
}

/// Where a gunboat's crew stand, for the target class (TSATF-OPT-07).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BoatPosition {
    /// Exposed on deck.
    #[strum(to_string = "exposed on deck")]
    Exposed,
    /// Behind lighter wood or canvas.
    #[strum(to_string = "behind light wood or canvas")]
    LightCover,
    /// Behind an armoured casemate.
    #[strum(to_string = "behind a casemate")]
    Casemate,
}

/// The target class of a gunboat's crew (TSATF-OPT-07): exposed II, light cover III (or II as printed, under
/// [`Options::gunboat_light_cover_class2`]), casemate IV.
#[must_use]
pub fn gunboat_class(position: BoatPosition, options: &Options) -> TargetClass {
    match position {
        BoatPosition::Exposed => TargetClass::II,
        BoatPosition::LightCover if options.gunboat_light_cover_class2 => TargetClass::II,
        BoatPosition::LightCover => TargetClass::III,
        BoatPosition::Casemate => TargetClass::IV,
    }
}
