//! `cubes`: 3D draw-call throughput. N lit cubes share one mesh (24 `VertexPositionNormalTexture`
//! vertices in a `VertexBuffer`, 36 16-bit indices in an `IndexBuffer`); each has its own World
//! (a uniform scale, a rotation that turns with the frame, a place inside the view frustum, all
//! drawn from the seeded generator) and its own DiffuseColor, lit by XNA's default three-light
//! rig per vertex, over a depth buffer.
//!
//! [`Scenario::update`] computes the frame's Worlds (the game's own simulation: no engine calls);
//! [`Scenario::record`] clears and draws them, in one of two ways ([`DrawMode`]):
//!
//! - `draws`, XNA's way: a `BasicEffect` with `EnableDefaultLighting`; per cube, set World and
//!   DiffuseColor, apply the pass, `DrawIndexedPrimitives`;
//! - `instanced`: the cubes' World rows and colours written into a `DynamicVertexBuffer` bound
//!   with instance frequency 1 beside the mesh, one `DrawInstancedPrimitives`. The stock
//!   `BasicEffect` reads World from its parameters only, so a `CustomEffect` compiled from the
//!   reference's own vertex stage ([`CUBE_REFERENCE_GLSL`]) lights the cubes with the same
//!   per-vertex maths, from the same `BasicEffect`'s light values ([`CubeScene`]).
//!
//! Both give the same pixels, and so does the hand-written reference ([`crate::ash_cubes`]),
//! up to edges and the last bit. With `--ash-reference` the reference draws the last frame's
//! cubes in the same mode on its own device ([`measure_reference`]); the summary then gives its
//! CPU time per draw and GPU time beside the engine's, and how far its pixels are from the
//! engine's ([`reference_fields`]).

use xnagraph::{
    BasicEffect, BufferUsage, Color, CustomEffect, DynamicVertexBuffer, GraphicsDevice,
    IndexBuffer, IndexElementSize, Matrix, PassSource, PrimitiveType, SetDataOptions,
    TechniqueSource, Vector3, Vector4, VertexBuffer, VertexBufferBinding, VertexDeclaration,
    VertexElement, VertexElementFormat, VertexElementUsage, VertexPositionNormalTexture,
};
use xnagraph_shaders::{CUBE_REFERENCE_FRAG_GLSL, CUBE_REFERENCE_GLSL};

use super::{Rng, Scenario, TIME_STEP};
use crate::ash_cubes::{compare_pixels, AshCubes, CubeInstance, CubeScene, CubeTimes, DrawMode};
use crate::{number, string, Value};

/// The colour each frame clears the back buffer to, R G B A.
pub const CLEAR: [u8; 4] = [24, 28, 40, 255];

/// The camera's vertical field of view, radians, and its near and far planes.
const FIELD_OF_VIEW: f32 = std::f32::consts::FRAC_PI_4;
const NEAR: f32 = 1.0;
const FAR: f32 = 200.0;
/// How far from the camera the cubes are placed.
const NEAREST: f32 = 8.0;
const FARTHEST: f32 = 80.0;

/// How the scenario runs.
#[derive(Clone, Copy, Debug)]
pub struct CubeOptions {
    /// Cubes drawn every frame.
    pub cubes: u32,
    /// How they become draws.
    pub mode: DrawMode,
    /// The back buffer's size.
    pub size: (i32, i32),
    /// The generator's seed.
    pub seed: u64,
}

/// Where one cube stands and how it turns.
struct Placement {
    position: Vector3,
    scale: f32,
    /// Yaw, pitch and roll at frame 0, radians.
    start: Vector3,
    /// Yaw, pitch and roll per second, radians.
    spin: Vector3,
    color: Vector3,
}

/// The per-instance stream of the `instanced` mode.
struct Instanced {
    effect: CustomEffect,
    buffer: DynamicVertexBuffer,
}

/// The cubes scenario.
pub struct Cubes {
    options: CubeOptions,
    vertices: VertexBuffer,
    indices: IndexBuffer,
    effect: BasicEffect,
    instanced: Option<Instanced>,
    placements: Vec<Placement>,
    /// The frame's cubes, as [`Scenario::update`] left them.
    cubes: Vec<CubeInstance>,
}

