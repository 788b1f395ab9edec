//! Custom effects: GLSL fragment stages compiled at run time, drawn by SpriteBatch into one to
//! four render targets at once (XNA's multiple render targets).

mod common;

use common::*;
use xnagraph::{
    BlendState, Color, DepthFormat, Effect, GraphicsDevice, GraphicsProfile, Rectangle,
    RenderTarget2D, RenderTargetBinding, RenderTargetUsage, SpriteBatch, SpriteSortMode,
    SurfaceFormat, Texture2D, XnaError,
};

/// The seeds' tint: (0.2, 0.4, 0.8, 1) as bytes.
const TINT: Color = Color::new(51, 102, 204, 255);

/// A fragment stage writing `n` outputs from A = sampled × tint: A itself, A with its channels
/// rotated (g, b, r, a), rotated again (b, r, g, a), and (1 − rgb, a).
fn mrt_source(n: usize) -> String {
    let exprs = ["a", "a.gbra", "a.brga", "vec4(1.0 - a.rgb, a.a)"];
    let mut s = String::from(
        "#version 450\n\
         layout(set = 2, binding = 0) uniform sampler2D sprite_texture;\n\
         layout(location = 0) in vec4 v_color;\n\
         layout(location = 1) in vec2 v_texcoord;\n",
    );
    for i in 0..n {
        s += &format!("layout(location = {i}) out vec4 out{i};\n");
    }
    s += "void main() {\n    vec4 a = texture(sprite_texture, v_texcoord) * v_color;\n";
    for (i, e) in exprs.iter().enumerate().take(n) {
        s += &format!("    out{i} = {e};\n");
    }
    s + "}\n"
}

/// What target `i` of [`mrt_source`] reads after one sprite over white with [`TINT`].
const EXPECTED: [Color; 4] = [
    Color::new(51, 102, 204, 255),
    Color::new(102, 204, 51, 255),
    Color::new(204, 51, 102, 255),
    Color::new(204, 153, 51, 255),
];

/// A cleared colour no effect output equals.
const CLEARED: Color = Color::new(10, 20, 30, 40);

fn target_of(
    device: &GraphicsDevice,
    format: SurfaceFormat,
    usage: RenderTargetUsage,
) -> RenderTarget2D {
    RenderTarget2D::with_options(device, 8, 8, false, format, DepthFormat::None, 0, usage)
        .expect("render target")
}

/// Clears every bound target to [`CLEARED`], then draws one sprite over white with [`TINT`] at
/// an off-centre rectangle (x 5..7, y 1..4) through `effect` (the stock effect when `None`).
fn draw_sprite(device: &GraphicsDevice, targets: &[&RenderTarget2D], effect: Option<&Effect>) {
    let white = white(device);
    let bindings: Vec<RenderTargetBinding> = targets.iter().map(|t| (*t).into()).collect();
    device.set_render_targets(&bindings).unwrap();
    device.clear(CLEARED).unwrap();
    let mut sb = SpriteBatch::new(device).unwrap();
    sb.begin_with_effect(
        SpriteSortMode::Deferred,
        Some(BlendState::OPAQUE),
        None,
        None,
        None,
        effect,
        None,
    )
    .unwrap();
    sb.draw_rect(&white, Rectangle::new(5, 1, 2, 3), TINT).unwrap();
    sb.end().unwrap();
    device.set_render_target(None).unwrap();
}

#[test]
fn one_sprite_writes_each_output_to_its_own_target() {
    let _v = Validation::new();
    let device = device(8, 8);
    for n in 2..=4 {
        let effect = Effect::from_glsl(&device, &mrt_source(n)).expect("effect compiles");
        assert_eq!(effect.output_count(), n);
        let targets: Vec<_> = (0..n)
            .map(|_| target_of(&device, SurfaceFormat::Color, RenderTargetUsage::DiscardContents))
            .collect();
        draw_sprite(&device, &targets.iter().collect::<Vec<_>>(), Some(&effect));
        for (i, t) in targets.iter().enumerate() {
            let px = read_target(t);
            assert_eq!(at(&px, 8, 5, 1), EXPECTED[i], "{n} targets: target {i} inside the sprite");
            assert_eq!(at(&px, 8, 6, 3), EXPECTED[i], "{n} targets: target {i} inside the sprite");
            assert_eq!(at(&px, 8, 4, 1), CLEARED, "{n} targets: target {i} left of the sprite");
            assert_eq!(at(&px, 8, 5, 4), CLEARED, "{n} targets: target {i} below the sprite");
        }
    }
}

