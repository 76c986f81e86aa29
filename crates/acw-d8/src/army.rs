//! Army generation: the 12 base regiments and the D4 extras, figures by class, cavalry companies, sharpshooter
//! exchanges, batteries, brigades, officers, weapons and baggage (D8-SET-17 to D8-SET-37).
//!
//! Generation is two steps, because the rules give the player a choice in the middle: [`Strength::roll`] rolls
//! the extra regiments, cavalry companies and batteries; the player then decides how many cavalry companies to
//! exchange for sharpshooters ([`Strength::exchange`]); [`Strength::complete`] rolls the rest. An [`Army`] is plain
//! data that loads (serde) through the same checks as [`Army::new`].

use crate::dice_util::check;
use crate::error::D8Error;
use crate::options::{ImprovedMuskets, Options};
use crate::tables::{
    BASE_REGIMENTS, Class, GunType, MAX_UNIT, MIN_UNIT, Rank, Troop, Weapon, extra_regiments,
};
use acw_core::{Dice, Die, Dist, Resolve, Side};
use std::fmt;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// D8-SET-19: the D4 for extra foot regiments: the side takes the first D4 of Raw, Experienced, Experienced,
/// Veteran (Raw, Experienced, Veteran, Experienced under the option). The outcome is the extras' classes counted
/// as (Veteran, Experienced, Raw).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ExtraRegiments {
    /// The option reading a D4 of 3 as Raw, Experienced, Veteran.
    pub d4_3_veteran: bool,
}

impl ExtraRegiments {
    fn counts(&self, face: u16) -> (u8, u8, u8) {
        let mut c = (0, 0, 0);
        for class in extra_regiments(self.d4_3_veteran)
            .iter()
            .take(usize::from(face))
        {
            match class {
                Class::Veteran => c.0 += 1,
                Class::Experienced => c.1 += 1,
                Class::Raw => c.2 += 1,
            }
        }
        c
    }
}

impl Resolve for ExtraRegiments {
    type Outcome = (u8, u8, u8);

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> (u8, u8, u8) {
        self.counts(Die::D4.roll(dice))
    }

    fn odds(&self) -> Dist<(u8, u8, u8)> {
        Dist::die(Die::D4).map(|&f| self.counts(f as u16))
    }
}

/// D8-SET-20: a foot regiment's figures: 10 plus a D10 (Raw), D8 (Experienced) or D5 (Veteran).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegimentSize {
    /// The regiment's class.
    pub class: Class,
}

impl RegimentSize {
    /// The die added to the base 10.
    #[must_use]
    pub const fn die(self) -> Die {
        match self.class {
            Class::Raw => Die::D10,
            Class::Experienced => Die::D8,
            Class::Veteran => Die::D5,
        }
    }
}

/// D8-SET-20: every regiment starts with this many figures before its die.
pub const REGIMENT_BASE: u32 = 10;

impl Resolve for RegimentSize {
    type Outcome = u32;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> u32 {
        REGIMENT_BASE + u32::from(self.die().roll(dice))
    }

    fn odds(&self) -> Dist<u32> {
        Dist::die(self.die()).map(|&f| REGIMENT_BASE + f)
    }
}

/// D8-SET-21, D8-SET-22: cavalry companies: the Union a D12 of 4-figure companies; the Confederates a D10 of
/// 2-figure companies, none on a 1 (2 figures are under the 4-figure minimum).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CavalryCompanies {
    /// Whose cavalry.
    pub side: Side,
}

impl CavalryCompanies {
    fn companies(self, face: u16) -> u8 {
        match self.side {
            Side::Union => face as u8,
            Side::Confederate if face == 1 => 0,
            Side::Confederate => face as u8,
        }
    }

    fn die(self) -> Die {
        match self.side {
            Side::Union => Die::D12,
            Side::Confederate => Die::D10,
        }
    }
}

/// Figures in a cavalry company: Union 4, Confederate 2 (D8-SET-21, D8-SET-22).
#[must_use]
pub const fn company_figures(side: Side) -> u32 {
    match side {
        Side::Union => 4,
        Side::Confederate => 2,
    }
}

impl Resolve for CavalryCompanies {
    type Outcome = u8;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> u8 {
        self.companies(self.die().roll(dice))
    }

