//! The frame command list: what the public API records between flushes.
//!
//! A frame is a sequence of [`Node`]s in recording order. A [`PassSegment`] is one render-target
//! bind cycle (or the continuation of one that an upload, a readback or a flush interrupted); it
//! holds its attachments and the textures its draws sample by `Arc`, says how it began
//! ([`SegmentStart`]), and lists its [`PassOp`]s (clears and draws) in order. Uploads carry a
//! copy of the caller's data. The sprites of every draw live in one arena,
//! [`FrameCommands::sprites`], one instance each. Frames are built by
//! [`crate::builder::FrameBuilder`], which records what the game did and decides nothing.

use std::sync::Arc;

use crate::resource::{RenderTargetUsage, TextureState};

mod transfer;
pub use crate::states::*;
pub use transfer::{
    depth_stencil_size, sample_planes_size, BufferReadback, BufferUpload, Readback, ReadbackId,
    Upload,
};

/// An integer rectangle in pixels: XNA's `Rectangle`, from the math crate.
pub use xnagraph_math::Rectangle as Rect;

/// The depth slices `front..back` a transfer covers: the z range of XNA's `Texture3D` box. A 2D
/// texture or a cube face has one slice, [`Slices::FLAT`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub struct Slices {
    /// The first slice covered.
    pub front: u32,
    /// One past the last slice covered.
    pub back: u32,
}

impl Slices {
    /// The one slice of a 2D subresource.
    pub const FLAT: Slices = Slices { front: 0, back: 1 };

    /// How many slices are covered.
    pub fn count(self) -> u32 {
        self.back.saturating_sub(self.front)
    }
}

/// XNA's `Viewport` (pixels, depth range), from the math crate.
pub use xnagraph_math::Viewport;

/// Which shaders a draw uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShaderKind {
    /// `shaders/glsl/sprite.{vert,frag}`: position, colour, texcoord; tint × texture sample.
    /// One colour output (location 0): it writes the first bound target only.
    Sprite,
    /// The stock sprite vertex stage with `shaders/glsl/cube_sample.frag`: samples a cube
    /// texture in the direction the tint's RGB encodes (each component mapped from [0, 1] to
    /// [-1, 1]), untinted. The draw's texture must be a cube. One colour output (location 0).
    CubeSample,
    /// The stock sprite vertex stage with a custom effect's fragment stage, which writes
    /// `outputs` colour outputs (locations `0..outputs`). The draw holds the effect
    /// ([`Draw::effect`]) so its native stage outlives the submission.
    Custom(crate::effect::EffectKey),
    /// `shaders/glsl/basic.{vert,frag}`: the stock geometry effect (`BasicEffect`) of a
    /// geometry draw ([`Draw::geometry`]): transformed position, material colour × vertex
    /// colour × texture sample. One colour output (location 0).
    Basic,
    /// A custom geometry effect's program ([`crate::custom`]) for a geometry draw: its own
    /// vertex and fragment stages, which write `outputs` colour outputs. The draw's
    /// [`crate::GeometryDraw::custom`] holds the program and its values.
    CustomGeometry(crate::effect::EffectKey),
}

impl ShaderKind {
    /// How many colour outputs the fragment stage writes, from location 0: the attachments a
    /// draw can write (`colors[0..outputs]`).
    pub fn outputs(self) -> usize {
        match self {
            ShaderKind::Sprite | ShaderKind::CubeSample | ShaderKind::Basic => 1,
            ShaderKind::Custom(effect) | ShaderKind::CustomGeometry(effect) => {
                usize::from(effect.outputs)
            }
        }
    }
}

/// Everything that selects a pipeline, apart from the attachment formats of the pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PipelineKey {
    /// The stock shader.
    pub shader: ShaderKind,
    /// Blend state of every colour attachment.
    pub blend: BlendState,
    /// Depth and stencil tests.
    pub depth_stencil: DepthStencilState,
    /// Culling, fill mode, scissor test and depth bias.
    pub rasterizer: RasterizerState,
}

impl PipelineKey {
    /// The key a pipeline is built and cached under: this key without the blend factor and the
    /// stencil reference, which every backend sets as dynamic state per draw, so they never
    /// select a pipeline.
    pub fn static_part(&self) -> PipelineKey {
        let mut key = *self;
        key.blend.blend_factor = [0; 4];
        key.depth_stencil.reference_stencil = 0;
        key
    }
}

