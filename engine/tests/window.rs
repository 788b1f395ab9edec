//! Presentation to a window (X11; Xvfb in CI) on either GPU backend (`XNAGRAPH_BACKEND`) with
//! validation fatal: frames reach the window with exact pixels, the swapchain follows resizes,
//! a window without area presents nothing, teardown frees every native object, and what the X
//! server shows equals `GetBackBufferData` of the same frame. Every test prints `SKIPPED:` and
//! passes when there is no display.

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

use std::sync::Arc;

use common::test_options;
use window_support::*;
use winit::window::Window;
use xnagraph::{
    diagnostics::Diagnostics, Color, GraphicsDevice, GraphicsProfile, PresentInterval,
    PresentationParameters, Rectangle, RenderTargetUsage, SpriteBatch, Texture2D, XnaError,
};

/// Fails the test if validation reported anything about the device; declared before the device
/// so that it checks after teardown.
struct NoMessages(Option<Diagnostics>);

impl Drop for NoMessages {
    fn drop(&mut self) {
        if let Some(d) = &self.0 {
            let messages = d.take_messages();
            if !std::thread::panicking() {
                assert!(messages.is_empty(), "validation reported:\n{}", messages.join("\n"));
            }
        }
    }
}

fn params(width: i32, height: i32, usage: RenderTargetUsage) -> PresentationParameters {
    PresentationParameters {
        back_buffer_width: width,
        back_buffer_height: height,
        render_target_usage: usage,
        ..PresentationParameters::default()
    }
}

fn windowed(
    guard: &mut NoMessages,
    window: &Arc<Window>,
    params: PresentationParameters,
) -> GraphicsDevice {
    let device =
        GraphicsDevice::for_window(GraphicsProfile::HiDef, params, test_options(), window.clone())
            .expect("a device for the window");
    guard.0 = Some(device.diagnostics());
    device
}

/// Frame `i`: a background, and three rectangles in distinct colours off the centre, one of
/// them moving with `i`.
fn draw_frame(device: &GraphicsDevice, batch: &mut SpriteBatch, white: &Texture2D, i: u32) {
    device.clear(background(i)).unwrap();
    batch.begin().unwrap();
    for (rect, color) in rects(i) {
        batch.draw_rect(white, rect, color).unwrap();
    }
    batch.end().unwrap();
}

fn background(i: u32) -> Color {
    Color::new(10, (20 + i * 3) as u8, 40, 255)
}

fn rects(i: u32) -> [(Rectangle, Color); 3] {
    [
        (Rectangle::new(3, 5, 11, 7), Color::new(230, 30, 20, 255)),
        (Rectangle::new(29, 17, 13, 19), Color::new(25, 200, 60, 255)),
        (Rectangle::new((i % 40) as i32, 37, 6, 5), Color::new(35, 45, 250, 255)),
    ]
}

/// What frame `i` holds at (x, y).
fn expected(i: u32, x: i32, y: i32) -> Color {
    let inside = |r: &Rectangle| x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height;
    rects(i).iter().rev().find(|(r, _)| inside(r)).map_or(background(i), |(_, c)| *c)
}

fn read_back_buffer(device: &GraphicsDevice) -> Result<Vec<Color>, XnaError> {
    let p = device.presentation_parameters();
    let n = (p.back_buffer_width * p.back_buffer_height) as usize;
    let mut out = vec![Color::TRANSPARENT; n];
    device.get_back_buffer_data(None, &mut out, 0, n)?;
    Ok(out)
}

fn assert_frame(pixels: &[Color], width: i32, i: u32) {
    for (n, &got) in pixels.iter().enumerate() {
        let (x, y) = (n as i32 % width, n as i32 / width);
        assert_eq!(got, expected(i, x, y), "frame {i} at ({x}, {y})");
    }
}

