//! `Rectangle`: an integer rectangle in pixels (source and destination rectangles, scissor
//! rectangles, viewports' bounds) with XNA's edge conventions: `x..x + width` is half-open, so a
//! rectangle contains its left and top edges but not its right and bottom ones, and rectangles
//! that only share an edge do not intersect.

use crate::{Point, Vector2};

/// XNA's `Rectangle`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, bytemuck::Pod, bytemuck::Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rectangle {
    /// Left edge, in pixels.
    pub x: i32,
    /// Top edge, in pixels.
    pub y: i32,
    /// Width, in pixels.
    pub width: i32,
    /// Height, in pixels.
    pub height: i32,
}

impl Rectangle {
    /// `Rectangle.Empty`: (0, 0, 0, 0).
    pub const EMPTY: Rectangle = Rectangle::new(0, 0, 0, 0);

    /// `new Rectangle(x, y, width, height)`.
    pub const fn new(x: i32, y: i32, width: i32, height: i32) -> Self {
        Rectangle { x, y, width, height }
    }

    /// `Rectangle.Left`: `x`.
    pub const fn left(&self) -> i32 {
        self.x
    }
    /// `Rectangle.Right`: `x + width`, one past the last column.
    pub const fn right(&self) -> i32 {
        self.x + self.width
    }
    /// `Rectangle.Top`: `y`.
    pub const fn top(&self) -> i32 {
        self.y
    }
    /// `Rectangle.Bottom`: `y + height`, one past the last row.
    pub const fn bottom(&self) -> i32 {
        self.y + self.height
    }

    /// `Rectangle.Location`: the top-left corner.
    pub const fn location(&self) -> Point {
        Point::new(self.x, self.y)
    }

    /// `Rectangle.Location = value`: moves the rectangle, keeping its size.
    pub fn set_location(&mut self, value: Point) {
        self.x = value.x;
        self.y = value.y;
    }

    /// The width and height as a point (MonoGame's `Size`; XNA 4.0 reads `Width` and `Height`).
    pub const fn size(&self) -> Point {
        Point::new(self.width, self.height)
    }

    /// `Rectangle.Center`: `(x + width / 2, y + height / 2)`, integer division.
    pub const fn center(&self) -> Point {
        Point::new(self.x + self.width / 2, self.y + self.height / 2)
    }

    /// `Rectangle.IsEmpty`: all four fields zero (a zero-size rectangle elsewhere is not
    /// "empty" by XNA's definition).
    pub const fn is_empty(&self) -> bool {
        self.x == 0 && self.y == 0 && self.width == 0 && self.height == 0
    }

    /// `Rectangle.Contains(x, y)`: left and top edges inside, right and bottom outside.
    pub const fn contains_xy(&self, x: i32, y: i32) -> bool {
        self.x <= x && x < self.right() && self.y <= y && y < self.bottom()
    }

    /// `Rectangle.Contains(value)` for a point.
    pub const fn contains_point(&self, value: Point) -> bool {
        self.contains_xy(value.x, value.y)
    }

    /// A `Vector2` (MonoGame's overload): the half-open test on floats.
    pub fn contains_vector(&self, value: Vector2) -> bool {
        self.x as f32 <= value.x
            && value.x < self.right() as f32
            && self.y as f32 <= value.y
            && value.y < self.bottom() as f32
    }

    /// `Rectangle.Contains(value)` for a rectangle: wholly inside (equal rectangles contain
    /// each other).
    pub const fn contains(&self, value: &Rectangle) -> bool {
        self.x <= value.x
            && value.right() <= self.right()
            && self.y <= value.y
            && value.bottom() <= self.bottom()
    }

    /// `Rectangle.Intersects(value)`: overlapping by at least one pixel; sharing an edge is not
    /// intersecting.
    pub const fn intersects(&self, value: &Rectangle) -> bool {
        value.left() < self.right()
            && self.left() < value.right()
            && value.top() < self.bottom()
            && self.top() < value.bottom()
    }

