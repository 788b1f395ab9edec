//! XNA's `SpriteSortMode` and `SpriteEffects`.

/// XNA's `SpriteSortMode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SpriteSortMode {
    /// Drawn in call order, at `end`.
    #[default]
    Deferred,
    /// Drawn at once, one draw per call.
    Immediate,
    /// Grouped by texture at `end` (call order within a texture).
    Texture,
    /// Highest layer depth first.
    BackToFront,
    /// Lowest layer depth first.
    FrontToBack,
}

/// XNA's `SpriteEffects` flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SpriteEffects(pub(crate) u8);

impl SpriteEffects {
    /// `SpriteEffects.None`.
    pub const NONE: SpriteEffects = SpriteEffects(0);
    /// `SpriteEffects.FlipHorizontally`: mirror the texture left to right.
    pub const FLIP_HORIZONTALLY: SpriteEffects = SpriteEffects(1);
    /// `SpriteEffects.FlipVertically`: mirror the texture top to bottom.
    pub const FLIP_VERTICALLY: SpriteEffects = SpriteEffects(2);
}

impl std::ops::BitOr for SpriteEffects {
    type Output = SpriteEffects;
    fn bitor(self, rhs: SpriteEffects) -> SpriteEffects {
        SpriteEffects(self.0 | rhs.0)
    }
}

impl SpriteEffects {
    /// Whether every flag of `other` is set.
    pub(crate) fn contains(self, other: SpriteEffects) -> bool {
        self.0 & other.0 == other.0
    }
}
