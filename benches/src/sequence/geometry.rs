//! Vertices on the grid, as bytes and as triangles: how the model turns a geometry draw into
//! the rectangles it covers.
//!
//! In: grid vertices ([`V`]) given to a user draw or written to a vertex buffer (32 bytes each,
//! the layout of [`QuadVertex`](super::exec::QuadVertex)), a primitive list, the applied
//! effect's World translation. Out: the rectangles the draw covers, each exact or not (the
//! model paints a [`Fill`](super::surface::Fill) of each). Two triangles that make an
//! axis-aligned rectangle (a strip's `TL TR BL BR`, or a list's `0 1 2 1 3 2`) cover it
//! exactly; any other triangle covers an unknown part of its bounding box.

use super::ops::{Rgba, V};
use super::surface::{grid_rect, PxRect};

/// Bytes of one vertex: position (3 × f32), colour (4 × u8), two pairs of texture coordinates.
pub const VERTEX_BYTES: usize = 32;

/// The bytes of `v` as a vertex buffer holds them.
pub fn encode(v: &V) -> [u8; VERTEX_BYTES] {
    let mut b = [0u8; VERTEX_BYTES];
    let floats = [f32::from(v.x) / 8.0, f32::from(v.y) / 8.0, f32::from(v.z) / 4.0];
    for (i, f) in floats.iter().enumerate() {
        b[i * 4..i * 4 + 4].copy_from_slice(&f.to_le_bytes());
    }
    b[12..16].copy_from_slice(&v.c.0);
    let uv = [f32::from(v.u), f32::from(v.v), f32::from(v.u), f32::from(v.v)];
    for (i, f) in uv.iter().enumerate() {
        b[16 + i * 4..20 + i * 4].copy_from_slice(&f.to_le_bytes());
    }
    b
}

/// The grid vertex `bytes` hold, when every byte is known and on the grid.
pub fn decode(bytes: &[Option<u8>]) -> Option<V> {
    let known: Vec<u8> = bytes.iter().copied().collect::<Option<Vec<u8>>>()?;
    let f = |i: usize| f32::from_le_bytes(known[i * 4..i * 4 + 4].try_into().unwrap());
    let grid = |v: f32, steps: f32, lo: f32, hi: f32| {
        let g = v * steps;
        (g.fract() == 0.0 && (lo..=hi).contains(&g)).then_some(g)
    };
    let x = grid(f(0), 8.0, -8.0, 8.0)? as i8;
    let y = grid(f(1), 8.0, -8.0, 8.0)? as i8;
    let z = grid(f(2), 4.0, 0.0, 4.0)? as u8;
    let c = Rgba([known[12], known[13], known[14], known[15]]);
    let u = grid(f(4), 1.0, 0.0, 1.0)? as u8;
    let v = grid(f(5), 1.0, 0.0, 1.0)? as u8;
    if (f(6), f(7)) != (f(4), f(5)) {
        return None;
    }
    Some(V { x, y, z, c, u, v })
}

/// The triangles of a strip of `primitives` over `vertices` (culling is off, so winding does
/// not matter).
pub fn strip(vertices: &[V], primitives: usize) -> Vec<[V; 3]> {
    (0..primitives).map(|i| [vertices[i], vertices[i + 1], vertices[i + 2]]).collect()
}

