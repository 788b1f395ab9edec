//! Defects the fuzzer can reach that are known and being fixed elsewhere: the one list that
//! keeps their operations out of a run.
//!
//! Each entry names a defect and what the generator leaves out while it is listed. The model
//! keeps XNA's rule for every one of them, so once a fix is merged and its entry removed from
//! [`KNOWN_FINDINGS`], the generator produces those operations again and the fuzzer checks the
//! fix. `xnagraph-fuzz-sequence --include-known` generates them regardless, which is how each
//! entry was matched to what the fuzzer reports (see [`Known::signature`]).

/// A known defect the generator steers around. None is listed now: each variant names a
/// defect, its `signature` what the fuzzer reports when it meets it, and its doc what the
/// generator leaves out while it is in [`KNOWN_FINDINGS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Known {}

impl Known {
    /// What the fuzzer reports when it meets the defect.
    pub fn signature(self) -> &'static str {
        match self {}
    }
}

/// The known defects the generator steers around (emptied as their fixes are merged). The
/// entries fixed so far: query disposal destroying a buffer (native handles carry their
/// kind), geometry draws sampling a bound target (refused as `SpriteBatch` refuses them),
/// effects copying their texture (they reference it), and overlapping query spans (the inner
/// `Begin` is refused).
pub const KNOWN_FINDINGS: &[Known] = &[];

/// Which known defects a run leaves out: those listed, or none (`--include-known`).
#[derive(Clone, Copy, Debug)]
pub struct Avoid {
    include_known: bool,
}

impl Avoid {
    /// Leaves out every defect in [`KNOWN_FINDINGS`].
    pub const LISTED: Avoid = Avoid { include_known: false };
    /// Leaves out nothing.
    pub const NOTHING: Avoid = Avoid { include_known: true };

    /// Whether the generator leaves `known`'s operations out.
    pub fn avoids(self, known: Known) -> bool {
        !self.include_known && KNOWN_FINDINGS.contains(&known)
    }
}