    fn odds(&self) -> Dist<u8> {
        Dist::die(self.die()).map(|&f| self.companies(f as u16))
    }
}

/// D8-SET-25: the sharpshooters' class: D2, 1 Veteran, 2 Experienced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SharpshooterClass;

impl Resolve for SharpshooterClass {
    type Outcome = Class;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> Class {
        if Die::D2.roll(dice) == 1 {
            Class::Veteran
        } else {
            Class::Experienced
        }
    }

    fn odds(&self) -> Dist<Class> {
        Dist::die(Die::D2).map(|&f| {
            if f == 1 {
                Class::Veteran
            } else {
                Class::Experienced
            }
        })
    }
}

/// D8-SET-27, D8-SET-30: a cavalry unit's or battery's class by D6: 1–2 Raw, 3–4 Experienced, 5–6 Veteran.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ClassRoll;

impl Resolve for ClassRoll {
    type Outcome = Class;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> Class {
        Class::from_d6(Die::D6.roll(dice))
    }

    fn odds(&self) -> Dist<Class> {
        Dist::die(Die::D6).map(|&f| Class::from_d6(f as u16))
    }
}

/// D8-SET-28: the number of batteries: a D4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct BatteryCount;

impl Resolve for BatteryCount {
    type Outcome = u8;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> u8 {
        Die::D4.roll(dice) as u8
    }

    fn odds(&self) -> Dist<u8> {
        Dist::die(Die::D4).map(|&f| f as u8)
    }
}

/// D8-SET-29: a battery's type: D6, 1–4 field, 5–6 heavy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct BatteryType;

impl Resolve for BatteryType {
    type Outcome = GunType;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> GunType {
        GunType::from_d6(Die::D6.roll(dice))
    }

    fn odds(&self) -> Dist<GunType> {
        Dist::die(Die::D6).map(|&f| GunType::from_d6(f as u16))
    }
}

/// The exact odds of a side's foot strength: total foot figures after the D4 extras and every regiment's die
/// (D8-SET-18 to D8-SET-20).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct FootStrength {
    /// The option reading a D4 of 3 as Raw, Experienced, Veteran.
    pub d4_3_veteran: bool,
}

impl FootStrength {
    fn classes(&self, extra: (u8, u8, u8)) -> [(Class, u32); 3] {
        [
            (Class::Raw, BASE_REGIMENTS[2].1 + u32::from(extra.2)),
            (Class::Experienced, BASE_REGIMENTS[1].1 + u32::from(extra.1)),
            (Class::Veteran, BASE_REGIMENTS[0].1 + u32::from(extra.0)),
        ]
    }
}

impl Resolve for FootStrength {
    type Outcome = u32;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> u32 {
        let extra = ExtraRegiments {
            d4_3_veteran: self.d4_3_veteran,
        }
        .roll(dice);
        let mut total = 0;
        for (class, n) in self.classes(extra) {
            for _ in 0..n {
                total += RegimentSize { class }.roll(dice);
            }
        }
        total
    }

    fn odds(&self) -> Dist<u32> {
        ExtraRegiments {
            d4_3_veteran: self.d4_3_veteran,
        }
        .odds()
        .and_then(|&extra| {
            let mut acc = Dist::certain(0u32);
            for (class, n) in self.classes(extra) {
                if n > 0 {
                    acc = acc.add(&RegimentSize { class }.odds().sum_n(n));
                }
            }
            acc
        })
    }
}

/// The exact odds of a side's whole army in figures (D8-SET-36): foot (D8-SET-18 to D8-SET-20), cavalry companies
/// (D8-SET-21, D8-SET-22) and a D4 of batteries, each field or heavy by D6 with its crew (D8-SET-28, D8-SET-29,
/// D8-SET-31). Exchanging cavalry for sharpshooters trades 4 figures for 4, so it does not change the total (a
/// disbanded Confederate remnant aside).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArmyFigures {
    /// The side.
    pub side: Side,
    /// The option reading a D4 of 3 as Raw, Experienced, Veteran.
    pub d4_3_veteran: bool,
}

impl ArmyFigures {
    fn crew(&self, g: GunType) -> u32 {
        g.crew(self.side)
    }
}