/// One sprite as `sprite.vert` reads it: an instance (52 bytes) whose four corners the vertex
/// stage expands, drawn as a four-vertex strip TL, TR, BL, BR. Corner `i` lies at
/// `origin + right·(i & 1) + down·(i >> 1)` and samples `texcoords` interpolated the same way,
/// so a rotated, scaled, flipped sprite costs the CPU one instance instead of four vertices.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Default, bytemuck::Pod, bytemuck::Zeroable)]
pub struct SpriteInstance {
    /// The top-left corner, in pixels before the draw's transform.
    pub origin: [f32; 2],
    /// The edge from the top-left to the top-right corner.
    pub right: [f32; 2],
    /// The edge from the top-left to the bottom-left corner.
    pub down: [f32; 2],
    /// Texture coordinates at the top-left (u, v) and bottom-right (u, v) corners, flips applied.
    pub texcoords: [f32; 4],
    /// XNA's layer depth, written as the corners' z.
    pub depth: f32,
    /// The tint as XNA's `Color` bytes, R G B A.
    pub color: [u8; 4],
    /// The slot of [`Draw::textures`] this sprite samples. Read only by a draw of more than one
    /// texture ([`DrawTextures::len`]); a draw of one texture samples it whatever the slot.
    pub texture: u32,
}

impl SpriteInstance {
    /// Corner `i` (0 TL, 1 TR, 2 BL, 3 BR): its position and texture coordinates, as the
    /// vertex stage computes them.
    pub fn corner(&self, i: usize) -> ([f32; 2], [f32; 2]) {
        let (x, y) = ((i & 1) as f32, (i >> 1) as f32);
        let [u0, v0, u1, v1] = self.texcoords;
        (
            [
                self.origin[0] + self.right[0] * x + self.down[0] * y,
                self.origin[1] + self.right[1] * x + self.down[1] * y,
            ],
            [u0 + (u1 - u0) * x, v0 + (v1 - v0) * y],
        )
    }
}

/// The most textures one sprite draw samples ([`DrawTextures`]): 16, the sampler count every
/// Vulkan device allows a fragment stage (`maxPerStageDescriptorSamplers`).
pub const MAX_DRAW_TEXTURES: usize = 16;

/// The textures a draw samples, each held so it outlives the frame's submission: one, or for a
/// stock sprite draw ([`ShaderKind::Sprite`]) up to [`MAX_DRAW_TEXTURES`], each sprite picking
/// its own by [`SpriteInstance::texture`]. A backend that can index textures in the fragment
/// stage draws such a batch at once; any other splits it into the runs of
/// [`DrawTextures::runs`], so alternating textures never change what is drawn, only how many
/// native draws it takes.
#[derive(Clone, Debug)]
pub struct DrawTextures {
    pub(crate) first: Arc<TextureState>,
    pub(crate) more: Vec<Arc<TextureState>>,
}

impl DrawTextures {
    /// A draw of one texture.
    pub fn one(texture: Arc<TextureState>) -> Self {
        DrawTextures { first: texture, more: Vec::new() }
    }

    /// A draw of `textures` in slot order; `None` when there are none or more than
    /// [`MAX_DRAW_TEXTURES`].
    pub fn many(mut textures: Vec<Arc<TextureState>>) -> Option<Self> {
        if textures.is_empty() || textures.len() > MAX_DRAW_TEXTURES {
            return None;
        }
        let first = textures.remove(0);
        Some(DrawTextures { first, more: textures })
    }

    /// Slot 0: the texture of a one-texture draw.
    pub fn first(&self) -> &Arc<TextureState> {
        &self.first
    }

    /// The texture at `slot`.
    pub fn get(&self, slot: u32) -> Option<&Arc<TextureState>> {
        match slot {
            0 => Some(&self.first),
            s => self.more.get(s as usize - 1),
        }
    }

    /// How many slots (1 to [`MAX_DRAW_TEXTURES`]).
    pub fn len(&self) -> usize {
        1 + self.more.len()
    }

    /// Never: a draw samples at least one texture (for clippy's `len_without_is_empty`).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The textures in slot order.
    pub fn iter(&self) -> impl Iterator<Item = &Arc<TextureState>> {
        std::iter::once(&self.first).chain(self.more.iter())
    }

