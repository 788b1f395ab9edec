//! Helpers for building frames and plans by hand, and a validated backend per test.

#![allow(dead_code)]

use std::sync::Arc;

use xnagraph_graph::Diagnostics;
use xnagraph_graph::{
    Access, Backend, Barrier, BlendState, Clear, ColorBinding, DepthFormat, DepthStencilState,
    Draw, DrawTextures, Image, LoadOp, PassOp, PassSegment, PipelineKey, PlannedAttachment,
    RasterizerState, Rect, RenderTargetDesc, RenderTargetUsage, SamplerState, SegmentStart,
    ShaderKind, SpriteInstance, StoreOp, SurfaceFormat, TextureDesc, TextureState, Viewport,
};
use xnagraph_graph::{
    FrameCommands, FramePlan, LiveObjects, Node, PlanCost, PlanNode, PlanNodeKind, PlannedPass,
    Readback, ReadbackId, Slices,
};
use xnagraph_vulkan::{VulkanBackend, VulkanConfig};

/// A validated backend of the test's own: its validation messages and live objects are its own
/// (per device), so tests may run in parallel threads of one process.
pub struct Session {
    pub backend: VulkanBackend,
    pub diagnostics: Diagnostics,
}

/// The configuration every test runs with: validation on, undefined content poisoned.
///
/// Transient memory is off: these tests build plans by hand, without the compiler's transient
/// lists, and a target's multisample and depth images must then have memory from creation
/// (sharing is tested through the engine, `engine/tests/transient_memory.rs`).
pub fn test_config() -> VulkanConfig {
    VulkanConfig {
        validation: true,
        poison_undefined: true,
        transient_aliasing: false,
        ..VulkanConfig::default()
    }
}

impl Session {
    pub fn new() -> Session {
        Session::with_config(test_config())
    }

    pub fn with_config(config: VulkanConfig) -> Session {
        let backend = VulkanBackend::new(config).expect("a Vulkan 1.3 adapter");
        let diagnostics = backend.diagnostics();
        Session { backend, diagnostics }
    }

    pub fn texture(&mut self, desc: TextureDesc) -> Arc<TextureState> {
        let handle = self.backend.create_texture(&desc).expect("texture");
        TextureState::new(desc, handle, self.backend.retire_sink())
    }

    /// Tears the backend down and asserts validation stayed silent throughout.
    pub fn finish(self) {
        let Session { backend, diagnostics } = self;
        drop(backend);
        let messages = diagnostics.take_messages();
        assert!(messages.is_empty(), "validation reported: {messages:#?}");
        assert_eq!(diagnostics.live_native_objects(), 0, "teardown frees every native object");
    }
}

pub fn target_desc(width: u32, height: u32, mip_levels: u32, sample_count: u32) -> TextureDesc {
    TextureDesc {
        width,
        height,
        mip_levels,
        layers: 1,
        volume_depth: None,
        format: SurfaceFormat::Color,
        render_target: Some(RenderTargetDesc {
            depth: DepthFormat::None,
            sample_count,
            usage: RenderTargetUsage::DiscardContents,
            back_buffer: false,
        }),
    }
}

pub fn barrier(
    texture: &Arc<TextureState>,
    image: Image,
    levels: std::ops::Range<u32>,
    src: Access,
    dst: Access,
) -> Barrier {
    Barrier {
        texture: texture.clone(),
        image,
        levels,
        layers: 0..1,
        src,
        dst,
        discard: src == Access::Nothing,
    }
}

pub fn attachment(
    texture: &Arc<TextureState>,
    image: Image,
    load: LoadOp,
    store: StoreOp,
    resolve: bool,
) -> PlannedAttachment {
    PlannedAttachment { texture: texture.clone(), image, layer: 0, load, store, resolve }
}

pub fn segment(target: &Arc<TextureState>, ops: Vec<PassOp>) -> PassSegment {
    PassSegment {
        colors: vec![ColorBinding { target: target.clone(), layer: 0 }],
        start: SegmentStart::Bind {
            usage: target
                .desc()
                .render_target
                .map_or(RenderTargetUsage::DiscardContents, |rt| rt.usage),
        },
        ops,
    }
}

pub fn clear_op(color: [f32; 4]) -> PassOp {
    PassOp::Clear(Clear { color: Some(color), depth: None, stencil: None })
}

