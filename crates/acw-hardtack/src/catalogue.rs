//! Every random procedure of the rules by name, and the [`Options`] by name.
//!
//! [`catalogue`] lists each [`acw_core::Resolve`] procedure of this crate with its rule IDs and typed
//! parameters, built from text as `acw odds hardtack volley quality=d8 firepower=d10` builds it. The chained
//! procedures run to their end: `volley`, `fire-through-skirmishers` (the target's and the skirmishers'
//! casualties) and `stand-fire` from the fire dice to the wounded and killed,
//! `melee` round by round to a fall-back or destruction, `combined-melee` and `combined-assault` with two or
//! three attacking companies, `close-assault` from the attacker's test through the defender's stand-fire test
//! and the approach (staying mid-dash or aborting with a test when short) to the melee, `blast-onto-team` from the canister at a company to the horses of the
//! gun team behind it, `blast-chain` through up to four companies (the first behind skirmishers, if any) and on to a team. Exact odds of large melees take long to build, so the defaults are small
//! companies (4 figures a side); the ranges allow up to 12. Options are set by field name through
//! [`acw_core::catalogue::OptionsByName`] (`first_volley=false`, `kill_threshold=more-than-double`): every
//! field.
//!
//! Every procedure of the crate is catalogued. `successor` picks among 1 to 4 Regular, Steady companies (an
//! even pick, the case the parameters can name).
//!
//! ```
//! use acw_hardtack::catalogue::catalogue;
//!
//! // A reaction test of a D8 company under a leader of LV 2 at TL 2: the die must beat 4, 5-8 = 1/2.
//! let table = catalogue().build("reaction-test", "quality=d8 lv=2 tl=2")?.table();
//! assert!((table.p("passes") - 1.0 / 2.0).abs() < 1e-12);
//! # Ok::<(), acw_core::catalogue::CatalogueError>(())
//! ```
//!
//! ```
//! use acw_core::catalogue::OptionsByName;
//! use acw_hardtack::options::Options;
//!
//! let mut options = Options::default();
//! options.set_pair("first_volley=false")?;
//! assert!(!options.first_volley);
//! # Ok::<(), acw_core::catalogue::OptionError>(())
//! ```

use crate::advanced::QuietMutiny;
use crate::artillery::{
    AreaDamage, BlastChain, BlastCompany, BlastOntoTeam, BlastScreen, BlastTeam, BounceTest,
    ShotAccuracy, ShotBounces, ShotRange, TeamFire, canister_dice,
};
use crate::casualties::{HorseOrRider, HorseState, HorseStatus, Treatment};
use crate::command::{CommunicationRoll, RegimentalCombatMove, Successor};
use crate::fire::{
    FireDice, FirerDice, Impact, Observation, RangeFacts, ScreenedVolley, Sharpshot, StandFire,
    Volley,
};
use crate::ladder::DieType;
use crate::melee::{
    AtShort, CloseAssault, CombinedAssault, CombinedMelee, DownedFates, Melee, MeleeDie, MeleeSide,
    Partner,
};
use crate::morale::{ConfidenceTest, Rally, ReactionTest, ReplacementLeader};
use crate::movement::CombatMove;
use crate::options::{
    AssaultTestCasualties, BlastThroughCount, CasualtyTl, FiredOnTl, FormationSpill,
    FortificationArmour, FpDieRounding, GgRangeCheck, HorseStatusRoll, KillThreshold,
    LeaderCasualtyTl, MountedCasualtyScope, Options, OverwhelmedTrigger, RangeOverflow, ShotCover,
    TransferGrants, TravelRate, TwoLevelDrop,
};
use crate::setup::{QualityDraw, UnderStrength, WarYear};
use crate::state::FireRoll;
use crate::tables::{
    CANISTER_IMPACT, ConfidenceLevel, Fatigue, FieldPiece, Leadership, MeleeWeapon, Quality,
};
use acw_core::catalogue::{Built, Catalogue, Entry, Param, Values};

acw_core::choice_words!(AssaultTestCasualties {
    ThisRound => "this-round",
    WholeAssault => "whole-assault",
});

acw_core::choice_words!(BlastThroughCount {
    PerBlastStep => "per-blast-step",
    EveryDamagedCompany => "every-damaged-company",
});

acw_core::choice_words!(CasualtyTl {
    Hardtack => "hardtack",
    Sgii => "sgii",
});

acw_core::choice_words!(FiredOnTl {
    EveryTime => "every-time",
    SgiiFirstSuppression => "sgii-first-suppression",
});

acw_core::choice_words!(FormationSpill {
    PerSection => "per-section",
    AlwaysFirepower => "always-firepower",
    AlwaysQuality => "always-quality",
});

acw_core::choice_words!(FortificationArmour {
    Plus3 => "plus3",
    Plus2 => "plus2",
    HardPlusIp => "hard-plus-ip",
});

acw_core::choice_words!(FpDieRounding {
    RoundUp => "round-up",
    RoundDownOddMinD4 => "round-down-odd-min-d4",
});

acw_core::choice_words!(GgRangeCheck {
    NoLoneFigureShift => "no-lone-figure-shift",
    WithLoneFigureShift => "with-lone-figure-shift",
});

acw_core::choice_words!(HorseStatusRoll {
    D6Table => "d6-table",
    ImpactVsD4 => "impact-vs-d4",
});

acw_core::choice_words!(KillThreshold {
    DoubleOrMore => "double-or-more",
    MoreThanDouble => "more-than-double",
});

acw_core::choice_words!(LeaderCasualtyTl {
    Hardtack => "hardtack",
    Sgii => "sgii",
});

acw_core::choice_words!(MountedCasualtyScope {
    AllCasualties => "all-casualties",
    WoundsOnly => "wounds-only",
});

acw_core::choice_words!(OverwhelmedTrigger {
    AsManyOrMore => "as-many-or-more",
    MoreThan => "more-than",
});

acw_core::choice_words!(RangeOverflow {
    Sequential => "sequential",
    Net => "net",
});

