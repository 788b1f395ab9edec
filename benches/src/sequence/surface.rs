//! What the model knows of an image's pixels, and the arithmetic that predicts them.
//!
//! Each pixel (and each texel of a texture) is one of four states: a value known exactly (a
//! clear, `SetData`, a point-sampled copy of known texels), a value known to within one step
//! per channel (a product of colours, which the GPU rounds once), content that is defined but
//! that the model does not compute (a triangle edge, a stretched texture of several colours),
//! or undefined content (a target never written, bytes a `Discard` threw away). Readbacks are
//! checked against the first two; the compile policies and the capture replay are compared on
//! the first three.
//!
//! Coverage is computed only where it is exact: every edge the fuzzer draws lies on a pixel
//! boundary, so an axis-aligned rectangle covers exactly the pixels whose centres it contains.
//! Any other triangle marks its bounding box as defined-but-unknown.

/// One pixel or texel, as far as the model knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Px {
    /// Content no rule defines (the policies and drivers may differ).
    Undefined,
    /// Defined content the model does not compute.
    Defined,
    /// Exactly this value.
    Exact([u8; 4]),
    /// This value, give or take one per channel (one rounding of a product).
    Near([u8; 4]),
}

impl Px {
    /// Whether a read value agrees with this prediction.
    pub fn admits(self, got: [u8; 4]) -> bool {
        match self {
            Px::Undefined | Px::Defined => true,
            Px::Exact(want) => want == got,
            Px::Near(want) => want.iter().zip(got).all(|(w, g)| w.abs_diff(g) <= 1),
        }
    }

    /// Whether the content is defined (so both policies and a replay must agree on it).
    pub fn defined(self) -> bool {
        !matches!(self, Px::Undefined)
    }

    /// The value, where known to within a step.
    pub fn value(self) -> Option<[u8; 4]> {
        match self {
            Px::Exact(v) | Px::Near(v) => Some(v),
            _ => None,
        }
    }

    /// Unknown content of the same definedness.
    pub fn blur(self) -> Px {
        match self {
            Px::Undefined => Px::Undefined,
            _ => Px::Defined,
        }
    }
}

/// The product of colours, channel by channel, as a shader computes it (each factor a byte over
/// 255), times `scale` and clamped: exact when every factor but one is white and the scale is
/// 1, else to within a step.
pub fn product(factors: &[Px], scale: f64) -> Px {
    let mut exact = scale == 1.0;
    let mut acc = [scale; 4];
    let mut non_white = 0;
    for f in factors {
        match *f {
            Px::Undefined => return Px::Undefined,
            Px::Defined => return Px::Defined,
            Px::Exact(v) | Px::Near(v) => {
                if matches!(f, Px::Near(_)) {
                    exact = false;
                }
                if v != [255; 4] {
                    non_white += 1;
                }
                for (a, c) in acc.iter_mut().zip(v) {
                    *a *= f64::from(c) / 255.0;
                }
            }
        }
    }
    let v = acc.map(|a| (a.clamp(0.0, 1.0) * 255.0).round() as u8);
    if exact && non_white <= 1 {
        Px::Exact(v)
    } else {
        Px::Near(v)
    }
}

/// A grid of pixels with an optional depth plane.
#[derive(Clone, Debug)]
pub struct Surface {
    pub w: i32,
    pub h: i32,
    pub px: Vec<Px>,
    /// Depth values (`None`: unknown), for a target with a depth buffer.
    pub depth: Option<Vec<Option<f32>>>,
}

/// A pixel rectangle (may extend past the surface; it is clipped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PxRect {
    pub x0: i32,
    pub y0: i32,
    pub x1: i32,
    pub y1: i32,
}

impl Surface {
    pub fn new(w: i32, h: i32, fill: Px, depth: bool) -> Surface {
        let n = (w.max(0) * h.max(0)) as usize;
        Surface { w, h, px: vec![fill; n], depth: depth.then(|| vec![None; n]) }
    }

    pub fn at(&self, x: i32, y: i32) -> Px {
        self.px[(y * self.w + x) as usize]
    }

    /// Every pixel `fill`.
    pub fn fill(&mut self, fill: Px) {
        self.px.iter_mut().for_each(|p| *p = fill);
    }

    /// Every depth value `d` (a target without depth ignores it).
    pub fn fill_depth(&mut self, d: Option<f32>) {
        if let Some(depth) = &mut self.depth {
            depth.iter_mut().for_each(|v| *v = d);
        }
    }

    /// The part of `r` inside the surface.
    pub fn clip(&self, r: PxRect) -> PxRect {
        PxRect {
            x0: r.x0.clamp(0, self.w),
            y0: r.y0.clamp(0, self.h),
            x1: r.x1.clamp(0, self.w),
            y1: r.y1.clamp(0, self.h),
        }
    }

    /// Whether every pixel holds one known value (and which).
    pub fn uniform(&self) -> Option<Px> {
        let first = *self.px.first()?;
        first.value()?;
        let exact = self.px.iter().all(|p| *p == first);
        if exact {
            return Some(first);
        }
        let v = first.value()?;
        let near = self.px.iter().all(|p| p.value() == Some(v));
        near.then_some(Px::Near(v))
    }

    /// The least defined state of any pixel: `Undefined` if one is, else `Defined`.
    pub fn blur(&self) -> Px {
        if self.px.contains(&Px::Undefined) {
            Px::Undefined
        } else {
            Px::Defined
        }
    }
}

