//! Pipelines asked for when a combination is first recorded, before any plan exists.
//!
//! XNA has no pipeline objects: a draw's states, shader, vertex layout and bound targets are free
//! to change with every call. A backend needs one pipeline per combination of them, and building
//! it while lowering a frame stalls that frame. So the [`crate::FrameBuilder`] notices each
//! combination the first time a draw records it and hands a [`PipelineRequest`] to its sink; the
//! engine sends it to the render thread, which builds it ([`crate::Backend::prepare_pipelines`])
//! while the game is still recording, and in any case before it lowers the frame that draws it.
//! Lowering finds the pipeline in the backend's cache; [`PipelineStats`] counts the pipelines
//! built either way.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Weak};

use crate::{
    ColorBinding, ColorWrites, DepthFormat, Draw, EffectKey, EffectState, PipelineKey,
    PrimitiveType, ShaderKind, StockVariant, SurfaceFormat, TextureState, VertexLayout,
    MAX_COLOR_ATTACHMENTS,
};

/// What a backend needs to build a draw's pipeline before the frame is compiled: the draw's
/// key, the bound targets, the channels it writes and, for a geometry draw, its vertex side.
/// Not an XNA type: the engine's way of creating pipelines when a combination is first recorded.
#[derive(Clone, Debug)]
pub struct PipelineRequest {
    /// The draw's states and shader.
    pub key: PipelineKey,
    /// The bound colour targets, in slot order (the first holds the depth buffer, if any); the
    /// backend reads their native formats and sample count as it does for a planned pass.
    pub targets: Vec<Arc<TextureState>>,
    /// The channels the draw writes per slot ([`ColorWrites::of_draw`], as the compiler plans).
    pub writes: ColorWrites,
    /// How many textures a sprite draw samples (several: the indexing stage, where the backend
    /// has one); 1 for a geometry draw.
    pub textures: usize,
    /// A geometry draw's vertex side; `None` for a sprite draw.
    pub geometry: Option<GeometryPipeline>,
    /// The custom effect the draw uses, held so it outlives the request.
    pub effect: Option<Arc<EffectState>>,
}

/// The vertex side of a geometry draw's pipeline.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GeometryPipeline {
    /// The stock effect and the options its stages are specialised to (ignored by a custom
    /// geometry effect's draw).
    pub variant: StockVariant,
    /// The vertex declaration.
    pub layout: VertexLayout,
    /// The topology.
    pub primitive: PrimitiveType,
}

impl GeometryPipeline {
    /// The stock options a pipeline of `key`'s shader is built with: [`Self::variant`] for a
    /// stock effect, none for a custom geometry effect, whose pipeline does not depend on them
    /// (so its draws share one pipeline whatever stock options they carry).
    pub fn variant_for(&self, key: &crate::PipelineKey) -> StockVariant {
        match key.shader {
            crate::ShaderKind::CustomGeometry(_) => StockVariant::default(),
            _ => self.variant,
        }
    }
}

/// Pipelines a backend has built, by when: a test of "created when first recorded" expects
/// none at lowering.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PipelineStats {
    /// [`PipelineRequest`]s received: one per combination recorded, never per draw.
    pub requests: u64,
    /// Built for a [`PipelineRequest`].
    pub built_on_request: u64,
    /// Built while lowering a frame (no request had named the combination).
    pub built_at_lowering: u64,
}

/// Where a builder hands new combinations.
pub type PipelineSink = Box<dyn FnMut(PipelineRequest) + Send>;

/// One bound target's part of a combination: what selects a pipeline, not which texture.
type TargetPart = Option<(SurfaceFormat, DepthFormat, u32)>;

#[derive(Clone, PartialEq, Eq, Hash)]
struct Combination {
    key: PipelineKey,
    targets: [TargetPart; MAX_COLOR_ATTACHMENTS],
    writes: ColorWrites,
    several_textures: bool,
    geometry: Option<GeometryPipeline>,
}