/// IEEE 754 binary16 to f32 (normal numbers and zero suffice here).
fn half(bits: u16) -> f32 {
    let exponent = i32::from((bits >> 10) & 0x1F);
    let mantissa = f32::from(bits & 0x3FF);
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    if exponent == 0 {
        return sign * mantissa * 2f32.powi(-24);
    }
    sign * (1.0 + mantissa / 1024.0) * 2f32.powi(exponent - 15)
}

#[test]
fn a_half_float_second_target_gets_the_rotated_colour() {
    let _v = Validation::new();
    let device = device(8, 8);
    let effect = Effect::from_glsl(&device, &mrt_source(2)).unwrap();
    // Bound targets must have one pixel size: a 64-bit first target beside the HDR one.
    let first = target_of(&device, SurfaceFormat::Rgba64, RenderTargetUsage::DiscardContents);
    let hdr = target_of(&device, SurfaceFormat::HdrBlendable, RenderTargetUsage::DiscardContents);
    assert_eq!(hdr.format(), SurfaceFormat::HdrBlendable);
    draw_sprite(&device, &[&first, &hdr], Some(&effect));
    let mut unorm = vec![[0u16; 4]; 64];
    first.get_data(&mut unorm).unwrap();
    let mut halves = vec![[0u16; 4]; 64];
    hdr.get_data(&mut halves).unwrap();
    let unorm_at = |x: usize, y: usize| {
        unorm[y * 8 + x].map(|c| (f32::from(c) / 65535.0 * 255.0).round() as u8)
    };
    let half_at = |x: usize, y: usize| halves[y * 8 + x].map(half);
    assert_eq!(unorm_at(5, 2), [51, 102, 204, 255]);
    let want = [0.4, 0.8, 0.2, 1.0];
    for (got, want) in half_at(6, 3).iter().zip(want) {
        assert!((got - want).abs() < 1e-3, "HDR target: {:?}, want {want:?}", half_at(6, 3));
    }
    let cleared = [10.0 / 255.0, 20.0 / 255.0, 30.0 / 255.0, 40.0 / 255.0];
    for (got, want) in half_at(1, 6).iter().zip(cleared) {
        assert!((got - want).abs() < 1e-3, "outside the sprite: {:?}", half_at(1, 6));
    }
}

#[test]
fn the_stock_effect_writes_the_first_target_only() {
    let _v = Validation::new();
    let device = device(8, 8);
    let targets: Vec<_> = (0..4)
        .map(|_| target_of(&device, SurfaceFormat::Color, RenderTargetUsage::DiscardContents))
        .collect();
    draw_sprite(&device, &targets.iter().collect::<Vec<_>>(), None);
    assert_eq!(at(&read_target(&targets[0]), 8, 6, 2), TINT);
    for t in &targets[1..] {
        assert!(read_target(t).iter().all(|&p| p == CLEARED), "a later target keeps its clear");
    }
    // A two-output effect with three targets bound leaves the third alone.
    let effect = Effect::from_glsl(&device, &mrt_source(2)).unwrap();
    draw_sprite(&device, &targets[..3].iter().collect::<Vec<_>>(), Some(&effect));
    assert_eq!(at(&read_target(&targets[1]), 8, 6, 2), EXPECTED[1]);
    assert!(read_target(&targets[2]).iter().all(|&p| p == CLEARED));
}