#[test]
fn a_window_presents_60_frames_with_exact_pixels() {
    if !have_display("a_window_presents_60_frames_with_exact_pixels") {
        return;
    }
    let mut guard = NoMessages(None);
    let window = window(48, 44, 0, 0);
    let device = windowed(&mut guard, &window, params(48, 44, RenderTargetUsage::DiscardContents));
    let stats = device.present_stats().expect("a windowed device counts its presents");
    let white = common::white(&device);
    let mut batch = SpriteBatch::new(&device).unwrap();
    for i in 0..60 {
        draw_frame(&device, &mut batch, &white, i);
        // Read before Present: the frame being drawn, straight into the swapchain image.
        assert_frame(&read_back_buffer(&device).unwrap(), 48, i);
        device.present().unwrap();
    }
    device.wait_idle().unwrap();
    assert_eq!((stats.presented(), stats.skipped(), stats.recreations()), (60, 0, 1));
}

/// Resolved straight into the swapchain image where it has the back buffer's native format;
/// resolved offscreen and copied where it does not (BGRA on X11 with lavapipe, for an RGBA
/// `Color` back buffer: a resolve cannot convert).
#[test]
fn a_multisampled_back_buffer_reaches_the_window_with_exact_pixels() {
    if !have_display("a_multisampled_back_buffer_reaches_the_window_with_exact_pixels") {
        return;
    }
    let mut guard = NoMessages(None);
    let window = window(48, 44, 0, 120);
    let four = PresentationParameters {
        multi_sample_count: 4,
        ..params(48, 44, RenderTargetUsage::DiscardContents)
    };
    let device = windowed(&mut guard, &window, four);
    if device.presentation_parameters().multi_sample_count != 4 {
        common::skipped("a_multisampled_back_buffer_reaches_the_window_with_exact_pixels", "no 4x");
        return;
    }
    let stats = device.present_stats().unwrap();
    let white = common::white(&device);
    let mut batch = SpriteBatch::new(&device).unwrap();
    for i in 0..6 {
        draw_frame(&device, &mut batch, &white, i);
        // Pixel-aligned rectangles resolve to exact colours.
        assert_frame(&read_back_buffer(&device).unwrap(), 48, i);
        device.present().unwrap();
    }
    device.wait_idle().unwrap();
    assert_eq!((stats.presented(), stats.skipped()), (6, 0));
}

#[test]
fn a_resized_window_gets_a_new_swapchain_without_validation_messages() {
    if !have_display("a_resized_window_gets_a_new_swapchain_without_validation_messages") {
        return;
    }
    let mut guard = NoMessages(None);
    let window = window(40, 44, 0, 60);
    let device = windowed(&mut guard, &window, params(40, 44, RenderTargetUsage::DiscardContents));
    let stats = device.present_stats().unwrap();
    let white = common::white(&device);
    let mut batch = SpriteBatch::new(&device).unwrap();
    for i in 0..5 {
        draw_frame(&device, &mut batch, &white, i);
        device.present().unwrap();
    }
    // Presented frames are rendered on the render thread: the count is read once it rendered
    // them.
    device.wait_idle().unwrap();
    assert_eq!(stats.recreations(), 1);
    // The user resizes the window; until the game applies it, the 40x44 back buffer is
    // scaled into the larger swapchain (a copy).
    resize(&window, 72, 52);
    for i in 5..8 {
        draw_frame(&device, &mut batch, &white, i);
        device.present().unwrap();
    }
    device.wait_idle().unwrap();
    assert_eq!(stats.recreations(), 2, "the swapchain follows the window");
    assert_scaled_on_screen(&window, 7, (40, 44), (72, 52));
    // XNA's ClientSizeChanged + ApplyChanges: the back buffer takes the window's size.
    device.reset(params(72, 52, RenderTargetUsage::DiscardContents)).unwrap();
    for i in 8..14 {
        draw_frame(&device, &mut batch, &white, i);
        assert_frame(&read_back_buffer(&device).unwrap(), 72, i);
        device.present().unwrap();
    }
    // Shrinking works the same way.
    resize(&window, 32, 36);
    device.reset(params(32, 36, RenderTargetUsage::DiscardContents)).unwrap();
    for i in 14..18 {
        draw_frame(&device, &mut batch, &white, i);
        assert_frame(&read_back_buffer(&device).unwrap(), 32, i);
        device.present().unwrap();
    }
    device.wait_idle().unwrap();
    assert_eq!(stats.recreations(), 3);
    assert_eq!((stats.presented(), stats.skipped()), (18, 0));
}

