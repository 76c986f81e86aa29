//! Setup: scale, organisation, counters, under-strength companies, terrain, initial state, cavalry.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::dice::ScriptedDice;
use acw_core::{Resolve, Side};
use acw_hardtack::fire::Cover;
use acw_hardtack::setup::{
    Crosser, Echelon, Feature, Going, MenPerFigure, QualityDraw, Terrain, UnderStrength, WarYear,
    horse_holders, yards_to_inches,
};
use acw_hardtack::state::{CompanySpec, FireFacts, Formation, Role};
use acw_hardtack::tables::{Armour, ConfidenceLevel, Fatigue, GUN_ARMOUR, Leadership, Quality};
use acw_hardtack::{Battle, DieType, Options, RuleViolation};

// HT-SET-01: 1" = 10 yards; 3 to 5 men a figure; road columns 3 wide at 1:3, 2 at 1:4 and 1:5 (HT-FRM-05).
#[test]
fn scale() {
    assert!((yards_to_inches(700.0).unwrap() - 70.0).abs() < 1e-12);
    assert!(yards_to_inches(-1.0).is_err());
    assert!(MenPerFigure::new(2).is_err());
    assert_eq!(MenPerFigure::new(3).unwrap().road_column_width(), 3);
    assert_eq!(MenPerFigure::new(5).unwrap().road_column_width(), 2);
}

// HT-SET-02, HT-SET-03, HT-SET-05: a company is a Stargrunt II squad of 6-12 figures, a regiment a platoon
// of 2-16 companies, a gun 2-3 crew figures.
#[test]
fn organisation() {
    assert_eq!(Echelon::Company.sgii(), "squad");
    assert_eq!(Echelon::Regiment.sgii(), "platoon");
    assert_eq!(Echelon::Brigade.sgii(), "company");
    assert_eq!(Echelon::Company.parts(), (6, 12));
    assert_eq!(Echelon::Regiment.parts(), (2, 16));
    assert_eq!(Echelon::Gun.parts(), (2, 3));
    let mut b = Battle::new(Options::default());
    assert!(matches!(
        b.add_company(CompanySpec::new("empty", Side::Union, 0)),
        Err(RuleViolation::Setup(_))
    ));
}

// HT-ACC-20, HT-SET-04: horse holders 1 per 4 figures, rounded up.
#[test]
fn horse_holder_counts() {
    for (n, holders, firers) in [(4, 1, 3), (5, 2, 3), (8, 2, 6), (9, 3, 6), (12, 3, 9)] {
        assert_eq!(horse_holders(n), holders);
        assert_eq!(n - horse_holders(n), firers);
    }
}

// HT-ACC-27, HT-FRM-13, HT-SET-04, HT-FIR-02, HT-FIR-12: a mounted company of 8 in column dismounts to
// skirmish in one Reorganise with 2 horse holders, who do not fire; mounted, its fire shifts the range die up.
#[test]
fn dismount_in_one_reorganise() {
    let mut b = Battle::new(Options::default());
    let mut spec = CompanySpec::new("1st Maine Cavalry, Company B", Side::Union, 8);
    spec.cavalry = Some(true);
    spec.formation = Formation::Column;
    let cav = b.add_company(spec).unwrap();
    let foe = b
        .add_company(CompanySpec::new("rebels", Side::Confederate, 8))
        .unwrap();
    b.activate(cav).unwrap();
    // Mounted at 9" (band 2, D6) +1 mounted = D8: a roll of 8 on the range die means no firer die beats it.
    let rep = b
        .fire(
            cav,
            foe,
            FireFacts {
                distance: 9.0,
                ..FireFacts::default()
            },
            &mut ScriptedDice::faces([8, 8, 8]),
        )
        .unwrap();
    assert_eq!(rep.range, Some(DieType::D8));
    b.reload(cav).unwrap();
    b.end_turn().unwrap();
    b.activate(cav).unwrap();
    b.dismount(cav, false, Formation::Skirmish).unwrap();
    let c = b.company(cav).unwrap();
    assert!(!c.mounted());
    assert_eq!(c.formation(), Formation::Skirmish);
    assert_eq!(
        c.figures()
            .iter()
            .filter(|f| f.role == Role::HorseHolder)
            .count(),
        2
    );
    // Six firers: FP 6 -> D6, skirmish -> D4; range D6 unshifted now.
    let rep = b
        .fire(
            cav,
            foe,
            FireFacts {
                distance: 9.0,
                ..FireFacts::default()
            },
            &mut ScriptedDice::faces([6, 6, 4]),
        )
        .unwrap();
    assert_eq!(rep.range, Some(DieType::D6));
    assert_eq!(
        b.company(cav)
            .unwrap()
            .figures()
            .iter()
            .filter(|f| f.reload)
            .count(),
        6
    );
    assert!(matches!(
        b.dismount(cav, false, Formation::Skirmish),
        Err(RuleViolation::Refused { .. })
    ));
}

