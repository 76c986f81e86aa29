//! Setting up: validated unit specifications and the suggested organisations (TSATF-SET-04, TSATF-SET-06,
//! TSATF-SET-08, TSATF-OPT-06, TSATF-OPT-10, TSATF-OPT-11).

use crate::error::SetupError;
use crate::state::MoraleState;
use crate::state::{Figure, Formation, OfficerRank, Role, Unit, UnitId, UnitKind};
use crate::tables::{FireRow, GUNBOAT_LIMITS, MAX_TRAIN_CARS, Quality};
use acw_core::Side;

/// The most figures one unit may hold.
pub const MAX_FIGURES: usize = 120;

/// A unit as the scenario gives it, checked by [`UnitSpec::validate`] (and on load).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "UnitSpecData"))]
pub struct UnitSpec {
    name: String,
    side: Side,
    kind: UnitKind,
    quality: Quality,
    formation: Formation,
    mounted: bool,
    fire_row: Option<FireRow>,
    officers: Vec<OfficerRank>,
    ncos: u16,
    sergeant_major: bool,
    privates: u16,
    gunners: u16,
    snipers: u16,
    crew: u16,
    colours: bool,
    scouts: bool,
    hidden: bool,
}

/// The serde form of [`UnitSpec`].
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitSpecData {
    name: String,
    side: Side,
    kind: UnitKind,
    quality: Quality,
    formation: Formation,
    mounted: bool,
    fire_row: Option<FireRow>,
    officers: Vec<OfficerRank>,
    ncos: u16,
    sergeant_major: bool,
    privates: u16,
    gunners: u16,
    snipers: u16,
    crew: u16,
    colours: bool,
    scouts: bool,
    hidden: bool,
}

#[cfg(feature = "serde")]
impl TryFrom<UnitSpecData> for UnitSpec {
    type Error = SetupError;
    fn try_from(d: UnitSpecData) -> Result<Self, SetupError> {
        let s = UnitSpec {
            name: d.name,
            side: d.side,
            kind: d.kind,
            quality: d.quality,
            formation: d.formation,
            mounted: d.mounted,
            fire_row: d.fire_row,
            officers: d.officers,
            ncos: d.ncos,
            sergeant_major: d.sergeant_major,
            privates: d.privates,
            gunners: d.gunners,
            snipers: d.snipers,
            crew: d.crew,
            colours: d.colours,
            scouts: d.scouts,
            hidden: d.hidden,
        };
        s.validate()?;
        Ok(s)
    }
}

impl UnitSpec {
    fn base(
        name: &str,
        side: Side,
        kind: UnitKind,
        quality: Quality,
        formation: Formation,
    ) -> UnitSpec {
        UnitSpec {
            name: name.to_string(),
            side,
            kind,
            quality,
            formation,
            mounted: false,
            fire_row: None,
            officers: Vec::new(),
            ncos: 0,
            sergeant_major: false,
            privates: 0,
            gunners: 0,
            snipers: 0,
            crew: 0,
            colours: false,
            scouts: false,
            hidden: false,
        }
    }

    /// The basic infantry unit (TSATF-SET-04): a lieutenant, two NCOs and eighteen privates in close-order
    /// line, firing muskets of its class.
    pub fn infantry(name: &str, side: Side, quality: Quality) -> Result<UnitSpec, SetupError> {
        let mut s = UnitSpec::base(
            name,
            side,
            UnitKind::Infantry,
            quality,
            Formation::CloseOrderLine,
        );
        s.officers = vec![OfficerRank::Lieutenant];
        s.ncos = 2;
        s.privates = 18;
        s.fire_row = Some(FireRow::musket(quality));
        if quality == Quality::Indians {
            s.formation = Formation::SkirmishLine;
            s.officers.clear();
            s.ncos = 1;
            s.privates = 20;
        }
        s.validate()?;
        Ok(s)
    }