#[test]
fn a_compile_error_names_the_line() {
    let _v = Validation::new();
    let device = device(8, 8);
    let source =
        "#version 450\nlayout(location = 0) out vec4 o;\nvoid main() {\n    o = undeclared;\n}\n";
    match Effect::from_glsl(&device, source) {
        Err(XnaError::Argument { param: "fragmentSource", message }) => {
            assert!(message.contains("0:4:") && message.contains("undeclared"), "{message}")
        }
        other => panic!("a compile error is an ArgumentException: {other:?}"),
    }
    let nul = Effect::from_glsl(&device, "#version 450\0").unwrap_err();
    assert!(matches!(nul, XnaError::Argument { param: "fragmentSource", .. }), "{nul}");
}

/// Compiles `body` (after the version line) and returns the refusal's message.
fn refusal(device: &GraphicsDevice, body: &str) -> String {
    match Effect::from_glsl(device, &format!("#version 450\n{body}")) {
        Err(XnaError::Argument { param: "fragmentSource", message }) => message,
        other => panic!("{body}: expected an ArgumentException, got {other:?}"),
    }
}

#[test]
fn code_that_does_not_fit_the_sprite_pipeline_is_refused() {
    let _v = Validation::new();
    let device = device(8, 8);
    let out = "layout(location = 0) out vec4 o;\n";
    // Resources the pipeline layout does not bind.
    let m = refusal(&device, &format!("{out}layout(set = 2, binding = 1) uniform sampler2D t;\nvoid main() {{ o = texture(t, vec2(0)); }}"));
    assert!(m.contains("set = 2, binding = 0"), "{m}");
    let m = refusal(
        &device,
        &format!("{out}layout(set = 3, binding = 0) uniform sampler2D t;\nvoid main() {{ o = texture(t, vec2(0)); }}"),
    );
    assert!(m.contains("set = 2, binding = 0"), "{m}");
    refusal(
        &device,
        &format!(
            "{out}layout(set = 1, binding = 0) uniform B {{ vec4 c; }};\nvoid main() {{ o = c; }}"
        ),
    );
    refusal(&device, &format!("{out}layout(set = 2, binding = 0) uniform sampler3D t;\nvoid main() {{ o = texture(t, vec3(0)); }}"));
    // Inputs the sprite vertex stage does not write.
    refusal(&device, &format!("{out}layout(location = 2) in vec4 x;\nvoid main() {{ o = x; }}"));
    refusal(&device, &format!("{out}layout(location = 1) in vec4 x;\nvoid main() {{ o = x; }}"));
    // Outputs: none, a gap, five, or not a colour.
    refusal(&device, "void main() {}");
    let m = refusal(&device, "layout(location = 0) out vec4 a;\nlayout(location = 2) out vec4 b;\nvoid main() { a = b = vec4(1); }");
    assert!(m.contains("[0, 2]"), "{m}");
    let five: String = (0..5).map(|i| format!("layout(location = {i}) out vec4 o{i};\n")).collect();
    refusal(&device, &format!("{five}void main() {{ o0 = o1 = o2 = o3 = o4 = vec4(1); }}"));
    refusal(&device, "layout(location = 0) out vec2 o;\nvoid main() { o = vec2(1); }");
    // Built-in inputs are fine: the effect may read gl_FragCoord.
    let ok = "layout(location = 0) out vec4 o;\nlayout(location = 1) in vec2 uv;\nvoid main() { o = vec4(uv, gl_FragCoord.x, 1); }";
    assert_eq!(
        Effect::from_glsl(&device, &format!("#version 450\n{ok}")).unwrap().output_count(),
        1
    );
}

#[test]
fn an_effect_of_another_device_is_refused_at_begin() {
    let _v = Validation::new();
    let device = device(8, 8);
    let other = common::device(8, 8);
    let effect = Effect::from_glsl(&other, &mrt_source(1)).unwrap();
    let mut sb = SpriteBatch::new(&device).unwrap();
    let err = sb
        .begin_with_effect(SpriteSortMode::Deferred, None, None, None, None, Some(&effect), None)
        .unwrap_err();
    assert!(matches!(err, XnaError::Argument { param: "effect", .. }), "{err}");
    sb.begin().unwrap();
}