acw_core::choice_words!(ShotCover {
    SgiiCover => "sgii-cover",
    WoodsOnly => "woods-only",
});

acw_core::choice_words!(TravelRate {
    PerTurn => "per-turn",
    PerAction => "per-action",
});

acw_core::choice_words!(TransferGrants {
    FullActivation => "full-activation",
    SingleAction => "single-action",
});

acw_core::choice_words!(TwoLevelDrop {
    HalfOrLess => "half-or-less",
    LessThanHalf => "less-than-half",
});

acw_core::options_by_name!(
    Options,
    check = |_| Ok(()),
    [
        kill_threshold,
        leader_casualty_tl,
        casualty_tl,
        fired_on_tl,
        sgii_untreated_casualty_mod,
        overwhelmed_trigger,
        fp_die_rounding,
        formation_spill,
        range_overflow,
        d2_ladder,
        confidence_two_level,
        blast_through_count,
        blast_requires_casualties,
        fortification_armour,
        assault_test_casualties,
        shot_cover,
        travel_rate,
        transfer_grants,
        sgii_follow_through,
        mounted_casualty_scope,
        horse_status_roll,
        fdf_confidence_test,
        artillery_shot_ranges,
        rifled_bounces,
        first_volley,
        first_volley_low_example,
        enfilade,
        morale_modifications,
        prepared_fire,
        case_shot,
        grand_gesture,
        gg_range_check,
        quick_combat_resolution,
        stand_based_fire,
    ]
);

const DICE: &[&str] = &["d4", "d6", "d8", "d10", "d12"];

fn die(v: &Values, name: &str) -> DieType {
    match v.choice(name) {
        0 => DieType::D4,
        1 => DieType::D6,
        2 => DieType::D8,
        3 => DieType::D10,
        _ => DieType::D12,
    }
}

fn lv(v: &Values, name: &str) -> Result<Leadership, String> {
    u8::try_from(v.int(name))
        .ok()
        .and_then(|n| Leadership::new(n).ok())
        .ok_or_else(|| format!("{name} must be 1, 2 or 3"))
}

fn small(v: &Values, name: &str) -> Result<u8, String> {
    u8::try_from(v.int(name)).map_err(|_| format!("{name} is out of range"))
}

fn signed(v: &Values, name: &str) -> Result<i16, String> {
    i16::try_from(v.int(name)).map_err(|_| format!("{name} is out of range"))
}

fn kill(v: &Values) -> KillThreshold {
    if v.choice("kill") == 1 {
        KillThreshold::MoreThanDouble
    } else {
        KillThreshold::DoubleOrMore
    }
}

fn two_level(v: &Values) -> TwoLevelDrop {
    if v.choice("two_level") == 1 {
        TwoLevelDrop::LessThanHalf
    } else {
        TwoLevelDrop::HalfOrLess
    }
}

fn casualties_for_test(v: &Values) -> AssaultTestCasualties {
    if v.choice("test_casualties") == 1 {
        AssaultTestCasualties::WholeAssault
    } else {
        AssaultTestCasualties::ThisRound
    }
}

fn passes_label(ok: &bool) -> String {
    if *ok { "passes" } else { "fails" }.to_string()
}

fn impact_of(v: &Values) -> Result<Impact, String> {
    Ok(Impact {
        impact: die(v, "impact"),
        armour: die(v, "armour"),
        armour_shift: signed(v, "armour_shift")?,
        kill: kill(v),
    })
}

fn fire_dice(v: &Values) -> FireDice {
    FireDice {
        firer: FirerDice::two(die(v, "quality"), die(v, "firepower")),
        range: die(v, "range"),
    }
}

fn fire_dice_entry(v: &Values) -> Result<Built, String> {
    Ok(Built::new(fire_dice(v)))
}

fn impact_entry(v: &Values) -> Result<Built, String> {
    Ok(Built::new(impact_of(v)?))
}

fn volley(v: &Values) -> Result<Built, String> {
    Ok(Built::new(Volley {
        fire: fire_dice(v),
        impact: impact_of(v)?,
        pool: small(v, "figures")?,
    }))
}

fn screened_volley(v: &Values) -> Result<Built, String> {
    Ok(Built::new(ScreenedVolley {
        volley: Volley {
            fire: fire_dice(v),
            impact: impact_of(v)?,
            pool: small(v, "figures")?,
        },
        screen_armour: die(v, "screen_armour"),
        screen: small(v, "screen")?,
    }))
}

fn stand_fire(v: &Values) -> Result<Built, String> {
    let stands = vec![fire_dice(v); usize::from(small(v, "stands")?)];
    let pool = usize::from(small(v, "figures")?);
    StandFire::new(&stands, impact_of(v)?, pool)
        .map(Built::new)
        .map_err(|e| e.to_string())
}

fn canister(v: &Values) -> Result<Built, String> {
    Ok(Built::new(Volley {
        fire: FireDice {
            firer: canister_dice(die(v, "quality"), piece(v), None),
            range: die(v, "range"),
        },
        impact: impact_of(v)?,
        pool: small(v, "figures")?,
    }))
}

fn piece(v: &Values) -> FieldPiece {
    match v.choice("piece") {
        0 => FieldPiece::Napoleon12lb,
        1 => FieldPiece::Rifle10lbOr3in,
        2 => FieldPiece::Rifle20lb,
        _ => FieldPiece::Gun6lb,
    }
}

/// The options a fire at a gun's team reads: the kill threshold, how a struck horse's state is rolled,
/// Quick Combat Resolution, and how a blast counts its steps and whether it needs casualties to carry on.
fn team_options(v: &Values) -> Options {
    Options {
        kill_threshold: kill(v),
        horse_status_roll: if v.choice("horse_status") == 1 {
            HorseStatusRoll::ImpactVsD4
        } else {
            HorseStatusRoll::D6Table
        },
        quick_combat_resolution: v.bool("quick"),
        blast_through_count: if v.choice("blast_count") == 1 {
            BlastThroughCount::EveryDamagedCompany
        } else {
            BlastThroughCount::PerBlastStep
        },
        blast_requires_casualties: v.bool("requires_casualties"),
        ..Options::default()
    }
}