// HT-SET-08, HT-SG2-01: 1862 onwards 18 Green : 28 Regular : 18 Veteran of 64; P(Regular) = 7/16,
// P(Green LV2) = 1/8. 1861: Green and Regular only.
#[test]
fn random_quality() {
    let later = QualityDraw {
        year: WarYear::Later,
    }
    .odds();
    let regular = later.prob(|(q, _)| *q == Quality::Regular);
    assert!((regular - 7.0 / 16.0).abs() < 1e-12);
    assert!((later.p(&(Quality::Green, Leadership::TWO)) - 1.0 / 8.0).abs() < 1e-12);
    let early = QualityDraw {
        year: WarYear::Early,
    }
    .odds();
    assert!((early.prob(|(q, _)| *q == Quality::Green) - 18.0 / 46.0).abs() < 1e-12);
    assert!(early.prob(|(q, _)| *q == Quality::Veteran).abs() < 1e-12);
}

// HT-SG2-52: under-strength: a Tired company of 6 rolls D8s, each 1 removing a figure.
#[test]
fn under_strength() {
    let u = UnderStrength {
        fatigue: Fatigue::Tired,
        figures: 6,
    };
    assert_eq!(u.roll(&mut ScriptedDice::faces([1, 2, 8, 1, 3, 4])), 2);
    assert!((u.odds().p(&0) - (7.0f64 / 8.0).powi(6)).abs() < 1e-12);
}

// HT-SET-14, HT-SG2-13, HT-FIR-06: the cover of features.
#[test]
fn cover_features() {
    assert_eq!(Feature::WoodenFence.cover(), Cover::Soft);
    assert_eq!(Feature::StoneWall.cover(), Cover::Hard);
    assert_eq!(Feature::Entrenchment.cover(), Cover::Hard);
    assert_eq!(Feature::HeadLoggedWorks.cover(), Cover::Fortification);
}

// HT-MOV-05, HT-SG2-22, HT-MOV-06, HT-ENV-01: terrain classes, costs, disorder, and where shot bounces.
#[test]
fn terrain() {
    assert_eq!(Terrain::Slopes.going(Crosser::Unlimbered), Going::Poor);
    assert_eq!(Terrain::Swamp.going(Crosser::Limbered), Going::Difficult);
    assert_eq!(
        Terrain::DenseWoods.going(Crosser::Mounted),
        Going::Difficult
    );
    assert_eq!(Terrain::Abatis.going(Crosser::Mounted), Going::Impassable);
    assert_eq!(Terrain::Stream.going(Crosser::Foot), Going::Difficult);
    assert_eq!(Going::Poor.cost(), Some(2));
    assert_eq!(Going::Impassable.cost(), None);
    assert!(Terrain::Swamp.disorders());
    assert!(!Terrain::LightWoods.disorders());
    assert!(Terrain::Road.allows_bounce(false));
    assert!(!Terrain::Open.allows_bounce(true));
    assert!(!Terrain::Cultivated.allows_bounce(false));
}

// HT-SET-10: armour dice; HT-SET-12, HT-SET-13, HT-SG2-02: a new company starts at its fatigue's level, with
// its First Volley, its leader first; guns start unloaded.
#[test]
fn initial_state() {
    assert_eq!(Armour::None.die(), DieType::D4);
    assert_eq!(Armour::Breastplate.die(), DieType::D6);
    assert_eq!(GUN_ARMOUR, DieType::D8);
    let mut b = Battle::new(Options::default());
    let mut spec = CompanySpec::new("tired men", Side::Union, 7);
    spec.fatigue = Fatigue::Tired;
    let c = b.add_company(spec).unwrap();
    let co = b.company(c).unwrap();
    assert_eq!(co.confidence(), ConfidenceLevel::Steady);
    assert!(co.has_first_volley());
    assert_eq!(co.figures()[0].role, Role::Leader);
    assert_eq!(co.full_strength(), 7);
    let gun = b
        .add_gun(
            "Parrott",
            acw_hardtack::tables::FieldPiece::Rifle10lbOr3in,
            true,
            c,
        )
        .unwrap();
    assert_eq!(b.gun(gun).unwrap().loaded(), None);
}

