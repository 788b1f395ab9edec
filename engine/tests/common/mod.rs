//! Shared set-up for behaviour tests: a validated Vulkan device and pixel helpers.
#![allow(dead_code)]

pub mod child;

use std::cell::RefCell;

use xnagraph::{
    diagnostics::Diagnostics, Color, DeviceOptions, GraphicsDevice, GraphicsProfile,
    PresentationParameters, RenderTarget2D, Texture2D,
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

/// The options every test device uses: the environment's (the conformance pass picks SDL_gpu
/// with `XNAGRAPH_BACKEND=sdlgpu`), validation on, and DONT_CARE content poisoned so that a
/// wrong load or store decision shows in pixels. `XNAGRAPH_VALIDATION=0` turns validation off,
/// for a system without the Khronos layer (the Windows build run under Wine, whose Vulkan
/// loader has no layers): the pixels are still checked there.
pub fn test_options() -> DeviceOptions {
    let validation = std::env::var_os("XNAGRAPH_VALIDATION").is_none_or(|v| v != "0");
    DeviceOptions { validation, poison_undefined: true, ..DeviceOptions::from_env() }
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

/// A device on the null backend (no GPU), with its probe.
pub fn null_device_with(
    width: i32,
    height: i32,
    options: xnagraph::DeviceOptions,
) -> (GraphicsDevice, xnagraph::diagnostics::NullProbe) {
    let options = xnagraph::DeviceOptions { backend: xnagraph::BackendKind::Null, ..options };
    let device =
        GraphicsDevice::with_options(GraphicsProfile::HiDef, params(width, height), options)
            .expect("null device");
    let probe = device.null_probe().expect("the null backend has a probe");
    (device, probe)
}

pub fn null_device(width: i32, height: i32) -> (GraphicsDevice, xnagraph::diagnostics::NullProbe) {
    null_device_with(width, height, xnagraph::DeviceOptions::default())
}

/// Runs `body` on its own thread and fails the test if it has not returned within `limit`, so a
/// deadlock is a failure instead of a hung test run. A panic in `body` fails the test too.
pub fn within<T: Send + 'static>(
    limit: std::time::Duration,
    body: impl FnOnce() -> T + Send + 'static,
) -> T {
    let (done, result) = std::sync::mpsc::channel();
    let worker = std::thread::spawn(move || {
        let _ = done.send(body());
    });
    match result.recv_timeout(limit) {
        Ok(value) => value,
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => match worker.join() {
            Err(panic) => std::panic::resume_unwind(panic),
            Ok(()) => unreachable!("the worker sends before it returns"),
        },
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
            panic!("still running after {limit:?}: deadlocked")
        }
    }
}

/// Reports that a test, or a part of one, could not run on this adapter. libtest has no skip
/// at run time, so the test still passes: this line on stderr is what tells a reader that it
/// proved nothing here.
pub fn skipped(test: &str, reason: &str) {
    eprintln!("SKIPPED: {test}: {reason}");
}

/// Whether the conformance suite runs on SDL_gpu (`XNAGRAPH_BACKEND=sdlgpu`).
pub fn on_sdlgpu() -> bool {
    xnagraph::BackendKind::from_env() == Some(xnagraph::BackendKind::SdlGpu)
}

/// On SDL_gpu, reports `test` skipped for `reason` and returns true.
pub fn skip_on_sdlgpu(test: &str, reason: &str) -> bool {
    if on_sdlgpu() {
        skipped(test, &format!("SDL_gpu: {reason}"));
    }
    on_sdlgpu()
}

/// Whether the multisample count a resource reports is the `requested` one; if not, the part
/// of the test that needs it is reported skipped.
pub fn multisampled_as_requested(test: &str, applied: i32, requested: i32) -> bool {
    if applied == requested {
        return true;
    }
    skipped(test, &format!("the adapter gives {applied} samples for a request of {requested}"));
    false
}

/// What the depth attachment of the current target really is, found by drawing into it (so a
/// format a resource reports can be checked against the image the backend allocated): a sprite
/// behind a `Never` depth test shows only without depth, one behind a stencil test that the
/// cleared stencil fails shows only without stencil, and one a fifteenth of a 16-bit step in
/// front of the cleared depth passes a `Greater` test only with more than 16 bits of depth.
/// Draws into the left 12×4 pixels of the current target and reads them with `read`.
pub fn probe_depth_format(
    device: &xnagraph::GraphicsDevice,
    read: impl FnOnce() -> (Vec<Color>, i32),
) -> xnagraph::DepthFormat {
    use xnagraph::{
        ClearOptions, CompareFunction, DepthFormat, DepthStencilState, Rectangle, SpriteBatch,
        SpriteEffects, SpriteSortMode, Vector2,
    };
    const STEP: f32 = 1.0 / 65535.0;
    let cleared = 40_000.0 * STEP;
    device.clear_with(ClearOptions::all(), [0.0, 0.0, 0.0, 1.0], cleared, 5).unwrap();
    let white = white(device);
    let never = DepthStencilState {
        depth_buffer_function: CompareFunction::Never,
        depth_buffer_write_enable: false,
        ..DepthStencilState::DEFAULT
    };
    let greater = DepthStencilState { depth_buffer_function: CompareFunction::Greater, ..never };
    let stencil_zero = DepthStencilState {
        stencil_enable: true,
        stencil_function: CompareFunction::Equal,
        reference_stencil: 0,
        ..DepthStencilState::NONE
    };
    let probes =
        [(0, never, cleared), (4, stencil_zero, cleared), (8, greater, cleared + STEP / 15.0)];
    for (x, state, depth) in probes {
        let mut sb = SpriteBatch::new(device).unwrap();
        sb.begin_with(SpriteSortMode::Deferred, None, None, Some(state), None, None).unwrap();
        let rect = Rectangle::new(x, 0, 4, 4);
        sb.draw_rect_ex(
            &white,
            rect,
            None,
            Color::WHITE,
            0.0,
            Vector2::ZERO,
            SpriteEffects::NONE,
            depth,
        )
        .unwrap();
        sb.end().unwrap();
    }
    let (pixels, width) = read();
    let drawn = |x: i32| at(&pixels, width, x + 1, 1) == Color::WHITE;
    match (!drawn(0), !drawn(4), drawn(8)) {
        (false, false, _) => DepthFormat::None,
        (true, true, _) => DepthFormat::Depth24Stencil8,
        (true, false, true) => DepthFormat::Depth24,
        (true, false, false) => DepthFormat::Depth16,
        (false, true, _) => panic!("stencil without depth"),
    }
}
