//! Close assault: the tests, close-combat dice, and the whole assault in the engine.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use acw_core::Resolve;
use acw_core::dice::ScriptedDice;
use acw_hardtack::DieType::{D4, D6, D8, D10, D12};
use acw_hardtack::ladder::OpenShift;
use acw_hardtack::melee::{
    AssaultBar, AssaultSide, CombinedAssault, CombinedEnd, CombinedMelee, CombinedOutcome,
    DownedFate, Melee, MeleeDie, MeleeEnd, MeleeSide, Partner, attacker_tl, odds_tl, opposed_dice,
};
use acw_hardtack::morale::{Confidence, ConfidenceTest, ReactionTest, TestEvent, threat_level};
use acw_hardtack::movement::CombatMove;
use acw_hardtack::options::{AssaultTestCasualties, TwoLevelDrop};
use acw_hardtack::state::{Condition, DefenderChoice, Formation};
use acw_hardtack::tables::{ConfidenceLevel, Leadership, MeleeWeapon, Motivation};
use acw_hardtack::{Options, RuleViolation};
use common::two;

// HT-SG2-35, HT-MEL-02, HT-MEL-03: CO 0, ST +1, -1 in close formation, +1 after a partner drops out;
// Shaken, Broken and Routed may not assault.
#[test]
fn attacker_threat_levels() {
    assert_eq!(attacker_tl(ConfidenceLevel::Confident, true, false), Ok(-1));
    assert_eq!(attacker_tl(ConfidenceLevel::Steady, false, true), Ok(2));
    assert_eq!(
        attacker_tl(ConfidenceLevel::Shaken, false, false),
        Err(AssaultBar::Shaken)
    );
    assert_eq!(
        attacker_tl(ConfidenceLevel::Routed, false, false),
        Err(AssaultBar::BrokenOrRouted)
    );
}

// HT-ACC-36, HT-SG2-36, HT-MEL-04: 6 against 4 is TL 1, 8 against 4 TL 2; 8 against 4 in line charged by a
// column: 2 - 1 + 1 = 2; by mounted cavalry 3.
#[test]
fn stand_test_levels() {
    assert_eq!(odds_tl(6, 4), 1);
    assert_eq!(odds_tl(8, 4), 2);
    let o = Options::default();
    let mut e = TestEvent {
        other_base: Some(odds_tl(8, 4)),
        close_formation: true,
        charged_by_close_formation: true,
        ..TestEvent::default()
    };
    assert_eq!(threat_level(&e, Motivation::Medium, &o), Some(2));
    e.charged_by_mounted = true;
    assert_eq!(threat_level(&e, Motivation::Medium, &o), Some(3));
}

// HT-ACC-37, HT-SG2-39, HT-MEL-08, HT-MEL-09, HT-GEN-02: a Regular with a shotgun rolls D12; a Veteran with a
// +2 weapon is D14: he rolls D12 and his Regular opponent drops to D6; a mounted Veteran with a sabre
// likewise.
#[test]
fn open_shift_melee_dice() {
    let shotgun = MeleeDie {
        weapon: MeleeWeapon::Shotgun,
        ..MeleeDie::plain(D8)
    };
    assert_eq!(shotgun.shifted().die, D12);
    let vet = MeleeDie {
        weapon: MeleeWeapon::Shotgun,
        ..MeleeDie::plain(D10)
    };
    let regular = MeleeDie::plain(D8);
    assert_eq!(opposed_dice(vet.shifted(), regular.shifted()), (D12, D6));
    let cav = MeleeDie {
        weapon: MeleeWeapon::Sword,
        mounted: true,
        ..MeleeDie::plain(D10)
    };
    assert_eq!(opposed_dice(cav.shifted(), regular.shifted()), (D12, D6));
    // HT-MEL-10: a defender's first-round bonus; HT-MEL-12: a rider dismounted last round drops one.
    let bonus = MeleeDie {
        defender_bonus: true,
        ..MeleeDie::plain(D8)
    };
    assert_eq!(bonus.shifted().die, D10);
    let thrown = MeleeDie {
        dismounted_last_round: true,
        ..MeleeDie::plain(D4)
    };
    assert_eq!(thrown.shifted(), OpenShift { die: D4, spill: -1 });
    // A dismounted D4 rider's deficit raises his Regular opponent to D10.
    assert_eq!(opposed_dice(thrown.shifted(), regular.shifted()), (D4, D10));
    let green = MeleeDie::plain(D6);
    assert_eq!(opposed_dice(green.shifted(), regular.shifted()), (D6, D8));
}

// HT-SG2-41, HT-MEL-15: the downed figure's D6.
#[test]
fn downed_fates() {
    assert_eq!(DownedFate::of(2), DownedFate::Dead);
    assert_eq!(DownedFate::of(4), DownedFate::Wounded);
    assert_eq!(DownedFate::of(5), DownedFate::Stunned);
}

// HT-SG2-38, HT-SG2-40, HT-MEL-14: three attackers against one defender: the defender's die is compared with
// each; he rolls 4 against 2, 4, 6: one attacker down, and the defender down (a 6 beat him). The defender
// is destroyed. Then a 2-against-2 round with one down each: the defender tests first on the tie (TL 1,
// T = 3, roll 3 fails one level).
#[test]
fn melee_rounds() {
    let side = |n: u8, q| MeleeSide {
        figures: n,
        first_round: MeleeDie::plain(q),
        quality: q,
        lv: Leadership::TWO,
        modifier: 0,
        on_foot: 0,
    };
    let m = Melee {
        attacker: side(3, D8),
        defender: side(1, D8),
        casualties: AssaultTestCasualties::ThisRound,
        two_level: TwoLevelDrop::HalfOrLess,
    };
    let out = m.roll(&mut ScriptedDice::faces([4, 2, 4, 6]));
    assert_eq!(
        out.end,
        MeleeEnd::Destroyed {
            loser: AssaultSide::Defender
        }
    );
    assert_eq!((out.attacker_down, out.defender_down), (1, 1));
    let m = Melee {
        attacker: side(2, D8),
        defender: side(2, D8),
        ..m
    };
    let out = m.roll(&mut ScriptedDice::faces([5, 2, 2, 5, 3]));
    assert_eq!(
        out.end,
        MeleeEnd::FellBack {
            loser: AssaultSide::Defender,
            levels: 1
        }
    );
    assert_eq!(out.winner(), Some(AssaultSide::Attacker));
}

