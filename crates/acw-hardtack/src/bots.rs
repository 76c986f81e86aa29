//! Two baseline commanders with different plans. Both ask the engine what is legal
//! ([`State::check_order`]) and give only orders it accepts; ties between equally good choices are broken by
//! a generator seeded from the game.
//!
//! - [`Thruster`] goes for the enemy: it activates first, advances on the nearest enemy, fires when in range
//!   and assaults when close; assaulted, it stands and fires at attackers who fall short.
//! - [`Holder`] makes for the wood and holds a firing line: it lets the enemy move first, fires at the
//!   nearest target it can see, reloads, rallies, never assaults; assaulted, it stands only when it has at
//!   least as many fit figures as the attacker.
//!
//! Riders unhorsed in a close cavalry company (HT-FRM-06): the thruster removes them as casualties, the
//! holder makes them a detached element where there is room, else reorganises into skirmish order.
//!
//! Both serve their guns alike: a crew fires at the nearest enemy its gun can reach (with canister loaded and
//! no company in reach, at an enemy gun's detached team), loads canister when an enemy stands within three
//! canister bands and round shot otherwise, and turns on the spot to face the nearest enemy when nothing lies
//! in its gun's arc; a crew never advances.
//!
//! Command (HT-SEQ-03, HT-CMD-01): the thruster activates its regiment through its colonel when that gains it
//! tempo: three or more of the regiment's companies may form with him (waiting, in line or column, not Broken,
//! within 6") and one of them has an enemy within 12"; its companies then take their actions of each wave
//! nearest the enemy first. Otherwise the thruster's colonel is the last of its units to be activated. A
//! colonel activated on his own (both bots, one shared choice) transfers an action to a unit of his side within 6" that has already acted and can use it: a gun
//! crew first, then a company with an enemy in its firing range; else he rallies a shaken company near him,
//! else ends his activation. He never moves on his own: he follows his regiment when it is activated.
//!
//! A company with no enemy company in its firing range (12" for the thruster, 24" for the holder) takes an
//! enemy counter within that range (HT-SG2-25: the holder's leader observes it, the thruster fires at it),
//! else an enemy gun's detached team (HT-ART-22), before it moves.
use crate::game::{Hardtack, Order, Question, Retreat, State};
use crate::state::{Ammunition, CompanyId, GunId, UnhorsedChoice};
use crate::tables::ConfidenceLevel;
use acw_core::measure::{Inches, Point};
use acw_core::{Commander, Dice, Die, GameRng, Side};

/// How far a bot tries to move in one action, in inches (then shorter steps if refused).
const STEPS: [f64; 4] = [5.0, 3.5, 2.0, 1.0];

/// Which plan a bot follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Plan {
    Thrust,
    Hold,
}

struct Bot {
    plan: Plan,
    rng: GameRng,
}

/// Goes for the enemy (see the module).
pub struct Thruster(Bot);

/// Holds the wood and a firing line (see the module).
pub struct Holder(Bot);

impl Thruster {
    /// A bot whose tie-breaks are seeded from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Thruster {
        Thruster(Bot {
            plan: Plan::Thrust,
            rng: GameRng::seed(seed),
        })
    }
}

impl Holder {
    /// A bot whose tie-breaks are seeded from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Holder {
        Holder(Bot {
            plan: Plan::Hold,
            rng: GameRng::seed(seed),
        })
    }
}

impl Commander<Hardtack> for Thruster {
    fn order(&mut self, _rules: &Hardtack, state: &State, side: Side) -> Order {
        self.0.order(state, side)
    }
}

impl Commander<Hardtack> for Holder {
    fn order(&mut self, _rules: &Hardtack, state: &State, side: Side) -> Order {
        self.0.order(state, side)
    }
}

/// The centre of the wood, where the holder makes for.
fn wood(state: &State) -> Option<Point> {
    state
        .field()
        .table()
        .terrain()
        .iter()
        .find(|t| t.effects().blocks_sight)
        .and_then(|t| match t.shape() {
            acw_core::table::Shape::Area(ps) if !ps.is_empty() => {
                let n = ps.len() as f64;
                Some(Point::new(
                    ps.iter().map(|p| p.x).sum::<f64>() / n,
                    ps.iter().map(|p| p.y).sum::<f64>() / n,
                ))
            }
            _ => None,
        })
}