fn team_fire(v: &Values) -> Result<Built, String> {
    Ok(Built::new(TeamFire {
        fire: FireRoll::Dice(fire_dice(v)),
        impact: die(v, "impact"),
        armour_shift: signed(v, "armour_shift")?,
        horses: small(v, "horses")?,
        options: team_options(v),
    }))
}

fn team_canister(v: &Values) -> Result<Built, String> {
    Ok(Built::new(TeamFire {
        fire: FireRoll::Dice(FireDice {
            firer: canister_dice(die(v, "quality"), piece(v), None),
            range: die(v, "range"),
        }),
        impact: CANISTER_IMPACT,
        armour_shift: signed(v, "armour_shift")?,
        horses: small(v, "horses")?,
        options: team_options(v),
    }))
}

fn blast_onto_team(v: &Values) -> Result<Built, String> {
    let options = team_options(v);
    let company = Volley {
        fire: FireDice {
            firer: canister_dice(die(v, "quality"), piece(v), None),
            range: die(v, "range"),
        },
        impact: Impact {
            impact: CANISTER_IMPACT,
            armour: die(v, "armour"),
            armour_shift: signed(v, "company_armour_shift")?,
            kill: options.kill_threshold,
        },
        pool: small(v, "figures")?,
    };
    Ok(Built::new(BlastOntoTeam::new(
        company,
        die(v, "quality"),
        piece(v),
        die(v, "team_range"),
        signed(v, "armour_shift")?,
        small(v, "horses")?,
        options,
    )))
}

fn blast_chain(v: &Values) -> Result<Built, String> {
    let options = team_options(v);
    let band = piece(v).canister_band();
    let first = f64::from(small(v, "distance")?);
    let spacing = f64::from(small(v, "spacing")?);
    let companies = small(v, "companies")?;
    let horses = small(v, "horses")?;
    let mut line = [BlastCompany {
        range: RangeFacts::at(first, band),
        armour: die(v, "armour"),
        pool: small(v, "figures")?,
    }; crate::artillery::MAX_BLAST];
    let mut at = first;
    for c in &mut line {
        c.range.distance = at;
        c.range.close_formation_target = v.bool("close");
        at += spacing;
    }
    let team = v.bool("team").then(|| BlastTeam {
        range: RangeFacts::at(first + spacing * f64::from(companies), band),
        horses,
    });
    let screen = small(v, "screen")?;
    let screens = [(screen > 0).then(|| BlastScreen {
        armour: die(v, "screen_armour"),
        pool: screen,
    })];
    let chain = BlastChain::with_screens(
        die(v, "quality"),
        piece(v),
        &line[..usize::from(companies).min(line.len())],
        &screens,
        team,
        options,
    )
    .map_err(|e| e.to_string())?;
    Ok(Built::new(chain))
}

fn observation(v: &Values) -> Result<Built, String> {
    Ok(Built::new(Observation {
        quality: die(v, "quality"),
        target: die(v, "target"),
    }))
}

fn sharpshot(v: &Values) -> Result<Built, String> {
    Ok(Built::labelled(
        Sharpshot {
            quality: die(v, "quality"),
            range: die(v, "range"),
        },
        |r| {
            let hit = match r.successes {
                0 => "no hit".to_string(),
                1 => "a figure hit at random".to_string(),
                _ => "a figure of his choice hit".to_string(),
            };
            if r.revealed {
                format!("{hit}, revealed")
            } else {
                hit
            }
        },
    ))
}

fn confidence_test(v: &Values) -> Result<Built, String> {
    Ok(Built::new(ConfidenceTest {
        quality: die(v, "quality"),
        lv: lv(v, "lv")?,
        tl: signed(v, "tl")?,
        two_level: two_level(v),
    }))
}

fn reaction_test(v: &Values) -> Result<Built, String> {
    Ok(Built::labelled(
        ReactionTest {
            quality: die(v, "quality"),
            lv: lv(v, "lv")?,
            tl: signed(v, "tl")?,
        },
        passes_label,
    ))
}

fn rally(v: &Values) -> Result<Built, String> {
    Ok(Built::labelled(
        Rally {
            quality: die(v, "quality"),
            lv: lv(v, "lv")?,
            rallier: lv(v, "rallier")?,
        },
        |&ok| if ok { "rallies" } else { "fails" }.to_string(),
    ))
}

fn replacement(v: &Values) -> Result<Built, String> {
    Ok(Built::labelled(
        ReplacementLeader { old: lv(v, "old")? },
        |l| format!("LV {l}"),
    ))
}

fn communication(v: &Values) -> Result<Built, String> {
    Ok(Built::labelled(
        CommunicationRoll {
            quality: die(v, "quality"),
            sender: lv(v, "sender")?,
            receiver: lv(v, "receiver")?,
            skipped: small(v, "skipped")?,
        },
        |&ok| {
            if ok {
                "the order gets through"
            } else {
                "the order fails"
            }
            .to_string()
        },
    ))
}

fn regimental_move(v: &Values) -> Result<Built, String> {
    Ok(Built::labelled(
        RegimentalCombatMove {
            companies: small(v, "companies")?,
            die: die(v, "die"),
        },
        |d| {
            d.iter()
                .take_while(|&&x| x > 0)
                .map(|x| format!("{x}\""))
                .collect::<Vec<_>>()
                .join(", ")
        },
    ))
}

static STEADY_REGULARS: [(Quality, ConfidenceLevel); 4] =
    [(Quality::Regular, ConfidenceLevel::Steady); 4];

fn successor(v: &Values) -> Result<Built, String> {
    let n = usize::from(small(v, "companies")?);
    let companies = STEADY_REGULARS.get(..n).ok_or("companies must be 1 to 4")?;
    Ok(Built::labelled(Successor { companies }, |i| {
        format!("company {}", i + 1)
    }))
}