// HT-MEL-12: one Regular rider (D8, +1 mounted: D10) against one figure on foot with a D6, the foot side sure
// to fail its round test (TL +20), so round 1 ends it. The rider is beaten in 15 of the 60 pairs of faces
// (1/4): he loses his horse on 1-6 of the D10 (3/5 of that, 3/20: he stands, unhorsed, and the foot figure
// falls back) or is down on 7-10 (1/10: the rider's side destroyed); the foot figure is beaten in 39 of 60
// (13/20: destroyed); a tie (6/60 = 1/10) and the foot figure falls back.
#[test]
fn rider_beaten_in_melee_odds() {
    let side = |die: MeleeDie, modifier| MeleeSide {
        figures: 1,
        first_round: die,
        quality: die.quality,
        lv: Leadership::TWO,
        modifier,
        on_foot: 0,
    };
    let rider = MeleeDie {
        mounted: true,
        ..MeleeDie::plain(D8)
    };
    let m = Melee {
        attacker: side(rider, 0),
        defender: side(MeleeDie::plain(D6), 20),
        casualties: AssaultTestCasualties::ThisRound,
        two_level: TwoLevelDrop::HalfOrLess,
    };
    let odds = m.odds();
    let p = |end: MeleeEnd, unhorsed: u8| {
        odds.prob(|o| o.end == end && o.attacker_unhorsed == unhorsed)
    };
    let fell_back = MeleeEnd::FellBack {
        loser: AssaultSide::Defender,
        levels: 2,
    };
    let close = |a: f64, b: f64| assert!((a - b).abs() < 1e-12, "{a} against {b}");
    close(
        p(
            MeleeEnd::Destroyed {
                loser: AssaultSide::Attacker,
            },
            0,
        ),
        1.0 / 10.0,
    );
    close(p(fell_back, 1), 3.0 / 20.0);
    close(
        p(
            MeleeEnd::Destroyed {
                loser: AssaultSide::Defender,
            },
            0,
        ),
        13.0 / 20.0,
    );
    close(p(fell_back, 0), 1.0 / 10.0);
    // Scripted: foot 5 against the rider's 3; the D10 shows 6: the horse. The foot figure's test: 1.
    let out = m.roll(&mut ScriptedDice::faces([5, 3, 6, 1]));
    assert_eq!(out.end, fell_back);
    assert_eq!(
        (out.attacker_down, out.attacker_unhorsed, out.defender_down),
        (0, 1, 0)
    );
    assert!(
        out.to_string()
            .contains("1 attacking and 0 defending riders unhorsed")
    );
    // Against a mounted winner the horse is hit only on 1-4: a 5 is the rider.
    let m2 = Melee {
        defender: side(
            MeleeDie {
                mounted: true,
                ..MeleeDie::plain(D6)
            },
            20,
        ),
        ..m
    };
    let out = m2.roll(&mut ScriptedDice::faces([5, 3, 5]));
    assert_eq!(
        out.end,
        MeleeEnd::Destroyed {
            loser: AssaultSide::Attacker
        }
    );
}

