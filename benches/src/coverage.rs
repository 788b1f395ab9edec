//! The area a sprite's fragments cover inside a render target: the rotated rectangle SpriteBatch
//! draws, clipped to the target by Sutherland–Hodgman polygon clipping against its four edges,
//! measured by the shoelace formula. The fill probe's floor for a frame charges each sprite's
//! area, overlaps included, because every sprite is blended.

/// A point in pixels.
pub type Point = [f64; 2];

/// The four corners, in order around the quad, of the sprite SpriteBatch draws for
/// `Draw(texture, position, null, color, rotation, origin, scale, ..)` of a `texture_size`
/// texture: the unscaled rectangle from `-origin` to `texture_size - origin`, scaled, rotated
/// by `rotation` about `position` (clockwise on screen, y down) and moved there.
pub fn sprite_corners(
    position: [f32; 2],
    texture_size: [f32; 2],
    origin: [f32; 2],
    scale: [f32; 2],
    rotation: f32,
) -> [Point; 4] {
    let (sin, cos) = (f64::from(rotation.sin()), f64::from(rotation.cos()));
    let (w, h) = (f64::from(texture_size[0] * scale[0]), f64::from(texture_size[1] * scale[1]));
    let (ox, oy) = (-f64::from(origin[0] * scale[0]), -f64::from(origin[1] * scale[1]));
    let (px, py) = (f64::from(position[0]), f64::from(position[1]));
    let at = |u: f64, v: f64| [px + cos * u - sin * v, py + sin * u + cos * v];
    [at(ox, oy), at(ox + w, oy), at(ox + w, oy + h), at(ox, oy + h)]
}

/// The area of a simple polygon (either winding), by the shoelace formula.
pub fn polygon_area(polygon: &[Point]) -> f64 {
    let n = polygon.len();
    let twice: f64 = (0..n)
        .map(|i| {
            let (a, b) = (polygon[i], polygon[(i + 1) % n]);
            a[0] * b[1] - b[0] * a[1]
        })
        .sum();
    twice.abs() / 2.0
}

/// Clips `polygon` to the half-plane where `inside` holds, the edge's crossing point found by
/// `cross` (Sutherland–Hodgman, one edge).
fn clip_edge(
    polygon: &[Point],
    inside: impl Fn(Point) -> bool,
    cross: impl Fn(Point, Point) -> Point,
) -> Vec<Point> {
    let mut out = Vec::with_capacity(polygon.len() + 2);
    for (i, &current) in polygon.iter().enumerate() {
        let previous = polygon[(i + polygon.len() - 1) % polygon.len()];
        match (inside(previous), inside(current)) {
            (true, true) => out.push(current),
            (true, false) => out.push(cross(previous, current)),
            (false, true) => {
                out.push(cross(previous, current));
                out.push(current);
            }
            (false, false) => {}
        }
    }
    out
}

/// `polygon` (convex) clipped to the rectangle from (0, 0) to (`width`, `height`).
pub fn clip_to_target(polygon: &[Point], width: f64, height: f64) -> Vec<Point> {
    // The point of segment a-b where coordinate `axis` equals `at`.
    let cross = |axis: usize, at: f64| {
        move |a: Point, b: Point| {
            let t = (at - a[axis]) / (b[axis] - a[axis]);
            let mut p = [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
            p[axis] = at;
            p
        }
    };
    let mut p = polygon.to_vec();
    p = clip_edge(&p, |q| q[0] >= 0.0, cross(0, 0.0));
    p = clip_edge(&p, |q| q[0] <= width, cross(0, width));
    p = clip_edge(&p, |q| q[1] >= 0.0, cross(1, 0.0));
    clip_edge(&p, |q| q[1] <= height, cross(1, height))
}

/// The area of `polygon` (convex) inside the `width`×`height` target, in pixels.
pub fn area_inside(polygon: &[Point], width: f64, height: f64) -> f64 {
    polygon_area(&clip_to_target(polygon, width, height))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> [Point; 4] {
        [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
    }

    #[test]
    fn a_rectangle_inside_keeps_its_whole_area() {
        assert_eq!(area_inside(&rect(10.0, 15.0, 30.0, 25.0), 100.0, 50.0), 200.0);
    }

    #[test]
    fn a_rectangle_half_outside_keeps_the_half_inside() {
        // 20×20 over the left edge: 10 of its 20 columns lie inside.
        assert_eq!(area_inside(&rect(-10.0, 10.0, 10.0, 30.0), 100.0, 50.0), 200.0);
        // Over the bottom-right corner: a 5×3 piece of the 12×8 rectangle.
        assert_eq!(area_inside(&rect(95.0, 47.0, 107.0, 55.0), 100.0, 50.0), 15.0);
    }

    #[test]
    fn a_rotated_square_over_a_corner_keeps_the_part_inside() {
        // A 45°-rotated square of diagonal 4 centred at (1, 0) (area 8): its half at y >= 0 is
        // the triangle (-1,0) (3,0) (1,2) of area 4, less the triangle (-1,0) (0,0) (0,1) of
        // area 1/2 left of x = 0: 3.5.
        let diamond = [[3.0, 0.0], [1.0, 2.0], [-1.0, 0.0], [1.0, -2.0]];
        assert_eq!(polygon_area(&diamond), 8.0);
        assert_eq!(area_inside(&diamond, 100.0, 50.0), 3.5);
        // The same square from the sprite SpriteBatch draws: a 1×1 texture scaled to 2√2,
        // origin at its centre, turned 45°.
        let side = 8f32.sqrt();
        let quarter = std::f32::consts::FRAC_PI_4;
        let sprite = sprite_corners([1.0, 0.0], [1.0, 1.0], [0.5, 0.5], [side, side], quarter);
        assert!((area_inside(&sprite, 100.0, 50.0) - 3.5).abs() < 1e-5);
    }

    #[test]
    fn a_triangle_over_the_bottom_edge_keeps_the_trapezoid_above_it() {
        // The triangle (20,40) (80,40) (30,70), away from the corners: its two slanted edges
        // cross y = 50 at different fractions of their length (1/3 and 2/3), at x = 63 1/3 and
        // x = 23 1/3, so what stays is the trapezoid of parallel sides 60 and 40, 10 apart: 500.
        let triangle = [[20.0, 40.0], [80.0, 40.0], [30.0, 70.0]];
        let inside = area_inside(&triangle, 100.0, 50.0);
        assert!((inside - 500.0).abs() < 1e-9, "{inside}");
    }

    #[test]
    fn a_polygon_outside_covers_nothing() {
        assert_eq!(area_inside(&rect(-20.0, -20.0, -5.0, 60.0), 100.0, 50.0), 0.0);
    }

    #[test]
    fn sprite_corners_turn_about_the_origin_as_sprite_batch_places_them() {
        // As the engine's own test: a 4×2 sprite centred at (10, 20), turned 90°: the top-left
        // corner lands at (11, 18) and the bottom-right at (9, 22).
        let half_turn = std::f32::consts::FRAC_PI_2;
        let c = sprite_corners([10.0, 20.0], [1.0, 1.0], [0.5, 0.5], [4.0, 2.0], half_turn);
        let near = |p: Point, q: Point| (p[0] - q[0]).abs() < 1e-5 && (p[1] - q[1]).abs() < 1e-5;
        assert!(near(c[0], [11.0, 18.0]), "{c:?}");
        assert!(near(c[2], [9.0, 22.0]), "{c:?}");
        assert!((polygon_area(&c) - 8.0).abs() < 1e-5);
    }
}