impl Resolve for ArmyFigures {
    type Outcome = u32;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> u32 {
        let foot = FootStrength {
            d4_3_veteran: self.d4_3_veteran,
        }
        .roll(dice);
        let cavalry =
            u32::from(CavalryCompanies { side: self.side }.roll(dice)) * company_figures(self.side);
        let batteries = BatteryCount.roll(dice);
        let guns: u32 = (0..batteries)
            .map(|_| self.crew(BatteryType.roll(dice)))
            .sum();
        foot + cavalry + guns
    }

    fn odds(&self) -> Dist<u32> {
        let foot = FootStrength {
            d4_3_veteran: self.d4_3_veteran,
        }
        .odds();
        let cavalry = CavalryCompanies { side: self.side }
            .odds()
            .map(|&c| u32::from(c) * company_figures(self.side));
        let one_battery = BatteryType.odds().map(|&g| self.crew(g));
        let guns = BatteryCount
            .odds()
            .and_then(|&n| one_battery.sum_n(u32::from(n)));
        foot.add(&cavalry).add(&guns)
    }
}

/// What the first rolls gave a side, before the player's sharpshooter choice (D8-SET-36 steps 1–4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "StrengthRepr"))]
pub struct Strength {
    /// The side.
    pub side: Side,
    /// Extra regiments as (Veteran, Experienced, Raw).
    pub extra: (u8, u8, u8),
    /// Cavalry companies rolled (before any exchange).
    pub cavalry_companies: u8,
    /// Batteries.
    pub batteries: u8,
    /// Sharpshooter companies taken in exchange.
    pub sharpshooter_companies: u8,
}

/// A [`Strength`] as loaded, before its checks.
#[cfg(feature = "serde")]
#[derive(Deserialize)]
struct StrengthRepr {
    side: Side,
    extra: (u8, u8, u8),
    cavalry_companies: u8,
    batteries: u8,
    sharpshooter_companies: u8,
}

#[cfg(feature = "serde")]
impl TryFrom<StrengthRepr> for Strength {
    type Error = D8Error;
    fn try_from(r: StrengthRepr) -> Result<Strength, D8Error> {
        Strength::new(
            r.side,
            r.extra,
            r.cavalry_companies,
            r.batteries,
            r.sharpshooter_companies,
        )
    }
}

impl Strength {
    /// A side's first rolls, checked: extras as a D4 can give them under either reading (D8-SET-19), cavalry
    /// companies as the side's die can give them (D8-SET-21, D8-SET-22, a disbanded remnant allowed for), 1 to 4
    /// batteries (D8-SET-28), and a sharpshooter exchange the cavalry pays for (D8-SET-23, D8-SET-24).
    pub fn new(
        side: Side,
        extra: (u8, u8, u8),
        cavalry_companies: u8,
        batteries: u8,
        sharpshooter_companies: u8,
    ) -> Result<Strength, D8Error> {
        let possible = (1..=4u16).any(|f| {
            ExtraRegiments {
                d4_3_veteran: false,
            }
            .counts(f)
                == extra
                || ExtraRegiments { d4_3_veteran: true }.counts(f) == extra
        });
        if !possible {
            return Err(bad(format!(
                "{} Veteran, {} Experienced and {} Raw extra regiments are not a D4's result",
                extra.0, extra.1, extra.2
            )));
        }
        let top = match side {
            Side::Union => 12,
            Side::Confederate => 10,
        };
        if cavalry_companies > top
            || (side == Side::Confederate && cavalry_companies == 1)
            || (side == Side::Union && cavalry_companies == 0)
        {
            return Err(bad(format!(
                "{cavalry_companies} cavalry companies are not a {side} cavalry roll"
            )));
        }
        if !(1..=4).contains(&batteries) {
            return Err(D8Error::range("batteries", batteries, 1, 4));
        }
        let mut s = Strength {
            side,
            extra,
            cavalry_companies,
            batteries,
            sharpshooter_companies: 0,
        };
        if sharpshooter_companies > 0 {
            // A disbanded remnant is stored as the companies given up, so the default check serves.
            s.exchange(sharpshooter_companies, &Options::default())?;
        }
        Ok(s)
    }

