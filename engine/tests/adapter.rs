//! `GraphicsAdapter`: the adapters a backend lists (the default first), their ids against what
//! a device on them reports, a device made on a chosen adapter, what is refused, and the
//! queries' fallback rules checked against the formats real render targets and back buffers
//! get on the same adapter.

mod common;

use common::*;
use xnagraph::{
    BackendKind, Color, DepthFormat, GraphicsAdapter, GraphicsDevice, GraphicsProfile,
    RenderTarget2D, RenderTargetUsage, SurfaceFormat, XnaError,
};

/// The adapters of the backend the tests run on.
fn listed() -> Vec<GraphicsAdapter> {
    GraphicsAdapter::adapters_for(test_options().backend).expect("adapters")
}

fn device_on(
    adapter: &GraphicsAdapter,
    profile: GraphicsProfile,
) -> xnagraph::Result<GraphicsDevice> {
    GraphicsDevice::with_adapter(adapter, profile, params(8, 8), test_options())
}

#[test]
fn the_list_is_non_empty_and_the_default_adapter_is_first() {
    let _v = Validation::new();
    let listed = listed();
    assert!(!listed.is_empty());
    assert!(listed.iter().all(|a| a.backend() == test_options().backend));
    let default = GraphicsAdapter::default_adapter().unwrap();
    assert_eq!(default, GraphicsAdapter::adapters().unwrap()[0]);
    assert_eq!(GraphicsAdapter::adapter(0).unwrap(), default);
    // A device made without an adapter runs on the first listed.
    let device = device(8, 8);
    assert_eq!(device.adapter(), listed[0]);
}

#[test]
fn vendor_and_device_ids_match_what_the_device_reports() {
    let _v = Validation::new();
    let first = &listed()[0];
    let device = device(8, 8);
    let on = device.adapter();
    assert_eq!(on.description(), first.description());
    assert_eq!((on.vendor_id(), on.device_id()), (first.vendor_id(), first.device_id()));
    if on_sdlgpu() {
        assert!(!first.description().is_empty(), "SDL reports the device's name");
    } else {
        let name = device.adapter_name();
        assert!(name.starts_with(first.description()), "{name} names {}", first.description());
    }
    assert_eq!(on.capabilities(), device.capabilities());
    for format in SurfaceFormat::ALL {
        assert_eq!(first.format_support(format), device.format_support(format), "{format:?}");
    }
    if !on_sdlgpu() {
        assert_ne!(first.vendor_id(), 0, "Vulkan reports a vendor id");
    }
}

#[test]
fn a_device_made_on_adapter_0_clears_and_reads_back() {
    let _v = Validation::new();
    let adapter = &listed()[0];
    let device = device_on(adapter, GraphicsProfile::HiDef).expect("device on adapter 0");
    assert_eq!(&device.adapter(), adapter);
    device.clear(Color::CORNFLOWER_BLUE).unwrap();
    device.present().unwrap();
    let pixels = read_back_buffer(&device);
    assert_eq!(at(&pixels, 8, 3, 5), Color::CORNFLOWER_BLUE);
}

#[test]
fn an_index_past_the_list_is_out_of_range() {
    let count = GraphicsAdapter::adapters().unwrap().len();
    let refused = GraphicsAdapter::adapter(count).unwrap_err();
    assert!(matches!(refused, XnaError::ArgumentOutOfRange { param: "index", .. }), "{refused:?}");
}

#[test]
fn an_adapter_another_backend_listed_is_refused() {
    let null = &GraphicsAdapter::adapters_for(BackendKind::Null).unwrap()[0];
    assert_eq!(null.description(), "null (no GPU)");
    let refused = device_on(null, GraphicsProfile::Reach).expect_err("refused");
    if on_sdlgpu() {
        assert!(matches!(refused, XnaError::NotSupported { .. }), "{refused:?}");
    } else {
        assert!(matches!(refused, XnaError::Argument { param: "adapter", .. }), "{refused:?}");
    }
}

