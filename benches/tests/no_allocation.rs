//! Recording a frame allocates nothing once warm: the frame's node list, its pass segments'
//! attachment and op lists, the sprite arena and the 3D draws' geometry boxes are recycled from
//! submitted frames. Counted by
//! the counting allocator on the game thread alone (the render thread's compile and submission
//! are not this test's subject).

use xnagraph::{
    Color, DeviceOptions, GraphicsDevice, GraphicsProfile, PresentationParameters, SpriteBatch,
    Texture2D, Vector2,
};
use xnagraph_benches::alloc_count::{thread_allocations, CountingAllocator};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

const WARMUP: usize = 4;
const FRAMES: usize = 8;

/// The game thread's allocations while `f` runs.
fn counted(f: impl FnOnce()) -> u64 {
    let before = thread_allocations();
    f();
    thread_allocations() - before
}

/// A game's frames of sprites (a clear, a batch of a thousand sprites of one texture, a batch
/// of a hundred sprites alternating 20 textures, which is seven draws of several textures, a
/// present), with the
/// render thread catching up between frames, as the sprite benchmark runs them: after warm-up,
/// neither the one-texture batch from `begin` to `end` nor the whole frame allocates.
#[test]
fn a_warm_frame_of_sprites_allocates_nothing_on_the_game_thread() {
    let params = PresentationParameters {
        back_buffer_width: 64,
        back_buffer_height: 64,
        ..Default::default()
    };
    let options = DeviceOptions { validation: true, ..Default::default() };
    let device = GraphicsDevice::with_options(GraphicsProfile::HiDef, params, options).unwrap();
    let draws = || device.last_plan_cost().map(|c| c.draws);
    let texture = Texture2D::new(&device, 4, 4).unwrap();
    texture.set_data(&[Color::WHITE; 16]).unwrap();
    let many: Vec<_> = (0..20).map(|_| Texture2D::new(&device, 2, 2).unwrap()).collect();
    let mut batch = SpriteBatch::new(&device).unwrap();
    let (mut batches, mut frames) = (Vec::new(), Vec::new());
    for frame in 0..WARMUP + FRAMES {
        let mut in_batch = 0;
        let whole = counted(|| {
            device.clear(Color::CORNFLOWER_BLUE).unwrap();
            in_batch = counted(|| {
                batch.begin().unwrap();
                for i in 0..1000 {
                    let p = Vector2::new((i % 60) as f32, (i / 60) as f32);
                    batch.draw(&texture, p, Color::WHITE).unwrap();
                }
                batch.end().unwrap();
            });
            batch.begin().unwrap();
            for i in 0..100 {
                let p = Vector2::new((i % 60) as f32, 30.0);
                batch.draw(&many[i % many.len()], p, Color::WHITE).unwrap();
            }
            batch.end().unwrap();
            device.present().unwrap();
        });
        device.wait_idle().unwrap();
        if frame >= WARMUP {
            batches.push(in_batch);
            frames.push(whole);
        }
    }
    assert_eq!(draws(), Some(8), "one draw of one texture, seven of up to 16 textures");
    assert_eq!(batches, [0; FRAMES], "allocations from begin to end, per frame");
    assert_eq!(frames, [0; FRAMES], "allocations of the whole frame, per frame");
}

