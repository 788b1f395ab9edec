//! Shared set-up for behaviour tests: a validated Vulkan device and pixel helpers.
#![allow(dead_code)]

use std::cell::RefCell;

use xnagraph::{
    Color, DeviceOptions, Diagnostics, GraphicsDevice, GraphicsProfile, PresentationParameters,
    RenderTarget2D, Texture2D,
};

thread_local! {
    /// The diagnostics of every device this test (this thread) created through the helpers.
    static DEVICES: RefCell<Vec<Diagnostics>> = const { RefCell::new(Vec::new()) };
}

/// Fails the test if the Khronos validation layer reported anything about a device the test
/// created (through [`device_with_options`] and the helpers above it) while it was alive.
/// Declare it first so it drops last, after the devices have been torn down. Records are per
/// device, so tests running in parallel threads never see each other's messages.
pub struct Validation;

impl Validation {
    pub fn new() -> Self {
        DEVICES.with(|d| d.borrow_mut().clear());
        Validation
    }
}

impl Drop for Validation {
    fn drop(&mut self) {
        let messages: Vec<String> =
            DEVICES.with(|d| d.borrow_mut().drain(..).flat_map(|d| d.take_messages()).collect());
        if !std::thread::panicking() {
            assert!(messages.is_empty(), "validation reported:\n{}", messages.join("\n"));
        }
    }
}

/// The options every test device uses: validation on, and DONT_CARE content poisoned so that a
/// wrong load or store decision shows in pixels.
pub fn test_options() -> DeviceOptions {
    DeviceOptions { validation: true, poison_undefined: true, ..DeviceOptions::default() }
}

/// A device with `options`, watched by this test's [`Validation`].
pub fn device_with_options(
    profile: GraphicsProfile,
    params: PresentationParameters,
    options: DeviceOptions,
) -> GraphicsDevice {
    let device = GraphicsDevice::with_options(profile, params, options).expect("device");
    DEVICES.with(|d| d.borrow_mut().push(device.diagnostics()));
    device
}

pub fn params(width: i32, height: i32) -> PresentationParameters {
    PresentationParameters {
        back_buffer_width: width,
        back_buffer_height: height,
        ..PresentationParameters::default()
    }
}

pub fn device_with(profile: GraphicsProfile, params: PresentationParameters) -> GraphicsDevice {
    device_with_options(profile, params, test_options())
}

pub fn device(width: i32, height: i32) -> GraphicsDevice {
    device_with(GraphicsProfile::HiDef, params(width, height))
}

/// A texture filled with one colour.
pub fn solid(device: &GraphicsDevice, w: i32, h: i32, color: Color) -> Texture2D {
    let t = Texture2D::new(device, w, h).expect("texture");
    t.set_data(&vec![color; (w * h) as usize]).expect("set_data");
    t
}

/// A white 1×1 texture, for drawing solid rectangles with a tint.
pub fn white(device: &GraphicsDevice) -> Texture2D {
    solid(device, 1, 1, Color::WHITE)
}

pub fn read_target(rt: &RenderTarget2D) -> Vec<Color> {
    let mut out = vec![Color::TRANSPARENT; (rt.width() * rt.height()) as usize];
    rt.get_data(&mut out).expect("get_data");
    out
}

pub fn read_back_buffer(device: &GraphicsDevice) -> Vec<Color> {
    let p = device.presentation_parameters();
    let n = (p.back_buffer_width * p.back_buffer_height) as usize;
    let mut out = vec![Color::TRANSPARENT; n];
    device.get_back_buffer_data(None, &mut out, 0, n).expect("back buffer");
    out
}

pub fn at(pixels: &[Color], width: i32, x: i32, y: i32) -> Color {
    pixels[(y * width + x) as usize]
}

/// Asserts a colour within `tol` per channel.
#[track_caller]
pub fn assert_near(got: Color, want: Color, tol: u8) {
    let close = |a: u8, b: u8| a.abs_diff(b) <= tol;
    assert!(
        close(got.r, want.r)
            && close(got.g, want.g)
            && close(got.b, want.b)
            && close(got.a, want.a),
        "got {got:?}, want {want:?} (±{tol})"
    );
}