/// The combinations a builder has requested, and its sink.
#[derive(Default)]
pub(crate) struct PipelineRequests {
    seen: HashSet<Combination>,
    /// The combination of the last draw noted: a draw repeating it is recognised without
    /// building a key (no copy of a geometry draw's vertex layout).
    last: Option<Combination>,
    sink: Option<PipelineSink>,
    /// The custom effects of the combinations in `seen`: once an effect is gone, its
    /// combinations can never be recorded again ([`EffectKey::native`] is never reused), so
    /// [`PipelineRequests::trim`] forgets them and the set does not grow with effect churn.
    effects: HashMap<EffectKey, Weak<EffectState>>,
}

impl std::fmt::Debug for PipelineRequests {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PipelineRequests")
            .field("seen", &self.seen.len())
            .field("sink", &self.sink.is_some())
            .finish()
    }
}

impl PipelineRequests {
    pub fn set_sink(&mut self, sink: Option<PipelineSink>) {
        self.sink = sink;
    }

    /// Hands `draw`'s combination on `targets` to the sink the first time it is recorded.
    /// Allocates only for a new combination, and for a geometry draw's layout when the draw
    /// does not repeat the last draw's combination.
    pub fn note(&mut self, draw: &Draw, targets: &[ColorBinding]) {
        let Some(sink) = self.sink.as_mut() else {
            return;
        };
        let key = draw.pipeline.static_part();
        let mut parts = [None; MAX_COLOR_ATTACHMENTS];
        for (part, t) in parts.iter_mut().zip(targets) {
            let desc = t.target.desc();
            *part = Some((desc.format, desc.depth_format(), desc.sample_count()));
        }
        let writes = ColorWrites::of_draw(&key, targets.len());
        let several_textures = draw.textures.len() > 1;
        let repeats_last = self.last.as_ref().is_some_and(|last| {
            last.key == key
                && last.targets == parts
                && last.writes == writes
                && last.several_textures == several_textures
                && match (&last.geometry, &draw.geometry) {
                    (None, None) => true,
                    (Some(l), Some(g)) => {
                        l.variant == g.material.variant()
                            && l.primitive == g.primitive
                            && l.layout == g.layout
                    }
                    _ => false,
                }
        });
        if repeats_last {
            return;
        }
        let geometry = draw.geometry.as_ref().map(|g| GeometryPipeline {
            variant: g.material.variant(),
            layout: g.layout.clone(),
            primitive: g.primitive,
        });
        let combination = Combination { key, targets: parts, writes, several_textures, geometry };
        if self.seen.contains(&combination) {
            self.last = Some(combination);
            return;
        }
        let effect = draw
            .effect
            .clone()
            .or_else(|| draw.geometry.as_ref()?.custom.as_ref().map(|c| c.effect.clone()));
        sink(PipelineRequest {
            key,
            targets: targets.iter().map(|t| t.target.clone()).collect(),
            writes: combination.writes,
            textures: draw.textures.len(),
            geometry: combination.geometry.clone(),
            effect,
        });
        self.seen.insert(combination.clone());
        self.last = Some(combination);
        if let Some(effect) = draw
            .effect
            .as_ref()
            .or(draw.geometry.as_ref().and_then(|g| g.custom.as_ref().map(|c| &c.effect)))
        {
            self.effects.entry(effect.key()).or_insert_with(|| Arc::downgrade(effect));
        }
    }

    /// Forgets the combinations of custom effects that no longer exist.
    pub fn trim(&mut self) {
        let gone: Vec<EffectKey> =
            self.effects.iter().filter(|(_, e)| e.strong_count() == 0).map(|(k, _)| *k).collect();
        if gone.is_empty() {
            return;
        }
        let uses_gone = |c: &Combination| match c.key.shader {
            ShaderKind::Custom(k) | ShaderKind::CustomGeometry(k) => gone.contains(&k),
            _ => false,
        };
        self.seen.retain(|c| !uses_gone(c));
        if self.last.as_ref().is_some_and(uses_gone) {
            self.last = None;
        }
        for key in &gone {
            self.effects.remove(key);
        }
    }