impl Cubes {
    /// Creates the mesh, the effect (and, instanced, the per-instance buffer and the custom
    /// effect) and places the cubes.
    pub fn new(device: &GraphicsDevice, options: CubeOptions) -> xnagraph::Result<Cubes> {
        let (mesh, index_data) = mesh();
        let vertices = VertexBuffer::with_type::<VertexPositionNormalTexture>(
            device,
            mesh.len() as i32,
            BufferUsage::WriteOnly,
        )?;
        vertices.set_data(&mesh)?;
        let indices = IndexBuffer::new(
            device,
            IndexElementSize::SixteenBits,
            index_data.len() as i32,
            BufferUsage::WriteOnly,
        )?;
        indices.set_data(&index_data)?;
        let (width, height) = options.size;
        let mut effect = BasicEffect::new(device)?;
        effect.enable_default_lighting();
        effect.view = Matrix::create_look_at(Vector3::ZERO, -Vector3::UNIT_Z, Vector3::UNIT_Y);
        let aspect = width as f32 / height.max(1) as f32;
        effect.projection =
            Matrix::create_perspective_field_of_view(FIELD_OF_VIEW, aspect, NEAR, FAR)?;
        let instanced = match options.mode {
            DrawMode::Draws => None,
            DrawMode::Instanced => Some(instanced(device, &scene(&effect), options.cubes)?),
        };
        let placements = place(options.seed, options.cubes, aspect);
        let cubes = Vec::with_capacity(placements.len());
        Ok(Cubes { options, vertices, indices, effect, instanced, placements, cubes })
    }

    /// Cubes drawn every frame.
    pub fn count(&self) -> usize {
        self.placements.len()
    }

    /// Draw calls recorded per frame: one per cube, or one.
    pub fn draws_per_frame(&self) -> usize {
        match self.options.mode {
            DrawMode::Draws => self.count(),
            DrawMode::Instanced => 1,
        }
    }

    /// The cubes of the frame last updated: World and colour, as the reference draws them.
    pub fn instances(&self) -> &[CubeInstance] {
        &self.cubes
    }

    /// What every cube shares: the camera and the lit `BasicEffect`'s values.
    pub fn scene(&self) -> CubeScene {
        scene(&self.effect)
    }
}

/// The values of a lit `effect` the cubes share.
fn scene(effect: &BasicEffect) -> CubeScene {
    CubeScene {
        view: effect.view,
        projection: effect.projection,
        ambient_light_color: effect.ambient_light_color,
        specular_color: effect.specular_color,
        specular_power: effect.specular_power,
        lights: [effect.directional_light0, effect.directional_light1, effect.directional_light2],
    }
}

/// The instanced mode's effect, compiled from the reference's instanced vertex stage and its
/// fragment stage with `scene`'s values set, and a per-instance buffer of `cubes` elements.
fn instanced(
    device: &GraphicsDevice,
    scene: &CubeScene,
    cubes: u32,
) -> xnagraph::Result<Instanced> {
    let vertex = format!("#version 450\n#define CUBE_INSTANCED\n{CUBE_REFERENCE_GLSL}");
    let pass = PassSource { name: "P0", vertex: &vertex, fragment: CUBE_REFERENCE_FRAG_GLSL };
    let effect = CustomEffect::new(device, &[TechniqueSource { name: "Lit", passes: &[pass] }])?;
    effect.parameter("ViewProjection")?.set_value(scene.view_projection())?;
    for (name, [x, y, z, w]) in scene.values() {
        effect.parameter(name)?.set_value(Vector4::new(x, y, z, w))?;
    }
    let row = |i: u32| {
        VertexElement::new(
            i * 16,
            VertexElementFormat::Vector4,
            VertexElementUsage::TextureCoordinate,
            i + 1,
        )
    };
    let declaration = VertexDeclaration::new(&[
        row(0),
        row(1),
        row(2),
        row(3),
        VertexElement::new(64, VertexElementFormat::Vector4, VertexElementUsage::Color, 1),
    ])?;
    let buffer = DynamicVertexBuffer::new(
        device,
        &declaration,
        cubes.max(1) as i32,
        BufferUsage::WriteOnly,
    )?;
    Ok(Instanced { effect, buffer })
}