    /// D8-SET-36 steps 1–4: the 12 base regiments, the D4 extras (D8-SET-19), the cavalry die (D8-SET-21,
    /// D8-SET-22) and the D4 batteries (D8-SET-28).
    pub fn roll<D: Dice + ?Sized>(
        side: Side,
        dice: &mut D,
        options: &Options,
    ) -> Result<Strength, D8Error> {
        dice.about(format_args!("the {side} extra regiments (a d4)"));
        let extra = ExtraRegiments {
            d4_3_veteran: options.extra_d4_3_veteran,
        }
        .roll(dice);
        dice.about(format_args!("the {side} cavalry companies"));
        let cavalry_companies = CavalryCompanies { side }.roll(dice);
        dice.about(format_args!("the {side} batteries (a d4)"));
        let batteries = BatteryCount.roll(dice);
        check(dice)?;
        Ok(Strength {
            side,
            extra,
            cavalry_companies,
            batteries,
            sharpshooter_companies: 0,
        })
    }

    /// Cavalry companies left after the exchange.
    #[must_use]
    pub fn cavalry_left(&self) -> u8 {
        self.cavalry_companies
            .saturating_sub(self.sharpshooter_companies * self.companies_per_sharpshooter_company())
    }

    fn companies_per_sharpshooter_company(&self) -> u8 {
        match self.side {
            Side::Union => 1,
            Side::Confederate => 2,
        }
    }

    /// D8-SET-23, D8-SET-24: the player's choice of sharpshooter companies (0 to 2). The Union gives 1 cavalry
    /// company (4 figures) for each; the Confederates 2 (4 figures), and must have them. A Confederate remnant of
    /// one company (2 figures, under the 4-figure minimum) is refused, or disbanded under the option. A refused
    /// choice changes nothing.
    pub fn exchange(&mut self, companies: u8, options: &Options) -> Result<(), D8Error> {
        if companies > 2 {
            return Err(D8Error::range("sharpshooter companies", companies, 0, 2));
        }
        let give = companies * self.companies_per_sharpshooter_company();
        if give > self.cavalry_companies {
            return Err(D8Error::BadArmy(format!(
                "{companies} sharpshooter companies need {give} cavalry companies, and only {} were rolled",
                self.cavalry_companies
            )));
        }
        let left = self.cavalry_companies - give;
        let mut next = *self;
        next.sharpshooter_companies = companies;
        if self.side == Side::Confederate && left == 1 {
            if options.disband_cavalry_remnant {
                next.cavalry_companies = give;
            } else {
                return Err(D8Error::BadArmy(
                    "the exchange would leave one cavalry company of 2 figures, under the 4-figure minimum".into(),
                ));
            }
        }
        *self = next;
        Ok(())
    }