#[test]
fn on_sdlgpu_an_adapter_other_than_sdls_choice_is_not_supported() {
    let sdl = match GraphicsAdapter::adapters_for(BackendKind::SdlGpu) {
        Ok(listed) => listed,
        Err(e) => return skipped("on_sdlgpu_…", &format!("no SDL_gpu here: {e}")),
    };
    assert_eq!(sdl.len(), 1, "SDL 3.4 chooses one device");
    assert_eq!((sdl[0].vendor_id(), sdl[0].device_id()), (0, 0), "SDL reports no ids");
    let options = xnagraph::DeviceOptions { backend: BackendKind::SdlGpu, ..test_options() };
    let on = |a: &GraphicsAdapter| {
        GraphicsDevice::with_adapter(a, GraphicsProfile::Reach, params(8, 8), options)
    };
    let device = on(&sdl[0]).expect("SDL's own choice");
    assert_eq!(device.adapter().description(), sdl[0].description());
    drop(device);
    let null = &GraphicsAdapter::adapters_for(BackendKind::Null).unwrap()[0];
    let refused = on(null).expect_err("refused");
    assert!(matches!(refused, XnaError::NotSupported { .. }), "{refused:?}");
}

#[test]
fn an_unsupported_profile_is_refused_at_creation() {
    let adapter = &listed()[0];
    for profile in [GraphicsProfile::Reach, GraphicsProfile::HiDef] {
        let made = device_on(adapter, profile);
        if adapter.is_profile_supported(profile) {
            assert!(made.is_ok(), "{profile:?}: {:?}", made.err());
        } else {
            assert!(matches!(made, Err(XnaError::NotSupported { .. })), "{profile:?}");
        }
    }
}

#[test]
fn hidef_is_supported_where_the_device_allows_what_hidef_allows() {
    let adapter = &listed()[0];
    let caps = adapter.capabilities();
    let hidef = caps.max_texture_dimension >= 4096
        && caps.max_cube_dimension >= 4096
        && caps.max_volume_dimension >= 256
        && caps.max_color_attachments >= 4
        && caps.independent_blend;
    assert_eq!(adapter.is_profile_supported(GraphicsProfile::HiDef), hidef);
    assert!(adapter.is_profile_supported(GraphicsProfile::Reach));
}

#[test]
fn a_format_the_profile_forbids_becomes_color() {
    let adapter = &listed()[0];
    let (reach, hidef) = (GraphicsProfile::Reach, GraphicsProfile::HiDef);
    let query = |p, f| adapter.query_render_target_format(p, f, DepthFormat::None, 0).0;
    assert_eq!(query(reach, SurfaceFormat::Bgr565), SurfaceFormat::Color);
    assert_eq!(query(hidef, SurfaceFormat::Dxt5), SurfaceFormat::Color);
    assert_eq!(query(reach, SurfaceFormat::Color), SurfaceFormat::Color);
    let back =
        adapter.query_back_buffer_format(reach, SurfaceFormat::HalfVector4, DepthFormat::None, 0);
    assert_eq!(back.0, SurfaceFormat::Color);
}

#[test]
fn a_format_the_adapter_cannot_render_becomes_color() {
    let adapter = &listed()[0];
    let hidef = GraphicsProfile::HiDef;
    for format in SurfaceFormat::ALL.into_iter().filter(|f| !f.is_block_compressed()) {
        let selected = adapter.query_render_target_format(hidef, format, DepthFormat::None, 0).0;
        let want = if adapter.format_support(format).render_target {
            format
        } else {
            SurfaceFormat::Color
        };
        assert_eq!(selected, want, "{format:?}");
    }
}