fn combat_move(v: &Values) -> Result<Built, String> {
    let distance = v.int("distance") as f64;
    CombatMove::new(die(v, "die"), distance)
        .map(Built::new)
        .map_err(|e| e.to_string())
}

fn horse_or_rider(v: &Values) -> Result<Built, String> {
    Ok(Built::new(HorseOrRider {
        by_mounted: v.bool("by_mounted"),
    }))
}

fn horse_label(h: &HorseState) -> String {
    match h {
        HorseState::Dead => "the horse is dead",
        HorseState::Wounded => "the horse is wounded",
        HorseState::Okay => "the horse is unhurt",
    }
    .to_string()
}

fn horse_status(_: &Values) -> Result<Built, String> {
    Ok(Built::labelled(HorseStatus, horse_label))
}

fn fates_label(&(a, b, c): &(u8, u8, u8)) -> String {
    format!("{a} dead, {b} wounded, {c} recovered")
}

fn treatment(v: &Values) -> Result<Built, String> {
    Ok(Built::labelled(
        Treatment {
            casualties: small(v, "casualties")?,
        },
        fates_label,
    ))
}

fn downed(v: &Values) -> Result<Built, String> {
    Ok(Built::labelled(
        DownedFates {
            downed: small(v, "downed")?,
        },
        |&(a, b, c)| format!("{a} dead, {b} wounded, {c} stunned"),
    ))
}

fn quiet_mutiny(v: &Values) -> Result<Built, String> {
    let quality = match v.choice("unit_quality") {
        0 => Quality::Untrained,
        1 => Quality::Green,
        2 => Quality::Regular,
        3 => Quality::Veteran,
        _ => Quality::Elite,
    };
    Ok(Built::labelled(
        QuietMutiny {
            quality,
            lv: lv(v, "lv")?,
        },
        |&m| if m { "Shaken" } else { "no effect" }.to_string(),
    ))
}

fn shot_accuracy(v: &Values) -> Result<Built, String> {
    let range = match v.choice("range") {
        0 => ShotRange::Short,
        2 => ShotRange::Long,
        _ => ShotRange::Medium,
    };
    let options = Options {
        artillery_shot_ranges: v.bool("shot_ranges"),
        ..Options::default()
    };
    Ok(Built::new(ShotAccuracy::new(
        die(v, "quality"),
        lv(v, "lv")?,
        range,
        &options,
    )))
}

fn bounce_test(v: &Values) -> Result<Built, String> {
    Ok(Built::labelled(
        BounceTest {
            quality: die(v, "quality"),
            lv: lv(v, "lv")?,
            k: small(v, "bounce")?,
            rifled: v.bool("rifled"),
        },
        |&ok| if ok { "bounces on" } else { "stops" }.to_string(),
    ))
}

fn shot_bounces(v: &Values) -> Result<Built, String> {
    Ok(Built::new(ShotBounces {
        quality: die(v, "quality"),
        lv: lv(v, "lv")?,
        rifled: v.bool("rifled"),
    }))
}

fn area_damage(v: &Values) -> Result<Built, String> {
    let damage = AreaDamage::shot(
        small(v, "bounces")?,
        die(v, "armour"),
        signed(v, "armour_shift")?,
        small(v, "figures")?,
        kill(v),
    )
    .ok_or("a shot does no damage past its last bounce")?;
    Ok(Built::labelled(damage, |&(w, k)| {
        format!("{w} wounded, {k} killed")
    }))
}

fn quality_draw(v: &Values) -> Result<Built, String> {
    let year = if v.choice("year") == 1 {
        WarYear::Later
    } else {
        WarYear::Early
    };
    Ok(Built::labelled(QualityDraw { year }, |(q, l)| {
        format!("{q}, LV {l}")
    }))
}

fn under_strength(v: &Values) -> Result<Built, String> {
    let fatigue = match v.choice("fatigue") {
        0 => Fatigue::Fresh,
        1 => Fatigue::Tired,
        _ => Fatigue::Exhausted,
    };
    Ok(Built::new(UnderStrength {
        fatigue,
        figures: small(v, "figures")?,
    }))
}

fn melee_side(v: &Values, prefix: &str) -> Result<MeleeSide, String> {
    let key = |k: &str| format!("{prefix}_{k}");
    let quality = die(v, &key("quality"));
    let weapon = match v.choice(&key("weapon")) {
        1 => MeleeWeapon::Pistol,
        2 => MeleeWeapon::Sword,
        3 => MeleeWeapon::Shotgun,
        _ => MeleeWeapon::None,
    };
    Ok(MeleeSide {
        figures: small(v, &key("figures"))?,
        first_round: MeleeDie {
            weapon,
            mounted: v.bool(&key("mounted")),
            defender_bonus: prefix == "defender",
            ..MeleeDie::plain(quality)
        },
        quality,
        lv: lv(v, &key("lv"))?,
        modifier: signed(v, &key("modifier"))?,
        on_foot: 0,
    })
}

fn melee_of(v: &Values) -> Result<Melee, String> {
    Ok(Melee {
        attacker: melee_side(v, "attacker")?,
        defender: melee_side(v, "defender")?,
        casualties: casualties_for_test(v),
        two_level: two_level(v),
    })
}

fn melee(v: &Values) -> Result<Built, String> {
    Ok(Built::new(melee_of(v)?))
}

fn combined_melee(v: &Values) -> Result<Built, String> {
    let side = melee_side(v, "attacker")?;
    let attackers = vec![side; usize::from(small(v, "companies")?)];
    CombinedMelee::new(
        &attackers,
        melee_side(v, "defender")?,
        casualties_for_test(v),
        two_level(v),
        v.bool("dropped"),
    )
    .map(Built::new)
    .map_err(|e| e.to_string())
}

fn attack_test(v: &Values) -> Result<ReactionTest, String> {
    Ok(ReactionTest {
        quality: die(v, "attacker_quality"),
        lv: lv(v, "attacker_lv")?,
        tl: signed(v, "attack_tl")?,
    })
}