/// The window shows frame `i`, drawn at `from`, scaled to `to` with linear filtering: every
/// pixel whose four nearest source texels agree has exactly their colour.
fn assert_scaled_on_screen(window: &Window, i: u32, from: (i32, i32), to: (i32, i32)) {
    let source = |sx: f32, sy: f32| {
        let clamp = |v: f32, n: i32| (v.floor() as i32).clamp(0, n - 1);
        let (x0, y0) = (clamp(sx, from.0), clamp(sy, from.1));
        let (x1, y1) = (clamp(sx + 1.0, from.0), clamp(sy + 1.0, from.1));
        let corners = [(x0, y0), (x1, y0), (x0, y1), (x1, y1)].map(|(x, y)| expected(i, x, y));
        corners.iter().all(|&c| c == corners[0]).then_some(corners[0])
    };
    let start = std::time::Instant::now();
    loop {
        let shot = screenshot(window);
        assert_eq!((shot.width as i32, shot.height as i32), to);
        let mut checked = 0;
        let mut wrong = None;
        for y in 0..to.1 {
            for x in 0..to.0 {
                let sx = (x as f32 + 0.5) * from.0 as f32 / to.0 as f32 - 0.5;
                let sy = (y as f32 + 0.5) * from.1 as f32 / to.1 as f32 - 0.5;
                if let Some(c) = source(sx, sy) {
                    checked += 1;
                    let got = shot.rgb[(y * to.0 + x) as usize];
                    if got != [c.r, c.g, c.b] && wrong.is_none() {
                        wrong = Some((x, y, got, c));
                    }
                }
            }
        }
        assert!(checked > (to.0 * to.1) as usize / 2, "too few pixels to judge: {checked}");
        match wrong {
            None => return,
            Some(w) if start.elapsed() > std::time::Duration::from_secs(5) => {
                panic!("the scaled frame differs at (x, y, got, wanted) {w:?}")
            }
            Some(_) => std::thread::sleep(std::time::Duration::from_millis(20)),
        }
    }
}

#[test]
fn a_window_without_area_presents_nothing_but_runs_the_frame() {
    if !have_display("a_window_without_area_presents_nothing_but_runs_the_frame") {
        return;
    }
    // X11 has no zero-sized windows, so the device is told to see the window as a minimised
    // one is seen elsewhere (a surface extent of 0x0).
    let mut guard = NoMessages(None);
    let window = window(40, 40, 60, 0);
    let device = windowed(&mut guard, &window, params(40, 40, RenderTargetUsage::DiscardContents));
    let stats = device.present_stats().unwrap();
    let white = common::white(&device);
    let mut batch = SpriteBatch::new(&device).unwrap();
    draw_frame(&device, &mut batch, &white, 0);
    device.present().unwrap();
    // The render thread asks the window's extent when it compiles the frame: let it finish the
    // first one first.
    device.wait_idle().unwrap();
    stats.simulate_zero_extent(true);
    let submitted = device.submission_count();
    for i in 1..6 {
        draw_frame(&device, &mut batch, &white, i);
        device.present().unwrap();
        // The frame ran: the offscreen back buffer holds it.
        assert_frame(&read_back_buffer(&device).unwrap(), 40, i);
    }
    assert!(device.submission_count() >= submitted + 5, "every frame's work was submitted");
    assert_eq!((stats.presented(), stats.skipped()), (1, 5));
    stats.simulate_zero_extent(false);
    draw_frame(&device, &mut batch, &white, 6);
    device.present().unwrap();
    device.wait_idle().unwrap();
    assert_eq!((stats.presented(), stats.skipped()), (2, 5), "presenting resumes");
}

#[test]
fn dropping_the_device_and_window_frees_every_native_object() {
    if !have_display("dropping_the_device_and_window_frees_every_native_object") {
        return;
    }
    let mut guard = NoMessages(None);
    let window = window(32, 32, 120, 0);
    let device = windowed(&mut guard, &window, params(32, 32, RenderTargetUsage::DiscardContents));
    let diagnostics = device.diagnostics();
    let white = common::white(&device);
    let mut batch = SpriteBatch::new(&device).unwrap();
    for i in 0..4 {
        draw_frame(&device, &mut batch, &white, i);
        device.present().unwrap();
    }
    // Once those frames are done, the next acquire finds their semaphores free for reuse: the
    // ones it does not take must be freed at teardown too.
    device.wait_idle().unwrap();
    draw_frame(&device, &mut batch, &white, 4);
    device.present().unwrap();
    let live = device.live_native_objects().unwrap();
    // Vulkan: surface, swapchain, a view and a render-finished semaphore per image, acquire
    // semaphores; SDL_gpu: the SDL window wrapping the native one, and its claim.
    assert!(live.swapchain_objects >= 2, "{live:?}");
    drop((batch, white, device, window));
    assert_eq!(diagnostics.live_native_objects(), 0, "native objects left after teardown");
}