    /// D8-SET-36 steps 5–10: the sharpshooters' D2, brigades and officers, each regiment's figures (Raw, then
    /// Experienced, then Veteran), cavalry units and their D6 class, each battery's class then type, weapons and
    /// baggage. `year` is the scenario's year (D8-SET-34).
    pub fn complete<D: Dice + ?Sized>(
        &self,
        dice: &mut D,
        options: &Options,
        year: u16,
    ) -> Result<Army, D8Error> {
        // The fields are public: check them as a loaded value would be.
        Strength::new(
            self.side,
            self.extra,
            self.cavalry_companies,
            self.batteries,
            self.sharpshooter_companies,
        )?;
        let side = self.side;
        let mut units: Vec<ArmyUnit> = Vec::new();
        // Sharpshooters (D8-SET-25): one unit of all companies and one D2, or a unit and a D2 a company.
        let mut sharpshooters = Vec::new();
        if self.sharpshooter_companies > 0 {
            let groups: Vec<u32> = if options.sharpshooters_per_company {
                vec![4; usize::from(self.sharpshooter_companies)]
            } else {
                vec![4 * u32::from(self.sharpshooter_companies)]
            };
            for figures in groups {
                dice.about(format_args!("the class of the {side} sharpshooters (a d2)"));
                sharpshooters.push((figures, SharpshooterClass.roll(dice)));
            }
        }
        // Foot regiments (D8-SET-18, D8-SET-19), brigaded (D8-SET-32), sized Raw, Exp, Vet (D8-SET-20).
        let (v, e, r) = self.extra;
        let counts = [
            (Class::Veteran, BASE_REGIMENTS[0].1 + u32::from(v)),
            (Class::Experienced, BASE_REGIMENTS[1].1 + u32::from(e)),
            (Class::Raw, BASE_REGIMENTS[2].1 + u32::from(r)),
        ];
        let classes: Vec<Class> = counts
            .iter()
            .flat_map(|&(c, n)| std::iter::repeat_n(c, n as usize))
            .collect();
        let n = classes.len();
        let brigade_count = n.div_ceil(4);
        let mut sizes = [0u32; 3];
        let mut foot: Vec<ArmyUnit> = Vec::with_capacity(n);
        for (i, &class) in classes.iter().enumerate() {
            let kind_no = match class {
                Class::Veteran => &mut sizes[0],
                Class::Experienced => &mut sizes[1],
                Class::Raw => &mut sizes[2],
            };
            *kind_no += 1;
            foot.push(ArmyUnit {
                name: numbered(*kind_no, &[class.word(), "Regiment"]),
                troop: Troop::Foot,
                class,
                figures: 0,
                weapon: if class == Class::Veteran {
                    Weapon::Rifle
                } else {
                    Weapon::Musket
                },
                brigade: Some((i % brigade_count) as u8 + 1),
            });
        }
        for class in [Class::Raw, Class::Experienced, Class::Veteran] {
            for u in foot.iter_mut().filter(|u| u.class == class) {
                dice.about(format_args!("the figures of the {side} {}", u.name));
                u.figures = RegimentSize { class }.roll(dice);
            }
        }
        // Weapons after 1862 (D8-SET-34).
        if year > 1862 {
            let quota = match options.improved_muskets {
                ImprovedMuskets::Quarter => n / 4,
                ImprovedMuskets::AllExperienced => n,
                ImprovedMuskets::None => 0,
            };
            for u in foot
                .iter_mut()
                .filter(|u| u.class == Class::Experienced)
                .take(quota)
            {
                u.weapon = Weapon::ImprovedMusket;
            }
        }
        units.extend(foot);
        // Cavalry (D8-SET-26, D8-SET-27).
        let per = company_figures(side);
        for (i, companies) in cavalry_units(side, self.cavalry_left())
            .into_iter()
            .enumerate()
        {
            dice.about(format_args!(
                "the class of the {side} {} Cavalry (a d6)",
                ordinal(i as u32 + 1)
            ));
            let class = ClassRoll.roll(dice);
            units.push(ArmyUnit {
                name: numbered(i as u32 + 1, &["Cavalry"]),
                troop: Troop::Cavalry,
                class,
                figures: u32::from(companies) * per,
                weapon: Weapon::Carbine,
                brigade: None,
            });
        }
        for (i, (figures, class)) in sharpshooters.into_iter().enumerate() {
            units.push(ArmyUnit {
                name: numbered(i as u32 + 1, &["Sharpshooters"]),
                troop: Troop::Sharpshooters,
                class,
                figures,
                weapon: Weapon::Rifle,
                brigade: None,
            });
        }
        // Batteries (D8-SET-30 class, then D8-SET-29 type; D8-SET-31 crews).
        for i in 0..self.batteries {
            dice.about(format_args!(
                "the class (a d6) and the guns (a d6) of the {side} {} Battery",
                ordinal(u32::from(i) + 1)
            ));
            let class = ClassRoll.roll(dice);
            let gun = BatteryType.roll(dice);
            units.push(ArmyUnit {
                name: numbered(u32::from(i) + 1, &["Battery"]),
                troop: Troop::Battery(gun),
                class,
                figures: gun.crew(side),
                weapon: match gun {
                    GunType::Field => Weapon::FieldGun,
                    GunType::Heavy => Weapon::HeavyGun,
                },
                brigade: None,
            });
        }
        check(dice)?;
        // Officers (D8-SET-33): a Brigadier a brigade and the Divisional Commander.
        let mut officers: Vec<Rank> = vec![Rank::Division];
        officers.extend(std::iter::repeat_n(Rank::Brigadier, brigade_count));
        Army::new(ArmyData {
            side,
            units,
            brigades: brigade_count as u8,
            divisions: 1,
            officers,
            baggage: if options.baggage { 1 } else { 0 },
            year,
        })
    }
}

