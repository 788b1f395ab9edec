//! Sprite geometry: where a sprite's corners go, from its source, destination, origin, rotation
//! and flips, and the projection from viewport pixels to clip space.

use xnagraph_graph::{SpriteInstance, Viewport};

use crate::math::{Matrix, Rectangle};

/// One sprite's geometry: source normalised to the texture, destination and the origin's offset
/// (before rotation) in pixels.
#[derive(Clone, Copy, Debug)]
pub(super) struct Sprite {
    pub(super) source: [f32; 4],
    pub(super) destination: [f32; 4],
    pub(super) offset: [f32; 2],
    pub(super) sin: f32,
    pub(super) cos: f32,
    pub(super) depth: f32,
    pub(super) color: [u8; 4],
    pub(super) effects: u8,
    /// The batch's index of the sprite's texture: its slot when the batch is drawn at once.
    pub(super) texture: u32,
}

/// A sprite's placement before rotation: destination position and size, origin offset.
#[derive(Clone, Copy, Debug)]
pub(super) struct Geometry {
    pub(super) destination: [f32; 4],
    pub(super) offset: [f32; 2],
    pub(super) rotation: f32,
}

/// Source rectangle normalised to the texture, and its size in texels.
pub(super) fn normalised_source(
    source: Option<Rectangle>,
    tw: f32,
    th: f32,
) -> ([f32; 4], f32, f32) {
    match source {
        Some(r) => {
            let (w, h) = (r.width as f32, r.height as f32);
            ([r.x as f32 / tw, r.y as f32 / th, w / tw, h / th], w, h)
        }
        None => ([0.0, 0.0, 1.0, 1.0], tw, th),
    }
}

/// The batch's transform followed by the projection of `viewport`, column-major.
pub(super) fn project(transform: &Matrix, viewport: Viewport) -> [f32; 16] {
    transform.mul(&projection(viewport.width, viewport.height)).to_column_major()
}

/// Pixels → clip space with y down and depth unchanged (the backends' convention).
fn projection(width: i32, height: i32) -> Matrix {
    let mut m = Matrix::IDENTITY;
    m.m[0][0] = 2.0 / width.max(1) as f32;
    m.m[1][1] = 2.0 / height.max(1) as f32;
    m.m[3][0] = -1.0;
    m.m[3][1] = -1.0;
    m
}

/// A sprite's instance: the top-left corner is the origin's offset rotated about the position,
/// and the other corners follow along the rotated width and height edges, as XNA places them.
/// Flips swap texture coordinates, never positions.
#[inline]
pub(super) fn instance(s: &Sprite) -> SpriteInstance {
    let [dx, dy, dw, dh] = s.destination;
    let (ox, oy) = (-s.offset[0], -s.offset[1]);
    let (origin, right, down) = corners([dx, dy], [dw, dh], [ox, oy], s.sin, s.cos);
    SpriteInstance {
        origin,
        right,
        down,
        texcoords: texcoords(s),
        depth: s.depth,
        color: s.color,
        texture: s.texture,
    }
}

/// The instance of a sprite drawn with a rotation, before the rotation is applied: its
/// placement stands where the corners go — `origin` holds the position, `right` the width and
/// the origin's negated x offset, `down` the negated y offset and the height — until
/// [`apply_rotations`] turns it into the sprite's [`instance`] (`s.sin` and `s.cos` are not
/// read): the rotation's sine and cosine are computed when the batch is flushed, not per draw.
#[inline]
pub(super) fn unrotated(s: &Sprite) -> SpriteInstance {
    let [dx, dy, dw, dh] = s.destination;
    SpriteInstance {
        origin: [dx, dy],
        right: [dw, -s.offset[0]],
        down: [-s.offset[1], dh],
        texcoords: texcoords(s),
        depth: s.depth,
        color: s.color,
        texture: s.texture,
    }
}

/// Turns an [`unrotated`] instance into the rotated sprite's [`instance`], bit for bit, given
/// the rotation's sine and cosine from [`crate::math::sin_cos`]: the same corner arithmetic.
#[inline(always)]
fn rotate(i: &mut SpriteInstance, sin: f32, cos: f32) {
    let ([dx, dy], [dw, ox], [oy, dh]) = (i.origin, i.right, i.down);
    (i.origin, i.right, i.down) = corners([dx, dy], [dw, dh], [ox, oy], sin, cos);
}