#[test]
fn a_depth_format_falls_back_to_what_the_adapter_has() {
    let adapter = &listed()[0];
    let hidef = GraphicsProfile::HiDef;
    let depth = |d| adapter.query_render_target_format(hidef, SurfaceFormat::Color, d, 0).1;
    assert_eq!(depth(DepthFormat::None), DepthFormat::None);
    for requested in [DepthFormat::Depth16, DepthFormat::Depth24, DepthFormat::Depth24Stencil8] {
        let applied = depth(requested);
        assert_ne!(applied, DepthFormat::None, "{requested:?}: every adapter has a depth format");
        assert!(applied as usize <= requested as usize, "{requested:?} became {applied:?}");
    }
}

#[test]
fn a_sample_count_rounds_down_to_one_the_adapter_supports() {
    let adapter = &listed()[0];
    let counts = adapter.capabilities().sample_counts;
    let hidef = GraphicsProfile::HiDef;
    let count =
        |n| adapter.query_render_target_format(hidef, SurfaceFormat::Color, DepthFormat::None, n).2;
    for requested in [-3, 0, 1] {
        assert_eq!(count(requested), 0, "{requested} means no multisampling");
    }
    for requested in 2..=32u32 {
        let want = (2..=requested).rev().find(|&c| c.is_power_of_two() && counts & c != 0);
        assert_eq!(count(requested as i32), want.unwrap_or(0) as i32, "{requested}");
    }
}

#[test]
fn the_queries_answer_what_targets_and_back_buffers_get() {
    let _v = Validation::new();
    let adapter = &listed()[0];
    let hidef = GraphicsProfile::HiDef;
    let device = device_on(adapter, hidef).unwrap();
    let requests = [
        (SurfaceFormat::Color, DepthFormat::Depth24Stencil8, 4),
        (SurfaceFormat::HalfVector4, DepthFormat::Depth16, 3),
        (SurfaceFormat::Vector2, DepthFormat::Depth24, 0),
        (SurfaceFormat::Dxt1, DepthFormat::None, 1),
        (SurfaceFormat::Rgba1010102, DepthFormat::Depth24, 8),
    ];
    for (format, depth, count) in requests {
        let query = adapter.query_render_target_format(hidef, format, depth, count);
        let target = RenderTarget2D::with_options(
            &device,
            4,
            4,
            false,
            format,
            depth,
            count,
            RenderTargetUsage::DiscardContents,
        )
        .unwrap();
        let made = (target.format(), target.depth_stencil_format(), target.multi_sample_count());
        assert_eq!(query, made, "render target of {format:?} {depth:?} ×{count}");

        let params = xnagraph::PresentationParameters {
            back_buffer_format: format,
            depth_stencil_format: depth,
            multi_sample_count: count,
            ..params(4, 4)
        };
        let back = GraphicsDevice::with_adapter(adapter, hidef, params, test_options()).unwrap();
        let applied = back.presentation_parameters();
        let made =
            (applied.back_buffer_format, applied.depth_stencil_format, applied.multi_sample_count);
        let query = adapter.query_back_buffer_format(hidef, format, depth, count);
        assert_eq!(query, made, "back buffer of {format:?} {depth:?} ×{count}");
    }
}

#[cfg(feature = "game")]
#[test]
fn display_modes_come_from_the_x_server_or_are_absent() {
    let adapter = &listed()[0];
    let current = adapter.current_display_mode();
    let modes = adapter.supported_display_modes();
    let has_display = std::env::var_os("DISPLAY").is_some_and(|d| !d.is_empty());
    if !has_display {
        assert_eq!(current, None);
        assert!(modes.is_empty());
        return skipped("display_modes_…", "no X display");
    }
    let current = current.expect("an X display has a current mode");
    assert!(current.width > 0 && current.height > 0, "{current:?}");
    assert_eq!(current.aspect_ratio, current.width as f32 / current.height as f32);
    assert_eq!(
        current.title_safe_area,
        xnagraph::Rectangle::new(0, 0, current.width, current.height)
    );
    assert!(
        modes.iter().any(|m| (m.width, m.height) == (current.width, current.height)),
        "{current:?} among {modes:?}"
    );
}
