//! The Rust conventions of the API beside XNA's names: descriptors with `Default` for the long
//! overloads (each the same call as its XNA overload), and `bytemuck` re-exported for a game's
//! own vertex types.

mod common;

use common::*;
use xnagraph::bytemuck;
use xnagraph::{
    BlendState, BufferUsage, Color, DepthFormat, DepthStencilState, Matrix, RasterizerState,
    Rectangle, RenderTarget2D, RenderTargetOptions, RenderTargetUsage, SamplerState, SpriteBatch,
    SpriteBatchOptions, SpriteEffects, SpriteOptions, SpriteSortMode, SurfaceFormat, Vector2,
    VertexBuffer,
};

/// Draws the same scene with XNA's overloads or with the descriptors; the back buffer.
fn scene(descriptors: bool) -> Vec<Color> {
    let device = device(32, 32);
    let texels = [Color::RED, Color::LIME, Color::BLUE, Color::WHITE];
    let quads = solid(&device, 2, 2, Color::BLACK);
    quads.set_data(&texels).unwrap();
    device.clear(Color::BLACK).unwrap();
    let mut batch = SpriteBatch::new(&device).unwrap();
    let transform = Matrix::create_translation(2.0, 1.0, 0.0);
    let source = Some(Rectangle::new(1, 0, 1, 2));
    let (origin, scale) = (Vector2::new(0.5, 1.0), Vector2::new(6.0, 4.0));
    let flip = SpriteEffects::FLIP_VERTICALLY;
    if descriptors {
        batch
            .begin_with_options(&SpriteBatchOptions {
                sort_mode: SpriteSortMode::BackToFront,
                sampler_state: SamplerState::POINT_CLAMP,
                transform_matrix: transform,
                ..SpriteBatchOptions::default()
            })
            .unwrap();
        let options = SpriteOptions {
            source,
            color: Color::new(255, 200, 100, 255),
            rotation: 0.3,
            origin,
            scale,
            effects: flip,
            layer_depth: 0.2,
        };
        batch.draw_with(&quads, Vector2::new(12.0, 10.0), &options).unwrap();
        batch.draw_with(&quads, Vector2::new(3.0, 3.0), &SpriteOptions::default()).unwrap();
    } else {
        let point = Some(SamplerState::POINT_CLAMP);
        let sort = SpriteSortMode::BackToFront;
        batch.begin_with(sort, None, point, None, None, Some(transform)).unwrap();
        let tint = Color::new(255, 200, 100, 255);
        let position = Vector2::new(12.0, 10.0);
        batch.draw_ex(&quads, position, source, tint, 0.3, origin, scale, flip, 0.2).unwrap();
        batch.draw(&quads, Vector2::new(3.0, 3.0), Color::WHITE).unwrap();
    }
    batch.end().unwrap();
    read_back_buffer(&device)
}

#[test]
fn the_sprite_batch_descriptors_draw_what_xnas_overloads_draw() {
    let _v = Validation::new();
    let (overloads, described) = (scene(false), scene(true));
    // The scene is not empty: the default sprite's red texel at (5, 4), tinted texels
    // elsewhere.
    assert_eq!(at(&overloads, 32, 5, 4), Color::RED);
    let tinted = overloads.iter().filter(|c| c.g == 200 || c.b == 100).count();
    assert!(tinted > 10, "{tinted} tinted pixels");
    assert!(overloads == described, "the descriptors draw differently");
}