/// D8-SET-26: how cavalry companies form units: the Confederates one unit (at most 10 companies, 20 figures);
/// the Union the fewest units of at most 5 companies, as equal as possible, larger first.
#[must_use]
pub fn cavalry_units(side: Side, companies: u8) -> Vec<u8> {
    if companies == 0 {
        return Vec::new();
    }
    match side {
        Side::Confederate => vec![companies],
        Side::Union => {
            let units = companies.div_ceil(5);
            let base = companies / units;
            let extra = companies % units;
            (0..units).map(|i| base + u8::from(i < extra)).collect()
        }
    }
}

fn ordinal(n: u32) -> String {
    let mut s = String::with_capacity(8);
    push_ordinal(&mut s, n);
    s
}

/// `n` as an ordinal ("1st", "12th", "23rd") appended to `s` digit by digit (the formatting machinery cost more
/// than the text).
fn push_ordinal(s: &mut String, n: u32) {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    let mut digits = [0u8; 10];
    let (mut at, mut rest) = (digits.len(), n);
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    s.extend(digits[at..].iter().map(|&d| char::from(d)));
    s.push_str(suffix);
}

/// A unit's name: `n` as an ordinal, then `words` ("2nd Veteran Regiment"), in a string sized for it at once.
fn numbered(n: u32, words: &[&str]) -> String {
    let mut s = String::with_capacity(32);
    push_ordinal(&mut s, n);
    for w in words {
        s.push(' ');
        s.push_str(w);
    }
    s
}

/// One unit of an order of battle.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct ArmyUnit {
    /// Its name, as a person reads it ("3rd Experienced Regiment").
    pub name: String,
    /// What it is.
    pub troop: Troop,
    /// Its class.
    pub class: Class,
    /// Its figures at the start (artillerymen for a battery).
    pub figures: u32,
    /// Its weapon.
    pub weapon: Weapon,
    /// Its brigade (1-based), for foot regiments.
    pub brigade: Option<u8>,
}

/// A side's order of battle: units, brigades, officers, baggage (D8-SET-36).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "ArmyData", into = "ArmyData"))]
pub struct Army {
    data: ArmyData,
}

/// The plain data of an [`Army`], as serialised; [`Army::new`] checks it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct ArmyData {
    /// The side.
    pub side: Side,
    /// The units, in creation order.
    pub units: Vec<ArmyUnit>,
    /// Brigades, numbered 1 to this.
    pub brigades: u8,
    /// Divisions (1 in the standard game, 2 in a doubled one).
    pub divisions: u8,
    /// Officer figures by rank.
    pub officers: Vec<Rank>,
    /// Baggage wagons (at most one a division).
    pub baggage: u8,
    /// The scenario's year.
    pub year: u16,
}

impl TryFrom<ArmyData> for Army {
    type Error = D8Error;
    fn try_from(d: ArmyData) -> Result<Army, D8Error> {
        Army::new(d)
    }
}

impl From<Army> for ArmyData {
    fn from(a: Army) -> ArmyData {
        a.data
    }
}

fn bad(msg: impl Into<String>) -> D8Error {
    D8Error::BadArmy(msg.into())
}

/// D8-SET-34: whether `troop` of `class` may carry `weapon`.
#[must_use]
pub fn weapon_allowed(troop: Troop, class: Class, weapon: Weapon) -> bool {
    match troop {
        Troop::Foot => match class {
            Class::Veteran => weapon == Weapon::Rifle,
            Class::Experienced => matches!(weapon, Weapon::Musket | Weapon::ImprovedMusket),
            Class::Raw => weapon == Weapon::Musket,
        },
        Troop::Cavalry => matches!(weapon, Weapon::Carbine | Weapon::Shotgun),
        Troop::Sharpshooters => weapon == Weapon::Rifle,
        Troop::Indians => weapon == Weapon::Bow,
        Troop::Battery(GunType::Field) => weapon == Weapon::FieldGun,
        Troop::Battery(GunType::Heavy) => weapon == Weapon::HeavyGun,
    }
}

