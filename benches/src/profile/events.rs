//! A frame's event list: every clear, draw and query op of each plan node, each draw with the
//! state it ran with, as RenderDoc's event browser lists a frame.
//!
//! In: a compiled plan. Out: a [`NodeEvents`] per plan node, in plan order, each holding its
//! ops in execution order (a pass's ops are those of its segment that the plan runs; other
//! nodes have none). Kept by the profiler for one chosen frame (`replay --list N`), printed as
//! text and written as JSON (serde).
//!
//! Decided here: how a state reads. A state equal to one of XNA's stock objects reads as its
//! name (`AlphaBlend`, `DepthRead`, `CullCounterClockwise`, `LinearClamp`); any other reads as
//! its fields. A draw's call reads as the XNA call that made it: `DrawSprites` for SpriteBatch's
//! quads, `DrawPrimitives`, `DrawIndexedPrimitives` or `DrawInstancedPrimitives` for geometry.

use serde::Serialize;

use super::nodes::NodeInfo;
use xnagraph_graph::{
    BlendState, DepthStencilState, Draw, DrawCall, FramePlan, Node, PassOp, PlanNodeKind,
    PrimitiveType, RasterizerState, SamplerState, ShaderKind, StockShader,
};

/// One plan node and its ops.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NodeEvents {
    /// The node's label, as in the plan text and the node table.
    pub node: String,
    /// The node's kind (`pass`, `upload`, …; see [`super::nodes::NodeInfo::kind`]).
    pub kind: &'static str,
    /// Its attachments (a pass's, `name:image` each) or texture.
    pub attachments: String,
    /// A pass's load and store op per attachment: a clear the compiler folded into the pass
    /// shows here as a `clear` load, not as a clear op.
    pub ops: String,
    /// Its ops in execution order.
    pub events: Vec<Event>,
}

/// One op of a pass.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// `GraphicsDevice.Clear` inside the pass.
    Clear {
        /// `color (r, g, b, a)`, `depth d`, `stencil s`, those cleared, comma-separated.
        what: String,
    },
    /// A draw.
    Draw(Box<DrawEvent>),
    /// An occlusion query's `Begin` or `End`.
    Query {
        /// `begin` or `end`.
        op: &'static str,
    },
}

/// One draw and its state.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DrawEvent {
    /// The XNA call: `DrawSprites`, `DrawPrimitives`, `DrawIndexedPrimitives` or
    /// `DrawInstancedPrimitives`.
    pub call: &'static str,
    /// The effect: `SpriteEffect`, `BasicEffect`, `AlphaTestEffect`, `DualTextureEffect`,
    /// `cube sample`, `custom effect` or `custom geometry effect`.
    pub effect: &'static str,
    /// `TriangleList`, … for geometry; none for sprites.
    pub primitive: Option<String>,
    /// Sprites drawn (SpriteBatch), 0 for geometry.
    pub sprites: u32,
    /// Primitives drawn per instance (geometry), 0 for sprites.
    pub primitives: u32,
    /// Vertices (or indices, when indexed) read per instance.
    pub vertices: u32,
    /// Instances (1 unless instanced).
    pub instances: u32,
    /// Times the same draw follows with other stock effect values, recorded as this one
    /// (`GeometryDraw::repeats`: a run of `DrawIndexedPrimitives` that differ only in World
    /// and the material); 0 for any other draw.
    pub repeats: u32,
    /// Blend state.
    pub blend: String,
    /// Depth-stencil state.
    pub depth_stencil: String,
    /// Rasterizer state.
    pub rasterizer: String,
    /// Sampler state of the first texture.
    pub sampler: String,
    /// The textures sampled, by name, in slot order.
    pub textures: Vec<String>,
    /// The viewport: x, y, width, height.
    pub viewport: [i32; 4],
    /// The scissor rectangle (x, y, width, height), when the rasterizer state tests it.
    pub scissor: Option<[i32; 4]>,
}

fn named<T: PartialEq + std::fmt::Debug>(state: &T, names: &[(T, &str)]) -> String {
    names
        .iter()
        .find(|(stock, _)| stock == state)
        .map_or_else(|| format!("{state:?}"), |(_, name)| (*name).to_owned())
}

fn blend_name(state: &BlendState) -> String {
    named(
        state,
        &[
            (BlendState::OPAQUE, "Opaque"),
            (BlendState::ALPHA_BLEND, "AlphaBlend"),
            (BlendState::ADDITIVE, "Additive"),
            (BlendState::NON_PREMULTIPLIED, "NonPremultiplied"),
        ],
    )
}