#[test]
fn a_dropped_effect_lives_as_long_as_the_draws_that_use_it() {
    let _v = Validation::new();
    let device = device(8, 8);
    let base = device.live_native_objects().unwrap().effects;
    let targets: Vec<_> = (0..2)
        .map(|_| target_of(&device, SurfaceFormat::Color, RenderTargetUsage::DiscardContents))
        .collect();
    let effect = Effect::from_glsl(&device, &mrt_source(2)).unwrap();
    assert_eq!(device.live_native_objects().unwrap().effects, base + 1);
    draw_sprite(&device, &[&targets[0], &targets[1]], Some(&effect));
    // The draw is only recorded: it holds the effect past the wrapper's drop, through a wait
    // for the GPU that frees everything nothing holds.
    drop(effect);
    device.wait_idle().unwrap();
    assert_eq!(device.live_native_objects().unwrap().effects, base + 1);
    assert_eq!(at(&read_target(&targets[1]), 8, 5, 3), EXPECTED[1]);
    device.wait_idle().unwrap();
    assert_eq!(device.live_native_objects().unwrap().effects, base, "freed once the GPU is done");
}

#[test]
fn a_dropped_effect_is_freed_only_after_the_submission_that_drew_with_it() {
    if skip_on_sdlgpu("a_dropped_effect_is_freed_only_after_the_submission_that_drew_with_it", "effects are released to SDL at once; SDL defers the free past the GPU and does not report it") {
        return;
    }
    let _v = Validation::new();
    let device = device(8, 8);
    let base = device.live_native_objects().unwrap().effects;
    let targets: Vec<_> = (0..2)
        .map(|_| target_of(&device, SurfaceFormat::Color, RenderTargetUsage::DiscardContents))
        .collect();
    let effect = Effect::from_glsl(&device, &mrt_source(2)).unwrap();
    draw_sprite(&device, &[&targets[0], &targets[1]], Some(&effect));
    device.flush().unwrap();
    drop(effect);
    // The next submission finds the effect dropped while the one that drew with it may still
    // run: its module and pipeline wait for the GPU (validation reports a pipeline destroyed
    // while in use otherwise).
    device.clear(Color::RED).unwrap();
    device.flush().unwrap();
    assert_eq!(device.live_native_objects().unwrap().effects, base + 1);
    device.wait_idle().unwrap();
    assert_eq!(device.live_native_objects().unwrap().effects, base);
    assert_eq!(at(&read_target(&targets[1]), 8, 5, 3), EXPECTED[1]);
}

#[test]
fn a_second_target_dropped_after_binding_lives_until_its_segment_ran() {
    let _v = Validation::new();
    let device = device(8, 8);
    let first = target_of(&device, SurfaceFormat::Color, RenderTargetUsage::DiscardContents);
    let effect = Effect::from_glsl(&device, &mrt_source(2)).unwrap();
    let white = white(&device);
    let second = target_of(&device, SurfaceFormat::Color, RenderTargetUsage::DiscardContents);
    device.set_render_targets(&[(&first).into(), (&second).into()]).unwrap();
    let mut sb = SpriteBatch::new(&device).unwrap();
    sb.begin_with_effect(SpriteSortMode::Deferred, None, None, None, None, Some(&effect), None)
        .unwrap();
    sb.draw_rect(&white, Rectangle::new(0, 0, 8, 8), TINT).unwrap();
    sb.end().unwrap();
    let live = device.live_native_objects().unwrap().textures;
    drop(second);
    assert_eq!(device.live_native_objects().unwrap().textures, live, "the segment holds it");
    device.set_render_target(None).unwrap();
    assert_eq!(at(&read_target(&first), 8, 3, 3), EXPECTED[0]);
    device.wait_idle().unwrap();
    assert_eq!(device.live_native_objects().unwrap().textures, live - 1);
}

