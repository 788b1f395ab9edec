//! The library reads no environment variable unless the game opts in: a device made without
//! `DeviceOptions::from_env()` / `with_env()` ignores `XNAGRAPH_BACKEND`, `XNAGRAPH_VALIDATION`,
//! `XNAGRAPH_PRINT_PLAN` and `XNAGRAPH_CAPTURE` even when they are set, and one made with it
//! honours them. The variables are set in a child process running this test alone, so no other
//! test of this binary sees them.

mod common;

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use tracing_subscriber::layer::{Context, Layer, SubscriberExt};
use xnagraph::{
    BackendKind, Color, DeviceOptions, GraphicsDevice, GraphicsProfile, PresentationParameters,
};

/// How many `xnagraph::plan` events were emitted, on any thread.
#[derive(Clone, Default)]
struct PlanEvents(Arc<Mutex<usize>>);

impl<S: tracing::Subscriber> Layer<S> for PlanEvents {
    fn on_event(&self, event: &tracing::Event<'_>, _: Context<'_, S>) {
        if event.metadata().target() == "xnagraph::plan" {
            *self.0.lock().unwrap() += 1;
        }
    }
}

fn capture_path() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("environment_opt_in.xgc")
}

/// Clears the back buffer and presents: frame 0 ends.
fn one_frame(device: &GraphicsDevice) {
    device.clear(Color::RED).unwrap();
    device.present().unwrap();
    device.wait_idle().unwrap();
}

#[test]
fn a_device_without_the_opt_in_ignores_the_environment() {
    const NAME: &str = "a_device_without_the_opt_in_ignores_the_environment";
    let spec = format!("{}:0-0", capture_path().display());
    let vars = [
        ("XNAGRAPH_BACKEND", "sdlgpu"),
        ("XNAGRAPH_VALIDATION", "1"),
        ("XNAGRAPH_PRINT_PLAN", "1"),
        ("XNAGRAPH_CAPTURE", spec.as_str()),
    ];
    if !common::child::in_child(NAME, &vars) {
        return;
    }
    // The child process runs this test alone: the subscriber sees every thread's events,
    // the render threads' included.
    let plans = PlanEvents::default();
    tracing::subscriber::set_global_default(tracing_subscriber::registry().with(plans.clone()))
        .unwrap();
    let _ = std::fs::remove_file(capture_path());
    let params = PresentationParameters {
        back_buffer_width: 8,
        back_buffer_height: 8,
        ..PresentationParameters::default()
    };

    // The default options are the same whatever the environment holds.
    let default = DeviceOptions::default();
    assert_eq!(default.backend, BackendKind::Vulkan);
    assert!(!default.validation && !default.print_plans && !default.capture_from_env);

    // A device made without the opt-in: Vulkan, not validating, printing and capturing nothing.
    let plain = GraphicsDevice::new(GraphicsProfile::HiDef, params).unwrap();
    assert!(!plain.adapter_name().starts_with("SDL_gpu"), "{}", plain.adapter_name());
    // This process's first Vulkan instance: made without the validation layer (checked below,
    // where a validating device needs an instance of its own).
    assert_eq!(xnagraph_vulkan::instances_created(), 1);
    one_frame(&plain);
    assert!(plain.capture_result().is_none(), "no capture was armed");
    assert!(!capture_path().exists(), "XNAGRAPH_CAPTURE wrote a file without the opt-in");
    assert_eq!(*plans.0.lock().unwrap(), 0, "XNAGRAPH_PRINT_PLAN printed without the opt-in");
    drop(plain);

    // With the opt-in every variable applies (SDL_gpu is left out here: the backend choice is
    // checked on the options, the device stays on Vulkan so that its instance can be counted).
    let opted = DeviceOptions::from_env();
    assert_eq!(opted.backend, BackendKind::SdlGpu);
    assert!(opted.validation && opted.print_plans && opted.capture_from_env);
    let options = DeviceOptions { backend: BackendKind::Vulkan, ..opted };
    let device = GraphicsDevice::with_options(GraphicsProfile::HiDef, params, options).unwrap();
    assert_eq!(
        xnagraph_vulkan::instances_created(),
        2,
        "the validating device found a validating instance already made"
    );
    one_frame(&device);
    let summary = device.capture_result().expect("the capture ended").unwrap();
    assert_eq!((summary.path, summary.frames), (capture_path(), 1));
    assert!(*plans.0.lock().unwrap() >= 1, "the opted-in device printed its plan");
    assert!(device.diagnostics().take_messages().is_empty());
}