fn depth_name(state: &DepthStencilState) -> String {
    named(
        state,
        &[
            (DepthStencilState::DEFAULT, "Default"),
            (DepthStencilState::DEPTH_READ, "DepthRead"),
            (DepthStencilState::NONE, "None"),
        ],
    )
}

fn rasterizer_name(state: &RasterizerState) -> String {
    named(
        state,
        &[
            (RasterizerState::CULL_NONE, "CullNone"),
            (RasterizerState::CULL_CLOCKWISE, "CullClockwise"),
            (RasterizerState::CULL_COUNTER_CLOCKWISE, "CullCounterClockwise"),
        ],
    )
}

fn sampler_name(state: &SamplerState) -> String {
    named(
        state,
        &[
            (SamplerState::POINT_CLAMP, "PointClamp"),
            (SamplerState::POINT_WRAP, "PointWrap"),
            (SamplerState::LINEAR_CLAMP, "LinearClamp"),
            (SamplerState::LINEAR_WRAP, "LinearWrap"),
            (SamplerState::ANISOTROPIC_CLAMP, "AnisotropicClamp"),
            (SamplerState::ANISOTROPIC_WRAP, "AnisotropicWrap"),
        ],
    )
}

/// Primitives of `primitive` in `count` vertices (or indices).
fn primitives(primitive: PrimitiveType, count: u32) -> u32 {
    match primitive {
        PrimitiveType::TriangleList => count / 3,
        PrimitiveType::TriangleStrip => count.saturating_sub(2),
        PrimitiveType::LineList => count / 2,
        PrimitiveType::LineStrip => count.saturating_sub(1),
    }
}

fn describe_draw(draw: &Draw) -> DrawEvent {
    let rect = |x: i32, y: i32, w: i32, h: i32| [x, y, w, h];
    let vp = draw.viewport;
    let mut event = DrawEvent {
        call: "DrawSprites",
        effect: "SpriteEffect",
        primitive: None,
        sprites: draw.sprite_count,
        primitives: 0,
        vertices: 0,
        instances: 1,
        repeats: 0,
        blend: blend_name(&draw.pipeline.blend),
        depth_stencil: depth_name(&draw.pipeline.depth_stencil),
        rasterizer: rasterizer_name(&draw.pipeline.rasterizer),
        sampler: sampler_name(&draw.sampler),
        textures: draw.textures.iter().map(|t| t.name()).collect(),
        viewport: rect(vp.x, vp.y, vp.width, vp.height),
        scissor: draw.pipeline.rasterizer.scissor_test_enable.then(|| {
            let s = draw.scissor;
            rect(s.x, s.y, s.width, s.height)
        }),
    };
    event.effect = match draw.pipeline.shader {
        ShaderKind::Sprite => "SpriteEffect",
        ShaderKind::CubeSample => "cube sample",
        ShaderKind::Custom(_) => "custom effect",
        ShaderKind::CustomGeometry(_) => "custom geometry effect",
        ShaderKind::Basic => match draw.geometry.as_ref().map(|g| g.material.shader) {
            Some(StockShader::AlphaTest) => "AlphaTestEffect",
            Some(StockShader::DualTexture) => "DualTextureEffect",
            Some(StockShader::Skinned) => "SkinnedEffect",
            Some(StockShader::EnvironmentMap) => "EnvironmentMapEffect",
            _ => "BasicEffect",
        },
    };
    let Some(geometry) = &draw.geometry else { return event };
    let (call, count) = match geometry.call {
        DrawCall::Vertices { vertex_count, .. } => ("DrawPrimitives", vertex_count),
        DrawCall::Indexed { index_count, .. } => ("DrawIndexedPrimitives", index_count),
    };
    event.call = if geometry.instances > 1 { "DrawInstancedPrimitives" } else { call };
    event.primitive = Some(format!("{:?}", geometry.primitive));
    event.sprites = 0;
    event.vertices = count;
    event.primitives = primitives(geometry.primitive, count);
    event.instances = geometry.instances;
    event.repeats = geometry.repeats.len() as u32;
    if let Some((texture, _)) = &geometry.texture2 {
        event.textures.push(texture.name());
    }
    if let Some(custom) = &geometry.custom {
        event.textures = custom.samplers.iter().map(|s| s.texture.name()).collect();
        if let Some(first) = custom.samplers.first() {
            event.sampler = sampler_name(&first.sampler);
        }
    }
    event
}

fn describe_clear(clear: &xnagraph_graph::Clear) -> String {
    let mut parts = Vec::new();
    if let Some([r, g, b, a]) = clear.color {
        parts.push(format!("color ({r}, {g}, {b}, {a})"));
    }
    if let Some(depth) = clear.depth {
        parts.push(format!("depth {depth}"));
    }
    if let Some(stencil) = clear.stencil {
        parts.push(format!("stencil {stencil}"));
    }
    parts.join(", ")
}