    /// The runs of `sprites` (a draw's range of the arena) that sample one texture, in order:
    /// `(offset in sprites, count, texture)`. A one-texture draw is one run; otherwise a run
    /// ends where the slot changes. `Err` names the first slot past the textures.
    pub fn runs<'a>(
        &'a self,
        sprites: &'a [SpriteInstance],
    ) -> impl Iterator<Item = Result<(usize, usize, &'a Arc<TextureState>), u32>> + 'a {
        let single = self.more.is_empty();
        let mut start = 0;
        std::iter::from_fn(move || {
            if start >= sprites.len() {
                return None;
            }
            if single {
                start = sprites.len();
                return Some(Ok((0, sprites.len(), &self.first)));
            }
            let slot = sprites[start].texture;
            let count = sprites[start..].iter().take_while(|s| s.texture == slot).count();
            let run = (start, count);
            start += count;
            Some(self.get(slot).map(|t| (run.0, run.1, t)).ok_or(slot))
        })
    }
}

/// A clear command. Each aspect is `Some` only when the caller asked for it *and* the bound
/// target has it (the engine filters), so the compiler never sees a clear of a missing aspect.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub struct Clear {
    /// Clear the colour attachments to this RGBA value.
    pub color: Option<[f32; 4]>,
    /// Clear the depth to this value.
    pub depth: Option<f32>,
    /// Clear the stencil to this value.
    pub stencil: Option<u32>,
}

/// One draw: quads from the frame's sprite arena, or, with [`Draw::geometry`], primitives from
/// vertex and index buffers.
#[derive(Clone, Debug)]
pub struct Draw {
    /// Blend, depth/stencil and rasterizer state of the draw.
    pub pipeline: PipelineKey,
    /// How the draw samples its texture.
    pub sampler: SamplerState,
    /// The textures sampled: one, or several picked per sprite ([`DrawTextures`]).
    pub textures: DrawTextures,
    /// The custom effect of a [`ShaderKind::Custom`] draw (held so its native fragment stage
    /// outlives the frame's submission); `None` for the stock shaders.
    pub effect: Option<Arc<crate::effect::EffectState>>,
    /// First sprite in [`FrameCommands::sprites`].
    pub first_sprite: u32,
    /// Number of sprites, from `first_sprite` on.
    pub sprite_count: u32,
    /// The viewport in force when the draw was recorded.
    pub viewport: Viewport,
    /// Applied only when `pipeline.rasterizer.scissor_test_enable`.
    pub scissor: Rect,
    /// Column-major clip-space transform applied in the vertex shader.
    pub transform: [f32; 16],
    /// A geometry draw's vertices, indices and counts (`DrawPrimitives` and its family); `None`
    /// for a sprite draw, which reads its sprites instead.
    pub geometry: Option<Box<crate::geometry::GeometryDraw>>,
}

impl Draw {
    /// The rectangle the draw may write in a render area of `extent` (width, height): its
    /// scissor rectangle when its rasterizer state tests it, else its viewport, either clamped
    /// to the area (empty when it misses it). Every backend sets it as the native scissor.
    pub fn scissor_in(&self, extent: (u32, u32)) -> Rect {
        let r = if self.pipeline.rasterizer.scissor_test_enable {
            self.scissor
        } else {
            let vp = self.viewport;
            Rect::new(vp.x, vp.y, vp.width, vp.height)
        };
        let (w, h) = (i64::from(extent.0), i64::from(extent.1));
        let x0 = i64::from(r.x).clamp(0, w);
        let y0 = i64::from(r.y).clamp(0, h);
        let x1 = (i64::from(r.x) + i64::from(r.width.max(0))).clamp(x0, w);
        let y1 = (i64::from(r.y) + i64::from(r.height.max(0))).clamp(y0, h);
        Rect::new(x0 as i32, y0 as i32, (x1 - x0) as i32, (y1 - y0) as i32)
    }
}

/// An operation inside a bind cycle, in recording order.
// Draws are most of the ops, and boxing them would cost a heap allocation per recorded draw.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum PassOp {
    /// `Clear`: clear the aspects given.
    Clear(Clear),
    /// A draw of sprites.
    Draw(Draw),
    /// An occlusion query's `Begin` or `End` ([`crate::query`]): it counts the samples of the
    /// draws between its two ops that pass the depth and stencil tests.
    Query(crate::query::QueryOp),
}

