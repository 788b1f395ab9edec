//! RenderTargetUsage as pixels show it: what a target holds when it is bound again — after
//! another target was bound in between, or in the next frame — for each usage, single-sampled
//! and 4× multisampled, colour, depth and stencil alike; and an explicit Clear inside the new
//! bind cycle winning over the usage aspect by aspect. Depth and stencil are read through draws
//! tested against them. The test devices poison DONT_CARE content, so a wrong load or store
//! shows as a wrong pixel.

mod common;

use common::*;
use xnagraph::{
    ClearOptions, Color, CompareFunction, DepthFormat, DepthStencilState, GraphicsDevice,
    Rectangle, RenderTarget2D, RenderTargetUsage, SpriteBatch, SpriteEffects, SpriteSortMode,
    Texture2D, Vector2,
};

const W: i32 = 16;
const H: i32 = 8;

/// What the first bind cycle leaves: colour, an off-centre square, depth and stencil.
const FIRST: Color = Color::new(30, 60, 90, 255);
const SQUARE: Color = Color::new(200, 20, 120, 255);
const SQUARE_AT: Rectangle = Rectangle::new(11, 5, 3, 2);
const FIRST_DEPTH: f32 = 0.25;
const FIRST_STENCIL: i32 = 7;

/// What the explicit clear of the second cycle writes, in the aspects it names.
const SECOND: Color = Color::new(10, 140, 70, 255);
const SECOND_DEPTH: f32 = 0.75;
const SECOND_STENCIL: i32 = 3;

/// Probes drawn in the second cycle, each in its own place, none writing depth or stencil: two
/// depth-tested at 0.5 and 0.8 (LessEqual: each shows only where the depth is at least its
/// own), two stencil-tested for 7 and for 3. Together they tell 0.25, 0.75 and 1 apart, and
/// 7, 3 and 0.
struct Probe {
    at: Rectangle,
    color: Color,
    state: DepthStencilState,
    depth: f32,
}

fn probes() -> [Probe; 4] {
    let depth = |d: f32, x: i32, color: Color| Probe {
        at: Rectangle::new(x, 1, 2, 2),
        color,
        state: DepthStencilState { depth_buffer_write_enable: false, ..DepthStencilState::DEFAULT },
        depth: d,
    };
    let stencil = |s: i32, x: i32, color: Color| Probe {
        at: Rectangle::new(x, 1, 2, 2),
        color,
        state: DepthStencilState {
            stencil_enable: true,
            stencil_function: CompareFunction::Equal,
            reference_stencil: s as u32,
            ..DepthStencilState::NONE
        },
        depth: 0.0,
    };
    [
        depth(0.5, 1, Color::new(255, 0, 0, 255)),
        depth(0.8, 4, Color::new(0, 0, 255, 255)),
        stencil(FIRST_STENCIL, 7, Color::new(255, 255, 0, 255)),
        stencil(SECOND_STENCIL, 10, Color::new(0, 255, 255, 255)),
    ]
}

fn draw(device: &GraphicsDevice, white: &Texture2D, probe: &Probe) {
    let mut sb = SpriteBatch::new(device).unwrap();
    sb.begin_with(SpriteSortMode::Deferred, None, None, Some(probe.state), None, None).unwrap();
    let (c, d) = (probe.color, probe.depth);
    sb.draw_rect_ex(white, probe.at, None, c, 0.0, Vector2::ZERO, SpriteEffects::NONE, d).unwrap();
    sb.end().unwrap();
}

/// The second cycle's explicit clear and whether the usage keeps content.
struct Held {
    options: ClearOptions,
    kept: bool,
}

impl Held {
    fn aspect<T>(&self, aspect: ClearOptions, cleared: T, first: T, discarded: T) -> T {
        if self.options.contains(aspect) {
            cleared
        } else if self.kept {
            first
        } else {
            discarded
        }
    }
}

/// How the second cycle begins after the first ended.
#[derive(Clone, Copy, Debug)]
enum Between {
    /// Another target bound in between, in the same frame.
    Rebind,
    /// The frame presented in between.
    Present,
}