    /// A cavalry unit (TSATF-SET-04, TSATF-SET-08): a lieutenant, two NCOs and `troopers`, mounted in march
    /// column, with one weapon row (carbine, pistol or shotgun).
    pub fn cavalry(
        name: &str,
        side: Side,
        quality: Quality,
        troopers: u16,
        weapon: FireRow,
    ) -> Result<UnitSpec, SetupError> {
        let mut s = UnitSpec::base(
            name,
            side,
            UnitKind::Cavalry,
            quality,
            Formation::MarchColumn,
        );
        s.officers = vec![OfficerRank::Lieutenant];
        s.ncos = 2;
        s.privates = troopers;
        s.mounted = true;
        s.fire_row = Some(weapon);
        s.validate()?;
        Ok(s)
    }

    /// A gun with its crew (TSATF-SET-06): `crew` gunners (four fire it; more are spares), limbered, and an
    /// NCO in charge.
    pub fn gun(
        name: &str,
        side: Side,
        quality: Quality,
        kind: UnitKind,
        crew: u16,
    ) -> Result<UnitSpec, SetupError> {
        let mut s = UnitSpec::base(name, side, kind, quality, Formation::Limbered);
        s.ncos = 1;
        s.gunners = crew;
        s.fire_row = Some(if kind == UnitKind::Gatling {
            FireRow::Gatling
        } else {
            FireRow::ArtilleryShort
        });
        s.validate()?;
        Ok(s)
    }

    /// A tinclad gunboat (TSATF-OPT-06): up to four guns with four gunners each, and 20–30 crew in all.
    pub fn gunboat(
        name: &str,
        side: Side,
        quality: Quality,
        guns: u8,
        crew: u16,
    ) -> Result<UnitSpec, SetupError> {
        let mut s = UnitSpec::base(
            name,
            side,
            UnitKind::Gunboat { guns },
            quality,
            Formation::Transport,
        );
        s.officers = vec![OfficerRank::Lieutenant];
        s.gunners = u16::from(guns) * 4;
        s.crew = crew.saturating_sub(s.gunners + 1);
        s.fire_row = Some(FireRow::ArtilleryShort);
        s.validate()?;
        Ok(s)
    }

    /// A train (TSATF-OPT-10): engine, tender, up to four cars and a caboose, with its crew.
    pub fn train(name: &str, side: Side, cars: u8, crew: u16) -> Result<UnitSpec, SetupError> {
        let mut s = UnitSpec::base(
            name,
            side,
            UnitKind::Train { cars },
            Quality::Average,
            Formation::Transport,
        );
        s.crew = crew;
        s.validate()?;
        Ok(s)
    }

    /// A wagon or pack animal with its drivers.
    pub fn transport(
        name: &str,
        side: Side,
        pack: bool,
        drivers: u16,
    ) -> Result<UnitSpec, SetupError> {
        let kind = if pack {
            UnitKind::PackAnimal
        } else {
            UnitKind::Wagon
        };
        let mut s = UnitSpec::base(name, side, kind, Quality::Average, Formation::Transport);
        s.privates = drivers;
        s.validate()?;
        Ok(s)
    }

    /// Adds a sergeant-major, when the basic unit is played as a company (TSATF-OPT-11).
    pub fn with_sergeant_major(mut self) -> Result<UnitSpec, SetupError> {
        self.sergeant_major = true;
        self.validate()?;
        Ok(self)
    }

    /// Replaces the officers (TSATF-CMD-04).
    pub fn with_officers(mut self, ranks: &[OfficerRank]) -> Result<UnitSpec, SetupError> {
        self.officers = ranks.to_vec();
        self.validate()?;
        Ok(self)
    }

    /// Sets the NCOs and privates.
    pub fn with_ranks(mut self, ncos: u16, privates: u16) -> Result<UnitSpec, SetupError> {
        self.ncos = ncos;
        self.privates = privates;
        self.validate()?;
        Ok(self)
    }