/// `count` cubes spread through the view frustum of `aspect` (between [`NEAREST`] and
/// [`FARTHEST`] in front of the camera, inside 90% of its width and height there), each of edge
/// 1 to 2.5, starting at any orientation and turning at up to a quarter turn per second about
/// each axis, in a colour of channels 0.2 to 1.
fn place(seed: u64, count: u32, aspect: f32) -> Vec<Placement> {
    let mut rng = Rng::new(seed);
    let half = (FIELD_OF_VIEW / 2.0).tan();
    let turn = std::f32::consts::PI;
    (0..count)
        .map(|_| {
            let distance = NEAREST + rng.unit() * (FARTHEST - NEAREST);
            let (h, w) = (distance * half * 0.9, distance * half * aspect * 0.9);
            let position =
                Vector3::new((rng.unit() * 2.0 - 1.0) * w, (rng.unit() * 2.0 - 1.0) * h, -distance);
            let scale = 1.0 + rng.unit() * 1.5;
            let start = Vector3::new(
                rng.unit() * turn * 2.0,
                rng.unit() * turn * 2.0,
                rng.unit() * turn * 2.0,
            );
            let spin = Vector3::new(
                (rng.unit() - 0.5) * turn,
                (rng.unit() - 0.5) * turn,
                (rng.unit() - 0.5) * turn,
            );
            let color = Vector3::new(
                0.2 + rng.unit() * 0.8,
                0.2 + rng.unit() * 0.8,
                0.2 + rng.unit() * 0.8,
            );
            Placement { position, scale, start, spin, color }
        })
        .collect()
}

/// The cube of edge 1 centred on the origin: four vertices per face, each with the face's
/// outward normal and texture coordinates, and two triangles per face, clockwise seen from
/// outside (XNA's front faces under its default `CullCounterClockwiseFace`).
pub fn mesh() -> (Vec<VertexPositionNormalTexture>, Vec<u16>) {
    let (x, y, z) = (Vector3::UNIT_X, Vector3::UNIT_Y, Vector3::UNIT_Z);
    // Each face's normal, and its right and up axes seen from outside (right × up = normal).
    let faces = [(x, -z, y), (-x, z, y), (y, x, -z), (-y, x, z), (z, x, y), (-z, -x, y)];
    let mut vertices = Vec::with_capacity(24);
    let mut indices = Vec::with_capacity(36);
    for (normal, right, up) in faces {
        let base = vertices.len() as u16;
        // Top left, top right, bottom right, bottom left.
        for (u, v) in [(-1.0f32, 1.0f32), (1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)] {
            let position = (normal + right * u + up * v) * 0.5;
            let texture_coordinate = xnagraph::Vector2::new((u + 1.0) / 2.0, (1.0 - v) / 2.0);
            vertices.push(VertexPositionNormalTexture { position, normal, texture_coordinate });
        }
        indices.extend([0, 1, 2, 0, 2, 3].map(|i| base + i));
    }
    (vertices, indices)
}

impl Scenario for Cubes {
    /// Each cube's World for this frame: its scale, its rotation turned by the frame's time,
    /// its place.
    fn update(&mut self, frame: u32) {
        let t = frame as f32 * TIME_STEP;
        self.cubes.clear();
        self.cubes.extend(self.placements.iter().map(|p| {
            let turned = p.start + p.spin * t;
            let world = Matrix::create_scale(p.scale, p.scale, p.scale)
                .mul(&Matrix::create_from_yaw_pitch_roll(turned.x, turned.y, turned.z))
                .mul(&Matrix::create_translation(p.position.x, p.position.y, p.position.z));
            CubeInstance { world: world.m, color: [p.color.x, p.color.y, p.color.z, 1.0] }
        }));
    }

    fn record(&mut self, device: &GraphicsDevice, _: u32) -> xnagraph::Result<()> {
        let [r, g, b, a] = CLEAR;
        device.clear(Color::new(r, g, b, a))?;
        device.set_indices(Some(&self.indices))?;
        let primitives = 12;
        match &self.instanced {
            None => {
                device.set_vertex_buffer(Some(&self.vertices))?;
                for cube in &self.cubes {
                    self.effect.world = cube.world();
                    self.effect.diffuse_color = cube.diffuse();
                    self.effect.current_technique().passes()[0].apply()?;
                    device.draw_indexed_primitives(
                        PrimitiveType::TriangleList,
                        0,
                        0,
                        24,
                        0,
                        primitives,
                    )?;
                }
            }
            Some(Instanced { effect, buffer }) => {
                let count = self.cubes.len();
                if count == 0 {
                    return Ok(());
                }
                let stride = std::mem::size_of::<CubeInstance>() as i32;
                buffer.set_data_with_options(
                    0,
                    &self.cubes,
                    0,
                    count,
                    stride,
                    SetDataOptions::Discard,
                )?;
                let per_instance =
                    VertexBufferBinding { buffer, vertex_offset: 0, instance_frequency: 1 };
                device.set_vertex_buffers(&[
                    VertexBufferBinding::new(&self.vertices),
                    per_instance,
                ])?;
                for pass in effect.current_technique().passes() {
                    pass.apply()?;
                    device.draw_instanced_primitives(
                        PrimitiveType::TriangleList,
                        0,
                        0,
                        24,
                        0,
                        primitives,
                        count as i32,
                    )?;
                }
            }
        }
        Ok(())
    }
}

