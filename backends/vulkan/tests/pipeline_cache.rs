//! The pipeline cache file ([`VulkanConfig::pipeline_cache`]): written when a backend is
//! dropped, read by the next backend of the same device and driver, and ignored, never fatal,
//! when it is damaged or another driver's.

mod common;

use std::path::PathBuf;

use common::*;
use xnagraph_graph::{
    Backend, BlendState, ColorWrites, DepthStencilState, PipelineKey, PipelineRequest,
    RasterizerState, ShaderKind,
};
use xnagraph_vulkan::VulkanConfig;

fn cache_path(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(format!("{name}-{}.pipelines", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

/// A validating backend keeping its pipeline cache at `path`; builds the sprite pipelines of
/// three blend states (so the cache holds pipelines), then drops the backend (writing the
/// file). Returns the bytes the backend read from the file at its creation.
fn run(path: &std::path::Path) -> usize {
    let config = VulkanConfig { pipeline_cache: Some(path.to_owned()), ..test_config() };
    let mut s = Session::with_config(config);
    let loaded = s.backend.pipeline_cache_loaded();
    let target = s.texture(target_desc(16, 16, 1, 0));
    let requests: Vec<PipelineRequest> =
        [BlendState::OPAQUE, BlendState::ALPHA_BLEND, BlendState::ADDITIVE]
            .into_iter()
            .map(|blend| {
                let key = PipelineKey {
                    shader: ShaderKind::Sprite,
                    blend,
                    depth_stencil: DepthStencilState::NONE,
                    rasterizer: RasterizerState::CULL_COUNTER_CLOCKWISE,
                };
                PipelineRequest {
                    key,
                    targets: vec![target.clone()],
                    writes: ColorWrites::of_draw(&key, 1),
                    textures: 1,
                    geometry: None,
                    effect: None,
                }
            })
            .collect();
    s.backend.prepare_pipelines(&requests).unwrap();
    assert_eq!(s.backend.pipeline_stats().built_on_request, 3);
    drop(target);
    s.finish();
    loaded
}

#[test]
fn a_second_backend_starts_from_the_cache_the_first_wrote() {
    let path = cache_path("second");
    assert_eq!(run(&path), 0, "no file yet: an empty cache");
    let written = std::fs::read(&path).expect("the first backend wrote its cache");
    let loaded = run(&path);
    assert!(loaded > 0, "the second backend read the cache");
    assert!(written.len() > loaded, "the file wraps the cache data ({} > {loaded})", written.len());
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_damaged_or_foreign_cache_file_is_ignored_and_replaced() {
    let path = cache_path("damaged");
    run(&path);
    let good = std::fs::read(&path).unwrap();
    // A flipped byte of the cache data: the checksum refuses it.
    let mut flipped = good.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 0x55;
    // Another driver version (bytes 20..24 of the header).
    let mut foreign = good.clone();
    foreign[20] ^= 1;
    for (what, bytes) in [
        ("flipped", flipped),
        ("foreign", foreign),
        ("truncated", good[..40].to_vec()),
        ("garbage", vec![7; 5000]),
    ] {
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(run(&path), 0, "{what}: the cache started empty");
        assert!(run(&path) > 0, "{what}: the file was replaced by a good one");
    }
    std::fs::remove_file(&path).unwrap();
}