// HT-MEL-12 in the battle: two Union riders (Regular D8, +1 mounted: D10) charge two Confederates on foot
// (D8). Round 1: defender 5 against rider 3 (the D10 shows 2: the horse; he fights on, on foot), 2 against
// 2. Both sides hold (8, 8). Round 2: the rider still mounted rolls D10, the one unhorsed D8 - 1 = D6 (a 7
// is no face of his die: the battle refuses and changes nothing); defender 5 against the mounted rider's 4
// (the D10 shows 8: the rider is down), 4 against the unhorsed rider's 5 (the defender down). Tie 1-1: the
// defender tests first at TL 1, T = 3: 2 fails one level; it falls back. Fates: 1 and 1, both dead. The
// rider who lost his horse stands, unhorsed.
#[test]
fn riders_in_a_melee_in_the_engine() {
    let mut b = acw_hardtack::Battle::new(Options::default());
    let mut cav =
        acw_hardtack::state::CompanySpec::new("1st Maine Cavalry", acw_core::Side::Union, 2);
    cav.cavalry = Some(true);
    let a = b.add_company(cav).unwrap();
    let r = b
        .add_company(acw_hardtack::state::CompanySpec::new(
            "8th Alabama, Company C",
            acw_core::Side::Confederate,
            2,
        ))
        .unwrap();
    b.activate(a).unwrap();
    assert!(b.assault(a, r, &mut ScriptedDice::faces([8])).unwrap());
    let stand = b
        .defend(
            DefenderChoice::Stand { final_fire: false },
            &mut ScriptedDice::faces([8]),
        )
        .unwrap();
    assert!(!stand.over);
    let script = |unhorsed_roll: u16| {
        ScriptedDice::faces([6, 5, 3, 2, 2, 2, 8, 8, 5, 4, 8, 4, unhorsed_roll, 2, 1, 1])
    };
    let before = b.clone();
    assert!(b.charge(6.0, &mut script(7)).is_err());
    assert_eq!(b, before);
    let mut dice = script(5);
    let rep = b.charge(6.0, &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert!(rep.over);
    assert!(
        rep.to_string()
            .contains("1 attacking and 0 defending riders unhorsed"),
        "{rep}"
    );
    let c = b.company(a).unwrap();
    let figs = c.figures();
    assert_eq!(
        (figs[0].condition, figs[0].unhorsed, figs[1].condition),
        (Condition::Fit, true, Condition::Dead)
    );
    let d = b.company(r).unwrap();
    assert_eq!(d.fit(), 1);
    assert_eq!(d.confidence(), ConfidenceLevel::Steady);
}

// HT-MEL-01, HT-MEL-15, HT-SG2-21, HT-FRM-09: a Regular line of 8 assaults 4
// skirmishers. Attack test T = 1: roll 2 passes. Stand test: odds 2 + 1 (charged by a line) = 3, T = 5:
// roll 6 holds. Combat move D4 (a line): 3 -> 6", contact; the attacker is disordered. Each defender faces
// two attackers and rolls 1 against 2, 2: all four defenders down, destroyed. Fates: 1 dead, 3 wounded,
// 5 and 6 stunned -> captured from the losers.
#[test]
fn an_assault_in_the_engine() {
    let (mut b, a, r) = two(
        Options::default(),
        (8, Formation::Line),
        (4, Formation::Skirmish),
    );
    assert!(b.assault(a, r, &mut ScriptedDice::faces([2])).unwrap());
    assert!(matches!(
        b.charge(6.0, &mut ScriptedDice::faces([3])),
        Err(RuleViolation::OutOfOrder(_))
    ));
    let stand = b
        .defend(
            DefenderChoice::Stand { final_fire: false },
            &mut ScriptedDice::faces([6]),
        )
        .unwrap();
    assert!(!stand.over);
    // HT-MEL-06: the combat move's D4 of 3 carries the line 6" into contact: the melee is fought (every
    // scripted face is drawn) and the assault is over.
    let mut dice = ScriptedDice::faces([3, 1, 2, 2, 1, 2, 2, 1, 2, 2, 1, 2, 2, 1, 3, 5, 6]);
    let rep = b.charge(6.0, &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert!(rep.over);
    let d = b.company(r).unwrap();
    let count = |c| d.figures().iter().filter(|f| f.condition == c).count();
    assert_eq!(
        (
            count(Condition::Dead),
            count(Condition::Wounded),
            count(Condition::Captured)
        ),
        (1, 1, 2)
    );
    // HT-MEL-11, HT-MEL-06: after the first round the line is in skirmish formation (disordered).
    assert_eq!(b.company(a).unwrap().formation(), Formation::Skirmish);
    assert_eq!(b.company(a).unwrap().actions_left(), 0);
    assert!(rep.to_string().contains("melee"));
}

// HT-MEL-07, HT-SG2-37: the attacker falls short (D4 1 = 2" of 6"); final defensive fire at 4": R 1 against
// Q 8 and FP 4 (4 skirmish muskets: D4): 12/4 = 3 hits; one kills. The attacker's casualty test (TL 1, roll
// 8 passes), then the reaction test at +1 (T = 3): roll 2 fails, it withdraws and takes the 1/0/NTR test.
#[test]
fn final_defensive_fire() {
    let (mut b, a, r) = two(
        Options::default(),
        (8, Formation::Line),
        (4, Formation::Skirmish),
    );
    b.assault(a, r, &mut ScriptedDice::faces([2])).unwrap();
    b.defend(
        DefenderChoice::Stand { final_fire: true },
        &mut ScriptedDice::faces([6]),
    )
    .unwrap();
    let mut dice = ScriptedDice::faces([1, 1, 8, 4, 2, 1, 2, 3, 4, 1, 4, 4, 2, 8, 2, 8]);
    let rep = b.charge(6.0, &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert!(rep.over);
    assert!(rep.steps.iter().any(|s| s.contains("withdraws")));
    assert_eq!(b.company(a).unwrap().dead(), 1);
    assert!(b.company(r).unwrap().needs_reload());
}

// HT-MEL-16, HT-SG2-36: a Broken defender routs without a test; a voluntary withdrawal ends the assault.
#[test]
fn broken_defender_and_withdrawal() {
    let (mut b, a, r) = two(
        Options::default(),
        (8, Formation::Line),
        (4, Formation::Skirmish),
    );
    // Break the defender: a minor result and a test roll of 1 (two levels), twice.
    b.fire(
        a,
        r,
        acw_hardtack::state::FireFacts {
            distance: 6.0,
            ..Default::default()
        },
        &mut ScriptedDice::faces([4, 7, 2, 1]),
    )
    .unwrap();
    b.end_turn().unwrap();
    b.activate(a).unwrap();
    b.reload(a).unwrap();
    b.end_turn().unwrap();
    b.activate(a).unwrap();
    b.fire(
        a,
        r,
        acw_hardtack::state::FireFacts {
            distance: 6.0,
            ..Default::default()
        },
        &mut ScriptedDice::faces([4, 7, 2, 2]),
    )
    .unwrap();
    assert_eq!(b.company(r).unwrap().confidence(), ConfidenceLevel::Broken);
    b.end_turn().unwrap();
    b.activate(a).unwrap();
    b.assault(a, r, &mut ScriptedDice::faces([8])).unwrap();
    let rep = b
        .defend(
            DefenderChoice::Stand { final_fire: true },
            &mut ScriptedDice::faces([]),
        )
        .unwrap();
    assert!(rep.over);
    assert_eq!(b.company(r).unwrap().confidence(), ConfidenceLevel::Routed);

    let (mut b, a, r) = two(
        Options::default(),
        (8, Formation::Line),
        (4, Formation::Skirmish),
    );
    b.assault(a, r, &mut ScriptedDice::faces([8])).unwrap();
    let rep = b
        .defend(DefenderChoice::Withdraw, &mut ScriptedDice::faces([]))
        .unwrap();
    assert!(rep.over);
    assert_eq!(
        b.company(r).unwrap().confidence(),
        ConfidenceLevel::Confident
    );
}

// HT-MEL-02: a failed attack test spends the first action only; a Shaken company is refused.
#[test]
fn failed_attack_test() {
    let (mut b, a, r) = two(
        Options::default(),
        (8, Formation::Line),
        (4, Formation::Skirmish),
    );
    assert!(!b.assault(a, r, &mut ScriptedDice::faces([1])).unwrap());
    assert_eq!(b.company(a).unwrap().actions_left(), 1);
    assert!(matches!(
        b.assault(a, r, &mut ScriptedDice::faces([8])),
        Err(RuleViolation::NoActionLeft { .. })
    ));
}

// The melee's dice and the tests run on a copy: a script that runs out leaves the battle as it was.
#[test]
fn assault_dice_fault_changes_nothing() {
    let (mut b, a, r) = two(
        Options::default(),
        (8, Formation::Line),
        (4, Formation::Skirmish),
    );
    b.assault(a, r, &mut ScriptedDice::faces([2])).unwrap();
    b.defend(
        DefenderChoice::Stand { final_fire: false },
        &mut ScriptedDice::faces([6]),
    )
    .unwrap();
    let before = b.clone();
    assert!(matches!(
        b.charge(6.0, &mut ScriptedDice::faces([3, 1])),
        Err(RuleViolation::Dice(_))
    ));
    assert_eq!(b, before);
}

// HT-SG2-42, HT-MEL-05: a combined assault. The first company fails its test (roll 1, T = 2); the second tests
// at +1 for the drop-out (T = 3): 4 passes and goes in alone, the first keeping one action.
#[test]
fn combined_assault_with_a_drop_out() {
    let (mut b, a1, a2, d) = common::combined_assault();
    assert_eq!(
        b.assault_together(&[a1, a2], d, &mut ScriptedDice::faces([1, 3]))
            .unwrap(),
        vec![false, false]
    );
    let (mut b, a1, a2, d) = common::combined_assault();
    assert_eq!(
        b.assault_together(&[a1, a2], d, &mut ScriptedDice::faces([1, 4]))
            .unwrap(),
        vec![false, true]
    );
    assert_eq!(b.company(a1).unwrap().actions_left(), 1);
    assert_eq!(b.company(a2).unwrap().actions_left(), 0);
}

// HT-SG2-42, HT-MEL-05, HT-SG2-38: two companies of 4 assault 4 together: both pass (8, 8); the stand test at
// the odds of 8 to 4 (TL 2, T = 4) holds on a 6; both reach contact (3, 3 on D6 for 6"); each defender faces two
// attackers and rolls 1 against 2, 2: all four are down. Fates 1, 3, 5, 6: dead, wounded, two captured.
#[test]
fn combined_assault_melee() {
    let (mut b, a1, a2, d) = common::combined_assault();
    assert_eq!(
        b.assault_together(&[a1, a2], d, &mut ScriptedDice::faces([8, 8]))
            .unwrap(),
        vec![true, true]
    );
    assert!(
        !b.defend(
            DefenderChoice::Stand { final_fire: false },
            &mut ScriptedDice::faces([6])
        )
        .unwrap()
        .over
    );
    assert!(b.charge_each(&[6.0], &mut ScriptedDice::faces([])).is_err());
    let mut dice = ScriptedDice::faces([3, 3, 1, 2, 2, 1, 2, 2, 1, 2, 2, 1, 2, 2, 1, 3, 5, 6]);
    let rep = b.charge_each(&[6.0, 6.0], &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert!(rep.to_string().contains("carry the position"), "{rep}");
    let dc = b.company(d).unwrap();
    let count = |c| dc.figures().iter().filter(|f| f.condition == c).count();
    assert_eq!(
        (
            count(Condition::Dead),
            count(Condition::Wounded),
            count(Condition::Captured)
        ),
        (1, 1, 2)
    );
    assert_eq!(b.company(a1).unwrap().formation(), Formation::Skirmish);
}

// HT-SG2-42, HT-SG2-40, HT-MEL-14: in a combined melee one company falls back and the other fights on at +1.
// Round 1: the first defender (5) downs A's first man and is downed by A's second (6); the rest tie. One
// casualty a side: the defender tests first (TL 1, 8 holds); A tests (TL 1, 2 fails) and falls back; B tests
// at 0 + 1 for the drop-out (4 holds). Round 2: B's four against the three defenders left, who roll 1s against
// 2s: all down. Fates: A's man stunned (5: back, his side won), the defenders 1, 3, 5, 6.
#[test]
fn combined_melee_with_a_company_falling_back() {
    let (mut b, a1, a2, d) = common::combined_assault();
    b.assault_together(&[a1, a2], d, &mut ScriptedDice::faces([8, 8]))
        .unwrap();
    b.defend(
        DefenderChoice::Stand { final_fire: false },
        &mut ScriptedDice::faces([6]),
    )
    .unwrap();
    let mut dice = ScriptedDice::faces([
        3, 3, // moves
        5, 1, 6, 4, 4, 4, 4, 4, 4, 4, 4, 4, // round 1
        8, 2, 4, // tests: D, A, B
        1, 2, 2, 1, 2, 1, 2, // round 2
        5, 1, 3, 5, 6, // fates
    ]);
    let rep = b.charge_each(&[6.0, 6.0], &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert!(rep.to_string().contains("A falls back"), "{rep}");
    assert!(rep.to_string().contains("carry the position"), "{rep}");
    assert_eq!(
        b.company(a1).unwrap().confidence(),
        acw_hardtack::tables::ConfidenceLevel::Steady
    );
    assert_eq!(b.company(a1).unwrap().fit(), 4);
    assert_eq!(b.company(d).unwrap().fit(), 0);
}

// HT-SG2-42, HT-MEL-05, HT-SG2-40: the combined melee's exact procedure plays what the battle plays. The
// melee dice of the battle's combined melee above (A falls back, B cuts the defenders down) given to
// `CombinedMelee` give the same end: the attackers carry the position with one figure down against four, and
// one company fell back. Its exact odds for two companies of four against four Regulars: the attackers win
// more often than not, and the odds sum to one.
#[test]
fn combined_melee_procedure_matches_the_battle() {
    let side = MeleeSide {
        figures: 4,
        first_round: MeleeDie::plain(D8),
        quality: D8,
        lv: Leadership::TWO,
        modifier: 0,
        on_foot: 0,
    };
    let melee = CombinedMelee::new(
        &[side, side],
        side,
        Options::default().assault_test_casualties,
        Options::default().confidence_two_level,
        false,
    )
    .unwrap();
    let mut dice = ScriptedDice::faces([
        5, 1, 6, 4, 4, 4, 4, 4, 4, 4, 4, 4, // round 1
        8, 2, 4, // tests: D, A, B
        1, 2, 2, 1, 2, 1, 2, // round 2
    ]);
    let out = melee.roll(&mut dice);
    assert_eq!(dice.remaining(), 0);
    assert_eq!(
        out,
        CombinedOutcome {
            winner: Some(AssaultSide::Attacker),
            attacker_down: 1,
            defender_down: 4,
            fell_back: 1,
            attacker_unhorsed: 0,
            defender_unhorsed: 0,
        }
    );
    assert!(out.to_string().contains("carry the position"));

    // The same in the battle: the moves first (3, 3), then the same melee dice, then five fates.
    let (mut b, a1, a2, d) = common::combined_assault();
    b.assault_together(&[a1, a2], d, &mut ScriptedDice::faces([8, 8]))
        .unwrap();
    b.defend(
        DefenderChoice::Stand { final_fire: false },
        &mut ScriptedDice::faces([6]),
    )
    .unwrap();
    let mut dice = ScriptedDice::faces([
        3, 3, 5, 1, 6, 4, 4, 4, 4, 4, 4, 4, 4, 4, 8, 2, 4, 1, 2, 2, 1, 2, 1, 2, 5, 1, 3, 5, 6,
    ]);
    b.charge_each(&[6.0, 6.0], &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert_eq!(b.company(d).unwrap().fit(), 0);
    assert_eq!(b.company(a1).unwrap().confidence(), ConfidenceLevel::Steady);

    // The whole assault as one procedure, with the battle's dice from the attackers' tests on: both pass
    // (8, 8); the stand at the odds of 8 to 4 (TL 2, T = 4) holds on 6; both move 6" (3, 3); the melee.
    let partner = Partner {
        attack: ReactionTest {
            quality: D8,
            lv: Leadership::TWO,
            tl: 0,
        },
        close_formation: false,
        mounted: false,
        approach: CombatMove::new(D6, 6.0).unwrap(),
        melee: side,
        armour: acw_hardtack::DieType::D4,
        leader: Some(0),
        on_foot_at: 0,
    };
    let assault = CombinedAssault::new(
        &[partner, partner],
        Some(ConfidenceTest {
            quality: D8,
            lv: Leadership::TWO,
            tl: 0,
            two_level: melee.two_level,
        }),
        false,
        side,
        melee.casualties,
        melee.two_level,
    )
    .unwrap();
    let mut dice = ScriptedDice::faces([
        8, 8, 6, 3, 3, 5, 1, 6, 4, 4, 4, 4, 4, 4, 4, 4, 4, 8, 2, 4, 1, 2, 2, 1, 2, 1, 2,
    ]);
    assert_eq!(assault.roll(&mut dice), CombinedEnd::Melee(out));
    assert_eq!(dice.remaining(), 0);

    let odds = melee.odds();
    let total: f64 = odds.outcomes().iter().map(|(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-9);
    assert!(odds.prob(|o| o.winner == Some(AssaultSide::Attacker)) > 0.5);
    // Refusals: no attackers, five, or an empty side.
    assert!(CombinedMelee::new(&[], side, melee.casualties, melee.two_level, false).is_err());
    assert!(
        CombinedMelee::new(&[side; 5], side, melee.casualties, melee.two_level, false).is_err()
    );
    let empty = MeleeSide { figures: 0, ..side };
    assert!(CombinedMelee::new(&[side], empty, melee.casualties, melee.two_level, false).is_err());
}

// HT-SG2-40, HT-SG2-42: who tests first counts every attacking company that fought the round, one just cut
// down included. A and B, one man each, against one defender: the defender rolls 2, A's man 1 (down), B's 2
// (a tie). One attacking casualty to none: the attackers test first, and B alone is left to test — at TL 0, a
// 1 loses two levels and he falls back. The defenders hold without testing.
#[test]
fn a_company_cut_down_counts_for_who_tests_first() {
    let mut b = acw_hardtack::Battle::new(Options::default());
    let mut add = |name: &str, side| {
        b.add_company(acw_hardtack::state::CompanySpec::new(name, side, 1))
            .unwrap()
    };
    let a1 = add("A", acw_core::Side::Union);
    let a2 = add("B", acw_core::Side::Union);
    let d = add("D", acw_core::Side::Confederate);
    b.assault_together(&[a1, a2], d, &mut ScriptedDice::faces([8, 8]))
        .unwrap();
    b.defend(
        DefenderChoice::Stand { final_fire: false },
        &mut ScriptedDice::faces([6]),
    )
    .unwrap();
    let mut dice = ScriptedDice::faces([3, 3, 2, 1, 2, 1, 1, 1, 1, 1]);
    let rep = b.charge_each(&[6.0, 6.0], &mut dice).unwrap();
    assert!(rep.to_string().contains("B falls back"), "{rep}");
    assert!(rep.to_string().contains("the defenders hold"), "{rep}");
    assert_eq!(b.company(a2).unwrap().confidence(), ConfidenceLevel::Shaken);
    assert_eq!(
        b.company(d).unwrap().confidence(),
        ConfidenceLevel::Confident
    );
}

// HT-SG2-42, HT-MEL-05: over many seeded melees of two companies (1 to 4 men each) against 1 to 4, the exact
// procedure's roll and the battle's combined melee, fed the same faces, agree on who carries the fight and
// how many companies fell back.
#[test]
fn combined_melee_procedure_follows_the_battle_on_many_seeds() {
    use acw_core::{Dice, GameRng};
    let o = Options::default();
    let mut compared = 0;
    for seed in 0..150u64 {
        let (n1, n2, nd) = (1 + seed % 4, 1 + (seed / 4) % 4, 1 + (seed / 16) % 4);
        let mut b = acw_hardtack::Battle::new(o);
        let mut add = |name: &str, side, n: u64| {
            b.add_company(acw_hardtack::state::CompanySpec::new(
                name,
                side,
                usize::try_from(n).unwrap(),
            ))
            .unwrap()
        };
        let a1 = add("A", acw_core::Side::Union, n1);
        let a2 = add("B", acw_core::Side::Union, n2);
        let d = add("D", acw_core::Side::Confederate, nd);
        b.assault_together(&[a1, a2], d, &mut ScriptedDice::faces([8, 8]))
            .unwrap();
        // at long odds an 8 does not hold: that defender withdraws and there is no melee to compare
        if b.defend(
            DefenderChoice::Stand { final_fire: false },
            &mut ScriptedDice::faces([8]),
        )
        .unwrap()
        .over
        {
            continue;
        }
        let rep = b
            .charge_each(&[0.0, 0.0], &mut GameRng::seed(seed))
            .unwrap()
            .to_string();

        let side = |n: u64| MeleeSide {
            figures: u8::try_from(n).unwrap(),
            first_round: MeleeDie::plain(D8),
            quality: D8,
            lv: Leadership::TWO,
            modifier: 0,
            on_foot: 0,
        };
        let melee = CombinedMelee::new(
            &[side(n1), side(n2)],
            side(nd),
            o.assault_test_casualties,
            o.confidence_two_level,
            false,
        )
        .unwrap();
        let mut rng = GameRng::seed(seed);
        // the two combat moves (D6 each) come first
        rng.face(acw_core::Die::D6);
        rng.face(acw_core::Die::D6);
        let out = melee.roll(&mut rng);
        let carried = rep.contains("carry the position");
        assert_eq!(
            out.winner == Some(AssaultSide::Attacker),
            carried,
            "seed {seed}: {out} / {rep}"
        );
        let fell =
            usize::from(rep.contains("A falls back")) + usize::from(rep.contains("B falls back"));
        assert_eq!(
            usize::from(out.fell_back),
            fell,
            "seed {seed}: {out} / {rep}"
        );
        compared += 1;
    }
    assert!(compared > 120, "only {compared} melees compared");
}

/// Two mounted Union companies of one Regular each (A, B) and a Confederate company of one Regular on foot
/// (D): both pass their attack tests (8, 8), D stands (8).
fn riders_together() -> (acw_hardtack::Battle, [acw_hardtack::state::CompanyId; 3]) {
    let mut b = acw_hardtack::Battle::new(Options::default());
    let mut add = |name: &str, side, mounted| {
        let mut spec = acw_hardtack::state::CompanySpec::new(name, side, 1);
        spec.cavalry = mounted;
        b.add_company(spec).unwrap()
    };
    let a1 = add("A", acw_core::Side::Union, Some(true));
    let a2 = add("B", acw_core::Side::Union, Some(true));
    let d = add("D", acw_core::Side::Confederate, None);
    b.assault_together(&[a1, a2], d, &mut ScriptedDice::faces([8, 8]))
        .unwrap();
    b.defend(
        DefenderChoice::Stand { final_fire: false },
        &mut ScriptedDice::faces([8]),
    )
    .unwrap();
    (b, [a1, a2, d])
}

// HT-MEL-12 in a combined melee, in the battle: riders A and B (Regular D8, +1 mounted: D10) against D on
// foot (D8). Both move (6, 6). Round 1: D's 6 against A's 3 (A beaten by a man on foot: the D10 shows 2, his
// horse; he stands, on foot, and is no casualty) and B's 6 (a tie). No casualties: D tests first and holds
// (8), then A and B (8, 8). Round 2: A on foot rolls D8 - 1 = D6 (a 7 is no face of it: the battle refuses
// and changes nothing), B still mounted D10; D's 5 against A's 6 and B's 7: D is down, the attackers carry
// the position; D's fate 1, dead. `CombinedMelee` given the same melee dice ends the same way, with one
// attacking rider on foot.
#[test]
fn riders_in_a_combined_melee_in_the_engine() {
    let (mut b, [a1, a2, d]) = riders_together();
    let script =
        |a_round2: u16| ScriptedDice::faces([6, 6, 6, 3, 2, 6, 8, 8, 8, 5, a_round2, 7, 1]);
    let before = b.clone();
    assert!(b.charge_each(&[6.0, 6.0], &mut script(7)).is_err());
    assert_eq!(b, before);
    let mut dice = script(6);
    let rep = b.charge_each(&[6.0, 6.0], &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert!(
        rep.to_string().contains("a rider of A loses his horse"),
        "{rep}"
    );
    assert!(
        rep.to_string().contains("the attackers carry the position"),
        "{rep}"
    );
    let a = b.company(a1).unwrap();
    assert_eq!(
        (a.figures()[0].condition, a.figures()[0].unhorsed),
        (Condition::Fit, true)
    );
    assert!(!b.company(a2).unwrap().figures()[0].unhorsed);
    assert_eq!(
        b.company(d).unwrap().figures()[0].condition,
        Condition::Dead
    );

    let rider = MeleeSide {
        figures: 1,
        first_round: MeleeDie {
            mounted: true,
            ..MeleeDie::plain(D8)
        },
        quality: D8,
        lv: Leadership::TWO,
        modifier: 0,
        on_foot: 0,
    };
    let foot = MeleeSide {
        first_round: MeleeDie::plain(D8),
        ..rider
    };
    let melee = CombinedMelee::new(
        &[rider, rider],
        foot,
        Options::default().assault_test_casualties,
        Options::default().confidence_two_level,
        false,
    )
    .unwrap();
    let mut dice = ScriptedDice::faces([6, 3, 2, 6, 8, 8, 8, 5, 6, 7]);
    assert_eq!(
        melee.roll(&mut dice),
        CombinedOutcome {
            winner: Some(AssaultSide::Attacker),
            attacker_down: 0,
            defender_down: 1,
            fell_back: 0,
            attacker_unhorsed: 1,
            defender_unhorsed: 0,
        }
    );
    assert_eq!(dice.remaining(), 0);
}

// HT-MEL-12: a rider unhorsed in an earlier melee fights the next one on foot. After the combined melee above,
// rider A (on foot, unhorsed) assaults a fresh Confederate E of one Regular in the next turn: attack test 8,
// stand 8, move 6. In the melee A rolls a plain D8 (no mounted +1; the -1 was for the round after the horse
// hit only): a 9 is no face of it (refused, nothing changes); E's 5 against A's 8: E is down, fate 1.
#[test]
fn a_rider_unhorsed_earlier_fights_on_foot() {
    let (mut b, [a1, _, d]) = riders_together();
    b.charge_each(
        &[6.0, 6.0],
        &mut ScriptedDice::faces([6, 6, 6, 3, 2, 6, 8, 8, 8, 5, 6, 7, 1]),
    )
    .unwrap();
    assert_eq!(b.company(d).unwrap().fit(), 0);
    b.end_turn().unwrap();
    let e = b
        .add_company(acw_hardtack::state::CompanySpec::new(
            "E",
            acw_core::Side::Confederate,
            1,
        ))
        .unwrap();
    b.activate(a1).unwrap();
    assert!(b.assault(a1, e, &mut ScriptedDice::faces([8])).unwrap());
    b.defend(
        DefenderChoice::Stand { final_fire: false },
        &mut ScriptedDice::faces([8]),
    )
    .unwrap();
    let before = b.clone();
    assert!(
        b.charge(6.0, &mut ScriptedDice::faces([6, 5, 9, 1]))
            .is_err()
    );
    assert_eq!(b, before);
    let mut dice = ScriptedDice::faces([6, 5, 8, 1]);
    let rep = b.charge(6.0, &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert!(rep.over);
    assert_eq!(b.company(e).unwrap().fit(), 0);
    assert!(b.company(a1).unwrap().figures()[0].unhorsed);
}

// HT-MEL-07, HT-SG2-42: final defensive fire in the exact combined assault follows the battle. Two Regular
// companies of four charge a Regular company of four that stands with final defensive fire, the first from
// 10" (its D6 move may fall short: the fire goes at it over what it has left), the second from 6". Over many
// seeds the procedure's roll, fed the battle's faces (the attack tests 8, 8 and the stand 8, then the same
// seeded dice), ends as the battle does: the attackers carry the position, the defenders hold, or no melee;
// the fire falls in most of them and each side wins some.
#[test]
fn final_defensive_fire_in_the_exact_combined_assault() {
    let (fired_on, kinds) = replay_combined_assault(Attackers::Foot);
    assert!(
        fired_on > 40 && kinds[0] > 0 && kinds[1] > 0,
        "{fired_on} {kinds:?}"
    );
}

// HT-MEL-07, HT-SET-04, HT-CAS-03, HT-SG2-33: the same with the first company eight cavalrymen dismounted
// (six go in, two hold the horses: the fire falls on the six), and then five riders charging from 10", the
// second and the fourth already on foot (the fire counts along them as they stand): the procedure ends as
// the battle does, the fire falling in many seeds and each side winning some.
#[test]
fn final_defensive_fire_at_cavalry_in_the_exact_combined_assault() {
    for kind in [Attackers::Dismounted, Attackers::RidersPartlyOnFoot] {
        let (fired_on, kinds) = replay_combined_assault(kind);
        assert!(
            fired_on > 20 && kinds[0] > 0 && kinds[1] > 0,
            "{fired_on} {kinds:?}"
        );
    }
}

/// Plays a combined assault of `kind`'s company A (from 10") and a Regular company B of four (from 6") on a
/// Regular company of four standing with final defensive fire, in the battle and in the exact
/// [`CombinedAssault`] fed the same faces, over 120 seeds; checks each ends alike and returns how often the
/// fire fell and how often [the attackers won, the defenders held, no melee].
fn replay_combined_assault(kind: Attackers) -> (usize, [usize; 3]) {
    use acw_core::dice::{Ask, Scripted, TableDice};
    use acw_core::{Dice, GameRng};
    use acw_hardtack::tables::Mover;
    let o = Options::default();
    let spec = |name: &str, side| acw_hardtack::state::CompanySpec::new(name, side, 4);
    let rebel = spec("D", acw_core::Side::Confederate);
    let fire = acw_hardtack::melee::FinalFire {
        firepower: acw_hardtack::fire::FirepowerFacts {
            quality: rebel.quality.die(),
            half_fp: 4 * rebel.weapon.half_fp(),
            skirmish: true,
            first_volley: false,
            spill: None,
        },
        band_inches: rebel.quality.band_inches(),
        impact: rebel.weapon.arm.impact(),
        options: o,
    };
    let side = MeleeSide {
        figures: 4,
        first_round: MeleeDie::plain(D8),
        quality: D8,
        lv: Leadership::TWO,
        modifier: 0,
        on_foot: 0,
    };
    let partner = |distance| Partner {
        attack: ReactionTest {
            quality: D8,
            lv: Leadership::TWO,
            tl: 0,
        },
        close_formation: false,
        mounted: false,
        approach: CombatMove::new(D6, distance).unwrap(),
        melee: side,
        armour: D4,
        leader: Some(0),
        on_foot_at: 0,
    };
    let mounted = kind == Attackers::RidersPartlyOnFoot;
    let (figures, fighters, on_foot, on_foot_at) = match kind {
        Attackers::Foot | Attackers::Riders => (4, 4, 0, 0),
        Attackers::Dismounted => (8, 6, 0, 0),
        Attackers::RidersPartlyOnFoot => (5, 5, 2, 0b01010),
    };
    let mut first = acw_hardtack::state::CompanySpec::new("A", acw_core::Side::Union, figures);
    if kind != Attackers::Foot {
        first.cavalry = Some(true);
    }
    if mounted {
        first.melee = MeleeWeapon::Sword;
    }
    let mover = if mounted {
        Mover::MountedCavalry
    } else {
        Mover::Infantry
    };
    let a = Partner {
        mounted,
        approach: CombatMove::new(mover.shifted_die(false, false).unwrap(), 10.0).unwrap(),
        melee: MeleeSide {
            figures: fighters,
            first_round: MeleeDie {
                mounted,
                weapon: first.melee,
                ..MeleeDie::plain(D8)
            },
            on_foot,
            ..side
        },
        on_foot_at,
        ..partner(10.0)
    };
    let assault = CombinedAssault::new(
        &[a, partner(6.0)],
        Some(ConfidenceTest {
            quality: D8,
            lv: Leadership::TWO,
            tl: 0,
            two_level: o.confidence_two_level,
        }),
        false,
        side,
        o.assault_test_casualties,
        o.confidence_two_level,
    )
    .unwrap()
    .with_final_fire(fire);
    let (mut fired_on, mut kinds) = (0, [0; 3]);
    for seed in 0..120u64 {
        let mut b = acw_hardtack::Battle::new(o);
        let a1 = b.add_company(first.clone()).unwrap();
        let a2 = b.add_company(spec("B", acw_core::Side::Union)).unwrap();
        let d = b.add_company(rebel.clone()).unwrap();
        the_turn_before(kind, &mut b, a1, &rebel);
        b.assault_together(&[a1, a2], d, &mut ScriptedDice::faces([8, 8]))
            .unwrap();
        let stand = b
            .defend(
                DefenderChoice::Stand { final_fire: true },
                &mut ScriptedDice::faces([8]),
            )
            .unwrap();
        assert!(!stand.over);
        let rep = b
            .charge_each(&[10.0, 6.0], &mut GameRng::seed(seed))
            .unwrap()
            .to_string();

        let mut rng = GameRng::seed(seed);
        let mut asked = 0;
        let mut dice = TableDice::new(|ask| {
            asked += 1;
            match ask {
                Ask::Face(_) if asked <= 3 => Some(Scripted::Face(8)),
                Ask::Face(die) => Some(Scripted::Face(rng.face(die))),
                Ask::Index(n) => Some(Scripted::Index(rng.index(n))),
                Ask::Card(_) => None,
            }
        });
        let end = assault.roll(&mut dice);
        let attackers = [
            "carry the position",
            "the defender falls back",
            "the defender has every",
        ];
        let defenders = [
            "the defenders hold",
            "the attacker falls back",
            "the attacker has every",
        ];
        let (won, held) = (
            attackers.iter().any(|s| rep.contains(s)),
            defenders.iter().any(|s| rep.contains(s)),
        );
        let end_kind = match end {
            CombinedEnd::Melee(out) if out.winner == Some(AssaultSide::Attacker) => 0,
            CombinedEnd::Melee(out) if out.winner == Some(AssaultSide::Defender) => 1,
            _ => 2,
        };
        assert_eq!(
            (won, held),
            (end_kind == 0, end_kind == 1),
            "seed {seed}: {end} / {rep}"
        );
        kinds[end_kind] += 1;
        fired_on += usize::from(rep.contains("final defensive fire"));
    }
    (fired_on, kinds)
}

/// The attacking company of [`replay_single_assault`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Attackers {
    /// Six on foot.
    Foot,
    /// Six riders.
    Riders,
    /// Eight cavalrymen dismounted: six go in, and the last two hold the horses.
    Dismounted,
    /// Five riders, the second and the fourth already on foot (their horses hit by an earlier fire).
    RidersPartlyOnFoot,
}

/// The battle before the assault: the attacker and the defender, the attacker activated with both actions.
/// A dismounted company dismounted in the turn before; riders partly on foot lost their horses to a fire in
/// the turn before, by another Confederate company 6" off (a D4): R 1, Q 4, FP 4, a major result, 8/4 = 2
/// potential hits; the first on the second rider (D6 2): armour 2 against impact 3 wounds, the D10 1 hits
/// his horse and its D6 3 wounds it; the second on the fourth (D6 4): armour 2, impact 3, D10 1, D6 1, the
/// horse dead. Both stand on foot, unhurt; the company's tests then roll the highest faces and pass.
fn before_the_assault(
    kind: Attackers,
    attacker: &acw_hardtack::state::CompanySpec,
    rebel: &acw_hardtack::state::CompanySpec,
) -> (
    acw_hardtack::Battle,
    acw_hardtack::CompanyId,
    acw_hardtack::CompanyId,
) {
    let mut b = acw_hardtack::Battle::new(Options::default());
    let a = b.add_company(attacker.clone()).unwrap();
    let d = b.add_company(rebel.clone()).unwrap();
    the_turn_before(kind, &mut b, a, rebel);
    b.activate(a).unwrap();
    (b, a, d)
}

/// What `kind`'s company `a` did in the turn before, as [`before_the_assault`] says; checks its riders on
/// foot and that every figure is fit.
fn the_turn_before(
    kind: Attackers,
    b: &mut acw_hardtack::Battle,
    a: acw_hardtack::CompanyId,
    rebel: &acw_hardtack::state::CompanySpec,
) {
    use acw_core::dice::{Ask, Scripted, TableDice};
    match kind {
        Attackers::Foot | Attackers::Riders => {}
        Attackers::Dismounted => {
            b.activate(a).unwrap();
            b.dismount(a, false, Formation::Skirmish).unwrap();
            b.end_turn().unwrap();
        }
        Attackers::RidersPartlyOnFoot => {
            let mut other = rebel.clone();
            other.name = "8th Alabama, Company D".into();
            let f = b.add_company(other).unwrap();
            b.activate(f).unwrap();
            let mut script = [1u16, 4, 4, 2, 2, 3, 1, 3, 4, 2, 3, 1, 1].into_iter();
            let mut dice = TableDice::new(|ask| match ask {
                Ask::Face(die) => Some(Scripted::Face(script.next().unwrap_or(die.sides()))),
                _ => None,
            });
            let rep = b
                .fire(
                    f,
                    a,
                    acw_hardtack::state::FireFacts {
                        distance: 6.0,
                        ..acw_hardtack::state::FireFacts::default()
                    },
                    &mut dice,
                )
                .unwrap();
            assert_eq!(rep.effect.potential, 2, "{rep}");
            b.end_turn().unwrap();
        }
    }
    let figs = b.company(a).unwrap().figures();
    let on_foot: Vec<bool> = figs.iter().map(|f| f.unhorsed).collect();
    let want = kind == Attackers::RidersPartlyOnFoot;
    assert_eq!(
        on_foot,
        (0..figs.len())
            .map(|i| want && (i == 1 || i == 3))
            .collect::<Vec<_>>()
    );
    assert!(figs.iter().all(|f| f.condition == Condition::Fit));
}

/// Plays one company's assault on a defender standing with final defensive fire, in the battle (attack test
/// and stand test rolled 8, then `seed`'s dice) and in the exact [`CloseAssault`] built from the same
/// companies, fed the same faces, over 150 seeds; checks each seed ends alike and returns how often each end
/// came: [melee after the fire hit, faltered, fell short, fire unhorsed a rider].
fn replay_single_assault(kind: Attackers, distance: f64) -> [usize; 4] {
    replay_single_assault_short(kind, distance, acw_hardtack::melee::AtShort::StayMidDash)
}

/// [`replay_single_assault`] with the attacker's choice when still short after its second move: staying
/// mid-dash, or aborting (the battle's `abort_dash`, rolled on with the same seed's dice).
fn replay_single_assault_short(
    kind: Attackers,
    distance: f64,
    at_short: acw_hardtack::melee::AtShort,
) -> [usize; 4] {
    use acw_core::dice::{Ask, Scripted, TableDice};
    use acw_core::{Dice, GameRng};
    use acw_hardtack::melee::{AssaultEnd, AssaultFire, CloseAssault, FinalFire};
    use acw_hardtack::state::CompanySpec;
    use acw_hardtack::tables::Mover;
    let o = Options::default();
    let mounted = matches!(kind, Attackers::Riders | Attackers::RidersPartlyOnFoot);
    let (figures, fighters, on_foot, on_foot_at) = match kind {
        Attackers::Foot | Attackers::Riders => (6, 6, 0, 0),
        Attackers::Dismounted => (8, 6, 0, 0),
        Attackers::RidersPartlyOnFoot => (5, 5, 2, 0b01010),
    };
    let mut attacker = CompanySpec::new(
        "1st Vermont Cavalry, Company B",
        acw_core::Side::Union,
        figures,
    );
    if kind != Attackers::Foot {
        attacker.cavalry = Some(true);
    }
    if mounted {
        attacker.melee = MeleeWeapon::Sword;
    }
    let rebel = CompanySpec::new("8th Alabama, Company C", acw_core::Side::Confederate, 4);
    let mover = if mounted {
        Mover::MountedCavalry
    } else {
        Mover::Infantry
    };
    let assault = CloseAssault {
        at_short,
        attack: ReactionTest {
            quality: D8,
            lv: Leadership::TWO,
            tl: 0,
        },
        stand: Some(ConfidenceTest {
            quality: D8,
            lv: Leadership::TWO,
            tl: 0,
            two_level: o.confidence_two_level,
        }),
        approach: CombatMove::new(mover.shifted_die(false, false).unwrap(), distance).unwrap(),
        melee: Melee {
            attacker: MeleeSide {
                figures: fighters,
                first_round: MeleeDie {
                    mounted,
                    weapon: attacker.melee,
                    ..MeleeDie::plain(D8)
                },
                quality: D8,
                lv: Leadership::TWO,
                modifier: 0,
                on_foot,
            },
            defender: MeleeSide {
                figures: 4,
                first_round: MeleeDie::plain(D8),
                quality: D8,
                lv: Leadership::TWO,
                modifier: 0,
                on_foot: 0,
            },
            casualties: o.assault_test_casualties,
            two_level: o.confidence_two_level,
        },
        final_fire: Some(AssaultFire {
            fire: FinalFire {
                firepower: acw_hardtack::fire::FirepowerFacts {
                    quality: rebel.quality.die(),
                    half_fp: 4 * rebel.weapon.half_fp(),
                    skirmish: true,
                    first_volley: false,
                    spill: None,
                },
                band_inches: rebel.quality.band_inches(),
                impact: rebel.weapon.arm.impact(),
                options: o,
            },
            armour: attacker.armour.die(),
            leader: Some(0),
            on_foot_at,
        }),
    };
    let mut seen = [0; 4];
    for seed in 0..150u64 {
        let (mut b, a, d) = before_the_assault(kind, &attacker, &rebel);
        assert!(b.assault(a, d, &mut ScriptedDice::faces([8])).unwrap());
        b.defend(
            DefenderChoice::Stand { final_fire: true },
            &mut ScriptedDice::faces([8]),
        )
        .unwrap();
        let mut battle_dice = GameRng::seed(seed);
        let rep = b.charge(distance, &mut battle_dice).unwrap();
        let mut steps = rep.steps.join(" / ");
        if at_short != acw_hardtack::melee::AtShort::StayMidDash
            && matches!(
                b.short_of_contact(),
                Some((_, _, acw_hardtack::state::ShortOfContact::StillShort { .. }))
            )
        {
            steps.push_str(" / ");
            steps.push_str(&b.abort_dash(&mut battle_dice).unwrap());
        }

        let mut rng = GameRng::seed(seed);
        let mut asked = 0;
        let mut dice = TableDice::new(|ask| {
            asked += 1;
            match ask {
                Ask::Face(_) if asked <= 2 => Some(Scripted::Face(8)),
                Ask::Face(die) => Some(Scripted::Face(rng.face(die))),
                Ask::Index(n) => Some(Scripted::Index(rng.index(n))),
                Ask::Card(_) => None,
            }
        });
        let end = assault.roll(&mut dice);
        let c = b.company(a).unwrap();
        let down = c.figures().len() - c.fit();
        // riders the fire unhorsed: those on foot and standing who were not before
        let on_foot = c
            .figures()
            .iter()
            .enumerate()
            .filter(|&(i, f)| {
                f.unhorsed && f.condition == Condition::Fit && on_foot_at >> i & 1 == 0
            })
            .count();
        match end {
            AssaultEnd::Melee { fire, melee } => {
                assert!(
                    rep.steps.contains(&format!("melee: {melee}")),
                    "seed {seed}: {end} / {steps}"
                );
                seen[0] += usize::from(fire.casualties > 0);
                seen[3] += usize::from(fire.unhorsed > 0);
            }
            AssaultEnd::Faltered { fire } | AssaultEnd::FellShort { fire } => {
                let (said, k) = if matches!(end, AssaultEnd::Faltered { .. }) {
                    ("falters and withdraws", 1)
                } else {
                    ("is still short of contact", 2)
                };
                assert!(steps.contains(said), "seed {seed}: {end} / {steps}");
                assert_eq!(
                    (down, on_foot),
                    (usize::from(fire.casualties), usize::from(fire.unhorsed))
                );
                seen[k] += 1;
                seen[3] += usize::from(fire.unhorsed > 0);
            }
            AssaultEnd::Aborted { fire, test } => {
                let said = match test {
                    Some(t) => format!("aborts the assault: it {t} its test at TL 0"),
                    None => "aborts the assault and withdraws".to_string(),
                };
                assert!(steps.contains(&said), "seed {seed}: {end} / {steps}");
                assert_eq!(
                    (down, on_foot),
                    (usize::from(fire.casualties), usize::from(fire.unhorsed))
                );
                seen[2] += 1;
                seen[3] += usize::from(test.is_some_and(|t| t != Confidence::Pass));
            }
            other => panic!("seed {seed}: {other} / {steps}"),
        }
    }
    seen
}

// HT-MEL-01, HT-MEL-07: the exact single-company assault plays final defensive fire as the battle does. Six
// Regulars charge four from 10" (a D6 doubled, short on 1-4); over 150 seeds the procedure, fed the battle's
// faces, ends as the battle does: the same melee (its end and each side's figures down), or the company
// faltering under the fire or still short after its second move with the same men down. Each end comes up.
#[test]
fn final_defensive_fire_in_the_exact_close_assault() {
    let [hit_then_melee, faltered, short, _] = replay_single_assault(Attackers::Foot, 10.0);
    assert!(
        hit_then_melee > 0 && faltered > 0 && short > 0,
        "{hit_then_melee} {faltered} {short}"
    );
}

// HT-SG2-37, HT-MEL-07: the same six Regulars from 10", their side aborting the assault whenever they are
// still short after the second move: the battle's abort (the 1/0/NTR test in place of suppression, a
// Medium company in skirmish order at TL 0) and the exact procedure's `AtShort::Abort` at TL 0, fed the
// same faces, give the same test result and the same men down to the fire. Aborts that pass and aborts
// that fail both come up, as do the melee and a company faltering under the fire.
#[test]
fn the_abort_test_in_the_exact_close_assault() {
    let [hit_then_melee, faltered, aborted, failed] = replay_single_assault_short(
        Attackers::Foot,
        10.0,
        acw_hardtack::melee::AtShort::Abort {
            tl: Some(0),
            two_level: Options::default().confidence_two_level,
        },
    );
    assert!(
        hit_then_melee > 0 && faltered > 0 && aborted > failed && failed > 0,
        "{hit_then_melee} {faltered} {aborted} {failed}"
    );
}

// HT-MEL-07, HT-CAS-03: the same with six riders charging from 20" (a D12 doubled): the fire's hits on them
// roll horse or rider in the battle and in the procedure alike, and riders whose horse fell stand on foot.
#[test]
fn final_defensive_fire_at_riders_in_the_exact_close_assault() {
    let [hit_then_melee, _, short, unhorsed] = replay_single_assault(Attackers::Riders, 20.0);
    assert!(
        hit_then_melee > 0 && short > 0 && unhorsed > 0,
        "{hit_then_melee} {short} {unhorsed}"
    );
}

// HT-MEL-07, HT-SET-04, HT-MEL-13: the same with a company of eight cavalrymen dismounted, two of them horse holders:
// six go in on foot from 10", and the fire falls on those six only, in the battle and in the procedure alike
// (holders take no part in an assault their company makes); each end comes up.
#[test]
fn final_defensive_fire_at_a_dismounted_company_in_the_exact_close_assault() {
    let [hit_then_melee, faltered, short, unhorsed] =
        replay_single_assault(Attackers::Dismounted, 10.0);
    assert!(
        hit_then_melee > 0 && faltered > 0 && short > 0 && unhorsed == 0,
        "{hit_then_melee} {faltered} {short} {unhorsed}"
    );
}

// HT-MEL-07, HT-CAS-03, HT-SG2-33: the same with five riders charging from 20", the second and the fourth
// already on foot. Five figures take the D6 allocation die, whose 6 wraps to the first: the fire counts
// along the riders as they stand, the two on foot among them, in the battle and in the procedure alike; a
// hit on one on foot rolls no horse or rider. Each end comes up, and fire unhorses a rider still mounted.
#[test]
fn final_defensive_fire_at_riders_partly_on_foot_in_the_exact_close_assault() {
    let [hit_then_melee, _, short, unhorsed] =
        replay_single_assault(Attackers::RidersPartlyOnFoot, 20.0);
    assert!(
        hit_then_melee > 0 && short > 0 && unhorsed > 0,
        "{hit_then_melee} {short} {unhorsed}"
    );
}

// HT-MEL-07, HT-CAS-03, HT-CAS-04: final defensive fire at mounted attackers rolls horse or rider. Six
// riders charge from 20": a D12 of 1 moves 2", leaving 18" (band 3 of the defender's 8": a D8 range die).
// The fire, D8 + D4 (four muskets in skirmish order), rolls range 1, 8 and 4: a major result, 12/8 = 1
// potential hit and 4 over, and the extra D8 of 1 (4 or less) makes 2. The first falls on the second rider
// (D6 allocation 2): armour 1 and a D6 impact of 5 kills, but the D10 is 3: his horse is hit, and a D6 of 1
// kills it; he stands on foot, unhurt. The second falls on the third rider (3): armour 1 and impact 3 kills,
// and the D10 is 8: the rider is hit and dies. One casualty: the casualty test (8) and the reaction test at
// TL 1 (8) pass; the second move, a 1, leaves the company short: the battle waits for its side's choice,
// to stay mid-dash or abort, having come 2" + 2".
#[test]
fn final_defensive_fire_at_riders_horse_or_rider() {
    use acw_hardtack::state::CompanySpec;
    let mut b = acw_hardtack::Battle::new(Options::default());
    let mut riders = CompanySpec::new("1st Vermont Cavalry, Company B", acw_core::Side::Union, 6);
    riders.cavalry = Some(true);
    let a = b.add_company(riders).unwrap();
    let d = b
        .add_company(CompanySpec::new(
            "8th Alabama, Company C",
            acw_core::Side::Confederate,
            4,
        ))
        .unwrap();
    b.activate(a).unwrap();
    assert!(b.assault(a, d, &mut ScriptedDice::faces([8])).unwrap());
    b.defend(
        DefenderChoice::Stand { final_fire: true },
        &mut ScriptedDice::faces([8]),
    )
    .unwrap();
    let mut dice = ScriptedDice::faces([1, 1, 8, 4, 1, 2, 1, 5, 3, 1, 3, 1, 3, 8, 8, 8, 1]);
    let rep = b.charge(20.0, &mut dice).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert!(
        rep.steps
            .iter()
            .any(|s| s.contains("is still short of contact"))
    );
    assert_eq!(
        b.short_of_contact(),
        Some((
            a,
            d,
            acw_hardtack::state::ShortOfContact::StillShort { moved: 4.0 }
        ))
    );
    let f = b.company(a).unwrap().figures();
    let state = |i: usize| (f[i].condition, f[i].unhorsed);
    assert_eq!(state(1), (Condition::Fit, true));
    assert_eq!(state(2).0, Condition::Dead);
    for i in [0, 3, 4, 5] {
        assert_eq!(state(i), (Condition::Fit, false));
    }
    assert_eq!(b.company(a).unwrap().fit(), 5);
}