impl Bot {
    fn first_legal(&self, state: &State, side: Side, orders: Vec<Order>) -> Option<Order> {
        orders.into_iter().find(|o| state.check_order(side, o))
    }

    fn order(&mut self, state: &State, side: Side) -> Order {
        let Some(d) = state.decision() else {
            return Order::EndActivation;
        };
        match d.question {
            Question::WhoGoesFirst { .. } => match self.plan {
                Plan::Thrust => Order::GoFirst(side),
                Plan::Hold => Order::GoFirst(side.enemy()),
            },
            Question::Defend { .. } => self.defend(state),
            // the first of the usual ways back: straight away from the enemy where the ground allows
            Question::Withdraw { .. } => state
                .withdrawals()
                .first()
                .map_or(Order::EndActivation, |&h| Order::Withdraw(h)),
            // an attacker short of contact: the thruster stays mid-dash, ready to go in again; the holder aborts
            Question::MidDash { .. } => match self.plan {
                Plan::Thrust => Order::StayMidDash,
                Plan::Hold => Order::AbortAssault,
            },
            // falling back short of contact: to cover when there is any within reach
            Question::FallBack { .. } => {
                Order::FallBack(if state.cover_for_fall_back().is_some() {
                    Retreat::Cover
                } else {
                    Retreat::StartPoint
                })
            }
            // riders unhorsed in a close cavalry company (HT-FRM-06): the thruster keeps its formation and its
            // actions and removes them; the holder keeps the men, as a detached element where there is room
            Question::Unhorsed { .. } => {
                let orders = match self.plan {
                    Plan::Thrust => vec![Order::Unhorsed(UnhorsedChoice::Remove)],
                    Plan::Hold => vec![
                        Order::Unhorsed(UnhorsedChoice::Detach),
                        Order::Unhorsed(UnhorsedChoice::Skirmish),
                        Order::Unhorsed(UnhorsedChoice::Remove),
                    ],
                };
                self.first_legal(state, side, orders)
                    .unwrap_or(Order::Unhorsed(UnhorsedChoice::Remove))
            }
            Question::React { .. } => {
                // both plans fire when they can, with the nearest company able to
                let Some(mover) = state.active() else {
                    return Order::React(None);
                };
                let mover_at = state.field().footprint(mover).copied();
                let mut reactors: Vec<(f64, CompanyId)> = state
                    .reactors(mover)
                    .into_iter()
                    .filter_map(|r| {
                        let d = crate::game::measured(state.field().footprint(r)?, &mover_at?);
                        Some((d, r))
                    })
                    .collect();
                reactors.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                let mut orders: Vec<Order> = reactors
                    .into_iter()
                    .filter(|(d, _)| *d <= 24.0)
                    .map(|(_, r)| Order::React(Some(r)))
                    .collect();
                orders.push(Order::React(None));
                self.first_legal(state, side, orders)
                    .unwrap_or(Order::React(None))
            }
            Question::Activate { may_pass } => {
                let mut waiting = state.waiting(side);
                // nearest the enemy first; equal distances in a seeded order
                let mut keyed: Vec<(f64, u32, CompanyId)> = waiting
                    .drain(..)
                    .map(|id| {
                        let d = state.nearest_enemy(id).map_or(f64::MAX, |e| e.1);
                        (d, u32::from(self.rng.face(Die::D100)), id)
                    })
                    .collect();
                keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                let mut orders: Vec<Order> =
                    keyed.into_iter().map(|k| Order::Activate(k.2)).collect();
                if self.plan == Plan::Thrust {
                    // a colonel whose regiment gains no tempo now waits until his side's other units have
                    // acted, then transfers to them (see [`Bot::command`])
                    let colonels: Vec<Order> = orders
                        .iter()
                        .filter(|o| {
                            matches!(o, Order::Activate(id) if state.field().colonel_of(*id).is_some())
                        })
                        .cloned()
                        .collect();
                    orders.retain(|o| !colonels.contains(o));
                    orders.extend(colonels);
                    for companies in regiments(state, side)
                        .into_iter()
                        .filter(|r| gains_tempo(state, r))
                        .rev()
                    {
                        orders.insert(0, Order::ActivateRegiment { companies });
                    }
                }
                if may_pass && self.plan == Plan::Hold {
                    orders.insert(0, Order::Pass);
                }
                orders.push(Order::Pass);
                self.first_legal(state, side, orders).unwrap_or(Order::Pass)
            }
            Question::Regiment { .. } => {
                // nearest the enemy first; equal distances in a seeded order
                let mut keyed: Vec<(f64, u32, CompanyId)> = state
                    .wave_open()
                    .into_iter()
                    .map(|id| {
                        let d = state.nearest_enemy(id).map_or(f64::MAX, |e| e.1);
                        (d, u32::from(self.rng.face(Die::D100)), id)
                    })
                    .collect();
                keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                let orders = keyed.into_iter().map(|k| Order::Activate(k.2)).collect();
                self.first_legal(state, side, orders)
                    .unwrap_or(Order::EndActivation)
            }
            Question::Act { .. } => self.act(state, side),
        }
    }