#[test]
fn present_interval_two_is_not_supported_for_a_window() {
    if !have_display("present_interval_two_is_not_supported_for_a_window") {
        return;
    }
    let mut guard = NoMessages(None);
    let window = window(32, 32, 160, 0);
    let two = PresentationParameters {
        presentation_interval: PresentInterval::Two,
        ..params(32, 32, RenderTargetUsage::DiscardContents)
    };
    let refused =
        GraphicsDevice::for_window(GraphicsProfile::HiDef, two, test_options(), window.clone());
    assert!(matches!(refused, Err(XnaError::NotSupported { .. })), "{refused:?}");
    let immediate =
        PresentationParameters { presentation_interval: PresentInterval::Immediate, ..two };
    let device = windowed(&mut guard, &window, immediate);
    let stats = device.present_stats().unwrap();
    device.clear(Color::new(1, 2, 3, 255)).unwrap();
    device.present().unwrap();
    assert!(matches!(device.reset(two), Err(XnaError::NotSupported { .. })));
    device
        .reset(PresentationParameters { presentation_interval: PresentInterval::One, ..two })
        .unwrap();
    device.clear(Color::new(1, 2, 3, 255)).unwrap();
    device.present().unwrap();
    device.wait_idle().unwrap();
    assert_eq!(stats.recreations(), 2, "Immediate to One changes the present mode");
}

#[test]
fn get_back_buffer_data_after_a_straight_in_present_is_refused_with_the_reason() {
    if !have_display("get_back_buffer_data_after_a_straight_in_present_is_refused_with_the_reason")
    {
        return;
    }
    let mut guard = NoMessages(None);
    let window = window(40, 40, 200, 0);
    let device = windowed(&mut guard, &window, params(40, 40, RenderTargetUsage::DiscardContents));
    let white = common::white(&device);
    let mut batch = SpriteBatch::new(&device).unwrap();
    draw_frame(&device, &mut batch, &white, 3);
    device.present().unwrap();
    match read_back_buffer(&device) {
        Err(XnaError::InvalidOperation { message }) => {
            assert!(message.contains("before Present"), "{message}");
            assert!(message.contains("PreserveContents"), "{message}");
        }
        other => panic!("reading a frame the presentation engine owns: {other:?}"),
    }
    // Drawing the next frame makes the back buffer readable again.
    draw_frame(&device, &mut batch, &white, 4);
    assert_frame(&read_back_buffer(&device).unwrap(), 40, 4);
    device.present().unwrap();
}

#[test]
fn an_x_screenshot_equals_get_back_buffer_data() {
    if !have_display("an_x_screenshot_equals_get_back_buffer_data") {
        return;
    }
    for (usage, x) in
        [(RenderTargetUsage::PreserveContents, 300), (RenderTargetUsage::DiscardContents, 400)]
    {
        let mut guard = NoMessages(None);
        let window = window(48, 44, x, 300);
        let device = windowed(&mut guard, &window, params(48, 44, usage));
        let white = common::white(&device);
        let mut batch = SpriteBatch::new(&device).unwrap();
        draw_frame(&device, &mut batch, &white, 7);
        // A straight-in frame is read before Present; a preserved one after it as well.
        let before = read_back_buffer(&device).unwrap();
        device.present().unwrap();
        if usage == RenderTargetUsage::PreserveContents {
            assert_eq!(read_back_buffer(&device).unwrap(), before, "the presented frame");
        }
        device.wait_idle().unwrap();
        let wanted: Vec<[u8; 3]> = before.iter().map(|c| [c.r, c.g, c.b]).collect();
        assert_frame(&before, 48, 7);
        // The presentation engine shows the image asynchronously: wait for it to arrive.
        let start = std::time::Instant::now();
        let mut shot = screenshot(&window);
        while shot.rgb != wanted && start.elapsed() < std::time::Duration::from_secs(5) {
            std::thread::sleep(std::time::Duration::from_millis(20));
            shot = screenshot(&window);
        }
        assert_eq!((shot.width, shot.height), (48, 44));
        assert!(shot.rgb == wanted, "{usage:?}: the window shows another image than the frame");
    }
}

