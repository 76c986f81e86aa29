//! [`Options`]: every switch between readings of the rules.
//!
//! `Options::default()` is the default reading throughout. Each field names the rule ID whose reading it
//! switches; `docs/rulesets/tsatf.md` lists what each alternative changes.

use crate::error::OptionsError;

macro_rules! switch {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $v:ident),+ $(,)? } default $d:ident) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, strum::EnumIter, strum::Display)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[non_exhaustive]
        pub enum $name {
            $($(#[$vm])* $v,)+
        }
        const _: () = { let _ = $name::$d; };
    };
}

/// Which fire system the game uses (TSATF-FIR-01).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, strum::EnumIter, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum FireSystem {
    /// The Mass Fire chart, one D6 per unit.
    #[default]
    #[strum(to_string = "mass fire")]
    MassFire,
    /// Type Firing: one D20 per figure, with the D10 ammunition supply.
    #[strum(to_string = "type firing")]
    TypeFiring,
}

switch!(
    /// What the sequencing deck holds (TSATF-SEQ-02).
    SequencingDeck { #[default] #[doc = "one card per unit"] #[strum(to_string = "one card per unit")] PerUnit,
    #[doc = "all 52 cards, skipping"] #[strum(to_string = "all 52 cards, skipping")] Full52WithSkip } default PerUnit
);
switch!(
    /// When fire casualties take effect (TSATF-SEQ-04, TSATF-FIR-12).
    CasualtyTiming { #[default] #[doc = "at once"] #[strum(to_string = "at once")] Immediate,
    #[doc = "at the end of the phase"] #[strum(to_string = "at the end of the phase")] Simultaneous } default Immediate
);
switch!(
    /// When compulsory moves are made (TSATF-SEQ-05).
    CompulsoryFirst { #[default] #[doc = "first on the side's own cards"] #[strum(to_string = "first on the side's own cards")] OnOwnCard,
    #[doc = "all before the first card"] #[strum(to_string = "all before the first card")] AllBeforeFirstCard } default OnOwnCard
);
switch!(
    /// What chargers do when their target has gone (TSATF-SEQ-06, TSATF-MEL-07).
    EvadedCharge { #[default] #[doc = "occupy the vacated ground"] #[strum(to_string = "occupy the vacated ground")] OccupyVacatedGround,
    #[doc = "stay where they stopped"] #[strum(to_string = "stay where they stopped")] StayInPlace } default OccupyVacatedGround
);
switch!(
    /// What the second road column means (TSATF-MOV-03).
    RoadB { #[default] #[doc = "forced march for columns"] #[strum(to_string = "forced march for columns")] ForcedMarch,
    #[doc = "turnpike"] #[strum(to_string = "turnpike")] Turnpike, #[doc = "ignored"] #[strum(to_string = "ignored")] Ignore } default ForcedMarch
);
switch!(
    /// When a unit may use a road rate (TSATF-MOV-04).
    RoadPartial { #[default] #[doc = "whole move on the road"] #[strum(to_string = "whole move on the road")] WholeMoveOnRoad,
    #[doc = "pro rata"] #[strum(to_string = "pro rata")] ProRata } default WholeMoveOnRoad
);
switch!(
    /// How skirmish lines charge (TSATF-MOV-05).
    SkirmishCharge { #[default] #[doc = "charge at the cross-country rate"] #[strum(to_string = "charge at the cross-country rate")] AtCrossCountry,
    #[doc = "must reform first (Indians exempt)"] #[strum(to_string = "must reform first (Indians exempt)")] MustReform } default AtCrossCountry
);
switch!(
    /// How often rough ground drops a die (TSATF-MOV-06).
    RoughPenalty { #[default] #[doc = "once per activation"] #[strum(to_string = "once per activation")] OncePerActivation,
    #[doc = "once per feature"] #[strum(to_string = "once per feature")] OncePerFeature } default OncePerActivation
);
switch!(
    /// Whether "drop the highest die" penalties add up (TSATF-MOV-07).
    Hd6Stacking { #[default] #[doc = "cumulative"] #[strum(to_string = "cumulative")] Cumulative,
    #[doc = "at most one"] #[strum(to_string = "at most one")] AtMostOne } default Cumulative
);
switch!(
    /// How horseholders are rounded (TSATF-MOV-09).
    Rounding { #[default] #[doc = "rounded up"] #[strum(to_string = "rounded up")] Ceil, #[doc = "rounded down"] #[strum(to_string = "rounded down")] Floor } default Ceil
);
switch!(
    /// Which edge fleeing and routing troops head for (TSATF-MOV-13, TSATF-MEL-22).
    FleeEdge { #[default] #[doc = "the nearest table edge"] #[strum(to_string = "the nearest table edge")] Nearest,
    #[doc = "their own base edge"] #[strum(to_string = "their own base edge")] OwnBase } default Nearest
);
switch!(
    /// When a cavalry unit's fire inside split movement is resolved (TSATF-MOV-17).
    SplitFire { #[default] #[doc = "during movement"] #[strum(to_string = "during movement")] DuringMovement,
    #[doc = "on the firing card"] #[strum(to_string = "on the firing card")] MarkedForFiring } default DuringMovement
);
switch!(
    /// How the printed cone angle is read (TSATF-FIR-03).
    ConeAngle { #[default] #[doc = "the full angle"] #[strum(to_string = "the full angle")] FullAngle,
    #[doc = "the half-angle"] #[strum(to_string = "the half-angle")] HalfAngle } default FullAngle
);
switch!(
    /// What happens to leftover figures in mass fire (TSATF-FIR-11).
    Remainder { #[default] #[doc = "dropped"] #[strum(to_string = "dropped")] Drop, #[doc = "rounded half up"] #[strum(to_string = "rounded half up")] RoundHalfUp,
    #[doc = "a chance of r in n"] #[strum(to_string = "a chance of r in n")] Chance, #[doc = "pooled between units"] #[strum(to_string = "pooled between units")] Pool } default Drop
);
switch!(
    /// Where hit cards come from (TSATF-FIR-15).
    HitDeck { #[default] #[doc = "independent draws"] #[strum(to_string = "independent draws")] IndependentDraws,
    #[doc = "one persistent deck"] #[strum(to_string = "one persistent deck")] Persistent,
    #[doc = "the sequencing deck"] #[strum(to_string = "the sequencing deck")] SequencingDeck } default IndependentDraws
);
switch!(
    /// What a card naming a category the target lacks does (TSATF-FIR-16).
    MissingCategory { #[default] #[doc = "redirected to another figure"] #[strum(to_string = "redirected to another figure")] Redirect,
    #[doc = "lost"] #[strum(to_string = "lost")] Lost } default Redirect
);
switch!(
    /// Which figure of a category a hit takes (TSATF-FIR-17).
    FigureChoice { #[default] #[doc = "in the order given"] #[strum(to_string = "in the order given")] GivenOrder,
    #[doc = "at random"] #[strum(to_string = "at random")] Random } default GivenOrder
);
switch!(
    /// How pistol and sniper results find their figure (TSATF-FIR-19, TSATF-FIR-20).
    IndividualFireCards { #[default] #[doc = "on the chosen figure"] #[strum(to_string = "on the chosen figure")] DirectOnChosenFigure,
    #[doc = "a card picks the category"] #[strum(to_string = "a card picks the category")] CardPicksCategory } default DirectOnChosenFigure
);
switch!(
    /// How guns of a battery fire (TSATF-ART-02).
    BatteryFire { #[default] #[doc = "each gun alone"] #[strum(to_string = "each gun alone")] PerGun,
    #[doc = "the battery pooled"] #[strum(to_string = "the battery pooled")] Pooled } default PerGun
);
switch!(
    /// The Close/Stand/Rally line Indians use (TSATF-MEL-08).
    IndiansLine { #[default] #[doc = "the Green line"] Green, #[doc = "the Veteran line"] Veteran } default Green
);
switch!(
    /// What happens to troops caught fleeing (TSATF-MEL-12).
    CaughtFleeing { #[default] #[doc = "meleed in the rear, then captured"] #[strum(to_string = "meleed in the rear, then captured")] MeleeThenCapture,
    #[doc = "captured"] #[strum(to_string = "captured")] Captured } default MeleeThenCapture
);
switch!(
    /// What a tied combat does (TSATF-MEL-15).
    Tie { #[default] #[doc = "no effect, fight on"] #[strum(to_string = "no effect, fight on")] NoEffect,
    #[doc = "reroll at once"] #[strum(to_string = "reroll at once")] Reroll } default NoEffect
);
switch!(
    /// A melee "wound" when wounds count as misses (TSATF-MEL-16).
    MeleeWoundAsMiss { #[default] #[doc = "no effect"] #[strum(to_string = "no effect")] NoEffect,
    #[doc = "pushed back"] #[strum(to_string = "pushed back")] PushedBack } default NoEffect
);
switch!(
    /// How the assault-column modifier applies (TSATF-MEL-19).
    AssaultColumn { #[default] #[doc = "any column, added"] #[strum(to_string = "any column, added")] AnyFormationCumulative,
    #[doc = "charging columns only, instead of charging"] #[strum(to_string = "charging columns only, instead of charging")] AttackOnlyReplacesCharging } default AnyFormationCumulative
);
switch!(
    /// How captured colours are recovered (TSATF-MEL-24).
    ColourRecovery { #[default] #[doc = "a melee won and a 4-6"] #[strum(to_string = "a melee won and a 4-6")] MeleeWinPlusRoll,
    #[doc = "any melee won"] #[strum(to_string = "any melee won")] AutomaticOnMeleeWin } default MeleeWinPlusRoll
);
switch!(
    /// Whose number a side's Major Morale uses (TSATF-MOR-05).
    MajorScope { #[default] #[doc = "the side's majority class"] #[strum(to_string = "the side's majority class")] SideMajority,
    #[doc = "each unit its own"] #[strum(to_string = "each unit its own")] PerUnit, #[doc = "the side's lowest class"] #[strum(to_string = "the side's lowest class")] LowestClass } default SideMajority
);
switch!(
    /// What a routed unit that rallies becomes, and how it tests (TSATF-MOR-12).
    RallyRouted { #[default] #[doc = "1D6 to steady"] #[strum(to_string = "1D6 to steady")] D6ToSteady,
    #[doc = "1D6 to shaken"] #[strum(to_string = "1D6 to shaken")] D6ToShaken, #[doc = "2D6 critical number"] #[strum(to_string = "2D6 critical number")] Critical2D6 } default D6ToSteady
);
switch!(
    /// How many figures a Gatling gun fires as (TSATF-ART-08).
    GatlingFigures { #[default] #[doc = "as a gun"] #[strum(to_string = "as a gun")] AsGun,
    #[doc = "three per crewman"] #[strum(to_string = "three per crewman")] CrewTimesThree } default AsGun
);

/// Whether killed and wounded are told apart (TSATF-SET-07, TSATF-CAS-03).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, strum::EnumIter, strum::Display)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum WoundPolicy {
    /// A one-off game: every wound is a kill.
    #[default]
    #[strum(to_string = "wounds count as kills")]
    WoundsAsKills,
    /// A one-off game: every wound is a miss.
    #[strum(to_string = "wounds count as misses")]
    WoundsAsMisses,
    /// A campaign game: wounded figures are tracked.
    #[strum(to_string = "campaign (wounded tracked)")]
    Campaign,
}

/// Every switch between readings; `Options::default()` is the default reading.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "OptionsData"))]
#[non_exhaustive]
pub struct Options {
    /// TSATF-FIR-01: mass fire or type firing.
    pub fire_system: FireSystem,
    /// TSATF-SEQ-02: one card per unit, or all 52.
    pub sequencing_deck: SequencingDeck,
    /// TSATF-SEQ-04: casualties at once or at the end of the firing phase.
    pub casualty_timing: CasualtyTiming,
    /// TSATF-SEQ-05: when compulsory moves are made.
    pub compulsory_first: CompulsoryFirst,
    /// TSATF-SEQ-06: chargers whose target has gone occupy its ground, or stay.
    pub evaded_charge: EvadedCharge,
    /// TSATF-CMD-02: whether the leaderless die also stops compulsory moves.
    pub leaderless_blocks_compulsory: bool,
    /// TSATF-MOV-03: the second road column.
    pub road_b: RoadB,
    /// TSATF-MOV-04: road rate for a move that is only partly on the road.
    pub road_partial: RoadPartial,
    /// TSATF-MOV-05: how skirmish lines charge.
    pub skirmish_charge: SkirmishCharge,
    /// TSATF-MOV-06: rough ground drops a die once per move, or once per feature.
    pub rough_penalty: RoughPenalty,
    /// TSATF-MOV-06: skirmishers take the rough-ground die as well.
    pub skirmish_rough_penalty: bool,
    /// TSATF-MOV-07: penalties add up, or at most one die is dropped.
    pub hd6_stacking: Hd6Stacking,
    /// TSATF-MOV-09: horseholders rounded up or down.
    pub horseholder_rounding: Rounding,
    /// TSATF-MOV-09: a lost horseholder strands the three troopers whose horses he held.
    pub horseholder_loss_blocks_remount: bool,
    /// TSATF-MOV-11: a formation change too long for one move may carry over.
    pub formation_change_carry: bool,
    /// TSATF-MOV-13, TSATF-MEL-22: the edge fleeing troops make for.
    pub flee_edge: FleeEdge,
    /// TSATF-MOV-17: cavalry may spend movement dice one at a time (`None`: off).
    pub split_cavalry_dice: Option<SplitFire>,
    /// TSATF-FIR-03: the cone angle as the full angle or the half-angle.
    pub cone_angle: ConeAngle,
    /// TSATF-FIR-05: a two-rank line fires with half its figures, odd figure rounded up or down.
    pub odd_rank_rounding: Rounding,
    /// TSATF-FIR-05: figures in a column's front rank, infantry and cavalry.
    pub column_frontage: (u8, u8),
    /// TSATF-FIR-07: enfilade gives Class I even against cover.
    pub enfilade_overrides_cover: bool,
    /// TSATF-FIR-08, TSATF-MEL-19: the half-angle of a unit's frontal sector, in degrees.
    pub frontal_sector_half_angle: f64,
    /// TSATF-FIR-09: Green Class III 2–5 read as 1/8 (the pattern) instead of the printed 1/9.
    pub green_class3_pattern: bool,
    /// TSATF-FIR-11: leftover figures in mass fire.
    pub remainder: Remainder,
    /// TSATF-FIR-15: where hit cards come from.
    pub hit_deck: HitDeck,
    /// TSATF-FIR-16: a card naming a category the target lacks.
    pub missing_category: MissingCategory,
    /// TSATF-FIR-17: which figure within a category is struck.
    pub figure_choice: FigureChoice,
    /// TSATF-FIR-19, TSATF-FIR-20: pistol and sniper results on the chosen figure, or a card picks the category.
    pub individual_fire_cards: IndividualFireCards,
    /// TSATF-FIR-19: NCOs fire pistols as individuals instead of muskets with the unit.
    pub nco_pistols: bool,
    /// TSATF-FIR-23: the mass chart's "–" cells carry over to Type Firing.
    pub type_fire_carry_dashes: bool,
    /// TSATF-FIR-24: the ammunition supply also limits mass fire.
    pub ammo_in_mass_fire: bool,
    /// TSATF-ART-02: guns fire alone or pooled as a battery.
    pub battery_fire: BatteryFire,
    /// TSATF-ART-06: a hand-hauled gun may fire in the turn it was hauled.
    pub hand_hauled_may_fire: bool,
    /// TSATF-ART-08: what a Gatling fires as.
    pub gatling_figures: GatlingFigures,
    /// TSATF-ART-10: mortars fire only at long range and lower the target's class by one.
    pub mortar_plunging: bool,
    /// TSATF-MEL-02: stragglers are lost for the game instead of rejoining.
    pub stragglers_lost: bool,
    /// TSATF-MEL-08: the chart line Indians use.
    pub indians_line: IndiansLine,
    /// TSATF-MEL-08: "Always" ignores modifiers (true), or reads as 1–6 (false).
    pub always_ignores_mods: bool,
    /// TSATF-MEL-12: troops caught fleeing.
    pub caught_fleeing: CaughtFleeing,
    /// TSATF-MEL-15: tied combats.
    pub tie: Tie,
    /// TSATF-MEL-17: figures left over fight an enemy figure already paired (he rolls against each and takes the
    /// worst of his losses) instead of waiting as reserves.
    pub melee_overlap: bool,
    /// TSATF-MEL-16: a melee wound when wounds count as misses.
    pub melee_wound_as_miss: MeleeWoundAsMiss,
    /// TSATF-MEL-18: Crack's two "–" cells read as −1.
    pub crack_dash_as_minus1: bool,
    /// TSATF-MEL-19: the assault-column modifier.
    pub assault_column: AssaultColumn,
    /// TSATF-MEL-23: captured colours +2 on the die (literal) instead of a 2-point benefit.
    pub colours_literal_plus2: bool,
    /// TSATF-MEL-24: how colours are recovered.
    pub colour_recovery: ColourRecovery,
    /// TSATF-MOR-05: whose number the side's Major Morale uses.
    pub major_scope: MajorScope,
    /// TSATF-MOR-05: the successor's leader rating applies to Major Morale.
    pub major_leader_mod: bool,
    /// TSATF-MOR-06: any chart hit on a shaken unit counts, even one the card made a miss.
    pub hits_include_misses: bool,
    /// TSATF-MOR-06: melee casualties on a shaken unit count as hits.
    pub hits_include_melee: bool,
    /// TSATF-MOR-06: the 50% check every turn below half, not only the first.
    pub critical_every_turn_below_half: bool,
    /// TSATF-MOR-11: shaken units retreat 4D6 as their first move each turn.
    pub shaken_retreats: bool,
    /// TSATF-MOR-12: how routed units rally.
    pub rally_routed: RallyRouted,
    /// TSATF-SET-07, TSATF-CAS-03: campaign game or one-off wound policy.
    pub wound_policy: WoundPolicy,
    /// TSATF-OPT-01, TSATF-OPT-02: leader-quality ratings in use.
    pub leader_quality: bool,
    /// TSATF-OPT-02: a rated higher officer lends his rating to units within this many inches (`None`: off).
    pub leader_radius: Option<f64>,
    /// TSATF-OPT-07: light cover on a gunboat is Class II as printed, not Class III.
    pub gunboat_light_cover_class2: bool,
    /// TSATF-OPT-04: how far a scout's successful roll reveals hidden units, in inches.
    pub spotting_distance: f64,
    /// TSATF-SEQ-09: the scenario's turn limit (`None`: play until one side has nothing left).
    pub turn_limit: Option<u32>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            fire_system: FireSystem::MassFire,
            sequencing_deck: SequencingDeck::PerUnit,
            casualty_timing: CasualtyTiming::Immediate,
            compulsory_first: CompulsoryFirst::OnOwnCard,
            evaded_charge: EvadedCharge::OccupyVacatedGround,
            leaderless_blocks_compulsory: false,
            road_b: RoadB::ForcedMarch,
            road_partial: RoadPartial::WholeMoveOnRoad,
            skirmish_charge: SkirmishCharge::AtCrossCountry,
            rough_penalty: RoughPenalty::OncePerActivation,
            skirmish_rough_penalty: false,
            hd6_stacking: Hd6Stacking::Cumulative,
            horseholder_rounding: Rounding::Ceil,
            horseholder_loss_blocks_remount: false,
            formation_change_carry: false,
            flee_edge: FleeEdge::Nearest,
            split_cavalry_dice: None,
            cone_angle: ConeAngle::FullAngle,
            odd_rank_rounding: Rounding::Ceil,
            column_frontage: crate::tables::COLUMN_FRONTAGE,
            enfilade_overrides_cover: false,
            frontal_sector_half_angle: 45.0,
            green_class3_pattern: false,
            remainder: Remainder::Drop,
            hit_deck: HitDeck::IndependentDraws,
            missing_category: MissingCategory::Redirect,
            figure_choice: FigureChoice::GivenOrder,
            individual_fire_cards: IndividualFireCards::DirectOnChosenFigure,
            nco_pistols: false,
            type_fire_carry_dashes: false,
            ammo_in_mass_fire: false,
            battery_fire: BatteryFire::PerGun,
            hand_hauled_may_fire: true,
            gatling_figures: GatlingFigures::AsGun,
            mortar_plunging: false,
            stragglers_lost: false,
            indians_line: IndiansLine::Green,
            always_ignores_mods: true,
            caught_fleeing: CaughtFleeing::MeleeThenCapture,
            tie: Tie::NoEffect,
            melee_overlap: false,
            melee_wound_as_miss: MeleeWoundAsMiss::NoEffect,
            crack_dash_as_minus1: false,
            assault_column: AssaultColumn::AnyFormationCumulative,
            colours_literal_plus2: false,
            colour_recovery: ColourRecovery::MeleeWinPlusRoll,
            major_scope: MajorScope::SideMajority,
            major_leader_mod: false,
            hits_include_misses: false,
            hits_include_melee: false,
            critical_every_turn_below_half: false,
            shaken_retreats: false,
            rally_routed: RallyRouted::D6ToSteady,
            wound_policy: WoundPolicy::WoundsAsKills,
            leader_quality: false,
            leader_radius: None,
            gunboat_light_cover_class2: false,
            spotting_distance: 12.0,
            turn_limit: None,
        }
    }
}

impl Options {
    /// Checks the numeric switches: lengths finite and at least 0, the sector half-angle within 0–180°, column
    /// frontages at least one figure, a turn limit of at least one turn.
    pub fn validate(&self) -> Result<(), OptionsError> {
        let length = |what: &'static str, v: f64| {
            if v.is_finite() && v >= 0.0 {
                Ok(())
            } else {
                Err(OptionsError::BadLength { what, value: v })
            }
        };
        length("spotting distance", self.spotting_distance)?;
        if let Some(r) = self.leader_radius {
            length("leader radius", r)?;
        }
        let a = self.frontal_sector_half_angle;
        if !(a.is_finite() && (0.0..=180.0).contains(&a)) {
            return Err(OptionsError::BadArc {
                what: "frontal sector half-angle",
                value: a,
            });
        }
        if self.column_frontage.0 == 0 || self.column_frontage.1 == 0 {
            return Err(OptionsError::ZeroFrontage);
        }
        if self.turn_limit == Some(0) {
            return Err(OptionsError::ZeroTurnLimit);
        }
        Ok(())
    }
}

/// The serde form of [`Options`], checked on load.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
struct OptionsData {
    fire_system: FireSystem,
    sequencing_deck: SequencingDeck,
    casualty_timing: CasualtyTiming,
    compulsory_first: CompulsoryFirst,
    evaded_charge: EvadedCharge,
    leaderless_blocks_compulsory: bool,
    road_b: RoadB,
    road_partial: RoadPartial,
    skirmish_charge: SkirmishCharge,
    rough_penalty: RoughPenalty,
    skirmish_rough_penalty: bool,
    hd6_stacking: Hd6Stacking,
    horseholder_rounding: Rounding,
    horseholder_loss_blocks_remount: bool,
    formation_change_carry: bool,
    flee_edge: FleeEdge,
    split_cavalry_dice: Option<SplitFire>,
    cone_angle: ConeAngle,
    odd_rank_rounding: Rounding,
    column_frontage: (u8, u8),
    enfilade_overrides_cover: bool,
    frontal_sector_half_angle: f64,
    green_class3_pattern: bool,
    remainder: Remainder,
    hit_deck: HitDeck,
    missing_category: MissingCategory,
    figure_choice: FigureChoice,
    individual_fire_cards: IndividualFireCards,
    nco_pistols: bool,
    type_fire_carry_dashes: bool,
    ammo_in_mass_fire: bool,
    battery_fire: BatteryFire,
    hand_hauled_may_fire: bool,
    gatling_figures: GatlingFigures,
    mortar_plunging: bool,
    stragglers_lost: bool,
    indians_line: IndiansLine,
    always_ignores_mods: bool,
    caught_fleeing: CaughtFleeing,
    tie: Tie,
    melee_overlap: bool,
    melee_wound_as_miss: MeleeWoundAsMiss,
    crack_dash_as_minus1: bool,
    assault_column: AssaultColumn,
    colours_literal_plus2: bool,
    colour_recovery: ColourRecovery,
    major_scope: MajorScope,
    major_leader_mod: bool,
    hits_include_misses: bool,
    hits_include_melee: bool,
    critical_every_turn_below_half: bool,
    shaken_retreats: bool,
    rally_routed: RallyRouted,
    wound_policy: WoundPolicy,
    leader_quality: bool,
    leader_radius: Option<f64>,
    gunboat_light_cover_class2: bool,
    spotting_distance: f64,
    turn_limit: Option<u32>,
}

#[cfg(feature = "serde")]
impl Default for OptionsData {
    fn default() -> Self {
        let o = Options::default();
        OptionsData {
            fire_system: o.fire_system,
            sequencing_deck: o.sequencing_deck,
            casualty_timing: o.casualty_timing,
            compulsory_first: o.compulsory_first,
            evaded_charge: o.evaded_charge,
            leaderless_blocks_compulsory: o.leaderless_blocks_compulsory,
            road_b: o.road_b,
            road_partial: o.road_partial,
            skirmish_charge: o.skirmish_charge,
            rough_penalty: o.rough_penalty,
            skirmish_rough_penalty: o.skirmish_rough_penalty,
            hd6_stacking: o.hd6_stacking,
            horseholder_rounding: o.horseholder_rounding,
            horseholder_loss_blocks_remount: o.horseholder_loss_blocks_remount,
            formation_change_carry: o.formation_change_carry,
            flee_edge: o.flee_edge,
            split_cavalry_dice: o.split_cavalry_dice,
            cone_angle: o.cone_angle,
            odd_rank_rounding: o.odd_rank_rounding,
            column_frontage: o.column_frontage,
            enfilade_overrides_cover: o.enfilade_overrides_cover,
            frontal_sector_half_angle: o.frontal_sector_half_angle,
            green_class3_pattern: o.green_class3_pattern,
            remainder: o.remainder,
            hit_deck: o.hit_deck,
            missing_category: o.missing_category,
            figure_choice: o.figure_choice,
            individual_fire_cards: o.individual_fire_cards,
            nco_pistols: o.nco_pistols,
            type_fire_carry_dashes: o.type_fire_carry_dashes,
            ammo_in_mass_fire: o.ammo_in_mass_fire,
            battery_fire: o.battery_fire,
            hand_hauled_may_fire: o.hand_hauled_may_fire,
            gatling_figures: o.gatling_figures,
            mortar_plunging: o.mortar_plunging,
            stragglers_lost: o.stragglers_lost,
            indians_line: o.indians_line,
            always_ignores_mods: o.always_ignores_mods,
            caught_fleeing: o.caught_fleeing,
            tie: o.tie,
            melee_overlap: o.melee_overlap,
            melee_wound_as_miss: o.melee_wound_as_miss,
            crack_dash_as_minus1: o.crack_dash_as_minus1,
            assault_column: o.assault_column,
            colours_literal_plus2: o.colours_literal_plus2,
            colour_recovery: o.colour_recovery,
            major_scope: o.major_scope,
            major_leader_mod: o.major_leader_mod,
            hits_include_misses: o.hits_include_misses,
            hits_include_melee: o.hits_include_melee,
            critical_every_turn_below_half: o.critical_every_turn_below_half,
            shaken_retreats: o.shaken_retreats,
            rally_routed: o.rally_routed,
            wound_policy: o.wound_policy,
            leader_quality: o.leader_quality,
            leader_radius: o.leader_radius,
            gunboat_light_cover_class2: o.gunboat_light_cover_class2,
            spotting_distance: o.spotting_distance,
            turn_limit: o.turn_limit,
        }
    }
}

#[cfg(feature = "serde")]
impl TryFrom<OptionsData> for Options {
    type Error = OptionsError;
    fn try_from(d: OptionsData) -> Result<Self, OptionsError> {
        let o = Options {
            fire_system: d.fire_system,
            sequencing_deck: d.sequencing_deck,
            casualty_timing: d.casualty_timing,
            compulsory_first: d.compulsory_first,
            evaded_charge: d.evaded_charge,
            leaderless_blocks_compulsory: d.leaderless_blocks_compulsory,
            road_b: d.road_b,
            road_partial: d.road_partial,
            skirmish_charge: d.skirmish_charge,
            rough_penalty: d.rough_penalty,
            skirmish_rough_penalty: d.skirmish_rough_penalty,
            hd6_stacking: d.hd6_stacking,
            horseholder_rounding: d.horseholder_rounding,
            horseholder_loss_blocks_remount: d.horseholder_loss_blocks_remount,
            formation_change_carry: d.formation_change_carry,
            flee_edge: d.flee_edge,
            split_cavalry_dice: d.split_cavalry_dice,
            cone_angle: d.cone_angle,
            odd_rank_rounding: d.odd_rank_rounding,
            column_frontage: d.column_frontage,
            enfilade_overrides_cover: d.enfilade_overrides_cover,
            frontal_sector_half_angle: d.frontal_sector_half_angle,
            green_class3_pattern: d.green_class3_pattern,
            remainder: d.remainder,
            hit_deck: d.hit_deck,
            missing_category: d.missing_category,
            figure_choice: d.figure_choice,
            individual_fire_cards: d.individual_fire_cards,
            nco_pistols: d.nco_pistols,
            type_fire_carry_dashes: d.type_fire_carry_dashes,
            ammo_in_mass_fire: d.ammo_in_mass_fire,
            battery_fire: d.battery_fire,
            hand_hauled_may_fire: d.hand_hauled_may_fire,
            gatling_figures: d.gatling_figures,
            mortar_plunging: d.mortar_plunging,
            stragglers_lost: d.stragglers_lost,
            indians_line: d.indians_line,
            always_ignores_mods: d.always_ignores_mods,
            caught_fleeing: d.caught_fleeing,
            tie: d.tie,
            melee_overlap: d.melee_overlap,
            melee_wound_as_miss: d.melee_wound_as_miss,
            crack_dash_as_minus1: d.crack_dash_as_minus1,
            assault_column: d.assault_column,
            colours_literal_plus2: d.colours_literal_plus2,
            colour_recovery: d.colour_recovery,
            major_scope: d.major_scope,
            major_leader_mod: d.major_leader_mod,
            hits_include_misses: d.hits_include_misses,
            hits_include_melee: d.hits_include_melee,
            critical_every_turn_below_half: d.critical_every_turn_below_half,
            shaken_retreats: d.shaken_retreats,
            rally_routed: d.rally_routed,
            wound_policy: d.wound_policy,
            leader_quality: d.leader_quality,
            leader_radius: d.leader_radius,
            gunboat_light_cover_class2: d.gunboat_light_cover_class2,
            spotting_distance: d.spotting_distance,
            turn_limit: d.turn_limit,
        };
        o.validate()?;
        Ok(o)
    }
}