    /// Adds snipers (key figures, TSATF-FIR-20).
    pub fn with_snipers(mut self, snipers: u16) -> Result<UnitSpec, SetupError> {
        self.snipers = snipers;
        self.validate()?;
        Ok(self)
    }

    /// Sets the formation.
    pub fn in_formation(mut self, formation: Formation) -> Result<UnitSpec, SetupError> {
        self.formation = formation;
        self.validate()?;
        Ok(self)
    }

    /// Sets the fire row.
    pub fn firing(mut self, row: FireRow) -> Result<UnitSpec, SetupError> {
        self.fire_row = Some(row);
        self.validate()?;
        Ok(self)
    }

    /// Gives the unit its regimental colours.
    #[must_use]
    pub fn with_colours(mut self) -> UnitSpec {
        self.colours = true;
        self
    }

    /// Makes the unit trained scouts (TSATF-OPT-04).
    #[must_use]
    pub fn as_scouts(mut self) -> UnitSpec {
        self.scouts = true;
        self
    }

    /// Starts the unit hidden: only Indians may (TSATF-OPT-04).
    pub fn hidden(mut self) -> Result<UnitSpec, SetupError> {
        self.hidden = true;
        self.validate()?;
        Ok(self)
    }

    /// The unit's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its side.
    #[must_use]
    pub fn side(&self) -> Side {
        self.side
    }

    fn figure_count(&self) -> usize {
        self.officers.len()
            + usize::from(self.ncos)
            + usize::from(self.sergeant_major)
            + usize::from(self.privates)
            + usize::from(self.gunners)
            + usize::from(self.snipers)
            + usize::from(self.crew)
    }

    /// Checks the unit: a name, 1–120 figures, a formation its kind can take, gunners only on guns and boats,
    /// a fire row its kind can use, only Indians hidden, vehicles within their limits.
    pub fn validate(&self) -> Result<(), SetupError> {
        let name = || self.name.clone();
        if self.name.trim().is_empty() {
            return Err(SetupError::NoName);
        }
        let n = self.figure_count();
        if n == 0 {
            return Err(SetupError::NoFigures(name()));
        }
        if n > MAX_FIGURES {
            return Err(SetupError::TooManyFigures {
                unit: name(),
                figures: n,
                max: MAX_FIGURES,
            });
        }
        let bad_formation = || SetupError::BadFormation {
            unit: name(),
            formation: self.formation.to_string(),
        };
        let foot = matches!(
            self.formation,
            Formation::CloseOrderLine
                | Formation::MarchColumn
                | Formation::AssaultColumn
                | Formation::SkirmishLine
        );
        let ok = match self.kind {
            UnitKind::Infantry => foot,
            UnitKind::Cavalry if self.mounted => {
                matches!(
                    self.formation,
                    Formation::CloseOrderLine | Formation::MarchColumn
                )
            }
            UnitKind::Cavalry => foot,
            UnitKind::Artillery | UnitKind::Gatling | UnitKind::HeavyGun { .. } => {
                matches!(self.formation, Formation::Limbered | Formation::Unlimbered)
            }
            _ => self.formation == Formation::Transport,
        };
        if !ok || (self.mounted && self.kind != UnitKind::Cavalry) {
            return Err(bad_formation());
        }
        let gun_like = self.kind.is_gun() || matches!(self.kind, UnitKind::Gunboat { .. });
        if (self.gunners > 0) != gun_like {
            return Err(SetupError::BadCrew(name()));
        }
        if let Some(row) = self.fire_row {
            let fits = match self.kind {
                UnitKind::Infantry => matches!(
                    row,
                    FireRow::GreenMusket
                        | FireRow::AverageMusket
                        | FireRow::VeteranMusket
                        | FireRow::CrackMusket
                ),
                UnitKind::Cavalry => matches!(
                    row,
                    FireRow::CavalryCarbine | FireRow::CavalryPistol | FireRow::CavalryShotgun
                ),
                UnitKind::Gatling => row == FireRow::Gatling,
                UnitKind::Artillery | UnitKind::HeavyGun { .. } | UnitKind::Gunboat { .. } => {
                    row.is_gun() && row != FireRow::Gatling
                }
                _ => false,
            };
            if !fits {
                return Err(SetupError::BadFireRow { unit: name(), row });
            }
        }
        if self.hidden && self.quality != Quality::Indians {
            return Err(SetupError::Vehicle(format!(
                "{}: only Indians may start hidden",
                self.name
            )));
        }
        match self.kind {
            UnitKind::Gunboat { guns } => {
                let (max_guns, lo, hi) = GUNBOAT_LIMITS;
                if guns == 0 || guns > max_guns || !(lo..=hi).contains(&(n as u16)) {
                    return Err(SetupError::Vehicle(format!(
                        "{}: a gunboat carries 1 to {max_guns} guns and {lo} to {hi} crew, not {guns} guns and {n} crew",
                        self.name
                    )));
                }
            }
            UnitKind::Train { cars } if cars > MAX_TRAIN_CARS => {
                return Err(SetupError::Vehicle(format!(
                    "{}: a train has at most {MAX_TRAIN_CARS} cars, not {cars}",
                    self.name
                )));
            }
            _ => {}
        }
        Ok(())
    }