    /// `Rectangle.Intersect(value1, value2)`: the overlap, or [`Rectangle::EMPTY`] when they do
    /// not intersect.
    pub fn intersect(value1: &Rectangle, value2: &Rectangle) -> Rectangle {
        if !value1.intersects(value2) {
            return Rectangle::EMPTY;
        }
        let left = value1.left().max(value2.left());
        let top = value1.top().max(value2.top());
        let right = value1.right().min(value2.right());
        let bottom = value1.bottom().min(value2.bottom());
        Rectangle::new(left, top, right - left, bottom - top)
    }

    /// `Rectangle.Union(value1, value2)`: the smallest rectangle holding both.
    pub fn union(value1: &Rectangle, value2: &Rectangle) -> Rectangle {
        let x = value1.x.min(value2.x);
        let y = value1.y.min(value2.y);
        Rectangle::new(
            x,
            y,
            value1.right().max(value2.right()) - x,
            value1.bottom().max(value2.bottom()) - y,
        )
    }

    /// `Rectangle.Inflate(horizontalAmount, verticalAmount)`: grows every side outwards, so the
    /// width grows by twice the amount (in place, as in XNA).
    pub fn inflate(&mut self, horizontal_amount: i32, vertical_amount: i32) {
        self.x -= horizontal_amount;
        self.y -= vertical_amount;
        self.width += horizontal_amount * 2;
        self.height += vertical_amount * 2;
    }

    /// `Rectangle.Offset(offsetX, offsetY)`: moves the rectangle (in place, as in XNA).
    pub fn offset(&mut self, offset_x: i32, offset_y: i32) {
        self.x += offset_x;
        self.y += offset_y;
    }

    /// `Rectangle.Offset(amount)`.
    pub fn offset_point(&mut self, amount: Point) {
        self.offset(amount.x, amount.y);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges_and_derived_points() {
        let r = Rectangle::new(10, 20, 30, 41);
        assert_eq!((r.left(), r.right(), r.top(), r.bottom()), (10, 40, 20, 61));
        assert_eq!(r.location(), Point::new(10, 20));
        assert_eq!(r.size(), Point::new(30, 41));
        assert_eq!(r.center(), Point::new(25, 40));
        assert!(Rectangle::EMPTY.is_empty());
        assert!(!Rectangle::new(5, 5, 0, 0).is_empty());
        let mut m = r;
        m.set_location(Point::new(1, 2));
        assert_eq!(m, Rectangle::new(1, 2, 30, 41));
    }

    #[test]
    fn contains_is_half_open() {
        let r = Rectangle::new(0, 0, 10, 10);
        assert!(r.contains_xy(0, 0));
        assert!(r.contains_point(Point::new(9, 9)));
        assert!(!r.contains_xy(10, 5));
        assert!(!r.contains_xy(5, 10));
        assert!(r.contains_vector(Vector2::new(9.5, 0.0)));
        assert!(!r.contains_vector(Vector2::new(10.0, 0.0)));
        assert!(r.contains(&r));
        assert!(r.contains(&Rectangle::new(2, 2, 8, 8)));
        assert!(!r.contains(&Rectangle::new(2, 2, 9, 8)));
    }

    #[test]
    fn sharing_an_edge_is_not_intersecting() {
        let a = Rectangle::new(0, 0, 10, 10);
        assert!(!a.intersects(&Rectangle::new(10, 0, 5, 5)));
        assert!(a.intersects(&Rectangle::new(9, 9, 5, 5)));
        assert_eq!(Rectangle::intersect(&a, &Rectangle::new(10, 0, 5, 5)), Rectangle::EMPTY);
        assert_eq!(
            Rectangle::intersect(&a, &Rectangle::new(5, -5, 10, 10)),
            Rectangle::new(5, 0, 5, 5)
        );
    }

    #[test]
    fn union_inflate_and_offset() {
        let u = Rectangle::union(&Rectangle::new(0, 0, 2, 2), &Rectangle::new(5, -1, 1, 1));
        assert_eq!(u, Rectangle::new(0, -1, 6, 3));
        let mut r = Rectangle::new(10, 10, 4, 4);
        r.inflate(2, 1);
        assert_eq!(r, Rectangle::new(8, 9, 8, 6));
        r.offset(-8, 1);
        assert_eq!(r, Rectangle::new(0, 10, 8, 6));
        r.offset_point(Point::new(1, 1));
        assert_eq!(r.location(), Point::new(1, 11));
    }
}