#[test]
fn the_first_targets_usage_decides_the_bind_clear() {
    let _v = Validation::new();
    let device = device(8, 8);
    let keep = target_of(&device, SurfaceFormat::Color, RenderTargetUsage::PreserveContents);
    let discard = target_of(&device, SurfaceFormat::Color, RenderTargetUsage::DiscardContents);
    for t in [&keep, &discard] {
        device.set_render_target(Some(t)).unwrap();
        device.clear(CLEARED).unwrap();
    }
    device.set_render_target(None).unwrap();
    // A preserving first target: the bind clears nothing (the discarding second target loads by
    // its own usage, so what it holds is undefined and not checked).
    device.set_render_targets(&[(&keep).into(), (&discard).into()]).unwrap();
    device.set_render_target(None).unwrap();
    assert!(read_target(&keep).iter().all(|&p| p == CLEARED));
    // A discarding first target: the bind clears every target, the preserving one included.
    device.set_render_targets(&[(&discard).into(), (&keep).into()]).unwrap();
    device.set_render_target(None).unwrap();
    assert!(read_target(&discard).iter().all(|&p| p == Color::BLACK));
    assert!(read_target(&keep).iter().all(|&p| p == Color::BLACK));
}

#[test]
fn reach_binds_one_target_and_a_two_output_effect_writes_it() {
    let _v = Validation::new();
    let reach = device_with(GraphicsProfile::Reach, params(8, 8));
    let effect = Effect::from_glsl(&reach, &mrt_source(2)).unwrap();
    let a = target_of(&reach, SurfaceFormat::Color, RenderTargetUsage::DiscardContents);
    let b = target_of(&reach, SurfaceFormat::Color, RenderTargetUsage::DiscardContents);
    let err = reach.set_render_targets(&[(&a).into(), (&b).into()]).unwrap_err();
    assert!(matches!(err, XnaError::NotSupported { .. }), "{err}");
    // The output without a target is dropped.
    draw_sprite(&reach, &[&a], Some(&effect));
    let px = read_target(&a);
    assert_eq!(at(&px, 8, 5, 1), EXPECTED[0]);
    assert_eq!(at(&px, 8, 1, 5), CLEARED);
}

#[test]
fn each_multisampled_target_resolves_its_own_output() {
    let _v = Validation::new();
    let device = device(8, 8);
    let effect = Effect::from_glsl(&device, &mrt_source(2)).unwrap();
    let msaa = |usage| {
        RenderTarget2D::with_options(
            &device,
            8,
            8,
            false,
            SurfaceFormat::Color,
            DepthFormat::None,
            4,
            usage,
        )
        .unwrap()
    };
    let (a, b) =
        (msaa(RenderTargetUsage::DiscardContents), msaa(RenderTargetUsage::PreserveContents));
    if !multisampled_as_requested(
        "each_multisampled_target_resolves_its_own_output",
        a.multi_sample_count(),
        4,
    ) {
        return;
    }
    draw_sprite(&device, &[&a, &b], Some(&effect));
    for (t, want) in [(&a, EXPECTED[0]), (&b, EXPECTED[1])] {
        let px = read_target(t);
        assert_eq!(at(&px, 8, 6, 2), want);
        assert_eq!(at(&px, 8, 2, 6), CLEARED);
    }
}

#[test]
fn bound_targets_compare_their_applied_sample_counts() {
    let _v = Validation::new();
    let device = device(8, 8);
    let requested = |samples| {
        RenderTarget2D::with_options(
            &device,
            8,
            8,
            false,
            SurfaceFormat::Color,
            DepthFormat::None,
            samples,
            RenderTargetUsage::DiscardContents,
        )
        .unwrap()
    };
    // Counts that differ as requested may be applied as one (rounded down to a power of two,
    // clamped to what the device has): the applied counts decide.
    for (x, y) in [(3, 2), (3, 4), (1, 0), (5, 4), (8, 16)] {
        let (a, b) = (requested(x), requested(y));
        let same = a.multi_sample_count() == b.multi_sample_count();
        let bound = device.set_render_targets(&[(&a).into(), (&b).into()]);
        assert_eq!(bound.is_ok(), same, "requested {x} and {y}: {bound:?}");
        if let Err(e) = bound {
            assert!(matches!(e, XnaError::Argument { .. }), "{e}");
        }
        device.set_render_target(None).unwrap();
    }
}

