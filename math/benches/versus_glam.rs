//! xnagraph-math against glam doing the same work in the same process: Matrix multiply,
//! Vector3.Transform over an array, and BoundingFrustum.Intersects(BoundingBox) over many
//! boxes. Prints one JSON object: nanoseconds per operation for each side (the median of
//! several timed runs) and the ratio xnagraph / glam. Run with
//! `cargo bench -p xnagraph-math --bench versus_glam`.

use std::hint::black_box;
use std::time::Instant;

use xnagraph_math::{BoundingBox, BoundingFrustum, MathHelper, Matrix, Vector3};

/// A small deterministic generator (xorshift), so both sides see the same data.
struct Rng(u32);

impl Rng {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        (self.0 >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0
    }
    fn vec3(&mut self, scale: f32) -> Vector3 {
        Vector3::new(self.next() * scale, self.next() * scale, self.next() * scale)
    }
}

/// Nanoseconds per operation: the median of `runs` timings of `work`, which does `ops`
/// operations.
fn time(runs: usize, ops: usize, mut work: impl FnMut()) -> f64 {
    work();
    let mut samples: Vec<f64> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            work();
            start.elapsed().as_nanos() as f64 / ops as f64
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[runs / 2]
}

fn entry(name: &str, ours: f64, glam: f64) -> String {
    format!(
        "\"{name}\": {{\"xnagraph_ns\": {ours:.3}, \"glam_ns\": {glam:.3}, \"ratio\": {:.3}}}",
        ours / glam
    )
}

fn main() {
    let mut rng = Rng(0x1234_5678);
    const N: usize = 4096;
    const RUNS: usize = 31;

    // Matrix multiply: out[i] = a[i] * b[i].
    let a: Vec<Matrix> = (0..N)
        .map(|_| {
            Matrix::create_from_yaw_pitch_roll(rng.next(), rng.next(), rng.next())
                * Matrix::create_translation_vector(rng.vec3(5.0))
        })
        .collect();
    let b: Vec<Matrix> = a.iter().rev().copied().collect();
    let (ga, gb): (Vec<glam::Mat4>, Vec<glam::Mat4>) = (
        a.iter().map(|m| glam::Mat4::from_cols_array_2d(&m.m)).collect(),
        b.iter().map(|m| glam::Mat4::from_cols_array_2d(&m.m)).collect(),
    );
    let mut out = vec![Matrix::IDENTITY; N];
    let mut gout = vec![glam::Mat4::IDENTITY; N];
    let mul_ours = time(RUNS, N, || {
        for ((o, x), y) in out.iter_mut().zip(black_box(&a)).zip(black_box(&b)) {
            *o = x * y;
        }
        black_box(&out);
    });
    // The same transform in glam's column-vector convention is y · x.
    let mul_glam = time(RUNS, N, || {
        for ((o, x), y) in gout.iter_mut().zip(black_box(&ga)).zip(black_box(&gb)) {
            *o = *y * *x;
        }
        black_box(&gout);
    });
    assert!(out.iter().zip(&gout).all(|(o, g)| o
        .m
        .iter()
        .flatten()
        .zip(g.to_cols_array())
        .all(|(p, q)| (p - q).abs() < 1e-4)));

    // Vector3.Transform over an array.
    const V: usize = 65536;
    let points: Vec<Vector3> = (0..V).map(|_| rng.vec3(10.0)).collect();
    let gpoints: Vec<glam::Vec3> = points.iter().map(|p| glam::Vec3::new(p.x, p.y, p.z)).collect();
    let m = a[7];
    let gm = ga[7];
    let mut dst = vec![Vector3::ZERO; V];
    let mut gdst = vec![glam::Vec3::ZERO; V];
    let transform_ours = time(RUNS, V, || {
        Vector3::transform_slice(black_box(&points), black_box(&m), &mut dst)
            .expect("lengths match");
        black_box(&dst);
    });
    let transform_glam = time(RUNS, V, || {
        let gm = black_box(gm);
        for (d, s) in gdst.iter_mut().zip(black_box(&gpoints)) {
            *d = gm.transform_point3(*s);
        }
        black_box(&gdst);
    });

    // BoundingFrustum.Intersects(BoundingBox) over many boxes.
    let view = Matrix::create_look_at(Vector3::new(0.0, 2.0, 10.0), Vector3::ZERO, Vector3::UP);
    let projection =
        Matrix::create_perspective_field_of_view(MathHelper::PI_OVER_4, 16.0 / 9.0, 0.5, 40.0)
            .expect("valid projection");
    let frustum = BoundingFrustum::new(view * projection);
    let boxes: Vec<BoundingBox> = (0..V)
        .map(|_| {
            let c = rng.vec3(30.0);
            let h = Vector3::splat(0.5 + rng.next().abs());
            BoundingBox::new(c - h, c + h)
        })
        .collect();
    // glam's side: the same six planes as Vec4s (normal, d) and boxes as Vec3A pairs, tested
    // with the same one-corner-per-plane rule.
    let planes: Vec<glam::Vec4> = [
        frustum.near(),
        frustum.far(),
        frustum.left(),
        frustum.right(),
        frustum.top(),
        frustum.bottom(),
    ]
    .iter()
    .map(|p| glam::Vec4::new(p.normal.x, p.normal.y, p.normal.z, p.d))
    .collect();
    let gboxes: Vec<(glam::Vec3A, glam::Vec3A)> = boxes
        .iter()
        .map(|b| {
            (
                glam::Vec3A::new(b.min.x, b.min.y, b.min.z),
                glam::Vec3A::new(b.max.x, b.max.y, b.max.z),
            )
        })
        .collect();
    let mut hits = 0usize;
    let cull_ours = time(RUNS, V, || {
        let f = black_box(&frustum);
        hits = black_box(&boxes).iter().filter(|b| f.intersects_box(b)).count();
    });
    let mut ghits = 0usize;
    let cull_glam = time(RUNS, V, || {
        let planes = black_box(&planes);
        ghits = black_box(&gboxes)
            .iter()
            .filter(|(lo, hi)| {
                planes.iter().all(|p| {
                    let n = glam::Vec3A::from(p.truncate());
                    let corner = glam::Vec3A::select(n.cmpge(glam::Vec3A::ZERO), *lo, *hi);
                    n.dot(corner) + p.w <= 0.0
                })
            })
            .count();
    });
    assert_eq!(hits, ghits, "both sides cull the same boxes");

    println!(
        "{{{}, {}, {}, \"boxes_visible\": {hits}}}",
        entry("matrix_multiply", mul_ours, mul_glam),
        entry("vector3_transform_array", transform_ours, transform_glam),
        entry("frustum_intersects_box", cull_ours, cull_glam),
    );
}