/// What a set of triangles covers on a `w`×`h` target, each shifted by (dx, dy) grid steps:
/// `(rect, exact)` pieces. Two triangles forming an axis-aligned rectangle are one exact piece;
/// otherwise each triangle is its bounding box, inexact.
pub fn coverage(triangles: &[[V; 3]], w: i32, h: i32, dx: i8, dy: i8) -> Vec<(PxRect, bool)> {
    let shift = |v: &V| (i32::from(v.x) + i32::from(dx), i32::from(v.y) + i32::from(dy));
    if let [a, b] = triangles {
        if let Some((xs, ys)) = rectangle(a, b, shift) {
            let r = grid_rect(w, h, xs, ys);
            return if r.x0 < r.x1 && r.y0 < r.y1 { vec![(r, true)] } else { Vec::new() };
        }
    }
    triangles
        .iter()
        .map(|t| {
            let p: Vec<(i32, i32)> = t.iter().map(shift).collect();
            let xs = (p.iter().map(|q| q.0).min().unwrap(), p.iter().map(|q| q.0).max().unwrap());
            let ys = (p.iter().map(|q| q.1).min().unwrap(), p.iter().map(|q| q.1).max().unwrap());
            (grid_rect(w, h, xs, ys), false)
        })
        .filter(|(r, _)| r.x0 < r.x1 && r.y0 < r.y1)
        .collect()
}

/// The x and y ranges of the rectangle two triangles make, if they make one: four distinct
/// corners of an axis-aligned rectangle, the triangles sharing one of its diagonals.
fn rectangle(
    a: &[V; 3],
    b: &[V; 3],
    shift: impl Fn(&V) -> (i32, i32),
) -> Option<((i32, i32), (i32, i32))> {
    let pa: Vec<(i32, i32)> = a.iter().map(&shift).collect();
    let pb: Vec<(i32, i32)> = b.iter().map(&shift).collect();
    let shared: Vec<(i32, i32)> = pa.iter().filter(|p| pb.contains(p)).copied().collect();
    if shared.len() != 2 {
        return None;
    }
    let (s0, s1) = (shared[0], shared[1]);
    if s0.0 == s1.0 || s0.1 == s1.1 {
        return None; // the shared edge is not a diagonal
    }
    let own_a = pa.iter().find(|p| !shared.contains(p))?;
    let own_b = pb.iter().find(|p| !shared.contains(p))?;
    let (xs, ys) = ((s0.0, s1.0), (s0.1, s1.1));
    let corner = |p: &(i32, i32)| {
        (p.0 == xs.0 || p.0 == xs.1) && (p.1 == ys.0 || p.1 == ys.1) && !shared.contains(p)
    };
    (corner(own_a) && corner(own_b) && own_a != own_b).then_some((xs, ys))
}

/// Whether every vertex has the same value of `f`, and which.
pub fn same<T: PartialEq + Copy>(triangles: &[[V; 3]], f: impl Fn(&V) -> T) -> Option<T> {
    let first = f(&triangles.first()?[0]);
    triangles.iter().flatten().all(|v| f(v) == first).then_some(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: i8, y: i8) -> V {
        V { x, y, z: 2, c: Rgba::WHITE, u: 0, v: 0 }
    }

    #[test]
    fn a_vertex_survives_its_bytes() {
        let original = V { x: -3, y: 8, z: 1, c: Rgba([1, 2, 3, 4]), u: 1, v: 0 };
        let bytes: Vec<Option<u8>> = encode(&original).iter().map(|b| Some(*b)).collect();
        assert_eq!(decode(&bytes), Some(original));
        let mut unknown = bytes.clone();
        unknown[3] = None;
        assert_eq!(decode(&unknown), None);
    }

    #[test]
    fn a_strip_quad_covers_its_rectangle_exactly_and_a_bent_one_only_its_boxes() {
        let quad = [v(-8, 8), v(0, 8), v(-8, 0), v(0, 0)];
        let tris = strip(&quad, 2);
        let r = PxRect { x0: 0, y0: 0, x1: 8, y1: 8 };
        assert_eq!(coverage(&tris, 16, 16, 0, 0), vec![(r, true)]);
        let moved = PxRect { x0: 2, y0: 0, x1: 10, y1: 8 };
        assert_eq!(coverage(&tris, 16, 16, 2, 0), vec![(moved, true)]);
        let bent = [v(-8, 8), v(0, 8), v(-8, 0), v(2, 0)];
        assert!(coverage(&strip(&bent, 2), 16, 16, 0, 0).iter().all(|(_, exact)| !exact));
    }
}