/// Pixels → Vulkan clip space (y down), column-major.
pub fn pixel_transform(width: u32, height: u32) -> [f32; 16] {
    let mut m = [0.0; 16];
    m[0] = 2.0 / width as f32;
    m[5] = 2.0 / height as f32;
    m[10] = 1.0;
    m[12] = -1.0;
    m[13] = -1.0;
    m[15] = 1.0;
    m
}

/// The instance of an axis-aligned sprite covering `rect`, sampling the whole texture.
pub fn quad(rect: Rect, color: [u8; 4]) -> [SpriteInstance; 1] {
    [SpriteInstance {
        origin: [rect.x as f32, rect.y as f32],
        right: [rect.width as f32, 0.0],
        down: [0.0, rect.height as f32],
        texcoords: [0.0, 0.0, 1.0, 1.0],
        depth: 0.0,
        color,
        texture: 0,
    }]
}

/// A SpriteBatch-style draw (opaque, point-clamped, XNA's default culling) of `sprites` sprites.
pub fn sprite_draw(
    texture: &Arc<TextureState>,
    first_sprite: u32,
    sprites: u32,
    width: u32,
    height: u32,
) -> PassOp {
    PassOp::Draw(Draw {
        pipeline: PipelineKey {
            shader: ShaderKind::Sprite,
            blend: BlendState::OPAQUE,
            depth_stencil: DepthStencilState::NONE,
            rasterizer: RasterizerState::CULL_COUNTER_CLOCKWISE,
        },
        sampler: SamplerState::POINT_CLAMP,
        textures: DrawTextures::one(texture.clone()),
        effect: None,
        first_sprite,
        sprite_count: sprites,
        viewport: Viewport::new(0, 0, width as i32, height as i32),
        scissor: Rect::new(0, 0, width as i32, height as i32),
        transform: pixel_transform(width, height),
        geometry: None,
    })
}

/// The RGBA bytes of pixel (x, y) of a tightly packed Color image `width` wide.
pub fn pixel(bytes: &[u8], width: u32, x: u32, y: u32) -> [u8; 4] {
    let i = ((y * width + x) * 4) as usize;
    [bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]
}

pub fn plan(frame: FrameCommands, nodes: Vec<PlanNode>) -> FramePlan {
    FramePlan { frame, nodes, cost: PlanCost::default(), transients: Default::default() }
}

/// An upload of `data` into `rect` of level 0, layer 0 of a colour texture.
pub fn upload(texture: &Arc<TextureState>, rect: Rect, data: Vec<u8>) -> Node {
    Node::Upload(xnagraph_graph::Upload {
        image: Image::Color,
        texture: texture.clone(),
        level: 0,
        layer: 0,
        rect,
        slices: Slices::FLAT,
        data,
    })
}

/// The plan node of upload node `node` into a colour texture that nothing used before.
pub fn planned_upload(texture: &Arc<TextureState>, node: usize) -> PlanNode {
    PlanNode {
        buffer_barriers: Vec::new(),
        barriers: vec![barrier(
            texture,
            Image::Color,
            0..1,
            Access::Nothing,
            Access::TransferWrite,
        )],
        kind: PlanNodeKind::Upload { node },
    }
}

pub fn readback(
    id: u64,
    texture: &std::sync::Arc<xnagraph_graph::TextureState>,
    level: u32,
    rect: Rect,
) -> Node {
    Node::Readback(Readback {
        image: xnagraph_graph::Image::Color,
        id: ReadbackId(id),
        texture: texture.clone(),
        level,
        layer: 0,
        rect,
        slices: Slices::FLAT,
    })
}

pub fn pass(
    segment: usize,
    colors: Vec<xnagraph_graph::PlannedAttachment>,
    ops: Vec<usize>,
) -> PlanNodeKind {
    // Each op writes every channel of the first attachment, as a sprite draw does.
    let writes = xnagraph_graph::ColorWrites([0xF, 0, 0, 0]);
    let ops = ops
        .into_iter()
        .map(|index| xnagraph_graph::PlannedOp { index, writes, instances: 1, repeats: 0 })
        .collect();
    PlanNodeKind::Pass(PlannedPass { segment, colors, depth: None, ops })
}

pub fn submit_and_read(s: &mut Session, plan: FramePlan, id: u64) -> Vec<u8> {
    let submission = s.backend.submit(&plan).expect("submit");
    drop(plan);
    s.backend.wait(submission).expect("wait");
    s.backend.take_readback(ReadbackId(id)).expect("readback bytes")
}

pub fn assert_all_freed(s: &mut Session) {
    s.backend.wait_idle().expect("wait_idle");
    assert_eq!(s.backend.live_objects().resources(), LiveObjects::default());
}
