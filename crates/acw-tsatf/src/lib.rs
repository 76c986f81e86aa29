//! # acw-tsatf
//!
//! "Strike for Your God and Country", an American Civil War adaptation of The Sword and the Flame, as a
//! library: card-driven skirmish rules at one figure a man.
//!
//! A basic unit is some twenty men and an officer, Green, Average, Veteran or Crack. A standard deck of cards
//! sequences the movement and firing phases: red cards activate the Union, black the Confederates. Units move
//! a number of D6 inches by the movement table, dropping the highest die for rough ground, mounting or
//! limbering. Fire is either the Mass Fire chart (one D6 picks a column, one hit per n figures) or Type
//! Firing (a D20 a figure, with a D10 ammunition supply); every hit draws a card whose suit says missed,
//! wounded or killed and whose rank says enlisted man, key figure or cadre. Charges lose stragglers, halt at
//! half strength, and test to close and to stand on one 1D6 chart; melee is figure against figure, the higher
//! modified D6 winning and the loser's own die saying killed, wounded or pushed back, round after round until
//! one side is gone. Morale is 2D6 roll-low: Major when a side's highest officer falls, Critical at half
//! strength or when shaken troops are hit, Pinned after a failed charge. Distances are in inches.
//!
//! Modules: [`tables`] (the rules' tables), [`options`] (every switch between readings), [`setup`] (validated
//! units), [`state`] (units and figures), [`sequence`] (the turn and the cards), [`movement`], [`fire`],
//! [`melee`], [`morale`], [`battle`] (the [`Battle`] engine), [`error`]; and the game layer: [`field`] (units
//! on acw-core's table, and what the rules measure there), [`game`] (the whole game behind acw-core's
//! `Ruleset`, with a default scenario), [`bots`] (two baseline commanders).
//!
//! The rules have no victory conditions of their own: a [`game::Scenario`] states them (a break point in figures
//! in good order, and who wins at the turn limit).
//!
//! ```
//! use acw_core::cards::{Card, Rank, Suit};
//! use acw_core::dice::{Scripted, ScriptedDice};
//! use acw_core::{Resolve, Side};
//! use acw_tsatf::battle::MoveOrder;
//! use acw_tsatf::tables::MoveMode;
//! use acw_tsatf::fire::MassFire;
//! use acw_tsatf::melee::{Melee, MeleeSide, Party};
//! use acw_tsatf::options::Remainder;
//! use acw_tsatf::tables::{FireRow, TargetClass};
//! use acw_tsatf::{Battle, Options, setup::default_forces};
//!
//! // Exact odds: 10 Average muskets at skirmishers score 2 hits on a 6, else 1.
//! let fire = MassFire { row: FireRow::AverageMusket, class: TargetClass::II, figures: 10,
//!                       remainder: Remainder::Drop, green_class3_pattern: false };
//! assert!((fire.odds().p(&2) - 1.0 / 6.0).abs() < 1e-12);
//! // A whole melee, one against one at equal modifiers: each side wins half the time.
//! let one = MeleeSide { cadre: 0, others: 1, modifier: 0, cadre_first: true };
//! let melee = Melee::new(one, one, &Options::default());
//! assert!((melee.odds().prob(|o| o.winner == Party::Attackers) - 0.5).abs() < 1e-12);
//!
//! // Play: shuffle the movement deck and turn the first card.
//! let mut battle = Battle::new(&default_forces()?, Options::default())?;
//! battle.begin_phase(&mut acw_core::GameRng::seed(7))?;
//! // A typed-in card: the two of diamonds turns up, a Union card.
//! let two = Card::Suited(Rank::Two, Suit::Diamonds);
//! assert_eq!(battle.turn_card(&mut ScriptedDice::new([Scripted::Card(two)]))?, Side::Union);
//! // The 1st Maine's Company A moves: 3D6 across country, the dice read 2, 3 and 4.
//! let company = battle.unit_named("1st Maine, Company A").map(|u| u.id()).ok_or("no unit")?;
//! let order = MoveOrder { mode: Some(MoveMode::CrossCountry), ..MoveOrder::default() };
//! let report = battle.move_unit(company, &order, &mut ScriptedDice::faces([2, 3, 4]))?;
//! assert_eq!(report.allowance, 9.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A whole game between the two baseline commanders:
//!
//! ```
//! use acw_core::game::{Commander, play};
//! use acw_core::BySide;
//! use acw_tsatf::bots::{Attacker, Holder};
//! use acw_tsatf::game::{Scenario, Tsatf};
//!
//! let (mut blue, mut grey) = (Attacker::new(7), Holder::new(7));
//! let game = play(&Tsatf, &Scenario::default(), 7,
//!                 BySide::new(&mut blue as &mut dyn Commander<Tsatf>, &mut grey))?;
//! println!("{}", game.outcome);
//! for event in &game.log[..5] {
//!     println!("{event}");
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod battle;
pub mod bots;
pub mod catalogue;
pub mod error;
pub mod field;
pub mod fire;
pub mod game;
pub mod luck;
pub mod melee;
pub mod morale;
pub mod movement;
pub mod options;
pub mod sequence;
pub mod setup;
pub mod state;
pub mod tables;

pub mod prelude;

pub use battle::Battle;
pub use error::{RuleViolation, SetupError};
pub use options::Options;
pub use state::UnitId;