fn stand_test(v: &Values) -> Result<Option<ConfidenceTest>, String> {
    Ok(if v.bool("stand_test") {
        Some(ConfidenceTest {
            quality: die(v, "defender_quality"),
            lv: lv(v, "defender_lv")?,
            tl: signed(v, "stand_tl")?,
            two_level: two_level(v),
        })
    } else {
        None
    })
}

fn approach(v: &Values) -> Result<CombatMove, String> {
    CombatMove::new(die(v, "move_die"), v.int("distance") as f64).map_err(|e| e.to_string())
}

fn combined_assault(v: &Values) -> Result<Built, String> {
    let partner = Partner {
        attack: attack_test(v)?,
        close_formation: v.bool("close_formation"),
        mounted: v.bool("attacker_mounted"),
        approach: approach(v)?,
        melee: melee_side(v, "attacker")?,
        armour: DieType::D4,
        leader: Some(0),
        on_foot_at: 0,
    };
    let partners = vec![partner; usize::from(small(v, "companies")?)];
    CombinedAssault::new(
        &partners,
        stand_test(v)?,
        v.bool("defender_mounted"),
        melee_side(v, "defender")?,
        casualties_for_test(v),
        two_level(v),
    )
    .map(Built::new)
    .map_err(|e| e.to_string())
}

fn close_assault(v: &Values) -> Result<Built, String> {
    Ok(Built::new(CloseAssault {
        attack: attack_test(v)?,
        stand: stand_test(v)?,
        approach: approach(v)?,
        melee: melee_of(v)?,
        final_fire: None,
        at_short: if v.choice("short") == 1 {
            AtShort::Abort {
                tl: Some(signed(v, "abort_tl")?),
                two_level: two_level(v),
            }
        } else {
            AtShort::StayMidDash
        },
    }))
}

const QUALITY: Param = Param::choice("quality", DICE, 2, "the quality die (d4 to d12)");
const LV: Param = Param::int("lv", 1, 3, 2, "the leader's leadership value");
const KILL: Param = Param::choice(
    "kill",
    &["double-or-more", "more-than-double"],
    0,
    "when an impact kills",
);
const TWO_LEVEL: Param = Param::choice(
    "two_level",
    &["half-or-less", "less-than-half"],
    0,
    "when a failed test drops two levels",
);
const IMPACT: [Param; 4] = [
    Param::choice("impact", DICE, 2, "the impact die"),
    Param::choice("armour", DICE, 1, "the target's armour die"),
    Param::int(
        "armour_shift",
        -2,
        4,
        0,
        "steps cover adds to the armour die",
    ),
    KILL,
];
const FIRE: [Param; 3] = [
    QUALITY,
    Param::choice("firepower", DICE, 3, "the firepower die"),
    Param::choice("range", DICE, 1, "the range die"),
];
const VOLLEY: [Param; 8] = [
    FIRE[0],
    FIRE[1],
    FIRE[2],
    IMPACT[0],
    IMPACT[1],
    IMPACT[2],
    IMPACT[3],
    Param::int("figures", 1, 48, 8, "figures in the target"),
];
const STAND_FIRE: [Param; 9] = [
    VOLLEY[0],
    VOLLEY[1],
    VOLLEY[2],
    VOLLEY[3],
    VOLLEY[4],
    VOLLEY[5],
    VOLLEY[6],
    VOLLEY[7],
    Param::int("stands", 1, 4, 2, "stands firing, each with the same dice"),
];
const CANISTER: [Param; 8] = [
    Param::choice("quality", DICE, 2, "the crew's quality die"),
    Param::choice(
        "piece",
        &[
            "napoleon-12lb",
            "rifle-10lb-or-3in",
            "rifle-20lb",
            "gun-6lb",
        ],
        0,
        "the field piece",
    ),
    Param::choice("range", DICE, 1, "the range die"),
    Param::choice("impact", DICE, 2, "the impact die"),
    IMPACT[1],
    IMPACT[2],
    KILL,
    Param::int("figures", 1, 48, 8, "figures in the target"),
];

const HORSES: Param = Param::int("horses", 1, 48, 6, "the team's sound horse figures");
const HORSE_STATUS: Param = Param::choice(
    "horse_status",
    &["d6-table", "impact-vs-d4"],
    0,
    "how a struck horse's state is rolled",
);
const QUICK: Param = Param::bool(
    "quick",
    false,
    "Quick Combat Resolution: every hit horse is down",
);
const TEAM_SHIFT: Param = Param::int(
    "armour_shift",
    -2,
    4,
    0,
    "steps cover adds to the horses' D4 armour",
);
const TEAM_FIRE: [Param; 9] = [
    FIRE[0],
    FIRE[1],
    FIRE[2],
    Param::choice("impact", DICE, 2, "the small arm's impact die"),
    TEAM_SHIFT,
    KILL,
    HORSES,
    HORSE_STATUS,
    QUICK,
];
const TEAM_CANISTER: [Param; 8] = [
    CANISTER[0],
    CANISTER[1],
    CANISTER[2],
    TEAM_SHIFT,
    KILL,
    HORSES,
    HORSE_STATUS,
    QUICK,
];
const BLAST_ONTO_TEAM: [Param; 14] = [
    CANISTER[0],
    CANISTER[1],
    Param::choice("range", DICE, 1, "the company's range die"),
    Param::choice("armour", DICE, 0, "the company's armour die"),
    Param::int(
        "company_armour_shift",
        -2,
        4,
        0,
        "steps the company's cover adds to its armour die",
    ),
    Param::int("figures", 1, 48, 8, "figures in the company"),
    Param::choice(
        "team_range",
        DICE,
        1,
        "the team's range die before the blast's shift",
    ),
    TEAM_SHIFT,
    KILL,
    HORSES,
    HORSE_STATUS,
    QUICK,
    Param::choice(
        "blast_count",
        &["per-blast-step", "every-damaged-company"],
        0,
        "what shifts the team's range die: a step that hit, or a company with casualties",
    ),
    Param::bool(
        "requires_casualties",
        false,
        "the blast carries on only after casualties",
    ),
];