/// One colour attachment of a pass segment: a 2D target (`layer` 0) or a cube face.
#[derive(Clone, Debug)]
pub struct ColorBinding {
    /// The texture whose image is attached.
    pub target: Arc<TextureState>,
    /// The array layer (cube face) attached; 0 for a 2D target.
    pub layer: u32,
}

/// How a pass segment began.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "capture", derive(serde::Serialize, serde::Deserialize))]
pub enum SegmentStart {
    /// A real `SetRenderTargets` transition. `usage` is the first target's (the back buffer's
    /// presentation usage when returning to it): as in XNA and FNA, the first target's usage
    /// decides whether the bind discards, and a discarding bind starts every attachment at
    /// opaque black, depth 1 and stencil 0 (the load stage turns that into CLEAR load ops).
    Bind {
        /// The usage that decides whether this bind discards.
        usage: RenderTargetUsage,
    },
    /// Drawing went back to the back buffer without a `SetRenderTargets` call, after a bound
    /// target was destroyed. Nothing is cleared. (A new frame starts as a `Bind` of the back
    /// buffer with its presentation usage.)
    Implicit,
    /// The same bind cycle resumed after an upload, a readback or a flush split it.
    Continue,
}

/// One render-target bind cycle. Depth/stencil, when present, is the primary target's own.
#[derive(Clone, Debug)]
pub struct PassSegment {
    /// One to four attachments; `colors[0]` is the primary (the back buffer when unbound).
    pub colors: Vec<ColorBinding>,
    /// A fresh bind, or the continuation of a split bind cycle.
    pub start: SegmentStart,
    /// Clears and draws, in recording order.
    pub ops: Vec<PassOp>,
}

impl PassSegment {
    /// The primary render target (`colors[0]`): the one whose size and depth buffer the pass uses.
    pub fn primary(&self) -> &Arc<TextureState> {
        &self.colors[0].target
    }
}

/// One recorded node.
#[derive(Clone, Debug)]
pub enum Node {
    /// A bind cycle (or its continuation) with its clears and draws.
    Pass(PassSegment),
    /// A `SetData`.
    Upload(Upload),
    /// A `GetData` (or `GetBackBufferData`).
    Readback(Readback),
    /// The back buffer is presented: its content is observed.
    Present(Arc<TextureState>),
    /// A vertex or index buffer's `SetData`.
    BufferUpload(BufferUpload),
    /// A vertex or index buffer's `GetData`.
    BufferReadback(BufferReadback),
}

/// One frame's recording, consumed by [`crate::compile::compile`].
#[derive(Clone, Debug, Default)]
pub struct FrameCommands {
    /// The recorded nodes, in recording order.
    pub nodes: Vec<Node>,
    /// Every draw's sprites, in one arena; a draw names its range.
    pub sprites: crate::SpriteArena,
    /// The vertices and indices of `DrawUserPrimitives` and `DrawUserIndexedPrimitives`,
    /// copied at the call; a geometry draw names its ranges.
    pub geometry_bytes: Vec<u8>,
    /// The pass segment (an index into `nodes`) whose bind cycle was still open when the frame
    /// was flushed: the next frame continues that cycle and loads what its attachments hold.
    pub open_cycle: Option<usize>,
    /// What the back buffer is presented to, as the backend reported it before the compile
    /// (set by the engine; [`crate::PresentTarget::Offscreen`] for a headless device).
    pub present_target: crate::present::PresentTarget,
    /// How this frame reaches the screen: decided by the compiler (`compile::present`) from
    /// `present_target`, the back buffer's usage and size; read by the access table and the
    /// backend.
    pub presentation: crate::present::PresentMode,
    /// Whether the compiler merges runs of draws that differ only in their stock effect's values
    /// into instanced draws ([`crate::compile::instances`]; the engine's
    /// `DeviceOptions::auto_instancing`). Off in a default frame.
    pub merge_instances: bool,
    /// Whether the frame's transient images (multisample and depth/stencil images whose content
    /// neither enters nor leaves it, [`crate::compile::transient`]) may share memory where
    /// their uses do not overlap (the engine's `DeviceOptions::transient_aliasing`). Off in a
    /// default frame.
    pub alias_transients: bool,
}