    fn defend(&self, state: &State) -> Order {
        let stand = match self.plan {
            Plan::Thrust => true,
            Plan::Hold => {
                let defender = state.battle().assault_defender();
                let attacker = state.active();
                match (defender, attacker) {
                    (Some(d), Some(a)) => {
                        let fit = |id| state.battle().company_at(id).map_or(0, |c| c.fit());
                        fit(d) >= fit(a)
                    }
                    _ => true,
                }
            }
        };
        Order::Defend {
            stand,
            final_fire: stand,
        }
    }

    /// A crew's action: fire at the nearest enemy the gun can reach, else load (canister when an enemy stands
    /// within three canister bands, round shot otherwise), else turn on the spot toward the nearest enemy.
    fn serve(
        &self,
        state: &State,
        side: Side,
        me: CompanyId,
        gun: GunId,
        mut orders: Vec<Order>,
    ) -> Order {
        let Ok(g) = state.battle().gun(gun) else {
            return Order::EndActivation;
        };
        let loaded = g.loaded();
        let targets = enemies_nearest_first(state, side, |t| {
            state.gun_aim(me, t).ok().map(|a| a.distance)
        });
        if loaded.is_some() {
            orders.extend(targets.iter().map(|&(_, t)| Order::FireGun { target: t }));
        }
        // canister at an enemy gun's detached team within reach, when no company is
        if loaded == Some(Ammunition::Canister) {
            orders.extend(
                enemy_teams(state, side)
                    .into_iter()
                    .map(|team| Order::FireGunAtTeam { team }),
            );
        }
        let near = state
            .nearest_enemy(me)
            .is_some_and(|(_, d)| d <= 3.0 * g.piece().canister_band());
        if near && loaded != Some(Ammunition::Canister) {
            orders.push(Order::Load(Ammunition::Canister));
        }
        if loaded.is_none() {
            orders.push(Order::Load(Ammunition::Shot));
        }
        // a turn on the spot, when the nearest enemy lies outside the gun's arc
        let turn = state.nearest_enemy(me).and_then(|(e, _)| {
            let (fp, efp) = (state.field().footprint(me)?, state.field().footprint(e)?);
            (fp.facing.angle_to(fp.centre.heading_to(efp.centre)) > 15.0).then_some(fp)
        });
        if let (Some(fp), Ok(c)) = (turn, state.battle().company(me))
            && c.moves_made() == 0
        {
            orders.push(Order::Move { to: fp.centre });
        }
        orders.push(Order::EndActivation);
        self.first_legal(state, side, orders)
            .unwrap_or(Order::EndActivation)
    }

