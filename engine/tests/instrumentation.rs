//! Instrumentation: every flush is a `tracing` span with its frame number, and the compiler's
//! stages, the lowering, the queue submission and the retirement nest inside it.

mod common;

use std::sync::{Arc, Mutex};

use common::*;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;
use xnagraph::{Color, Rectangle, SpriteBatch};

/// One span as it was opened: its name, its `frame` field and the names of its ancestors,
/// innermost first.
#[derive(Clone, Debug)]
struct Opened {
    name: &'static str,
    frame: Option<u64>,
    ancestors: Vec<&'static str>,
}

#[derive(Clone, Default)]
struct Spans(Arc<Mutex<Vec<Opened>>>);

struct FrameField(Option<u64>);

impl Visit for FrameField {
    fn record_u64(&mut self, field: &Field, value: u64) {
        if field.name() == "frame" {
            self.0 = Some(value);
        }
    }
    fn record_debug(&mut self, _field: &Field, _value: &dyn std::fmt::Debug) {}
}

impl<S: tracing::Subscriber + for<'a> LookupSpan<'a>> Layer<S> for Spans {
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let mut frame = FrameField(None);
        attrs.record(&mut frame);
        let ancestors = ctx
            .span(id)
            .map(|span| span.scope().skip(1).map(|s| s.name()).collect())
            .unwrap_or_default();
        let name = attrs.metadata().name();
        self.0.lock().unwrap().push(Opened { name, frame: frame.0, ancestors });
    }
}

#[test]
fn each_flush_is_a_span_with_its_frame_number_around_every_stage() {
    let spans = Spans::default();
    let subscriber = tracing_subscriber::registry().with(spans.clone());
    tracing::subscriber::with_default(subscriber, || {
        let _v = Validation::new();
        let device = device(16, 16);
        let texture = solid(&device, 2, 2, Color::new(200, 40, 10, 255));
        let mut batch = SpriteBatch::new(&device).unwrap();
        for _ in 0..3 {
            device.clear(Color::BLACK).unwrap();
            batch.begin().unwrap();
            batch.draw_rect(&texture, Rectangle::new(3, 5, 4, 6), Color::WHITE).unwrap();
            batch.end().unwrap();
            device.present().unwrap();
        }
        let pixels = read_back_buffer(&device);
        assert_eq!(pixels[6 * 16 + 4], Color::new(200, 40, 10, 255));
    });
    let spans = spans.0.lock().unwrap().clone();

    // Every compiled frame has its own number, counted from 1 on a fresh device.
    let compiled: Vec<u64> =
        spans.iter().filter(|s| s.name == "compile_frame").filter_map(|s| s.frame).collect();
    assert!(compiled.len() >= 4, "three presents and a readback: {compiled:?}");
    assert_eq!(compiled, (1..=compiled.len() as u64).collect::<Vec<_>>());

    // Recording and compiling sit in the flush of the same frame.
    for s in spans.iter().filter(|s| s.name == "record" || s.name == "compile_frame") {
        assert_eq!(s.ancestors.first(), Some(&"flush"), "{s:?}");
    }
    let flushes = spans.iter().filter(|s| s.name == "flush");
    assert!(flushes.clone().all(|s| s.frame.is_some()), "a flush without a frame number");

    // Each compile stage nests in `compile`, in a frame's `compile_frame`.
    for stage in ["nodes", "load", "store", "cull", "mips", "clears", "barriers", "cost"] {
        let name = format!("compile::{stage}");
        let opened: Vec<_> = spans.iter().filter(|s| s.name == name).collect();
        assert_eq!(opened.len(), compiled.len(), "one {name} span per compiled frame");
        for s in opened {
            assert_eq!(s.ancestors[..3], ["compile", "compile_frame", "flush"], "{s:?}");
        }
    }
    // The backend's lowering and queue submission run inside a flush's `submit`.
    for name in ["lower", "queue_submit"] {
        let opened: Vec<_> = spans.iter().filter(|s| s.name == name).collect();
        assert_eq!(opened.len(), compiled.len(), "one {name} span per compiled frame");
        assert!(opened.iter().all(|s| s.ancestors.contains(&"submit")), "{opened:?}");
    }
    assert!(spans.iter().any(|s| s.name == "retire"), "no retirement span");
}
