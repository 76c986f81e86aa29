//! The roll paths allocate nothing: every die, pool, success count and card draw runs under an allocator that
//! counts the allocations of the thread making them.

use acw_core::cards::{Card, Colour, Deck};
use acw_core::dice::{DiceExpr, Die, Pool, SuccessPool};
use acw_core::odds::Dist;
use acw_core::{GameRng, Resolve};

/// How many allocations (and reallocations) `f` makes on this thread.
fn allocations(f: impl FnOnce()) -> u64 {
    allocation_counter::measure(f).count_total
}

fn pool(count: u32, die: Die) -> Pool {
    Pool::new(count, die).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_counter_sees_an_allocation() {
    let n = allocations(|| {
        let v: Vec<u64> = Vec::with_capacity(std::hint::black_box(8));
        std::hint::black_box(v);
    });
    assert_eq!(n, 1);
}

#[test]
fn dice_paths_allocate_nothing() {
    let sum = pool(20, Die::D6);
    let three = pool(3, Die::D6);
    let big = pool(128, Die::new(1000).unwrap_or(Die::D20));
    let drop_high = sum.drop_highest(1).unwrap_or(sum);
    let drop_low = sum.drop_lowest(1).unwrap_or(sum);
    let drop_big = big.drop_highest(1).unwrap_or(big);
    let keep_one = pool(4, Die::D20).keep_highest(1).unwrap_or(sum);
    let keep_some = pool(10, Die::D6).keep_highest(3).unwrap_or(sum);
    let keep_some_big = pool(10, Die::D100).keep_lowest(4).unwrap_or(sum);
    let hits = SuccessPool::new(30, Die::D8, 4).unwrap_or_else(|e| panic!("{e}"));
    let expr = DiceExpr::parse("4d6kh3+2").unwrap_or_else(|e| panic!("{e}"));
    let mut rng = GameRng::seed(11);
    let mut total = 0u64;
    let n = allocations(|| {
        for _ in 0..1000 {
            total += u64::from(Die::D6.roll(&mut rng));
            for p in [
                sum,
                three,
                big,
                drop_high,
                drop_low,
                drop_big,
                keep_one,
                keep_some,
                keep_some_big,
            ] {
                total += u64::from(p.roll(&mut rng));
                total += u64::from(p.throw(&mut rng).total());
            }
            total += u64::from(hits.roll(&mut rng));
            total = total.wrapping_add(expr.roll(&mut rng) as u64);
        }
    });
    assert_eq!(n, 0, "allocations while rolling");
    assert!(total > 0);
}

#[test]
fn card_draws_and_built_samplers_allocate_nothing() {
    let mut deck = Deck::standard(2).unwrap_or_else(|e| panic!("{e}"));
    let sampler = Dist::pool(pool(20, Die::D6)).sampler();
    let mut rng = GameRng::seed(12);
    let mut seen = 0u64;
    let n = allocations(|| {
        for _ in 0..1000 {
            // Draw the whole deck, discarding every card, then return the discards: the discard pile was made
            // with room for the whole deck.
            while let Ok(card) = deck.draw(&mut rng) {
                seen += u64::from(card.is_joker());
                deck.discard(card);
            }
            deck.reshuffle();
            seen += u64::from(*sampler.sample(&mut rng));
        }
    });
    assert_eq!(n, 0, "allocations while drawing");
    assert_eq!(deck.remaining(), 54);
    assert!(seen > 0);
}

#[test]
fn deals_from_a_random_source_allocate_nothing() {
    let mut deck = Deck::standard(2).unwrap_or_else(|e| panic!("{e}"));
    let mut rng = GameRng::seed(13);
    let mut hand = [Card::Joker(Colour::Red); 54];
    let mut seen = 0u64;
    let n = allocations(|| {
        for size in 0..=54 {
            // A hand of `size` cards, then the rest of the pile, discarded in two calls and returned.
            let (first, rest) = hand.split_at_mut(size);
            for part in [first, rest] {
                if deck.deal(&mut rng, part).is_ok() {
                    seen += part.iter().filter(|c| c.is_joker()).count() as u64;
                    deck.discard_all(part);
                }
            }
            deck.reshuffle();
        }
    });
    assert_eq!(n, 0, "allocations while dealing");
    assert_eq!(deck.remaining(), 54);
    assert_eq!(seen, 2 * 55, "both jokers dealt in every round");
}