const BLAST_CHAIN: [Param; 17] = [
    CANISTER[0],
    CANISTER[1],
    Param::int(
        "companies",
        1,
        4,
        2,
        "companies on the blast's line, the first fired at",
    ),
    Param::int(
        "distance",
        0,
        60,
        3,
        "inches from the gun to the first company",
    ),
    Param::int(
        "spacing",
        0,
        24,
        3,
        "inches from each company (or the last, to the team) to the next",
    ),
    Param::bool("close", false, "the companies are in line or column"),
    Param::choice("armour", DICE, 0, "the companies' armour die"),
    Param::int("figures", 1, 48, 4, "figures in each company"),
    Param::bool(
        "team",
        false,
        "a gun's detached team lies behind the last company",
    ),
    HORSES,
    KILL,
    HORSE_STATUS,
    QUICK,
    BLAST_ONTO_TEAM[12],
    BLAST_ONTO_TEAM[13],
    SCREEN[0],
    SCREEN[1],
];
const SCREEN: [Param; 2] = [
    Param::int(
        "screen",
        0,
        48,
        0,
        "enemy skirmishers (not In Position) fired through in front of the first company",
    ),
    Param::choice("screen_armour", DICE, 0, "the skirmishers' armour die"),
];
const SCREENED_VOLLEY: [Param; 10] = [
    VOLLEY[0], VOLLEY[1], VOLLEY[2], VOLLEY[3], VOLLEY[4], VOLLEY[5], VOLLEY[6], VOLLEY[7],
    SCREEN[0], SCREEN[1],
];

const WEAPONS: &[&str] = &["none", "pistol", "sword", "shotgun"];

macro_rules! side_params {
    ($q:literal, $lv:literal, $f:literal, $m:literal, $w:literal, $mo:literal, $qd:expr) => {
        [
            Param::choice($q, DICE, $qd, "the company's quality die"),
            Param::int($lv, 1, 3, 2, "the company leader's leadership value"),
            Param::int($f, 1, 12, 4, "figures in the fight"),
            Param::int($m, -3, 3, 0, "net modifier to the melee threat level"),
            Param::choice($w, WEAPONS, 0, "the first-round weapon"),
            Param::bool($mo, false, "fights mounted in the first round"),
        ]
    };
}

const ATTACKER: [Param; 6] = side_params!(
    "attacker_quality",
    "attacker_lv",
    "attacker_figures",
    "attacker_modifier",
    "attacker_weapon",
    "attacker_mounted",
    2
);
const DEFENDER: [Param; 6] = side_params!(
    "defender_quality",
    "defender_lv",
    "defender_figures",
    "defender_modifier",
    "defender_weapon",
    "defender_mounted",
    2
);
const TEST_CASUALTIES: Param = Param::choice(
    "test_casualties",
    &["this-round", "whole-assault"],
    0,
    "which casualties count in the melee tests",
);
const MELEE: [Param; 14] = [
    ATTACKER[0],
    ATTACKER[1],
    ATTACKER[2],
    ATTACKER[3],
    ATTACKER[4],
    ATTACKER[5],
    DEFENDER[0],
    DEFENDER[1],
    DEFENDER[2],
    DEFENDER[3],
    DEFENDER[4],
    DEFENDER[5],
    TEST_CASUALTIES,
    TWO_LEVEL,
];
const COMBINED_MELEE: [Param; 16] = [
    MELEE[0],
    MELEE[1],
    Param::int(
        "attacker_figures",
        1,
        12,
        3,
        "figures in each attacking company",
    ),
    MELEE[3],
    MELEE[4],
    MELEE[5],
    MELEE[6],
    MELEE[7],
    MELEE[8],
    MELEE[9],
    MELEE[10],
    MELEE[11],
    MELEE[12],
    MELEE[13],
    Param::int("companies", 2, 3, 2, "attacking companies"),
    Param::bool("dropped", false, "the defender already dropped a level"),
];
const ASSAULT: [Param; 6] = [
    Param::int(
        "attack_tl",
        0,
        6,
        1,
        "the attacker's close-assault threat level",
    ),
    Param::bool("stand_test", true, "the defender tests to stand"),
    Param::int("stand_tl", 0, 6, 1, "the defender's stand threat level"),
    Param::choice("move_die", DICE, 1, "the attacker's mobility die"),
    Param::int("distance", 0, 24, 4, "inches to contact"),
    Param::bool(
        "close_formation",
        false,
        "the attacker is in close formation",
    ),
];
const CLOSE_ASSAULT: [Param; 21] = [
    MELEE[0],
    MELEE[1],
    MELEE[2],
    MELEE[3],
    MELEE[4],
    MELEE[5],
    MELEE[6],
    MELEE[7],
    MELEE[8],
    MELEE[9],
    MELEE[10],
    MELEE[11],
    MELEE[12],
    MELEE[13],
    ASSAULT[0],
    ASSAULT[1],
    ASSAULT[2],
    ASSAULT[3],
    ASSAULT[4],
    Param::choice(
        "short",
        &["stay-mid-dash", "abort"],
        0,
        "still short after the second move: stay mid-dash, or abort with a test",
    ),
    Param::int(
        "abort_tl",
        -2,
        6,
        0,
        "the abort test's threat level (1/0/NTR by motivation, -1 in close formation)",
    ),
];
const COMBINED_ASSAULT: [Param; 21] = [
    COMBINED_MELEE[0],
    COMBINED_MELEE[1],
    COMBINED_MELEE[2],
    COMBINED_MELEE[3],
    COMBINED_MELEE[4],
    COMBINED_MELEE[5],
    COMBINED_MELEE[6],
    COMBINED_MELEE[7],
    COMBINED_MELEE[8],
    COMBINED_MELEE[9],
    COMBINED_MELEE[10],
    COMBINED_MELEE[11],
    COMBINED_MELEE[12],
    COMBINED_MELEE[13],
    COMBINED_MELEE[14],
    ASSAULT[0],
    ASSAULT[1],
    ASSAULT[2],
    ASSAULT[3],
    ASSAULT[4],
    ASSAULT[5],
];