#[test]
fn the_descriptors_default_to_xnas_defaults() {
    let begin = SpriteBatchOptions::default();
    assert_eq!(begin.sort_mode, SpriteSortMode::Deferred);
    assert_eq!(begin.blend_state, BlendState::ALPHA_BLEND);
    assert_eq!(begin.sampler_state, SamplerState::LINEAR_CLAMP);
    assert_eq!(begin.depth_stencil_state, DepthStencilState::NONE);
    assert_eq!(begin.rasterizer_state, RasterizerState::CULL_COUNTER_CLOCKWISE);
    assert!(begin.effect.is_none());
    assert_eq!(begin.transform_matrix, Matrix::IDENTITY);
    let sprite = SpriteOptions::default();
    assert_eq!((sprite.source, sprite.color), (None, Color::WHITE));
    assert_eq!((sprite.rotation, sprite.layer_depth), (0.0, 0.0));
    assert_eq!((sprite.origin, sprite.scale), (Vector2::ZERO, Vector2::ONE));
    assert_eq!(sprite.effects, SpriteEffects::NONE);
    let target = RenderTargetOptions::default();
    assert!(!target.mip_map);
    assert_eq!((target.format, target.depth_format), (SurfaceFormat::Color, DepthFormat::None));
    assert_eq!(target.multi_sample_count, 0);
    assert_eq!(target.usage, RenderTargetUsage::DiscardContents);
}

#[test]
fn a_render_target_descriptor_creates_what_with_options_creates() {
    let _v = Validation::new();
    let device = device(16, 16);
    let options = RenderTargetOptions {
        mip_map: true,
        depth_format: DepthFormat::Depth24Stencil8,
        multi_sample_count: 4,
        usage: RenderTargetUsage::PreserveContents,
        ..RenderTargetOptions::default()
    };
    let described = RenderTarget2D::with_descriptor(&device, 64, 32, &options).unwrap();
    let o = options;
    let positional = RenderTarget2D::with_options(
        &device,
        64,
        32,
        o.mip_map,
        o.format,
        o.depth_format,
        o.multi_sample_count,
        o.usage,
    )
    .unwrap();
    let describe = |t: &RenderTarget2D| {
        (
            (t.width(), t.height(), t.level_count(), t.format()),
            (t.depth_stencil_format(), t.multi_sample_count(), t.render_target_usage()),
        )
    };
    assert_eq!(describe(&described), describe(&positional));
    assert!(described.level_count() > 1 && described.render_target_usage() == o.usage);
    let plain = RenderTarget2D::new(&device, 8, 8).unwrap();
    let default = RenderTarget2D::with_descriptor(&device, 8, 8, &Default::default()).unwrap();
    assert_eq!(describe(&plain), describe(&default));
    // An invalid value is the XNA overload's error.
    let zero = RenderTarget2D::with_descriptor(&device, 0, 8, &options).map(|_| ());
    let zero_positional = RenderTarget2D::new(&device, 0, 8).map(|_| ());
    assert_eq!(zero, zero_positional);
    assert!(zero.is_err());
}

/// A game's own vertex type, made `Pod` through the re-exported bytemuck: no dependency of its
/// own on bytemuck.
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
#[bytemuck(crate = "xnagraph::bytemuck")]
#[repr(C)]
struct Instance {
    offset: [f32; 2],
    tint: [u8; 4],
}

#[test]
fn a_pod_type_derived_through_the_reexport_uploads() {
    let _v = Validation::new();
    let device = device(8, 8);
    let buffer = VertexBuffer::new(&device, &instance_declaration(), 4, BufferUsage::None).unwrap();
    let data = [Instance { offset: [1.0, 2.0], tint: [1, 2, 3, 4] }; 4];
    buffer.set_data(&data).unwrap();
    let mut back = [Instance { offset: [0.0; 2], tint: [0; 4] }; 4];
    buffer.get_data(&mut back).unwrap();
    assert_eq!(bytemuck::bytes_of(&back[3]), bytemuck::bytes_of(&data[3]));
}

fn instance_declaration() -> xnagraph::VertexDeclaration {
    use xnagraph::{VertexElement, VertexElementFormat, VertexElementUsage};
    xnagraph::VertexDeclaration::new(&[
        VertexElement::new(0, VertexElementFormat::Vector2, VertexElementUsage::Position, 0),
        VertexElement::new(8, VertexElementFormat::Color, VertexElementUsage::Color, 0),
    ])
    .unwrap()
}
