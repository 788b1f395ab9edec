//! Instrumentation: every flush is a `tracing` span with its frame number around taking the
//! frame out of the recorder, on the caller's thread; rendering the frame is a span with the
//! same number, with the compiler's stages, the lowering and the queue submission inside it, on
//! the render thread (or in the flush, without one).

mod common;

use std::sync::{Arc, Mutex};
use std::thread::ThreadId;

use common::*;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;
use xnagraph::{Color, DeviceOptions, GraphicsProfile, Rectangle, SpriteBatch};

/// One span as it was opened: its name, its `frame` field, the names of its ancestors,
/// innermost first, and the thread it was opened on.
#[derive(Clone, Debug)]
struct Opened {
    name: &'static str,
    frame: Option<u64>,
    ancestors: Vec<&'static str>,
    thread: ThreadId,
    thread_name: Option<String>,
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
        let thread = std::thread::current();
        self.0.lock().unwrap().push(Opened {
            name,
            frame: frame.0,
            ancestors,
            thread: thread.id(),
            thread_name: thread.name().map(str::to_owned),
        });
    }
}

/// The spans three presented sprite frames and a readback open, with the render thread on or
/// off; the subscriber is set on this thread only, so the render thread must report to it too.
fn spans_of_three_frames(render_thread: bool) -> Vec<Opened> {
    let spans = Spans::default();
    let subscriber = tracing_subscriber::registry().with(spans.clone());
    tracing::subscriber::with_default(subscriber, || {
        let _v = Validation::new();
        let options = DeviceOptions { render_thread, ..test_options() };
        let device = device_with_options(GraphicsProfile::HiDef, params(16, 16), options);
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
    spans
}

fn numbers(spans: &[Opened], name: &str) -> Vec<u64> {
    spans.iter().filter(|s| s.name == name).filter_map(|s| s.frame).collect()
}

/// With the render thread (the default), `flush` and `record` are opened on the game's
/// thread, and every frame's `render_frame` with its compile stages, lowering and queue
/// submission on the device's render thread, each carrying the frame number.
#[test]
fn each_frame_is_recorded_here_and_compiled_and_submitted_on_the_render_thread() {
    let game = std::thread::current().id();
    let spans = spans_of_three_frames(true);

    // Every frame has its own number, counted from 1 on a fresh device, and the same number
    // on both threads.
    let recorded = numbers(&spans, "record");
    assert!(recorded.len() >= 4, "three presents and a readback: {recorded:?}");
    assert_eq!(recorded, (1..=recorded.len() as u64).collect::<Vec<_>>());
    assert_eq!(numbers(&spans, "render_frame"), recorded);
    assert_eq!(numbers(&spans, "compile_frame"), recorded);
    assert_eq!(numbers(&spans, "submit"), recorded);

    // Taking the frame out of the recorder happens in the game's flush, on its thread.
    for s in spans.iter().filter(|s| s.name == "record" || s.name == "flush") {
        assert_eq!(s.thread, game, "{s:?}");
    }
    for s in spans.iter().filter(|s| s.name == "record") {
        assert_eq!(s.ancestors.first(), Some(&"flush"), "{s:?}");
    }
    // Compiling and submitting happen on the render thread, in its `render_frame`.
    let on_render_thread = |s: &Opened| {
        s.thread != game
            && s.thread_name.as_deref().is_some_and(|n| n.starts_with("xnagraph-render"))
    };
    for s in spans.iter().filter(|s| ["render_frame", "compile_frame", "submit"].contains(&s.name))
    {
        assert!(on_render_thread(s), "{s:?}");
    }
    for s in spans.iter().filter(|s| s.name == "compile_frame" || s.name == "submit") {
        assert_eq!(s.ancestors, ["render_frame"], "{s:?}");
    }
    check_stages(&spans, "render_frame", recorded.len());
    for name in ["lower", "queue_submit"] {
        assert!(spans.iter().filter(|s| s.name == name).all(on_render_thread), "{name}");
    }
}

/// Without the render thread, the same spans nest in the caller's `flush`, on its thread.
#[test]
fn without_the_render_thread_each_flush_holds_every_stage_on_the_callers_thread() {
    let game = std::thread::current().id();
    let spans = spans_of_three_frames(false);
    let recorded = numbers(&spans, "record");
    assert!(recorded.len() >= 4, "three presents and a readback: {recorded:?}");
    assert_eq!(recorded, (1..=recorded.len() as u64).collect::<Vec<_>>());
    assert_eq!(numbers(&spans, "compile_frame"), recorded);
    let named = ["flush", "record", "render_frame", "compile_frame", "submit", "lower"];
    assert!(spans.iter().filter(|s| named.contains(&s.name)).all(|s| s.thread == game));
    for s in spans.iter().filter(|s| s.name == "compile_frame") {
        assert_eq!(s.ancestors, ["render_frame", "flush"], "{s:?}");
    }
    check_stages(&spans, "render_frame", recorded.len());
}

/// Each compile stage nests in `compile`, in a frame's `compile_frame` in `frame_span`; the
/// backend's lowering and queue submission nest in `submit`; something was retired.
fn check_stages(spans: &[Opened], frame_span: &str, frames: usize) {
    for stage in ["nodes", "load", "store", "cull", "mips", "clears", "barriers", "cost"] {
        let name = format!("compile::{stage}");
        let opened: Vec<_> = spans.iter().filter(|s| s.name == name).collect();
        assert_eq!(opened.len(), frames, "one {name} span per compiled frame");
        for s in opened {
            assert_eq!(s.ancestors[..3], ["compile", "compile_frame", frame_span], "{s:?}");
        }
    }
    for name in ["lower", "queue_submit"] {
        let opened: Vec<_> = spans.iter().filter(|s| s.name == name).collect();
        assert_eq!(opened.len(), frames, "one {name} span per compiled frame");
        assert!(opened.iter().all(|s| s.ancestors.contains(&"submit")), "{opened:?}");
    }
    assert!(spans.iter().any(|s| s.name == "retire"), "no retirement span");
}
