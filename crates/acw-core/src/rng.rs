//! [`GameRng`]: the seeded, value-stable generator a game carries.

use rand::rngs::Xoshiro256PlusPlus;
use rand::{SeedableRng, TryRng};
use std::convert::Infallible;

/// The generator of a game: xoshiro256++ seeded through SplitMix64.
///
/// Both algorithms are fixed by their published definitions, and the mapping from its words to die faces is
/// this crate's own ([`crate::dice::uniform_below`]), so the same seed gives the same dice on every platform and
/// in every release; a test pins the first outputs. Its state serialises (feature `serde`), so a saved game
/// resumes with the very same dice to come.
///
/// ```
/// use acw_core::dice::Die;
/// use acw_core::GameRng;
/// let mut a = GameRng::seed(7);
/// let mut b = a.clone();
/// assert_eq!(Die::D6.roll(&mut a), Die::D6.roll(&mut b));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct GameRng(Xoshiro256PlusPlus);

impl GameRng {
    /// A generator seeded from `seed`.
    pub fn seed(seed: u64) -> Self {
        GameRng(Xoshiro256PlusPlus::seed_from_u64(seed))
    }

    /// The generator of game number `index` of a batch started from `seed`: independent of the order or thread
    /// on which games are played, so a simulation's result never depends on the thread count.
    pub fn for_game(seed: u64, index: u64) -> Self {
        GameRng::seed(mix(seed ^ mix(index.wrapping_add(0x5851_F42D_4C95_7F2D))))
    }
}

/// The SplitMix64 finaliser: spreads the bits of `z`.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl TryRng for GameRng {
    type Error = Infallible;

    #[inline]
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        self.0.try_next_u32()
    }

    #[inline]
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        self.0.try_next_u64()
    }

    #[inline]
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        self.0.try_fill_bytes(dst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Dice, Die};
    use rand::Rng;

    /// Pins the stream: if a dependency upgrade changes these numbers, every saved game would change.
    #[test]
    fn first_outputs_are_pinned() {
        let mut r = GameRng::seed(42);
        let words: Vec<u64> = (0..3).map(|_| r.next_u64()).collect();
        assert_eq!(words, PINNED_WORDS);
        let mut r = GameRng::seed(42);
        let faces: Vec<u16> = (0..12).map(|_| r.face(Die::D6)).collect();
        assert_eq!(faces, PINNED_D6);
        let mut g = GameRng::for_game(42, 3);
        assert_eq!(g.next_u64(), PINNED_GAME_3);
    }

    // Computed independently from the published xoshiro256++ and SplitMix64 definitions (a short Python
    // transcription), not copied from this crate's output.
    const PINNED_WORDS: [u64; 3] = [
        15021278609987233951,
        5881210131331364753,
        18149643915985481100,
    ];
    const PINNED_D6: [u16; 12] = [5, 2, 6, 5, 5, 4, 1, 4, 2, 6, 4, 6];
    const PINNED_GAME_3: u64 = 3326997057253852203;

    #[test]
    fn games_differ_and_repeat() {
        let a: Vec<u16> = {
            let mut r = GameRng::for_game(1, 0);
            (0..20).map(|_| r.face(Die::D6)).collect()
        };
        let b: Vec<u16> = {
            let mut r = GameRng::for_game(1, 1);
            (0..20).map(|_| r.face(Die::D6)).collect()
        };
        let a2: Vec<u16> = {
            let mut r = GameRng::for_game(1, 0);
            (0..20).map(|_| r.face(Die::D6)).collect()
        };
        assert_ne!(a, b);
        assert_eq!(a, a2);
    }
}
