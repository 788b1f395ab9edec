//! The two classifications XNA's bounding volumes answer with: how one volume contains another
//! ([`ContainmentType`]) and on which side of a plane a volume lies ([`PlaneIntersectionType`]).

/// XNA's `ContainmentType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ContainmentType {
    /// `Disjoint`: no overlap.
    Disjoint,
    /// `Contains`: the other volume lies wholly inside.
    Contains,
    /// `Intersects`: the volumes overlap partly (touching counts).
    Intersects,
}

/// XNA's `PlaneIntersectionType`. A plane's front is the side its normal points to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum PlaneIntersectionType {
    /// `Front`: wholly on the side the normal points to.
    Front,
    /// `Back`: wholly behind the plane.
    Back,
    /// `Intersecting`: crossing or touching the plane.
    Intersecting,
}