    /// Combinations remembered.
    #[cfg(test)]
    pub(crate) fn seen(&self) -> usize {
        self.seen.len()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use crate::compile::testkit::{back_buffer, draw, draw_with, target, texture, DISCARD};
    use crate::{BlendState, ColorBinding, FrameBuilder, PassOp, PipelineRequest};

    fn sprite(op: PassOp) -> crate::Draw {
        match op {
            PassOp::Draw(d) => d,
            PassOp::Clear(_) | PassOp::Query(_) => unreachable!(),
        }
    }

    /// One request per combination: a blend factor (dynamic) or another texture selects none;
    /// another blend state or another target (here: multisampled) does, once; the set outlives
    /// the frame.
    #[test]
    fn each_combination_is_requested_once_across_frames() {
        let (t, u) = (texture(4, 4, 1), texture(4, 4, 1));
        let rt = target(4, 4, 4, DISCARD);
        let mut builder = FrameBuilder::new(back_buffer(4, 4, DISCARD));
        let (tx, rx) = mpsc::channel::<PipelineRequest>();
        builder.set_pipeline_sink(Some(Box::new(move |r| tx.send(r).unwrap())));
        let faded = BlendState { blend_factor: [9, 8, 7, 6], ..BlendState::OPAQUE };
        for _ in 0..2 {
            builder.draw(sprite(draw(&t)));
            builder.draw(sprite(draw(&u)));
            builder.draw(sprite(draw_with(&t, faded)));
            builder.draw(sprite(draw_with(&t, BlendState::ADDITIVE)));
            builder.bind(vec![ColorBinding { target: rt.clone(), layer: 0 }]);
            builder.draw(sprite(draw(&t)));
            builder.bind(vec![]);
            builder.take_frame();
        }
        let requests: Vec<_> = rx.try_iter().collect();
        assert_eq!(requests.len(), 3);
        // The dynamic blend factor is left out of the key.
        let unfactored = |b: BlendState| BlendState { blend_factor: [0; 4], ..b };
        assert_eq!(requests[0].key.blend, unfactored(BlendState::OPAQUE));
        assert_eq!(requests[1].key.blend, unfactored(BlendState::ADDITIVE));
        assert_eq!(requests[2].targets[0].desc().sample_count(), 4);
        assert_eq!(requests[0].writes.0[0], 0xF);
    }

    /// A custom effect's combinations are forgotten once the effect is gone (its handle is
    /// never reused) — checked when a frame is taken, so an effect whose last draws are in the
    /// frame being taken goes at the next: effects created and dropped frame after frame do not
    /// grow the set; an effect still alive keeps its combination.
    #[test]
    fn combinations_of_a_dropped_effect_are_forgotten() {
        use crate::{EffectKey, EffectState, NativeHandle, RetireSink, ShaderKind};
        let t = texture(4, 4, 1);
        let mut builder = FrameBuilder::new(back_buffer(4, 4, DISCARD));
        let (tx, rx) = mpsc::channel::<PipelineRequest>();
        builder.set_pipeline_sink(Some(Box::new(move |r| tx.send(r).unwrap())));
        let custom = |native: u64| {
            let effect = EffectState::new(
                EffectKey { native: NativeHandle(native), outputs: 1 },
                RetireSink::default(),
            );
            let mut d = sprite(draw(&t));
            d.pipeline.shader = ShaderKind::Custom(effect.key());
            d.effect = Some(effect);
            d
        };
        builder.draw(sprite(draw(&t)));
        let kept = custom(1);
        let kept_effect = kept.effect.clone();
        builder.draw(kept);
        builder.take_frame();
        // A request holds its effect until the render thread has built it.
        let mut requested = rx.try_iter().count();
        for frame in 0..5 {
            builder.draw(custom(100 + frame));
            builder.take_frame();
            requested += rx.try_iter().count();
            // The stock sprite's, the live effect's and the one of the frame just taken (the
            // frame still holds it); the earlier frames' effects are gone.
            assert_eq!(builder.pipeline_combinations(), 3, "frame {frame}");
        }
        builder.take_frame();
        assert_eq!(builder.pipeline_combinations(), 2);
        assert_eq!(requested, 7);
        // The live effect's combination is still known: drawing it again requests nothing.
        let mut again = sprite(draw(&t));
        again.pipeline.shader = ShaderKind::Custom(kept_effect.as_ref().unwrap().key());
        again.effect = kept_effect;
        builder.draw(again);
        assert_eq!(rx.try_iter().count(), 0);
    }
}