    fn act(&mut self, state: &State, side: Side) -> Order {
        let Some(me) = state.active() else {
            return Order::EndActivation;
        };
        let Ok(c) = state.battle().company(me) else {
            return Order::EndActivation;
        };
        let mut orders = Vec::new();
        if c.disorganised() {
            orders.push(Order::Reorganise(c.formation()));
        }
        if c.confidence() >= ConfidenceLevel::Shaken {
            orders.push(Order::Rally { target: me });
        }
        if let Some(gun) = state.gun_of(me) {
            return self.serve(state, side, me, gun, orders);
        }
        if state.field().colonel_of(me).is_some() {
            return self.command(state, side, me);
        }
        let enemy = state.nearest_enemy(me);
        if let (Plan::Thrust, Some((e, d))) = (self.plan, enemy)
            && d <= 6.0
        {
            orders.push(Order::Assault { defender: e });
        }
        if c.needs_reload() {
            orders.push(Order::Reload);
        }
        // targets the firer can see, nearest first
        let targets = enemies_nearest_first(state, side, |t| state.seen_distance(me, t));
        let fire_range = if self.plan == Plan::Thrust {
            12.0
        } else {
            24.0
        };
        for (d, t) in &targets {
            if *d <= fire_range {
                orders.push(Order::Fire { target: *t });
            }
        }
        // with no company in range, an enemy counter within range: the holder's leader observes it, the
        // thruster fires at it; then an enemy gun's detached team within range
        let my = state.field().footprint(me).copied();
        let within = |fp: Option<&acw_core::table::Footprint>| {
            my.zip(fp)
                .is_some_and(|(a, b)| crate::game::measured(&a, b) <= fire_range)
        };
        for (dummy, _) in state.battle().dummies().filter(|(_, d)| d.side != side) {
            if within(state.field().dummy(dummy)) {
                orders.push(match self.plan {
                    Plan::Hold => Order::Observe { dummy },
                    Plan::Thrust => Order::FireAtDummy { dummy },
                });
            }
        }
        for gun in enemy_teams(state, side) {
            if within(state.field().team(gun)) {
                orders.push(Order::FireAtTeam { gun });
            }
        }
        let from = state.field().footprint(me).map(|f| f.centre);
        let goal = match self.plan {
            Plan::Thrust => enemy.and_then(|(e, _)| state.field().footprint(e).map(|f| f.centre)),
            Plan::Hold => wood(state).filter(|w| from.is_some_and(|f| f.distance(*w).0 > 3.0)),
        };
        let mut moves = Vec::new();
        if let (Some(from), Some(goal)) = (from, goal) {
            let heading = from.heading_to(goal);
            let sway = f64::from(self.rng.face(Die::D3)) * 20.0 - 40.0;
            for step in STEPS {
                for turn in [0.0, sway, -sway, 60.0, -60.0] {
                    moves.push(from.moved(heading.turned(turn), Inches(step)));
                }
            }
        }
        let mut last = Vec::new();
        if let Some((d, t)) = targets.first()
            && *d > fire_range
        {
            last.push(Order::Fire { target: *t });
        }
        last.push(Order::EndActivation);
        self.first_legal(state, side, orders)
            .or_else(|| first_legal_move(state, side, me, moves))
            .or_else(|| self.first_legal(state, side, last))
            .unwrap_or(Order::EndActivation)
    }
}

impl Bot {
    /// A colonel's action on his own (see the module): a transfer to a unit within 6" that has acted and can
    /// use it (a gun crew, then a company with an enemy in its firing range, nearest first), else a rally of a
    /// shaken unit within 6", else the end of his activation.
    fn command(&self, state: &State, side: Side, me: CompanyId) -> Order {
        let fire_range = if self.plan == Plan::Thrust {
            12.0
        } else {
            24.0
        };
        let mut near: Vec<(f64, CompanyId)> = state
            .battle()
            .company_ids()
            .filter(|&id| id != me && state.field().colonel_of(id).is_none())
            .filter_map(|id| {
                let c = state.battle().company_at(id)?;
                let d = state.field().command_distance(me, id)?;
                (c.side() == side && c.has_fit() && d <= crate::command::COMMAND_RANGE)
                    .then_some((d, id))
            })
            .collect();
        near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let spent = |id: CompanyId| {
            state
                .battle()
                .company_at(id)
                .is_some_and(|c| c.activated() && c.actions_left() == 0)
        };
        let mut orders = Vec::new();
        for &(_, id) in &near {
            if spent(id) && state.gun_of(id).is_some() {
                orders.push(Order::Transfer { to: id });
            }
        }
        for &(_, id) in &near {
            if spent(id)
                && state.gun_of(id).is_none()
                && state
                    .nearest_enemy(id)
                    .is_some_and(|(_, d)| d <= fire_range)
            {
                orders.push(Order::Transfer { to: id });
            }
        }
        for &(_, id) in &near {
            if state
                .battle()
                .company_at(id)
                .is_some_and(|c| c.confidence() >= ConfidenceLevel::Shaken)
            {
                orders.push(Order::Rally { target: id });
            }
        }
        orders.push(Order::EndActivation);
        self.first_legal(state, side, orders)
            .unwrap_or(Order::EndActivation)
    }
}