impl FrameCommands {
    /// Whether nothing was recorded (a flush of an empty frame submits nothing).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Derives every draw's [`crate::GeometryDraw::repeat_values`] into its repeats
    /// ([`crate::GeometryDraw::derive_repeats`]), so that the frame holds each repeat as the
    /// instance the GPU reads: what a capture asks before writing a frame. The compiler and the
    /// backends leave the values as they are (a backend derives each where the GPU reads it).
    /// Idempotent.
    pub fn derive_repeats(&mut self) {
        for node in &mut self.nodes {
            let Node::Pass(segment) = node else { continue };
            for op in &mut segment.ops {
                let PassOp::Draw(d) = op else { continue };
                if let Some(g) = d.geometry.as_deref_mut().filter(|g| !g.repeat_values.is_empty()) {
                    g.derive_repeats();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::testkit::texture;

    fn slots(slots: &[u32]) -> Vec<SpriteInstance> {
        slots.iter().map(|&texture| SpriteInstance { texture, ..Default::default() }).collect()
    }

    fn runs(textures: &DrawTextures, sprites: &[SpriteInstance]) -> Vec<(usize, usize, u64)> {
        textures.runs(sprites).map(|r| r.map(|(o, n, t)| (o, n, t.id().0)).unwrap()).collect()
    }

    /// A draw of several textures splits where the slot changes, back to an earlier texture
    /// included; a draw of one texture is one run whatever its sprites' slots.
    #[test]
    fn runs_end_where_the_slot_changes() {
        let (a, b, c) = (texture(1, 1, 1), texture(1, 1, 1), texture(1, 1, 1));
        let (ia, ib, ic) = (a.id().0, b.id().0, c.id().0);
        let many = DrawTextures::many(vec![a.clone(), b, c]).unwrap();
        assert_eq!(many.len(), 3);
        let sprites = slots(&[0, 0, 1, 2, 2, 2, 0, 1]);
        assert_eq!(
            runs(&many, &sprites),
            [(0, 2, ia), (2, 1, ib), (3, 3, ic), (6, 1, ia), (7, 1, ib)]
        );
        assert_eq!(runs(&DrawTextures::one(a), &sprites), [(0, 8, ia)]);
        assert_eq!(runs(&many, &[]), []);
    }

    /// The scissor rectangle when the rasterizer tests it, else the viewport, clamped to the
    /// render area either way.
    #[test]
    fn scissor_is_the_tested_scissor_else_the_viewport_clamped_to_the_render_area() {
        let PassOp::Draw(mut d) = crate::compile::testkit::draw(&texture(1, 1, 1)) else {
            unreachable!()
        };
        d.viewport = Viewport::new(-10, 20, 100, 100);
        d.scissor = Rect::new(8, 4, 16, 40);
        let area = (64, 32);
        assert_eq!(d.scissor_in(area), Rect::new(0, 20, 64, 12), "the viewport, clamped");
        d.pipeline.rasterizer.scissor_test_enable = true;
        assert_eq!(d.scissor_in(area), Rect::new(8, 4, 16, 28), "the scissor, clamped");
        d.scissor = Rect::new(70, 0, 5, 5);
        assert_eq!(d.scissor_in(area).width, 0, "outside the area: empty");
        d.scissor = Rect::new(4, 4, -3, 5);
        assert_eq!(d.scissor_in(area), Rect::new(4, 4, 0, 5), "a negative size: empty");
    }

    #[test]
    fn a_slot_past_the_textures_is_an_error_and_counts_are_bounded() {
        let t = texture(1, 1, 1);
        let two = DrawTextures::many(vec![t.clone(), t.clone()]).unwrap();
        let got: Vec<_> = two.runs(&slots(&[1, 2])).map(|r| r.map(|(o, n, _)| (o, n))).collect();
        assert_eq!(got, [Ok((0, 1)), Err(2)]);
        assert!(DrawTextures::many(Vec::new()).is_none());
        assert!(DrawTextures::many(vec![t.clone(); MAX_DRAW_TEXTURES]).is_some());
        assert!(DrawTextures::many(vec![t; MAX_DRAW_TEXTURES + 1]).is_none());
    }
}