/// What a draw writes at a covered pixel, before the depth and alpha tests.
#[derive(Clone, Debug)]
pub enum Paint {
    /// One value everywhere.
    Solid(Px),
    /// The texels of `source` (a level-0 copy), placed with its top-left at (x, y) and
    /// multiplied by `tint`.
    Copy { source: Surface, x: i32, y: i32, tint: Px },
}

/// One draw of the model: a covered rectangle (or, when `exact` is false, a bounding box whose
/// coverage the model does not know), its paint, depth and tests.
#[derive(Clone, Debug)]
pub struct Fill {
    pub rect: PxRect,
    pub exact: bool,
    pub paint: Paint,
    /// The draw's depth (`None`: varies over the draw).
    pub z: Option<f32>,
    /// LessEqual depth test with writes, against the primary target's depth.
    pub depth_test: bool,
    /// Alpha test `Greater` than this reference (AlphaTestEffect).
    pub alpha_greater: Option<u8>,
}

/// Draws `fill` into `surface` and returns how many pixels passed the tests (what an occlusion
/// query counts), `None` when the model cannot tell.
pub fn draw(surface: &mut Surface, fill: &Fill) -> Option<u64> {
    let r = surface.clip(fill.rect);
    let mut count = Some(0u64);
    let tested = fill.depth_test && surface.depth.is_some();
    for y in r.y0..r.y1 {
        for x in r.x0..r.x1 {
            let i = (y * surface.w + x) as usize;
            let colour = match &fill.paint {
                Paint::Solid(p) => *p,
                Paint::Copy { source, x: sx, y: sy, tint } => {
                    product(&[source.at(x - sx, y - sy), *tint], 1.0)
                }
            };
            // Whether the pixel passes: Some(bool) when known.
            let mut passes = Some(fill.exact);
            if !fill.exact {
                passes = None;
            }
            if let Some(reference) = fill.alpha_greater {
                let alpha = match colour {
                    Px::Exact(v) => Some(v[3] > reference),
                    Px::Near(v) if v[3].abs_diff(reference) > 1 => Some(v[3] > reference),
                    _ => None,
                };
                passes = match (passes, alpha) {
                    (Some(false), _) | (_, Some(false)) => Some(false),
                    (Some(true), Some(true)) => Some(true),
                    _ => None,
                };
            }
            if tested {
                let stored = surface.depth.as_ref().and_then(|d| d[i]);
                let depth_pass = match (stored, fill.z) {
                    (Some(d), Some(z)) => Some(z <= d),
                    _ => None,
                };
                passes = match (passes, depth_pass) {
                    (Some(false), _) | (_, Some(false)) => Some(false),
                    (Some(true), Some(true)) => Some(true),
                    _ => None,
                };
            }
            match passes {
                Some(true) => {
                    surface.px[i] = colour;
                    if tested {
                        if let Some(d) = surface.depth.as_mut() {
                            d[i] = fill.z;
                        }
                    }
                    count = count.map(|c| c + 1);
                }
                Some(false) => {}
                None => {
                    // Maybe written: the old and the new content are both possible.
                    let old = surface.px[i];
                    surface.px[i] = if old == Px::Undefined || colour == Px::Undefined {
                        Px::Undefined
                    } else {
                        Px::Defined
                    };
                    if tested {
                        if let Some(d) = surface.depth.as_mut() {
                            d[i] = None;
                        }
                    }
                    count = None;
                }
            }
        }
    }
    count
}

/// The pixel rectangle of grid x coordinates `x0..x1` (eighths of clip space) and y
/// coordinates (eighths, up is positive) on a `w`×`h` target.
pub fn grid_rect(w: i32, h: i32, xs: (i32, i32), ys: (i32, i32)) -> PxRect {
    let px = |x: i32| (x + 8) * w / 16;
    let py = |y: i32| (8 - y) * h / 16;
    PxRect {
        x0: px(xs.0.min(xs.1)),
        x1: px(xs.0.max(xs.1)),
        y0: py(ys.0.max(ys.1)),
        y1: py(ys.0.min(ys.1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_product_with_white_is_exact_and_of_two_colours_near() {
        let red = Px::Exact([200, 10, 0, 255]);
        assert_eq!(product(&[red, Px::Exact([255; 4])], 1.0), red);
        assert_eq!(product(&[red, Px::Exact([102, 255, 0, 255])], 1.0), Px::Near([80, 10, 0, 255]));
        assert_eq!(product(&[red, Px::Defined], 1.0), Px::Defined);
    }

    #[test]
    fn a_depth_tested_rectangle_writes_only_where_it_is_nearer() {
        let mut s = Surface::new(4, 2, Px::Exact([0; 4]), true);
        s.fill_depth(Some(0.5));
        s.depth.as_mut().unwrap()[1] = Some(0.25);
        let fill = Fill {
            rect: PxRect { x0: 0, y0: 0, x1: 2, y1: 1 },
            exact: true,
            paint: Paint::Solid(Px::Exact([9; 4])),
            z: Some(0.5),
            depth_test: true,
            alpha_greater: None,
        };
        assert_eq!(draw(&mut s, &fill), Some(1));
        assert_eq!(s.at(0, 0), Px::Exact([9; 4]));
        assert_eq!(s.at(1, 0), Px::Exact([0; 4]));
    }

    #[test]
    fn grid_coordinates_land_on_pixel_edges() {
        assert_eq!(grid_rect(16, 32, (-8, 8), (8, -8)), PxRect { x0: 0, y0: 0, x1: 16, y1: 32 });
        assert_eq!(grid_rect(48, 32, (-4, 2), (4, 0)), PxRect { x0: 12, y0: 8, x1: 30, y1: 16 });
    }
}
