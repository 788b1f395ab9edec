//! Per-frame CPU time of the engine's stages, read from its `tracing` spans.
//!
//! The engine opens a span `render_frame` (field `frame`: the device's flush number) around
//! the work of each flush — on the render thread when there is one — and inside it
//! `compile_frame`, the Vulkan backend's `upload_vertices` (the frame's sprites copied into the
//! mapped vertex buffer), its `lower` (the plan recorded into a command buffer) and
//! `queue_submit`. [`StageTimes`] is a `tracing` layer that times those spans (time entered,
//! not time alive) and files each under the flush number of the `render_frame` it runs in, so
//! a frame's figures are its own even when the render thread runs a frame behind the game.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use tracing::span::{Attributes, Id};
use tracing::{Metadata, Subscriber};
use tracing_subscriber::layer::Context;
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::Layer;

/// A stage the layer times, in the order of [`Stages`]' fields.
const TIMED: [&str; 4] = ["compile_frame", "upload_vertices", "lower", "queue_submit"];
const FRAME_SPAN: &str = "render_frame";

/// CPU time of one flush's stages.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stages {
    /// `compile_frame`: the compiler, from commands to plan.
    pub compile: Duration,
    /// `upload_vertices`: the frame's sprites (and geometry bytes) copied into the mapped
    /// vertex buffer of its frame slot.
    pub upload: Duration,
    /// `lower`: the plan recorded into the frame's command buffer.
    pub lower: Duration,
    /// `queue_submit`: ending the command buffer and handing it to the queue.
    pub submit: Duration,
}

impl Stages {
    fn add(&mut self, stage: usize, d: Duration) {
        match stage {
            0 => self.compile += d,
            1 => self.upload += d,
            2 => self.lower += d,
            _ => self.submit += d,
        }
    }

    /// Adds another flush's figures (a frame of several flushes).
    pub fn accumulate(&mut self, other: &Stages) {
        self.compile += other.compile;
        self.upload += other.upload;
        self.lower += other.lower;
        self.submit += other.submit;
    }
}

/// The layer and the figures it collects, by flush number. Clones share the figures.
#[derive(Clone, Default)]
pub struct StageTimes {
    by_flush: Arc<Mutex<HashMap<u64, Stages>>>,
}

/// The flush number of a `render_frame` span.
struct FlushNumber(u64);

/// Time entered so far of a timed span, and since when it is entered.
struct Busy {
    stage: usize,
    total: Duration,
    since: Option<Instant>,
}

struct FrameField(Option<u64>);

impl tracing::field::Visit for FrameField {
    fn record_u64(&mut self, field: &tracing::field::Field, value: u64) {
        if field.name() == "frame" {
            self.0 = Some(value);
        }
    }

    fn record_debug(&mut self, _: &tracing::field::Field, _: &dyn std::fmt::Debug) {}
}

impl StageTimes {
    /// Takes the figures of flushes `first..=last` out (flushes without figures count zero).
    pub fn take(&self, first: u64, last: u64) -> Stages {
        let mut map = self.by_flush.lock().unwrap_or_else(PoisonError::into_inner);
        let mut sum = Stages::default();
        for n in first..=last {
            if let Some(s) = map.remove(&n) {
                sum.accumulate(&s);
            }
        }
        sum
    }

    /// Flushes with figures not yet taken.
    pub fn pending(&self) -> usize {
        self.by_flush.lock().unwrap_or_else(PoisonError::into_inner).len()
    }
}

impl<S> Layer<S> for StageTimes
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    /// Only the spans timed here and the frame spans: everything else stays off.
    fn enabled(&self, metadata: &Metadata<'_>, _: Context<'_, S>) -> bool {
        metadata.is_span() && (metadata.name() == FRAME_SPAN || TIMED.contains(&metadata.name()))
    }

    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(id) else { return };
        let name = attrs.metadata().name();
        if name == FRAME_SPAN {
            let mut field = FrameField(None);
            attrs.record(&mut field);
            if let Some(n) = field.0 {
                span.extensions_mut().insert(FlushNumber(n));
            }
        } else if let Some(stage) = TIMED.iter().position(|t| *t == name) {
            span.extensions_mut().insert(Busy { stage, total: Duration::ZERO, since: None });
        }
    }

    fn on_enter(&self, id: &Id, ctx: Context<'_, S>) {
        if let Some(span) = ctx.span(id) {
            if let Some(busy) = span.extensions_mut().get_mut::<Busy>() {
                busy.since = Some(Instant::now());
            }
        }
    }

    fn on_exit(&self, id: &Id, ctx: Context<'_, S>) {
        if let Some(span) = ctx.span(id) {
            if let Some(busy) = span.extensions_mut().get_mut::<Busy>() {
                if let Some(since) = busy.since.take() {
                    busy.total += since.elapsed();
                }
            }
        }
    }

    fn on_close(&self, id: Id, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(&id) else { return };
        let Some((stage, total)) = span.extensions().get::<Busy>().map(|b| (b.stage, b.total))
        else {
            return;
        };
        let flush =
            span.scope().skip(1).find_map(|s| s.extensions().get::<FlushNumber>().map(|f| f.0));
        if let Some(n) = flush {
            let mut map = self.by_flush.lock().unwrap_or_else(PoisonError::into_inner);
            map.entry(n).or_default().add(stage, total);
        }
    }
}