static ENTRIES: &[Entry] = &[
    Entry {
        name: "fire-dice",
        rules: &["HT-FIR-17"],
        summary: "the fire dice of one volley against the range die: the success and the potential hits",
        params: &FIRE,
        build: fire_dice_entry,
    },
    Entry {
        name: "impact",
        rules: &["HT-FIR-18"],
        summary: "one hit's impact die against the armour die: no effect, wounded or killed",
        params: &IMPACT,
        build: impact_entry,
    },
    Entry {
        name: "volley",
        rules: &[
            "HT-FIR-01",
            "HT-FIR-17",
            "HT-FIR-18",
            "HT-FIR-19",
            "HT-CAS-07",
        ],
        summary: "a whole volley: the fire dice, the hits allocated among the figures, their impacts",
        params: &VOLLEY,
        build: volley,
    },
    Entry {
        name: "fire-through-skirmishers",
        rules: &["HT-FIR-23", "HT-ART-18", "HT-FIR-19", "HT-CAS-07"],
        summary: "a whole fire at a company through enemy skirmishers in front of it: the fire dice, the hits allocated over both companies' figures, each against its own armour",
        params: &SCREENED_VOLLEY,
        build: screened_volley,
    },
    Entry {
        name: "stand-fire",
        rules: &["HT-OPT-33"],
        summary: "stand-based fire: every stand's fire dice, the hits pooled, their impacts",
        params: &STAND_FIRE,
        build: stand_fire,
    },
    Entry {
        name: "canister",
        rules: &["HT-ART-14", "HT-ART-15", "HT-ART-17", "HT-FIR-18"],
        summary: "a canister volley: the crew and piece dice against the range die, to casualties",
        params: &CANISTER,
        build: canister,
    },
    Entry {
        name: "team-fire",
        rules: &["HT-ART-22", "HT-CAS-04"],
        summary: "small arms at an unlimbered gun's detached team: the fire dice, hits allocated over its horses, each struck horse's state",
        params: &TEAM_FIRE,
        build: team_fire,
    },
    Entry {
        name: "team-canister",
        rules: &["HT-ART-22", "HT-ART-14", "HT-CAS-04"],
        summary: "canister at an unlimbered gun's detached team: the crew and piece dice, hits over its horses",
        params: &TEAM_CANISTER,
        build: team_canister,
    },
    Entry {
        name: "blast-onto-team",
        rules: &["HT-ART-19", "HT-ART-22", "HT-INT-11"],
        summary: "a canister blast through a company onto a gun team behind it: the company's casualties, then its horses down",
        params: &BLAST_ONTO_TEAM,
        build: blast_onto_team,
    },
    Entry {
        name: "blast-chain",
        rules: &[
            "HT-ART-19",
            "HT-ART-16",
            "HT-INT-11",
            "HT-ART-22",
            "HT-ART-18",
        ],
        summary: "a whole canister blast through up to four companies in the open (the first behind enemy skirmishers, if any) and on to a gun team behind them",
        params: &BLAST_CHAIN,
        build: blast_chain,
    },
    Entry {
        name: "observation",
        rules: &["HT-FIR-25"],
        summary: "an observation roll: the firer's quality die against the target's die",
        params: &[
            QUALITY,
            Param::choice("target", DICE, 1, "the target's die"),
        ],
        build: observation,
    },
    Entry {
        name: "sharpshot",
        rules: &["HT-FIR-24"],
        summary: "a sharpshooter's shot: the hits it scores and whether he is revealed",
        params: &[QUALITY, Param::choice("range", DICE, 1, "the range die")],
        build: sharpshot,
    },
    Entry {
        name: "confidence-test",
        rules: &["HT-MOR-06", "HT-MOR-08"],
        summary: "a confidence test: the quality die must beat LV + TL; a low roll drops two levels",
        params: &[
            QUALITY,
            LV,
            Param::int("tl", -2, 8, 2, "the threat level"),
            TWO_LEVEL,
        ],
        build: confidence_test,
    },
    Entry {
        name: "reaction-test",
        rules: &["HT-MOR-08", "HT-MEL-03"],
        summary: "a reaction (or panic, or close-assault) test: the quality die must beat LV + TL",
        params: &[QUALITY, LV, Param::int("tl", -2, 8, 2, "the threat level")],
        build: reaction_test,
    },
    Entry {
        name: "rally",
        rules: &["HT-CMD-06", "HT-FRM-12", "HT-MOV-09"],
        summary: "a rally attempt by a leader on a company",
        params: &[
            QUALITY,
            LV,
            Param::int("rallier", 1, 3, 2, "the rallying leader's leadership value"),
        ],
        build: rally,
    },
    Entry {
        name: "replacement-leader",
        rules: &["HT-CMD-06", "HT-ACC-39"],
        summary: "the leadership value of a lost leader's replacement",
        params: &[Param::int(
            "old",
            1,
            3,
            2,
            "the lost leader's leadership value",
        )],
        build: replacement,
    },
    Entry {
        name: "communication",
        rules: &["HT-CMD-01", "HT-CMD-06", "HT-SEQ-03", "HT-OPT-25"],
        summary: "a communication roll passing an order down the chain of command",
        params: &[
            QUALITY,
            Param::int("sender", 1, 3, 2, "the sender's leadership value"),
            Param::int("receiver", 1, 3, 2, "the receiver's leadership value"),
            Param::int("skipped", 0, 3, 0, "levels of command skipped"),
        ],
        build: communication,
    },
    Entry {
        name: "regimental-move",
        rules: &["HT-MOV-11", "HT-CMD-03", "HT-FRM-08"],
        summary: "a regimental formation's combat move: each company's distance",
        params: &[
            Param::int("companies", 1, 4, 2, "companies moving"),
            Param::choice("die", DICE, 1, "the mobility die"),
        ],
        build: regimental_move,
    },
    Entry {
        name: "successor",
        rules: &["HT-CMD-06"],
        summary: "which company's leader takes over a lost colonel's regiment (an even pick among equals)",
        params: &[Param::int(
            "companies",
            1,
            4,
            3,
            "Regular, Steady companies eligible",
        )],
        build: successor,
    },
    Entry {
        name: "combat-move",
        rules: &["HT-MOV-11", "HT-MEL-06"],
        summary: "a combat move: twice the mobility die, against the distance to go",
        params: &[
            Param::choice("die", DICE, 1, "the mobility die"),
            Param::int("distance", 0, 24, 6, "inches to go"),
        ],
        build: combat_move,
    },
    Entry {
        name: "horse-or-rider",
        rules: &["HT-CAS-03", "HT-MEL-12"],
        summary: "whether a hit on a mounted figure strikes the horse or the rider",
        params: &[Param::bool(
            "by_mounted",
            false,
            "the hit came from mounted troops",
        )],
        build: horse_or_rider,
    },
    Entry {
        name: "horse-status",
        rules: &["HT-CAS-04"],
        summary: "a struck horse's state: dead on 1-2, wounded on 3-5, unhurt on 6",
        params: &[],
        build: horse_status,
    },
    Entry {
        name: "treatment",
        rules: &["HT-CAS-06", "HT-OPT-24"],
        summary: "the treatment of wounded casualties after the battle: one d6 each",
        params: &[Param::int("casualties", 0, 12, 4, "casualties treated")],
        build: treatment,
    },
    Entry {
        name: "downed-fates",
        rules: &["HT-MEL-15"],
        summary: "the fates of figures down in a melee: one d6 each",
        params: &[Param::int("downed", 0, 12, 3, "figures down")],
        build: downed,
    },
    Entry {
        name: "quiet-mutiny",
        rules: &["HT-OPT-26"],
        summary: "Quiet Mutiny: quality die plus LV, 9 or more makes a Regular or Veteran unit Shaken",
        params: &[
            Param::choice(
                "unit_quality",
                &["untrained", "green", "regular", "veteran", "elite"],
                3,
                "the unit's quality (only Regular and Veteran units test)",
            ),
            LV,
        ],
        build: quiet_mutiny,
    },
    Entry {
        name: "shot-accuracy",
        rules: &["HT-ART-01", "HT-ART-06", "HT-OPT-01"],
        summary: "where a round shot lands against its aim point",
        params: &[
            QUALITY,
            LV,
            Param::choice("range", &["short", "medium", "long"], 1, "the range band"),
            Param::bool("shot_ranges", false, "the Artillery Shot Ranges option"),
        ],
        build: shot_accuracy,
    },
    Entry {
        name: "bounce-test",
        rules: &["HT-ART-10", "HT-ART-12", "HT-OPT-02"],
        summary: "whether a shot bounces on past its k-th bounce",
        params: &[
            QUALITY,
            LV,
            Param::int("bounce", 1, 4, 1, "the bounce reached"),
            Param::bool("rifled", false, "a rifled piece"),
        ],
        build: bounce_test,
    },
    Entry {
        name: "shot-bounces",
        rules: &["HT-ART-10"],
        summary: "how many times a round shot bounces",
        params: &[QUALITY, LV, Param::bool("rifled", false, "a rifled piece")],
        build: shot_bounces,
    },
    Entry {
        name: "shot-damage",
        rules: &["HT-ART-08"],
        summary: "a round shot's damage to the figures at one bounce point",
        params: &[
            Param::int("bounces", 0, 3, 1, "the bounce point"),
            IMPACT[1],
            IMPACT[2],
            Param::int("figures", 0, 12, 3, "figures in the area"),
            KILL,
        ],
        build: area_damage,
    },
    Entry {
        name: "quality-draw",
        rules: &["HT-SET-08"],
        summary: "a company's quality and leader drawn from the counters",
        params: &[Param::choice(
            "year",
            &["early", "later"],
            0,
            "the year of the war",
        )],
        build: quality_draw,
    },
    Entry {
        name: "under-strength",
        rules: &["HT-SET-14"],
        summary: "the figures a company is short at the start",
        params: &[
            Param::choice(
                "fatigue",
                &["fresh", "tired", "exhausted"],
                1,
                "the company's fatigue",
            ),
            Param::int("figures", 1, 48, 12, "figures at full strength"),
        ],
        build: under_strength,
    },
    Entry {
        name: "melee",
        rules: &[
            "HT-MEL-01",
            "HT-MEL-10",
            "HT-MEL-11",
            "HT-MEL-12",
            "HT-MEL-14",
        ],
        summary: "a whole melee, round by round, to a fall-back or destruction",
        params: &MELEE,
        build: melee,
    },
    Entry {
        name: "combined-melee",
        rules: &["HT-MEL-05"],
        summary: "a whole melee of two or three attacking companies against one",
        params: &COMBINED_MELEE,
        build: combined_melee,
    },
    Entry {
        name: "close-assault",
        rules: &["HT-MEL-01", "HT-MEL-03", "HT-MEL-16", "HT-SG2-37"],
        summary: "a whole close assault: the attacker's test, the defender's stand test, the approach (and a second move if short; short again, staying mid-dash or aborting with a test), the melee",
        params: &CLOSE_ASSAULT,
        build: close_assault,
    },
    Entry {
        name: "combined-assault",
        rules: &["HT-MEL-01", "HT-MEL-05"],
        summary: "a whole combined assault by two or three companies: tests, approaches, the melee",
        params: &COMBINED_ASSAULT,
        build: combined_assault,
    },
];

/// Every random procedure of the rules, by name.
#[must_use]
pub fn catalogue() -> Catalogue {
    Catalogue::new("hardtack", ENTRIES)
}
