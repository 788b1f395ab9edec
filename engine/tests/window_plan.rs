//! The plan says, for each back buffer usage, whether a windowed frame draws straight into the
//! swapchain image or into the offscreen back buffer that the present copies; and swapchain
//! creation is logged through `tracing`. Plans are printed by a device whose options ask for it
//! (`DeviceOptions::print_plans`, which `XNAGRAPH_PRINT_PLAN=1` sets for a game that opts in to
//! the environment).

// X11 windows (made by winit's X11 backend, photographed with xwd): systems with X11 only.
#![cfg(any(
    target_os = "linux",
    target_os = "dragonfly",
    target_os = "freebsd",
    target_os = "netbsd",
    target_os = "openbsd"
))]

mod common;
#[path = "common/window.rs"]
mod window_support;

use std::sync::{Arc, Mutex};

use tracing::field::{Field, Visit};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt};
use window_support::*;
use xnagraph::{Color, GraphicsDevice, GraphicsProfile, PresentationParameters, RenderTargetUsage};

/// Every event's target and message.
#[derive(Clone, Default)]
struct Events(Arc<Mutex<Vec<(String, String)>>>);

struct Message(String);

impl Visit for Message {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            self.0 = format!("{value:?}");
        } else {
            self.0.push_str(&format!(" {}={value:?}", field.name()));
        }
    }
}

impl<S: tracing::Subscriber> Layer<S> for Events {
    fn on_event(&self, event: &tracing::Event<'_>, _: Context<'_, S>) {
        let mut message = Message(String::new());
        event.record(&mut message);
        self.0.lock().unwrap().push((event.metadata().target().to_owned(), message.0));
    }
}

#[test]
fn plan_text_shows_the_present_decision_for_each_usage() {
    const NAME: &str = "plan_text_shows_the_present_decision_for_each_usage";
    if !have_display(NAME) {
        return;
    }
    let events = Events::default();
    let subscriber = tracing_subscriber::registry().with(events.clone());
    let cases = [
        (
            RenderTargetUsage::DiscardContents,
            40,
            "direct (drawn straight into the swapchain image)",
        ),
        (RenderTargetUsage::PreserveContents, 40, "copy (offscreen back buffer blitted"),
        (RenderTargetUsage::PlatformContents, 40, "copy (offscreen back buffer blitted"),
        // A back buffer of another size than the window is scaled: a copy whatever its usage.
        (RenderTargetUsage::DiscardContents, 24, "copy (offscreen back buffer blitted"),
    ];
    tracing::subscriber::with_default(subscriber, || {
        for (i, (usage, size, decision)) in cases.into_iter().enumerate() {
            let window = window(40, 40, 500 + 50 * i as i32, 600);
            let params = PresentationParameters {
                back_buffer_width: size,
                back_buffer_height: size,
                render_target_usage: usage,
                ..PresentationParameters::default()
            };
            let device = GraphicsDevice::for_window(
                GraphicsProfile::HiDef,
                params,
                xnagraph::DeviceOptions { print_plans: true, ..common::test_options() },
                window,
            )
            .unwrap();
            events.0.lock().unwrap().clear();
            device.clear(Color::new(5, 6, 7, 255)).unwrap();
            device.present().unwrap();
            // The plan is compiled, and printed, on the render thread.
            device.wait_idle().unwrap();
            let seen = events.0.lock().unwrap().clone();
            let plans: Vec<&String> =
                seen.iter().filter(|(t, _)| t == "xnagraph::plan").map(|(_, m)| m).collect();
            assert_eq!(plans.len(), 1, "{seen:?}");
            assert!(
                plans[0].contains(&format!("presentation: {decision}")),
                "{usage:?} {size}: {}",
                plans[0]
            );
            let created = seen.iter().filter(|(_, m)| m.starts_with("swapchain created")).count();
            assert_eq!(created, 1, "swapchain creation is a tracing event: {seen:?}");
            assert!(device.diagnostics().take_messages().is_empty());
        }
    });
}