/// Every node of `plan` with its ops, in plan order; `nodes` are the plan's node descriptions
/// ([`super::nodes::describe`]).
pub fn list(plan: &FramePlan, nodes: &[NodeInfo]) -> Vec<NodeEvents> {
    plan.nodes
        .iter()
        .enumerate()
        .map(|(i, node)| {
            let mut events = Vec::new();
            if let PlanNodeKind::Pass(pass) = &node.kind {
                if let Some(Node::Pass(segment)) = plan.frame.nodes.get(pass.segment) {
                    for op in &pass.ops {
                        match segment.ops.get(op.index) {
                            Some(PassOp::Clear(clear)) => {
                                events.push(Event::Clear { what: describe_clear(clear) });
                            }
                            Some(PassOp::Draw(draw)) => {
                                events.push(Event::Draw(Box::new(describe_draw(draw))))
                            }
                            Some(PassOp::Query(query)) => events.push(Event::Query {
                                op: if query.begin { "begin" } else { "end" },
                            }),
                            None => {}
                        }
                    }
                }
            }
            let info = nodes.get(i);
            NodeEvents {
                node: plan.node_label(&node.kind),
                kind: info.map_or("", |n| n.kind),
                attachments: info.map(|n| n.attachments.clone()).unwrap_or_default(),
                ops: info.map(|n| n.ops.clone()).unwrap_or_default(),
                events,
            }
        })
        .collect()
}

/// The event list as text: a line per node, an indented line per op.
pub fn text(nodes: &[NodeEvents]) -> String {
    let mut out = String::new();
    let mut index = 0;
    for node in nodes {
        let ops = if node.ops.is_empty() { String::new() } else { format!(" {}", node.ops) };
        out.push_str(&format!("{} ({}) {}{ops}\n", node.node, node.kind, node.attachments));
        for event in &node.events {
            index += 1;
            let line = match event {
                Event::Clear { what } => format!("Clear {what}"),
                Event::Query { op } => format!("OcclusionQuery {op}"),
                Event::Draw(d) => {
                    let counts = if d.sprites > 0 || d.primitive.is_none() {
                        format!("{} sprites", d.sprites)
                    } else {
                        format!(
                            "{} {} primitives, {} vertices{}",
                            d.primitives,
                            d.primitive.as_deref().unwrap_or(""),
                            d.vertices,
                            match (d.instances, d.repeats) {
                                (1, 0) => String::new(),
                                (_, 0) => format!(", {} instances", d.instances),
                                (_, r) => format!(", drawn {} times", r + 1),
                            }
                        )
                    };
                    let scissor = d
                        .scissor
                        .map(|s| format!(" scissor {}x{}+{}+{}", s[2], s[3], s[0], s[1]))
                        .unwrap_or_default();
                    format!(
                        "{}({counts}) {} | blend {} | depth {} | rasterizer {} | sampler {} | \
                         textures [{}] | viewport {}x{}+{}+{}{scissor}",
                        d.call,
                        d.effect,
                        d.blend,
                        d.depth_stencil,
                        d.rasterizer,
                        d.sampler,
                        d.textures.join(", "),
                        d.viewport[2],
                        d.viewport[3],
                        d.viewport[0],
                        d.viewport[1],
                    )
                }
            };
            out.push_str(&format!("  {index:>4}  {line}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stock_state_reads_as_its_xna_name_and_any_other_as_its_fields() {
        assert_eq!(blend_name(&BlendState::ALPHA_BLEND), "AlphaBlend");
        assert_eq!(depth_name(&DepthStencilState::DEPTH_READ), "DepthRead");
        assert_eq!(
            rasterizer_name(&RasterizerState::CULL_COUNTER_CLOCKWISE),
            "CullCounterClockwise"
        );
        assert_eq!(sampler_name(&SamplerState::LINEAR_CLAMP), "LinearClamp");
        let mut custom = SamplerState::POINT_CLAMP;
        custom.max_anisotropy = 7;
        assert!(sampler_name(&custom).contains("max_anisotropy: 7"), "{}", sampler_name(&custom));
    }

    #[test]
    fn primitives_follow_xnas_vertex_counts() {
        for primitive in [
            PrimitiveType::TriangleList,
            PrimitiveType::TriangleStrip,
            PrimitiveType::LineList,
            PrimitiveType::LineStrip,
        ] {
            for n in 1..10 {
                assert_eq!(primitives(primitive, primitive.vertex_count(n) as u32), n);
            }
        }
    }
}
