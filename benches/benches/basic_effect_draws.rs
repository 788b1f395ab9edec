//! Recording 3D draws the XNA way: 10,000 lit cubes of one mesh, each its own World and
//! DiffuseColor set on a `BasicEffect`, the pass applied, `DrawIndexedPrimitives` (the
//! `xnagraph-stress cubes --mode draws` loop, without a GPU-bound frame: a 64x64 back buffer).
//! The timed region is the game thread's loop over the cubes; each round's frame is presented
//! and drained outside it. A counting allocator reports the game thread's heap allocations in
//! the timed region, and the kernel its page faults there (memory touched for the first time).

use std::time::{Duration, Instant};

use xnagraph::{
    BasicEffect, BufferUsage, Color, GraphicsDevice, GraphicsProfile, IndexBuffer,
    IndexElementSize, Matrix, PresentationParameters, PrimitiveType, Vector3, VertexBuffer,
    VertexPositionNormalTexture,
};
use xnagraph_benches::alloc_count::{thread_allocations, thread_minor_faults, CountingAllocator};
use xnagraph_benches::stress::cubes::mesh;
use xnagraph_benches::{json, number, stats, string};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

const CUBES: usize = 10_000;
const WARMUP: usize = 3;
const ROUNDS: usize = 30;

fn main() -> xnagraph::Result<()> {
    let params = PresentationParameters {
        back_buffer_width: 64,
        back_buffer_height: 64,
        ..Default::default()
    };
    let device = GraphicsDevice::with_options(
        GraphicsProfile::HiDef,
        params,
        xnagraph::DeviceOptions::from_env(),
    )?;
    let (vertex_data, index_data) = mesh();
    let vertices = VertexBuffer::with_type::<VertexPositionNormalTexture>(
        &device,
        vertex_data.len() as i32,
        BufferUsage::WriteOnly,
    )?;
    vertices.set_data(&vertex_data)?;
    let indices = IndexBuffer::new(
        &device,
        IndexElementSize::SixteenBits,
        index_data.len() as i32,
        BufferUsage::WriteOnly,
    )?;
    indices.set_data(&index_data)?;
    let mut effect = BasicEffect::new(&device)?;
    effect.enable_default_lighting();
    effect.view =
        Matrix::create_look_at(Vector3::new(0.0, 0.0, 30.0), Vector3::ZERO, Vector3::UNIT_Y);
    effect.projection =
        Matrix::create_perspective_field_of_view(std::f32::consts::FRAC_PI_4, 1.0, 1.0, 100.0)?;
    let cubes: Vec<(Matrix, Vector3)> = (0..CUBES)
        .map(|i| {
            let f = i as f32;
            let world = Matrix::create_from_yaw_pitch_roll(f * 0.01, f * 0.02, f * 0.03).mul(
                &Matrix::create_translation(
                    (i % 100) as f32 * 0.2 - 10.0,
                    (i / 100) as f32 * 0.2 - 10.0,
                    0.0,
                ),
            );
            (world, Vector3::new((i % 7) as f32 / 7.0, (i % 11) as f32 / 11.0, 0.5))
        })
        .collect();

    let mut timings: Vec<Duration> = Vec::with_capacity(ROUNDS);
    let mut most_allocations = 0;
    let mut faults: Vec<u64> = Vec::with_capacity(ROUNDS);
    for round in 0..WARMUP + ROUNDS {
        device.clear(Color::BLACK)?;
        device.set_indices(Some(&indices))?;
        device.set_vertex_buffer(Some(&vertices))?;
        let faulted = thread_minor_faults();
        let allocated = thread_allocations();
        let start = Instant::now();
        for (world, color) in &cubes {
            effect.world = *world;
            effect.diffuse_color = *color;
            effect.current_technique().passes()[0].apply()?;
            device.draw_indexed_primitives(PrimitiveType::TriangleList, 0, 0, 24, 0, 12)?;
        }
        let elapsed = start.elapsed();
        let allocated = thread_allocations() - allocated;
        let faulted = thread_minor_faults().zip(faulted).map(|(after, before)| after - before);
        device.present()?;
        device.wait_idle()?;
        if round >= WARMUP {
            timings.push(elapsed);
            most_allocations = most_allocations.max(allocated);
            faults.extend(faulted);
        }
    }
    if std::env::var_os("XNAGRAPH_BENCH_ROUNDS").is_some() {
        let ns: Vec<String> = timings
            .iter()
            .map(|d| format!("{:.1}", d.as_secs_f64() * 1e9 / CUBES as f64))
            .collect();
        eprintln!("rounds (ns/draw): {}", ns.join(" "));
        eprintln!("rounds (page faults): {faults:?}");
    }
    let s = stats(&timings);
    println!(
        "{}",
        json(&[
            ("bench", string("basic_effect_draws_record")),
            ("draws", CUBES.into()),
            ("rounds", timings.len().into()),
            ("median_ns_per_draw", number(s.median_ns / CUBES as f64)),
            ("min_ns_per_draw", number(s.min_ns / CUBES as f64)),
            ("mean_ns_per_draw", number(s.mean_ns / CUBES as f64)),
            ("most_allocations_per_round", most_allocations.into()),
            ("most_page_faults_per_round", faults.iter().copied().max().unwrap_or(0).into()),
        ])
    );
    Ok(())
}