/// A lost window (SDL_gpu: the window released from the GPU device) makes `Present` fail with
/// the native API's error and leaves the device usable; once the same window is claimed again,
/// presenting resumes with exact pixels, on both lowerings (frames read before `Present` are
/// copied, the others drawn straight into the swapchain texture). Vulkan has no such release:
/// the call is `NotSupported` there.
#[test]
fn a_released_window_fails_present_and_recovers_when_claimed_again() {
    if !have_display("a_released_window_fails_present_and_recovers_when_claimed_again") {
        return;
    }
    let mut guard = NoMessages(None);
    let window = window(48, 44, 500, 0);
    // Without the render thread a frame's failure is Present's own.
    let options = xnagraph::DeviceOptions { render_thread: false, ..test_options() };
    let device = GraphicsDevice::for_window(
        GraphicsProfile::HiDef,
        params(48, 44, RenderTargetUsage::DiscardContents),
        options,
        window.clone(),
    )
    .expect("a device for the window");
    guard.0 = Some(device.diagnostics());
    if xnagraph::BackendKind::from_env() != Some(xnagraph::BackendKind::SdlGpu) {
        let refused = device.set_window_claimed(false);
        assert!(matches!(refused, Err(XnaError::NotSupported { .. })), "{refused:?}");
        return common::skipped(
            "a_released_window_fails_present_and_recovers_when_claimed_again",
            "only SDL_gpu can release a window from its device",
        );
    }
    let stats = device.present_stats().unwrap();
    let white = common::white(&device);
    let mut batch = SpriteBatch::new(&device).unwrap();
    for i in 0..9 {
        draw_frame(&device, &mut batch, &white, i);
        assert_frame(&read_back_buffer(&device).unwrap(), 48, i);
        device.present().unwrap();
    }
    device.set_window_claimed(false).unwrap();
    draw_frame(&device, &mut batch, &white, 9);
    match device.present() {
        Err(XnaError::InvalidOperation { message }) => {
            assert!(message.contains("SDL_WaitAndAcquireGPUSwapchainTexture"), "{message}");
            assert!(message.contains("unclaimed window"), "SDL's own error text: {message}");
        }
        other => panic!("a present to a released window: {other:?}"),
    }
    // SDL's debug mode logs the same error: the one message of the test.
    let logged = device.diagnostics().take_messages();
    assert_eq!(logged, ["SDL error: Cannot acquire a swapchain texture from an unclaimed window!"]);
    device.set_window_claimed(true).unwrap();
    // Straight into the swapchain texture (nothing reads the frame before Present).
    draw_frame(&device, &mut batch, &white, 10);
    device.present().expect("the window is claimed again");
    for i in 11..41 {
        draw_frame(&device, &mut batch, &white, i);
        if i % 2 == 1 {
            // Read before Present: drawn offscreen, then copied.
            assert_frame(&read_back_buffer(&device).unwrap(), 48, i);
        }
        device.present().unwrap();
    }
    device.wait_idle().unwrap();
    assert_eq!((stats.presented(), stats.skipped(), stats.recreations()), (40, 0, 2));
    // The last frame (drawn straight in) is what the window shows.
    let wanted: Vec<[u8; 3]> =
        (0..48 * 44).map(|n| expected(40, n % 48, n / 48)).map(|c| [c.r, c.g, c.b]).collect();
    let start = std::time::Instant::now();
    let mut shot = screenshot(&window);
    while shot.rgb != wanted && start.elapsed() < std::time::Duration::from_secs(5) {
        std::thread::sleep(std::time::Duration::from_millis(20));
        shot = screenshot(&window);
    }
    assert!(shot.rgb == wanted, "the window shows another image than frame 40");
}