/// Timed draws of the reference; the median is kept.
pub const ROUNDS: usize = 15;

/// What the reference measured of the last frame, and how its pixels compare with the
/// engine's.
#[derive(Clone, Debug)]
pub struct ReferenceResult {
    /// Median CPU and GPU time of its draws.
    pub times: CubeTimes,
    /// Its adapter.
    pub adapter: String,
    /// The largest difference of any channel from the engine's frame.
    pub max_channel_difference: u8,
    /// Pixels that differ from the engine's in any channel.
    pub differing_pixels: usize,
    /// Its frame, rows top to bottom, R G B A.
    pub pixels: Vec<[u8; 4]>,
}

/// The back buffer of a headless `device` of `size`, rows top to bottom, R G B A.
pub fn back_buffer(device: &GraphicsDevice, size: (i32, i32)) -> xnagraph::Result<Vec<[u8; 4]>> {
    let count = (size.0 * size.1) as usize;
    let mut pixels = vec![Color::TRANSPARENT; count];
    device.get_back_buffer_data(None, &mut pixels, 0, count)?;
    Ok(pixels.iter().map(|c| [c.r, c.g, c.b, c.a]).collect())
}

/// Draws `scenario`'s last frame in the reference, in the scenario's mode and size, and compares
/// it with `engine` (the engine's back buffer after that frame); `Ok(Err)` says why there is
/// none where the adapter cannot run it. Validated with `validation`, whose messages fail the
/// run.
pub fn measure_reference(
    validation: bool,
    scenario: &Cubes,
    engine: &[[u8; 4]],
) -> Result<Result<ReferenceResult, String>, String> {
    let (width, height) = scenario.options.size;
    let (vertices, indices) = mesh();
    let size = (width as u32, height as u32);
    let made = AshCubes::new(
        validation,
        scenario.options.mode,
        size,
        (&vertices, &indices),
        scenario.scene(),
    );
    let mut reference = match made {
        Ok(reference) => reference,
        Err(why) => return Ok(Err(format!("not run: {why}"))),
    };
    let clear = CLEAR.map(|c| f32::from(c) / 255.0);
    let measured = reference.measure(scenario.instances(), clear, ROUNDS).and_then(|times| {
        let pixels = reference.read_pixels()?;
        let (max_channel_difference, differing_pixels) = compare_pixels(engine, &pixels);
        Ok(ReferenceResult {
            times,
            adapter: reference.adapter.clone(),
            max_channel_difference,
            differing_pixels,
            pixels,
        })
    });
    crate::no_validation_messages(&reference.take_messages())
        .map_err(|e| format!("cubes reference: {e}"))?;
    Ok(measured.map_err(|why| format!("failed: {why}")))
}

/// The summary fields of a `cubes` run whose engine GPU p50 is `gpu_p50_ms` (NaN when the
/// frames were not timed) against the reference (`Err` says why there is none):
/// `ash_reference_cpu_ns_per_draw` (its CPU time over the scenario's draws per frame),
/// `ash_reference_gpu_ms`, `gpu_over_ash_reference`, `max_channel_difference`,
/// `differing_pixels` and `ash_reference_adapter` (null without a reference), and
/// `ash_reference` (how it was had, or why not).
pub fn reference_fields(
    gpu_p50_ms: f64,
    scenario: &Cubes,
    reference: &Result<ReferenceResult, String>,
) -> Vec<(&'static str, Value)> {
    let draws = scenario.draws_per_frame().max(1) as f64;
    match reference {
        Ok(r) => {
            let ms = r.times.gpu_ns / 1e6;
            let how = format!("median of {ROUNDS} draws on {}", r.adapter);
            vec![
                ("ash_reference_cpu_ns_per_draw", number(r.times.cpu_ns / draws)),
                ("ash_reference_gpu_ms", number(ms)),
                ("gpu_over_ash_reference", number(gpu_p50_ms / ms)),
                ("max_channel_difference", r.max_channel_difference.into()),
                ("differing_pixels", r.differing_pixels.into()),
                ("ash_reference_adapter", string(&r.adapter)),
                ("ash_reference", string(&how)),
            ]
        }
        Err(why) => vec![
            ("ash_reference_cpu_ns_per_draw", Value::Null),
            ("ash_reference_gpu_ms", Value::Null),
            ("gpu_over_ash_reference", Value::Null),
            ("max_channel_difference", Value::Null),
            ("differing_pixels", Value::Null),
            ("ash_reference_adapter", Value::Null),
            ("ash_reference", string(why)),
        ],
    }
}