/// The top-left corner and the two edge vectors of a sprite at `position` of `size`, whose
/// top-left corner lies `offset` from the position before the rotation of `sin` and `cos`.
#[inline(always)]
fn corners(
    position: [f32; 2],
    size: [f32; 2],
    offset: [f32; 2],
    sin: f32,
    cos: f32,
) -> ([f32; 2], [f32; 2], [f32; 2]) {
    let ([dx, dy], [dw, dh], [ox, oy]) = (position, size, offset);
    (
        [dx + cos * ox - sin * oy, dy + sin * ox + cos * oy],
        [cos * dw, sin * dw],
        [-sin * dh, cos * dh],
    )
}

/// The texture coordinates of the top-left and bottom-right corners, flips applied.
#[inline(always)]
fn texcoords(s: &Sprite) -> [f32; 4] {
    let [sx, sy, sw, sh] = s.source;
    let (mut u0, mut u1, mut v0, mut v1) = (sx, sx + sw, sy, sy + sh);
    if s.effects & 1 != 0 {
        std::mem::swap(&mut u0, &mut u1);
    }
    if s.effects & 2 != 0 {
        std::mem::swap(&mut v0, &mut v1);
    }
    [u0, v0, u1, v1]
}

/// Rotations computed at once by [`apply_rotations`]: a stack block of sines and cosines.
const BLOCK: usize = 256;

/// Applies each `(index, rotation)` of `rotations` to the [`unrotated`] instance at that index
/// of `instances`. Block by block, the sines and cosines come first, in a loop over contiguous
/// rotations alone that the compiler vectorises (the same [`crate::math::sin_cos`], lane by
/// lane, so the same bits), then the corners ([`rotate`]). On the calling thread: splitting a
/// batch across threads spawned per flush was measured slower (and allocates every frame).
pub(super) fn apply_rotations(instances: &mut [SpriteInstance], rotations: &[(u32, f32)]) {
    let (mut sin, mut cos) = ([0.0f32; BLOCK], [0.0f32; BLOCK]);
    for block in rotations.chunks(BLOCK) {
        for ((s, c), &(_, rotation)) in sin.iter_mut().zip(&mut cos).zip(block) {
            (*s, *c) = crate::math::sin_cos(rotation);
        }
        for ((&(index, _), &sin), &cos) in block.iter().zip(&sin).zip(&cos) {
            rotate(&mut instances[index as usize], sin, cos);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sprites::batch::SpriteEffects;

    fn sprite(effects: u8, rotation: f32, offset: [f32; 2]) -> Sprite {
        let (sin, cos) = rotation.sin_cos();
        Sprite {
            source: [0.0, 0.0, 1.0, 1.0],
            destination: [10.0, 20.0, 4.0, 2.0],
            offset,
            sin,
            cos,
            depth: 0.5,
            color: [255; 4],
            effects,
            texture: 0,
        }
    }

    #[test]
    fn corners_follow_destination_and_flips_swap_texcoords() {
        let i = instance(&sprite(SpriteEffects::FLIP_HORIZONTALLY.bits(), 0.0, [0.0, 0.0]));
        assert_eq!(i.depth, 0.5);
        assert_eq!(i.corner(0), ([10.0, 20.0], [1.0, 0.0]));
        assert_eq!(i.corner(1), ([14.0, 20.0], [0.0, 0.0]));
        assert_eq!(i.corner(2), ([10.0, 22.0], [1.0, 1.0]));
        assert_eq!(i.corner(3), ([14.0, 22.0], [0.0, 1.0]));
    }

    #[test]
    fn rotation_turns_about_the_origin() {
        let i = instance(&sprite(0, std::f32::consts::FRAC_PI_2, [2.0, 1.0]));
        // Centre (10,20); the top-left corner (-2,-1) rotated 90° lands at (1,-2) from it, and
        // the bottom-right corner (2,1) at (-1,2).
        let near =
            |p: [f32; 2], q: [f32; 2]| (p[0] - q[0]).abs() < 1e-5 && (p[1] - q[1]).abs() < 1e-5;
        assert!(near(i.corner(0).0, [11.0, 18.0]), "{:?}", i.corner(0));
        assert!(near(i.corner(3).0, [9.0, 22.0]), "{:?}", i.corner(3));
    }
}