/// A game's frames of 3D draws the XNA way (per cube: BasicEffect's World and DiffuseColor set,
/// the pass applied, `DrawIndexedPrimitives` from a bound vertex and index buffer), with the
/// render thread catching up between frames: after warm-up, neither the draws nor the whole
/// frame allocate (the applied effect is rewritten in place, the vertex layout of the bound
/// streams is remembered, each draw is written into a spare geometry box of a submitted frame).
#[test]
fn a_warm_frame_of_basic_effect_draws_allocates_nothing_on_the_game_thread() {
    use xnagraph::{
        BasicEffect, BufferUsage, IndexBuffer, IndexElementSize, Matrix, PrimitiveType, Vector3,
        VertexBuffer, VertexPositionNormalTexture,
    };
    let params = PresentationParameters {
        back_buffer_width: 64,
        back_buffer_height: 64,
        ..Default::default()
    };
    let options = DeviceOptions { validation: true, ..Default::default() };
    let device = GraphicsDevice::with_options(GraphicsProfile::HiDef, params, options).unwrap();
    let (mesh, index_data) = xnagraph_benches::stress::cubes::mesh();
    let vertices = VertexBuffer::with_type::<VertexPositionNormalTexture>(
        &device,
        mesh.len() as i32,
        BufferUsage::WriteOnly,
    )
    .unwrap();
    vertices.set_data(&mesh).unwrap();
    let indices = IndexBuffer::new(
        &device,
        IndexElementSize::SixteenBits,
        index_data.len() as i32,
        BufferUsage::WriteOnly,
    )
    .unwrap();
    indices.set_data(&index_data).unwrap();
    let mut effect = BasicEffect::new(&device).unwrap();
    effect.enable_default_lighting();
    effect.view =
        Matrix::create_look_at(Vector3::new(0.0, 0.0, 20.0), Vector3::ZERO, Vector3::UNIT_Y);
    effect.projection =
        Matrix::create_perspective_field_of_view(std::f32::consts::FRAC_PI_4, 1.0, 1.0, 50.0)
            .unwrap();
    let (mut draws, mut frames) = (Vec::new(), Vec::new());
    for frame in 0..WARMUP + FRAMES {
        let mut in_draws = 0;
        let whole = counted(|| {
            device.clear(Color::CORNFLOWER_BLUE).unwrap();
            device.set_indices(Some(&indices)).unwrap();
            device.set_vertex_buffer(Some(&vertices)).unwrap();
            in_draws = counted(|| {
                for i in 0..200 {
                    let turn = (i + frame) as f32 * 0.1;
                    effect.world = Matrix::create_rotation_y(turn)
                        .mul(&Matrix::create_translation((i % 20) as f32 - 10.0, 0.0, 0.0));
                    effect.diffuse_color = Vector3::new((i % 5) as f32 / 5.0, 0.5, 1.0);
                    effect.current_technique().passes()[0].apply().unwrap();
                    device
                        .draw_indexed_primitives(PrimitiveType::TriangleList, 0, 0, 24, 0, 12)
                        .unwrap();
                }
            });
            device.present().unwrap();
        });
        device.wait_idle().unwrap();
        if frame >= WARMUP {
            draws.push(in_draws);
            frames.push(whole);
        }
    }
    assert_eq!(draws, [0; FRAMES], "allocations of the 200 applies and draws, per frame");
    assert_eq!(frames, [0; FRAMES], "allocations of the whole frame, per frame");
}

/// Streaming `SetData` every frame (256 KiB into a texture, 128 KiB into a vertex buffer, each
/// frame's bytes different) allocates nothing on the game thread once warm: the copies land in
/// the upload buffers of submitted frames. The last frame's bytes are what the resources hold.
#[test]
fn streaming_set_data_allocates_nothing_once_warm() {
    use xnagraph::{BufferUsage, VertexBuffer, VertexPositionColor};
    let params = PresentationParameters {
        back_buffer_width: 16,
        back_buffer_height: 16,
        ..Default::default()
    };
    let options = DeviceOptions { validation: true, ..Default::default() };
    let device = GraphicsDevice::with_options(GraphicsProfile::HiDef, params, options).unwrap();
    let texture = Texture2D::new(&device, 256, 256).unwrap();
    let vertices =
        VertexBuffer::with_type::<VertexPositionColor>(&device, 8192, BufferUsage::None).unwrap();
    let texels_of = |frame: usize| -> Vec<Color> {
        (0..256 * 256)
            .map(|i| Color::new((i + frame) as u8, (i >> 8) as u8, frame as u8, 255))
            .collect()
    };
    let vertices_of = |frame: usize| -> Vec<VertexPositionColor> {
        (0..8192)
            .map(|i| VertexPositionColor {
                position: xnagraph::Vector3::new(i as f32, frame as f32, 0.5),
                color: Color::new(frame as u8, i as u8, 7, 255),
            })
            .collect()
    };
    let mut per_frame = Vec::new();
    let mut last = (Vec::new(), Vec::new());
    for frame in 0..WARMUP + FRAMES {
        let (texels, verts) = (texels_of(frame), vertices_of(frame));
        let allocated = counted(|| {
            texture.set_data(&texels).unwrap();
            vertices.set_data(&verts).unwrap();
            device.clear(Color::BLACK).unwrap();
            device.present().unwrap();
        });
        device.wait_idle().unwrap();
        if frame >= WARMUP {
            per_frame.push(allocated);
        }
        last = (texels, verts);
    }
    assert_eq!(per_frame, [0; FRAMES], "allocations of each warm frame");
    let mut texels = vec![Color::TRANSPARENT; 256 * 256];
    texture.get_data(&mut texels).unwrap();
    assert!(texels == last.0, "the texture holds the last frame's texels");
    let mut verts = vec![VertexPositionColor::default(); 8192];
    vertices.get_data(&mut verts).unwrap();
    assert!(verts == last.1, "the vertex buffer holds the last frame's vertices");
}