impl Army {
    /// An order of battle, checked: every unit 4 to 20 figures (D8-SET-37); foot regiments 11 to 20 by their
    /// class's die (D8-SET-20), each in a brigade of 3 to 6, at least 3 brigades, at most 5 a division
    /// (D8-SET-32); others unbrigaded; batteries no more crew than their table (D8-SET-31); sharpshooters 4 or 8
    /// figures (D8-SET-25); weapons as issued (D8-SET-34); a Brigadier a brigade and a Divisional Commander a
    /// division, a Corps Commander over two or more (D8-SET-33); at most one baggage wagon a division (D8-SET-35).
    pub fn new(data: ArmyData) -> Result<Army, D8Error> {
        if data.divisions == 0 {
            return Err(bad("an army needs at least one division"));
        }
        if u32::from(data.brigades) < 3 * u32::from(data.divisions) {
            return Err(bad(format!(
                "{} division(s) need at least {} brigades, not {}",
                data.divisions,
                3 * u32::from(data.divisions),
                data.brigades
            )));
        }
        if u32::from(data.brigades) > 5 * u32::from(data.divisions) {
            return Err(bad(format!(
                "a division has at most 5 brigades; {} is too many",
                data.brigades
            )));
        }
        let mut per_brigade = vec![0u32; usize::from(data.brigades)];
        for u in &data.units {
            if u.name.trim().is_empty() {
                return Err(bad("every unit needs a name"));
            }
            if !(MIN_UNIT..=MAX_UNIT).contains(&u.figures) {
                return Err(bad(format!(
                    "{} has {} figures; a unit has {MIN_UNIT} to {MAX_UNIT}",
                    u.name, u.figures
                )));
            }
            if !weapon_allowed(u.troop, u.class, u.weapon) {
                return Err(bad(format!("{} cannot carry a {}", u.name, u.weapon)));
            }
            match (u.troop, u.brigade) {
                (Troop::Foot, Some(b)) if (1..=data.brigades).contains(&b) => {
                    per_brigade[usize::from(b - 1)] += 1;
                    let top =
                        REGIMENT_BASE + u32::from(RegimentSize { class: u.class }.die().sides());
                    if u.figures < REGIMENT_BASE + 1 || u.figures > top {
                        return Err(bad(format!(
                            "{} has {} figures; a {} regiment has 11 to {top}",
                            u.name, u.figures, u.class
                        )));
                    }
                }
                (Troop::Foot, _) => {
                    return Err(bad(format!(
                        "{} must be in one of the {} brigades",
                        u.name, data.brigades
                    )));
                }
                (_, Some(_)) => return Err(bad(format!("{} is not brigaded", u.name))),
                (Troop::Battery(g), None) if u.figures > g.crew(data.side) => {
                    return Err(bad(format!(
                        "{} has {} artillerymen; a {} {g} battery has {}",
                        u.name,
                        u.figures,
                        data.side,
                        g.crew(data.side)
                    )));
                }
                (Troop::Sharpshooters, None) if !matches!(u.figures, 4 | 8) => {
                    return Err(bad(format!("{} must have 4 or 8 figures", u.name)));
                }
                _ => {}
            }
        }
        if let Some((i, n)) = per_brigade
            .iter()
            .enumerate()
            .find(|(_, n)| !(3..=6).contains(*n))
        {
            return Err(bad(format!(
                "brigade {} has {n} regiments; a brigade has 3 to 6",
                i + 1
            )));
        }
        let count = |r: Rank| data.officers.iter().filter(|&&o| o == r).count();
        if count(Rank::Brigadier) < usize::from(data.brigades) {
            return Err(bad(format!(
                "{} brigades need {} Brigadiers, not {}",
                data.brigades,
                data.brigades,
                count(Rank::Brigadier)
            )));
        }
        if count(Rank::Division) < usize::from(data.divisions) {
            return Err(bad("every division needs its Divisional Commander"));
        }
        if data.divisions > 1 && count(Rank::Corps) == 0 {
            return Err(bad("two or more divisions need a Corps Commander"));
        }
        if data.baggage > data.divisions {
            return Err(bad("at most one baggage wagon a division"));
        }
        Ok(Army { data })
    }

