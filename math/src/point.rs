//! `Point`: an integer 2D position, the type of `Rectangle`'s location and size.

/// XNA's `Point`: two `i32`s.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, bytemuck::Pod, bytemuck::Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Point {
    /// The x coordinate.
    pub x: i32,
    /// The y coordinate.
    pub y: i32,
}

impl Point {
    /// `Point.Zero`.
    pub const ZERO: Point = Point { x: 0, y: 0 };

    /// `new Point(x, y)`.
    pub const fn new(x: i32, y: i32) -> Self {
        Point { x, y }
    }
}

#[cfg(test)]
mod tests {
    use super::Point;

    #[test]
    fn zero_is_the_default_and_equality_is_by_coordinates() {
        assert_eq!(Point::default(), Point::ZERO);
        assert_eq!(Point::new(3, -4), Point { x: 3, y: -4 });
        assert_ne!(Point::new(3, -4), Point::new(-4, 3));
    }
}