#[test]
fn only_creating_an_effect_reaches_the_backend() {
    use xnagraph::diagnostics::BackendCall;
    let (device, probe) = null_device(8, 8);
    let white = Texture2D::new(&device, 1, 1).unwrap();
    let (a, b) =
        (RenderTarget2D::new(&device, 8, 8).unwrap(), RenderTarget2D::new(&device, 8, 8).unwrap());
    let before = probe.count(BackendCall::CreateEffect);
    let effect = Effect::from_glsl(&device, &mrt_source(2)).unwrap();
    assert_eq!(probe.count(BackendCall::CreateEffect), before + 1);
    let calls = probe.calls();
    device.set_render_targets(&[(&a).into(), (&b).into()]).unwrap();
    let mut sb = SpriteBatch::new(&device).unwrap();
    sb.begin_with_effect(SpriteSortMode::Immediate, None, None, None, None, Some(&effect), None)
        .unwrap();
    sb.draw_rect(&white, Rectangle::new(0, 0, 2, 2), TINT).unwrap();
    sb.end().unwrap();
    drop(effect);
    assert_eq!(probe.calls(), calls, "recording with an effect calls nothing");
    // A refused effect never reaches the backend.
    assert!(Effect::from_glsl(&device, "#version 450\nvoid main() {}").is_err());
    assert_eq!(probe.count(BackendCall::CreateEffect), before + 1);
}

#[test]
fn an_effect_is_a_tracked_resource_disposed_with_its_device() {
    use std::sync::{Arc, Mutex};
    let _v = Validation::new();
    let device = device(8, 8);
    let events = Arc::new(Mutex::new(Vec::new()));
    for (name, event) in [
        ("created", &device.events().resource_created),
        ("destroyed", &device.events().resource_destroyed),
    ] {
        let events = events.clone();
        event.subscribe(move |a: &xnagraph::ResourceEventArgs| {
            events.lock().unwrap().push((name, a.kind, a.resource))
        });
    }
    let tracked = device.tracked_resource_count();
    let effect = Effect::from_glsl(&device, &mrt_source(2)).unwrap();
    let id = effect.resource_id();
    assert_eq!(device.tracked_resource_count(), tracked + 1);
    let target = target_of(&device, SurfaceFormat::Color, RenderTargetUsage::DiscardContents);
    let second = target_of(&device, SurfaceFormat::Color, RenderTargetUsage::DiscardContents);
    // A draw recorded before the dispose still runs with the effect.
    draw_sprite(&device, &[&target, &second], Some(&effect));
    effect.dispose();
    assert!(effect.is_disposed());
    effect.dispose();
    let mut sb = SpriteBatch::new(&device).unwrap();
    let err = sb
        .begin_with_effect(SpriteSortMode::Deferred, None, None, None, None, Some(&effect), None)
        .unwrap_err();
    assert_eq!(err, XnaError::ObjectDisposed { object: "Effect" });
    assert_eq!(at(&read_target(&second), 8, 5, 1), EXPECTED[1]);
    let effects: Vec<_> =
        events.lock().unwrap().iter().filter(|e| e.1 == "Effect").cloned().collect();
    assert_eq!(effects, [("created", "Effect", id), ("destroyed", "Effect", id)]);
    // Device disposal disposes a live effect.
    let other = Effect::from_glsl(&device, &mrt_source(1)).unwrap();
    device.dispose();
    assert!(other.is_disposed());
}

#[test]
fn non_ascii_source_is_an_error_or_compiles_never_a_panic() {
    let _v = Validation::new();
    let device = device(8, 8);
    for bad in
        ["o = é;", "o = vec4(1); // é ü 漢\n", "o = \u{00ff}\u{00fe};", "o\u{0301} = vec4(1);"]
    {
        let source =
            format!("#version 450\nlayout(location = 0) out vec4 o;\nvoid main() {{\n{bad}\n}}\n");
        match Effect::from_glsl(&device, &source) {
            Ok(e) => assert_eq!(e.output_count(), 1),
            Err(XnaError::Argument { param: "fragmentSource", .. }) => {}
            Err(other) => panic!("{bad}: {other:?}"),
        }
    }
}