    /// D8-SET-36: generates a side's army with the player's sharpshooter choice given up front (`sharpshooters`
    /// companies asked for, 0 to 2, reduced to what the roll allows). The draws: D4 extras, the cavalry die, D4
    /// batteries, then [`Strength::complete`].
    pub fn generate<D: Dice + ?Sized>(
        side: Side,
        dice: &mut D,
        options: &Options,
        sharpshooters: u8,
        year: u16,
    ) -> Result<Army, D8Error> {
        let mut s = Strength::roll(side, dice, options)?;
        let mut want = sharpshooters.min(2);
        while want > 0 && s.exchange(want, options).is_err() {
            want -= 1;
        }
        s.complete(dice, options, year)
    }

    /// D8-OPT-05: two divisions as one corps, for a doubled table: the second division's brigades are numbered
    /// after the first's, and a Corps Commander is added. Both must be of one side.
    pub fn corps(first: &Army, second: &Army) -> Result<Army, D8Error> {
        if first.data.side != second.data.side {
            return Err(bad("a corps is formed of one side's divisions"));
        }
        let too_big = || bad("the corps is too big to number its brigades");
        let mut d = first.data.clone();
        let shift = d.brigades;
        d.brigades = d
            .brigades
            .checked_add(second.data.brigades)
            .ok_or_else(too_big)?;
        d.divisions = d
            .divisions
            .checked_add(second.data.divisions)
            .ok_or_else(too_big)?;
        d.baggage = d
            .baggage
            .checked_add(second.data.baggage)
            .ok_or_else(too_big)?;
        d.units
            .extend(second.data.units.iter().cloned().map(|mut u| {
                // Cannot overflow: every brigade number is at most second.brigades, and the sum fitted above.
                u.brigade = u.brigade.map(|b| b.saturating_add(shift));
                u
            }));
        d.officers.extend(second.data.officers.iter().copied());
        d.officers.push(Rank::Corps);
        Army::new(d)
    }

    /// The army's data.
    #[must_use]
    pub fn data(&self) -> &ArmyData {
        &self.data
    }

    /// Figures of a kind of troop.
    #[must_use]
    pub fn figures(&self, pred: impl Fn(Troop) -> bool) -> u32 {
        self.data
            .units
            .iter()
            .filter(|u| pred(u.troop))
            .map(|u| u.figures)
            .sum()
    }
}

impl fmt::Display for Army {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} army: {} units in {} brigades",
            self.data.side,
            self.data.units.len(),
            self.data.brigades
        )?;
        for u in &self.data.units {
            write!(
                f,
                "  {}: {} {}, {} figures, {}",
                u.name, u.class, u.troop, u.figures, u.weapon
            )?;
            if let Some(b) = u.brigade {
                write!(f, ", brigade {b}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// Who is first to choose a side, or to move (D8-SET-03, D8-SEQ-02).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum Player {
    /// The first player named.
    First,
    /// The second player named.
    Second,
}

/// D8-SET-03, D8-ENV-02: a roll-off between two players on one die each, ties re-rolled: 1/2 each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RollOff {
    /// The die each rolls (a D6 for sides and season, a D10 for the first move).
    pub die: Die,
}

impl Resolve for RollOff {
    type Outcome = Player;

    fn roll<D: Dice + ?Sized>(&self, dice: &mut D) -> Player {
        if crate::dice_util::roll_off(dice, self.die) {
            Player::First
        } else {
            Player::Second
        }
    }

    fn odds(&self) -> Dist<Player> {
        Dist::uniform([Player::First, Player::Second])
            .unwrap_or_else(|_| Dist::certain(Player::First))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals_and_names_written_digit_by_digit() {
        for (n, want) in [
            (1, "1st"),
            (2, "2nd"),
            (3, "3rd"),
            (4, "4th"),
            (10, "10th"),
            (11, "11th"),
            (12, "12th"),
            (13, "13th"),
            (21, "21st"),
            (22, "22nd"),
            (101, "101st"),
            (111, "111th"),
            (4_294_967_295, "4294967295th"),
        ] {
            assert_eq!(ordinal(n), want);
        }
        assert_eq!(
            numbered(2, &[Class::Veteran.word(), "Regiment"]),
            "2nd Veteran Regiment"
        );
        assert_eq!(numbered(13, &["Battery"]), "13th Battery");
    }
}