/// Runs both cycles on a Depth24Stencil8 target per explicit clear (none, and each aspect
/// alone) and checks each target's pixels against what `usage` and the clear leave.
fn check(usage: RenderTargetUsage, samples: i32, between: Between) {
    let name = format!("{usage:?}, {samples} samples, {between:?}");
    let device = device(8, 8);
    let white = white(&device);
    let other = RenderTarget2D::new(&device, 4, 4).unwrap();
    let clears = [
        ClearOptions::empty(),
        ClearOptions::TARGET,
        ClearOptions::DEPTH_BUFFER,
        ClearOptions::STENCIL,
    ];
    let targets: Vec<RenderTarget2D> = clears
        .iter()
        .map(|_| {
            RenderTarget2D::with_options(
                &device,
                W,
                H,
                false,
                xnagraph::SurfaceFormat::Color,
                DepthFormat::Depth24Stencil8,
                samples,
                usage,
            )
            .unwrap()
        })
        .collect();
    if !multisampled_as_requested(&name, targets[0].multi_sample_count(), samples) {
        return;
    }
    assert_eq!(targets[0].depth_stencil_format(), DepthFormat::Depth24Stencil8, "{name}");
    for rt in &targets {
        device.set_render_target(Some(rt)).unwrap();
        let first = [FIRST.r, FIRST.g, FIRST.b, FIRST.a].map(|c| f32::from(c) / 255.0);
        device.clear_with(ClearOptions::all(), first, FIRST_DEPTH, FIRST_STENCIL).unwrap();
        let mut sb = SpriteBatch::new(&device).unwrap();
        sb.begin_with(
            SpriteSortMode::Deferred,
            None,
            None,
            Some(DepthStencilState::NONE),
            None,
            None,
        )
        .unwrap();
        sb.draw_rect(&white, SQUARE_AT, SQUARE).unwrap();
        sb.end().unwrap();
        device.set_render_target(None).unwrap();
    }
    match between {
        Between::Rebind => {
            device.set_render_target(Some(&other)).unwrap();
            device.clear(Color::WHITE).unwrap();
            device.set_render_target(None).unwrap();
        }
        Between::Present => device.present().unwrap(),
    }
    for (rt, options) in targets.iter().zip(clears) {
        device.set_render_target(Some(rt)).unwrap();
        let second = [SECOND.r, SECOND.g, SECOND.b, SECOND.a].map(|c| f32::from(c) / 255.0);
        device.clear_with(options, second, SECOND_DEPTH, SECOND_STENCIL).unwrap();
        for probe in &probes() {
            draw(&device, &white, probe);
        }
        device.set_render_target(None).unwrap();
    }
    // XNA's rule, written out: only DiscardContents discards (PlatformContents preserves).
    let kept = usage != RenderTargetUsage::DiscardContents;
    for (rt, options) in targets.iter().zip(clears) {
        // What each aspect holds after the second cycle: the clear's value where the clear
        // names the aspect, else the first cycle's where the usage keeps it, else the bind's.
        let held = Held { options, kept };
        let background = held.aspect(ClearOptions::TARGET, SECOND, FIRST, Color::BLACK);
        let square = held.aspect(ClearOptions::TARGET, SECOND, SQUARE, Color::BLACK);
        let depth = held.aspect(ClearOptions::DEPTH_BUFFER, SECOND_DEPTH, FIRST_DEPTH, 1.0);
        let stencil = held.aspect(ClearOptions::STENCIL, SECOND_STENCIL, FIRST_STENCIL, 0);
        let px = read_target(rt);
        let case = format!("{name}, clear {options:?}");
        assert_eq!(at(&px, W, 2, 6), background, "{case}: colour away from every draw");
        assert_eq!(at(&px, W, 12, 5), square, "{case}: the first cycle's square");
        let [d50, d80, s7, s3] = probes();
        for (probe, shows) in [
            (d50, depth >= 0.5),
            (d80, depth >= 0.8),
            (s7, stencil == FIRST_STENCIL),
            (s3, stencil == SECOND_STENCIL),
        ] {
            let want = if shows { probe.color } else { background };
            let got = at(&px, W, probe.at.x + 1, probe.at.y + 1);
            assert_eq!(
                got, want,
                "{case}: probe at {:?} (depth {depth}, stencil {stencil})",
                probe.at
            );
        }
    }
}

#[test]
fn each_usage_keeps_or_discards_colour_depth_and_stencil_across_a_rebind() {
    let _v = Validation::new();
    for usage in [
        RenderTargetUsage::DiscardContents,
        RenderTargetUsage::PreserveContents,
        RenderTargetUsage::PlatformContents,
    ] {
        check(usage, 0, Between::Rebind);
    }
}

#[test]
fn each_usage_keeps_or_discards_colour_depth_and_stencil_across_frames() {
    let _v = Validation::new();
    for usage in [
        RenderTargetUsage::DiscardContents,
        RenderTargetUsage::PreserveContents,
        RenderTargetUsage::PlatformContents,
    ] {
        check(usage, 0, Between::Present);
    }
}

#[test]
fn each_usage_of_a_multisampled_target_keeps_or_discards_its_samples() {
    let _v = Validation::new();
    for usage in [
        RenderTargetUsage::DiscardContents,
        RenderTargetUsage::PreserveContents,
        RenderTargetUsage::PlatformContents,
    ] {
        check(usage, 4, Between::Rebind);
        check(usage, 4, Between::Present);
    }
}