    pub(crate) fn build(&self, id: UnitId) -> Unit {
        let mut figures = Vec::with_capacity(self.figure_count());
        figures.extend(self.officers.iter().map(|&r| Figure::new(Role::Officer(r))));
        if self.sergeant_major {
            figures.push(Figure::new(Role::SergeantMajor));
        }
        let push = |figures: &mut Vec<Figure>, n: u16, role: Role| {
            figures.extend((0..n).map(|_| Figure::new(role)));
        };
        push(&mut figures, self.ncos, Role::Nco);
        push(&mut figures, self.privates, Role::Private);
        push(&mut figures, self.gunners, Role::Gunner);
        push(&mut figures, self.snipers, Role::Sniper);
        push(&mut figures, self.crew, Role::Crew);
        let starting = figures.len() as u16;
        Unit {
            id,
            name: self.name.clone(),
            side: self.side,
            kind: self.kind,
            quality: self.quality,
            fire_row: self.fire_row,
            formation: self.formation,
            mounted: self.mounted,
            figures,
            starting,
            morale: MoraleState::Steady,
            colours: self.colours,
            colours_held: Vec::new(),
            ammo: None,
            hidden: self.hidden,
            scouts: self.scouts,
            prone: false,
            off_table: false,
            attached: None,
            acted: false,
            charged: false,
            assault_ready: None,
            fired: false,
            hauled: false,
            frozen: false,
            compulsory: None,
            hit_while_shaken: false,
            critical_due: false,
            pinned_due: false,
            below_half_seen: false,
            routed_turn: None,
            horseholders_lost: 0,
            train: crate::movement::TrainState::Stopped,
            disabled: false,
            rally_tried: false,
        }
    }
}

/// A small default scenario: two basic infantry units a side, a Union gun, a Confederate cavalry troop.
pub fn default_forces() -> Result<Vec<UnitSpec>, SetupError> {
    Ok(vec![
        UnitSpec::infantry("1st Maine, Company A", Side::Union, Quality::Veteran)?.with_colours(),
        UnitSpec::infantry("1st Maine, Company B", Side::Union, Quality::Average)?,
        UnitSpec::gun(
            "Battery B, 1st Rhode Island",
            Side::Union,
            Quality::Average,
            UnitKind::Artillery,
            5,
        )?,
        UnitSpec::infantry(
            "4th Alabama, Company C",
            Side::Confederate,
            Quality::Average,
        )?
        .with_colours(),
        UnitSpec::infantry("4th Alabama, Company D", Side::Confederate, Quality::Green)?,
        UnitSpec::cavalry(
            "1st Virginia Cavalry, Troop E",
            Side::Confederate,
            Quality::Veteran,
            16,
            FireRow::CavalryCarbine,
        )?,
    ])
}