// The battle's state can be written out (serde), and value types round-trip with their checks: a leadership of
// 4 or a firer-dice list of one die is refused on load.
#[test]
fn serde() {
    let mut b = Battle::new(Options::default());
    b.add_company(CompanySpec::new("Company K", Side::Union, 6))
        .unwrap();
    let text = serde_json::to_string(&b).unwrap();
    assert!(text.contains("Company K"));
    assert!(serde_json::from_str::<Leadership>("4").is_err());
    assert_eq!(
        serde_json::from_str::<Leadership>("2").unwrap(),
        Leadership::TWO
    );
    assert!(serde_json::from_str::<acw_hardtack::fire::FirerDice>(r#"["D8"]"#).is_err());
    let o: Options = serde_json::from_str(r#"{"first_volley": true}"#).unwrap();
    assert!(o.first_volley);
    assert!(
        serde_json::from_str::<acw_hardtack::movement::CombatMove>(
            r#"{"die":"D6","distance":-1.0}"#
        )
        .is_err()
    );
}

// HT-SET-07: the quality guidelines are advice: the battle takes an Untrained company (armed townspeople)
// and plays it with its D4 — at 4" (its first band) the range die is D4, and a quality face of 4 with FP 3
// (six muskets: D6) against range 2 is a major result — while the 1862 random draw never yields Untrained or
// Elite.
#[test]
fn quality_guidelines_are_advice() {
    let mut b = Battle::new(Options::default());
    let mut town = CompanySpec::new("Gettysburg townsmen", Side::Union, 6);
    town.quality = Quality::Untrained;
    let t = b.add_company(town).unwrap();
    let mut elite = CompanySpec::new("picked men", Side::Confederate, 8);
    elite.quality = Quality::Elite;
    let e = b.add_company(elite).unwrap();
    assert_eq!(b.company(t).unwrap().quality(), Quality::Untrained);
    assert_eq!(b.company(e).unwrap().quality(), Quality::Elite);
    b.activate(t).unwrap();
    // Range 2, quality 4, FP 3: sum 7 over a D4 is 1 hit and remainder 3 (re-roll 4: no extra); allocation
    // (D8: 2, not the leader), armour 1, impact 6: killed; the target's test 12 passes.
    let rep = b
        .fire(
            t,
            e,
            FireFacts {
                distance: 4.0,
                ..FireFacts::default()
            },
            &mut ScriptedDice::faces([2, 4, 3, 4, 2, 1, 6, 12]),
        )
        .unwrap();
    assert_eq!(rep.range, Some(DieType::D4));
    assert_eq!(rep.companies[0].killed, 1);
    // An Untrained quality die cannot show a 5.
    b.end_turn().unwrap();
    b.activate(t).unwrap();
    b.reload(t).unwrap();
    let before = b.clone();
    assert!(matches!(
        b.fire(
            t,
            e,
            FireFacts {
                distance: 4.0,
                ..FireFacts::default()
            },
            &mut ScriptedDice::faces([2, 5, 3, 4]),
        ),
        Err(RuleViolation::Dice(_))
    ));
    assert_eq!(b, before);
    let draw = QualityDraw {
        year: WarYear::Later,
    }
    .odds();
    assert_eq!(
        draw.prob(|(q, _)| matches!(q, Quality::Untrained | Quality::Elite)),
        0.0
    );
}

// HT-SET-09: leadership advice is for the scenario designer; the battle keeps each company's own LV and
// tests against it. Two companies of one side, LV 1 and LV 3, each fired on for a minor result (range 4,
// quality 5, FP 2) and testing with a 3 at TL 0: the LV 1 company passes (3 > 1), the LV 3 one loses one
// level (3 ≤ 3, more than half).
#[test]
fn leadership_is_each_company_own() {
    let mut b = Battle::new(Options::default());
    let mut line = CompanySpec::new("Union line", Side::Union, 8);
    line.formation = Formation::Line;
    let u = b.add_company(line).unwrap();
    let mut brave = CompanySpec::new("brave rebels", Side::Confederate, 8);
    brave.lv = Leadership::ONE;
    let brave = b.add_company(brave).unwrap();
    let mut brittle = CompanySpec::new("brittle rebels", Side::Confederate, 8);
    brittle.lv = Leadership::THREE;
    let brittle = b.add_company(brittle).unwrap();
    b.activate(u).unwrap();
    let facts = FireFacts {
        distance: 6.0,
        ..FireFacts::default()
    };
    let rep = b
        .fire(u, brave, facts, &mut ScriptedDice::faces([4, 5, 2, 3]))
        .unwrap();
    assert_eq!(
        rep.companies[0].test.map(|t| t.2),
        Some(ConfidenceLevel::Confident)
    );
    // The second fire comes from figures that have not fired: none are left, so a new activation.
    b.end_turn().unwrap();
    b.activate(u).unwrap();
    b.reload(u).unwrap();
    let rep = b
        .fire(u, brittle, facts, &mut ScriptedDice::faces([4, 5, 2, 3]))
        .unwrap();
    assert_eq!(
        rep.companies[0].test.map(|t| t.2),
        Some(ConfidenceLevel::Steady)
    );
    assert_eq!(b.company(brave).unwrap().lv(), Leadership::ONE);
    assert_eq!(b.company(brittle).unwrap().lv(), Leadership::THREE);
}