/// For each colonel of `side` not yet activated, the companies of his regiment that may form with him
/// (HT-FRM-07): waiting, in line or column, not Broken or Routed, each centre within 6" of his; only groups of
/// two or more.
fn regiments(state: &State, side: Side) -> Vec<Vec<CompanyId>> {
    let waiting = state.waiting(side);
    state
        .field()
        .colonels()
        .iter()
        .filter(|(c, _)| waiting.contains(c))
        .filter_map(|&(colonel, r)| {
            let companies: Vec<CompanyId> = waiting
                .iter()
                .copied()
                .filter(|&id| {
                    id != colonel
                        && state.battle().company_at(id).is_some_and(|c| {
                            c.regiment() == Some(r)
                                && c.formation().is_close()
                                && c.confidence() < ConfidenceLevel::Broken
                        })
                        && state
                            .field()
                            .command_distance(colonel, id)
                            .is_some_and(|d| d <= crate::command::COMMAND_RANGE)
                })
                .collect();
            (companies.len() >= 2).then_some(companies)
        })
        .collect()
}

/// How many companies of a regiment must be able to form with their colonel, and how near (inches) the nearest
/// enemy of one of them must be, for the thruster to activate them together: three or more, and an enemy within
/// its 12" firing range. With fewer, Activate Regiment spends the colonel's two actions on companies that would
/// act anyway; his actions go further as transfers to units that have acted.
const TEMPO: (usize, f64) = (3, 12.0);

/// Whether activating `companies` together now gains the thruster tempo (see [`TEMPO`]).
fn gains_tempo(state: &State, companies: &[CompanyId]) -> bool {
    companies.len() >= TEMPO.0
        && companies
            .iter()
            .any(|&id| state.nearest_enemy(id).is_some_and(|(_, d)| d <= TEMPO.1))
}

/// The first of the moves of `me` to `moves` the engine accepts, preferring one that disorders none of the
/// side's own close formations (HT-MOV-07: a close formation passing through a friend, or passed through, falls
/// into skirmish order; [`State::preview_move`] names the friend passed): a move that would is taken only when
/// every other is refused.
fn first_legal_move(state: &State, side: Side, me: CompanyId, moves: Vec<Point>) -> Option<Order> {
    let close = |id: CompanyId| {
        state
            .battle()
            .company_at(id)
            .is_some_and(|c| c.formation().is_close())
    };
    let mut disordering = None;
    for to in moves {
        let order = Order::Move { to };
        if !state.check_order(side, &order) {
            continue;
        }
        let disorders = state
            .preview_move(me, to)
            .is_ok_and(|m| m.through.is_some_and(|o| close(me) || close(o)));
        if !disorders {
            return Some(order);
        }
        disordering.get_or_insert(order);
    }
    disordering
}

/// The enemy companies of `side` with fit figures that `distance` can measure, nearest first (ties by id).
fn enemies_nearest_first(
    state: &State,
    side: Side,
    distance: impl Fn(CompanyId) -> Option<f64>,
) -> Vec<(f64, CompanyId)> {
    let mut targets: Vec<(f64, CompanyId)> = state
        .battle()
        .company_ids()
        .filter(|&t| {
            state
                .battle()
                .company_at(t)
                .is_some_and(|tc| tc.side() != side && tc.has_fit())
        })
        .filter_map(|t| distance(t).map(|d| (d, t)))
        .collect();
    targets.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    targets
}

/// The guns of the other side whose detached teams stand on the table with a sound horse (HT-ART-22).
fn enemy_teams(state: &State, side: Side) -> Vec<GunId> {
    state
        .battle()
        .gun_ids()
        .filter(|&g| {
            state.field().team(g).is_some()
                && state.battle().gun(g).is_ok_and(|x| {
                    x.sound_horses() > 0
                        && state
                            .battle()
                            .company_at(x.crew())
                            .is_some_and(|c| c.side() != side)
                })
        })
        .collect()
}
